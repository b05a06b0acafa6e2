"""Inputs and numpy references for libdevice.test.

  libdevice_check.py make DIR          writes the input .npy files
  libdevice_check.py check KERNEL DIR  compares the kernel's outputs in DIR
"""
import sys
import numpy as np


def make(d):
    rs = np.random.RandomState(3)
    np.save(f"{d}/x.npy", rs.uniform(-0.95, 0.95, 64).astype(np.float32))
    np.save(f"{d}/a.npy", rs.uniform(1.05, 4.0, 64).astype(np.float32))
    r = rs.randint(-10, 10, 64) / 2.0
    r[::3] += rs.uniform(-0.2, 0.2, 22)
    np.save(f"{d}/r.npy", r.astype(np.float32))
    n = rs.uniform(-1, 1, 64).astype(np.float32)
    n[::2] = np.nan
    np.save(f"{d}/n.npy", n)
    np.save(f"{d}/d.npy", rs.uniform(-0.95, 0.95, 64))
    np.save(f"{d}/h.npy", rs.uniform(-1.0, 1.0, 64).astype(np.float16))
    np.save(f"{d}/s.npy", np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 1.0, -1.5, -np.nan],
                                   np.float32))
    np.save(f"{d}/i.npy", rs.randint(-2**31, 2**31 - 1, 64, dtype=np.int64).astype(np.int32))
    l = rs.randint(-2**62, 2**62, 64, dtype=np.int64) >> rs.randint(0, 62, 64)
    l[0] = 0
    np.save(f"{d}/l.npy", l)


def load(d, name):
    return np.load(f"{d}/{name}.npy")


def popcount(v, bits):
    u = v.astype(np.uint64) & np.uint64((1 << bits) - 1)
    return np.array([bin(int(x)).count("1") for x in u], np.int32)


def clz(v, bits):
    u = v.astype(np.uint64) & np.uint64((1 << bits) - 1)
    return np.array([bits - int(x).bit_length() for x in u], np.int32)


def expected(kernel, d):
    x, a, r = load(d, "x"), load(d, "a"), load(d, "r")
    if kernel == "unary":
        rows = [np.arccos(x), np.arccosh(a), np.arcsin(x), np.arcsinh(a), np.arctan(a),
                np.arctanh(x), np.cbrt(x), np.cosh(a), np.sinh(x), np.tan(x),
                1 - np.vectorize(__import__("math").erf)(x.astype(np.float64)), np.expm1(x),
                np.log10(a), np.log1p(x), np.abs(x), np.trunc(r),
                np.where(r >= 0, np.floor(r + 0.5), np.ceil(r - 0.5)),  # C's round
                np.rint(r), np.rint(r)]
        return {"o": (np.stack(rows).astype(np.float32), 2e-6)}
    if kernel == "binary":
        n = load(d, "n")
        rows = [np.power(a, x), np.arctan2(x, a), np.copysign(a, x), np.fmod(x * np.float32(7), a),
                np.fmax(x, n), np.fmin(x, n), a * a]
        return {"o": (np.stack(rows).astype(np.float32), 2e-6)}
    if kernel == "wide_and_narrow":
        dd, h = load(d, "d"), load(d, "h").astype(np.float32)
        import math
        rows = [np.power(dd + 2, dd), np.arctan2(dd, 0.5), np.tan(dd), np.log1p(dd), np.exp(dd),
                np.log(dd + 1), np.tanh(dd), np.vectorize(math.erf)(dd)]
        half = [np.tan(h), h * h]
        return {"od": (np.stack(rows), 1e-14), "oh": (np.stack(half).astype(np.float16), 1e-3)}
    if kernel == "predicates":
        s = load(d, "s")
        rows = [np.isnan(s), np.isinf(s), np.isfinite(s), np.isfinite(s), np.signbit(s)]
        return {"o": (np.stack(rows).astype(np.int32), 0)}
    if kernel == "bits":
        i, l = load(d, "i"), load(d, "l")
        rows = [popcount(i, 32), popcount(l, 64), clz(i, 32), clz(l, 64)]
        return {"o": (np.stack(rows), 0)}
    raise SystemExit(f"unknown kernel {kernel}")


def check(kernel, d):
    for name, (want, tol) in expected(kernel, d).items():
        got = np.load(f"{d}/{kernel}_{name}.npy").reshape(want.shape)
        if tol:
            ok = np.allclose(got.astype(np.float64), want.astype(np.float64), rtol=tol,
                             atol=tol * 1e-1, equal_nan=True)
        else:
            ok = np.array_equal(got, want)
        print(("ok " if ok else "FAIL ") + f"{kernel} {name}")
        if not ok:
            bad = np.argwhere(~np.isclose(got, want, rtol=tol, atol=tol, equal_nan=True))
            print(f" first mismatches at {bad[:5].tolist()}: got {got[tuple(bad[0])]} "
                  f"want {want[tuple(bad[0])]}")


if __name__ == "__main__":
    make(sys.argv[2]) if sys.argv[1] == "make" else check(sys.argv[2], sys.argv[3])
