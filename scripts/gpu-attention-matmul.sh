#!/usr/bin/env bash
# A short GPU call in two parts, each well under the 10-minute limit:
#   a: attention forward checks and timings next to Triton's FA2 and
#      PyTorch's SDPA (same run), every attention kernel under
#      compute-sanitizer racecheck and synccheck;
#   b: the attention backward (f16, bf16) next to torch's flash backward,
#      and the matmul variants (persistent included) next to cuBLAS.
export PYTHONUNBUFFERED=1 PATH=$PATH:/usr/local/cuda/bin
# Expects the cubins in .carry/kernels/{attention,attention_bwd,matmul}
# (bench/gpu/build_*_kernels.sh) and .carry/triton_ref.py.
# Usage: OUT=DIR bash scripts/gpu-attention-matmul.sh a|b
K=.carry/kernels
if [ "$1" = a ]; then
  exec bash scripts/gpu-attention-ws.sh $K/attention $K/attention '^$' $K/attention_bwd
fi
L=$OUT/logs; mkdir -p $L
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
python3 -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__)"
timeout 250 python3 bench/gpu/attention_bwd_gpu.py $K/attention_bwd $OUT > $L/attention_bwd.log 2>&1
echo "bwd exit $?"; grep -E "backward|FAIL|passed" $L/attention_bwd.log | head -30
timeout 200 python3 bench/gpu/matmul_gpu.py $K/matmul $OUT --quick > $L/matmul.log 2>&1
echo "matmul exit $?"; grep -vE "^    " $L/matmul.log | head -30
tar czf $OUT/logs.tgz -C $OUT logs && rm -rf $L
ls $OUT
