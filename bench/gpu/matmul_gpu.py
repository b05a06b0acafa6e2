#!/usr/bin/env python3
"""matmul_gpu.py -- checks and times tk's matmul cubins on the GPU machine.

Usage: matmul_gpu.py KERNEL_DIR OUT_DIR [--quick]

KERNEL_DIR holds the variants bench/gpu/build_matmul_kernels.sh compiled
(NAME.cubin + NAME.json). The cubins are loaded with the CUDA driver API
(ctypes on libcuda, inside PyTorch's primary context, so torch tensors are
the kernels' buffers) and launched exactly as their metadata says: one
block of num_warps * 32 threads per program, shared_bytes of dynamic
shared memory.

Correctness (METHOD.md): fresh random inputs for every case, the output
poisoned (NaN, or a sentinel for integers) before the launch, a float64
reference of the upcast inputs, ||out - ref|| / ||ref|| against a bound per
precision (NaN never passes), i8 exact. Cases cover every variant on the
shapes its specialization admits: 4096^3, 200x300x150, M or N of 16 with
K of 8, row- and column-major operands, strided views with offset
pointers, bias and leaky-ReLU epilogues, num_stages 1-5, num_warps 4/8.

Speed: CUDA events around each launch, the L2 flushed before each (as
triton.testing.do_bench), warm-up, the median of the timed launches,
fresh random inputs; 2*M*N*K FLOPs. cuBLAS (torch.matmul) is timed in the
same process for the ratio; Triton's numbers come from triton_ref.py in
the same device call.

Persistent variants (examples/matmul_persistent.tk, built by
build_matmul_persistent_kernels.sh into the same folder) launch
min(NUM_SMS, tiles) programs; they are checked like the others and timed
in the same table (tags persistent_* and flat_persistent_*, the latter
with range(flatten=True)).

Writes OUT_DIR/matmul.json and prints a table. Options: --quick (no 4096^3
checks), --only REGEX (variants by name), --no-speed (checks only; with
either of these the results go to matmul-subset.json).
"""
import glob
import json
import math
import os
import re
import sys
import time

import torch

from cubin import Cubin, time_ms, use_torch_context


class Kernel(Cubin):
    def __init__(self, path):
        super().__init__(path)
        c = self.meta["constexprs"]
        self.bm, self.bn, self.bk = c["BLOCK_M"], c["BLOCK_N"], c["BLOCK_K"]
        self.has_bias = bool(c.get("HAS_BIAS", False))
        self.leaky = bool(c.get("LEAKY", False))
        self.prec = int(c.get("PREC", 0))
        # examples/matmul_persistent.tk (build_matmul_persistent_kernels.sh):
        # NUM_SMS programs loop over the tiles; no bias argument; the
        # operand type is its DTYPE, i.e. the pointers' type.
        self.persistent = self.meta["name"] == "matmul_persistent"
        self.num_sms = int(c.get("NUM_SMS", 0))
        self.flatten = bool(c.get("FLATTEN", False))
        self.dtype = (self.args[0]["type"].lstrip("*") if self.persistent
                      else self.meta["name"].split("_")[1])
        self.layout = self.name.rsplit("_", 1)[1]
        self.stages = int(self.meta["num_stages"])
        self.warps = int(self.meta["num_warps"])
        # build_matmul_kernels.sh names the Hopper wgmma variants *_wgmma_*;
        # the others are mma.sync (--mma=v2).
        self.instr = "wgmma" if "_wgmma_" in self.name else "mma"

    def launch(self, a, b, c, bias, M, N, K, stream=None):
        strides = [a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1)]
        grid = math.ceil(M / self.bm) * math.ceil(N / self.bn)
        if self.persistent:
            values = [a.data_ptr(), b.data_ptr(), c.data_ptr(), M, N, K] + strides
            grid = min(self.num_sms, grid)
        else:
            values = [a.data_ptr(), b.data_ptr(), c.data_ptr(), bias.data_ptr(), M, N, K] + strides
        self.launch_values((grid, 1, 1), values, stream)

    def admits(self, a, b, c):
        """Whether the arguments satisfy the specialization the cubin was compiled for."""
        values = {"M": a.shape[0], "N": b.shape[1], "K": a.shape[1],
                  "a_ptr": a.data_ptr(), "b_ptr": b.data_ptr(), "c_ptr": c.data_ptr(),
                  "stride_am": a.stride(0), "stride_ak": a.stride(1), "stride_bk": b.stride(0),
                  "stride_bn": b.stride(1), "stride_cm": c.stride(0), "stride_cn": c.stride(1)}
        for spec in self.args:
            v = values.get(spec["name"])
            if v is None:
                continue
            if spec["spec"] == "one" and v != 1:
                return False
            if spec["spec"] == "div16" and v % 16 != 0:
                return False
        return True


# ---------------------------------------------------------------------------
# Inputs and references
# ---------------------------------------------------------------------------
TORCH_DTYPE = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32, "i8": torch.int8}


def rand(shape, dtype, col_major=False, strided=False):
    """A fresh random operand: row- or column-major, or a strided view with an
    offset pointer (every other row of a wider buffer, starting 3 columns in)."""
    rows, cols = shape
    if strided:
        base = rand_dense((2 * rows, cols + 3), dtype)
        return base[::2, 3:]
    if col_major:
        return rand_dense((cols, rows), dtype).t()
    return rand_dense((rows, cols), dtype)


def rand_dense(shape, dtype):
    if dtype == torch.int8:
        return torch.randint(-128, 128, shape, device="cuda", dtype=torch.int8)
    return torch.randn(shape, device="cuda", dtype=torch.float32).to(dtype)


def poison(c):
    if c.dtype == torch.int32:
        c.fill_(-0x7fffffff)
    else:
        c.fill_(float("nan"))


def reference(a, b, bias, kernel):
    ref = a.double() @ b.double()
    if kernel.has_bias:
        ref = ref + bias.double()[None, :]
    if kernel.leaky:
        ref = torch.where(ref >= 0, ref, 0.01 * ref)
    return ref


# tf32x3 keeps the big*small cross terms but drops small*small, and the
# tensor cores truncate each part to tf32: measured 2.9e-5 at 4096^3 on the
# H200 (ieee 1.2e-6, tf32 7.9e-4), hence its bound.
BOUND = {"f16": 1e-2, "bf16": 1e-2, "f32p0": 2e-3, "f32p1": 1e-5, "f32p2": 1e-4}


def check_case(kernel, M, N, K, layout):
    dt = TORCH_DTYPE[kernel.dtype]
    a = rand((M, K), dt, col_major=layout == "cc", strided=layout == "strided")
    b = rand((K, N), dt, col_major=layout == "cc", strided=layout == "strided")
    out_dt = torch.int32 if kernel.dtype == "i8" else dt
    c = torch.empty((M, N), device="cuda", dtype=out_dt)
    bias = rand_dense((N,), torch.int32 if kernel.dtype == "i8" else dt) if kernel.dtype != "i8" \
        else torch.randint(-1000, 1000, (N,), device="cuda", dtype=torch.int32)
    if not kernel.admits(a, b, c):
        return None
    poison(c)
    kernel.launch(a, b, c, bias, M, N, K)
    torch.cuda.synchronize()
    ref = reference(a, b, bias, kernel)
    if kernel.dtype == "i8":
        unwritten = int((c == -0x7fffffff).sum())
        wrong = int((c.long() != ref.long().to(torch.int32).long()).sum())
        return {"exact": wrong == 0, "mismatches": wrong, "unwritten": unwritten, "ok": wrong == 0}
    out = c.double()
    nan = int(torch.isnan(out).sum())
    err = float(torch.linalg.norm(out - ref) / torch.linalg.norm(ref)) if nan == 0 else float("nan")
    key = kernel.dtype if kernel.dtype != "f32" else f"f32p{kernel.prec}"
    return {"relerr": err, "nan": nan, "bound": BOUND[key], "ok": nan == 0 and err < BOUND[key]}


def correctness(kernels, quick):
    results = {}
    big = [(4096, 4096, 4096)]
    odd = [(200, 300, 150), (16, 300, 8), (200, 16, 8), (16, 16, 8), (1000, 600, 200)]
    mid = [(512, 512, 512), (256, 384, 96)]
    for k in kernels:
        cases = []
        if k.layout == "rr16":
            cases += [(s, "rr") for s in mid]
            default_config = k.stages == 3 and k.warps == 4 and (k.bm, k.bn) in ((128, 128), (64, 64))
            if not quick and (default_config or k.name.startswith("matmul_f16_plain_128x128x32")
                              or k.instr == "wgmma"):
                cases += [(s, "rr") for s in big]
        elif k.layout == "rr":
            cases += [(s, "rr") for s in odd + mid]
        elif k.layout == "cc":
            cases += [(s, "cc") for s in mid + [(1024, 768, 320)]]
        elif k.layout == "any":
            cases += [(s, "strided") for s in odd + mid] + [(s, "cc") for s in mid]
        for (M, N, K), layout in cases:
            try:
                r = check_case(k, M, N, K, layout)
            except Exception as e:  # a failed launch is a failed case, not the end of the run
                r = {"ok": False, "error": str(e)}
            if r is None:
                continue
            results[f"{k.name} {M}x{N}x{K} {layout}"] = r
    return results


def speed(kernels):
    results = {}
    for sz in (4096, 8192):
        for dtype in ("f16", "bf16"):
            dt = TORCH_DTYPE[dtype]
            a = rand_dense((sz, sz), dt)
            b = rand_dense((sz, sz), dt)
            c = torch.empty((sz, sz), device="cuda", dtype=dt)
            flops = 2.0 * sz ** 3
            row = {"cublas": flops / time_ms(lambda: a @ b) / 1e9}
            for k in kernels:
                if k.dtype != dtype or k.layout != "rr16" or k.has_bias or k.bk < 32 or k.bm < 128:
                    continue
                if not k.admits(a, b, c):
                    continue
                tag = (f"{'leaky_' if k.leaky else ''}{'wgmma_' if k.instr == 'wgmma' else ''}"
                       f"{('flat_' if k.flatten else '') + 'persistent_' if k.persistent else ''}"
                       f"{k.bm}x{k.bn}x{k.bk}_w{k.warps}_s{k.stages}")
                try:
                    poison(c)
                    k.launch(a, b, c, c, sz, sz, sz)
                    torch.cuda.synchronize()
                    ref = a.float() @ b.float()
                    if k.leaky:
                        ref = torch.nn.functional.leaky_relu(ref, 0.01)
                    err = float(torch.linalg.norm(c.float() - ref) / torch.linalg.norm(ref))
                    bias = c
                    ms = time_ms(lambda: k.launch(a, b, c, bias, sz, sz, sz))
                    row[tag] = {"TFLOPs": flops / ms / 1e9, "ms": ms, "relerr": err}
                except Exception as e:
                    row[tag] = {"error": str(e)}
            best = max([v["TFLOPs"] for t, v in row.items()
                        if isinstance(v, dict) and "TFLOPs" in v and not t.startswith("leaky")] or [0])
            row["tk_best"] = best
            row["tk_best_over_cublas"] = best / row["cublas"]
            for instr in ("mma", "wgmma"):
                row[f"tk_best_{instr}"] = max(
                    [v["TFLOPs"] for t, v in row.items()
                     if isinstance(v, dict) and "TFLOPs" in v and not t.startswith("leaky")
                     and t.startswith("wgmma_") == (instr == "wgmma")] or [0])
            # Persistent (examples/matmul_persistent.tk), with and without
            # range(flatten=True), against the one-tile-per-program kernels.
            for kind, marks in (("persistent", ("persistent_",)), ("flat", ("flat_persistent_",)),
                                ("nonpersistent", ())):
                row[f"tk_best_{kind}"] = max(
                    [v["TFLOPs"] for t, v in row.items()
                     if isinstance(v, dict) and "TFLOPs" in v and not t.startswith("leaky")
                     and (any(m in t for m in marks) if marks else "persistent_" not in t)] or [0])
            if dtype == "f16":
                row["leaky_cublas_plus_torch_ms"] = time_ms(
                    lambda: torch.nn.functional.leaky_relu(a @ b, 0.01))
            results[f"{dtype}_{sz}"] = row
            del a, b, c
    return results


def main():
    kernel_dir, out_dir = sys.argv[1], sys.argv[2]
    quick = "--quick" in sys.argv
    # --only REGEX: just the variants whose name matches (e.g. under
    # compute-sanitizer); --no-speed: correctness only.
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
    no_speed = "--no-speed" in sys.argv
    use_torch_context()
    kernels = []
    load_errors = {}
    for path in sorted(glob.glob(os.path.join(kernel_dir, "*.cubin"))):
        # The variant's name, without ".cubin", so that "_rr16$" matches.
        if only and not re.search(only, os.path.basename(path)[:-len(".cubin")]):
            continue
        try:
            kernels.append(Kernel(path))
        except Exception as e:
            load_errors[os.path.basename(path)] = str(e)
    t0 = time.time()
    corr = correctness(kernels, quick)
    t1 = time.time()
    spd = {} if no_speed else speed(kernels)
    result = {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
              "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
              "load_errors": load_errors, "correctness": corr, "speed": spd,
              "correctness_s": t1 - t0}
    os.makedirs(out_dir, exist_ok=True)
    name = "matmul.json" if not (only or no_speed) else "matmul-subset.json"
    json.dump(result, open(os.path.join(out_dir, name), "w"), indent=1)

    bad = {k: v for k, v in corr.items() if not v.get("ok")}
    print(f"matmul correctness: {len(corr) - len(bad)} passed, {len(bad)} failed "
          f"({len(kernels)} kernels, {len(load_errors)} load errors, {t1 - t0:.0f} s)")
    for k, v in list(bad.items())[:25]:
        print("  FAIL", k, v)
    for k, v in load_errors.items():
        print("  LOAD", k, v)
    worst = {}
    for k, v in corr.items():
        if "relerr" in v and v["relerr"] == v["relerr"]:
            kind = k.split("_")[1] + ("" if "f32" not in k else k.split("_")[2][:2])
            worst[kind] = max(worst.get(kind, 0), v["relerr"])
    print("  worst relerr per kind:", {k: f"{v:.2e}" for k, v in worst.items()})
    for key, row in spd.items():
        print(f"matmul {key}: cuBLAS {row['cublas']:.0f} TFLOP/s, tk best {row['tk_best']:.0f} "
              f"({row['tk_best_over_cublas']:.2f}x; mma.sync {row['tk_best_mma']:.0f}, "
              f"wgmma {row['tk_best_wgmma']:.0f}; one tile per program "
              f"{row['tk_best_nonpersistent']:.0f}, persistent {row['tk_best_persistent']:.0f}, "
              f"flattened {row['tk_best_flat']:.0f})")
        for tag, v in row.items():
            if isinstance(v, dict):
                print(f"    {tag}: " + (f"{v['TFLOPs']:.0f} TFLOP/s ({v['ms']:.3f} ms, relerr {v['relerr']:.1e})"
                                        if "TFLOPs" in v else v.get("error", "?")))


    return 1 if bad or load_errors else 0


if __name__ == "__main__":
    sys.exit(main())
