#!/usr/bin/env bash
# Runs every test: lit (FileCheck per pass/stage, bad-input diagnostics, PTX
# through ptxas), GoogleTest, and the examples in the CPU interpreter.
# Installs and builds first, so it works on a fresh clone.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
BUILD_DIR="${TK_BUILD_DIR:-build}"
cd "$BUILD_DIR"
ctest --output-on-failure -j2 --timeout 600
