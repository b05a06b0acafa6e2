"""npy_matrices.py -- the matmul scripts' operands as tk-run reads and
writes them: .npy files of the kernel's element type, bf16 as its 16 bits
in dtype V2 (numpy has no bfloat16). tk's timing (tk-run) and cuBLAS's
(torch) then run on the same data: a GEMM's power, and so its clock,
depends on its inputs.

    python3 npy_matrices.py DIR DTYPE M N K   writes DIR/a.npy (M x K) and
                                              DIR/b.npy (K x N), N(0, 1/64)
"""
import sys

import numpy as np
import torch


def save_inputs(folder, dtype, m, n, k):
    """a (m x k) and b (k x n), fresh N(0, 1/64) from a seed of m + n + k."""
    g = torch.Generator().manual_seed(m + n + k)
    for name, shape in (("a", (m, k)), ("b", (k, n))):
        x = torch.randn(*shape, generator=g) / 8
        if dtype == "bf16":
            np.save(f"{folder}/{name}.npy", x.bfloat16().view(torch.int16).numpy().view("V2"))
        else:
            np.save(f"{folder}/{name}.npy", x.half().numpy())


def load(path, dtype):
    """The .npy file at `path` (save_inputs's or tk-run's) as a CUDA tensor."""
    x = np.load(path)
    if dtype == "bf16":
        return torch.from_numpy(x.view(np.int16)).view(torch.bfloat16).cuda()
    return torch.from_numpy(x).cuda()


if __name__ == "__main__":
    save_inputs(sys.argv[1], sys.argv[2], *map(int, sys.argv[3:6]))
