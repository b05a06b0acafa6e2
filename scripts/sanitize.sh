#!/usr/bin/env bash
# Builds everything with AddressSanitizer and UndefinedBehaviorSanitizer on
# tk's own code and runs the whole CPU test suite under them (lit, unit
# tests, the fuzz replays, the examples in the interpreter). LLVM/MLIR are
# the prebuilt Debian libraries, uninstrumented, linked as the shared
# libMLIR/libLLVM. docs/reliability.md explains the setup.
#
#   scripts/sanitize.sh [ctest args...]      e.g. -R lit, -L fuzz
#
# Environment:
#   TK_ASAN_BUILD_DIR  build folder (default build-asan)
#   TK_SANITIZE        sanitizers (default address,undefined)
#   TK_JOBS            parallel compile jobs (default 2)
#   TK_SANITIZE_CMAKE_ARGS  more cmake arguments, e.g. -DTK_FUZZ=ON
#   CC, CXX            the compiler of a new build folder (default: the
#                      system's, g++); scripts/test.sh uses clang with
#                      -DTK_FUZZ=ON so that one build also serves fuzz.sh
#
# Exits non-zero if the build fails or any test fails or reports.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

build=${TK_ASAN_BUILD_DIR:-build-asan}
case "$build" in /*) ;; *) build=$repo/$build ;; esac
jobs=${TK_JOBS:-2}

source "$repo/scripts/ccache-launcher.sh"
tk_ccache_launcher

# -O1 and line tables only: what ASan's reports need (file:line stacks),
# for about 20% less compile time than -O2 -g and a fraction of the object
# and link size (docs/reliability.md, "Build time").
cxx=${CXX:-c++}
if [ -f "$build/CMakeCache.txt" ]; then  # a configured folder keeps its own
  cxx=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
fi
case "$("$cxx" --version 2>/dev/null | head -1)" in
  *clang*) debug_flags="-O1 -gline-tables-only -DNDEBUG" ;;
  *)       debug_flags="-O1 -g1 -DNDEBUG" ;;
esac

start=$(date +%s)
cmake -G Ninja -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$debug_flags" \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="$debug_flags" \
  -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
  -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
  -DTK_CUDA_ROOT="${TK_CUDA_ROOT:-/usr/local/cuda}" \
  -DTK_SANITIZE="${TK_SANITIZE:-address,undefined}" \
  "${launcher[@]}" ${TK_SANITIZE_CMAKE_ARGS:-} >/dev/null
ninja -C "$build" -j "$jobs"
built=$(date +%s)
echo "sanitize: build done in $(( built - start )) s"

# - halt_on_error/abort: a report fails the test that caused it, with a
#   stack trace, instead of scrolling by (the build also has
#   -fno-sanitize-recover=all).
# - detect_container_overflow=0 is NOT needed: libstdc++ only annotates
#   containers when built with _GLIBCXX_SANITIZE_VECTOR, which neither tk
#   nor the Debian LLVM defines, so the mixed instrumented/uninstrumented
#   code cannot report false container overflows.
# - The leak checker stays on: tk's tools must not leak either.
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export TK_INTERPRET=1

status=0
(cd "$build" && ctest --output-on-failure -j"$jobs" --timeout 900 "$@") || status=$?
echo "sanitize: tests done in $(( $(date +%s) - built )) s (total $(( $(date +%s) - start )) s)"
exit $status
