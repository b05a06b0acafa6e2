"""Inputs and checks for matmul-fp8.test.

  matmul_fp8_check.py make DIR     e4m3 bits a.npy (M x K), bt.npy (N x K)
  matmul_fp8_check.py check DIR    DIR/c.npy against float64 numpy
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..",
                                "triton-compat"))
from run import fp8_bits, fp8_e4m3  # noqa: E402

# 3 x 5 tiles of 32 x 32 (partial along M and N), K in 3 blocks of 32 (the
# last partial); multiples of 16, as the specialization needs.
M, N, K = 80, 144, 80

d = sys.argv[2]
rs = np.random.RandomState(11)
a = fp8_e4m3(rs.randn(M, K).astype(np.float32) * 2)
bt = fp8_e4m3(rs.randn(N, K).astype(np.float32) * 2)
if sys.argv[1] == "make":
    np.save(f"{d}/a.npy", fp8_bits(a, 3, -6))
    np.save(f"{d}/bt.npy", fp8_bits(bt, 3, -6))
    sys.exit(0)

c = np.load(f"{d}/c.npy")
want = a.astype(np.float64) @ bt.astype(np.float64).T
assert c.shape == (M, N) and c.dtype == np.float16, (c.shape, c.dtype)
# Products of e4m3 values are exact in f32; one f16 rounding at the store.
rel = np.linalg.norm(c.astype(np.float64) - want) / np.linalg.norm(want)
assert rel < 1e-3 and np.allclose(c.astype(np.float64), want, rtol=2e-3, atol=2e-2), rel
print("ok fp8")
