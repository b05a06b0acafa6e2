#!/usr/bin/env python3
"""attention_sanitize.py -- tk's attention kernels once each on a small
shape, for compute-sanitizer (racecheck, synccheck).

Usage: compute-sanitizer --tool racecheck python3 attention_sanitize.py FWD_DIR BWD_DIR

FWD_DIR and BWD_DIR are what bench/gpu/build_attention_kernels.sh and
build_attention_bwd_kernels.sh compiled. Every variant runs once on
Z=1, H=2, N=256 (N=250 for the variants without the N_CTX
specialization, forward and backward). The references are plain float32
torch matrix products (cuBLAS), never SDPA: its memory-efficient backward
kernel reports races of its own under racecheck, and a reference computed
inside the sanitizer should be trustworthy. Prints one line per kernel
with its relative error (<= 1e-2 passes) and exits 1 if any is wrong, so
the sanitizer's verdict and the results come from the same run.
"""
import glob
import math
import os
import sys

import torch

from attention_bwd_gpu import Kernel as BwdKernel, run_dkdv, run_dq, run_pre
from attention_gpu import Kernel as FwdKernel
from cubin import use_torch_context

LOG2E = 1.0 / math.log(2.0)


def reference(q, k, v, do, causal, sm_scale):
    """O, the base-2 log-sum-exp and dQ, dK, dV in float32 by autograd over
    explicit matrix products."""
    qf, kf, vf = (t.float().requires_grad_() for t in (q, k, v))
    s = (qf @ kf.transpose(-1, -2)) * sm_scale
    if causal:
        n = q.shape[2]
        s = s.masked_fill(torch.ones(n, n, device="cuda", dtype=torch.bool).triu(1), float("-inf"))
    lse = torch.logsumexp(s, dim=-1)
    o = torch.softmax(s, dim=-1) @ vf
    o.backward(do.float())
    return o.detach(), (lse * LOG2E).detach(), qf.grad, kf.grad, vf.grad


def rel(got, ref):
    return ((got.float() - ref).norm() / ref.norm()).item()


def main():
    fwd_dir, bwd_dir = sys.argv[1], sys.argv[2]
    use_torch_context()
    torch.manual_seed(0)
    failed = 0

    def report(name, errs):
        nonlocal failed
        good = all(math.isfinite(e) and e <= 1e-2 for e in errs)
        failed += not good
        print(f"{name:32s} " + " ".join(f"{e:.2e}" for e in errs) + (" ok" if good else " FAIL"))

    for path in sorted(glob.glob(os.path.join(fwd_dir, "*.cubin"))):
        kern = FwdKernel(path)
        Z, H, N = 1, 2, (250 if kern.any_n else 256)
        q, k, v = (torch.randn((Z, H, N, kern.d), device="cuda", dtype=kern.dtype) for _ in range(3))
        o = torch.full_like(q, float("nan"))
        m = torch.full((Z, H, N), float("nan"), device="cuda", dtype=torch.float32)
        sm_scale = 1.0 / math.sqrt(kern.d)
        kern.launch(q, k, v, o, m, sm_scale)
        torch.cuda.synchronize()
        o_ref, m_ref, _, _, _ = reference(q, k, v, torch.zeros_like(q), kern.causal, sm_scale)
        report(kern.name, [rel(o, o_ref), rel(m, m_ref)])

    kernels = {os.path.basename(p)[:-6]: BwdKernel(p) for p in sorted(glob.glob(os.path.join(bwd_dir, "*.cubin")))}
    for name, kern in kernels.items():
        if "bwd_pre" in name:
            continue
        # The bf16_ variants' preprocess is bf16_bwd_pre_dD; the _anyn
        # ones' is bwd_pre_dD_anyn, and they run on an N the others do
        # not admit.
        suffix = "_anyn" if kern.any_n else ""
        pre = kernels[name.split("bwd_")[0] + f"bwd_pre_d{kern.d}{suffix}"]
        Z, H, N = 1, 2, (250 if kern.any_n else 256)
        q, k, v, do = (torch.randn((Z, H, N, kern.d), device="cuda", dtype=kern.dtype) for _ in range(4))
        sm_scale = 1.0 / math.sqrt(kern.d)
        o_ref, m_ref, dq_ref, dk_ref, dv_ref = reference(q, k, v, do, kern.causal, sm_scale)
        o = o_ref.to(kern.dtype)
        delta = torch.full((Z, H, N), float("nan"), device="cuda", dtype=torch.float32)
        run_pre(pre, o, do, delta)
        m = m_ref.contiguous()
        if "bwd_dkdv" in name:
            dk, dv = torch.full_like(k, float("nan")), torch.full_like(v, float("nan"))
            run_dkdv(kern, q, k, v, do, dk, dv, m, delta, sm_scale)
            torch.cuda.synchronize()
            report(name, [rel(dk, dk_ref), rel(dv, dv_ref)])
        else:
            dq = torch.full_like(q, float("nan"))
            run_dq(kern, q, k, v, do, dq, m, delta, sm_scale)
            torch.cuda.synchronize()
            report(name, [rel(dq, dq_ref)])
    print("sanitize harness:", "all ok" if not failed else f"{failed} FAILED")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
