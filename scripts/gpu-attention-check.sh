#!/usr/bin/env bash
# A short GPU call (when device time is short): attention forward and
# backward checks and timings, Triton's FA2 forward and PyTorch's SDPA in
# the same call, and a matmul regression subset. Expects the cubins in
# .carry/kernels/{attention,attention_bwd,matmul} (compiled here by the
# bench/gpu/build_*_kernels.sh scripts) and .carry/triton_ref.py.
export PYTHONUNBUFFERED=1
C=.carry
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__)"
date -u
timeout 110 python3 bench/gpu/attention_gpu.py $C/kernels/attention $OUT --quick > $OUT/attention.log 2>&1
echo "fwd exit $?"; grep -E "TFLOP/s|FAIL|passed" $OUT/attention.log
timeout 90 python3 bench/gpu/triton_ref_attention.py $C/triton_ref.py $OUT > $OUT/ref.log 2>&1
echo "ref exit $?"
python3 - "$OUT/anchors.json" <<'PY'
import json, sys
for k, v in json.load(open(sys.argv[1]))["attention_TFLOPs"].items():
    print(k, {a: (round(b, 1) if isinstance(b, float) else b) for a, b in v.items() if not a.endswith("relerr")})
PY
timeout 110 python3 bench/gpu/attention_bwd_gpu.py $C/kernels/attention_bwd $OUT > $OUT/attention_bwd.log 2>&1
echo "bwd exit $?"; grep -E "TFLOP|FAIL|passed|torch" $OUT/attention_bwd.log | head -40
timeout 50 python3 bench/gpu/matmul_gpu.py $C/kernels/matmul $OUT --quick > $OUT/matmul.log 2>&1
echo "matmul exit $?"; head -30 $OUT/matmul.log
