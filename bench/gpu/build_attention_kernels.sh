#!/usr/bin/env bash
# Compiles the examples/attention_fwd.tk variants that
# bench/gpu/attention_gpu.py checks and times on the GPU machine: HEAD_DIM
# 64 and 128, causal and not, BLOCK_M=128 BLOCK_N=64, num_warps 4 and 8,
# specialized as Triton's JIT would for contiguous (Z, H, N, D) f16 tensors
# (unit inner strides, the rest and N_CTX multiples of 16, aligned
# pointers).
# Usage: bench/gpu/build_attention_kernels.sh TKC OUTDIR [--arch sm_90a] [extra tkc args]
# Each variant NAME gives OUTDIR/NAME.cubin and OUTDIR/NAME.json.
set -euo pipefail
TKC=$1; OUT=$2; shift 2
SRC="$(cd "$(dirname "$0")/../.." && pwd)/examples/attention_fwd.tk"
mkdir -p "$OUT"
SPEC="--assume-aligned-pointers --assume N_CTX=16"
for t in q k v o; do
  row=n; { [ $t = q ] || [ $t = o ]; } && row=m
  SPEC="$SPEC --assume stride_${t}z=16 --assume stride_${t}h=16 --assume stride_${t}${row}=16 --assume stride_${t}k=1"
done
for d in 64 128; do
  for causal in False True; do
    for w in 4 8; do
      name="attn_d${d}_$( [ $causal = True ] && echo causal || echo full )_w${w}"
      # shellcheck disable=SC2086
      "$TKC" "$SRC" -k attn_fwd -D HEAD_DIM=$d -D BLOCK_M=128 -D BLOCK_N=64 \
        -D CAUSAL=$causal --num-warps $w --num-stages 3 $SPEC "$@" \
        --emit=cubin --stats -o "$OUT/$name.cubin"
    done
  done
done
