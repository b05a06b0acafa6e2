#!/usr/bin/env python3
"""attention_gpu.py -- checks and times tk's attention_fwd cubins on the GPU.

Usage: attention_gpu.py KERNEL_DIR OUT_DIR [--quick] [--only REGEX] [--long REGEX]

KERNEL_DIR holds the variants bench/gpu/build_attention_kernels.sh compiled
(NAME.cubin + NAME.json). The cubins are loaded with the CUDA driver API
(ctypes on libcuda, inside PyTorch's primary context, so torch tensors are
the kernels' buffers) and launched as their metadata says: grid
(cdiv(N, BLOCK_M), Z*H), num_warps * 32 threads, shared_bytes of dynamic
shared memory.

Correctness: fresh f16 or bf16 inputs (the kernel's pointer type) of shape
(Z, H, N, D), O poisoned with NaN, against
torch.nn.functional.scaled_dot_product_attention on the float32 upcast,
||out - ref|| / ||ref|| <= 1e-2; the log-sum-exp M (base 2) against
log2(sum(exp(S))) in float32. Shapes: N of 1024, 4096, 16384, and 1008
(not a multiple of the blocks; the N_CTX=16 specialization admits no
1000), Z*H of 1 to 128; the variant compiled without that specialization
(_anyn) also N = 1000 and 4095.

Speed: at Z=4, H=32, N=4096 (and 16384 unless --quick), CUDA events around
each launch, the L2 flushed before each (as triton.testing.do_bench), the
median; FLOPs 4*Z*H*N^2*D, halved for causal. Writes OUT_DIR/attention.json
and prints a table.
"""
import glob
import json
import math
import os
import re
import sys

import torch
import torch.nn.functional as F

from cubin import Cubin, time_ms, use_torch_context


class Kernel(Cubin):
    def __init__(self, path):
        super().__init__(path)
        c = self.meta["constexprs"]
        self.d, self.bm, self.causal = int(c["HEAD_DIM"]), int(c["BLOCK_M"]), bool(c["CAUSAL"])
        self.dtype = torch.bfloat16 if self.args[0]["type"] == "*bf16" else torch.float16
        # Compiled for N_CTX % 16 == 0 (Triton's divisibility hint) or not.
        self.any_n = not any(a["name"] == "N_CTX" and a.get("spec") == "div16" for a in self.args)

    def launch(self, q, k, v, o, m, sm_scale):
        Z, H, N, _ = q.shape
        values = [q, k, v, o, m, sm_scale]
        for t in (q, k, v, o):
            values += list(t.stride())
        # attn_fwd_tma (tensor descriptors of shape (Z, H, N, D)) takes Z too.
        sizes = [Z, H, N] if any(a["name"] == "Z" for a in self.args) else [H, N]
        self.launch_values((math.ceil(N / self.bm), Z * H, 1), values + sizes)


def inputs(Z, H, N, D, dtype):
    q, k, v = (torch.randn((Z, H, N, D), device="cuda", dtype=dtype) for _ in range(3))
    o = torch.full_like(q, float("nan"))
    m = torch.full((Z, H, N), float("nan"), device="cuda", dtype=torch.float32)
    return q, k, v, o, m


def check_case(kern, Z, H, N):
    q, k, v, o, m = inputs(Z, H, N, kern.d, kern.dtype)
    sm_scale = 1.0 / math.sqrt(kern.d)
    kern.launch(q, k, v, o, m, sm_scale)
    torch.cuda.synchronize()
    qf, kf, vf = q.float(), k.float(), v.float()
    ref = F.scaled_dot_product_attention(qf, kf, vf, is_causal=kern.causal, scale=sm_scale)
    s = (qf @ kf.transpose(-1, -2)) * sm_scale
    if kern.causal:
        s = s.masked_fill(torch.ones(N, N, device="cuda", dtype=torch.bool).triu(1), float("-inf"))
    m_ref = torch.logsumexp(s, dim=-1) / math.log(2.0)
    err = ((o.float() - ref).norm() / ref.norm()).item()
    m_err = ((m - m_ref).norm() / m_ref.norm()).item()
    ok = math.isfinite(err) and err <= 1e-2 and math.isfinite(m_err) and m_err <= 1e-3
    return ok, err, m_err


def time_case(kern, Z, H, N):
    q, k, v, o, m = inputs(Z, H, N, kern.d, kern.dtype)
    sm_scale = 1.0 / math.sqrt(kern.d)
    ms = time_ms(lambda: kern.launch(q, k, v, o, m, sm_scale), warmup=3, reps=20)
    flops = 4.0 * Z * H * N * N * kern.d * (0.5 if kern.causal else 1.0)
    return ms, flops / (ms * 1e-3) / 1e12


def main():
    kdir, out = sys.argv[1], sys.argv[2]
    quick = "--quick" in sys.argv
    # --only REGEX: the variants whose name matches; --long REGEX: with
    # --quick, N = 16384 still timed for those that match.
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else ""
    long = sys.argv[sys.argv.index("--long") + 1] if "--long" in sys.argv else None
    torch.manual_seed(0)
    use_torch_context()
    results, failed = [], 0
    for path in sorted(glob.glob(os.path.join(kdir, "attn_*.cubin"))):
        name = os.path.basename(path)[:-len(".cubin")]
        if not re.search(only, name):
            continue
        try:
            run_kernel(path, quick and not (long and re.search(long, name)), results)
        except Exception as error:  # reported, and the others still run
            failed += 1
            print(f"{os.path.basename(path)}: FAIL ({error})")
            results.append({"name": os.path.basename(path), "error": str(error)})
        failed += sum(not c["ok"] for c in results[-1].get("checks", []))
    os.makedirs(out, exist_ok=True)
    json.dump(results, open(os.path.join(out, "attention.json"), "w"), indent=1)
    print("FAILED" if failed else "all checks passed", f"({failed} failures)")
    sys.exit(1 if failed else 0)


def run_kernel(path, quick, results):
    kern = Kernel(path)
    row = {"name": kern.name, "checks": []}
    shapes = [(1, 1, 1024), (1, 1, 1008), (2, 64, 1008), (4, 32, 1024), (4, 32, 4096), (1, 1, 16384)]
    if kern.any_n:
        shapes += [(1, 1, 1000), (1, 128, 1000), (2, 4, 4095)]
    for Z, H, N in shapes:
        ok, err, m_err = check_case(kern, Z, H, N)
        row["checks"].append({"Z": Z, "H": H, "N": N, "rel_err": err, "m_rel_err": m_err, "ok": ok})
        print(f"{kern.name:28s} Z={Z} H={H} N={N}: err {err:.2e} m {m_err:.2e} {'ok' if ok else 'FAIL'}")
    for N in ([] if kern.any_n else [4096] + ([] if quick else [16384])):
        ms, tflops = time_case(kern, 4, 32, N)
        row[f"N{N}"] = {"ms": ms, "tflops": tflops}
        print(f"{kern.name:24s} Z=4 H=32 N={N}: {ms:.3f} ms {tflops:.1f} TFLOP/s")
    results.append(row)


if __name__ == "__main__":
    main()
