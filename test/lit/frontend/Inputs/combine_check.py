"""Inputs and numpy references for combine.test.

  combine_check.py make DIR          writes the input .npy files
  combine_check.py check KERNEL DIR  compares the kernel's outputs in DIR
"""
import sys
import numpy as np


def make(d):
    rs = np.random.RandomState(11)
    x = rs.randn(8, 16).astype(np.float32)
    x[0, 3] = x[0, 9] = x[0].max() + 1  # a tie: the first index wins
    np.save(f"{d}/x.npy", x)
    np.save(f"{d}/i.npy", rs.randint(-100, 100, (8, 16)).astype(np.int32))
    np.save(f"{d}/a.npy", rs.uniform(0.5, 1.0, (8, 16)).astype(np.float32))


def expect(name, got, want, tol=0.0):
    ok = got.shape == want.shape and got.dtype == want.dtype
    ok = ok and (np.allclose(got, want, rtol=tol, atol=tol) if tol
                 else np.array_equal(got, want))
    if not ok:
        print(f"FAIL {name}:\n got {got.dtype}{got.shape}\n{got}\n want {want.dtype}{want.shape}\n{want}")
        sys.exit(1)
    print(f"ok {name}")


def recurrence(a, b, reverse=False):
    """x[t] = a[t] * x[t-1] + b[t] along axis 1 (from the end if reverse)."""
    if reverse:
        return recurrence(a[:, ::-1], b[:, ::-1])[:, ::-1]
    out = np.zeros_like(b, dtype=np.float64)
    acc = np.zeros(b.shape[0])
    for t in range(b.shape[1]):
        acc = acc * a[:, t] + b[:, t] if t else b[:, 0].astype(np.float64)
        out[:, t] = acc
    return out.astype(np.float32)


def check(kernel, d):
    load = lambda n: np.load(f"{d}/{n}.npy")
    x, i, a = load("x"), load("i"), load("a")
    if kernel == "reductions":
        expect("reduce argmax pair value", load("rowmax"), x.max(axis=1))
        expect("reduce argmax pair index", load("rowarg"),
               x.argmax(axis=1).astype(np.int32))
        expect("reduce keep_dims", load("keep"), i.max(axis=1, keepdims=True))
        expect("reduce method product", load("prod"),
               np.prod(i & 3, axis=0, dtype=np.int32))
        expect("reduce axis=None", load("all"),
               np.array([x.sum()], np.float32), 1e-5)
        expect("reduce tuple sum", load("sm_s"), x.sum(axis=0), 1e-5)
        expect("reduce tuple max", load("sm_m"), i.max(axis=0))
        expect("reduce or", load("col"), np.bitwise_or.reduce(i, axis=0))
        expect("reduce 128", load("big"),
               np.array([i.ravel()[:128].sum()], np.int32))
        expect("reduce if", load("if"), x.max(axis=1))
    elif kernel == "scans":
        expect("scan add", load("cum"), np.cumsum(i, axis=1, dtype=np.int32))
        expect("scan reverse axis 0", load("rcum"),
               np.cumsum(i[::-1], axis=0, dtype=np.int32)[::-1])
        expect("scan maximum", load("cmax"), np.maximum.accumulate(x, axis=1))
        expect("scan recurrence", load("rec"), recurrence(a, x), 1e-5)
        expect("scan recurrence reverse", load("rrec"),
               recurrence(a, x, reverse=True), 1e-5)
        expect("scan or i1", load("mask"),
               np.logical_or.accumulate(i > 0, axis=1).astype(np.int8))
        expect("scan 128", load("big"),
               np.cumsum(i.ravel()[:128], dtype=np.int32))


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2])
    else:
        check(sys.argv[2], sys.argv[3])
