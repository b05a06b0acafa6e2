"""Inputs and checks for block-pointers.test.

  block_ptr_check.py make DIR     inputs
  block_ptr_check.py check DIR    compares the outputs in DIR with numpy
"""
import sys
import numpy as np

M, N, K = 40, 24, 52

if sys.argv[1] == "make":
    d = sys.argv[2]
    rs = np.random.RandomState(5)
    np.save(f"{d}/a.npy", rs.randn(M, K).astype(np.float32))
    np.save(f"{d}/b.npy", rs.randn(K, N).astype(np.float32))
    np.save(f"{d}/x.npy", rs.randn(50).astype(np.float32))
    sys.exit(0)

d = sys.argv[2]
a, b = np.load(f"{d}/a.npy"), np.load(f"{d}/b.npy")
c = np.load(f"{d}/c.npy")
want = (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)
assert c.shape == (M, N) and np.allclose(c, want, rtol=1e-5, atol=1e-4), abs(c - want).max()
print("ok matmul through block pointers")
x, y = np.load(f"{d}/x.npy"), np.load(f"{d}/y.npy")
assert np.array_equal(y[:50], x) and np.isnan(y[50:]).all(), y
print("ok nan padding")
