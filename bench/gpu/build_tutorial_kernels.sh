#!/usr/bin/env bash
# Compiles the ports of Triton's tutorials in bench/tutorials/ at the
# configurations bench/gpu/tutorials_gpu.py times them (and Triton's own
# kernels) at.
# Usage: bench/gpu/build_tutorial_kernels.sh TKC OUTDIR [--arch sm_90a] [extra tkc args]
# Each variant NAME gives OUTDIR/NAME.cubin and OUTDIR/NAME.json:
#   t03_BMxBNxBK_wW_sS                   03_matmul.tk matmul_kernel
#   t06_dD_{full,causal}_BMxBN_wW_sS     06_attention.tk _attn_fwd (descriptors)
#   t06bp_dD_{full,causal}_BMxBN_wW_sS   06_attention_block_ptr.tk _attn_fwd
#     ..._ws: warp_specialize=True (non-causal only, as the tutorial runs
#     it on Hopper); ..._z1: compiled for Z == 1 (the N = 16384 runs)
#   t09_BMxBNxBK_wW_sS                   09_persistent_matmul.tk matmul_kernel_persistent
#   t09d_BMxBNxBK_wW_sS_{flat,ws}        matmul_kernel_descriptor_persistent with
#     FLATTEN=True (the tutorial's choice on Hopper without warp
#     specialization) or WARP_SPECIALIZE=True, FLATTEN=False (with it)
# Every build is the "default" one: the -D constexprs and num_warps /
# num_stages of the configuration, plus the specialization Triton's JIT
# derives at launch from the arguments bench/gpu/tutorials_gpu.py passes
# (row-major f16 tensors of 4096 or 8192 rows and columns, contiguous
# (Z, H, N_CTX, HEAD_DIM) attention tensors with H = 32, N_CTX of 4096 or
# 16384): pointers 16-byte aligned, sizes and leading strides divisible by
# 16, unit inner strides (and Z == 1 where Z is 1). With TK_BEST_FLAGS set
# in the environment, every variant is built a second time with those
# flags added, as NAME_best (tutorials_gpu.py times both).
# A variant that fails to compile is reported on stderr (its tkc message
# goes to OUTDIR/NAME.err, which tutorials_gpu.py puts in its row) and the
# others are still built; the exit status is 0 all the same, so that a GPU
# call runs the rest, unless TK_STRICT=1 is set. Known failure (tkc at the
# time of writing): t06bp_d128_*_128x128_w8_s3*, 362496 bytes of shared
# memory.
set -uo pipefail
TKC=$1; OUT=$2; shift 2
# The extra tkc arguments (the loops below reuse "$@" for configurations).
EXTRA=("$@")
DIR="$(cd "$(dirname "$0")/../tutorials" && pwd)"
mkdir -p "$OUT"
failed=0; count=0

# compile NAME FILE KERNEL WARPS STAGES [tkc args...]
compile() {
  local name=$1 file=$2 kernel=$3 w=$4 s=$5; shift 5
  # No stale cubin of an earlier build may stand in for one that fails now.
  rm -f "$OUT/$name.cubin" "$OUT/$name.json" "$OUT/$name.err" "$OUT/$name.warn"
  if "$TKC" "$DIR/$file" -k "$kernel" --num-warps "$w" --num-stages "$s" "$@" \
       --emit=cubin -o "$OUT/$name.cubin" 2>"$OUT/$name.err"; then
    count=$((count + 1))
    # Keep the warnings (e.g. an ignored warp_specialize) next to the cubin.
    if [ -s "$OUT/$name.err" ]; then mv "$OUT/$name.err" "$OUT/$name.warn"; else rm -f "$OUT/$name.err"; fi
  else
    failed=$((failed + 1))
    echo "build_tutorial_kernels: $name failed: $(grep -m1 error: "$OUT/$name.err" || head -1 "$OUT/$name.err")" >&2
  fi
}
# build NAME FILE KERNEL WARPS STAGES [tkc args...]: the default build, and
# NAME_best with TK_BEST_FLAGS.
build() {
  compile "$@"
  local name=$1; shift
  # shellcheck disable=SC2086
  [ -z "${TK_BEST_FLAGS:-}" ] || compile "${name}_best" "$@" $TK_BEST_FLAGS
}

# Triton's launcher specializes every pointer (16-byte aligned) and every
# integer argument divisible by 16 or equal to 1.
MM="--assume-aligned-pointers --assume M=16 --assume N=16 --assume K=16"
RR="$MM --assume stride_am=16 --assume stride_ak=1 --assume stride_bk=16 --assume stride_bn=1 --assume stride_cm=16 --assume stride_cn=1"

# Tutorial 03: the configurations shared/bench/triton_ref.py times
# Triton's tutorial-03 kernel at (tutorial_matmuls: tut03_verbatim_TFLOPs).
for cfg in "128 256 64 8 3" "64 256 32 4 4" "128 128 64 4 4" "128 128 64 8 3"; do
  set -- $cfg
  build "t03_$1x$2x$3_w$4_s$5" 03_matmul.tk matmul_kernel $4 $5 \
    -D BLOCK_SIZE_M=$1 -D BLOCK_SIZE_N=$2 -D BLOCK_SIZE_K=$3 -D GROUP_SIZE_M=8 \
    -D 'ACTIVATION=""' $RR "${EXTRA[@]}"
done

# Tutorial 06 at HEAD_DIM 64 and 128, causal (STAGE=3) and not (STAGE=1).
# BLOCK_N may not exceed HEAD_DIM (the tutorial's static_assert), so 128 x
# 128 only at HEAD_DIM 128; 128 x 64 on 4 warps is one of the tutorial's
# Hopper autotune configs at HEAD_DIM 64.
ATT="--assume-aligned-pointers --assume H=16 --assume N_CTX=16"
BP="$ATT"
for p in qz qh qm kz kh kn vz vh vk oz oh om; do BP="$BP --assume stride_$p=16"; done
for p in qk kk vn on; do BP="$BP --assume stride_$p=1"; done
for d in 64 128; do
  if [ $d = 64 ]; then cfgs=("128 64 8 3" "128 64 4 3"); else cfgs=("128 64 8 3" "128 128 8 3"); fi
  for stage in 1 3; do
    c=$( [ $stage = 3 ] && echo causal || echo full )
    for cfg in "${cfgs[@]}"; do
      set -- $cfg
      tag="d${d}_${c}_$1x$2_w$3_s$4"
      D="-D HEAD_DIM=$d -D BLOCK_M=$1 -D BLOCK_N=$2 -D STAGE=$stage"
      DESC="$D -D FP8_OUTPUT=False -D IS_HOPPER=True"
      for z in "" _z1; do
        zf=""; [ -n "$z" ] && zf="--assume Z=1"
        # shellcheck disable=SC2086
        build "t06_${tag}$z" 06_attention.tk _attn_fwd $3 $4 $DESC -D warp_specialize=False $ATT $zf "${EXTRA[@]}"
        # shellcheck disable=SC2086
        build "t06bp_${tag}$z" 06_attention_block_ptr.tk _attn_fwd $3 $4 $D $BP $zf "${EXTRA[@]}"
      done
      # shellcheck disable=SC2086
      [ $stage = 1 ] && build "t06_${tag}_ws" 06_attention.tk _attn_fwd $3 $4 $DESC \
        -D warp_specialize=True $ATT "${EXTRA[@]}"
    done
  done
done

# Tutorial 09: two of its f16 configurations for Hopper (BLOCK_SIZE_M 128,
# BLOCK_SIZE_N 128 or 256, BLOCK_SIZE_K 64), GROUP_SIZE_M 8, NUM_SMS 132
# (the H100's and the H200's SMs).
for cfg in "128 256 64 8 3" "128 128 64 8 4"; do
  set -- $cfg
  P="-D BLOCK_SIZE_M=$1 -D BLOCK_SIZE_N=$2 -D BLOCK_SIZE_K=$3 -D GROUP_SIZE_M=8 -D NUM_SMS=132"
  # shellcheck disable=SC2086
  build "t09_$1x$2x$3_w$4_s$5" 09_persistent_matmul.tk matmul_kernel_persistent $4 $5 $P $RR "${EXTRA[@]}"
  # shellcheck disable=SC2086
  build "t09d_$1x$2x$3_w$4_s$5_flat" 09_persistent_matmul.tk matmul_kernel_descriptor_persistent $4 $5 \
    $P -D EPILOGUE_SUBTILE=False -D FLATTEN=True -D WARP_SPECIALIZE=False $MM "${EXTRA[@]}"
  # shellcheck disable=SC2086
  build "t09d_$1x$2x$3_w$4_s$5_ws" 09_persistent_matmul.tk matmul_kernel_descriptor_persistent $4 $5 \
    $P -D EPILOGUE_SUBTILE=False -D FLATTEN=False -D WARP_SPECIALIZE=True $MM "${EXTRA[@]}"
done

echo "build_tutorial_kernels: $count cubins in $OUT, $failed failed"
[ "${TK_STRICT:-0}" != 1 ] || [ $failed = 0 ]
