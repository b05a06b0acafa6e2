#!/usr/bin/env bash
# Runs NVIDIA's compute-sanitizer over every GPU program of the build and
# prints a summary table (tool, program, errors, verdict). Needs the GPU
# machine; build there or here (the host programs carry no LLVM when
# configured with -DTK_EXAMPLES_WITH_INTERPRETER=OFF) and copy the build.
#
#   scripts/gpu-sanitize.sh [BUILD_DIR] [KERNEL_DIR]
#     BUILD_DIR   default: $TK_BUILD_DIR, else build
#     KERNEL_DIR  default: BUILD_DIR/examples/kernels
#
# Environment:
#   TK_GPU_SANITIZE_TOOLS     default "memcheck racecheck synccheck initcheck"
#   TK_GPU_SANITIZE_PROGRAMS  default: every BUILD_DIR/bin/example-* and
#                             BUILD_DIR/bin/tkrt-gpu-smoke
#   TK_EXAMPLES_SMALL         default 1: the examples' reduced problem
#                             sizes (racecheck slows kernels down 100x
#                             and more); 0 for the full sizes
#   COMPUTE_SANITIZER         the binary (default: PATH, then
#                             $CUDA_HOME/bin, /usr/local/cuda/bin)
#
# Logs go to BUILD_DIR/gpu-sanitize/TOOL-PROGRAM.log. Exit status 1 if any
# tool reported an error or any program failed under it.
set -u

repo=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-${TK_BUILD_DIR:-$repo/build}}
case "$build" in /*) ;; *) build=$repo/$build ;; esac
kernels=${2:-$build/examples/kernels}
tools=${TK_GPU_SANITIZE_TOOLS:-memcheck racecheck synccheck initcheck}
logs=$build/gpu-sanitize
export TK_EXAMPLES_SMALL=${TK_EXAMPLES_SMALL:-1}
# The programs must run on the GPU, not fall back to the interpreter.
unset TK_INTERPRET
# The smoke test faults on purpose as its last check; not a finding here.
export TK_SMOKE_SKIP_FAULT=1

sanitizer=${COMPUTE_SANITIZER:-}
if [ -z "$sanitizer" ]; then
  for candidate in "$(command -v compute-sanitizer 2>/dev/null)" \
      "${CUDA_HOME:-/nonexistent}/bin/compute-sanitizer" \
      /usr/local/cuda/bin/compute-sanitizer; do
    if [ -n "$candidate" ] && [ -x "$candidate" ]; then
      sanitizer=$candidate
      break
    fi
  done
fi
if [ -z "$sanitizer" ]; then
  echo "gpu-sanitize: compute-sanitizer not found (set COMPUTE_SANITIZER)" >&2
  exit 1
fi
if ! command -v nvidia-smi >/dev/null 2>&1 ||
   ! nvidia-smi --query-gpu=name --format=csv,noheader >/dev/null 2>&1; then
  echo "gpu-sanitize: no GPU here (nvidia-smi finds none); run this on the GPU machine" >&2
  exit 1
fi

if [ -n "${TK_GPU_SANITIZE_PROGRAMS:-}" ]; then
  programs=$TK_GPU_SANITIZE_PROGRAMS
else
  programs=$(ls "$build"/bin/example-* "$build"/bin/tkrt-gpu-smoke 2>/dev/null)
fi
if [ -z "$programs" ]; then
  echo "gpu-sanitize: no programs in $build/bin (build the examples first)" >&2
  exit 1
fi

mkdir -p "$logs"
echo "compute-sanitizer: $sanitizer ($("$sanitizer" --version | tail -n 1))"
echo "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -n 1)"
echo "kernels: $kernels   TK_EXAMPLES_SMALL=$TK_EXAMPLES_SMALL"
echo

failed=0
rows=()
for tool in $tools; do
  extra=()
  case "$tool" in
    # Device-side leaks of cudaMalloc'd memory, and the padding that
    # catches out-of-bounds accesses just past an allocation.
    # API errors are not reported: libtkrt checks the return code of every
    # driver call itself, and at each module load it asks
    # cuFuncGetParamInfo for one parameter past the metadata's list, which
    # must fail (the cubin has no extra parameter) -- an error by design
    # that memcheck would count once per loaded kernel.
    memcheck) extra=(--leak-check full --padding 64 --report-api-errors no) ;;
    # Every hazard, not only the analysis summary.
    racecheck) extra=(--racecheck-report all) ;;
    # initcheck: reads of device memory never written. The example
    # programs fill every buffer (copies or memsets) before a kernel reads
    # it, so each report is a kernel reading outside what it should.
  esac
  for program in $programs; do
    name=$(basename "$program")
    log=$logs/$tool-$name.log
    args=()
    case "$name" in example-*) args=("$kernels") ;; esac
    start=$(date +%s)
    "$sanitizer" --tool "$tool" "${extra[@]}" --error-exitcode 99 \
      --print-limit 100 "$program" "${args[@]}" >"$log" 2>&1
    status=$?
    seconds=$(( $(date +%s) - start ))
    # memcheck/synccheck/initcheck: "ERROR SUMMARY: N errors";
    # racecheck: "RACECHECK SUMMARY: N hazards displayed (E errors, W warnings)".
    errors=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) error.*/\1/p' "$log" | tail -n 1)
    if [ "$tool" = racecheck ]; then
      errors=$(sed -n 's/.*RACECHECK SUMMARY: .*(\([0-9]*\) error.*/\1/p' "$log" | tail -n 1)
      warnings=$(sed -n 's/.*RACECHECK SUMMARY: .*, \([0-9]*\) warning.*/\1/p' "$log" | tail -n 1)
      [ -n "$warnings" ] && [ "$warnings" != 0 ] && errors="${errors:-0} (+$warnings warnings)"
    fi
    verdict=$(grep -m1 -oE '^(PASS|FAIL)( [^:]*)?' "$log" || true)
    [ -z "$verdict" ] && verdict="exit $status"
    if [ $status -ne 0 ] || [ "${errors:-?}" != 0 ]; then
      failed=1
    fi
    rows+=("$(printf '%-10s %-26s %-18s %-22s %5ss' "$tool" "$name" "${errors:-?}" "$verdict" "$seconds")")
    echo "${rows[-1]}"
  done
done

echo
echo "summary"
printf '%-10s %-26s %-18s %-22s %6s\n' tool program errors verdict time
printf '%s\n' "${rows[@]}"
echo "logs: $logs"
if [ $failed -ne 0 ]; then
  echo "gpu-sanitize: FAILED (errors reported, or a program failed under a tool)"
  exit 1
fi
echo "gpu-sanitize: clean"
