#!/usr/bin/env bash
# Compiles the examples/attention_fwd.tk variants that
# bench/gpu/attention_gpu.py checks and times on the GPU machine:
#   - f16: HEAD_DIM 64 and 128, causal and not, num_warps 8 (and 4 at
#     HEAD_DIM 64), BLOCK_N 64 and 128;
#   - bf16 (-D DTYPE=bf16): the same shapes on 8 warps;
#   - with --arch sm_90a, the 8-warp f16 variants again on mma.sync
#     (--mma=v2, suffix _v2), to compare with wgmma;
#   - variants without the N_CTX specialization (suffix _anyn), for
#     sequence lengths that are not a multiple of 16 (N = 1000); with
#     --arch sm_90a warp-specialized ones too, bf16 among them.
#   - _n128_s3: BLOCK_N 128 on 3 stages at HEAD_DIM 128 (224 KiB);
#   - _n128_s2: BLOCK_N 128 on 2 stages at HEAD_DIM 64;
#   - _n128_ahead: BLOCK_N 128, 3 stages, -D AHEAD=True (the scores one
#     block ahead, FA3's overlap of the softmax with the next QK^T);
#   - with --arch sm_90a, suffix _tma: the attn_fwd_tma kernel (Q, K and V
#     through (Z, H, N, D) tensor descriptors, K and V by TMA) on 8 warps
#     (BLOCK_N 64 and 128, 3 stages and the n128 stages above; bf16 too),
#     4 warps at HEAD_DIM 64, 4 stages at HEAD_DIM 128;
#   - with --arch sm_90a, suffix _ws: attn_fwd_tma warp-specialized
#     (-D WARP_SPECIALIZE=True), 2 stages unless named _s3/_s4; on 8
#     warps the two compute warp groups take turns (tkgpu-pingpong);
#     _r128: --maxnreg 128 on 4 warps (two programs per SM); _fs: the
#     eleventh session's best, -D FUSED_SCALE=True; _qr: Q in registers
#     before the key loops in every kernel (--invariant-a-in-registers;
#     since the fourteenth session the unsuffixed builds take tkc's
#     automatic choice, and _nq, --no-invariant-a-in-registers, none),
#     _w16: 16 compute warps, _ts: O by a TMA store (-D TMA_STORE=True)
#     (thirteenth session); _rb: --rebase-wgmma-descriptors (twenty-third);
#   - at HEAD_DIM 64 on 4 warps (the best there since exp2 is .ftz):
#     _s2 and _s4 (stages), _ahead, and bf16; at HEAD_DIM 128 on 8
#     warps, BLOCK_N 64: _s4.
# All with BLOCK_M=128 (_m256: 256; BLOCK_N=64 unless named _n128), specialized as Triton's JIT would for
# contiguous (Z, H, N, D) tensors (unit inner strides, the other strides
# and N_CTX multiples of 16, aligned pointers).
# Usage: bench/gpu/build_attention_kernels.sh TKC OUTDIR [--arch sm_90a] [extra tkc args]
# Each variant NAME gives OUTDIR/NAME.cubin and OUTDIR/NAME.json. With
# ONLY=REGEX in the environment, only the variants whose names match.
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
# variant NAME DTYPE D CAUSAL WARPS BLOCK_N STAGES [tkc args...]
variant() {
  local name=$1 dtype=$2 d=$3 causal=$4 w=$5 bn=$6 stages=$7; shift 7
  [[ -z "${ONLY:-}" || $name =~ $ONLY ]] || return 0
  # shellcheck disable=SC2086
  "$TKC" "$SRC" -k attn_fwd -D DTYPE=$dtype -D HEAD_DIM=$d -D BLOCK_M=${BM:-128} \
    -D BLOCK_N=$bn -D CAUSAL=$causal --num-warps $w --num-stages $stages \
    $STRIDES "$@" --emit=cubin --stats -o "$OUT/$name.cubin"
}
for d in 64 128; do
  # BLOCK_N=128 needs 3 stages of 128x128 K and V tiles: at HEAD_DIM 128
  # that is 224 KiB of shared memory, so 2 stages there.
  n128_stages=$( [ $d = 64 ] && echo 3 || echo 2 )
  for causal in False True; do
    c=$( [ $causal = True ] && echo causal || echo full )
    n="--assume N_CTX=16"
    # 4 warps hold a 128x128 accumulator at HEAD_DIM 128 only with spills.
    [ $d = 64 ] && variant "attn_f16_d${d}_${c}_w4" f16 $d $causal 4 64 3 $n "$@"
    variant "attn_f16_d${d}_${c}_w8" f16 $d $causal 8 64 3 $n "$@"
    variant "attn_f16_d${d}_${c}_w8_n128" f16 $d $causal 8 128 $n128_stages $n "$@"
    # 3 stages at HEAD_DIM 128 too (Q 32 KiB + 3 x (K 32 KiB + V 32 KiB)
    # = 224 KiB): P @ V then stays in flight into the next iteration.
    [ $d = 128 ] && variant "attn_f16_d${d}_${c}_w8_n128_s3" f16 $d $causal 8 128 3 $n "$@"
    # And 2 stages at HEAD_DIM 64: each P @ V waited for in its own
    # iteration, to weigh the deferred wait against it.
    [ $d = 64 ] && variant "attn_f16_d${d}_${c}_w8_n128_s2" f16 $d $causal 8 128 2 $n "$@"
    # -D AHEAD=True: S of the next block issued before this block's
    # softmax (its wgmma runs under the softmax); 3 stages, so that the
    # pipeliner defers the waits of the carried dots.
    variant "attn_f16_d${d}_${c}_w8_n128_ahead" f16 $d $causal 8 128 3 $n -D AHEAD=True "$@"
    variant "attn_bf16_d${d}_${c}_w8" bf16 $d $causal 8 64 3 $n "$@"
    if [ $d = 64 ]; then
      variant "attn_f16_d${d}_${c}_w4_s2" f16 $d $causal 4 64 2 $n "$@"
      variant "attn_f16_d${d}_${c}_w4_s4" f16 $d $causal 4 64 4 $n "$@"
      variant "attn_f16_d${d}_${c}_w4_ahead" f16 $d $causal 4 64 3 $n -D AHEAD=True "$@"
      variant "attn_bf16_d${d}_${c}_w4" bf16 $d $causal 4 64 3 $n "$@"
    else
      variant "attn_f16_d${d}_${c}_w8_s4" f16 $d $causal 8 64 4 $n "$@"
    fi
    if [ $hopper = 1 ]; then
      variant "attn_f16_d${d}_${c}_w8_v2" f16 $d $causal 8 64 3 $n "$@" --mma=v2
      # attn_fwd_tma: K and V blocks by TMA (4-D tensor descriptors), the
      # pipeliner's mbarrier slots; P @ V's wait deferred with 3 stages.
      variant "attn_f16_d${d}_${c}_w8_tma" f16 $d $causal 8 64 3 $n -k attn_fwd_tma "$@"
      variant "attn_f16_d${d}_${c}_w8_n128_tma" f16 $d $causal 8 128 $n128_stages $n -k attn_fwd_tma "$@"
      variant "attn_bf16_d${d}_${c}_w8_tma" bf16 $d $causal 8 64 3 $n -k attn_fwd_tma "$@"
      # -D WARP_SPECIALIZE=True: a producer warp group issues the K and V
      # copies (both loops on its slots); the compute warp groups run
      # free of each other (no CTA barrier in the loops). Suffix _ws.
      ws="-k attn_fwd_tma -D WARP_SPECIALIZE=True"
      variant "attn_f16_d${d}_${c}_w8_ws" f16 $d $causal 8 64 2 $n $ws "$@"
      variant "attn_f16_d${d}_${c}_w8_s3_ws" f16 $d $causal 8 64 3 $n $ws "$@"
      variant "attn_f16_d${d}_${c}_w8_n128_ws" f16 $d $causal 8 128 2 $n $ws "$@"
      variant "attn_bf16_d${d}_${c}_w8_ws" bf16 $d $causal 8 64 2 $n $ws "$@"
      # -D AHEAD=True: the next block's S under this block's softmax
      # (attn_inner_tma_ahead), warp-specialized. Suffix _ahead_ws.
      variant "attn_f16_d${d}_${c}_w8_ahead_ws" f16 $d $causal 8 64 2 $n $ws -D AHEAD=True "$@"
      variant "attn_f16_d${d}_${c}_w8_n128_ahead_ws" f16 $d $causal 8 128 2 $n $ws -D AHEAD=True "$@"
      variant "attn_f16_d${d}_${c}_w8_s3_ahead_ws" f16 $d $causal 8 64 3 $n $ws -D AHEAD=True "$@"
      [ $d = 64 ] && BM=256 variant "attn_f16_d${d}_${c}_w8_m256_ahead_ws" f16 $d $causal 8 64 2 $n $ws -D AHEAD=True "$@"
      variant "attn_bf16_d${d}_${c}_w8_n128_ahead_ws" bf16 $d $causal 8 128 2 $n $ws -D AHEAD=True "$@"
      if [ $d = 64 ]; then
        variant "attn_f16_d${d}_${c}_w4_ws" f16 $d $causal 4 64 2 $n $ws "$@"
        # --maxnreg 128: two 256-thread programs per SM (consumers 232).
        variant "attn_f16_d${d}_${c}_w4_ws_r128" f16 $d $causal 4 64 2 $n $ws --maxnreg 128 "$@"
        variant "attn_f16_d${d}_${c}_w4_s3_ws_r128" f16 $d $causal 4 64 3 $n $ws --maxnreg 128 "$@"
        variant "attn_f16_d${d}_${c}_w8_n128_s3_ws" f16 $d $causal 8 128 3 $n $ws "$@"
        # BLOCK_M 256: each compute warp group owns 128 rows (two m64
        # wgmmas per dot), as 4 warps do on BLOCK_M 128.
        BM=256 variant "attn_f16_d${d}_${c}_w8_m256_ws" f16 $d $causal 8 64 2 $n $ws "$@"
        BM=256 variant "attn_f16_d${d}_${c}_w8_m256_s3_ws" f16 $d $causal 8 64 3 $n $ws "$@"
        BM=256 variant "attn_bf16_d${d}_${c}_w8_m256_ws" bf16 $d $causal 8 64 2 $n $ws "$@"
        # -D FUSED_SCALE=True: the softmax scale folded into exp2's
        # argument (one FMA per score). Suffix _fs.
        BM=256 variant "attn_f16_d${d}_${c}_w8_m256_ws_fs" f16 $d $causal 8 64 2 $n $ws -D FUSED_SCALE=True "$@"
        variant "attn_f16_d${d}_${c}_w4_s3_ws_r128_fs" f16 $d $causal 4 64 3 $n $ws --maxnreg 128 -D FUSED_SCALE=True "$@"
        # _w16_m256: four compute warp groups of 64 rows (consumers at 112
        # registers, no ping-pong), four consumer warps per scheduler
        # (thirteenth session: as fast as the 8-warp kernels, not faster;
        # two programs of 8 warps per SM, --maxnreg 80, were slower).
        BM=256 variant "attn_f16_d${d}_${c}_w16_m256_ws_fs" f16 $d $causal 16 64 2 $n $ws -D FUSED_SCALE=True "$@"
        BM=256 variant "attn_f16_d${d}_${c}_w16_m256_s3_ws_fs" f16 $d $causal 16 64 3 $n $ws -D FUSED_SCALE=True "$@"
        # _qr: Q loaded into registers before the key loops
        # (--invariant-a-in-registers), so that Q K^T reads only K from
        # shared memory; _nq: never (the unsuffixed kernel is tkc's
        # automatic choice).
        qr=--invariant-a-in-registers
        variant "attn_f16_d${d}_${c}_w4_s3_ws_r128_fs_nq" f16 $d $causal 4 64 3 $n $ws --maxnreg 128 -D FUSED_SCALE=True --no-invariant-a-in-registers "$@"
        BM=256 variant "attn_f16_d${d}_${c}_w8_m256_ws_fs_qr" f16 $d $causal 8 64 2 $n $ws -D FUSED_SCALE=True $qr "$@"
        BM=256 variant "attn_f16_d${d}_${c}_w8_m256_s3_ws_fs_qr" f16 $d $causal 8 64 3 $n $ws -D FUSED_SCALE=True $qr "$@"
        variant "attn_f16_d${d}_${c}_w4_s3_ws_r128_fs_qr" f16 $d $causal 4 64 3 $n $ws --maxnreg 128 -D FUSED_SCALE=True $qr "$@"
        variant "attn_f16_d${d}_${c}_w8_s3_ws_fs_qr" f16 $d $causal 8 64 3 $n $ws -D FUSED_SCALE=True $qr "$@"
        variant "attn_f16_d${d}_${c}_w8_n128_s3_ws_fs_qr" f16 $d $causal 8 128 3 $n $ws -D FUSED_SCALE=True $qr "$@"
        BM=256 variant "attn_bf16_d${d}_${c}_w8_m256_ws_fs_qr" bf16 $d $causal 8 64 2 $n $ws -D FUSED_SCALE=True $qr "$@"
        # _ts: O by a TMA store (-D TMA_STORE=True).
        variant "attn_f16_d${d}_${c}_w4_s3_ws_r128_fs_qr_ts" f16 $d $causal 4 64 3 $n $ws --maxnreg 128 -D FUSED_SCALE=True -D TMA_STORE=True $qr "$@"
        variant "attn_f16_d${d}_${c}_w4_s3_ws_r128_fs_ts" f16 $d $causal 4 64 3 $n $ws --maxnreg 128 -D FUSED_SCALE=True -D TMA_STORE=True "$@"
        # _rb: wgmma descriptors from a fresh tk_smem address (tkc
        # --rebase-wgmma-descriptors: 510 -> 474 SASS instructions in the
        # loop; +3 to +5% on these kernels, twenty-third session).
        rb=--rebase-wgmma-descriptors
        variant "attn_f16_d${d}_${c}_w4_s3_ws_r128_fs_qr_ts_rb" f16 $d $causal 4 64 3 $n $ws --maxnreg 128 -D FUSED_SCALE=True -D TMA_STORE=True $qr $rb "$@"
        variant "attn_f16_d${d}_${c}_w4_s3_ws_r128_fs_qr_rb" f16 $d $causal 4 64 3 $n $ws --maxnreg 128 -D FUSED_SCALE=True $qr $rb "$@"
        variant "attn_f16_d${d}_${c}_w4_s3_ws_r128_fs_rb" f16 $d $causal 4 64 3 $n $ws --maxnreg 128 -D FUSED_SCALE=True $rb "$@"
      else
        variant "attn_f16_d${d}_${c}_w8_s4_ws" f16 $d $causal 8 64 4 $n $ws "$@"
        variant "attn_f16_d${d}_${c}_w8_n128_s3_ws" f16 $d $causal 8 128 3 $n $ws "$@"
        variant "attn_f16_d${d}_${c}_w8_n128_s3_ws_fs" f16 $d $causal 8 128 3 $n $ws -D FUSED_SCALE=True "$@"
        variant "attn_f16_d${d}_${c}_w8_n128_s3_ws_fs_qr" f16 $d $causal 8 128 3 $n $ws -D FUSED_SCALE=True --invariant-a-in-registers "$@"
        variant "attn_f16_d${d}_${c}_w8_n128_s3_ws_fs_nq" f16 $d $causal 8 128 3 $n $ws -D FUSED_SCALE=True --no-invariant-a-in-registers "$@"
        variant "attn_f16_d${d}_${c}_w8_n128_s3_ws_fs_qr_ts" f16 $d $causal 8 128 3 $n $ws -D FUSED_SCALE=True -D TMA_STORE=True --invariant-a-in-registers "$@"
        variant "attn_f16_d${d}_${c}_w8_n128_s3_ws_fs_ts" f16 $d $causal 8 128 3 $n $ws -D FUSED_SCALE=True -D TMA_STORE=True "$@"
        variant "attn_f16_d${d}_${c}_w8_n128_s3_ws_fs_qr_ts_rb" f16 $d $causal 8 128 3 $n $ws -D FUSED_SCALE=True -D TMA_STORE=True --invariant-a-in-registers --rebase-wgmma-descriptors "$@"
        variant "attn_f16_d${d}_${c}_w8_n128_s3_ws_fs_rb" f16 $d $causal 8 128 3 $n $ws -D FUSED_SCALE=True --rebase-wgmma-descriptors "$@"
        variant "attn_bf16_d${d}_${c}_w8_n128_ws" bf16 $d $causal 8 128 2 $n $ws "$@"
      fi
      if [ $d = 64 ]; then
        variant "attn_f16_d${d}_${c}_w4_tma" f16 $d $causal 4 64 3 $n -k attn_fwd_tma "$@"
        variant "attn_f16_d${d}_${c}_w8_n128_s3_tma" f16 $d $causal 8 128 3 $n -k attn_fwd_tma "$@"
      else
        variant "attn_f16_d${d}_${c}_w8_n128_s3_tma" f16 $d $causal 8 128 3 $n -k attn_fwd_tma "$@"
        variant "attn_f16_d${d}_${c}_w8_s4_tma" f16 $d $causal 8 64 4 $n -k attn_fwd_tma "$@"
      fi
    fi
  done
done
variant attn_f16_d64_causal_w8_anyn f16 64 True 8 64 3 "$@"
if [ $hopper = 1 ]; then
  # The warp-specialized kernels on any N (N = 1000: a partial last block
  # of keys, in the masked loop, and of queries).
  BM=256 variant attn_f16_d64_causal_w8_m256_ws_anyn f16 64 True 8 64 2 -k attn_fwd_tma -D WARP_SPECIALIZE=True "$@"
  variant attn_f16_d128_full_w8_n128_ws_anyn f16 128 False 8 128 2 -k attn_fwd_tma -D WARP_SPECIALIZE=True "$@"
  variant attn_f16_d64_full_w8_ahead_ws_anyn f16 64 False 8 64 2 -k attn_fwd_tma -D WARP_SPECIALIZE=True -D AHEAD=True "$@"
  variant attn_f16_d128_causal_w8_n128_ahead_ws_anyn f16 128 True 8 128 2 -k attn_fwd_tma -D WARP_SPECIALIZE=True -D AHEAD=True "$@"
  # bf16 on any N, every HEAD_DIM and mask (the issue's N = 1000 in bf16).
  for d in 64 128; do
    for causal in False True; do
      c=$( [ $causal = True ] && echo causal || echo full )
      variant attn_bf16_d${d}_${c}_w8_ws_anyn bf16 $d $causal 8 64 2 -k attn_fwd_tma -D WARP_SPECIALIZE=True "$@"
    done
  done
fi
