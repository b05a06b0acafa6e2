#!/usr/bin/env python3
"""matmul_profile.py -- one matmul cubin launched a few times at a square
benchmark size, for ncu (which profiles the launch it is told to).

Usage: ncu -k regex:matmul --launch-skip 2 --launch-count 1 python3 matmul_profile.py NAME.cubin [SIZE]

The inputs are fresh random (SIZE, SIZE) tensors of the kernel's operand
type (SIZE 4096 by default), as matmul_gpu.py times them; the kernel runs
four times, so that the profiled launch finds the caches and clocks as a
timed one would. The last launch's result is checked against cuBLAS, so a
profile of a wrong kernel does not pass unnoticed.
"""
import sys

import torch

from cubin import use_torch_context
from matmul_gpu import TORCH_DTYPE, Kernel, rand_dense


def main():
    path = sys.argv[1]
    size = int(sys.argv[2]) if len(sys.argv) > 2 else 4096
    use_torch_context()
    kern = Kernel(path)
    dt = TORCH_DTYPE[kern.dtype]
    a = rand_dense((size, size), dt)
    b = rand_dense((size, size), dt)
    c = torch.full((size, size), float("nan"), device="cuda", dtype=dt)
    for _ in range(4):
        kern.launch(a, b, c, c, size, size, size)
    torch.cuda.synchronize()
    ref = a.float() @ b.float()
    err = float(torch.linalg.norm(c.float() - ref) / torch.linalg.norm(ref))
    print(f"matmul_profile: {kern.name} at {size}^3, relerr {err:.2e}")
    sys.exit(0 if err < 1e-2 else 1)


if __name__ == "__main__":
    main()
