"""Inputs and numpy references for lambda.test.

  lambda_check.py make DIR    writes the input .npy files
  lambda_check.py check DIR   compares the outputs in DIR
"""
import sys
import numpy as np


def make(d):
    rs = np.random.RandomState(5)
    np.save(f"{d}/x.npy", rs.randn(8, 16).astype(np.float32))
    np.save(f"{d}/i.npy", rs.randint(-100, 100, (8, 16)).astype(np.int32))
    np.save(f"{d}/a.npy", rs.uniform(0.5, 1.0, (8, 16)).astype(np.float32))


def expect(name, got, want, tol=0.0):
    ok = got.shape == want.shape and (np.allclose(got, want, rtol=tol, atol=tol) if tol
                                      else np.array_equal(got, want))
    print(("ok " if ok else "FAIL ") + name)
    if not ok:
        print(f" got\n{got}\n want\n{want}")


def check(d):
    x, i, a = (np.load(f"{d}/{n}.npy") for n in "xia")
    load = lambda n: np.load(f"{d}/{n}.npy")  # noqa: E731
    expect("reduce sum", load("sum"), x.sum(axis=1), 1e-5)
    expect("reduce max", load("max"), i.max(axis=0))
    expect("scan reverse", load("cum"), np.cumsum(x[:, ::-1], axis=1)[:, ::-1], 1e-5)
    rec = np.zeros_like(x, dtype=np.float64)
    acc = np.zeros(8)
    for t in range(16):
        acc = acc * a[:, t] + x[:, t] if t else x[:, 0].astype(np.float64)
        rec[:, t] = acc
    expect("scan tuple", load("rec"), rec.astype(np.float32), 1e-5)
    expect("reduce default param", load("prod"),
           np.prod((np.fmod(i, 3) + 1).astype(np.int64), axis=1).astype(np.int32))


if __name__ == "__main__":
    make(sys.argv[2]) if sys.argv[1] == "make" else check(sys.argv[2])
