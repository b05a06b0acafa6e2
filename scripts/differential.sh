#!/usr/bin/env bash
# Differential test on the GPU machine: every example kernel and 40 random
# kernels (scripts/tkgen.py), each run by `tk-run --interpret` and by
# `tk-run --gpu` on the same inputs, compared bit for bit or within the
# tolerances of docs/differential.md.
#
#   bash scripts/differential.sh CARRY_DIR OUT_DIR
#
# CARRY_DIR/bin holds the static tk-run (scripts/prepare-gpu-carry.sh);
# OUT_DIR receives differential.log and, for each failing case, a folder
# under OUT_DIR/differential/ with the kernel, inputs, outputs and repro.sh.
# Prints `PASS diff NAME` / `FAIL diff NAME: ...` per case (failures last),
# then `differential: N passed, M failed`; exits 1 on any failure.
#
# Environment: TK_DIFF_SEED (repeat a run: the seed is printed first),
# TK_DIFF_COUNT (random kernels, default 40), TK_DIFF_JOBS (parallel cases,
# default the number of cores), TK_DIFF_ONLY (a regex of case names),
# PYTHON (a python3 with numpy, default python3).
set -u
cd "$(dirname "$0")/.."
if [ $# -lt 2 ]; then
  echo "usage: $0 CARRY_DIR OUT_DIR" >&2
  exit 2
fi
carry=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
python=${PYTHON:-python3}

tk_run=$carry/bin/tk-run
if [ ! -x "$tk_run" ] && [ -f "$tk_run.xz" ]; then
  xz -dkf "$tk_run.xz" && chmod +x "$tk_run"
fi
if [ ! -x "$tk_run" ]; then
  echo "differential: no tk-run in $carry/bin" >&2
  echo "differential: 0 passed, 1 failed"
  exit 1
fi
if ! "$python" -c "import numpy" 2>/dev/null; then
  echo "differential: $python has no numpy (set PYTHON)" >&2
  echo "differential: 0 passed, 1 failed"
  exit 1
fi

args=(--tk-run "$tk_run" --out "$out" --count "${TK_DIFF_COUNT:-40}")
[ -n "${TK_DIFF_SEED:-}" ] && args+=(--seed "$TK_DIFF_SEED")
[ -n "${TK_DIFF_JOBS:-}" ] && args+=(--jobs "$TK_DIFF_JOBS")
[ -n "${TK_DIFF_ONLY:-}" ] && args+=(--only "$TK_DIFF_ONLY")
# Not a differential test: libtkrt's interpreter backend instead of the GPU,
# to exercise these scripts on a machine without one.
[ -n "${TK_DIFF_SECOND:-}" ] && args+=(--second "$TK_DIFF_SECOND")
exec "$python" scripts/differential.py "${args[@]}"
