#!/usr/bin/env bash
# Runs on the GPU machine, in one call: the GPU tests, the benchmarks, and
# Triton's reference numbers from the same run; prints a short table last.
# Expects .carry/ from scripts/prepare-gpu-carry.sh. Results go to $OUT
# (or ./gpu-out): anchors.json (Triton/PyTorch), tk.json, bench.json,
# bench.png, logs.
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}
# What comes back from the device is limited to a few files: results at the
# top of $OUT, every log in $OUT/logs, packed into logs.tgz at the end.
FINAL=$OUT
OUT=$FINAL/logs
mkdir -p "$OUT"
C=$PWD/.carry
export PATH=$C/bin:$PATH
for f in $C/bin/*.xz; do [ -f "$f" ] && xz -dkf "$f" && chmod +x "${f%.xz}"; done
# tkc links libdevice into kernels that call it; the carried copy unless
# TK_LIBDEVICE is set.
if [ -z "${TK_LIBDEVICE:-}" ] && [ -f "$C/lib/libdevice.10.bc" ]; then
  export TK_LIBDEVICE=$C/lib/libdevice.10.bc
fi

summary=()
note() { summary+=("$1"); echo "== $1"; }
# TK_GPU_STEPS=1,2,3,3a,3b,3c,4,4b,4c,4d,4e,4f,4g,4h,4i,ref runs only those steps
# (numbered as below; ref is triton_ref.py), so that a session can split the
# work over calls of 10 minutes; unset: all.
want() { [ -z "${TK_GPU_STEPS:-}" ] || [[ ",$TK_GPU_STEPS," == *",$1,"* ]]; }

echo "== machine"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv
date -u
python3 -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__)" 2>/dev/null

# 1. The static tkc starts here and compiles (cold: a new process each time).
if want 1 && { "$C/bin/tkc" --version >/dev/null 2>&1 || "$C/bin/tkc" --help >/dev/null 2>&1; }; then
  note "tkc (static) starts: $("$C/bin/tkc" --version 2>&1 | head -1)"
  compile_json="{"
  # matmul: specialized as Triton's JIT specializes triton_ref.py's call
  # (row-major 4096^3 tensors: unit inner strides, the rest multiples of 16,
  # aligned pointers), so that both compile the same kernel;
  # matmul_unspecialized: every stride a run-time value.
  source bench/gpu/matmul_specs.sh
  spec=$(matmul_spec rr16 | tr ' ' ',')
  for k in add:add.tk:BLOCK=1024: softmax:softmax.tk:BLOCK=1024: \
      matmul:matmul.tk:BLOCK_M=128,BLOCK_N=128,BLOCK_K=32,GROUP_M=8,LEAKY=0:$spec \
      matmul_unspecialized:matmul.tk:BLOCK_M=128,BLOCK_N=128,BLOCK_K=32,GROUP_M=8,LEAKY=0:; do
    name=${k%%:*}; rest=${k#*:}; src=${rest%%:*}; rest=${rest#*:}; defs=${rest%%:*}; extra=${rest#*:}
    dflags=(); IFS=, read -ra ds <<<"$defs"; for d in "${ds[@]}"; do dflags+=(-D "$d"); done
    [ -n "$extra" ] && { IFS=, read -ra es <<<"$extra"; dflags+=("${es[@]}"); }
    t0=$EPOCHREALTIME
    if "$C/bin/tkc" examples/$src "${dflags[@]}" --emit=cubin -o /tmp/$name.cubin >"$OUT/tkc-$name.log" 2>&1; then
      dt=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.4f", b-a}')
      compile_json+="\"$name\": $dt, "
      note "tkc cold compile $name -> cubin: ${dt}s"
    else
      note "tkc compile $name FAILED: $(tail -2 "$OUT/tkc-$name.log" | tr '\n' ' ')"
    fi
  done
  compile_json="${compile_json%, }}"
elif want 1; then
  note "tkc (static) does not start: $("$C/bin/tkc" --version 2>&1 | head -3)"
  compile_json="{}"
else
  compile_json="{}"
fi

# 2. Runtime smoke test and the example host programs on the GPU.
[ -x "$C/bin/tkrt-gpu-smoke" ] && note "$("$C/bin/tkrt-gpu-smoke" 2>&1 | tail -1)"
if want 2; then
for exe in "$C"/bin/example-*; do
  [ -x "$exe" ] || continue
  name=$(basename "$exe"); name=${name#example-}
  line=$("$exe" "$C/kernels/examples" 2>&1 | tee "$OUT/example-$name.log" | grep -E "^(PASS|FAIL)" | tail -1)
  note "${line:-FAIL $name: no verdict ($(tail -1 "$OUT/example-$name.log"))}"
done
fi

# 3. Differential: the same kernels in the interpreter and on the GPU.
if want 3 && [ -x scripts/differential.sh ]; then
  bash scripts/differential.sh "$C" "$OUT" 2>&1 | tail -20
  note "$(tail -1 "$OUT/differential.log" 2>/dev/null)"
fi

# 3a. The Triton ports of test/triton-compat on the GPU, against numpy.
if want 3a && [ -f test/triton-compat/run.py ] && [ -x "$C/bin/tk-run" ]; then
  timeout 300 python3 test/triton-compat/run.py --bin "$C/bin" --gpu \
    >"$OUT/triton-compat.log" 2>&1
  note "triton-compat on the GPU: $(grep -c '^ok' "$OUT/triton-compat.log") ok, $(grep -c '^FAIL' "$OUT/triton-compat.log") FAIL"
  grep '^FAIL' "$OUT/triton-compat.log" | head -10
fi
# 3a'. The builtin ports (sort, join, histogram, Philox, block pointers, ...)
# with tk-run --gpu against numpy.
if want 3a && [ -f test/triton-compat/builtins/check.py ]; then
  timeout 300 python3 test/triton-compat/builtins/check.py --bin "$C/bin" --gpu \
    >"$OUT/triton-compat-builtins.log" 2>&1
  note "triton-compat builtins on the GPU: $(grep -c '^ok' "$OUT/triton-compat-builtins.log") ok, $(grep -c '^FAIL' "$OUT/triton-compat-builtins.log") FAIL"
  grep '^FAIL' "$OUT/triton-compat-builtins.log" | head -5
fi

# 3a''. The combine-function ports (tl.reduce / tl.associative_scan).
if want 3a && [ -f test/triton-compat/combine/check.py ]; then
  timeout 300 python3 test/triton-compat/combine/check.py --bin "$C/bin" --gpu \
    >"$OUT/triton-compat-combine.log" 2>&1
  note "triton-compat combine on the GPU: $(grep -c '^ok' "$OUT/triton-compat-combine.log") ok, $(grep -c '^FAIL' "$OUT/triton-compat-combine.log") FAIL"
  grep '^FAIL' "$OUT/triton-compat-combine.log" | head -5
fi

# 3a'''. The libdevice ports (tutorial 07, f64 math, libdevice.pow) and
# the combine-function lambdas of test/lit/frontend/lambda.test.
if want 3a && [ -f test/triton-compat/libdevice/check.py ]; then
  timeout 300 python3 test/triton-compat/libdevice/check.py --bin "$C/bin" --gpu \
    >"$OUT/triton-compat-libdevice.log" 2>&1
  note "triton-compat libdevice on the GPU: $(grep -c '^ok' "$OUT/triton-compat-libdevice.log") ok, $(grep -c '^FAIL' "$OUT/triton-compat-libdevice.log") FAIL"
  grep '^FAIL' "$OUT/triton-compat-libdevice.log" | head -5
fi
if want 3a && [ -x "$C/bin/tk-run" ] && [ -f test/lit/frontend/Inputs/lambda_check.py ]; then
  ld=$OUT/lambda
  mkdir -p "$ld"
  python3 test/lit/frontend/Inputs/lambda_check.py make "$ld"
  { timeout 60 "$C/bin/tk-run" --gpu test/lit/frontend/Inputs/lambda.tk -k lambdas \
      --arg x_ptr="$ld/x.npy" --arg i_ptr="$ld/i.npy" --arg a_ptr="$ld/a.npy" \
      --arg sum_ptr=zeros:8 --arg max_ptr=zeros:16 --arg cum_ptr=zeros:8x16 \
      --arg rec_ptr=zeros:8x16 --arg prod_ptr=zeros:8 \
      --write sum_ptr="$ld/sum.npy" --write max_ptr="$ld/max.npy" --write cum_ptr="$ld/cum.npy" \
      --write rec_ptr="$ld/rec.npy" --write prod_ptr="$ld/prod.npy" &&
    python3 test/lit/frontend/Inputs/lambda_check.py check "$ld"; } >"$OUT/lambda.log" 2>&1
  note "lambda combine functions on the GPU: $(grep -c '^ok' "$OUT/lambda.log") of 5 ok"
  rm -rf "$ld"
fi

# 3a, vector atomics. Float atomic adds in vector form (sm_90:
# atom.global.add.v4.f32, .noftz.v8.f16), contended and not, against numpy;
# then the contended ones as sm_80 code (bf16: a compare-and-swap loop).
if want 3a && [ -x "$C/bin/tk-run" ] && [ -f test/lit/target/Inputs/atomic_vector_check.py ]; then
  timeout 120 python3 test/lit/target/Inputs/atomic_vector_check.py --bin "$C/bin" \
    >"$OUT/atomic-vector.log" 2>&1
  note "vector atomics on the GPU: $(grep -c "^ok" "$OUT/atomic-vector.log") of 11 ok"
  grep '^FAIL' "$OUT/atomic-vector.log" | head -5
fi

# 3c. dot_scaled (fp8 / fp4 with e8m0 scales) with tk-run --gpu against
# the float64 numpy reference of test/lit/frontend/dot-scaled.test.
if want 3c && [ -x "$C/bin/tk-run" ] && [ -f test/lit/frontend/Inputs/dot_scaled_check.py ]; then
  ds=$OUT/dot_scaled
  mkdir -p "$ds"
  python3 test/lit/frontend/Inputs/dot_scaled_check.py make "$ds"
  for c in "e4m3_e2m1 64 32 e4m3 e2m1" "e5m2_e4m3 64 64 e5m2 e4m3" "e2m1_e2m1 32 32 e2m1 e2m1"; do
    read -r name ka kb af bf <<<"$c"
    timeout 60 "$C/bin/tk-run" --gpu test/lit/frontend/Inputs/dot_scaled.tk -k mx \
      -D M=32 -D N=16 -D K=64 -D KA="$ka" -D KB="$kb" -D "AF=\"$af\"" -D "BF=\"$bf\"" \
      --arg a_ptr="$ds/${name}_a.npy" --arg sa_ptr="$ds/${name}_sa.npy" \
      --arg b_ptr="$ds/${name}_b.npy" --arg sb_ptr="$ds/${name}_sb.npy" \
      --arg c_ptr=zeros:32x16 --write c_ptr="$ds/${name}_c.npy" &&
      python3 test/lit/frontend/Inputs/dot_scaled_check.py check "$name" "$ds"
  done >"$OUT/dot-scaled.log" 2>&1
  # lhs_k_pack=False / rhs_k_pack=False: e2m1 packed along M and N.
  { timeout 60 "$C/bin/tk-run" --gpu test/lit/frontend/Inputs/dot_scaled.tk -k mn_packed \
      -D M=32 -D N=16 -D K=64 --arg a_ptr="$ds/mn_a.npy" --arg sa_ptr="$ds/mn_sa.npy" \
      --arg b_ptr="$ds/mn_b.npy" --arg sb_ptr="$ds/mn_sb.npy" \
      --arg c_ptr=zeros:32x16 --write c_ptr="$ds/mn_c.npy" &&
    python3 test/lit/frontend/Inputs/dot_scaled_check.py check mn "$ds"; } >>"$OUT/dot-scaled.log" 2>&1
  note "dot_scaled on the GPU: $(grep -c '^ok' "$OUT/dot-scaled.log") of 4 ok"
  rm -rf "$ds"
fi

# 3b. compute-sanitizer over the example programs (TK_GPU_SANITIZE=1).
if want 3b && [ "${TK_GPU_SANITIZE:-0}" = 1 ] && [ -f scripts/gpu-sanitize.sh ]; then
  timeout 300 bash scripts/gpu-sanitize.sh "$C" "$C/kernels/examples" >"$OUT/gpu-sanitize.log" 2>&1
  note "compute-sanitizer exit $?"
  tail -40 "$OUT/gpu-sanitize.log"
  cp -r "$C/gpu-sanitize" "$OUT/" 2>/dev/null
fi

# 4. Benchmarks: tk, then Triton/PyTorch in the same run.
if want 4 && [ -x "$C/bin/tk-bench" ]; then
  "$C/bin/tk-bench" "$C/kernels/bench" "$OUT/tk-raw.json" >"$OUT/tk-bench.log" 2>&1
  note "tk-bench exit $? ($(grep -c FAIL "$OUT/tk-bench.log") FAIL lines)"
  grep FAIL "$OUT/tk-bench.log" | head -5
  python3 - "$OUT/tk-raw.json" "$compile_json" "$OUT/tk.json" <<'PY'
import json, sys
tk = json.load(open(sys.argv[1])) if open(sys.argv[1]).read().strip() else {}
tk["compile_s"] = json.loads(sys.argv[2])
json.dump(tk, open(sys.argv[3], "w"), indent=1)
PY
fi
# 4b. Matmul on tensor cores: the ceiling of mma.sync from registers, then
# every matmul variant checked against float64 and timed next to cuBLAS.
if want 4b && [ -x "$C/bin/mma_ceiling" ]; then
  "$C/bin/mma_ceiling" >"$OUT/mma_ceiling.json" 2>&1
  note "mma.sync ceiling: $(cat "$OUT/mma_ceiling.json")"
fi
# The same instruction fed from shared memory as a 64x64 warp tile must
# feed it (ldmatrix, no global memory): what an mma.sync matmul can reach.
if want 4b && [ -x "$C/bin/mma_smem_ceiling" ]; then
  "$C/bin/mma_smem_ceiling" >"$OUT/mma_smem_ceiling.json" 2>&1
  note "mma.sync fed by ldmatrix: $(cat "$OUT/mma_smem_ceiling.json")"
fi
# The exponentials an SM computes per clock (the attention softmax's MUFU).
if want 4b && [ -x "$C/bin/mufu_ceiling" ]; then
  "$C/bin/mufu_ceiling" >"$OUT/mufu_ceiling.json" 2>&1
  note "MUFU ex2 rate: $(cat "$OUT/mufu_ceiling.json")"
fi
if want 4b && [ -d "$C/kernels/matmul" ]; then
  PYTHONUNBUFFERED=1 timeout 450 python3 bench/gpu/matmul_gpu.py "$C/kernels/matmul" "$OUT" \
    ${TK_MATMUL_QUICK:+--quick} >"$OUT/matmul.log" 2>&1
  note "matmul_gpu.py exit $?: $(head -1 "$OUT/matmul.log")"
  cat "$OUT/matmul.log" | head -60
  # What the SASS of the default matmul holds: tensor-core, async-copy,
  # ldmatrix and 128-bit global instructions.
  cubin=$(ls "$C"/kernels/matmul/matmul_f16_plain_128x128x32_w4_s3_rr16.cubin 2>/dev/null)
  if [ -n "$cubin" ] && command -v cuobjdump >/dev/null; then
    cuobjdump --dump-sass "$cubin" >"$OUT/matmul_f16_sass.txt" 2>&1
    counts=""
    for op in HMMA LDGSTS LDSM "STG.E.128" "LDG.E.128" BAR.SYNC; do
      counts+="$op=$(grep -c "$op" "$OUT/matmul_f16_sass.txt") "
    done
    note "matmul_f16 128x128x32 SASS: $counts"
  fi
  # ... and of the wgmma one, and the persistent ones (plain, flattened).
  for v in matmul_f16_wgmma_plain_128x128x64_w4_s3_rr16 matmul_persistent_f16_wgmma_128x128x64_w4_s3_rr16 \
           matmul_persistent_f16_flat_wgmma_128x128x64_w4_s3_rr16; do
    cubin=$(ls "$C/kernels/matmul/$v.cubin" 2>/dev/null)
    if [ -n "$cubin" ] && command -v cuobjdump >/dev/null; then
      cuobjdump --dump-sass "$cubin" >"$OUT/${v}_sass.txt" 2>&1
      counts=""
      for op in HGMMA HMMA LDGSTS LDSM "STG.E.128" BAR.SYNC WARPGROUP; do
        counts+="$op=$(grep -c "$op" "$OUT/${v}_sass.txt") "
      done
      note "$v SASS: $counts"
    fi
  done
fi
# 4c. compute-sanitizer racecheck and synccheck over the pipelined (cp.async)
# mma.sync and wgmma matmuls (TK_GPU_SANITIZE=1).
if want 4c && [ "${TK_GPU_SANITIZE:-0}" = 1 ] && [ -d "$C/kernels/matmul" ]; then
  for tool in racecheck synccheck; do
    timeout 240 compute-sanitizer --tool $tool --error-exitcode 3 python3 bench/gpu/matmul_gpu.py \
      "$C/kernels/matmul" "$OUT" --quick --no-speed \
      --only 'matmul_(f16|bf16)_plain_128x128x32_w4_s3_(rr16|rr)|matmul_f16_plain_128x128x32_w8_s4_rr16|matmul_(f16|bf16)_wgmma_plain_128x128x64_w4_s3_(rr16|rr)|matmul_f16_wgmma_plain_128x256x64_w8_s4_rr16' \
      >"$OUT/matmul-$tool.log" 2>&1
    note "matmul under compute-sanitizer $tool: exit $? ($(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|passed, ' "$OUT/matmul-$tool.log" | tr '\n' ' '))"
  done
fi
# 4e. Attention (issue 10): examples/attention_fwd.tk's variants checked
# against PyTorch's SDPA in float32 and timed (Triton's FlashAttention-2
# forward and PyTorch's SDPA backends are in triton_ref.py's anchors);
# then the backward kernels against autograd, if they were built.
if want 4e && [ -d "$C/kernels/attention" ]; then
  # N = 16384 only for the variants that were the best in the ninth
  # session (and the ones meant to beat them; the twenty-third session's
  # _rb ones), to stay within the call.
  PYTHONUNBUFFERED=1 timeout 420 python3 bench/gpu/attention_gpu.py "$C/kernels/attention" "$OUT" \
    --quick --long 'f16_d(64|128)_(full|causal)_w(4|8)_(n128_ws|n128_s3_ws|m256_s3_ws|s2|ws_r128|s3_ws_r128|ahead_ws|n128_ahead_ws|s3_ws_r128_fs(_qr)?_rb|n128_s3_ws_fs(_qr_ts)?_rb)$' \
    >"$OUT/attention.log" 2>&1
  note "attention_gpu.py exit $?: $(tail -1 "$OUT/attention.log")"
  grep -E "TFLOP/s|FAIL" "$OUT/attention.log" | head -40
fi
if want 4e && [ -d "$C/kernels/attention_bwd" ] && [ -f bench/gpu/attention_bwd_gpu.py ]; then
  PYTHONUNBUFFERED=1 timeout 300 python3 bench/gpu/attention_bwd_gpu.py "$C/kernels/attention_bwd" "$OUT" \
    >"$OUT/attention_bwd.log" 2>&1
  note "attention_bwd_gpu.py exit $?: $(tail -1 "$OUT/attention_bwd.log")"
  grep -E "TFLOP/s|FAIL" "$OUT/attention_bwd.log" | head -20
fi
# 4g. fp8 matmul on fp8 wgmma (examples/matmul_fp8.tk): QGMMA in the SASS,
# correctness against float64 and cuBLAS's fp8 GEMM, TFLOP/s next to it.
if want 4g && [ -x "$C/bin/tkc" ] && [ -f bench/gpu/matmul_fp8_gpu.sh ]; then
  timeout 300 bash bench/gpu/matmul_fp8_gpu.sh "$C" "$OUT/fp8" >"$OUT/matmul_fp8.log" 2>&1
  note "matmul_fp8_gpu.sh exit $?: $(grep -c '^ok' "$OUT/matmul_fp8.log") ok"
  grep -E "^(tk|cuBLAS|FAIL)" "$OUT/matmul_fp8.log" | head -12
  rm -rf "$OUT/fp8"
  # The tensor-descriptor kernel: TMA tiles, B^T's transposed into the
  # wgmma through memdesc_trans; pipelined, then warp-specialized.
  for defines in "" "-D WARP_SPECIALIZE=True"; do
    KERNEL=matmul_fp8_desc DEFINES="$defines" timeout 300 \
      bash bench/gpu/matmul_fp8_gpu.sh "$C" "$OUT/fp8" >>"$OUT/matmul_fp8_desc.log" 2>&1
    note "matmul_fp8_gpu.sh matmul_fp8_desc $defines exit $?"
    rm -rf "$OUT/fp8"
  done
  grep -E "^(ok|tk|cuBLAS|FAIL)" "$OUT/matmul_fp8_desc.log" | head -30
fi
# 4h. TMA matmul (examples/matmul_desc.tk), software-pipelined and
# warp-specialized: SASS (UTMALDG, HGMMA, SETMAXREG), correctness against
# float64 and cuBLAS, TFLOP/s with the fused leaky ReLU; racecheck and
# synccheck with TK_GPU_SANITIZE=1.
if want 4h && [ -x "$C/bin/tkc" ] && [ -f bench/gpu/matmul_tma_gpu.sh ]; then
  LEAKY_BENCH=1 SANITIZE=${TK_GPU_SANITIZE:-0} timeout 420 bash bench/gpu/matmul_tma_gpu.sh \
    "$C" "$OUT/tma" >"$OUT/matmul_tma.log" 2>&1
  note "matmul_tma_gpu.sh exit $?: $(grep -c '^ok' "$OUT/matmul_tma.log") ok"
  grep -E "^(tma|pointer|cuBLAS|FAIL|sanitize)" "$OUT/matmul_tma.log" | head -30
  rm -rf "$OUT/tma"
fi
# 4i. The persistent TMA matmul against cuBLAS under sustained load at
# 8192^3 (2000 launches a side, alternated, the SM clock and the power
# logged): at 8192^3 both run at the board's power limit, where short
# timings swing (docs/tma.md).
if want 4i && [ -x "$C/bin/tk-run" ] && [ -f bench/gpu/matmul_sustained.sh ]; then
  timeout 200 bash bench/gpu/matmul_sustained.sh "$C" "$OUT/sustained" >"$OUT/matmul_sustained.log" 2>&1
  note "matmul_sustained.sh exit $?: $(grep -c 'TFLOP/s' "$OUT/matmul_sustained.log") runs"
  grep -E "TFLOP/s|clock" "$OUT/matmul_sustained.log" | head -16
  cp "$OUT/sustained/sustained.json" "$OUT/matmul_sustained.json" 2>/dev/null
  rm -rf "$OUT/sustained"
fi
# 4f. compute-sanitizer racecheck and synccheck over every attention
# forward and backward variant, once each on a small shape, with plain
# matrix-product references (TK_GPU_SANITIZE=1).
if want 4f && [ "${TK_GPU_SANITIZE:-0}" = 1 ] && [ -d "$C/kernels/attention" ] && [ -d "$C/kernels/attention_bwd" ]; then
  for tool in racecheck synccheck; do
    (cd bench/gpu && timeout 240 compute-sanitizer --tool $tool --error-exitcode 3 python3 attention_sanitize.py \
      "$C/kernels/attention" "$C/kernels/attention_bwd") >"$OUT/attention-$tool.log" 2>&1
    note "attention under compute-sanitizer $tool: exit $? ($(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|sanitize harness' "$OUT/attention-$tool.log" | tr '\n' ' '))"
  done
fi
# 4d. Using tk from applications (issue 12): the Python package on torch
# tensors, the launch overhead next to raw cuLaunchKernel / Triton / torch,
# cold and warm compiles and autotuning next to Triton's (the AOT header's
# host program, example-aot-add, runs with the examples in step 2).
if want 4d && [ -f "$C/lib/libtkjit.so.xz" ]; then
  xz -dkf "$C/lib/libtkjit.so.xz"
  export TK_LIBRARY=$C/lib/libtkjit.so
  timeout 120 python3 examples/python/torch_kernels.py >"$OUT/torch_kernels.log" 2>&1
  note "python torch_kernels: exit $? ($(grep -cE '^ok|ok$' "$OUT/torch_kernels.log") ok lines; $(tail -1 "$OUT/torch_kernels.log"))"
  timeout 180 python3 bench/gpu/launch_overhead.py --build "$C" --kernel "$C/kernels/bench/add_b1024.cubin" --json "$OUT/launch.json" >"$OUT/launch.log" 2>&1
  note "launch_overhead.py exit $?: $(tail -11 "$OUT/launch.log" | tr '\n' ' ')"
  timeout 120 python3 python/tests/gpu_multi_device.py >"$OUT/multi_device.log" 2>&1
  note "python multi-device: exit $?: $(tail -1 "$OUT/multi_device.log")"
  timeout 300 python3 bench/gpu/jit_times.py --json "$OUT/jit.json" >"$OUT/jit.log" 2>&1
  note "jit_times.py exit $?: $(tail -12 "$OUT/jit.log" | tr '\n' ' ')"
fi
if want ref && [ "${TK_SKIP_TRITON_REF:-0}" != 1 ]; then
  PYTHONUNBUFFERED=1 python3 "$C/triton_ref.py" "$OUT" >"$OUT/triton_ref.log" 2>&1
  note "triton_ref.py exit $?"
fi
# Issue 10's forward table: step 4e's kernels against this call's Triton,
# flash and cuDNN (attention_verdict.py).
if [ -f "$OUT/attention.json" ] && [ -f "$OUT/anchors.json" ]; then
  python3 bench/gpu/attention_verdict.py "$OUT/anchors.json" "$OUT/attention.json" \
    >"$OUT/attention_verdict.md" 2>&1
  note "attention_verdict.py exit $?: $(grep -E '^(required|goal)' "$OUT/attention_verdict.md" | tr '\n' ' ')"
fi

echo
echo "================ summary"
printf '%s\n' "${summary[@]}"
if [ -f "$OUT/tk.json" ] && [ -f "$OUT/anchors.json" ]; then
  python3 bench/report.py "$OUT/tk.json" "$OUT/anchors.json" "$OUT"
fi
for f in anchors.json tk.json bench.json bench.png matmul.json mma_ceiling.json launch.json jit.json attention.json attention_bwd.json attention_verdict.md; do
  [ -f "$OUT/$f" ] && cp "$OUT/$f" "$FINAL/"
done
tar czf "$FINAL/logs.tgz" -C "$FINAL" logs && rm -rf "$FINAL/logs"
