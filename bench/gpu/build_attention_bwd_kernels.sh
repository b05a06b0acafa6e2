#!/usr/bin/env bash
# Compiles the examples/attention_bwd.tk variants that
# bench/gpu/attention_bwd_gpu.py checks and times on the GPU machine:
# HEAD_DIM 64 and 128; the preprocess (BLOCK_M=128, 4 warps); dK/dV
# (BLOCK_M=32, BLOCK_N=128) and dQ (BLOCK_M=128, BLOCK_N=32), Triton's
# tutorial-06 blocks, causal and not, num_warps 4 and 8; specialized as
# Triton's JIT would for contiguous (Z, H, N, D) f16 tensors (unit inner
# strides, the rest and N_CTX multiples of 16, aligned pointers).
# Usage: bench/gpu/build_attention_bwd_kernels.sh TKC OUTDIR [--arch sm_90a] [extra tkc args]
# Each variant NAME gives OUTDIR/NAME.cubin and OUTDIR/NAME.json:
#   bwd_pre_d{64,128}, bwd_{dkdv,dq}_d{64,128}_{full,causal}_w{4,8}, and the
#   same with the prefix bf16_ for bf16 (-D DTYPE=bf16)
set -euo pipefail
TKC=$1; OUT=$2; shift 2
SRC="$(cd "$(dirname "$0")/../.." && pwd)/examples/attention_bwd.tk"
mkdir -p "$OUT"
# The --assume flags for the strides of the named (Z, H, N, D) tensors
# (row stride m on the query side, n on the key side).
spec() {
  local s="--assume-aligned-pointers --assume N_CTX=16" t row
  for t in "$@"; do
    case $t in q|o|do|dq) row=m ;; *) row=n ;; esac
    s="$s --assume stride_${t}z=16 --assume stride_${t}h=16 --assume stride_${t}${row}=16 --assume stride_${t}k=1"
  done
  echo "$s"
}
PRE_SPEC=$(spec o do)
DKDV_SPEC=$(spec q k v do dk dv)
DQ_SPEC=$(spec q k v do dq)
# build NAME KERNEL SPEC tkc-args...: OUT/NAME.cubin, its ptxas stats
# printed after the variant's name.
build() {
  local name=$1 kernel=$2 spec=$3; shift 3
  echo "== $name"
  # shellcheck disable=SC2086
  "$TKC" "$SRC" -k "$kernel" "$@" $spec $EXTRA --emit=cubin --stats \
    -o "$OUT/$name.cubin"
}
EXTRA="$*"
for dtype in f16 bf16; do
  p=$( [ $dtype = bf16 ] && echo bf16_ || true )
  for d in 64 128; do
    build ${p}bwd_pre_d$d attn_bwd_preprocess "$PRE_SPEC" -D HEAD_DIM=$d \
      -D BLOCK_M=128 -D DTYPE=$dtype --num-warps 4
    for causal in False True; do
      kind=$( [ $causal = True ] && echo causal || echo full )
      for w in 4 8; do
        build ${p}bwd_dkdv_d${d}_${kind}_w$w attn_bwd_dkdv "$DKDV_SPEC" \
          -D HEAD_DIM=$d -D BLOCK_M=32 -D BLOCK_N=128 -D CAUSAL=$causal \
          -D DTYPE=$dtype --num-warps $w --num-stages 3
        build ${p}bwd_dq_d${d}_${kind}_w$w attn_bwd_dq "$DQ_SPEC" \
          -D HEAD_DIM=$d -D BLOCK_M=128 -D BLOCK_N=32 -D CAUSAL=$causal \
          -D DTYPE=$dtype --num-warps $w --num-stages 3
      done
    done
  done
done
