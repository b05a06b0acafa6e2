#!/usr/bin/env bash
# matmul_sustained.sh -- tk's persistent warp-specialized TMA matmul
# (examples/matmul_desc_persistent.tk, 128x256x64, 4 stages, GROUP_M 16)
# against cuBLAS (torch.matmul) under sustained load, with the SM clock
# and the board power logged.
#
# Why: at 8192^3 a launch takes about 1.5 ms at 700 W, and a run of a few
# hundred launches meets the board's power limit; the SM clock then drops
# (to about 1.35-1.5 GHz on the H100), by an amount that depends on the
# kernel and on what ran before. Short timings (50 launches after a
# warm-up) land anywhere on that slope, which is why cuBLAS's own median
# moved by 4% between runs of one call. Here each side runs LAUNCHES
# launches (L2 flushed before each, CUDA events, median), the two
# alternate ROUNDS times on the same inputs, and nvidia-smi samples the
# clock and the power every 100 ms, so that each number comes with the
# clock it ran at.
#
# Usage (GPU machine, repository root):
#   bash bench/gpu/matmul_sustained.sh DIR OUT
# DIR holds bin/tk-run (a static build; bin/tk-run.xz is unpacked).
# DTYPES (default "bf16 f16"), SIZES (default 8192), ROUNDS (default 2),
# LAUNCHES (default 2000). Prints one line per run (with the median SM
# clock and power of its busy samples) and writes
# OUT/sustained.json.
set -u
DIR=$(cd "$1" && pwd); OUT=$2
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
mkdir -p "$OUT"
IN=$(mktemp -d)  # the inputs, kept out of OUT (a device call returns OUT)
trap 'rm -rf "$IN"' EXIT
[ -x "$DIR/bin/tk-run" ] || { xz -dkf "$DIR/bin/tk-run.xz" && chmod +x "$DIR/bin/tk-run"; }
LAUNCHES=${LAUNCHES:-2000}
# One program per SM (132 on both the H100 SXM and the H200), as torch
# counts them; matmul_tma_gpu.sh does the same.
NUM_SMS=${NUM_SMS:-$(python3 -c "import torch; print(torch.cuda.get_device_properties(0).multi_processor_count)" 2>/dev/null || echo 132)}
nvidia-smi --query-gpu=name,power.limit,clocks.max.sm --format=csv,noheader
summary() { # CSV LABEL RESULT: median clock and power over the busy samples
  python3 - "$1" "$2" "$3" "$OUT/sustained.jsonl" <<'PY'
import json, re, statistics as st, sys
rows = [list(map(float, l.split(","))) for l in open(sys.argv[1])
        if l.strip() and "N/A" not in l]
busy = [r for r in rows if r[1] > 200]  # watts: the kernel was running
rec = {"run": sys.argv[2], "samples": len(busy)}
m = re.search(r"([0-9.]+) TFLOP/s", sys.argv[3])
rec["tflops"] = float(m.group(1)) if m else None
if busy:
    rec.update(sm_mhz=st.median(r[0] for r in busy), sm_mhz_min=min(r[0] for r in busy),
               watts=st.median(r[1] for r in busy), temp_max=max(r[2] for r in busy))
    print(f"  clock median {rec['sm_mhz']:.0f} MHz (min {rec['sm_mhz_min']:.0f}), "
          f"power median {rec['watts']:.0f} W, {len(busy)} samples")
open(sys.argv[4], "a").write(json.dumps(rec) + "\n")
PY
}
rm -f "$OUT/sustained.jsonl"
for dt in ${DTYPES:-bf16 f16}; do
  for size in ${SIZES:-8192}; do
    python3 "$ROOT/bench/gpu/npy_matrices.py" "$IN" "$dt" "$size" "$size" "$size"
    for round in $(seq "${ROUNDS:-2}"); do
      for who in tk cublas; do
        label="$who $dt ${size}^3 round $round"
        csv="$IN/smi-$who-$dt-$size-$round.csv"
        nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu \
          --format=csv,noheader,nounits -lms 100 >"$csv" &
        smi=$!
        result=$(if [ $who = tk ]; then
          timeout 120 "$DIR/bin/tk-run" "$ROOT/examples/matmul_desc_persistent.tk" \
            -k matmul_desc_persistent -D BLOCK_M=128 -D BLOCK_N=256 -D BLOCK_K=64 \
            -D GROUP_M=16 -D NUM_SMS=$NUM_SMS -D WARP_SPECIALIZE=True -D DTYPE="$dt" \
            --num-warps 8 --num-stages 4 --arch sm_90a --gpu --grid $NUM_SMS --timeout 100 \
            --arg a_ptr="$IN/a.npy" --arg b_ptr="$IN/b.npy" --arg c_ptr="zeros:${size}x${size}" \
            --arg M="$size" --arg N="$size" --arg K="$size" \
            --bench "$LAUNCHES" --flops $((2 * size * size * size)) 2>&1 | tail -1
        else
          PYTHONPATH="$ROOT/bench/gpu" python3 - "$IN" "$dt" "$LAUNCHES" <<'PY'
import sys
from cubin import time_ms
from npy_matrices import load
d, dt, launches = sys.argv[1], sys.argv[2], int(sys.argv[3])
a, b = (load(f"{d}/{x}.npy", dt) for x in "ab")
n = a.shape[0]
# time_ms takes at most 1000 timed launches a call; the median of the
# last call, as many launches as tk's run in all.
for _ in range(max(1, launches // 1000)):
    ms = time_ms(lambda: a @ b, reps=min(launches, 1000), rep_ms=0.0)
print(f"cuBLAS median {ms:.4f} ms, {2 * n ** 3 / ms / 1e9:.2f} TFLOP/s")
PY
        fi)
        kill "$smi"; wait "$smi" 2>/dev/null
        echo "$label: $result"
        summary "$csv" "$label" "$result"
      done
    done
  done
done
python3 -c "import json,sys; print(json.dumps([json.loads(l) for l in open(sys.argv[1])], indent=1))" \
  "$OUT/sustained.jsonl" >"$OUT/sustained.json"
