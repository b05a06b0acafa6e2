"""dot_scaled_check.py make DIR | check NAME DIR: inputs for
dot-scaled.test and the float64 reference of Triton's dot_scaled
(fp8/fp4 decoded from their bits, times 2^(scale - 127))."""
import sys

import numpy as np


def fp8(bits, exp_bits, man_bits, bias):
    bits = bits.astype(np.int64)
    sign = np.where(bits >> 7, -1.0, 1.0)
    e = (bits >> man_bits) & ((1 << exp_bits) - 1)
    m = bits & ((1 << man_bits) - 1)
    normal = (1.0 + m / 2.0**man_bits) * 2.0 ** (e - bias)
    sub = (m / 2.0**man_bits) * 2.0 ** (1 - bias)
    return sign * np.where(e == 0, sub, normal)


def e2m1(nibbles):
    n = nibbles.astype(np.int64)
    table = np.array([0, 0.5, 1, 1.5, 2, 3, 4, 6], dtype=np.float64)
    return np.where(n & 8, -1.0, 1.0) * table[n & 7]


def decode(fmt, data, is_lhs, k_pack=True):
    if fmt == "e4m3":
        return fp8(data, 4, 3, 7)
    if fmt == "e5m2":
        return fp8(data, 5, 2, 15)
    lo, hi = e2m1(data & 15), e2m1(data >> 4)
    if is_lhs == k_pack:  # pairs along the columns: R x C/2 -> R x C
        return np.stack([lo, hi], axis=2).reshape(data.shape[0], -1)
    # pairs along the rows: R/2 x C -> R x C, the low nibble first
    return np.stack([lo, hi], axis=1).reshape(-1, data.shape[1])


def finite_fp8(rng, shape, fmt):
    # No NaN/inf patterns: e4m3 0x7f/0xff, e5m2 exponent 31.
    bits = rng.integers(0, 256, size=shape, dtype=np.uint8)
    if fmt == "e4m3":
        bits = np.where((bits & 0x7F) == 0x7F, bits & 0xF0, bits)
    elif fmt == "e5m2":
        bits = np.where((bits & 0x7C) == 0x7C, bits & 0x83, bits)
    return bits.astype(np.uint8)


CASES = {"e4m3_e2m1": ("e4m3", "e2m1"), "e5m2_e4m3": ("e5m2", "e4m3"),
         "e2m1_e2m1": ("e2m1", "e2m1")}
M, N, K = 32, 16, 64


def make(d):
    rng = np.random.default_rng(7)
    for name, (af, bf) in CASES.items():
        ka = K // 2 if af == "e2m1" else K
        kb = K // 2 if bf == "e2m1" else K
        np.save(f"{d}/{name}_a.npy", finite_fp8(rng, (M, ka), af))
        np.save(f"{d}/{name}_b.npy", finite_fp8(rng, (kb, N), bf))
        np.save(f"{d}/{name}_sa.npy", rng.integers(120, 134, size=(M, K // 32), dtype=np.uint8))
        np.save(f"{d}/{name}_sb.npy", rng.integers(120, 134, size=(N, K // 32), dtype=np.uint8))
    # lhs_k_pack=False / rhs_k_pack=False: e2m1 packed along M and N.
    np.save(f"{d}/mn_a.npy", finite_fp8(rng, (M // 2, K), "e2m1"))
    np.save(f"{d}/mn_b.npy", finite_fp8(rng, (K, N // 2), "e2m1"))
    np.save(f"{d}/mn_sa.npy", rng.integers(120, 134, size=(M, K // 32), dtype=np.uint8))
    np.save(f"{d}/mn_sb.npy", rng.integers(120, 134, size=(N, K // 32), dtype=np.uint8))
    np.save(f"{d}/u_a.npy", finite_fp8(rng, (16, 32), "e4m3"))
    np.save(f"{d}/u_b.npy", finite_fp8(rng, (32, 16), "e5m2"))
    np.save(f"{d}/u_acc.npy", rng.standard_normal((16, 16)).astype(np.float32))


def check(name, d):
    if name == "unscaled":
        a = fp8(np.load(f"{d}/u_a.npy"), 4, 3, 7)
        b = fp8(np.load(f"{d}/u_b.npy"), 5, 2, 15)
        ref = a @ b + np.load(f"{d}/u_acc.npy")
    else:
        af, bf = CASES.get(name, ("e2m1", "e2m1"))
        k_pack = name != "mn"
        a = decode(af, np.load(f"{d}/{name}_a.npy"), True, k_pack)
        b = decode(bf, np.load(f"{d}/{name}_b.npy"), False, k_pack)
        sa = np.repeat(2.0 ** (np.load(f"{d}/{name}_sa.npy").astype(np.float64) - 127), 32, axis=1)
        sb = np.repeat(2.0 ** (np.load(f"{d}/{name}_sb.npy").astype(np.float64) - 127), 32, axis=1)
        ref = (a * sa) @ (b * sb.T)
    got = np.load(f"{d}/{name}_c.npy").astype(np.float64)
    err = np.linalg.norm(got - ref) / np.linalg.norm(ref)
    print(("ok " if err < 1e-5 else "FAIL ") + name + f" {err:.1e}")


if __name__ == "__main__":
    make(sys.argv[2]) if sys.argv[1] == "make" else check(sys.argv[2], sys.argv[3])
