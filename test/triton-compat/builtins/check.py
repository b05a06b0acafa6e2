#!/usr/bin/env python3
"""Runs the ports in ports.tk (Triton's tests of sort, flip, join, split,
interleave, cat, histogram, umulhi, xor_sum, the Philox generators and
block pointers) in the interpreter against numpy; with --ptx each is also
compiled to cubins for sm_90a and sm_80 (tkc runs ptxas), with --gpu run
on the GPU (tk-run --gpu).

    check.py [--bin build/bin] [--ptx] [--gpu]

Prints 'ok NAME' or 'FAIL NAME: why' per case; exits 1 on a failure.
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import philox as PHILOX  # noqa: E402

rs = np.random.RandomState(17)


def cases():
    x = rs.randint(-1000, 1000, (8, 16)).astype(np.int32)
    for desc in (False, True):
        want = -np.sort(-x, axis=1) if desc else np.sort(x, axis=1)
        yield (f"sort descending={desc}", "sort_kernel", [1],
               dict(N=8, M=16, descending=desc), dict(X=x, Z=np.zeros_like(x)),
               dict(Z=want))
    f = rs.randn(4, 32).astype(np.float32)
    yield ("flip", "flip_kernel", [1], dict(N=4, M=32),
           dict(X=f, Z=np.zeros_like(f)), dict(Z=f[:, ::-1]))
    a, b = rs.randn(64).astype(np.float32), rs.randn(64).astype(np.float32)
    yield ("join", "join_kernel", [1], dict(N=64),
           dict(X=a, Y=b, Z=np.zeros((64, 2), np.float32)),
           dict(Z=np.stack([a, b], -1)))
    yield ("interleave", "interleave_kernel", [1], dict(N=64),
           dict(X=a, Y=b, Z=np.zeros(128, np.float32)),
           dict(Z=np.stack([a, b], -1).ravel()))
    yield ("split", "split_kernel", [1], dict(N=64),
           dict(X=a, Z1=np.zeros(32, np.float32), Z2=np.zeros(32, np.float32)),
           dict(Z1=a[0::2], Z2=a[1::2]))
    yield ("cat", "cat_kernel", [1], dict(N=64),
           dict(X=a, Y=b, Z=np.zeros(128, np.float32)),
           dict(Z=np.concatenate([a, b])))
    h = rs.randint(0, 32, 2048).astype(np.int32)
    yield ("histogram", "histogram_kernel", [1], dict(M=2048, N=32),
           dict(x_ptr=h, z_ptr=np.zeros(32, np.int32)),
           dict(z_ptr=np.histogram(h, bins=32, range=(0, 32))[0].astype(np.int32)))
    u = rs.randint(0, 2**31, 128).astype(np.int32)
    v = rs.randint(0, 2**31, 128).astype(np.int32)
    yield ("umulhi", "umulhi_kernel", [1], dict(N=128),
           dict(X=u, Y=v, Z=np.zeros(128, np.int32)),
           dict(Z=((u.astype(np.int64) * v.astype(np.int64)) >> 32).astype(np.int32)))
    yield ("xor_sum", "xor_sum_kernel", [1], dict(BLOCK=128),
           dict(X=u, Z=np.zeros(1, np.int32)),
           dict(Z=np.array([np.bitwise_xor.reduce(u)], np.int32)))
    n, seed = 1000, 123
    offs = np.arange(n, dtype=np.int32)
    ints = PHILOX.randint4x(seed, offs)[0]
    yield ("randint", "randint_kernel", [4], dict(BLOCK=256),
           dict(X=np.zeros(n, np.uint32), N=n, seed=seed), dict(X=ints))
    yield ("rand", "rand_kernel", [4], dict(BLOCK=256),
           dict(X=np.zeros(n, np.float32), N=n, seed=seed),
           dict(X=PHILOX.uniform(ints)))
    i1, i2, _, _ = PHILOX.randint4x(seed, offs)
    yield ("randn", "randn_kernel", [4], dict(BLOCK=256),
           dict(X=np.zeros(n, np.float32), N=n, seed=seed),
           dict(X=PHILOX.normal(PHILOX.uniform(i1), PHILOX.uniform(i2))), 1e-4)
    data = rs.randn(1000).astype(np.float32)
    for padding in ("zero", "nan"):
        want = data.copy()
        want[500:] = 0 if padding == "zero" else np.nan
        yield (f"block_copy padding={padding}", "block_copy_kernel", [8],
               dict(BLOCK_SIZE=128, padding_option=f'"{padding}"'),
               dict(a_ptr=data, b_ptr=np.zeros(1000, np.float32), N=1000),
               dict(b_ptr=want))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default="",
                        help="folder of tk-run and tkc (default: PATH)")
    parser.add_argument("--ptx", action="store_true")
    parser.add_argument("--gpu", action="store_true")
    opts = parser.parse_args()
    tk_run = [os.path.join(opts.bin, "tk-run")] + (["--gpu"] if opts.gpu else [])
    source = os.path.join(HERE, "ports.tk")
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for case in cases():
            name, kernel, grid, defines, args, expect = case[:6]
            tol = case[6] if len(case) > 6 else 0
            defs = []
            for key, value in defines.items():
                defs += ["-D", f"{key}={value}"]
            cmd = tk_run + [source, "-k", kernel, "--grid",
                            ",".join(map(str, grid))] + defs
            for key, value in args.items():
                if isinstance(value, np.ndarray):
                    path = os.path.join(tmp, f"{key}.npy")
                    np.save(path, value)
                    cmd += ["--arg", f"{key}={path}"]
                else:
                    cmd += ["--arg", f"{key}={value}"]
            for key in expect:
                cmd += ["--write", f"{key}={os.path.join(tmp, key + '.out.npy')}"]
            run = subprocess.run(cmd, capture_output=True, text=True)
            why = None
            if run.returncode != 0:
                why = run.stderr.strip()
            else:
                for key, want in expect.items():
                    got = np.load(os.path.join(tmp, key + ".out.npy"))
                    ok = np.allclose(got, want, rtol=tol, atol=tol, equal_nan=True) \
                        if tol else np.array_equal(got, want, equal_nan=got.dtype.kind == "f")
                    if got.shape != want.shape or not ok:
                        why = f"{key}: got {got.ravel()[:8]} want {want.ravel()[:8]}"
            if why is None and opts.ptx:
                for arch in ("sm_90a", "sm_80"):
                    out = os.path.join(tmp, "k.cubin")
                    ptx = subprocess.run(
                        [os.path.join(opts.bin, "tkc"), source, "-k", kernel,
                         "--arch", arch, "-o", out] + defs,
                        capture_output=True, text=True)
                    if ptx.returncode != 0:
                        why = f"{arch}: {ptx.stderr.strip()}"
                        break
            print(f"ok {name}" if why is None else f"FAIL {name}: {why}")
            failed += why is not None
    sys.exit(1 if failed else 0)


main()
