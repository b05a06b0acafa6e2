#!/usr/bin/env python3
"""tutorials_gpu.py -- tk's ports of Triton's tutorials 03, 06 and 09 against
Triton running the tutorials' own kernels, on the GPU machine.

Usage: tutorials_gpu.py KERNEL_DIR OUT_DIR [--quick] [--small] [--only REGEX] [--budget SECONDS]

KERNEL_DIR holds what bench/gpu/build_tutorial_kernels.sh compiled from
bench/tutorials/*.tk (NAME.cubin + NAME.json, NAME.err where tkc failed,
NAME.warn for its warnings). Triton's side is bench/gpu/triton_tutorials.py:
the tutorials' @triton.jit kernels verbatim, launched at the same
configuration (block sizes, num_warps, num_stages) as tk's cubin.

Each row is one tutorial kernel, configuration and size; tk and Triton run
on the same fresh random inputs (f16, torch.randn). Correctness: the output
poisoned with NaN before the launch, ||out - ref|| / ||ref|| against a
float32 torch reference (TF32 off; attention: SDPA on the float32 upcast,
and the kernel's log-sum-exp M, base 2, against log2(sum(exp(S)))), bound
1e-2 for O and C, 1e-3 for M; a NaN fails. Speed: cubin.py's time_ms for
both (and for the anchors): the 256 MB L2 flush before each call, CUDA
events, warm-up, the median (as triton.testing.do_bench). TFLOP/s: 2MNK/t
for matmul, 4 Z H N^2 D / t for attention, halved for causal. Anchors:
cuBLAS (torch.matmul) for 03 and 09, SDPA (cuDNN backend if it runs, else
flash) for 06.

Sizes: matmul 4096^3 and 8192^3; attention Z=4 H=32 N=4096 at HEAD_DIM 64
and 128, causal and not, then Z=1 H=32 N=16384 while the time budget
lasts (--budget, default 200 s, checked before each HEAD_DIM and mask;
--quick: not at all). --small: small sizes instead, to check the plumbing.
Tutorial 06 runs in both forms: the tensor-descriptor one (Triton with the
host TensorDescriptors the tutorial passes on Hopper, and with plain
tensors, the path tk's port takes: descriptors made in the kernel) and the
block-pointer one; its non-causal warp_specialize=True rows are the
tutorial's Hopper benchmark setting. tk variants named NAME_best (built
with TK_BEST_FLAGS) are timed next to NAME.

Every kernel runs in its own try/except: a failure is recorded in its row
and the rest goes on. Progress lines are printed as they come; the table
(tk TFLOP/s, Triton TFLOP/s, tk/Triton, anchor) is printed last. Writes
OUT_DIR/tutorials.json.
"""
import glob
import json
import math
import os
import re
import sys
import time
import traceback

import torch
import torch.nn.functional as F

from cubin import Cubin, time_ms, use_torch_context

# The tk builds assume NUM_SMS = 132 (H100 SXM and H200); Triton gets the same.
NUM_SMS = 132
# Matmul sizes (M = N = K) and attention shapes (Z, H, N_CTX); --small
# replaces them with ones that check the plumbing in seconds (H stays a
# multiple of 16 and N_CTX of 128: the cubins are specialized for that).
MATMUL_SIZES = (4096, 8192)
ATTENTION_SHAPES = ((4, 32, 4096), (1, 32, 16384))
SMALL_MATMUL_SIZES = (512, 1024)
SMALL_ATTENTION_SHAPES = ((2, 16, 256), (1, 16, 512))
START = time.time()
rows = []


def log(msg):
    print(f"[{time.time() - START:6.1f} s] {msg}", flush=True)


def rel_err(out, ref):
    out = out.float()
    if torch.isnan(out).any():
        return float("nan")
    return float((out - ref).norm() / ref.norm())


class TkKernel:
    """A cubin of KERNEL_DIR by name, or why there is none."""

    def __init__(self, kdir, name):
        self.name = name
        path = os.path.join(kdir, name + ".cubin")
        self.error = self.error_text = self.warning = None
        self.cubin = None
        if os.path.exists(path):
            self.cubin = Cubin(path)
        else:
            err = os.path.join(kdir, name + ".err")
            text = open(err).read().strip() if os.path.exists(err) else "not built"
            # The diagnostic without the source path in front of it.
            first = next((l for l in text.splitlines() if "error:" in l), text.splitlines()[0] if text else "")
            self.error = (first[first.find("error:"):] if "error:" in first else first)[:300]
            self.error_text = text[:2000]
        warn = os.path.join(kdir, name + ".warn")
        if os.path.exists(warn):
            self.warning = open(warn).read().strip()[:2000]

    def launch(self, grid, by_name):
        """Launches with the kernel's arguments (the metadata's `args`, in
        order: exactly the non-constexpr parameters) taken by name."""
        self.cubin.launch_values(grid, [by_name[a["name"]] for a in self.cubin.args])


def measure(run, check, flops, poison):
    """Poisons, runs once, checks, then times: {"ok", errors..., "ms", "TFLOPs"}."""
    poison()
    run()
    torch.cuda.synchronize()
    r = check()
    r["ok"] = all(v == v and v <= b for v, b in r.pop("_bounds"))
    ms = time_ms(run)
    r["ms"] = ms
    r["TFLOPs"] = flops / ms / 1e9
    return r


def attempt(row, key, fn):
    try:
        row[key] = fn()
    except Exception as e:  # one failure must not stop the rest
        row[key] = {"error": f"{type(e).__name__}: {e}"[:1500]}
        traceback.print_exc(limit=2)


def variants(kdir, name):
    """NAME, and NAME_best where build_tutorial_kernels.sh made one."""
    out = [name]
    if os.path.exists(os.path.join(kdir, name + "_best.cubin")):
        out.append(name + "_best")
    return out


def report(row):
    rows.append(row)
    parts = []
    for k in ("tk", "tk_best", "triton", "triton_device_desc", "anchor"):
        v = row.get(k)
        if isinstance(v, dict):
            if "TFLOPs" in v:
                parts.append(f"{k} {v['TFLOPs']:.0f}" + ("" if v.get("ok", True) else " (WRONG)"))
            elif "error" in v:
                parts.append(f"{k} error")
    log(f"{row['tutorial']} {row['config']} {row['size']}: " + ", ".join(parts))


# ---------------------------------------------------------------------------
# Matmul: tutorials 03 and 09
# ---------------------------------------------------------------------------

def time_tk_variants(row, kdir, name, grid, by_name, check, flops, poison):
    """Checks and times tk's cubin NAME (row["tk"]) and NAME_best if built
    (row["tk_best"]); a cubin tkc could not build is recorded with its
    message."""
    for vname in variants(kdir, name):
        key = "tk" if vname == name else "tk_best"
        try:
            kern = TkKernel(kdir, vname)
        except Exception as e:
            row[key] = {"error": f"load: {e}"}
            continue
        if kern.warning:
            row[key + "_warning"] = kern.warning
        if kern.cubin is None:
            row[key] = {"error": "tkc: " + kern.error, "tkc_output": kern.error_text}
            continue
        attempt(row, key, lambda: measure(lambda: kern.launch(grid, by_name), check, flops, poison))


def matmul_rows(kdir, tt, only):
    torch.backends.cuda.matmul.allow_tf32 = False
    configs03 = [(128, 256, 64, 8, 3), (64, 256, 32, 4, 4), (128, 128, 64, 4, 4), (128, 128, 64, 8, 3)]
    configs09 = [(128, 256, 64, 8, 3), (128, 128, 64, 8, 4)]
    for sz in MATMUL_SIZES:
        M = N = K = sz
        a = torch.randn((M, K), device="cuda", dtype=torch.float16)
        b = torch.randn((K, N), device="cuda", dtype=torch.float16)
        bt = b.t().contiguous()
        c = torch.empty((M, N), device="cuda", dtype=torch.float16)
        ref = a.float() @ b.float()
        flops = 2.0 * M * N * K
        anchor = {}
        attempt(anchor, "cublas", lambda: {"TFLOPs": flops / time_ms(lambda: torch.matmul(a, b, out=c)) / 1e9})
        poison = lambda: c.fill_(float("nan"))
        check = lambda: (lambda e: {"relerr": e, "_bounds": [(e, 1e-2)]})(rel_err(c, ref))
        args = dict(a_ptr=a, b_ptr=b, c_ptr=c, M=M, N=N, K=K, stride_am=a.stride(0), stride_ak=a.stride(1),
                    stride_bk=b.stride(0), stride_bn=b.stride(1), stride_cm=c.stride(0), stride_cn=c.stride(1))
        jobs = []
        for (bm, bn, bk, w, s) in configs03:
            cfg = f"{bm}x{bn}x{bk}_w{w}_s{s}"
            grid = (math.ceil(M / bm) * math.ceil(N / bn), 1, 1)
            jobs.append(("t03", cfg, f"t03_{cfg}", grid, args,
                         lambda bm=bm, bn=bn, bk=bk, w=w, s=s: tt.matmul_03(a, b, c, bm, bn, bk, w, s)))
        for (bm, bn, bk, w, s) in configs09:
            cfg = f"{bm}x{bn}x{bk}_w{w}_s{s}"
            grid = (min(NUM_SMS, math.ceil(M / bm) * math.ceil(N / bn)), 1, 1)
            jobs.append(("t09", cfg, f"t09_{cfg}", grid, args,
                         lambda bm=bm, bn=bn, bk=bk, w=w, s=s:
                         tt.matmul_persistent_09(a, b, c, bm, bn, bk, w, s, NUM_SMS)))
            dargs = dict(a_ptr=a, b_ptr=bt, c_ptr=c, M=M, N=N, K=K)
            for kind, ws, flat in (("flat", False, True), ("ws", True, False)):
                jobs.append(("t09d", f"{cfg}_{kind}", f"t09d_{cfg}_{kind}", grid, dargs,
                             lambda bm=bm, bn=bn, bk=bk, w=w, s=s, ws=ws, flat=flat:
                             tt.matmul_descriptor_persistent_09(a, bt, c, bm, bn, bk, w, s, NUM_SMS, ws, flat)))
        for tut, cfg, name, grid, by_name, triton_run in jobs:
            if only and not re.search(only, name):
                continue
            row = {"tutorial": tut, "config": cfg, "size": f"{M}x{N}x{K}", "flops": flops,
                   "anchor_name": "cublas", "anchor": anchor.get("cublas")}
            time_tk_variants(row, kdir, name, grid, by_name, check, flops, poison)
            attempt(row, "triton", lambda: measure(triton_run, check, flops, poison))
            report(row)
        del a, b, bt, c, ref
        torch.cuda.empty_cache()


# ---------------------------------------------------------------------------
# Attention: tutorial 06, both forms
# ---------------------------------------------------------------------------

def lse2_reference(q, k, causal, scale):
    """log2(sum(exp(S))) per row, S = q k^T * scale in float32, a few heads
    at a time (the whole S of Z=1 H=32 N=16384 would be 34 GB)."""
    Z, H, N, D = q.shape
    qf = q.reshape(Z * H, N, D)
    kf = k.reshape(Z * H, N, D)
    out = torch.empty((Z * H, N), device="cuda", dtype=torch.float32)
    step = max(1, (1 << 28) // (N * N))
    mask = torch.ones(N, N, device="cuda", dtype=torch.bool).triu(1) if causal else None
    for i in range(0, Z * H, step):
        s = torch.bmm(qf[i:i + step].float(), kf[i:i + step].float().transpose(1, 2)) * scale
        if causal:
            s.masked_fill_(mask, float("-inf"))
        out[i:i + step] = torch.logsumexp(s, dim=-1) / math.log(2.0)
    return out.reshape(Z, H, N)


def sdpa_anchor(q, k, v, causal, flops):
    from torch.nn.attention import SDPBackend, sdpa_kernel
    for name, backend in (("sdpa_cudnn", SDPBackend.CUDNN_ATTENTION), ("sdpa_flash", SDPBackend.FLASH_ATTENTION)):
        try:
            with sdpa_kernel(backend):
                fn = lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal)
                fn()
                torch.cuda.synchronize()
                ms = time_ms(fn)
            return name, {"TFLOPs": flops / ms / 1e9, "ms": ms}
        except Exception as e:
            last = f"{type(e).__name__}: {e}"[:300]
    return "sdpa", {"error": last}


def attention_rows(kdir, tt, tbp, only, quick, budget):
    shapes = list(ATTENTION_SHAPES[:1 if quick else 2])
    configs = {64: [(128, 64, 8, 3), (128, 64, 4, 3)], 128: [(128, 64, 8, 3), (128, 128, 8, 3)]}
    for Z, H, N in shapes:
        for D in (64, 128):
            for causal in (False, True):
                if (Z, H, N) != shapes[0] and time.time() - START > budget:
                    log(f"attention Z={Z} H={H} N={N} D={D} causal={causal} skipped: past the "
                        f"{budget:.0f} s budget")
                    continue
                torch.manual_seed(N + D + causal)
                q, k, v = (torch.randn((Z, H, N, D), device="cuda", dtype=torch.float16) for _ in range(3))
                o = torch.empty_like(q)
                Mx = torch.empty((Z, H, N), device="cuda", dtype=torch.float32)
                scale = 1.0 / math.sqrt(D)
                ref = F.scaled_dot_product_attention(q.float(), k.float(), v.float(), is_causal=causal,
                                                     scale=scale)
                m_ref = lse2_reference(q, k, causal, scale)
                flops = 4.0 * Z * H * N * N * D * (0.5 if causal else 1.0)
                anchor_name, anchor = sdpa_anchor(q, k, v, causal, flops)

                def poison():
                    o.fill_(float("nan"))
                    Mx.fill_(float("nan"))

                def check():
                    e, m = rel_err(o, ref), rel_err(Mx, m_ref)
                    return {"relerr": e, "m_relerr": m, "_bounds": [(e, 1e-2), (m, 1e-3)]}

                c = "causal" if causal else "full"
                size = f"Z{Z}_H{H}_N{N}_D{D}_{c}"
                z1 = "_z1" if Z == 1 else ""
                # Each strided argument of the block-pointer form by name.
                bp_args = dict(Q=q, K=k, V=v, Out=o, M=Mx, sm_scale=scale, Z=Z, H=H, N_CTX=N)
                for t, dims, x in (("q", "zhmk", q), ("k", "zhnk", k), ("v", "zhkn", v), ("o", "zhmn", o)):
                    for dname, st in zip(dims, x.stride()):
                        bp_args[f"stride_{t}{dname}"] = st
                desc_args = dict(sm_scale=scale, M=Mx, Z=Z, H=H, desc_q=q, desc_k=k, desc_v=v, desc_o=o, N_CTX=N)
                for (bm, bn, w, s) in configs[D]:
                    cfg = f"{bm}x{bn}_w{w}_s{s}"
                    grid = (math.ceil(N / bm), Z * H, 1)
                    forms = [("t06", tt, desc_args, False), ("t06bp", tbp, bp_args, False)]
                    if not causal:
                        forms.append(("t06_ws", tt, desc_args, True))
                    for tut, mod, by_name, ws in forms:
                        name = f"{tut.split('_')[0]}_d{D}_{c}_{cfg}" + ("_ws" if ws else z1)
                        if only and not re.search(only, name):
                            continue
                        row = {"tutorial": tut, "config": cfg, "size": size, "flops": flops,
                               "anchor_name": anchor_name, "anchor": anchor, "tk_cubin": name}
                        time_tk_variants(row, kdir, name, grid, by_name, check, flops, poison)
                        # Triton: the tutorial's own host path, and for the
                        # descriptor form without warp specialization also
                        # plain tensors (descriptors made in the kernel, as
                        # in tk's port).
                        run = lambda hd=True: mod.attention_fwd(q, k, v, o, Mx, causal, scale, bm, bn, w, s,
                                                                warp_specialize=ws, host_descriptors=hd)
                        attempt(row, "triton", lambda: measure(run, check, flops, poison))
                        if tut == "t06":
                            attempt(row, "triton_device_desc",
                                    lambda: measure(lambda: run(False), check, flops, poison))
                        report(row)
                del q, k, v, o, Mx, ref, m_ref
                torch.cuda.empty_cache()


# ---------------------------------------------------------------------------

def table():
    lines = [f"{'tutorial':8s} {'config':24s} {'size':28s} {'tk':>6s} {'triton':>6s} {'tk/tri':>6s} "
             f"{'anchor':>6s}  notes"]
    for r in rows:
        def tf(key):
            v = r.get(key)
            return v["TFLOPs"] if isinstance(v, dict) and "TFLOPs" in v else None
        tk, tri, anc = tf("tk"), tf("triton"), tf("anchor")
        notes = []
        for key in ("tk", "tk_best", "triton", "triton_device_desc"):
            v = r.get(key)
            if isinstance(v, dict) and "error" in v:
                notes.append(f"{key}: {v['error'].splitlines()[0][:90]}")
            elif isinstance(v, dict) and not v.get("ok", True):
                notes.append(f"{key} WRONG relerr {v.get('relerr'):.1e}")
        if tf("tk_best") is not None:
            notes.append(f"tk_best {tf('tk_best'):.0f}")
        if tf("triton_device_desc") is not None:
            notes.append(f"triton(device desc) {tf('triton_device_desc'):.0f}")
        if r.get("tk_warning"):
            notes.append("tk: " + r["tk_warning"].splitlines()[0].split("warning: ")[-1][:60])
        f = lambda x: f"{x:6.0f}" if x is not None else f"{'-':>6s}"
        ratio = f"{tk / tri:6.2f}" if tk and tri else f"{'-':>6s}"
        lines.append(f"{r['tutorial']:8s} {r['config']:24s} {r['size']:28s} {f(tk)} {f(tri)} {ratio} "
                     f"{f(anc)}  {'; '.join(notes)}")
    return "\n".join(lines)


def main():
    kdir, out_dir = sys.argv[1], sys.argv[2]
    quick = "--quick" in sys.argv
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
    budget = float(sys.argv[sys.argv.index("--budget") + 1]) if "--budget" in sys.argv else 200.0
    if "--small" in sys.argv:
        global MATMUL_SIZES, ATTENTION_SHAPES
        MATMUL_SIZES, ATTENTION_SHAPES = SMALL_MATMUL_SIZES, SMALL_ATTENTION_SHAPES
    use_torch_context()
    import triton
    import triton_tutorials as tt
    tbp = tt.load_block_ptr_form()
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    log(f"{torch.cuda.get_device_name()}, {sms} SMs, torch {torch.__version__}, triton {triton.__version__}, "
        f"{len(glob.glob(os.path.join(kdir, '*.cubin')))} cubins")
    errors = {}
    for section, fn in (("matmul", lambda: matmul_rows(kdir, tt, only)),
                        ("attention", lambda: attention_rows(kdir, tt, tbp, only, quick, budget))):
        try:
            fn()
        except Exception as e:
            errors[section] = f"{type(e).__name__}: {e}"[:1500]
            traceback.print_exc()
    result = {"gpu": torch.cuda.get_device_name(), "sms": sms, "num_sms_built": NUM_SMS,
              "torch": torch.__version__, "triton": triton.__version__,
              "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
              "seconds": time.time() - START, "rows": rows, "errors": errors}
    os.makedirs(out_dir, exist_ok=True)
    json.dump(result, open(os.path.join(out_dir, "tutorials.json"), "w"), indent=1)
    bad = [r for r in rows for k in ("tk", "triton") if isinstance(r.get(k), dict) and not r[k].get("ok", False)]
    print(table(), flush=True)
    print(f"{len(rows)} rows, {len(bad)} tk/Triton results failed or wrong, section errors: {errors or 'none'} "
          f"({time.time() - START:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
