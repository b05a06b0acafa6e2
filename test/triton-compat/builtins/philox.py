"""Philox-4x32-10 in numpy, with Triton's random.py conversions (the
reference of the Philox tests: test/lit/frontend/random.test and
check.py here)."""
import numpy as np

M32 = np.uint64(0xFFFFFFFF)
ROUND_A, ROUND_B = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
KEY_A, KEY_B = np.uint64(0x9E3779B9), np.uint64(0xBB67AE85)

# Random123's kat_vectors for philox4x32 with 10 rounds:
# counter (4 words), key (2 words) -> result (4 words).
KAT = [
    ([0, 0, 0, 0], [0, 0], [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]),
    ([0xffffffff] * 4, [0xffffffff] * 2,
     [0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd]),
    ([0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344], [0xa4093822, 0x299f31d0],
     [0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1]),
]


def philox(c, k, rounds=10):
    c = [np.asarray(x, dtype=np.uint64) & M32 for x in c]
    k0, k1 = (np.asarray(x, dtype=np.uint64) & M32 for x in k)
    for _ in range(rounds):
        p0, p2 = ROUND_A * c[0], ROUND_B * c[2]
        c = [(p2 >> np.uint64(32)) ^ c[1] ^ k0, p2 & M32,
             (p0 >> np.uint64(32)) ^ c[3] ^ k1, p0 & M32]
        k0, k1 = (k0 + KEY_A) & M32, (k1 + KEY_B) & M32
    return [x.astype(np.uint32) for x in c]


def randint4x(seed, offset, rounds=10):
    """Triton's randint4x: seed as u64 split into the key; the offset's low
    and (for 64-bit offsets) high words are the first two counters."""
    seed = np.uint64(np.int64(seed).astype(np.uint64))
    offset = np.asarray(offset)
    lo = offset.astype(np.uint64) & M32
    hi = (offset.astype(np.int64) >> 32).astype(np.uint64) & M32 \
        if offset.dtype.itemsize == 8 else np.zeros_like(lo)
    zero = np.zeros_like(lo)
    return philox([lo, hi, zero, zero], [seed & M32, seed >> np.uint64(32)], rounds)


def uniform(x):
    x = x.view(np.int32)
    x = np.where(x < 0, -x - 1, x)
    return x.astype(np.float32) * np.float32(4.6566127342e-10)


def normal(u1, u2):
    u1 = np.maximum(np.float32(1.0e-7), u1)
    th = np.float32(6.283185307179586) * u2
    r = np.sqrt(np.float32(-2.0) * np.log(u1))
    return r * np.cos(th)
