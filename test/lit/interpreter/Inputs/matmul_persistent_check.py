"""Inputs and checks for matmul-persistent.test.

  matmul_persistent_check.py make DIR          f16 inputs a.npy, b.npy
  matmul_persistent_check.py check DIR NAME    DIR/NAME.npy against numpy
"""
import sys
import numpy as np

# 5 x 4 tiles of 16 x 16 (partial along M and N), K in 3 blocks of 16 (the
# last partial): 4 programs run 5 tiles each.
M, N, K = 70, 50, 40

d = sys.argv[2]
if sys.argv[1] == "make":
    rs = np.random.RandomState(9)
    np.save(f"{d}/a.npy", rs.randn(M, K).astype(np.float16))
    np.save(f"{d}/b.npy", rs.randn(K, N).astype(np.float16))
    sys.exit(0)

a, b = np.load(f"{d}/a.npy"), np.load(f"{d}/b.npy")
c = np.load(f"{d}/{sys.argv[3]}.npy")
want = a.astype(np.float64) @ b.astype(np.float64)
assert c.shape == (M, N) and c.dtype == np.float16, (c.shape, c.dtype)
err = np.abs(c.astype(np.float64) - want).max()
# f32 accumulation, one f16 rounding at the store.
assert np.allclose(c.astype(np.float64), want, rtol=2e-3, atol=2e-3), err
print(f"ok {sys.argv[3]}")
