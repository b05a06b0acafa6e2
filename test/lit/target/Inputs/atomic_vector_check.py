#!/usr/bin/env python3
"""Float atomic adds in vector form (sm_90) on the GPU, against numpy.

Runs test/lit/target/atomic-vector-ptx.tk's kernel (f32 and f16 adds with a
mask and a used result, i32 adds) on 4096 elements, and a contended add
(256 programs adding into the same 1024 f32, f16 and bf16 words) with
`tk-run --gpu`, then compares: the uncontended results exactly, the
contended f32 sums against float64 (order of the adds aside), the f16
and bf16 counts exactly. Usage: atomic_vector_check.py --bin DIR (tk-run there).
Prints `ok NAME` or `FAIL NAME` per check; exits 1 on a failure.
"""
import argparse, os, subprocess, sys, tempfile
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
KERNEL = os.path.join(HERE, "..", "atomic-vector-ptx.tk")
CONTEND = '''@kernel
def contend(out: *f32, h: *f16, g: *bf16, x_ptr: *f32, BLOCK: constexpr):
    offs = arange(0, BLOCK)
    x = load(x_ptr + program_id(0) * BLOCK + offs)
    atomic_add(out + offs, x)
    atomic_add(h + offs, (x * 0.0 + 1.0).to(f16))
    atomic_add(g + offs, (x * 0.0 + 1.0).to(bf16))
'''


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    args = ap.parse_args()
    run = os.path.join(args.bin, "tk-run")
    d = tempfile.mkdtemp()
    rng = np.random.default_rng(3)
    x = rng.standard_normal(4096).astype(np.float32)
    y = rng.standard_normal(256 * 1024).astype(np.float32)
    np.save(f"{d}/x.npy", x)
    np.save(f"{d}/y.npy", y)
    with open(f"{d}/contend.tk", "w") as f:
        f.write(CONTEND)
    n = 3008
    subprocess.run([run, KERNEL, "-k", "scatter_add", "-D", "BLOCK=1024",
                    "--assume-aligned-pointers", "--assume", "n=16", "--gpu",
                    "--grid", "4", "--arg", "out=zeros:4096",
                    "--arg", "h=zeros:4096", "--arg", "bins=zeros:4096",
                    "--arg", f"x_ptr={d}/x.npy", "--arg", f"n={n}",
                    "--write", f"out={d}/out.npy", "--write", f"h={d}/h.npy",
                    "--write", f"x_ptr={d}/old.npy",
                    "--write", f"bins={d}/bins.npy"], check=True)
    subprocess.run([run, f"{d}/contend.tk", "-k", "contend", "-D", "BLOCK=1024",
                    "--assume-aligned-pointers", "--gpu", "--grid", "256",
                    "--arg", "out=zeros:1024", "--arg", "h=zeros:1024",
                    "--arg", "g=zeros:1024",
                    "--arg", f"x_ptr={d}/y.npy", "--write", f"out={d}/cout.npy",
                    "--write", f"h={d}/ch.npy", "--write", f"g={d}/cg.npy"],
                   check=True)
    below = np.arange(4096) < n
    x16 = x.astype(np.float16)
    twice = (x16.astype(np.float32) * 2).astype(np.float16)
    sums = y.reshape(256, 1024).astype(np.float64).sum(0)
    cout = np.load(f"{d}/cout.npy").astype(np.float64)
    rel = np.abs(cout - sums).max() / np.abs(sums).max()
    checks = [
        ("f32 add", np.array_equal(np.load(f"{d}/out.npy"), x)),
        ("f16 adds, masked and not",
         np.array_equal(np.load(f"{d}/h.npy"), np.where(below, twice, x16))),
        ("f16 add's result",
         np.array_equal(np.load(f"{d}/old.npy"),
                        np.where(below, x16.astype(np.float32), 0))),
        ("i32 add", bool((np.load(f"{d}/bins.npy") == 1).all())),
        (f"contended f32 add (max error {rel:.1e} of the largest sum)",
         bool(rel < 1e-5)),
        ("contended f16 add", bool((np.load(f"{d}/ch.npy") == 256).all())),
        # bf16 as the bits .npy holds them (V2): 256 is 0x4380.
        ("contended bf16 add",
         bool((np.load(f"{d}/cg.npy").view(np.uint16) == 0x4380).all())),
    ]
    for name, good in checks:
        print(("ok " if good else "FAIL ") + name)
    return 0 if all(good for _, good in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
