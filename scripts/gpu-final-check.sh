#!/usr/bin/env bash
# One GPU call after warp-specialization changes: the TMA matmuls
# (f16 and bf16, pipelined and warp-specialized) and the fp8 descriptor
# matmul next to cuBLAS, then the attention forward variants in DIR next
# to Triton's FA2 and SDPA (same call), sanitizers on them.
# Knobs: TMA=0 (no TMA matmul step), TMA_TIMEOUT (seconds per dtype,
# 150), TMA_VARIANTS ("plain ws persistent-ws"), SKIP_CHECKS=1 (the TMA
# timings alone), FP8=0 (no fp8 step), FIRST=REGEX (those attention
# variants alone first, under a 100 s timeout: a kernel that may hang
# costs only that; HANG=REGEX, the variants also left out when that step
# times out), BWD=DIR (the backward variants there checked and timed,
# next to PyTorch's flash backward, under BWD_TIMEOUT, 200 s; BWD_ARGS
# adds attention_bwd_gpu.py flags: --long for N = 16384),
# REF (triton_ref sections, default "attention"; "attention|matmul_bf16"
# adds Triton's bf16 matmul) with REF_TIMEOUT (100 s), and SAN=DIR (the
# variants the sanitizers run, DIR by default; .carry/kernels/empty runs
# none), SAN_BWD=DIR (backward variants the sanitizers run too).
# Usage: OUT=DIR bash scripts/gpu-final-check.sh DIR [LONG]
export PYTHONUNBUFFERED=1 PATH=$PATH:/usr/local/cuda/bin
C=$PWD/.carry; L=$OUT/logs; mkdir -p $L
for f in $C/bin/*.xz; do xz -dkf "$f" && chmod +x "${f%.xz}"; done
export TK_LIBDEVICE=$C/lib/libdevice.10.bc
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
python3 -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__)"
for dt in f16 bf16; do
  [ "${TMA:-1}" = 0 ] && break
  DTYPE=$dt VARIANTS="${TMA_VARIANTS:-plain ws persistent-ws}" timeout ${TMA_TIMEOUT:-150} bash bench/gpu/matmul_tma_gpu.sh "$C" "$OUT/tma" > $L/matmul_tma_$dt.log 2>&1
  echo "matmul_tma $dt exit $?: $(grep -c '^ok' $L/matmul_tma_$dt.log) ok"
  grep -E "^(tma|pointer|cuBLAS|FAIL)" $L/matmul_tma_$dt.log | head -20; rm -rf "$OUT/tma"
done
for defines in "" "-D WARP_SPECIALIZE=True"; do
  [ "${FP8:-1}" = 0 ] && break
  KERNEL=matmul_fp8_desc DEFINES="$defines" timeout 100 bash bench/gpu/matmul_fp8_gpu.sh "$C" "$OUT/fp8" >> $L/matmul_fp8_desc.log 2>&1
  echo "matmul_fp8_desc $defines exit $?"; rm -rf "$OUT/fp8"
done
[ "${FP8:-1}" = 0 ] || grep -E "^(ok|tk|cuBLAS|FAIL)" $L/matmul_fp8_desc.log | head -30
if [ -n "${FIRST:-}" ]; then
  timeout 100 python3 bench/gpu/attention_gpu.py "$1" $OUT/first --quick --only "$FIRST" > $L/attention-first.log 2>&1
  rc=$?; echo "first ($FIRST) exit $rc"; grep -E "TFLOP/s|FAIL|passed|rror" $L/attention-first.log
  skip=$FIRST
  [ $rc = 124 ] && [ -n "${HANG:-}" ] && skip="$skip|$HANG" && echo "timed out: leaving out $HANG"
  export ONLY="^(?!.*(?:$skip))"
fi
if [ -n "${BWD:-}" ]; then
  timeout ${BWD_TIMEOUT:-200} python3 bench/gpu/attention_bwd_gpu.py "$BWD" $OUT/bwd ${BWD_ARGS:-} > $L/attention-bwd.log 2>&1
  echo "bwd exit $?"; grep -E "TFLOP/s|FAIL|passed|rror|unavailable" $L/attention-bwd.log | head -30
fi
bash scripts/gpu-attention-ws.sh "$1" "${SAN:-$1}" "${2:-^$}" "${SAN_BWD:-}"
