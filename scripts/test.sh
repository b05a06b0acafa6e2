#!/usr/bin/env bash
# Runs every test: lit (FileCheck per pass/stage, bad-input diagnostics, PTX
# through ptxas), GoogleTest, and the examples in the CPU interpreter.
# Installs and builds first, so it works on a fresh clone.
#
# Then the reliability checks (docs/reliability.md): the whole suite again
# under ASan and UBSan, and a bounded run of every fuzz target. One clang
# build (build-fuzz: ASan, UBSan and libFuzzer's coverage) serves both, so
# CI pays for one instrumented build, not two.
#   TK_TEST_RELIABILITY=0     skip them
#   TK_TEST_FUZZ_SECONDS=N    seconds per fuzz target (default 30; 0: none)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
BUILD_DIR="${TK_BUILD_DIR:-build}"
(cd "$BUILD_DIR" && ctest --output-on-failure -j2 --timeout 600)

if [ "${TK_TEST_RELIABILITY:-1}" != 0 ]; then
  fuzz_build=${TK_FUZZ_BUILD_DIR:-build-fuzz}
  CC=clang CXX=clang++ TK_ASAN_BUILD_DIR="$fuzz_build" \
    TK_SANITIZE_CMAKE_ARGS=-DTK_FUZZ=ON bash scripts/sanitize.sh
  seconds=${TK_TEST_FUZZ_SECONDS:-30}
  if [ "$seconds" != 0 ]; then
    TK_FUZZ_BUILD_DIR="$fuzz_build" bash scripts/fuzz.sh "$seconds"
  fi
fi
