#!/usr/bin/env bash
# One GPU call after warp-specialization changes: the TMA matmuls
# (f16 and bf16, pipelined and warp-specialized) and the fp8 descriptor
# matmul next to cuBLAS, then the attention forward variants in DIR next
# to Triton's FA2 and SDPA (same call), sanitizers on them.
# Usage: OUT=DIR bash scripts/gpu-final-check.sh DIR [LONG]
export PYTHONUNBUFFERED=1 PATH=$PATH:/usr/local/cuda/bin
C=$PWD/.carry; L=$OUT/logs; mkdir -p $L
for f in $C/bin/*.xz; do xz -dkf "$f" && chmod +x "${f%.xz}"; done
export TK_LIBDEVICE=$C/lib/libdevice.10.bc
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
python3 -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__)"
for dt in f16 bf16; do
  DTYPE=$dt VARIANTS="plain ws persistent-ws" timeout 150 bash bench/gpu/matmul_tma_gpu.sh "$C" "$OUT/tma" > $L/matmul_tma_$dt.log 2>&1
  echo "matmul_tma $dt exit $?: $(grep -c '^ok' $L/matmul_tma_$dt.log) ok"
  grep -E "^(tma|pointer|cuBLAS|FAIL)" $L/matmul_tma_$dt.log | head -20; rm -rf "$OUT/tma"
done
for defines in "" "-D WARP_SPECIALIZE=True"; do
  KERNEL=matmul_fp8_desc DEFINES="$defines" timeout 100 bash bench/gpu/matmul_fp8_gpu.sh "$C" "$OUT/fp8" >> $L/matmul_fp8_desc.log 2>&1
  echo "matmul_fp8_desc $defines exit $?"; rm -rf "$OUT/fp8"
done
grep -E "^(ok|tk|cuBLAS|FAIL)" $L/matmul_fp8_desc.log | head -30
bash scripts/gpu-attention-ws.sh "$1" "$1" "${2:-^$}"
