#!/usr/bin/env bash
# mma_sync_study.sh -- one device call that puts tk's mma.sync matmul (the
# --mma=v2 path of issue 8) next to what the instruction allows and next to
# Triton on the same instructions:
#   1. mma_ceiling: mma.sync from registers (32 warps per SM, and one block
#      of 4 or 8 warps per SM with 32 accumulators, a matmul's occupancy);
#   2. mma_smem_ceiling: the ldmatrix + mma.sync loop of a 64x64 warp tile
#      fed from swizzled shared memory, no global memory, with and without
#      one barrier per BK = 64 stage;
#   3. tk's mma.sync kernels (matmul_gpu.py: checked, then timed at 4096^3
#      and 8192^3 next to cuBLAS);
#   4. Triton 3.6's matmul_kernel with DISABLE_MMA_V3=1 (mma.sync) and by
#      default (wgmma), the same configurations, timed with tk's timer and
#      with do_bench;
#   5. ncu (scheduler, warp states, pipes, shared memory) and SASS of tk's
#      and Triton's mma.sync kernels of one configuration;
#   6. correctness of the cubins in DIR/unaligned, if any (matmul_gpu.py
#      --no-speed);
#   7. cold compiles of examples/matmul.tk by DIR/bin/tkc and
#      DIR/bin/tkc-before (xz-packed static tkc builds), if present;
#   8. issue 9's TMA matmul (warp-specialized, persistent) next to cuBLAS,
#      timed and under ncu, if DIR/bin/tk-run.xz is present (not in the
#      default STUDY_STEPS: a call of its own, STUDY_STEPS=8);
#   9. tkc's defaults against --no-prefetch-before-copies, timed
#      alternately and under ncu (DIR/matmul-after).
# Usage (GPU machine, repository root): bash bench/gpu/mma_sync_study.sh DIR
# DIR is what bench/gpu/build_mma_sync_study.sh builds. Results: the JSON
# files at the top of $OUT and every log in $OUT/study.tgz. STUDY_STEPS
# picks steps (1,...,9; 8 only when named), STUDY_CONFIGS the Triton
# configurations, STUDY_PROFILE the one profiled in steps 5 and 9.
set -u
DIR=$(cd "$1" && pwd)
OUT=${OUT:-$PWD/study-out}
# Logs outside $OUT: a call brings back at most 8 files, and study.tgz
# (packed after every step) must be one of them.
LOG=${STUDY_LOG:-/tmp/study-logs}
mkdir -p "$OUT" "$LOG"
STEPS=${STUDY_STEPS:-1,2,3,4,5,6,7,9}
want() { [[ ",$STEPS," == *",$1,"* ]]; }
CONFIGS=${STUDY_CONFIGS:-128x128x32_w4_s3 128x256x64_w8_s3 128x128x64_w4_s4 128x256x64_w8_s4 256x128x64_w8_s3}
PROFILE=${STUDY_PROFILE:-128x256x64_w8_s3}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv | tee "$LOG/machine.txt"
date -u | tee -a "$LOG/machine.txt"
python3 -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__)" | tee -a "$LOG/machine.txt"
cd bench/gpu
source matmul_specs.sh
# ncu_report NAME CMD...: profiles CMD's kernel matching $NCU_KERNEL (its
# third launch) with these sections plus per-instruction samples, into
# $LOG/NAME.txt (details), NAME-raw.txt (every metric), NAME-source.csv
# (SASS with stall samples); prints the largest stall reasons.
sections="--section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section SchedulerStats --section WarpStateStats --section Occupancy --section LaunchStats"
ncu_report() {
  local name=$1; shift
  # shellcheck disable=SC2086
  timeout 100 ncu --clock-control none $sections --section InstructionStats --section SourceCounters \
    --section MemoryWorkloadAnalysis_Tables \
    -k "regex:$NCU_KERNEL" --launch-skip 2 --launch-count 1 -f -o "$LOG/$name" "$@" >"$LOG/$name.log" 2>&1
  ncu --import "$LOG/$name.ncu-rep" --page details >"$LOG/$name.txt" 2>&1
  ncu --import "$LOG/$name.ncu-rep" --page raw >"$LOG/$name-raw.txt" 2>&1
  ncu --import "$LOG/$name.ncu-rep" --page source --csv --print-source sass >"$LOG/$name-source.csv" 2>&1
  rm -f "$LOG/$name.ncu-rep"
  echo "$name: stalls per issued instruction, largest first:"
  grep -E "issue_stalled_[a-z_]+_per_issue_active.ratio" "$LOG/$name-raw.txt" | awk '{print $NF, $1}' | sort -rn | head -9
  grep -E "smsp__cycles_active.avg |sm__cycles_elapsed.avg |pipe_tensor.*pct_of_peak_sustained_(active|elapsed) |data_bank_conflicts_pipe_lsu_mem_shared.*sum |data_pipe_lsu_wavefronts_mem_shared.*sum |sm__warps_active.avg.pct" \
    "$LOG/$name-raw.txt" | head -14
}
step_1() {
  "$DIR/mma_ceiling" | tee "$OUT/mma_ceiling.json"
}
step_2() {
  "$DIR/mma_smem_ceiling" | tee "$OUT/mma_smem_ceiling.json"
}
step_3() {
  PYTHONUNBUFFERED=1 timeout 150 python3 matmul_gpu.py "$DIR/matmul" "$LOG" --quick --only "${STUDY_ONLY:-_rr16$}" \
    >"$LOG/matmul_gpu.log" 2>&1
  tail -40 "$LOG/matmul_gpu.log"
  cp "$LOG/matmul-subset.json" "$OUT/tk_mma_sync.json" 2>/dev/null
}
step_4() {
  for size in ${STUDY_SIZES:-4096 8192}; do
    # shellcheck disable=SC2086
    DISABLE_MMA_V3=1 PYTHONUNBUFFERED=1 timeout 150 python3 triton_matmul_profile.py "$DIR/triton_ref.py" "$LOG" $size $CONFIGS
    # Triton's default (wgmma) only at the sizes in STUDY_WGMMA_SIZES: the
    # two timers side by side on the kernels issue 9 compares against.
    [[ " ${STUDY_WGMMA_SIZES-4096} " == *" $size "* ]] && PYTHONUNBUFFERED=1 timeout 150 \
      python3 triton_matmul_profile.py "$DIR/triton_ref.py" "$LOG" $size $CONFIGS
  done
  # (the JSON files come back inside study.tgz)
}
step_5() {
  tk_cubin=$DIR/matmul/matmul_f16_plain_${PROFILE}_rr16.cubin
  tr_cubin=$LOG/triton_matmul_${PROFILE}_v2.cubin
  for c in "$tk_cubin" "$tr_cubin"; do
    [ -f "$c" ] && cuobjdump --dump-sass "$c" >"$LOG/$(basename "$c" .cubin).sass" 2>&1
  done
  NCU_KERNEL=matmul ncu_report ncu_tk python3 matmul_profile.py "$tk_cubin" 4096
  DISABLE_MMA_V3=1 NCU_KERNEL=matmul ncu_report ncu_triton \
    python3 triton_matmul_profile.py "$DIR/triton_ref.py" "$LOG/ncu-triton" 4096 "$PROFILE"
  grep -E "Issued Ipc|Issue Slots Busy|Warp Cycles Per Issued|No Eligible|Active Warps Per|Eligible Warps|Shared Memory|Bank|Stall|Registers Per|Duration|SM Busy|Executed Ipc" \
    "$LOG/ncu_tk.txt" "$LOG/ncu_triton.txt" | head -80
  for f in "$LOG"/*.sass; do
    echo "$(basename "$f"): HMMA $(grep -c HMMA "$f") LDSM $(grep -c LDSM "$f") LDGSTS $(grep -c LDGSTS "$f") BAR $(grep -c 'BAR.SYNC' "$f") DEPBAR $(grep -c DEPBAR "$f")"
  done
}
# 6. Extra correctness checks: every variant in DIR/unaligned (the
#    unaligned and strided matmuls, whose PTX the SLSR limit changed).
step_6() {
  [ -d "$DIR/unaligned" ] || return 0
  PYTHONUNBUFFERED=1 timeout 120 python3 matmul_gpu.py "$DIR/unaligned" "$LOG/unaligned" --quick --no-speed \
    >"$LOG/unaligned.log" 2>&1
  tail -5 "$LOG/unaligned.log"
}
# 7. Cold compiles of examples/matmul.tk to a cubin (fresh processes, as
#    gpu-check's step 1), specialized as Triton's JIT would and with every
#    stride a run-time value, by DIR/bin/tkc and by DIR/bin/tkc-before (the
#    same tree without the SLSR limit), alternating, five of each.
step_7() {
  [ -f "$DIR/bin/tkc.xz" ] || return 0
  local tools=()
  for t in tkc tkc-before; do
    [ -f "$DIR/bin/$t.xz" ] && xz -dkf "$DIR/bin/$t.xz" && chmod +x "$DIR/bin/$t" && tools+=("$t")
  done
  spec=$(matmul_spec rr16)
  for i in 1 2 3 4 5; do
    for t in "${tools[@]}"; do
      for kind in specialized unspecialized; do
        flags=""; [ $kind = specialized ] && flags=$spec
        t0=$EPOCHREALTIME
        # shellcheck disable=SC2086
        "$DIR/bin/$t" ../../examples/matmul.tk -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=32 -D GROUP_M=8 \
          -D LEAKY=0 $flags --emit=cubin -o /tmp/compile-$t.cubin || echo "compile FAILED: $t $kind"
        echo "$t $kind $(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.4f", b-a}')"
      done
    done
  done | tee "$LOG/compile_times.txt" | awk '{k=$1" "$2; n[k]++; v[k]=v[k]" "$3} END{for (k in n) print "compile", k ":" v[k]}'
  cp "$LOG/compile_times.txt" "$OUT/"
}
# 8. Issue 9's Hopper matmul (TMA, wgmma, warp-specialized and
#    persistent) next to cuBLAS in one call: matmul_tma_gpu.sh's timings
#    twice for f16 and once for bf16 (4096^3 and 8192^3, 3 and 4 stages,
#    cuBLAS timed by the same timer after each size; no pointer rows),
#    Triton's default matmul_kernel in f16 and bf16 under the same timer,
#    then persistent-ws at other tiles (4 stages, 256x128, BLOCK_K 32
#    with 6 stages, GROUP_M 16), racecheck and synccheck of persistent-ws
#    at 4 stages, then ncu of the persistent warp-specialized
#    kernel and of cuBLAS at f16 4096^3 with step 5's sections
#    (STEP8_TIMINGS_ONLY=1 stops after the Triton timings; STEP8_VARIANTS
#    picks matmul_tma_gpu.sh's variants, default "ws persistent-ws"). Needs
#    DIR/bin/tk-run.xz and tkc.xz (static builds; tk-run compiles the .tk
#    there).
step_8() {
  [ -f "$DIR/bin/tk-run.xz" ] && [ -f "$DIR/bin/tkc.xz" ] || return 0
  for t in tkc tk-run; do xz -dkf "$DIR/bin/$t.xz" && chmod +x "$DIR/bin/$t"; done
  for run in f16-1 bf16 f16-2; do
    DTYPE=${run%-*} VARIANTS="${STEP8_VARIANTS:-ws persistent-ws}" SKIP_CHECKS=1 POINTER_ROWS=0 PYTHONUNBUFFERED=1 timeout 100 \
      bash matmul_tma_gpu.sh "$DIR" "$LOG/tma-$run" >"$LOG/tma-$run.log" 2>&1
    grep -E "TFLOP/s|FAIL" "$LOG/tma-$run.log" | sed "s/^/$run: /"
  done
  # Triton 3.6's default (wgmma) matmul_kernel, f16 and bf16, under the
  # same timer (cubin.time_ms) and do_bench, with cuBLAS again: issue 9's
  # ratios from one step.
  for dt in f16 bf16; do
    for size in 4096 8192; do
      # shellcheck disable=SC2086
      DTYPE=$dt PYTHONUNBUFFERED=1 timeout 150 python3 triton_matmul_profile.py "$DIR/triton_ref.py" \
        "$LOG/triton-wgmma" $size $CONFIGS 2>&1 | grep -E "^triton|^cuBLAS" | tee -a "$LOG/triton-wgmma.log"
    done
  done
  # STEP8_TIMINGS_ONLY=1: only the timings above (tk, cuBLAS, Triton).
  [ "${STEP8_TIMINGS_ONLY:-0}" = 1 ] && return 0
  # Tile shapes and group sizes never timed on TMA before: 4 stages (the
  # store staged in column blocks, tkgpu-subtile-tma-stores), cuBLAS's
  # 256x128, BLOCK_K 32 with 6 stages (the same bytes in flight as 64 x 3,
  # in finer steps), GROUP_M 16; each checked once on a ragged shape.
  for cfg in "128 256 64 4 8" "256 128 64 4 8" "256 128 64 3 8" "128 256 32 6 8" "128 256 64 4 16"; do
    read -r bm bn bk s g <<<"$cfg"
    BM=$bm BN=$bn BK=$bk GROUP_M=$g BENCH_STAGES=$s PERSISTENT_MAX_STAGES=6 VARIANTS=persistent-ws \
      QUICK_CHECKS=1 POINTER_ROWS=0 PYTHONUNBUFFERED=1 timeout 100 \
      bash matmul_tma_gpu.sh "$DIR" "$LOG/tma-shape-$bm-$bn-$bk-$s-$g" >"$LOG/tma-shape-$bm-$bn-$bk-$s-$g.log" 2>&1
    grep -E "TFLOP/s|FAIL|relative|ok " "$LOG/tma-shape-$bm-$bn-$bk-$s-$g.log" | sed "s/^/$bm x $bn x $bk s$s g$g: /" | tail -6
  done
  # The subtiled store's ring (two slots, waits that keep one store group
  # in flight) under racecheck and synccheck.
  SANITIZE=1 SANITIZE_STAGES=4 SKIP_CHECKS=1 SKIP_BENCH=1 VARIANTS=persistent-ws timeout 150 \
    bash matmul_tma_gpu.sh "$DIR" "$LOG/tma-sanitize" 2>&1 | grep -E "sanitize|FAIL"
  local d=$LOG/ncu-tma
  mkdir -p "$d"
  python3 - "$d" <<'PY'
import sys, numpy as np, torch
g = torch.Generator().manual_seed(4096 * 3)
for name in "ab":
    np.save(f"{sys.argv[1]}/{name}.npy", (torch.randn(4096, 4096, generator=g) / 8).half().numpy())
PY
  NCU_KERNEL=matmul ncu_report ncu_tma_tk \
    "$DIR/bin/tk-run" ../../examples/matmul_desc_persistent.tk -k matmul_desc_persistent \
    -D BLOCK_M=128 -D BLOCK_N=256 -D BLOCK_K=64 -D GROUP_M=16 -D NUM_SMS=132 -D WARP_SPECIALIZE=True \
    --num-warps 8 --num-stages 4 --arch sm_90a --gpu --grid 132 --arg a_ptr="$d/a.npy" \
    --arg b_ptr="$d/b.npy" --arg c_ptr=zeros:4096x4096 --arg M=4096 --arg N=4096 --arg K=4096 \
    --bench 5
  NCU_KERNEL='gemm|nvjet|xmma' ncu_report ncu_tma_cublas \
    python3 -c "import torch; a = torch.randn(4096, 4096, device='cuda', dtype=torch.half); b = torch.randn_like(a); [a @ b for _ in range(5)]; torch.cuda.synchronize()"
  grep -E "^  [a-z_0-9]+.*\(|Issued Ipc|Issue Slots Busy|Warp Cycles Per Issued|No Eligible|Active Warps Per|Eligible Warps|Shared Memory|Stall|Registers Per|Duration|SM Busy|Executed Ipc|L2 Cache Throughput|DRAM Throughput|Compute \(SM\)|Memory Throughput|SM Frequency|Block Size|Grid Size|Cluster" \
    "$LOG/ncu_tma_tk.txt" "$LOG/ncu_tma_cublas.txt" | head -80
}
# 9. tkc's defaults (the next iteration's first f16/bf16 k-slice loaded
#    before the cp.async copies) against --no-prefetch-before-copies (after
#    them, as before the twentieth session): DIR/matmul
#    and DIR/matmul-after checked and timed alternately, twice, then ncu of
#    the profiled configuration built both ways (the loop-head stall it
#    removes is `short_scoreboard` on the first HMMA of the loop).
step_9() {
  [ -d "$DIR/matmul-after" ] || return 0
  for round in 1 2; do
    for d in matmul matmul-after; do
      PYTHONUNBUFFERED=1 timeout 100 python3 matmul_gpu.py "$DIR/$d" "$LOG/pbc-$d-$round" --quick \
        --only "${STUDY_ONLY:-_rr16$}" >"$LOG/pbc-$d-$round.log" 2>&1
      grep -E "correctness|TFLOP" "$LOG/pbc-$d-$round.log" | sed "s/^/$d $round: /"
    done
  done
  for d in matmul matmul-after; do
    NCU_KERNEL=matmul ncu_report "ncu_$d" python3 matmul_profile.py "$DIR/$d/matmul_f16_plain_${PROFILE}_rr16.cubin" 4096
    cuobjdump --dump-sass "$DIR/$d/matmul_f16_plain_${PROFILE}_rr16.cubin" >"$LOG/$d-$PROFILE.sass" 2>&1
  done
}
# The cheap and decisive steps first, so that a call cut short still
# returns them; the logs are packed after every step, so that a call cut
# off by its time limit still brings back those of the steps it finished.
for n in ${STUDY_ORDER:-9 1 2 3 6 7 4 5 8}; do
  want "$n" || continue
  "step_$n"
  # (without the .npy inputs of step 8: hundreds of MB that cannot come back)
  tar -czf "$OUT/study.tgz" --exclude='*.npy' -C "$LOG" .
done
ls -la "$OUT"
