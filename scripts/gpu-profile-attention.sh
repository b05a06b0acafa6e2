#!/usr/bin/env bash
# ncu over attention forward cubins at the benchmark shape (Z=4, H=32,
# N=4096): for each NAME.cubin in DIR, its third launch profiled with the
# sections that say where a warp's cycles go (speed of light, compute
# workload, scheduler and warp-state statistics, instruction mix, and
# per-instruction stall samples), written as OUT/NAME.txt (details page),
# OUT/NAME-source.csv (SASS with samples, where this ncu prints it) and
# OUT/NAME.sass, OUT/NAME-raw.txt (every metric; the largest stall
# reasons are printed) (the report itself, OUT/NAME.ncu-rep, only with
# KEEP_REP=1), all packed into OUT/profile.tgz at the end. Clocks are left
# as they run (--clock-control none).
# A device call returns only a few files, so OUT should be a folder of its
# own and the other steps of the call should leave few files beside it.
# Usage: OUT=DIR bash scripts/gpu-profile-attention.sh DIR
export PATH=$PATH:/usr/local/cuda/bin
mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)
for cubin in "$(cd "$1" && pwd)"/*.cubin; do
  name=$(basename "$cubin" .cubin)
  cuobjdump --dump-sass "$cubin" > "$OUT/$name.sass" 2>&1
  (cd bench/gpu && timeout 120 ncu --clock-control none -k regex:attn --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section ComputeWorkloadAnalysis --section SchedulerStats \
    --section WarpStateStats --section InstructionStats --section SourceCounters \
    -f -o "$OUT/$name" python3 attention_profile.py "$cubin") > "$OUT/$name.log" 2>&1
  echo "$name: ncu exit $?"
  ncu --import "$OUT/$name.ncu-rep" --page details > "$OUT/$name.txt" 2>&1
  ncu --import "$OUT/$name.ncu-rep" --page source --csv --print-source sass \
    > "$OUT/$name-source.csv" 2>&1 || echo "$name: no source page"
  ncu --import "$OUT/$name.ncu-rep" --page raw > "$OUT/$name-raw.txt" 2>&1
  [ -n "${KEEP_REP:-}" ] || rm -f "$OUT/$name.ncu-rep"
  # The stall reasons, largest first (warps stalled per issued instruction).
  grep -E "issue_stalled_[a-z_]+_per_warp_active.pct|issue_stalled_[a-z_]+_per_issue_active.ratio" "$OUT/$name-raw.txt" \
    | awk '{print $NF, $1}' | sort -rn | head -8
  grep -E "Duration|Issue Slots Busy|Issued Warp Per Scheduler|No Eligible|Active Warps Per|Eligible Warps|Warp Cycles Per Issued|Executed Ipc A|Registers Per" "$OUT/$name.txt" | head -20
done
(cd "$OUT" && tar czf profile.tgz --exclude profile.tgz ./* && find . -type f ! -name profile.tgz -delete)
