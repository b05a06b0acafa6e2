"""The checks of random.test, against the numpy Philox of
test/triton-compat/builtins/philox.py.

  random_check.py make DIR           input .npy files
  random_check.py check KERNEL DIR   compares the kernel outputs in DIR
"""
import os
import sys
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "triton-compat", "builtins"))
from philox import KAT, philox, randint4x, uniform, normal  # noqa: E402


def expect(name, got, want):
    if got.dtype != want.dtype or not np.array_equal(got, want):
        print(f"FAIL {name}: got\n{got}\nwant\n{want}")
        sys.exit(1)
    print(f"ok {name}")


def main():
    mode, rest = sys.argv[1], sys.argv[2:]
    # The reference itself against the published vectors.
    for c, k, want in KAT:
        got = [int(x) for x in philox(c, k)]
        assert got == want, (c, k, [hex(x) for x in got])
    if mode == "make":
        d = rest[0]
        kin = np.zeros((4, 8), dtype=np.uint32)
        for i, (c, k, _) in enumerate(KAT):
            kin[i, :6] = c + k
        kin[3, :6] = [1, 2, 3, 4, 5, 6]
        np.save(f"{d}/kat_in.npy", kin)
        rs = np.random.RandomState(3)
        np.save(f"{d}/x.npy", rs.randn(3000).astype(np.float32))
        return
    kernel, d = rest
    load = lambda n: np.load(f"{d}/{n}.npy")
    seed, seed64 = -1234567, 0x123456789ABCDEF
    offs = np.arange(256, dtype=np.int32)
    if kernel == "kat":
        want = np.array([want for _, _, want in KAT] + [philox([1, 2, 3, 4], [5, 6])],
                        dtype=np.uint32)
        expect("philox4x32-10 known answers", load("kat_out"), want)
    elif kernel == "randoms":
        expect("randint", load("ints"), randint4x(seed, offs)[0])
        expect("randint4x", load("r4"), np.stack(randint4x(seed, offs + 1000)))
        expect("rand", load("unif"), uniform(randint4x(seed, offs)[0]))
        i1, i2, _, _ = randint4x(seed, offs)
        want = normal(uniform(i1), uniform(i2))
        got = load("norm")
        assert np.allclose(got, want, rtol=1e-5, atol=1e-5), (got, want)
        print("ok randn")
        big = offs.astype(np.int64) + 3 * 2**32 + 5
        expect("randint 64-bit offsets", load("big"), randint4x(seed64, big, 7)[0])
        u = load("unif")
        assert 0 <= u.min() and u.max() < 1 and abs(u.mean() - 0.5) < 0.05
    elif kernel == "dropout":
        x, p, seed = load("x"), np.float32(0.3), 42
        keep = uniform(randint4x(seed, np.arange(x.size, dtype=np.int32))[0]) > p
        want = np.where(keep, x / (np.float32(1) - p), np.float32(0)).astype(np.float32)
        expect("seeded dropout mask and values", load("drop"), want)
    else:
        sys.exit("unknown kernel " + kernel)


main()
