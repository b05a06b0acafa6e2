#!/usr/bin/env python3
"""attention_bwd_gpu.py -- checks and times tk's attention backward cubins.

Usage: attention_bwd_gpu.py KERNEL_DIR OUT_DIR [--quick] [--long]

KERNEL_DIR holds the variants bench/gpu/build_attention_bwd_kernels.sh
compiled (NAME.cubin + NAME.json): bwd_pre_dD (delta = rowsum(dO * O)),
bwd_dkdv_dD_{full,causal}_* and bwd_dq_dD_{full,causal}_* (the pointer
kernels and the _tma ones, which take Z as well; BLOCK_M and BLOCK_N come
from each variant's metadata). The cubins are
loaded with the CUDA driver API (ctypes on libcuda, inside PyTorch's
primary context, so torch tensors are the kernels' buffers) and launched as
their metadata says: num_warps * 32 threads, shared_bytes of dynamic shared
memory; grid (cdiv(N, BLOCK_M), Z*H) for the preprocess and dQ,
(cdiv(N, BLOCK_N), Z*H) for dK/dV.

The forward's outputs the backward reads, O (f16) and the base-2
log-sum-exp M (as attention_fwd.tk writes it), come from torch in float32,
so that this script checks the backward alone.

Correctness: fresh f16 Q, K, V, dO of shape (Z, H, N, D), outputs poisoned
with NaN; dQ, dK, dV against torch autograd through
torch.nn.functional.scaled_dot_product_attention on the float32 upcasts,
||g - ref|| / ||ref|| <= 1e-2 for each. Shapes: N of 1024 and 1008 (not a
multiple of the blocks) at Z*H of 1 and 128, N = 4096 at Z*H = 128 and
N = 16384 at Z*H = 1; the variants compiled without the N_CTX=16
specialization (_anyn, with their own preprocess bwd_pre_dD_anyn) also
N = 1000 and 4095, which the others do not admit. Every dK/dV and dQ
variant is checked.

bf16: the bf16_ variants (-D DTYPE=bf16), where they were built, get the
same checks and timings on bf16 inputs (no torch_flash row).

Speed: at Z=4, H=32, N=4096, each specialized dK/dV and dQ variant that
passed its checks alone, then the whole backward (preprocess + the faster
dK/dV + the faster dQ, one after the other); CUDA events, the L2 flushed
before each run (as triton.testing.do_bench), the median of 20. FLOPs
2.5 * 4*Z*H*N^2*D, halved for causal (the backward's dK/dV and dQ together do 2.5 times the
forward's matrix products). Side by side, PyTorch's flash backward (f16
autograd of scaled_dot_product_attention with the flash backend), where it
is available. With --long, the whole backward (the same kernels) and
PyTorch's again at N = 16384. Writes OUT_DIR/attention_bwd.json and prints
a table.
"""
import glob
import json
import math
import os
import sys

import torch
import torch.nn.functional as F

from cubin import Cubin, time_ms, use_torch_context

LOG2E = 1.0 / math.log(2.0)


class Kernel(Cubin):
    def __init__(self, path):
        super().__init__(path)
        c = self.meta["constexprs"]
        self.d = int(c["HEAD_DIM"])
        self.bm = int(c["BLOCK_M"])
        self.bn = int(c.get("BLOCK_N", 0))
        self.causal = bool(c.get("CAUSAL", False))
        self.dtype = torch.bfloat16 if self.args[0]["type"] == "*bf16" else torch.float16
        # Compiled for N_CTX % 16 == 0 (Triton's divisibility hint) or not.
        self.any_n = not any(a["name"] == "N_CTX" and a.get("spec") == "div16" for a in self.args)

    def sizes(self, Z, H, N):
        """The trailing size arguments: the _tma kernels take Z too."""
        return ([Z] if any(a["name"] == "Z" for a in self.args) else []) + [H, N]

    def launch(self, grid_x, grid_y, values):
        """values: tensors, floats and ints in argument order."""
        self.launch_values((grid_x, grid_y, 1), values)


def strides(*tensors):
    out = []
    for t in tensors:
        out += list(t.stride())
    return out


def run_pre(kern, o, do, delta):
    Z, H, N, _ = o.shape
    kern.launch(math.ceil(N / kern.bm), Z * H, [o, do, delta] + strides(o, do) + [H, N])


def run_dkdv(kern, q, k, v, do, dk, dv, m, delta, sm_scale):
    Z, H, N, _ = q.shape
    kern.launch(math.ceil(N / kern.bn), Z * H,
                [q, k, v, do, dk, dv, m, delta, sm_scale] + strides(q, k, v, do, dk, dv) + kern.sizes(Z, H, N))


def run_dq(kern, q, k, v, do, dq, m, delta, sm_scale):
    Z, H, N, _ = q.shape
    kern.launch(math.ceil(N / kern.bm), Z * H,
                [q, k, v, do, dq, m, delta, sm_scale] + strides(q, k, v, do, dq) + kern.sizes(Z, H, N))


def nan_like(t, dtype=None):
    return torch.full_like(t, float("nan"), dtype=dtype)


class Case:
    """Inputs of one shape, the forward's O and M, and the delta the
    preprocess kernel wrote."""

    def __init__(self, pre, Z, H, N, D, causal):
        self.q, self.k, self.v, self.do = (torch.randn((Z, H, N, D), device="cuda", dtype=pre.dtype)
                                           for _ in range(4))
        self.causal = causal
        self.sm_scale = 1.0 / math.sqrt(D)
        # M and O in float32, a few heads at a time (the scores of all
        # heads at N = 16384 would be 137 GB).
        self.m = torch.empty((Z, H, N), device="cuda", dtype=torch.float32)
        self.o = torch.empty_like(self.q)
        heads = max(1, (1 << 31) // (N * N * 4))
        q, k, v = (t.reshape(Z * H, N, D) for t in (self.q, self.k, self.v))
        m, o = self.m.view(Z * H, N), self.o.view(Z * H, N, D)
        for h in range(0, Z * H, heads):
            s = (q[h:h + heads].float() @ k[h:h + heads].float().transpose(-1, -2)) * self.sm_scale
            if causal:
                s = s.masked_fill(torch.ones(N, N, device="cuda", dtype=torch.bool).triu(1), float("-inf"))
            m[h:h + heads] = torch.logsumexp(s, dim=-1) * LOG2E
            o[h:h + heads] = (torch.softmax(s, dim=-1) @ v[h:h + heads].float()).to(pre.dtype)
            del s
        self.delta = torch.full((Z, H, N), float("nan"), device="cuda", dtype=torch.float32)
        run_pre(pre, self.o, self.do, self.delta)
        self.dq, self.dk, self.dv = nan_like(self.q), nan_like(self.k), nan_like(self.v)

    def reference(self):
        qf, kf, vf = (t.float().requires_grad_() for t in (self.q, self.k, self.v))
        out = F.scaled_dot_product_attention(qf, kf, vf, is_causal=self.causal, scale=self.sm_scale)
        out.backward(self.do.float())
        return qf.grad, kf.grad, vf.grad

    def dkdv(self, kern):
        run_dkdv(kern, self.q, self.k, self.v, self.do, self.dk, self.dv, self.m, self.delta, self.sm_scale)

    def dq_(self, kern):
        run_dq(kern, self.q, self.k, self.v, self.do, self.dq, self.m, self.delta, self.sm_scale)


def rel_err(got, ref):
    return ((got.float() - ref).norm() / ref.norm()).item()


def ok(err):
    return math.isfinite(err) and err <= 1e-2


# CUDA events, the L2 flushed, the median of 20 after 3 warm-up runs.
BENCH = dict(warmup=3, reps=20)


def torch_flash_backward_ms(Z, H, N, D, causal):
    """PyTorch's flash backward alone (autograd of SDPA in f16), or None."""
    try:
        from torch.nn.attention import SDPBackend, sdpa_kernel
        q, k, v = (torch.randn((Z, H, N, D), device="cuda", dtype=torch.float16, requires_grad=True)
                   for _ in range(3))
        do = torch.randn((Z, H, N, D), device="cuda", dtype=torch.float16)
        with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
            out = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
            return time_ms(lambda: torch.autograd.grad(out, (q, k, v), do, retain_graph=True), **BENCH)
    except Exception as e:  # no flash backend for this build or shape
        print(f"torch_flash backward unavailable: {e}")
        return None


def backward_flops(Z, H, N, d, causal):
    """2.5 times the forward's 4*Z*H*N^2*D, halved for causal."""
    return 2.5 * 4.0 * Z * H * N * N * d * (0.5 if causal else 1.0)


def record_torch_flash(row, key, Z, H, N, d, causal, label):
    """PyTorch's flash backward at (Z, H, N) into row[key], printed after
    `label`, where the backend is available."""
    ref_ms = torch_flash_backward_ms(Z, H, N, d, causal)
    if ref_ms is not None:
        tflops = backward_flops(Z, H, N, d, causal) / (ref_ms * 1e-3) / 1e12
        row[key] = {"ms": ref_ms, "tflops": tflops}
        print(f"torch_flash backward {label}: {ref_ms:.3f} ms {tflops:.1f} TFLOP/s")
    torch.cuda.empty_cache()


def run_config(kernels, d, causal, quick, results, prefix="", long=False):
    """Checks and times the variants of one (HEAD_DIM, causal) and dtype
    (prefix "" for f16, "bf16_" for bf16); returns the number of failed
    checks."""
    failed = 0
    pre = kernels.get(f"{prefix}bwd_pre_d{d}")
    pre_any_n = kernels.get(f"{prefix}bwd_pre_d{d}_anyn")
    kind = "causal" if causal else "full"
    dkdvs = [kern for name, kern in kernels.items()
             if name.startswith(f"{prefix}bwd_dkdv_d{d}_{kind}_")]
    dqs = [kern for name, kern in kernels.items() if name.startswith(f"{prefix}bwd_dq_d{d}_{kind}_")]
    if pre is None or not dkdvs or not dqs:
        print(f"{prefix}D={d} {kind}: variants missing, skipped")
        return 1
    row = {"D": d, "causal": causal, "dtype": str(pre.dtype).replace("torch.", ""),
           "checks": [], "kernels": {}}
    shapes = [(1, 1, 1024), (1, 1, 1008), (2, 64, 1024), (2, 64, 1008), (4, 32, 4096), (1, 1, 16384)]
    if pre_any_n is not None:
        shapes += [(1, 1, 1000), (2, 64, 1000), (2, 4, 4095)]
    for Z, H, N in shapes:
        # N not a multiple of 16: only the _anyn variants admit it.
        admits = (lambda kern: True) if N % 16 == 0 else (lambda kern: kern.any_n)
        case = Case(pre if N % 16 == 0 else pre_any_n, Z, H, N, d, causal)
        dq_ref, dk_ref, dv_ref = case.reference()
        for kern in filter(admits, dkdvs):
            case.dk.fill_(float("nan"))
            case.dv.fill_(float("nan"))
            case.dkdv(kern)
            torch.cuda.synchronize()
            e_k, e_v = rel_err(case.dk, dk_ref), rel_err(case.dv, dv_ref)
            good = ok(e_k) and ok(e_v)
            failed += not good
            row["checks"].append({"kernel": kern.name, "Z": Z, "H": H, "N": N,
                                  "dk_rel_err": e_k, "dv_rel_err": e_v, "ok": good})
            print(f"{kern.name:26s} Z={Z} H={H} N={N}: dk {e_k:.2e} dv {e_v:.2e} "
                  f"{'ok' if good else 'FAIL'}")
        for kern in filter(admits, dqs):
            case.dq.fill_(float("nan"))
            case.dq_(kern)
            torch.cuda.synchronize()
            e_q = rel_err(case.dq, dq_ref)
            failed += not ok(e_q)
            row["checks"].append({"kernel": kern.name, "Z": Z, "H": H, "N": N,
                                  "dq_rel_err": e_q, "ok": ok(e_q)})
            print(f"{kern.name:26s} Z={Z} H={H} N={N}: dq {e_q:.2e} {'ok' if ok(e_q) else 'FAIL'}")
        del case, dq_ref, dk_ref, dv_ref
        torch.cuda.empty_cache()

    # Speed at the benchmark shape, of the specialized variants that passed.
    failing = {c["kernel"] for c in row["checks"] if not c["ok"]}
    dkdvs = [kern for kern in dkdvs if kern.name not in failing and not kern.any_n]
    dqs = [kern for kern in dqs if kern.name not in failing and not kern.any_n]
    if not dkdvs or not dqs:
        print(f"D={d} {kind}: no passing dK/dV or dQ variant, not timed")
        results.append(row)
        return failed
    Z, H, N = 4, 32, 4096
    case = Case(pre, Z, H, N, d, causal)
    flops = backward_flops(Z, H, N, d, causal)
    for kern in dkdvs:
        row["kernels"][kern.name] = {"ms": time_ms(lambda: case.dkdv(kern), **BENCH)}
    for kern in dqs:
        row["kernels"][kern.name] = {"ms": time_ms(lambda: case.dq_(kern), **BENCH)}
    pre_ms = time_ms(lambda: run_pre(pre, case.o, case.do, case.delta), **BENCH)
    row["kernels"][pre.name] = {"ms": pre_ms}
    best_dkdv = min(dkdvs, key=lambda kern: row["kernels"][kern.name]["ms"])
    best_dq = min(dqs, key=lambda kern: row["kernels"][kern.name]["ms"])

    def backward():
        run_pre(pre, case.o, case.do, case.delta)
        case.dkdv(best_dkdv)
        case.dq_(best_dq)

    ms = time_ms(backward, **BENCH)
    row["backward"] = {"Z": Z, "H": H, "N": N, "preprocess": pre.name, "dkdv": best_dkdv.name,
                       "dq": best_dq.name, "ms": ms, "tflops": flops / (ms * 1e-3) / 1e12}
    for name, t in row["kernels"].items():
        print(f"{name:26s} Z={Z} H={H} N={N}: {t['ms']:.3f} ms")
    print(f"{prefix}backward D={d} {kind:6s} ({pre.name} + {best_dkdv.name} + {best_dq.name}): "
          f"{ms:.3f} ms {row['backward']['tflops']:.1f} TFLOP/s")
    del case
    torch.cuda.empty_cache()
    if not quick and not prefix:
        record_torch_flash(row, "torch_flash_backward", Z, H, N, d, causal, f"D={d} {kind:6s}")
    if long:
        # The same kernels (the fastest at N = 4096) at N = 16384.
        N = 16384
        case = Case(pre, Z, H, N, d, causal)
        flops = backward_flops(Z, H, N, d, causal)
        ms = time_ms(backward, **BENCH)
        row["backward_N16384"] = {"Z": Z, "H": H, "N": N, "ms": ms, "tflops": flops / (ms * 1e-3) / 1e12}
        print(f"{prefix}backward D={d} {kind:6s} N={N}: {ms:.3f} ms "
              f"{row['backward_N16384']['tflops']:.1f} TFLOP/s")
        del case
        torch.cuda.empty_cache()
        if not prefix:
            record_torch_flash(row, "torch_flash_backward_N16384", Z, H, N, d, causal,
                               f"D={d} {kind:6s} N={N}")
    results.append(row)
    return failed


def main():
    kdir, out = sys.argv[1], sys.argv[2]
    quick = "--quick" in sys.argv
    long = "--long" in sys.argv
    torch.manual_seed(0)
    use_torch_context()
    kernels = {os.path.basename(p)[:-len(".cubin")]: Kernel(p)
               for p in sorted(glob.glob(os.path.join(kdir, "*bwd_*.cubin")))}
    if not kernels:
        sys.exit(f"no bwd_*.cubin in {kdir}")
    results, failed = [], 0
    # bf16 (the bf16_ variants) where they were built.
    prefixes = [""] + (["bf16_"] if any(name.startswith("bf16_") for name in kernels) else [])
    for prefix in prefixes:
        for d in (64, 128):
            for causal in (False, True):
                try:
                    failed += run_config(kernels, d, causal, quick, results, prefix, long)
                except Exception as error:  # reported, and the others still run
                    failed += 1
                    print(f"{prefix}D={d} causal={causal}: FAIL ({error})")
                    results.append({"D": d, "causal": causal, "prefix": prefix, "error": str(error)})
                torch.cuda.empty_cache()
    os.makedirs(out, exist_ok=True)
    json.dump(results, open(os.path.join(out, "attention_bwd.json"), "w"), indent=1)
    print("FAILED" if failed else "all checks passed", f"({failed} failures)")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
