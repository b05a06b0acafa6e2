#!/usr/bin/env bash
# fp8 matmul on the H200: examples/matmul_fp8.tk (e4m3 A and B, B passed
# as its NxK transpose, f32 accumulation, f16 C) compiled for sm_90a with
# Triton's specialization, so that its dot runs on fp8 wgmma (m64nNk32).
#  1. the SASS has QGMMA (wgmma on 8-bit operands) on E4M3;
#  2. correctness against float64 and against torch._scaled_mm (cuBLAS's
#     fp8 GEMM, unit scales, f16 out) on a shape that is not a multiple of
#     the blocks and on 4096^3 and 8192^3, for num_stages 3 and 4;
#  3. TFLOP/s (tk-run --bench: CUDA events, L2 flushed, median) next to
#     torch._scaled_mm and, for scale, the f16 pointer matmul.
# Usage: bench/gpu/matmul_fp8_gpu.sh BUILD OUTDIR   (BUILD: a folder with
# bin/tk-run and bin/tkc; PYTHON names a python3 with torch; BM, BN, BK,
# WARPS and STAGES (a list) change the configuration; KERNEL=matmul_fp8_desc
# takes the tensor-descriptor kernel (TMA, B^T's tile transposed into the
# wgmma), DEFINES adds tkc -D options, e.g. "-D WARP_SPECIALIZE=True")
set -euo pipefail
BUILD=$1; OUT=$2
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
TKRUN="$BUILD/bin/tk-run"; TKC="$BUILD/bin/tkc"
PY=${PYTHON:-python3}
mkdir -p "$OUT"
BM=${BM:-128}; BN=${BN:-128}; BK=${BK:-128}; WARPS=${WARPS:-8}; STAGES=${STAGES:-3 4}
KERNEL=${KERNEL:-matmul_fp8}; export KERNEL DEFINES="${DEFINES:-}"
# shellcheck disable=SC2206
CONFIG=(-k $KERNEL ${DEFINES:-} -D BLOCK_M=$BM -D BLOCK_N=$BN -D BLOCK_K=$BK -D GROUP_M=8 --num-warps $WARPS
        --arch sm_90a --assume-aligned-pointers --assume M=16 --assume N=16 --assume K=16
        --assume stride_am=16 --assume stride_ak=1 --assume stride_bk=1 --assume stride_bn=16
        --assume stride_cm=16 --assume stride_cn=1)

"$TKC" "$ROOT/examples/matmul_fp8.tk" "${CONFIG[@]}" --num-stages "${STAGES##* }" \
  --emit=cubin -o "$OUT/matmul_fp8.cubin"
/usr/local/cuda/bin/cuobjdump --dump-sass "$OUT/matmul_fp8.cubin" > "$OUT/matmul_fp8.sass"
grep -q "QGMMA.*E4M3" "$OUT/matmul_fp8.sass" || { echo "FAIL: no QGMMA (fp8 wgmma) on E4M3 in the SASS" >&2; exit 1; }
echo "ok SASS: $(grep -o 'QGMMA[.A-Z0-9x]*' "$OUT/matmul_fp8.sass" | sort | uniq -c | tr '\n' ' ')"

inputs() { # M N K: a (MxK) and bt (NxK) as e4m3 bits
  "$PY" - "$OUT" "$@" <<'PY'
import sys, numpy as np, torch
d, m, n, k = sys.argv[1], *map(int, sys.argv[2:])
g = torch.Generator().manual_seed(m + n + k)
for name, shape in (("a", (m, k)), ("bt", (n, k))):
    x = (torch.randn(shape, generator=g) * 2).to(torch.float8_e4m3fn)
    np.save(f"{d}/{name}.npy", x.view(torch.uint8).numpy())
PY
}
grid() { echo $(( (($1 + BM - 1) / BM) * (($2 + BN - 1) / BN) )); }
run() { # M N K STAGES [extra tk-run args]
  local m=$1 n=$2 k=$3 s=$4; shift 4
  "$TKRUN" "$ROOT/examples/matmul_fp8.tk" "${CONFIG[@]}" --num-stages "$s" \
    --gpu --grid "$(grid "$m" "$n")" --arg a_ptr="$OUT/a.npy" --arg b_ptr="$OUT/bt.npy" \
    --arg c_ptr="zeros:${m}x${n}" --arg M="$m" --arg N="$n" --arg K="$k" \
    --arg stride_am="$k" --arg stride_ak=1 --arg stride_bk=1 --arg stride_bn="$k" \
    --arg stride_cm="$n" --arg stride_cn=1 "$@"
}
check() { # M N K STAGES
  run "$@" --write c_ptr="$OUT/c.npy"
  PYTHONPATH="$ROOT/bench/gpu" "$PY" - "$OUT" "$@" <<'PY'
import os, sys, numpy as np, torch
from matmul_verdict import check
d = sys.argv[1]
a8 = torch.from_numpy(np.load(f"{d}/a.npy")).view(torch.float8_e4m3fn).cuda()
bt8 = torch.from_numpy(np.load(f"{d}/bt.npy")).view(torch.float8_e4m3fn).cuda()
c = torch.from_numpy(np.load(f"{d}/c.npy").astype(np.float64)).cuda()
ref64 = a8.double() @ bt8.double().t()
one = torch.ones((), device="cuda")
cublas = torch._scaled_mm(a8, bt8.t(), scale_a=one, scale_b=one,
                          out_dtype=torch.float16).double()
check(c, ref64, cublas,
      f"{os.environ['KERNEL']} {os.environ.get('DEFINES', '')} {sys.argv[2]}x{sys.argv[3]}x{sys.argv[4]} num_stages {sys.argv[5]}",
      "cuBLAS fp8")
PY
}
for s in $STAGES; do
  inputs 1008 528 272; check 1008 528 272 $s
done
for size in 4096 8192; do
  inputs $size $size $size
  for s in $STAGES; do check $size $size $size $s; done
done

[ -n "${SKIP_BENCH:-}" ] && exit 0
for size in 4096 8192; do
  inputs $size $size $size
  flops=$(( 2 * size * size * size ))
  for s in $STAGES; do
    echo -n "tk $KERNEL ${DEFINES:-} ${size}^3 ${BM}x${BN}x${BK} w$WARPS s$s: "
    run $size $size $size $s --bench 50 --flops $flops
  done
  "$PY" - "$size" <<PY
import sys, torch
sys.path.insert(0, "$ROOT/bench/gpu")
from cubin import time_ms
n = int(sys.argv[1])
a = torch.randn(n, n, device="cuda").to(torch.float8_e4m3fn)
bt = torch.randn(n, n, device="cuda").to(torch.float8_e4m3fn)
one = torch.ones((), device="cuda")
ms = time_ms(lambda: torch._scaled_mm(a, bt.t(), scale_a=one, scale_b=one,
                                      out_dtype=torch.float16), reps=50)
print(f"cuBLAS  {n}^3 torch._scaled_mm e4m3: {ms:.3f} ms, {2 * n ** 3 / ms / 1e9:.2f} TFLOP/s")
h = torch.randn(n, n, device="cuda", dtype=torch.float16)
ms = time_ms(lambda: h @ h, reps=50)
print(f"cuBLAS  {n}^3 torch.matmul f16: {ms:.3f} ms, {2 * n ** 3 / ms / 1e9:.2f} TFLOP/s")
PY
done
