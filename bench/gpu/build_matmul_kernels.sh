#!/usr/bin/env bash
# Compiles the matmul variants that bench/gpu/matmul_gpu.py checks and times
# on the GPU machine: every operand type, operand layouts (row-/column-major,
# strided, unaligned), num_stages 1-5, num_warps 4 and 8, epilogues, and the
# block configurations of shared/bench/triton_ref.py.
# Usage: bench/gpu/build_matmul_kernels.sh TKC OUTDIR   (extra tkc flags in
# TK_EXTRA_FLAGS; the target is tkc's default, sm_90a)
# Each variant NAME gives OUTDIR/NAME.cubin and OUTDIR/NAME.json; the layout
# a variant assumes is in its name and in the metadata's argument specs.
# The variants named *_wgmma_* use Hopper's wgmma (tkgpu.warp_group_dot);
# all others are compiled with --mma=v2, i.e. mma.sync + ldmatrix as on
# sm_80, so that both paths are checked and timed side by side.
set -euo pipefail
TKC=$1; OUT=$2; shift 2
SRC="$(cd "$(dirname "$0")/.." && pwd)/kernels/matmul_variants.tk"
mkdir -p "$OUT"
# Specializations per operand layout (rr16, rr, cc, any): matmul_specs.sh.
source "$(dirname "$0")/matmul_specs.sh"
# variant KERNEL TAG BM BN BK WARPS STAGES LAYOUT [-D ...]   (mma.sync)
# wgmma_variant KERNEL TAG ...                               (wgmma)
count=0
variant() {
  local kernel=$1 tag=$2 bm=$3 bn=$4 bk=$5 w=$6 s=$7 layout=$8; shift 8
  local name="${kernel}_${tag}_${bm}x${bn}x${bk}_w${w}_s${s}_${layout}"
  # shellcheck disable=SC2046
  "$TKC" "$SRC" -k "$kernel" -D BLOCK_M=$bm -D BLOCK_N=$bn -D BLOCK_K=$bk \
    --num-warps "$w" --num-stages "$s" $(matmul_spec "$layout") "$@" \
    ${TK_MMA_FLAG---mma=v2} --emit=cubin -o "$OUT/$name.cubin" ${TK_EXTRA_FLAGS:-}
  count=$((count + 1))
}
wgmma_variant() {
  local kernel=$1 tag=$2; shift 2
  TK_MMA_FLAG="" variant "$kernel" "wgmma_$tag" "$@"
  # The cubin must really be the wgmma path (a shape that does not fit
  # would silently fall back to mma.sync).
  local bm=$1 bn=$2 bk=$3 w=$4 s=$5 layout=$6; shift 6
  # shellcheck disable=SC2046
  "$TKC" "$SRC" -k "$kernel" -D BLOCK_M=$bm -D BLOCK_N=$bn -D BLOCK_K=$bk \
    --num-warps "$w" --num-stages "$s" $(matmul_spec "$layout") "$@" \
    --emit=ptx -o "$OUT/.check.ptx" ${TK_EXTRA_FLAGS:-}
  # (A file, not a pipe into grep -q: under pipefail, grep's early exit
  # would fail the pipeline with tkc's SIGPIPE.)
  grep -q 'wgmma.mma_async' "$OUT/.check.ptx" || {
      echo "build_matmul_kernels: $kernel wgmma_$tag $bm x $bn x $bk w$w s$s $layout is not on wgmma" >&2
      exit 1; }
}
start=$(date +%s.%N)
for k in matmul_f16 matmul_bf16 matmul_i8; do
  bk=32; [ $k = matmul_i8 ] && bk=64
  for layout in rr16 rr cc any; do variant $k plain 128 128 $bk 4 3 $layout; done
done
for p in 0 1 2; do
  for layout in rr16 rr cc any; do variant matmul_f32 p$p 64 64 32 4 3 $layout -D PREC=$p; done
done
for k in matmul_f16 matmul_bf16; do variant $k bias_leaky 128 128 32 4 3 rr -D HAS_BIAS=True -D LEAKY=True; done
variant matmul_f32 bias_leaky 64 64 32 4 3 rr -D HAS_BIAS=True -D LEAKY=True
variant matmul_i8 bias 128 128 64 4 3 rr -D HAS_BIAS=True
for s in 1 2 3 4 5; do
  for w in 4 8; do variant matmul_f16 plain 128 128 32 $w $s rr16; done
done
# triton_ref.py's block configurations (BM, BN, BK, warps, stages).
for cfg in "128 128 32 4 3" "128 256 64 8 3" "128 128 64 4 4" "128 256 64 8 4" "256 128 64 8 3"; do
  set -- $cfg
  for k in matmul_f16 matmul_bf16; do
    [ $1 = 128 ] && [ $2 = 128 ] && [ $3 = 32 ] && [ $5 = 3 ] || variant $k plain $1 $2 $3 $4 $5 rr16
  done
  variant matmul_f16 leaky $1 $2 $3 $4 $5 rr16 -D LEAKY=True
done
# Hopper wgmma: the configurations the H200 is measured with (f16, bf16),
# the 64-row and 32-wide K tiles (64-byte swizzle), operand layouts
# (column-major A and B: M-major A, K-major B; unaligned; strided) and the
# fused epilogues.
for k in matmul_f16 matmul_bf16; do
  for cfg in "128 128 64 4 3" "128 128 64 4 4" "128 128 64 8 3" "128 128 64 8 4" \
             "128 256 64 8 3" "128 256 64 8 4" "64 128 64 4 3" "64 256 64 4 3" \
             "128 128 32 4 3" "128 128 64 4 2"; do
    set -- $cfg
    wgmma_variant $k plain $1 $2 $3 $4 $5 rr16
  done
  for layout in rr cc any; do wgmma_variant $k plain 128 128 64 4 3 $layout; done
  wgmma_variant $k bias_leaky 128 128 64 4 3 rr -D HAS_BIAS=True -D LEAKY=True
done
wgmma_variant matmul_f16 leaky 128 128 64 4 3 rr16 -D LEAKY=True
wgmma_variant matmul_f16 leaky 128 256 64 8 3 rr16 -D LEAKY=True
rm -f "$OUT/.check.ptx"
echo "build_matmul_kernels: $count variants in $(echo "$(date +%s.%N) - $start" | bc) s"
