#!/usr/bin/env bash
# Compiles the examples/attention_fwd.tk variants that
# bench/gpu/attention_gpu.py checks and times on the GPU machine:
#   - f16: HEAD_DIM 64 and 128, causal and not, num_warps 4 and 8;
#   - bf16 (-D DTYPE=bf16): the same shapes on 8 warps;
#   - with --arch sm_90a, the 8-warp f16 variants again on mma.sync
#     (--mma=v2, suffix _v2), to compare with wgmma;
#   - one variant without the N_CTX specialization (suffix _anyn), for
#     sequence lengths that are not a multiple of 16 (N = 1000).
# All with BLOCK_M=128 BLOCK_N=64, specialized as Triton's JIT would for
# contiguous (Z, H, N, D) tensors (unit inner strides, the other strides
# and N_CTX multiples of 16, aligned pointers).
# Usage: bench/gpu/build_attention_kernels.sh TKC OUTDIR [--arch sm_90a] [extra tkc args]
# Each variant NAME gives OUTDIR/NAME.cubin and OUTDIR/NAME.json.
set -euo pipefail
TKC=$1; OUT=$2; shift 2
SRC="$(cd "$(dirname "$0")/../.." && pwd)/examples/attention_fwd.tk"
mkdir -p "$OUT"
STRIDES="--assume-aligned-pointers"
for t in q k v o; do
  row=n; { [ $t = q ] || [ $t = o ]; } && row=m
  STRIDES="$STRIDES --assume stride_${t}z=16 --assume stride_${t}h=16 --assume stride_${t}${row}=16 --assume stride_${t}k=1"
done
hopper=0
for arg in "$@"; do [ "$arg" = sm_90a ] && hopper=1; done
# variant NAME DTYPE D CAUSAL WARPS [tkc args...]
variant() {
  local name=$1 dtype=$2 d=$3 causal=$4 w=$5; shift 5
  # shellcheck disable=SC2086
  "$TKC" "$SRC" -k attn_fwd -D DTYPE=$dtype -D HEAD_DIM=$d -D BLOCK_M=128 \
    -D BLOCK_N=64 -D CAUSAL=$causal --num-warps $w --num-stages 3 $STRIDES \
    "$@" --emit=cubin --stats -o "$OUT/$name.cubin"
}
for d in 64 128; do
  for causal in False True; do
    c=$( [ $causal = True ] && echo causal || echo full )
    for w in 4 8; do
      variant "attn_f16_d${d}_${c}_w${w}" f16 $d $causal $w --assume N_CTX=16 "$@"
    done
    variant "attn_bf16_d${d}_${c}_w8" bf16 $d $causal 8 --assume N_CTX=16 "$@"
    if [ $hopper = 1 ]; then
      variant "attn_f16_d${d}_${c}_w8_v2" f16 $d $causal 8 --assume N_CTX=16 "$@" --mma=v2
    fi
  done
done
variant attn_f16_d64_causal_w8_anyn f16 64 True 8 "$@"
