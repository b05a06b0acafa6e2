#!/usr/bin/env bash
# TMA matmul on the H200: examples/matmul_desc.tk compiled for sm_90a, whose
# descriptor loads become TMA copies (cp.async.bulk.tensor on mbarriers,
# multi-buffered by the pipeliner) and whose store is a TMA store; the
# runtime (libtkrt, through tk-run's C++ launch path) encodes the three
# CUtensorMaps on the host at each launch.
#  1. correctness against torch.matmul (cuBLAS, f16 in, f32 accumulation)
#     on ragged shapes (the zero fill at the matrix edges and the clipped
#     store matter), on 4096^3 and 8192^3, for num_stages 2, 3 and 4;
#  2. TFLOP/s (tk-run --bench: CUDA events, L2 flushed, median) for f16
#     4096^3 and 8192^3, TMA next to the pointer-based examples/matmul.tk
#     (cp.async + wgmma) with the same blocks, and torch.matmul.
# Also checks that the cubin has UTMALDG / UTMASTG (cuobjdump).
# Usage: bench/gpu/matmul_tma_gpu.sh BUILD OUTDIR   (BUILD: a tk build
# folder with bin/tk-run and bin/tkc; PYTHON names a python3 with torch)
set -euo pipefail
BUILD=$1; OUT=$2
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
TKRUN="$BUILD/bin/tk-run"; TKC="$BUILD/bin/tkc"
PY=${PYTHON:-python3}
mkdir -p "$OUT"
BM=${BM:-128}; BN=${BN:-256}; BK=${BK:-64}; WARPS=${WARPS:-8}
CONFIG=(-D BLOCK_M=$BM -D BLOCK_N=$BN -D BLOCK_K=$BK -D GROUP_M=8 -D LEAKY=False
        --num-warps $WARPS --arch sm_90a)

# The cubin uses TMA.
"$TKC" "$ROOT/examples/matmul_desc.tk" -k matmul_desc "${CONFIG[@]}" --num-stages 3 \
  --emit=cubin -o "$OUT/matmul_desc.cubin"
/usr/local/cuda/bin/cuobjdump --dump-sass "$OUT/matmul_desc.cubin" > "$OUT/matmul_desc.sass"
for op in UTMALDG UTMASTG HGMMA; do
  grep -q "$op" "$OUT/matmul_desc.sass" || { echo "FAIL: no $op in the SASS" >&2; exit 1; }
done
echo "ok SASS has UTMALDG, UTMASTG and HGMMA"
grep -q '"tensor_maps"' "$OUT/matmul_desc.json" || { echo "FAIL: no tensor_maps" >&2; exit 1; }

inputs() { # M N K
  "$PY" - "$OUT" "$@" <<'PY'
import sys, numpy as np
d, m, n, k = sys.argv[1], *map(int, sys.argv[2:])
rs = np.random.RandomState(m + n + k)
np.save(f"{d}/a.npy", (rs.randn(m, k) / 8).astype(np.float16))
np.save(f"{d}/b.npy", (rs.randn(k, n) / 8).astype(np.float16))
PY
}
grid() { echo $(( (($1 + BM - 1) / BM) * (($2 + BN - 1) / BN) )); }
check() { # M N K STAGES
  local m=$1 n=$2 k=$3 s=$4
  "$TKRUN" "$ROOT/examples/matmul_desc.tk" -k matmul_desc "${CONFIG[@]}" --num-stages "$s" \
    --gpu --grid "$(grid "$m" "$n")" --arg a_ptr="$OUT/a.npy" --arg b_ptr="$OUT/b.npy" \
    --arg c_ptr="zeros:${m}x${n}" --arg M="$m" --arg N="$n" --arg K="$k" \
    --write c_ptr="$OUT/c.npy"
  "$PY" - "$OUT" "$m" "$n" "$k" "$s" <<'PY'
import sys, numpy as np, torch
d = sys.argv[1]
a, b, c = (np.load(f"{d}/{x}.npy") for x in "abc")
# Against float64 (the accuracy of an f16 result: rounding, ~1e-3 at
# most) and against cuBLAS (same inputs, f32 accumulation, f16 out: often
# bit-identical, since both add the K blocks in order).
ref64 = torch.from_numpy(a).cuda().double() @ torch.from_numpy(b).cuda().double()
cublas = (torch.from_numpy(a).cuda() @ torch.from_numpy(b).cuda()).double()
out = torch.from_numpy(c.astype(np.float64)).cuda()
assert c.shape == tuple(ref64.shape), c.shape
assert not torch.isnan(out).any(), "NaN in the result"
rel = ((out - ref64).norm() / ref64.norm()).item()
rel_cublas = ((cublas - ref64).norm() / ref64.norm()).item()
same = (out == cublas).double().mean().item()
assert rel < 1e-2 and rel <= 2 * rel_cublas + 1e-6, (rel, rel_cublas)
print(f"ok matmul_desc (TMA) {sys.argv[2]}x{sys.argv[3]}x{sys.argv[4]} "
      f"num_stages {sys.argv[5]}: ||c - ref64|| / ||ref64|| = {rel:.2e} "
      f"(cuBLAS {rel_cublas:.2e}; {100 * same:.1f}% of elements equal to cuBLAS's)")
PY
}
# N and K multiples of 8 (16-byte rows, which TMA needs); M, N, K not
# multiples of the blocks.
for s in 2 3 4; do
  inputs 1000 520 264; check 1000 520 264 $s
  inputs 77 136 40; check 77 136 40 $s
done
for size in 4096 8192; do
  inputs $size $size $size
  for s in 3 4; do check $size $size $size $s; done
done

[ -n "${SKIP_BENCH:-}" ] && exit 0
for size in 4096 8192; do
  inputs $size $size $size
  flops=$(( 2 * size * size * size ))
  for s in 3 4; do
    echo -n "tma     ${size}^3 ${BM}x${BN}x${BK} w$WARPS s$s: "
    "$TKRUN" "$ROOT/examples/matmul_desc.tk" -k matmul_desc "${CONFIG[@]}" --num-stages $s \
      --gpu --grid "$(grid $size $size)" --arg a_ptr="$OUT/a.npy" --arg b_ptr="$OUT/b.npy" \
      --arg c_ptr="zeros:${size}x${size}" --arg M=$size --arg N=$size --arg K=$size \
      --bench 50 --flops $flops
    echo -n "pointer ${size}^3 ${BM}x${BN}x${BK} w$WARPS s$s: "
    "$TKRUN" "$ROOT/examples/matmul.tk" -k matmul "${CONFIG[@]}" --num-stages $s \
      --assume-aligned-pointers --assume M=16 --assume K=16 --assume N=16 --assume stride_ak=1 \
      --assume stride_am=16 --assume stride_bk=16 --assume stride_cm=16 \
      --assume stride_bn=1 --assume stride_cn=1 \
      --gpu --grid "$(grid $size $size)" --arg a_ptr="$OUT/a.npy" --arg b_ptr="$OUT/b.npy" \
      --arg c_ptr="zeros:${size}x${size}" --arg M=$size --arg N=$size --arg K=$size \
      --arg stride_am=$size --arg stride_ak=1 --arg stride_bk=$size --arg stride_bn=1 \
      --arg stride_cm=$size --arg stride_cn=1 --bench 50 --flops $flops
  done
  "$PY" - "$size" <<PY
import sys, torch
sys.path.insert(0, "$ROOT/bench/gpu")
from cubin import time_ms
n = int(sys.argv[1])
a = torch.randn(n, n, device="cuda", dtype=torch.float16)
b = torch.randn(n, n, device="cuda", dtype=torch.float16)
ms = time_ms(lambda: a @ b, reps=50)
print(f"cuBLAS  {n}^3 torch.matmul: {ms:.3f} ms, {2 * n ** 3 / ms / 1e9:.2f} TFLOP/s")
PY
done
