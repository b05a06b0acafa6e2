#!/usr/bin/env bash
# Compiles the examples/attention_bwd.tk variants that
# bench/gpu/attention_bwd_gpu.py checks and times on the GPU machine:
# HEAD_DIM 64 and 128; the preprocess (BLOCK_M=128, 4 warps); dK/dV
# (BLOCK_M=32, BLOCK_N=128) and dQ (BLOCK_M=128, BLOCK_N=32), Triton's
# tutorial-06 blocks, causal and not, num_warps 4 and 8; specialized as
# Triton's JIT would for contiguous (Z, H, N, D) f16 tensors (unit inner
# strides, the rest and N_CTX multiples of 16, aligned pointers).
# With --arch sm_90a, also the _tma kernels (attn_bwd_dkdv_tma,
# attn_bwd_dq_tma: the loop's tiles by TMA on --num-stages mbarrier slots),
# in the dtypes of TMA_DTYPES (default "f16 bf16"; bf16 ones prefixed
# bf16_), on the block shapes of DKDV_TMA_{64,128} and DQ_TMA_{64,128}
# (below), named
# bwd_{dkdv,dq}_d{64,128}_{full,causal}_m{BM}n{BN}w{W}s{S}_tma[_ws|_wsnopp|_ws_ts].
# Usage: bench/gpu/build_attention_bwd_kernels.sh TKC OUTDIR [--arch sm_90a] [extra tkc args]
# Each variant NAME gives OUTDIR/NAME.cubin and OUTDIR/NAME.json:
#   bwd_pre_d{64,128}, bwd_{dkdv,dq}_d{64,128}_{full,causal}_w{4,8}, and the
#   same with the prefix bf16_ for bf16 (-D DTYPE=bf16)
# and, with --arch sm_90a, one set per dtype, HEAD_DIM and causality built
# without the N_CTX specialization (suffix _anyn: [bf16_]bwd_pre_dD_anyn
# and the _tma_ws dK/dV and dQ shapes), which attention_bwd_gpu.py checks
# at N = 1000 and 4095 as well.
set -euo pipefail
TKC=$1; OUT=$2; shift 2
SRC="$(cd "$(dirname "$0")/../.." && pwd)/examples/attention_bwd.tk"
mkdir -p "$OUT"
# The --assume flags for the strides of the named (Z, H, N, D) tensors
# (row stride m on the query side, n on the key side).
spec() {
  local s="--assume-aligned-pointers${ANYN:- --assume N_CTX=16}" t row
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

hopper=0
for arg in "$@"; do [ "$arg" = sm_90a ] && hopper=1; done
[ $hopper = 1 ] || exit 0
# The _tma kernels' block shapes, per HEAD_DIM ("BM BN WARPS STAGES [ws]").
# ws: -D WARP_SPECIALIZE=True (a producer warp group issues the copies; on
# 8 warps the two compute warp groups take turns), suffix _ws; wsnopp: the
# same with --no-pingpong, suffix _wsnopp; wsts: ws with dK, dV and dQ
# stored through descriptors (-D TMA_STORE=True), suffix _ws_ts. The defaults are the twelfth
# session's fastest per row (docs/benchmarks.md, run AU) and their
# neighbours; its sweep (run AT) also had, for dK/dV at HEAD_DIM 64,
# "32 128 4 2;32 128 4 3;64 64 4 2;64 64 4 3;32 64 4 3;64 64 4 3 ws", at
# 128 "32 128 8 3;64 128 8 2;32 64 4 2;32 64 4 3;32 64 4 4;32 64 4 3 ws",
# and for dQ "128 32 4 3;128 32 4 4;64 64 4 2;64 64 4 4;64 64 4 3 ws" (64)
# and "128 64 8 2;128 64 8 4;64 64 4 3;64 64 4 4;64 64 4 3 ws" (128).
DKDV_TMA_64=${DKDV_TMA_64:-"64 64 4 4;64 128 8 3 ws;64 128 8 3 wsnopp;64 128 8 3 wsts"}
DKDV_TMA_128=${DKDV_TMA_128:-"32 64 4 3;64 128 8 2 ws;64 128 8 2 wsnopp"}
DQ_TMA_64=${DQ_TMA_64:-"64 64 4 3;128 64 8 3 ws;128 64 8 3 wsnopp;128 64 8 3 wsts"}
DQ_TMA_128=${DQ_TMA_128:-"128 64 8 3;128 64 8 3 ws;128 64 8 3 wsnopp"}
for dtype in ${TMA_DTYPES:-f16 bf16}; do
  p=$( [ $dtype = bf16 ] && echo bf16_ || true )
  for d in 64 128; do
    for causal in False True; do
      kind=$( [ $causal = True ] && echo causal || echo full )
      for kernel in dkdv dq; do
        if [ $kernel = dkdv ]; then spec=$DKDV_SPEC; configs=DKDV_TMA_$d
        else spec=$DQ_SPEC; configs=DQ_TMA_$d; fi
        IFS=';' read -ra list <<< "${!configs}"
        for cfg in "${list[@]}"; do
          read -r bm bn w st mode <<< "$cfg"
          flags=() suffix=""
          case ${mode:-} in
            ws) flags=(-D WARP_SPECIALIZE=True); suffix=_ws ;;
            wsnopp) flags=(-D WARP_SPECIALIZE=True --no-pingpong); suffix=_wsnopp ;;
            wsts) flags=(-D WARP_SPECIALIZE=True -D TMA_STORE=True); suffix=_ws_ts ;;
          esac
          build ${p}bwd_${kernel}_d${d}_${kind}_m${bm}n${bn}w${w}s${st}_tma$suffix \
            attn_bwd_${kernel}_tma "$spec" -D HEAD_DIM=$d -D BLOCK_M=$bm \
            -D BLOCK_N=$bn -D CAUSAL=$causal -D DTYPE=$dtype --num-warps $w \
            --num-stages $st "${flags[@]}"
        done
      done
    done
  done
done

# The _anyn set: what Triton's JIT would compile for an N_CTX that is not
# a multiple of 16 (the strides of contiguous tensors still are, at
# HEAD_DIM 64 and 128).
ANYN=" "
PRE_SPEC=$(spec o do)
DKDV_SPEC=$(spec q k v do dk dv)
DQ_SPEC=$(spec q k v do dq)
for dtype in ${TMA_DTYPES:-f16 bf16}; do
  p=$( [ $dtype = bf16 ] && echo bf16_ || true )
  for d in 64 128; do
    build ${p}bwd_pre_d${d}_anyn attn_bwd_preprocess "$PRE_SPEC" -D HEAD_DIM=$d \
      -D BLOCK_M=128 -D DTYPE=$dtype --num-warps 4
    dkdv_st=$( [ $d = 64 ] && echo 3 || echo 2 )
    for causal in False True; do
      kind=$( [ $causal = True ] && echo causal || echo full )
      build ${p}bwd_dkdv_d${d}_${kind}_m64n128w8s${dkdv_st}_tma_ws_anyn attn_bwd_dkdv_tma \
        "$DKDV_SPEC" -D HEAD_DIM=$d -D BLOCK_M=64 -D BLOCK_N=128 -D CAUSAL=$causal \
        -D DTYPE=$dtype --num-warps 8 --num-stages $dkdv_st -D WARP_SPECIALIZE=True
      build ${p}bwd_dq_d${d}_${kind}_m128n64w8s3_tma_ws_anyn attn_bwd_dq_tma "$DQ_SPEC" \
        -D HEAD_DIM=$d -D BLOCK_M=128 -D BLOCK_N=64 -D CAUSAL=$causal -D DTYPE=$dtype \
        --num-warps 8 --num-stages 3 -D WARP_SPECIALIZE=True
    done
  done
done
