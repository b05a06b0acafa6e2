#!/usr/bin/env bash
# Compiles examples/matmul_persistent.tk (Triton's tutorial-09 persistent
# matmul) for bench/gpu/matmul_gpu.py, which checks and times these next to
# build_matmul_kernels.sh's one-tile-per-program variants and cuBLAS.
# Usage: bench/gpu/build_matmul_persistent_kernels.sh TKC OUTDIR [NUM_SMS]
# (NUM_SMS: the grid, default 132 = the H200's SMs; the target is tkc's
# default, sm_90a, so every variant is on wgmma.) Names:
# matmul_persistent_{f16,bf16}_[flat_]wgmma_BMxBNxBK_wW_sS_{rr16,rr};
# flat_ ones are compiled with FLATTEN=True (range(..., flatten=True)).
set -euo pipefail
TKC=$1; OUT=$2; SMS=${3:-132}
SRC="$(cd "$(dirname "$0")/../.." && pwd)/examples/matmul_persistent.tk"
mkdir -p "$OUT"
source "$(dirname "$0")/matmul_specs.sh"
count=0
# variant DTYPE FLATTEN BM BN BK WARPS STAGES LAYOUT
variant() {
  local dt=$1 flat=$2 bm=$3 bn=$4 bk=$5 w=$6 s=$7 layout=$8
  local tag=wgmma; [ "$flat" = True ] && tag=flat_wgmma
  local name="matmul_persistent_${dt}_${tag}_${bm}x${bn}x${bk}_w${w}_s${s}_${layout}"
  # shellcheck disable=SC2046
  "$TKC" "$SRC" -k matmul_persistent -D DTYPE=$dt -D FLATTEN=$flat -D NUM_SMS=$SMS \
    -D GROUP_M=8 -D BLOCK_M=$bm -D BLOCK_N=$bn -D BLOCK_K=$bk \
    --num-warps "$w" --num-stages "$s" $(matmul_spec "$layout") \
    --emit=cubin -o "$OUT/$name.cubin" ${TK_EXTRA_FLAGS:-}
  count=$((count + 1))
}
start=$(date +%s.%N)
for dt in f16 bf16; do
  for flat in False True; do
    for cfg in "128 128 64 4 3" "128 128 64 4 4" "128 128 64 8 4" "128 256 64 8 3" "128 256 64 8 4"; do
      # Flattened, the epilogue's scratch lives next to the buffers:
      # 128x256 with 4 stages would need 258 KiB of shared memory.
      [ $flat = True ] && [ "$cfg" = "128 256 64 8 4" ] && continue
      # shellcheck disable=SC2086
      variant $dt $flat $cfg rr16
    done
    variant $dt $flat 128 128 64 4 3 rr
  done
done
echo "build_matmul_persistent_kernels: $count variants in $(echo "$(date +%s.%N) - $start" | bc) s"
