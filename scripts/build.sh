#!/usr/bin/env bash
# Configures and builds tk in build/ (shared libMLIR/libLLVM: fast links).
# Usage: scripts/build.sh [extra cmake args...]
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${TK_BUILD_DIR:-build}"
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  # ccache caches TUs that use a precompiled header (TK_PCH) only with
  # these (cmake/PrecompiledHeaders.cmake).
  export CCACHE_SLOPPINESS=${CCACHE_SLOPPINESS:-pch_defines,time_macros}
fi
cmake -G Ninja -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release \
  -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
  -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
  -DTK_CUDA_ROOT="${TK_CUDA_ROOT:-/usr/local/cuda}" \
  "${launcher[@]}" "$@"
start=$(date +%s)
ninja -C "$BUILD_DIR"
echo "build: done in $(( $(date +%s) - start )) s"
