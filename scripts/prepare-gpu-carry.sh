#!/usr/bin/env bash
# Builds what the GPU machine runs and gathers it in .carry/ (git-ignored),
# the folder the device call carries: static tkc and tk-run (no LLVM needed
# there), the example host programs, tk-bench, the precompiled kernels, and
# a copy of ../shared/bench/triton_ref.py for the side-by-side numbers.
# Then, on the GPU machine: bash scripts/gpu-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
TK_BUILD_DIR=build-static bash scripts/build.sh -DTK_STATIC_TOOLS=ON \
  -DTK_EXAMPLES_WITH_INTERPRETER=OFF -DTK_EXAMPLES_EMIT=cubin
rm -rf .carry
mkdir -p .carry/bin .carry/kernels/examples .carry/kernels/bench
for tool in tkc tk-run; do
  if [ -x build-static/bin/$tool ]; then
    strip -o .carry/bin/$tool build-static/bin/$tool
    xz -T2 -6 .carry/bin/$tool
  fi
done
for exe in build-static/bin/example-* build-static/bin/tk-bench build-static/bin/tkrt-gpu-smoke; do
  [ -x "$exe" ] && strip -o .carry/bin/$(basename "$exe") "$exe"
done
cp build-static/examples/kernels/* .carry/kernels/examples/ 2>/dev/null || true
cp build-static/bench/kernels/* .carry/kernels/bench/ 2>/dev/null || true
# The matmul variants (bench/gpu/matmul_gpu.py checks and times them) and
# the mma.sync ceiling microbenchmark.
mkdir -p .carry/kernels/matmul
bash bench/gpu/build_matmul_kernels.sh build-static/bin/tkc .carry/kernels/matmul
# The persistent matmuls (examples/matmul_persistent.tk), timed with them.
bash bench/gpu/build_matmul_persistent_kernels.sh build-static/bin/tkc .carry/kernels/matmul
# The attention variants (bench/gpu/attention_gpu.py and
# attention_bwd_gpu.py; gpu-check step 4e).
rm -rf .carry/kernels/attention .carry/kernels/attention_bwd
bash bench/gpu/build_attention_kernels.sh build-static/bin/tkc .carry/kernels/attention --arch sm_90a >/dev/null
bash bench/gpu/build_attention_bwd_kernels.sh build-static/bin/tkc .carry/kernels/attention_bwd --arch sm_90a >/dev/null
if [ -x /usr/local/cuda/bin/nvcc ]; then
  /usr/local/cuda/bin/nvcc -O3 -gencode=arch=compute_90,code=sm_90 \
    bench/gpu/mma_ceiling.cu -o .carry/bin/mma_ceiling
  /usr/local/cuda/bin/nvcc -O3 -gencode=arch=compute_90,code=sm_90 \
    bench/gpu/mma_smem_ceiling.cu -o .carry/bin/mma_smem_ceiling
  /usr/local/cuda/bin/nvcc -O3 -gencode=arch=compute_90,code=sm_90 \
    bench/gpu/mufu_ceiling.cu -o .carry/bin/mufu_ceiling
fi
# Issue 12: the launch-time JIT as one shared library (LLVM/MLIR linked in
# statically; the Python package and C programs load it), the
# launch-overhead benchmark and the AOT-header host program. On the GPU
# machine: unxz .carry/lib/libtkjit.so.xz; TK_LIBRARY=.carry/lib/libtkjit.so.
mkdir -p .carry/lib
if [ -f build-static/lib/libtkjit.so ]; then
  strip -o .carry/lib/libtkjit.so build-static/lib/libtkjit.so
  xz -T2 -6 .carry/lib/libtkjit.so
fi
for exe in build-static/bin/tk-launch-overhead build-static/bin/example-aot-add; do
  [ -x "$exe" ] && strip -o .carry/bin/$(basename "$exe") "$exe"
done
# libdevice for kernels that call it (f64 math, libdevice.pow, ...), in
# case the GPU machine has no CUDA toolkit at /usr/local/cuda.
cp /usr/local/cuda/nvvm/libdevice/libdevice.10.bc .carry/lib/ 2>/dev/null || true
cp ../shared/bench/triton_ref.py .carry/
du -sh .carry
