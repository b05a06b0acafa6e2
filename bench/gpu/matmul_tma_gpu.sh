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
# VARIANTS (default "plain ws persistent persistent-ws"): plain is the
# software-pipelined loop, ws the warp-specialized one (-D
# WARP_SPECIALIZE=True: a producer warp group issues the TMA loads;
# SETMAXREG in the SASS, num_warps + 4 warps in the metadata); persistent
# and persistent-ws the same on the persistent kernel
# (examples/matmul_desc_persistent.tk, NUM_SMS programs; at 4 stages of
# 128x256x64 the warp-specialized one fits only with its TMA store staged
# in 64-column blocks, which tkgpu-subtile-tma-stores does by itself).
# persistent-ws-mc (not in the default VARIANTS) is persistent-ws with B
# multicast in clusters of two (-D MULTICAST=True --cluster-size 2; it
# needs cdiv(M, BM) to be a multiple of GROUP_M, as 4096 and 8192 are).
# Each variant is checked and timed. DTYPE=bf16 runs them on bf16 (.npy
# files of dtype V2 hold the bits; no pointer-path rows, examples/matmul.tk
# being f16). LEAKY_BENCH=1 also times
# the fused leaky ReLU at 4096^3 next to torch.matmul + leaky_relu.
# SANITIZE=1 runs compute-sanitizer racecheck and synccheck on each
# variant (1000x520x264, SANITIZE_STAGES stages, default 3). SKIP_CHECKS=1 skips the correctness
# runs, SKIP_BENCH=1 the timings; BENCH_STAGES (default "3 4") picks the
# stages timed, POINTER_ROWS=0 leaves out the pointer-based rows;
# QUICK_CHECKS=1 checks only 1000x520x264 at BENCH_STAGES. GROUP_M
# (default 16: the 132 tiles in flight then span about 16 tile rows by 8
# tile columns, which reads 22% fewer DRAM bytes than 8 by 16.5; docs/
# tma.md) and PERSISTENT_MAX_STAGES (default 4; BLOCK_K 32 fits 6).
# COMPILE_FLAGS (e.g. --rebase-wgmma-descriptors) go to every tkc and
# tk-run compile of the descriptor kernels (the pointer rows too).
# Each check and timing gives tk-run --timeout 120: a kernel that hangs
# (a multicast pair that parts deadlocks) fails there instead of using up
# the device call.
# Usage: bench/gpu/matmul_tma_gpu.sh BUILD OUTDIR   (BUILD: a tk build
# folder with bin/tk-run and bin/tkc; PYTHON names a python3 with torch)
set -euo pipefail
BUILD=$1; OUT=$2
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
TKRUN="$BUILD/bin/tk-run"; TKC="$BUILD/bin/tkc"
PY=${PYTHON:-python3}
mkdir -p "$OUT"
BM=${BM:-128}; BN=${BN:-256}; BK=${BK:-64}; WARPS=${WARPS:-8}
VARIANTS=${VARIANTS:-plain ws persistent persistent-ws}
NUM_SMS=${NUM_SMS:-$("$PY" -c "import torch; print(torch.cuda.get_device_properties(0).multi_processor_count)" 2>/dev/null || echo 132)}
DTYPE=${DTYPE:-f16}
BASE=(-D BLOCK_M=$BM -D BLOCK_N=$BN -D BLOCK_K=$BK -D GROUP_M=${GROUP_M:-16}
      --num-warps $WARPS --arch sm_90a)
config() { # VARIANT [LEAKY]: SRC, KERNEL and CONFIG for it
  # shellcheck disable=SC2206
  CONFIG=("${BASE[@]}" -D LEAKY=${2:-False} ${COMPILE_FLAGS:-})
  SRC="$ROOT/examples/matmul_desc.tk"; KERNEL=matmul_desc
  [ $1 = pointer ] && return 0
  CONFIG+=(-D DTYPE=$DTYPE)
  case $1 in persistent*) SRC="$ROOT/examples/matmul_desc_persistent.tk"
                 KERNEL=matmul_desc_persistent; CONFIG+=(-D NUM_SMS=$NUM_SMS) ;; esac
  case $1 in *ws) CONFIG+=(-D WARP_SPECIALIZE=True) ;; esac
  # persistent-ws-mc: B multicast in clusters of two (docs/tma.md).
  case $1 in *-mc) CONFIG+=(-D WARP_SPECIALIZE=True -D MULTICAST=True --cluster-size 2) ;; esac
  return 0
}
stages() { # VARIANT STAGES...: the stages the variant runs
  local v=$1; shift
  for s in "$@"; do
    [[ $v == persistent* && $s -gt ${PERSISTENT_MAX_STAGES:-4} ]] || echo -n "$s "
  done
}

# The cubins use TMA (and the warp-specialized one setmaxnreg).
for v in $VARIANTS; do
  config $v
  "$TKC" "$SRC" -k $KERNEL "${CONFIG[@]}" --num-stages 3 \
    --emit=cubin -o "$OUT/matmul_desc_$v.cubin"
  /usr/local/cuda/bin/cuobjdump --dump-sass "$OUT/matmul_desc_$v.cubin" > "$OUT/matmul_desc_$v.sass"
  ops="UTMALDG UTMASTG HGMMA"; [[ $v == *ws ]] && ops+=" SETMAXREG"
  for op in $ops; do
    grep -q "$op" "$OUT/matmul_desc_$v.sass" || { echo "FAIL: no $op in the $v SASS" >&2; exit 1; }
  done
  echo "ok $v SASS has $ops ($(grep -c HGMMA "$OUT/matmul_desc_$v.sass") HGMMA," \
    "$(grep -c 'BAR.SYNC' "$OUT/matmul_desc_$v.sass") BAR.SYNC);" \
    "metadata num_warps $(grep -o '"num_warps": *[0-9]*' "$OUT/matmul_desc_$v.json" | grep -o '[0-9]*$')"
  grep -q '"tensor_maps"' "$OUT/matmul_desc_$v.json" || { echo "FAIL: no tensor_maps" >&2; exit 1; }
done

inputs() { # M N K: a.npy, b.npy in DTYPE (bf16: its bits as V2)
  "$PY" "$ROOT/bench/gpu/npy_matrices.py" "$OUT" "$DTYPE" "$@"
}
grid() { # M N [VARIANT]
  local tiles=$(( (($1 + BM - 1) / BM) * (($2 + BN - 1) / BN) ))
  [[ ${3:-} == persistent* && $tiles -gt $NUM_SMS ]] && tiles=$NUM_SMS
  echo $tiles
}
check() { # M N K STAGES VARIANT
  local m=$1 n=$2 k=$3 s=$4 v=$5
  config $v
  "$TKRUN" "$SRC" -k $KERNEL "${CONFIG[@]}" --timeout 120 --num-stages "$s" \
    --gpu --grid "$(grid "$m" "$n" $v)" --arg a_ptr="$OUT/a.npy" --arg b_ptr="$OUT/b.npy" \
    --arg c_ptr="zeros:${m}x${n}" --arg M="$m" --arg N="$n" --arg K="$k" \
    --write c_ptr="$OUT/c.npy"
  PYTHONPATH="$ROOT/bench/gpu" "$PY" - "$OUT" "$m" "$n" "$k" "$s" "$v" "$DTYPE" <<'PY'
import sys, torch
from matmul_verdict import check
from npy_matrices import load
d = sys.argv[1]
a, b, c = (load(f"{d}/{x}.npy", sys.argv[7]) for x in "abc")
# Against float64 (the accuracy of a 16-bit result: its rounding) and
# against cuBLAS (same inputs, f32 accumulation, the same output type:
# often bit-identical, since both add the K blocks in order).
ref64 = a.double() @ b.double()
cublas = (a @ b).double()
check(c.double(), ref64, cublas,
      f"matmul_desc (TMA, {sys.argv[6]}, {sys.argv[7]}) "
      f"{sys.argv[2]}x{sys.argv[3]}x{sys.argv[4]} num_stages {sys.argv[5]}")
PY
}
# N and K multiples of 8 (16-byte rows, which TMA needs); M, N, K not
# multiples of the blocks.
for v in $VARIANTS; do
  [ -n "${SKIP_CHECKS:-}" ] && break
  if [ "${QUICK_CHECKS:-0}" = 1 ]; then
    inputs 1000 520 264
    for s in $(stages $v ${BENCH_STAGES:-3 4}); do check 1000 520 264 $s $v; done
    continue
  fi
  for s in $(stages $v 2 3 4); do
    inputs 1000 520 264; check 1000 520 264 $s $v
    # (one tile row: a group of one, which multicast pairs cannot share)
    [[ $v == *-mc ]] || { inputs 77 136 40; check 77 136 40 $s $v; }
  done
  for size in 4096 8192; do
    inputs $size $size $size
    for s in $(stages $v 3 4); do check $size $size $size $s $v; done
  done
done

if [ "${SANITIZE:-0}" = 1 ]; then
  inputs 1000 520 264
  for v in $VARIANTS; do
    config $v
    for tool in racecheck synccheck; do
      rc=0
      compute-sanitizer --tool $tool --error-exitcode 3 "$TKRUN" "$SRC" \
        -k $KERNEL "${CONFIG[@]}" --num-stages "${SANITIZE_STAGES:-3}" --gpu --grid "$(grid 1000 520 $v)" \
        --arg a_ptr="$OUT/a.npy" --arg b_ptr="$OUT/b.npy" --arg c_ptr="zeros:1000x520" \
        --arg M=1000 --arg N=520 --arg K=264 > "$OUT/sanitize-$v-$tool.log" 2>&1 || rc=$?
      echo "sanitize $v $tool: exit $rc, $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitize-$v-$tool.log" | tr '\n' ' ')"
    done
  done
fi

[ -n "${SKIP_BENCH:-}" ] && exit 0
bench_tma() { # VARIANT STAGES SIZE [LEAKY]: TFLOP/s of one variant
  local v=$1 s=$2 size=$3 leaky=${4:-False}
  [ -n "$(stages $v $s)" ] || return 0
  config $v $leaky
  local label=$v; [ $leaky = True ] && label+=" leaky"
  echo -n "tma $label $DTYPE ${size}^3 ${BM}x${BN}x${BK} w$WARPS s$s: "
  "$TKRUN" "$SRC" -k $KERNEL "${CONFIG[@]}" --timeout 120 --num-stages $s \
    --gpu --grid "$(grid $size $size $v)" --arg a_ptr="$OUT/a.npy" --arg b_ptr="$OUT/b.npy" \
    --arg c_ptr="zeros:${size}x${size}" --arg M=$size --arg N=$size --arg K=$size \
    --bench 50 --flops $(( 2 * size * size * size ))
}
cublas() { # SIZE LABEL EXPR: torch's time for EXPR of a and b (cuBLAS),
  # on the inputs tk's timing used ($OUT/a.npy, b.npy): the power a GEMM
  # draws, and so the clock it runs at, depends on the data.
  "$PY" - "$1" "$2" "$3" "$DTYPE" "$OUT" <<PY
import sys, torch
sys.path.insert(0, "$ROOT/bench/gpu")
from cubin import time_ms
from npy_matrices import load
n, label, expr = int(sys.argv[1]), sys.argv[2], sys.argv[3]
a, b = (load(f"{sys.argv[5]}/{x}.npy", sys.argv[4]) for x in "ab")
assert a.shape == (n, n) and b.shape == (n, n)
F = torch.nn.functional
ms = time_ms(lambda: eval(expr), reps=50)
print(f"cuBLAS  {n}^3 {label} {sys.argv[4]}: {ms:.3f} ms, {2 * n ** 3 / ms / 1e9:.2f} TFLOP/s")
PY
}
for size in 4096 8192; do
  inputs $size $size $size
  for s in ${BENCH_STAGES:-3 4}; do
    for v in $VARIANTS; do bench_tma $v $s $size; done
    [ $DTYPE = f16 ] && [ "${POINTER_ROWS:-1}" = 1 ] || continue
    config pointer
    echo -n "pointer ${size}^3 ${BM}x${BN}x${BK} w$WARPS s$s: "
    "$TKRUN" "$ROOT/examples/matmul.tk" -k matmul "${CONFIG[@]}" --num-stages $s \
      --assume-aligned-pointers --assume M=16 --assume K=16 --assume N=16 --assume stride_ak=1 \
      --assume stride_am=16 --assume stride_bk=16 --assume stride_cm=16 \
      --assume stride_bn=1 --assume stride_cn=1 \
      --gpu --grid "$(grid $size $size)" --arg a_ptr="$OUT/a.npy" --arg b_ptr="$OUT/b.npy" \
      --arg c_ptr="zeros:${size}x${size}" --arg M=$size --arg N=$size --arg K=$size \
      --arg stride_am=$size --arg stride_ak=1 --arg stride_bk=$size --arg stride_bn=1 \
      --arg stride_cm=$size --arg stride_cn=1 --bench 50 --flops $(( 2 * size * size * size ))
  done
  cublas $size torch.matmul "a @ b"
done

[ "${LEAKY_BENCH:-0}" = 1 ] || exit 0
inputs 4096 4096 4096
for s in 3 4; do
  for v in $VARIANTS; do bench_tma $v $s 4096 True; done
done
cublas 4096 "torch.matmul + leaky_relu" "F.leaky_relu(a @ b, 0.01)"
