"""Inputs and checks for tensor-descriptors.test.

  tensor_desc_check.py make DIR          inputs
  tensor_desc_check.py check DIR SUFFIX  compares outputs *SUFFIX.npy with numpy
"""
import sys
import numpy as np

M, N, K = 40, 24, 52
D = (5, 9, 20)
OFFSETS = (-1, 3, 10)

if sys.argv[1] == "make":
    d = sys.argv[2]
    rs = np.random.RandomState(7)
    np.save(f"{d}/a.npy", rs.randn(M, K).astype(np.float32))
    np.save(f"{d}/b.npy", rs.randn(K, N).astype(np.float32))
    np.save(f"{d}/x3.npy", rs.randn(*D).astype(np.float16))
    np.save(f"{d}/x1.npy", rs.randn(50).astype(np.float32))
    np.save(f"{d}/minus1.npy", np.full(64, -1, np.int32))
    sys.exit(0)

d, suffix = sys.argv[2], sys.argv[3]
a, b = np.load(f"{d}/a.npy"), np.load(f"{d}/b.npy")
c = np.load(f"{d}/c{suffix}.npy")
want = (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)
assert c.shape == (M, N) and np.allclose(c, want, rtol=1e-5, atol=1e-4), abs(c - want).max()
print("ok matmul through descriptors")

x = np.load(f"{d}/x3.npy")
padded = np.zeros((D[0] + 8, D[1] + 16, D[2] + 32), np.float16)
padded[4:4 + D[0], 8:8 + D[1], 16:16 + D[2]] = x
o = [OFFSETS[0] + 4, OFFSETS[1] + 8, OFFSETS[2] + 16]
want = padded[o[0]:o[0] + 4, o[1]:o[1] + 8, o[2]:o[2] + 16]
y = np.load(f"{d}/y3{suffix}.npy").reshape(4, 8, 16)
assert np.array_equal(y, want), (y, want)
assert (y == 0).any() and (y != 0).any()
print("ok 3-d window with zero fill")

f = np.load(f"{d}/f{suffix}.npy")
want = np.full(64, -1, np.int32)
want[20:50] = 7  # the block covers 20..51; 50 and 51 are outside n = 50
assert np.array_equal(f, want), f
print("ok clipped store")
