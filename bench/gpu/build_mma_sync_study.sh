#!/usr/bin/env bash
# Builds what bench/gpu/mma_sync_study.sh runs on the GPU machine, into DIR:
# tk's mma.sync (--mma=v2) matmul cubins of the configurations studied
# (triton_ref.py's five and a few more; names as build_matmul_kernels.sh
# gives them, so matmul_gpu.py reads them), once with tkc's defaults and
# once with --no-prefetch-before-copies, the two mma.sync ceiling programs,
# and a copy of the shared triton_ref.py.
# Usage: bench/gpu/build_mma_sync_study.sh TKC DIR   (extra tkc flags in
# TK_EXTRA_FLAGS; configurations BMxBNxBK_wW_sS in STUDY_CONFIGS)
# Optional: UNALIGNED=1 also compiles build_matmul_kernels.sh's unaligned
# and strided variants (layouts rr and any) into DIR/unaligned;
# STATIC_TKC=PATH and STATIC_TKC_BEFORE=PATH pack two static tkc builds
# into DIR/bin for the study's compile-time step; STATIC_TKRUN=PATH packs
# a static tk-run beside them for step 8 (the TMA matmul of issue 9).
set -euo pipefail
TKC=$1; DIR=$2
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$DIR/matmul"
source "$HERE/matmul_specs.sh"
spec=$(matmul_spec rr16)
# DIR/matmul: tkc's defaults; DIR/matmul-after: the same with
# --no-prefetch-before-copies (the next k-slice loaded after the copies,
# as before the twentieth session; step 9).
mkdir -p "$DIR/matmul-after"
for cfg in ${STUDY_CONFIGS:-128x128x32_w4_s3 128x128x32_w4_s4 128x256x32_w8_s4 256x128x32_w8_s4 128x256x64_w8_s3 128x256x64_w8_s4 256x128x64_w8_s3 128x128x64_w4_s4}; do
  IFS='x_ws' read -r bm bn bk _ w _ s <<<"$cfg"
  for k in matmul_f16 matmul_bf16; do
    for out in matmul matmul-after; do
      extra=""; [ $out = matmul-after ] && extra=--no-prefetch-before-copies
      # shellcheck disable=SC2086
      "$TKC" "$HERE/../kernels/matmul_variants.tk" -k $k -D BLOCK_M=$bm -D BLOCK_N=$bn -D BLOCK_K=$bk \
        --num-warps "$w" --num-stages "$s" $spec --mma=v2 $extra ${TK_EXTRA_FLAGS:-} --emit=cubin \
        -o "$DIR/$out/${k}_plain_${bm}x${bn}x${bk}_w${w}_s${s}_rr16.cubin"
    done
  done
done
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
for b in mma_ceiling mma_smem_ceiling; do
  "$NVCC" -O3 -gencode=arch=compute_90,code=sm_90 "$HERE/$b.cu" -o "$DIR/$b"
done
cp "$HERE/../../../shared/bench/triton_ref.py" "$DIR/" 2>/dev/null || cp "${TRITON_REF:?where is triton_ref.py}" "$DIR/"
if [ "${UNALIGNED:-0}" = 1 ]; then
  tmp=$(mktemp -d)
  bash "$HERE/build_matmul_kernels.sh" "$TKC" "$tmp" >/dev/null
  mkdir -p "$DIR/unaligned"
  cp "$tmp"/*_rr.* "$tmp"/*_any.* "$DIR/unaligned/"
  rm -rf "$tmp"
fi
for t in STATIC_TKC STATIC_TKC_BEFORE STATIC_TKRUN; do
  [ -n "${!t:-}" ] || continue
  case $t in STATIC_TKC) name=tkc ;; STATIC_TKC_BEFORE) name=tkc-before ;; *) name=tk-run ;; esac
  mkdir -p "$DIR/bin"
  strip -o "$DIR/bin/$name" "${!t}"
  xz -f -T2 -6 "$DIR/bin/$name"
done
ls "$DIR/matmul" | wc -l
