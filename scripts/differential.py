#!/usr/bin/env python3
"""Differential test: each kernel on the GPU and in the CPU interpreter.

    python3 scripts/differential.py --tk-run PATH --out DIR [--seed S]
        [--count N] [--jobs J] [--only REGEX] [--keep]

Runs every example kernel (at sizes that are not multiples of the block)
and N random kernels from scripts/tkgen.py, each twice on the same input
files: `tk-run --interpret` and `tk-run --gpu`. Output buffers start as
.npy files full of 0xFF bytes (NaN for floats, -1 for integers), so a lane
that one side forgets to write shows up. The results are compared per
output: bit for bit, or within the tolerance the case gives
(docs/differential.md explains them). Prints `PASS diff NAME` or
`FAIL diff NAME: ...` per case, failures last, then
`differential: N passed, M failed`; exits 1 on any failure.

Everything is reproducible from the printed seed (--seed, or TK_DIFF_SEED
in scripts/differential.sh). A failing case keeps its folder under
DIR/differential/: the kernel, inputs, both outputs and repro.sh.

Needs numpy. `--second runtime-interpreter` runs the second side through
libtkrt's interpreter backend instead of the GPU: a self-test of this
script on a machine without a GPU, not a differential test.
"""

import argparse
import concurrent.futures
import json
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import time
import zlib

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tkgen  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(REPO, "examples")

# The language's dtype names as numpy dtypes; bf16 travels as raw 2-byte
# void elements ('|V2', what tk's .npy reader calls bf16).
NUMPY_DTYPES = {
    "i1": np.dtype(np.bool_), "i8": np.dtype("<i1"), "i16": np.dtype("<i2"),
    "i32": np.dtype("<i4"), "i64": np.dtype("<i8"), "u8": np.dtype("<u1"),
    "u16": np.dtype("<u2"), "u32": np.dtype("<u4"), "u64": np.dtype("<u8"),
    "f16": np.dtype("<f2"), "bf16": np.dtype("V2"), "f32": np.dtype("<f4"),
    "f64": np.dtype("<f8"),
}
FLOATS = ("f16", "bf16", "f32", "f64")
BITS_DTYPES = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}

# Every GPU run compiles afresh: a kernel cache (docs/cache.md) could
# answer with a binary from an older compiler. TK_CACHE_DISABLE=0 in the
# environment lets it be used.
RUN_ENV = dict(os.environ)
RUN_ENV.setdefault("TK_CACHE_DISABLE", "1")

SECOND_SIDES = {
    "gpu": ["--gpu"],
    # libtkrt's interpreter backend: exercises this script without a GPU.
    "runtime-interpreter": ["--runtime-backend=interpreter"],
}


# --- data ----------------------------------------------------------------------

def f32_to_bf16_bits(x):
    """Round-to-nearest-even f32 -> bf16, as 16-bit patterns."""
    bits = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return rounded.astype(np.uint16)


def make_array(dtype, shape, dist, rng):
    """Input data of tk dtype `dtype` drawn as `dist` says."""
    kind = dist.get("kind", "zeros")
    if kind in ("uniform", "unit"):
        lo, hi = (0.0, 1.0) if kind == "unit" else (dist["lo"], dist["hi"])
        values = rng.uniform(lo, hi, size=shape).astype(np.float32)
        if dtype == "bf16":
            return f32_to_bf16_bits(values).view(NUMPY_DTYPES["bf16"]).reshape(shape)
        return values.astype(NUMPY_DTYPES[dtype])
    if kind == "int":
        values = rng.integers(dist["lo"], dist["hi"], size=shape, dtype=np.int64,
                              endpoint=True)
        if dtype == "bf16":
            # Integer-valued floats (tkgen's matmul operands); small
            # integers are exact in bf16.
            values = values.astype(np.float32)
            return f32_to_bf16_bits(values).view(NUMPY_DTYPES["bf16"]).reshape(shape)
        return values.astype(NUMPY_DTYPES[dtype])
    return np.zeros(shape, dtype=NUMPY_DTYPES[dtype])


def poisoned(dtype, shape):
    array = np.empty(shape, dtype=NUMPY_DTYPES[dtype])
    array.view(np.uint8)[...] = 0xFF
    return array


def as_bits(array):
    flat = np.ascontiguousarray(array).reshape(-1)
    return flat.view(BITS_DTYPES[flat.dtype.itemsize])


def as_float64(dtype, array):
    if dtype == "bf16":
        bits = as_bits(array).astype(np.uint32) << 16
        return bits.view(np.float32).astype(np.float64)
    return np.ascontiguousarray(array).reshape(-1).astype(np.float64)


def ulp(dtype, bits):
    """The spacing of `dtype` values at each element (by bit pattern)."""
    if dtype not in FLOATS:
        return np.zeros(bits.shape)
    width = bits.dtype.itemsize * 8
    magnitude = bits & ((1 << (width - 1)) - 1)
    following = magnitude + 1
    view = {"f16": np.float16, "f32": np.float32, "f64": np.float64}
    if dtype == "bf16":
        lo = (magnitude.astype(np.uint32) << 16).view(np.float32)
        hi = (following.astype(np.uint32) << 16).view(np.float32)
    else:
        lo = magnitude.view(view[dtype])
        hi = following.astype(magnitude.dtype).view(view[dtype])
    with np.errstate(invalid="ignore", over="ignore"):
        return np.abs(hi.astype(np.float64) - lo.astype(np.float64))


# --- the example kernels ------------------------------------------------------------

def cdiv(a, b):
    return -(-a // b)


def example_cases():
    """The kernels of examples/, at awkward sizes, with their tolerances."""
    cases = []

    def case(name, source, kernel, defines, grid, args, checks, num_warps=4,
             retype=None):
        cases.append({"name": name, "source": os.path.join(EXAMPLES, source),
                      "kernel": kernel, "defines": defines, "grid": grid,
                      "num_warps": num_warps, "args": args, "checks": checks,
                      "retype": retype})

    def inp(name, dtype, shape, dist):
        return {"name": name, "kind": "in", "dtype": dtype, "shape": shape,
                "dist": dist}

    def out(name, dtype, shape):
        return {"name": name, "kind": "out", "dtype": dtype, "shape": shape}

    def scalar(name, dtype, value):
        return {"name": name, "kind": "scalar", "dtype": dtype, "value": str(value)}

    exact = {"exact": True}
    wide = {"kind": "uniform", "lo": -10, "hi": 10}
    # Vector add, in each element type (the f32 kernel with its pointers
    # retyped): one rounding on both sides, so bit-exact.
    for dtype, n, block, warps in [("f32", 100003, 1024, 4), ("f16", 7001, 256, 2),
                                   ("bf16", 5003, 128, 1), ("i32", 9999, 512, 8)]:
        dist = wide if dtype in FLOATS else {"kind": "int", "lo": -(1 << 31),
                                             "hi": (1 << 31) - 1}
        case("add_" + dtype, "add.tk", "add", {"BLOCK": block}, [cdiv(n, block)],
             [inp("x_ptr", dtype, [n], dist), inp("y_ptr", dtype, [n], dist),
              out("out_ptr", dtype, [n]), scalar("n", "i32", n)],
             {"out_ptr": exact}, num_warps=warps,
             retype=None if dtype == "f32" else {"f32": dtype})
    # GELU: exp through ex2.approx, and contracted multiply-adds.
    n = 50001
    case("gelu", "gelu.tk", "gelu", {"BLOCK": 512}, [cdiv(n, 512)],
         [inp("x_ptr", "f32", [n], {"kind": "uniform", "lo": -6, "hi": 6}),
          out("y_ptr", "f32", [n]), scalar("n", "i32", n)],
         {"y_ptr": {"atol": 1e-6, "rtol": 1e-5}})
    # Softmax: row max and sum (tree vs sequential), exp.
    soft_tol = {"atol": 1e-9, "rtol": 1e-5}
    rows, cols, in_stride = 37, 781, 800
    case("softmax", "softmax.tk", "softmax", {"BLOCK": 1024}, [rows],
         [out("out_ptr", "f32", [rows, cols]),
          inp("in_ptr", "f32", [rows, in_stride], {"kind": "uniform", "lo": -5, "hi": 5}),
          scalar("in_stride", "i32", in_stride), scalar("out_stride", "i32", cols),
          scalar("n_cols", "i32", cols)],
         {"out_ptr": soft_tol})
    rows, cols = 29, 3001
    case("softmax_online", "softmax_online.tk", "softmax_online", {"BLOCK": 1024},
         [rows],
         [out("out_ptr", "f32", [rows, cols]),
          inp("in_ptr", "f32", [rows, cols], {"kind": "uniform", "lo": -5, "hi": 5}),
          scalar("in_stride", "i32", cols), scalar("out_stride", "i32", cols),
          scalar("n_cols", "i32", cols)],
         {"out_ptr": soft_tol}, num_warps=8)
    # RMSNorm, bf16 in and out: the f32 statistics may differ in the last
    # bits, so the bf16 result may round to a neighbour.
    rows, cols = 41, 1000
    case("rmsnorm", "rmsnorm.tk", "rmsnorm", {"BLOCK": 1024}, [rows],
         [inp("x_ptr", "bf16", [rows, cols], {"kind": "uniform", "lo": -3, "hi": 3}),
          inp("w_ptr", "bf16", [cols], {"kind": "uniform", "lo": -2, "hi": 2}),
          out("y_ptr", "bf16", [rows, cols]), scalar("stride", "i32", cols),
          scalar("n_cols", "i32", cols), scalar("eps", "f32", "1e-6")],
         {"y_ptr": {"atol": 0.0, "rtol": 1e-5, "ulps": 1}}, num_warps=8)
    rows, cols, stride = 33, 777, 800
    case("layernorm", "layernorm.tk", "layernorm", {"BLOCK": 1024}, [rows],
         [inp("x_ptr", "f32", [rows, stride], {"kind": "uniform", "lo": -3, "hi": 3}),
          inp("w_ptr", "f32", [cols], {"kind": "uniform", "lo": -2, "hi": 2}),
          inp("b_ptr", "f32", [cols], {"kind": "uniform", "lo": -1, "hi": 1}),
          out("y_ptr", "f32", [rows, stride]), scalar("stride", "i32", stride),
          scalar("n_cols", "i32", cols), scalar("eps", "f32", "1e-5")],
         {"y_ptr": {"atol": 2e-6, "rtol": 1e-5}})
    # Matmul: f16 in, f32 accumulation (order differs), f16 out: one f16 ulp,
    # plus a bound for the accumulation order relative to sum |a| |b|.
    # f32 in: tf32 tensor cores by default, 2^-10 relative to sum |a| |b|.
    unit = {"kind": "uniform", "lo": -1, "hi": 1}
    for name, dtype, (m, n, k), (bm, bn, bk), group, leaky, warps, rel in [
            ("matmul_f16", "f16", (200, 136, 100), (64, 64, 32), 8, False, 4, 2.0 ** -18),
            ("matmul_f16_leaky", "f16", (97, 75, 61), (32, 64, 16), 2, True, 4, 2.0 ** -18),
            ("matmul_f32", "f32", (130, 70, 90), (32, 32, 32), 4, False, 4, 2.0 ** -10)]:
        grid = [cdiv(m, bm) * cdiv(n, bn)]
        tol = {"dot": ["a_ptr", "b_ptr"], "rel": rel,
               "ulps": 1 if dtype == "f16" else 0}
        case(name, "matmul.tk", "matmul",
             {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "GROUP_M": group,
              "LEAKY": leaky}, grid,
             [inp("a_ptr", dtype, [m, k], unit), inp("b_ptr", dtype, [k, n], unit),
              out("c_ptr", dtype, [m, n]), scalar("M", "i32", m),
              scalar("N", "i32", n), scalar("K", "i32", k),
              scalar("stride_am", "i32", k), scalar("stride_ak", "i32", 1),
              scalar("stride_bk", "i32", n), scalar("stride_bn", "i32", 1),
              scalar("stride_cm", "i32", n), scalar("stride_cn", "i32", 1)],
             {"c_ptr": tol}, num_warps=warps,
             retype=None if dtype == "f16" else {"f16": dtype})
    # Histogram: integer atomics, any order gives the same counts.
    for name, n, block, bins in [("histogram", 100001, 1024, 256),
                                 ("histogram_100", 5003, 256, 100)]:
        case(name, "histogram.tk", "histogram", {"BLOCK": block, "NUM_BINS": bins},
             [cdiv(n, block)],
             [inp("x_ptr", "f32", [n], {"kind": "unit"}),
              {"name": "bins_ptr", "kind": "inout", "dtype": "i32", "shape": [bins],
               "dist": {"kind": "zeros"}},
              scalar("n", "i32", n)],
             {"bins_ptr": exact})
    return cases


def generated_cases(seed, count, work):
    """Kernels for seeds seed .. seed+count-1, each in its case folder."""
    cases = []
    for kernel_seed in range(seed, seed + count):
        folder = os.path.join(work, "gen_%d" % kernel_seed)
        case = tkgen.write_case(kernel_seed, folder)
        case["source"] = os.path.join(folder, case["source"])
        cases.append(case)
    return cases


# --- running and comparing ------------------------------------------------------------

class CaseResult:
    def __init__(self, name, ok, line, seconds):
        self.name, self.ok, self.line, self.seconds = name, ok, line, seconds


def tk_run_command(tk_run, case, source, paths, written, side_flags):
    command = [tk_run, source, "-k", case["kernel"]]
    for key, value in case["defines"].items():
        command += ["-D", "%s=%s" % (key, value)]
    command += ["--num-warps", str(case["num_warps"]),
                "--grid", ",".join(str(g) for g in case["grid"])]
    for arg in case["args"]:
        value = arg["value"] if arg["kind"] == "scalar" else paths[arg["name"]]
        command += ["--arg", "%s=%s" % (arg["name"], value)]
    for name, path in written.items():
        command += ["--write", "%s=%s" % (name, path)]
    return command + side_flags


def run_error(run):
    """The line that says why a tk-run failed: its first `error:` line (a
    diagnostic's source line and caret follow it), else its last lines."""
    lines = [l.strip() for l in (run.stderr + run.stdout).splitlines() if l.strip()]
    errors = [l for l in lines if "error:" in l]
    if errors:
        return errors[0]
    if lines:
        return " | ".join(lines[-2:])
    if run.returncode < 0:
        return "killed by signal %d" % -run.returncode
    return "exit code %d" % run.returncode


def compare(dtype, interp, gpu, tolerance, inputs):
    """None if `gpu` matches `interp` within `tolerance`, else a message."""
    if interp.shape != gpu.shape:
        return "shape %s vs %s" % (gpu.shape, interp.shape)
    ib, gb = as_bits(interp), as_bits(gpu)
    poison = np.iinfo(ib.dtype).max   # all bytes 0xFF
    unwritten = (ib == poison) != (gb == poison)
    is_float = dtype in FLOATS
    i64, g64 = (as_float64(dtype, interp), as_float64(dtype, gpu)) if is_float \
        else (ib.astype(np.float64), gb.astype(np.float64))
    if is_float:
        i_nan, g_nan = np.isnan(i64), np.isnan(g64)
    else:
        i_nan = g_nan = np.zeros(ib.shape, dtype=bool)
        signed = dtype.startswith("i")
        if signed:
            i64 = ib.view(ib.dtype.str.replace("u", "i")).astype(np.float64)
            g64 = gb.view(gb.dtype.str.replace("u", "i")).astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        diff = np.abs(g64 - i64)
        if tolerance.get("exact"):
            allowed = np.zeros(ib.shape)
            bad = (ib != gb) & ~(i_nan & g_nan)
        else:
            allowed = np.full(ib.shape, float(tolerance.get("atol", 0.0)))
            allowed += float(tolerance.get("rtol", 0.0)) * np.abs(i64)
            if "dot" in tolerance:
                a_name, b_name = tolerance["dot"]
                a, b = (np.abs(as_float64(*inputs[n]).reshape(inputs[n][1].shape))
                        for n in (a_name, b_name))
                allowed += float(tolerance["rel"]) * (a @ b).reshape(-1)
            allowed += float(tolerance.get("ulps", 0)) * ulp(dtype, ib)
            infinite = np.isinf(i64) | np.isinf(g64)
            bad = (i_nan != g_nan) | (infinite & (i64 != g64)) | \
                (~infinite & ~i_nan & ~g_nan & (diff > allowed))
        bad |= unwritten
    if not bad.any():
        return None
    shape = interp.shape
    with np.errstate(divide="ignore", invalid="ignore"):
        rel = np.where(i64 != 0, diff / np.abs(i64), np.where(diff > 0, np.inf, 0.0))
        score = np.where(bad, np.nan_to_num(diff / np.maximum(allowed, 1e-300),
                                            nan=np.inf, posinf=np.inf), -1.0)
    where = int(np.argmax(score))
    index = tuple(int(i) for i in np.unravel_index(where, shape)) if shape else ()

    def show(bits, value):
        if not is_float:
            return "%d (0x%x)" % (int(value), int(bits))
        return "0x%x" % int(bits) if np.isnan(value) else "%.9g" % value

    values = "gpu %s, interpreter %s" % (show(gb[where], g64[where]),
                                         show(ib[where], i64[where]))
    count = "[%d of %d elements]" % (int(bad.sum()), bad.size)
    if unwritten[where] and is_float:
        # No arithmetic makes this NaN pattern: the lane was not stored.
        side = "the GPU" if gb[where] == poison else "the interpreter"
        return "not written by %s at index %s: %s %s" % (side, index, values, count)
    if not is_float:
        note = " (one is the poison pattern: unwritten?)" if unwritten[where] else ""
        return "differs at index %s: %s%s %s" % (index, values, note, count)
    return "max rel err %.3g at index %s: %s, abs err %.3g, allowed %.3g %s" % (
        rel[where], index, values, diff[where], allowed[where], count)


def error_stats(dtype, interp, gpu):
    if dtype not in FLOATS:
        return 0.0, 0.0
    i64, g64 = as_float64(dtype, interp), as_float64(dtype, gpu)
    finite = np.isfinite(i64) & np.isfinite(g64)
    if not finite.any():
        return 0.0, 0.0
    diff = np.abs(g64 - i64)[finite]
    with np.errstate(divide="ignore", invalid="ignore"):
        rel = np.where(i64[finite] != 0, diff / np.abs(i64[finite]), 0.0)
    return float(diff.max()), float(rel.max())


def run_case(case, seed, options, work):
    start = time.time()
    name = case["name"]
    folder = os.path.join(work, name)
    os.makedirs(folder, exist_ok=True)
    # Inputs depend on the seed and the case's name only, so that a rerun
    # of some cases (--only) gives them the same data.
    rng = np.random.default_rng([seed, zlib.crc32(name.encode())])

    source = case["source"]
    if case.get("retype"):
        # The example with other pointer types (the kernel bodies are written
        # type-generically, with .to(ptr.dtype.element_ty)).
        text = open(source).read()
        for old, new in case["retype"].items():
            text = text.replace("*" + old, "*" + new)
        source = os.path.join(folder, os.path.basename(source))
        with open(source, "w") as f:
            f.write(text)
    elif os.path.dirname(source) != folder:
        shutil.copy(source, folder)
    # tk-run runs in the case folder on relative names, so that repro.sh
    # works wherever the folder is copied to.
    source = os.path.basename(source)

    paths, inputs, outputs = {}, {}, {}
    for arg in case["args"]:
        if arg["kind"] == "scalar":
            continue
        path = arg["name"] + ".npy"
        if arg["kind"] == "out":
            array = poisoned(arg["dtype"], arg["shape"])
        else:
            array = make_array(arg["dtype"], arg["shape"], arg.get("dist", {}), rng)
        np.save(os.path.join(folder, path), array)
        paths[arg["name"]] = path
        inputs[arg["name"]] = (arg["dtype"], array)
        if arg["kind"] in ("out", "inout"):
            outputs[arg["name"]] = arg["dtype"]

    sides = [("interpreter", ["--interpret"]),
             (options.second, SECOND_SIDES[options.second])]
    results, commands = {}, []
    for side, flags in sides:
        written = {o: "%s.%s.npy" % (o, side) for o in outputs}
        command = tk_run_command(options.tk_run, case, source, paths, written, flags)
        commands.append('"$TK_RUN" ' + " ".join(shlex.quote(c) for c in command[1:]))
        try:
            run = subprocess.run(command, capture_output=True, text=True,
                                 timeout=options.timeout, cwd=folder, env=RUN_ENV)
            failed = run.returncode != 0
            message = run_error(run)
        except subprocess.TimeoutExpired:
            failed, message = True, "timed out after %d s" % options.timeout
        if failed:
            results = None
            line = "FAIL diff %s: %s run failed: %s" % (name, side, message)
            break
        results[side] = {o: np.load(os.path.join(folder, p)) for o, p in written.items()}
    with open(os.path.join(folder, "repro.sh"), "w") as f:
        f.write("# %s (seed %d): the interpreter, then the other side.\n" % (name, seed))
        f.write('cd "$(dirname "$0")"\nTK_RUN=${TK_RUN:-tk-run}\n')
        f.write("\n".join(commands) + "\n")

    if results is not None:
        problems, worst = [], (0.0, 0.0)
        all_exact = all(case["checks"][o].get("exact") for o in outputs)
        for o, dtype in outputs.items():
            interp, gpu = results["interpreter"][o], results[options.second][o]
            problem = compare(dtype, interp, gpu, case["checks"][o], inputs)
            if problem:
                kind = "exact" if case["checks"][o].get("exact") else "tolerance"
                problems.append("%s (%s, %s): %s" % (o, dtype, kind, problem))
            stats = error_stats(dtype, interp, gpu)
            worst = (max(worst[0], stats[0]), max(worst[1], stats[1]))
        if problems:
            line = "FAIL diff %s: %s" % (name, "; ".join(problems))
        elif all_exact:
            line = "PASS diff %s (bit-exact)" % name
        elif worst == (0.0, 0.0):
            line = "PASS diff %s (identical; tolerance allowed)" % name
        else:
            line = "PASS diff %s (max abs err %.2g, max rel err %.2g)" % (name, *worst)
    ok = line.startswith("PASS")
    if ok and not options.keep:
        shutil.rmtree(folder, ignore_errors=True)
    return CaseResult(name, ok, line, time.time() - start)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tk-run", required=True, help="the tk-run binary")
    parser.add_argument("--out", required=True, help="folder for logs and failures")
    parser.add_argument("--seed", type=int, default=None,
                        help="seed of the inputs and the generated kernels")
    parser.add_argument("--count", type=int, default=40,
                        help="random kernels (default 40)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 4)
    parser.add_argument("--only", help="run only cases whose name matches REGEX")
    parser.add_argument("--keep", action="store_true",
                        help="keep the folders of passing cases too")
    parser.add_argument("--timeout", type=int, default=120, help="seconds per run")
    parser.add_argument("--second", choices=sorted(SECOND_SIDES), default="gpu",
                        help="what runs against the interpreter (default gpu)")
    options = parser.parse_args()
    options.tk_run = os.path.abspath(options.tk_run)

    seed = options.seed if options.seed is not None else random.randrange(1, 1000000)
    work = os.path.join(os.path.abspath(options.out), "differential")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    print("differential: seed %d (interpreter vs %s; --seed %d or TK_DIFF_SEED=%d "
          "repeats this run)" % (seed, options.second, seed, seed), flush=True)

    cases = example_cases() + generated_cases(seed, options.count, work)
    if options.only:
        cases = [c for c in cases if re.search(options.only, c["name"])]

    start = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=options.jobs) as pool:
        futures = [pool.submit(run_case, case, seed, options, work)
                   for case in cases]
        results = []
        for future, case in zip(futures, cases):
            try:
                results.append(future.result())
            except Exception as error:  # a bug here must not hide the others
                results.append(CaseResult(case["name"], False, "FAIL diff %s: "
                                          "differential.py: %r" % (case["name"], error), 0))
    passed = [r for r in results if r.ok]
    failed = [r for r in results if not r.ok]
    summary = "differential: %d passed, %d failed" % (len(passed), len(failed))
    with open(os.path.join(os.path.abspath(options.out), "differential.log"), "w") as log:
        log.write("seed %d, interpreter vs %s, %.1f s\n" % (seed, options.second,
                                                            time.time() - start))
        for r in passed + failed:
            log.write("%s   [%.1f s]\n" % (r.line, r.seconds))
        log.write(summary + "\n")
    # Failures last: callers often show only the tail of the output.
    for r in passed + failed:
        print(r.line)
    if failed:
        print("differential: failing cases are kept in %s (repro.sh in each)" % work)
    print("differential: %.1f s, seed %d" % (time.time() - start, seed))
    print(summary)
    if not failed and not options.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
