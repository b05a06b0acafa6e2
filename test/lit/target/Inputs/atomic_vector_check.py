#!/usr/bin/env python3
"""Float atomic adds in vector form (sm_90) on the GPU, against numpy.

Runs test/lit/target/atomic-vector-ptx.tk's kernel (f32 and f16 adds with a
mask and a used result, i32 adds) on 4096 elements, and a contended add
(256 programs adding into the same 1024 f32, f16 and bf16 words) with
`tk-run --gpu`, then compares: the uncontended results exactly, the
contended f32 sums against float64 (order of the adds aside), the f16
and bf16 counts exactly. Then the contended kernel compiled for sm_80
(`tkc --arch sm_80`: there a bf16 add is a compare-and-swap loop on its
16-bit word, and f16/f32 adds are one element per instruction), its PTX
assembled for sm_90 by ptxas, launched through bench/gpu/cubin.py (needs
tkc beside tk-run, ptxas and torch; skipped without them).
Usage: atomic_vector_check.py --bin DIR (tk-run and tkc there).
Prints `ok NAME` or `FAIL NAME` per check; exits 1 on a failure.
"""
import argparse, os, shutil, subprocess, sys, tempfile
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
    checks += sm80_checks(args.bin, d, y, sums)
    for name, good in checks:
        print(("ok " if good else "FAIL ") + name)
    return 0 if all(good for _, good in checks) else 1


def sm80_checks(bin_dir, d, y, sums):
    """The contended adds as sm_80 code (the bf16 compare-and-swap loop)
    on this GPU: sm_80 PTX assembled for sm_90. `y`: the 256 programs'
    inputs; `sums`: their float64 column sums."""
    tkc = os.path.join(bin_dir, "tkc")
    ptxas = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
    try:
        sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "..", "bench", "gpu"))
        import torch
        from cubin import Cubin, use_torch_context
    except ImportError as e:
        print("skip sm_80 checks (%s)" % e)
        return []
    if not (os.access(tkc, os.X_OK) and os.access(ptxas, os.X_OK)):
        print("skip sm_80 checks (no tkc or ptxas)")
        return []
    common = [tkc, f"{d}/contend.tk", "-k", "contend", "-D", "BLOCK=1024",
              "--assume-aligned-pointers", "--arch", "sm_80"]
    # The cubin for its metadata (contend80.json), the PTX for ptxas.
    subprocess.run(common + ["--emit=cubin", "-o", f"{d}/contend80.cubin"], check=True)
    subprocess.run(common + ["--emit=ptx", "-o", f"{d}/contend80.ptx"], check=True)
    ptx = open(f"{d}/contend80.ptx").read()
    subprocess.run([ptxas, "-arch=sm_90", f"{d}/contend80.ptx", "-o",
                    f"{d}/contend80.cubin"], check=True)
    use_torch_context()
    kernel = Cubin(f"{d}/contend80.cubin")
    out = torch.zeros(1024, device="cuda", dtype=torch.float32)
    h = torch.zeros(1024, device="cuda", dtype=torch.float16)
    g = torch.zeros(1024, device="cuda", dtype=torch.bfloat16)
    x = torch.from_numpy(y).cuda()
    kernel.launch_values((256, 1, 1), [out, h, g, x])
    torch.cuda.synchronize()
    rel = np.abs(out.double().cpu().numpy() - sums).max() / np.abs(sums).max()
    return [
        ("sm_80 PTX has the bf16 compare-and-swap loop",
         "atom.acq_rel.gpu.global.cas.b16" in ptx and "fma.rn.bf16" in ptx),
        (f"sm_80 contended f32 add (max error {rel:.1e})", bool(rel < 1e-5)),
        ("sm_80 contended f16 add", bool((h == 256).all())),
        ("sm_80 contended bf16 add (compare-and-swap)", bool((g == 256).all())),
    ]


if __name__ == "__main__":
    sys.exit(main())
