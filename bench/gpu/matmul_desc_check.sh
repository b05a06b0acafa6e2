#!/usr/bin/env bash
# Checks examples/matmul_desc.tk (tensor descriptors) on the GPU against
# numpy: ragged shapes, so that the zero fill of descriptor loads at the
# matrix edges and the clipped store both matter, on sm_90a (wgmma) and
# with --arch sm_80 code (mma.sync); then times one 4096^3 launch series.
# Usage: bench/gpu/matmul_desc_check.sh TK_RUN OUTDIR   (TK_RUN_DEVICE= runs
# the CPU interpreter instead of --gpu; SKIP_BENCH=1 skips the timing;
# PYTHON names a python3 with numpy)
set -euo pipefail
TKRUN=$1; OUT=$2
SRC="$(cd "$(dirname "$0")/../.." && pwd)/examples/matmul_desc.tk"
mkdir -p "$OUT"
run() { # M N K ARCH [extra tk-run flags]
  local m=$1 n=$2 k=$3 arch=$4; shift 4
  "${PYTHON:-python3}" - "$OUT" "$m" "$n" "$k" <<'PY'
import sys, numpy as np
d, m, n, k = sys.argv[1], *map(int, sys.argv[2:])
rs = np.random.RandomState(m + n + k)
np.save(f"{d}/a.npy", (rs.randn(m, k) / 8).astype(np.float16))
np.save(f"{d}/b.npy", (rs.randn(k, n) / 8).astype(np.float16))
PY
  local grid=$(( ((m + 127) / 128) * ((n + 127) / 128) ))
  "$TKRUN" "$SRC" -k matmul_desc -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=32 \
    -D GROUP_M=8 -D LEAKY=False ${TK_RUN_DEVICE---gpu} --arch "$arch" --num-warps 4 \
    --num-stages 3 --grid "$grid" --arg a_ptr="$OUT/a.npy" \
    --arg b_ptr="$OUT/b.npy" --arg c_ptr="zeros:${m}x${n}" --arg M="$m" \
    --arg N="$n" --arg K="$k" --write c_ptr="$OUT/c.npy" "$@"
  "${PYTHON:-python3}" - "$OUT" "$m" "$n" "$k" "$arch" <<'PY'
import sys, numpy as np
d = sys.argv[1]
a, b, c = (np.load(f"{d}/{x}.npy") for x in "abc")
want = a.astype(np.float32) @ b.astype(np.float32)
err = np.abs(c.astype(np.float32) - want).max()
assert c.shape == want.shape and err < 2e-2, err
print(f"ok matmul_desc {sys.argv[2]}x{sys.argv[3]}x{sys.argv[4]} {sys.argv[5]}: max error {err:.2e}")
PY
}
# N and K multiples of 8 (16-byte rows, what TMA will need); M, N, K not
# multiples of the blocks.
for arch in sm_90a sm_80; do
  run 1000 520 264 $arch
  run 77 136 40 $arch
done
[ -n "${SKIP_BENCH:-}" ] || run 4096 4096 4096 sm_90a --bench 50
