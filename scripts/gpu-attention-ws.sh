#!/usr/bin/env bash
# A GPU call for the attention forward: every variant in DIR checked
# against SDPA and timed (N = 16384 too for those LONG matches), Triton's
# FA2 and PyTorch's SDPA in the same call (triton_ref.py's attention
# section), then compute-sanitizer racecheck and synccheck over the
# forward variants in SANDIR and the backward ones in BWDDIR (none when
# left out). scripts/gpu-attention-matmul.sh a is this on every kernel.
# ONLY=REGEX: the forward variants timed (all by default).
# Usage: OUT=DIR bash scripts/gpu-attention-ws.sh DIR SANDIR [LONG [BWDDIR]]
export PYTHONUNBUFFERED=1 PATH=$PATH:/usr/local/cuda/bin
L=$OUT/logs; mkdir -p $L; mkdir -p .carry/kernels/empty
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
python3 -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__)"
timeout 330 python3 bench/gpu/attention_gpu.py "$1" $OUT --quick --only "${ONLY:-}" --long "${3:-^$}" > $L/attention.log 2>&1
echo "fwd exit $?"; grep -E "TFLOP/s|FAIL|passed|rror" $L/attention.log
timeout ${REF_TIMEOUT:-100} python3 bench/gpu/triton_ref_attention.py .carry/triton_ref.py $OUT "${REF:-attention}" > $L/ref.log 2>&1
echo "ref exit $?"
python3 -c "
import json
r = json.load(open('$OUT/anchors.json'))
for s in ('attention_TFLOPs', 'matmul_bf16_TFLOPs'):
  for k, v in r.get(s, {}).items():
    print(s, k, {a: (round(b, 1) if isinstance(b, float) else b) for a, b in v.items() if not a.endswith('relerr')})"
for tool in racecheck synccheck; do
  (cd bench/gpu && timeout 200 compute-sanitizer --tool $tool --error-exitcode 3 python3 attention_sanitize.py \
    "../../$2" "../../${4:-.carry/kernels/empty}") > $L/attention-$tool.log 2>&1
  echo "attention $tool exit $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|sanitize harness|FAIL' $L/attention-$tool.log | head -5 | tr '\n' ' ')"
done
tar czf $OUT/logs.tgz -C $OUT logs && rm -rf $L
