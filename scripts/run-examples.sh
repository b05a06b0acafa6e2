#!/usr/bin/env bash
# Runs every example host program (build/bin/example-*) on the kernels the
# build compiled (build/examples/kernels) and prints their PASS/FAIL lines.
# On a machine with a working NVIDIA GPU they run there; otherwise in the
# CPU interpreter (TK_INTERPRET=1), with reduced problem sizes. The first
# line says which.
#
#   scripts/run-examples.sh [BUILD_DIR] [KERNEL_DIR]
#     BUILD_DIR   default: $TK_BUILD_DIR, else build (relative to the
#                 repository root, like scripts/build.sh)
#     KERNEL_DIR  default: BUILD_DIR/examples/kernels
#   -v / TK_EXAMPLES_VERBOSE=1 also shows each program's details
#   (errors, timings); TK_INTERPRET=1 forces the interpreter.
#
# Exit status: 0 if every example printed PASS, 1 otherwise.
set -u

verbose=${TK_EXAMPLES_VERBOSE:-0}
args=()
for arg in "$@"; do
  case "$arg" in
    -v|--verbose) verbose=1 ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) args+=("$arg") ;;
  esac
done

repo=$(cd "$(dirname "$0")/.." && pwd)
build=${args[0]:-${TK_BUILD_DIR:-$repo/build}}
case "$build" in /*) ;; *) build=$repo/$build ;; esac
kernels=${args[1]:-$build/examples/kernels}
bin=$build/bin

examples="add gelu softmax softmax_online rmsnorm layernorm histogram matmul"

if [ "${TK_INTERPRET:-0}" != "0" ] && [ -n "${TK_INTERPRET:-}" ]; then
  echo "running the examples in the CPU interpreter (TK_INTERPRET=$TK_INTERPRET)"
elif command -v nvidia-smi >/dev/null 2>&1 &&
     gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1) &&
     [ -n "$gpu" ]; then
  echo "running the examples on the GPU: $gpu"
else
  echo "no GPU found: running the examples in the CPU interpreter (TK_INTERPRET=1)"
  export TK_INTERPRET=1
fi
echo "kernels: $kernels"

failed=0
for name in $examples; do
  exe=$bin/example-$name
  if [ ! -x "$exe" ]; then
    echo "FAIL $name: $exe not built"
    failed=1
    continue
  fi
  start=$EPOCHREALTIME
  output=$("$exe" "$kernels" 2>&1)
  status=$?
  seconds=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
  if [ "$verbose" = "1" ]; then
    echo "$output" | grep -v -E '^(PASS|FAIL) '
  fi
  verdict=$(echo "$output" | grep -E "^(PASS|FAIL) $name\b" | tail -n 1)
  if [ -z "$verdict" ]; then
    # Crashed or printed no verdict: show the end of what it printed.
    verdict="FAIL $name: exit status $status, no verdict; last output: $(echo "$output" | tail -n 3 | tr '\n' ' ')"
  elif [ $status -ne 0 ] && [ "${verdict#PASS}" != "$verdict" ]; then
    verdict="FAIL $name: printed PASS but exited with status $status"
  fi
  case "$verdict" in PASS*) ;; *) failed=1 ;; esac
  printf '%s  (%ss)\n' "$verdict" "$seconds"
done

exit $failed
