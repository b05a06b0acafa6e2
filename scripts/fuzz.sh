#!/usr/bin/env bash
# Builds the libFuzzer targets (test/fuzz) with clang, ASan and UBSan, and
# runs each for a bounded time. docs/reliability.md describes the targets.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET]      (default 60)
#
# Environment:
#   TK_FUZZ_BUILD_DIR  build folder (default build-fuzz); configured here
#                      with CC=clang CXX=clang++ -DTK_FUZZ=ON
#                      -DTK_SANITIZE=address,undefined if it is not yet
#   TK_FUZZ_TARGETS    which targets, e.g. "parse npy" (default: every
#                      tk-fuzz-* target the build defines)
#   TK_FUZZ_WORK       corpora, logs and findings (default
#                      BUILD_DIR/fuzz-work); the corpora grow from run to
#                      run, so later runs start where earlier ones stopped
#   TK_JOBS            parallel compile jobs (default 2)
#
# Prints one line per target (executions, executions/s, corpus, coverage)
# and exits 1 if any target found a crash, a hang (-timeout=10 s per input)
# or ran out of memory (-rss_limit_mb=2048), naming the saved input and the
# command that replays it.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

seconds=${1:-60}
build=${TK_FUZZ_BUILD_DIR:-build-fuzz}
case "$build" in /*) ;; *) build=$repo/$build ;; esac
work=${TK_FUZZ_WORK:-$build/fuzz-work}
jobs=${TK_JOBS:-2}

if ! command -v clang++ >/dev/null; then
  echo "fuzz: clang++ not found (scripts/install-deps.sh installs clang and libclang-rt-14-dev)" >&2
  exit 1
fi

if [ ! -f "$build/build.ninja" ]; then
  source scripts/ccache-launcher.sh
  tk_ccache_launcher
  CC=clang CXX=clang++ cmake -G Ninja -S . -B "$build" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DTK_CUDA_ROOT="${TK_CUDA_ROOT:-/usr/local/cuda}" \
    -DTK_FUZZ=ON -DTK_SANITIZE=address,undefined \
    "${launcher[@]}" >/dev/null
fi

all_targets=$(ninja -C "$build" -t targets all 2>/dev/null |
  sed -n 's/^\(tk-fuzz-[a-z0-9-]*\): phony$/\1/p' | sort -u)
if [ -n "${TK_FUZZ_TARGETS:-}" ]; then
  targets=""
  for t in $TK_FUZZ_TARGETS; do targets="$targets tk-fuzz-${t#tk-fuzz-}"; done
else
  targets=$all_targets
fi
if [ -z "$targets" ]; then
  echo "fuzz: no tk-fuzz-* targets in $build" >&2
  exit 1
fi

start=$(date +%s)
# shellcheck disable=SC2086
ninja -C "$build" -j "$jobs" $targets
echo "fuzz: built $(echo $targets | wc -w) targets in $(( $(date +%s) - start )) s"

mkdir -p "$work/logs" "$work/findings"
rm -rf "$work/seeds"
python3 test/fuzz/make-seeds.py "$work/seeds"

# Reports of UBSan must stop the run (the build has
# -fno-sanitize-recover); ASan's leak checker stays on.
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}

failed=0
printf '%-20s %8s %10s %8s %8s %8s  %s\n' target seconds execs "exec/s" corpus cov result
for target in $targets; do
  short=${target#tk-fuzz-}
  case "$short" in
    metadata) dict=test/fuzz/metadata.dict ;;
    npy) dict=test/fuzz/npy.dict ;;
    *) dict=test/fuzz/tk.dict ;;
  esac
  corpus=$work/corpus/$short
  mkdir -p "$corpus"
  seeds=()
  [ -d "$work/seeds/$short" ] && seeds+=("$work/seeds/$short")
  [ -d "test/fuzz/regressions/$short" ] && seeds+=("test/fuzz/regressions/$short")
  log=$work/logs/$short.log
  t0=$(date +%s)
  status=0
  # New inputs go to the first folder (the corpus); the others are only read.
  "$build/bin/$target" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -dict="$dict" -print_final_stats=1 \
    -artifact_prefix="$work/findings/$short-" \
    "$corpus" "${seeds[@]}" >"$log" 2>&1 || status=$?
  elapsed=$(( $(date +%s) - t0 ))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -n 1 | cut -d' ' -f2)
  units=$(find "$corpus" -type f | wc -l)
  if [ $status -eq 0 ]; then
    result=ok
  else
    failed=1
    artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n 1)
    kind=$(grep -m1 -oE 'ERROR: (libFuzzer|AddressSanitizer|UndefinedBehaviorSanitizer|LeakSanitizer): [a-zA-Z -]+|runtime error: .*|contract violated: .*' "$log" || true)
    result="FINDING (exit $status) ${kind:-see $log}"
  fi
  printf '%-20s %8s %10s %8s %8s %8s  %s\n' "$short" "$elapsed" "${execs:-?}" \
    "${rate:-?}" "$units" "${cov:-?}" "$result"
  if [ $status -ne 0 ]; then
    echo "    log: $log"
    if [ -n "${artifact:-}" ]; then
      echo "    reproducer: $artifact"
      echo "    replay: $build/bin/$target $artifact"
    fi
  fi
done

if [ $failed -ne 0 ]; then
  echo "fuzz: FAILED; after fixing, copy the reproducer to test/fuzz/regressions/TARGET/ (ctest replays it)"
  exit 1
fi
echo "fuzz: no findings ($(echo $targets | wc -w) targets, $seconds s each)"
