#!/usr/bin/env bash
# Configures and builds tk in build/ (shared libMLIR/libLLVM: fast links).
# Usage: scripts/build.sh [extra cmake args...]
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${TK_BUILD_DIR:-build}"
# A new build folder is compiled with clang when CC/CXX name no compiler:
# it compiles tk in about two thirds of g++'s CPU time (docs/reliability.md,
# "Build time"). g++ works too: CC=gcc CXX=g++. A configured folder keeps
# its compiler (CMake caches it).
if [ -z "${CXX:-}" ] && [ ! -f "$BUILD_DIR/CMakeCache.txt" ] &&
   command -v clang++ >/dev/null && command -v clang >/dev/null; then
  export CC=${CC:-clang} CXX=clang++
fi
source scripts/ccache-launcher.sh
tk_ccache_launcher
cmake -G Ninja -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release \
  -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
  -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
  -DTK_CUDA_ROOT="${TK_CUDA_ROOT:-/usr/local/cuda}" \
  "${launcher[@]}" "$@"
start=$(date +%s)
ninja -C "$BUILD_DIR"
echo "build: done in $(( $(date +%s) - start )) s"
