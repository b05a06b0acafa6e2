"""Inputs and numpy references for block-builtins.test.

  block_check.py make DIR          writes the input .npy files
  block_check.py check KERNEL DIR  compares the kernel's outputs in DIR
"""
import sys
import numpy as np


def make(d):
    rs = np.random.RandomState(7)
    x = rs.randn(8, 16).astype(np.float32)
    x[0, :4] = x[0, 4]  # ties
    np.save(f"{d}/x.npy", x)
    np.save(f"{d}/i.npy", rs.randint(-1000, 1000, (8, 16)).astype(np.int32))
    np.save(f"{d}/a.npy", rs.randn(4, 32).astype(np.float32))
    np.save(f"{d}/b.npy", rs.randn(4, 32).astype(np.float32))
    np.save(f"{d}/v.npy", rs.randint(-3, 20, 256).astype(np.int32))
    np.save(f"{d}/m.npy", (rs.rand(256) < 0.5).astype(np.int8))
    np.save(f"{d}/u.npy", rs.randint(0, 2**32, 256, dtype=np.uint64).astype(np.uint32))
    np.save(f"{d}/w.npy", rs.randint(0, 2**32, 256, dtype=np.uint64).astype(np.uint32))
    np.save(f"{d}/f.npy", (rs.randn(256) * 100).astype(np.float32))
    np.save(f"{d}/h.npy", rs.randn(1024).astype(np.float16))
    np.save(f"{d}/u8.npy", rs.randint(0, 256, (32, 32)).astype(np.uint8))


def expect(name, got, want):
    if got.shape != want.shape or got.dtype != want.dtype or not np.array_equal(got, want):
        print(f"FAIL {name}:\n got {got.dtype}{got.shape}\n{got}\n want {want.dtype}{want.shape}\n{want}")
        sys.exit(1)
    print(f"ok {name}")


def swizzle2d(i, j, size_i, size_j, size_g):
    ij = i * size_j + j
    size_gj = size_g * size_j
    group_id = ij // size_gj
    off_i = group_id * size_g
    size_g = np.minimum(size_i - off_i, size_g)
    return off_i + ij % size_g, (ij % size_gj) // size_g


def check(kernel, d):
    load = lambda n: np.load(f"{d}/{n}.npy")
    if kernel == "sorts":
        x, i = load("x"), load("i")
        expect("sort", load("asc"), np.sort(x, axis=1))
        expect("sort descending", load("desc"), -np.sort(-x, axis=1))
        expect("sort dim=0", load("col"), np.sort(x, axis=0))
        expect("sort i32", load("iasc"), np.sort(i, axis=1))
        expect("sort i32 descending", load("idesc"), -np.sort(-i, axis=1))
    elif kernel == "wide_sorts":
        expect("sort f16[1024] descending", load("hs"), np.sort(load("h"))[::-1])
        expect("sort u8 dim=0, flip", load("us"), np.sort(load("u8"), axis=0)[:, ::-1])
    elif kernel == "flips":
        x = load("x")
        expect("flip", load("last"), x[:, ::-1])
        expect("flip dim 0", load("first"), x[::-1, :])
        expect("flip i1", load("bflip"), (x > 0)[:, ::-1].astype(np.int8))
    elif kernel == "joins":
        a, b = load("a"), load("b")
        expect("join", load("join"), np.stack([a, b], axis=-1))
        expect("split lo", load("lo"), a * 2)
        expect("split hi", load("hi"), b * 2)
        expect("interleave", load("inter"), np.stack([a, b], axis=-1).reshape(4, 64))
        expect("cat", load("cat"), np.concatenate([a, b], axis=0))
    elif kernel == "misc":
        v, m = load("v"), load("m") != 0
        inrange = (v >= 0) & (v < 16)
        expect("histogram", load("hist"),
               np.bincount(v[inrange], minlength=16)[:16].astype(np.int32))
        expect("histogram mask", load("mhist"),
               np.bincount(v[inrange & m], minlength=16)[:16].astype(np.int32))
        u, w = load("u").astype(np.uint64), load("w").astype(np.uint64)
        hi = ((u * w) >> np.uint64(32)).astype(np.uint32)
        expect("umulhi", load("hi"), hi)
        expect("umulhi i32", load("shi"), hi.view(np.int32))
        expect("xor_sum", load("xs").reshape(()), np.bitwise_xor.reduce(v))
        expect("xor_sum axis", load("xrow"), np.bitwise_xor.reduce(v.reshape(16, 16), axis=1))
        expect("ravel", load("rav"), v.reshape(16, 16).T.ravel())
        ii, jj = np.meshgrid(np.arange(16), np.arange(16), indexing="ij")
        ni, nj = swizzle2d(ii, jj, 16, 16, 4)
        expect("swizzle2d i", load("si"), ni.astype(np.int32))
        expect("swizzle2d j", load("sj"), nj.astype(np.int32))
        f = load("f")
        expect("fdiv ieee", load("fd"), f / np.float32(3))
        fast = load("fdn")
        assert np.allclose(fast, f / np.float32(3), rtol=1e-6), "fdiv"
        print("ok fdiv")
        expect("sqrt_rn", load("sq"), np.sqrt(np.abs(f)))
    else:
        sys.exit(f"unknown kernel {kernel}")


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2])
    else:
        check(sys.argv[2], sys.argv[3])
