#!/usr/bin/env python3
"""Compile-time benchmarks of the launch-time JIT next to Triton's, in one
run (docs/benchmarks.md): for add, softmax and matmul,
  cold   the first launch in a new process with an empty cache (compile),
  warm   the first launch in a new process whose cache has the kernel,
and the wall time of the first launch of an 8-config @autotune matmul
(compile all configs, time them, keep the fastest), tk vs @triton.autotune;
then, with a tkc on PATH, `tkc --timing` on the matmul row's kernel: where
its cold compile goes (stages and passes).
Each figure runs in a fresh child process; python imports are excluded.

    TK_LIBRARY=build/lib/libtkjit.so python3 bench/gpu/jit_times.py [--json out.json]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))

CONFIGS = [(128, 256, 64, 8, 3), (64, 256, 32, 4, 4), (128, 128, 32, 4, 4),
           (128, 64, 32, 4, 4), (64, 128, 32, 4, 4), (128, 32, 32, 4, 4),
           (64, 32, 32, 2, 5), (32, 64, 32, 2, 5)]  # BM, BN, BK, warps, stages

CHILD = r'''
import os, sys, time
sys.path.insert(0, os.path.join(%(root)r, "python"))
import torch
which, kernel = sys.argv[1], sys.argv[2]
CONFIGS = %(configs)r
dev = "cuda"
if kernel == "add":
    n = 1 << 20
    args = [torch.randn(n, device=dev), torch.randn(n, device=dev), torch.empty(n, device=dev)]
elif kernel == "softmax":
    x = torch.randn(4096, 781, device=dev); y = torch.empty_like(x)
else:
    M = N = K = 4096
    a = torch.randn(M, K, device=dev, dtype=torch.float16)
    b = torch.randn(K, N, device=dev, dtype=torch.float16)
    c = torch.empty(M, N, device=dev, dtype=torch.float16)
torch.cuda.synchronize()
if which == "tk":
    import tk
    ex = os.path.join(%(root)r, "examples")
    if kernel == "add":
        k = tk.jit(os.path.join(ex, "add.tk"), "add")
        run = lambda: k[(n // 1024,)](*args, n, BLOCK=1024)
    elif kernel == "softmax":
        k = tk.jit(os.path.join(ex, "softmax.tk"), "softmax")
        run = lambda: k[(4096,)](y, x, 781, 781, 781, BLOCK=1024)
    else:
        src = open(os.path.join(ex, "matmul.tk")).read()
        grid = lambda m: (tk.cdiv(M, m["BLOCK_M"]) * tk.cdiv(N, m["BLOCK_N"]),)
        margs = (a, b, c, M, N, K, K, 1, N, 1, N, 1)
        if kernel == "matmul":
            k = tk.kernel(src, "matmul")
            run = lambda: k[grid](*margs, BLOCK_M=128, BLOCK_N=128, BLOCK_K=32,
                                  GROUP_M=8, LEAKY=False, num_warps=4, num_stages=3)
        else:
            configs = ", ".join("Config(BLOCK_M=%%d, BLOCK_N=%%d, BLOCK_K=%%d, num_warps=%%d, num_stages=%%d)" %% c for c in CONFIGS)
            src = src.replace("@kernel", '@autotune(configs=[%%s], key=["M", "N", "K"])\n@kernel' %% configs, 1)
            k = tk.kernel(src, "matmul", quiet=True)
            run = lambda: k[grid](*margs, GROUP_M=8, LEAKY=False)
else:
    import triton, triton.language as tl
    @triton.jit
    def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
        o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        m = o < n
        tl.store(out_ptr + o, tl.load(x_ptr + o, mask=m) + tl.load(y_ptr + o, mask=m), mask=m)
    @triton.jit
    def softmax_kernel(out_ptr, in_ptr, in_stride, out_stride, n_cols, BLOCK: tl.constexpr):
        row = tl.program_id(0)
        cols = tl.arange(0, BLOCK)
        mask = cols < n_cols
        v = tl.load(in_ptr + row * in_stride + cols, mask=mask, other=-float("inf"))
        v = v - tl.max(v, axis=0)
        num = tl.exp(v)
        tl.store(out_ptr + row * out_stride + cols, num / tl.sum(num, axis=0), mask=mask)
    @triton.jit
    def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                      GROUP_M: tl.constexpr):
        pid = tl.program_id(0)
        npm = tl.cdiv(M, BLOCK_M); npn = tl.cdiv(N, BLOCK_N)
        g = GROUP_M * npn; gid = pid // g; first = gid * GROUP_M
        gs = min(npm - first, GROUP_M)
        pm = first + (pid %% g) %% gs; pn = (pid %% g) // gs
        om = pm * BLOCK_M + tl.arange(0, BLOCK_M); on = pn * BLOCK_N + tl.arange(0, BLOCK_N)
        ok = tl.arange(0, BLOCK_K)
        ap = a_ptr + om[:, None] * sam + ok[None, :] * sak
        bp = b_ptr + ok[:, None] * sbk + on[None, :] * sbn
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for kk in range(0, tl.cdiv(K, BLOCK_K)):
            rem = K - kk * BLOCK_K
            av = tl.load(ap, mask=(om[:, None] < M) & (ok[None, :] < rem), other=0.0)
            bv = tl.load(bp, mask=(ok[:, None] < rem) & (on[None, :] < N), other=0.0)
            acc = tl.dot(av, bv, acc)
            ap += BLOCK_K * sak; bp += BLOCK_K * sbk
        cp = c_ptr + om[:, None] * scm + on[None, :] * scn
        tl.store(cp, acc.to(tl.float16), mask=(om[:, None] < M) & (on[None, :] < N))
    if kernel == "add":
        run = lambda: add_kernel[(n // 1024,)](*args, n, BLOCK=1024)
    elif kernel == "softmax":
        run = lambda: softmax_kernel[(4096,)](y, x, 781, 781, 781, BLOCK=1024)
    else:
        grid = lambda m: (triton.cdiv(M, m["BLOCK_M"]) * triton.cdiv(N, m["BLOCK_N"]),)
        margs = (a, b, c, M, N, K, K, 1, N, 1, N, 1)
        if kernel == "matmul":
            run = lambda: matmul_kernel[grid](*margs, BLOCK_M=128, BLOCK_N=128, BLOCK_K=32,
                                              GROUP_M=8, num_warps=4, num_stages=3)
        else:
            tuned = triton.autotune(configs=[
                triton.Config({"BLOCK_M": c[0], "BLOCK_N": c[1], "BLOCK_K": c[2]},
                              num_warps=c[3], num_stages=c[4]) for c in CONFIGS],
                key=["M", "N", "K"])(matmul_kernel)
            run = lambda: tuned[grid](*margs, GROUP_M=8)
start = time.perf_counter()
run()
torch.cuda.synchronize()
print("%%.6f" %% (time.perf_counter() - start))
'''


def measure(which, kernel, cache):
    env = dict(os.environ, TK_CACHE_DIR=cache, TRITON_CACHE_DIR=cache,
               TK_AUTOTUNE_QUIET="1")
    script = CHILD % {"root": ROOT, "configs": CONFIGS}
    # Triton's @jit reads its function's source from the file, so the child
    # is a file, not `python -c`.
    path = os.path.join(cache, "jit_times_child.py")
    with open(path, "w") as f:
        f.write(script)
    done = subprocess.run([sys.executable, path, which, kernel],
                          env=env, capture_output=True, text=True)
    if done.returncode != 0:
        print("%s %s failed:\n%s" % (which, kernel, done.stderr[-2000:]),
              file=sys.stderr)
        return None
    return float(done.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--json")
    options = parser.parse_args()
    results = []
    for kernel in ("add", "softmax", "matmul", "matmul-autotune"):
        row = {"kernel": kernel}
        for which in ("tk", "triton"):
            with tempfile.TemporaryDirectory() as cache:
                row[which + "_cold_s"] = measure(which, kernel, cache)
                if kernel != "matmul-autotune":
                    row[which + "_warm_s"] = measure(which, kernel, cache)
        results.append(row)
        print(json.dumps(row))
    tkc_breakdown()
    for row in results:
        for what in ("cold", "warm"):
            tk_s, tr_s = row.get("tk_%s_s" % what), row.get("triton_%s_s" % what)
            if tk_s and tr_s:
                print("%-16s %s: tk %.3f s, Triton %.3f s, ratio %.3f" %
                      (row["kernel"], what, tk_s, tr_s, tk_s / tr_s))
    if options.json:
        with open(options.json, "w") as file:
            json.dump(results, file, indent=1)


# The matmul of the "matmul" row, specialized as the JIT specializes that
# call (4096^3 row-major f16: aligned pointers, unit inner strides, the rest
# multiples of 16).
TKC_MATMUL = ["-D", "BLOCK_M=128", "-D", "BLOCK_N=128", "-D", "BLOCK_K=32",
              "-D", "GROUP_M=8", "-D", "LEAKY=False", "--num-warps", "4",
              "--num-stages", "3", "--assume-aligned-pointers"] + sum(
    (["--assume", a] for a in ("M=16", "N=16", "K=16", "stride_am=16",
                               "stride_ak=1", "stride_bk=16", "stride_bn=1",
                               "stride_cm=16", "stride_cn=1")), [])


def tkc_breakdown():
    """Prints where tkc's cold compile of that matmul goes (tkc --timing),
    when a tkc is on PATH (gpu-check puts the static one there)."""
    tkc = shutil.which("tkc")
    if not tkc:
        return
    with tempfile.TemporaryDirectory() as out:
        done = subprocess.run(
            [tkc, os.path.join(ROOT, "examples", "matmul.tk")] + TKC_MATMUL +
            ["--arch", "sm_90a", "--timing", "-o",
             os.path.join(out, "matmul.cubin")],
            capture_output=True, text=True)
    if done.returncode != 0:
        print("tkc --timing failed:\n" + done.stderr[-2000:], file=sys.stderr)
        return
    print("tkc --timing, the matmul row's kernel:")
    print(done.stderr)


if __name__ == "__main__":
    main()
