#!/usr/bin/env python3
"""attention_profile.py -- one attention_fwd cubin launched a few times at
the benchmark shape, for ncu (which profiles the launch it is told to).

Usage: ncu -k regex:attn --launch-skip 2 --launch-count 1 python3 attention_profile.py NAME.cubin [Z H N]
(-k: PyTorch's own kernels, which make the inputs, are launched too;
scripts/gpu-profile-attention.sh runs it this way.)

The inputs are fresh random (Z, H, N, HEAD_DIM) tensors (Z=4, H=32,
N=4096 by default), as attention_gpu.py times them; the kernel runs four
times, so that the profiled launch finds the caches and clocks as a timed
one would.
"""
import math
import sys

import torch

from attention_gpu import Kernel, inputs
from cubin import use_torch_context


def main():
    path = sys.argv[1]
    Z, H, N = (int(a) for a in sys.argv[2:5]) if len(sys.argv) >= 5 else (4, 32, 4096)
    use_torch_context()
    kern = Kernel(path)
    q, k, v, o, m = inputs(Z, H, N, kern.d, kern.dtype)
    for _ in range(4):
        kern.launch(q, k, v, o, m, 1.0 / math.sqrt(kern.d))
    torch.cuda.synchronize()
    print(f"{kern.name}: 4 launches at Z={Z} H={H} N={N}")


if __name__ == "__main__":
    main()
