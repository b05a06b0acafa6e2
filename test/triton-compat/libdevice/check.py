#!/usr/bin/env python3
"""Runs the ports in ports.tk (tutorial 07's libdevice.asin, test_math_op in
float64, test_math_tensor's libdevice.pow) and externs.tk (every function of
compiler/frontend/LibdeviceExterns.def) in the interpreter against numpy,
scipy.special and exact integer and rational arithmetic;
with --ptx each is also compiled to cubins for sm_90a and sm_80 (libdevice
linked, ptxas accepting the PTX), with --gpu run on the GPU (tk-run --gpu).
Cases and running are run.py's.

    check.py [--bin build/bin] [--gpu] [--ptx [--no-run]] [-k SUBSTRING]

Prints 'ok NAME' or 'FAIL NAME: why' per case; exits 1 on a failure.
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from run import Case, main as run_main  # noqa: E402
from extern_cases import extern_cases  # noqa: E402

rs = np.random.RandomState(17)


def cases():
    out = []
    # Tutorial 07: x = torch.rand(98432); asin is defined on [0, 1).
    n, block = 98432, 1024
    x = rs.rand(n).astype(np.float32)
    out.append(Case("tutorial07/asin_kernel", "libdevice/ports.tk", "asin_kernel",
                    grid=(n + block - 1) // block,
                    args=dict(x_ptr=x, y_ptr=np.zeros(n, np.float32), n_elements=n),
                    defines=dict(BLOCK_SIZE=block),
                    expect=dict(y_ptr=np.arcsin(x)), rtol=1e-6, atol=1e-7))

    # test_math_op, float64: numpy_random's normal values (nan where the
    # function is undefined, compared as equal).
    references = dict(exp=np.exp, log=np.log, cos=np.cos, sin=np.sin, exp2=np.exp2,
                      log2=np.log2, sqrt=np.sqrt, rsqrt=lambda v: 1 / np.sqrt(v))
    size = 128
    x = rs.randn(size)
    for expr, reference in references.items():
        with np.errstate(invalid="ignore", divide="ignore"):
            want = reference(x)
        out.append(Case(f"test_core/test_math_op float64 tl.{expr}(x)", "libdevice/ports.tk",
                        f"math_op_{expr}", grid=1,
                        args=dict(Z=np.zeros(size, np.float64), X=x),
                        defines=dict(SIZE=size),
                        expect=dict(Z=want), rtol=1e-14, atol=1e-300))

    # test_math_tensor: numpy does not allow negative bases, so abs().
    shape = 128
    x = np.abs(rs.randn(shape).astype(np.float32))
    out.append(Case("test_core/test_math_tensor float32 libdevice.pow(x, x)",
                    "libdevice/ports.tk", "math_tensor_pow", grid=1,
                    args=dict(X=x, Y=np.zeros(shape, np.float32)),
                    defines=dict(BLOCK=shape),
                    expect=dict(Y=np.power(x, x)), rtol=1e-6, atol=0.0))
    x = np.abs(rs.randn(shape))
    out.append(Case("test_core/test_math_tensor float64 libdevice.pow(x, 0.5)",
                    "libdevice/ports.tk", "math_tensor_pow_dtype", grid=1,
                    args=dict(X=x, Y=np.zeros(shape, np.float64)),
                    defines=dict(BLOCK=shape),
                    expect=dict(Y=np.power(x, 0.5)), rtol=1e-15, atol=0.0))
    return out + extern_cases()


if __name__ == "__main__":
    run_main(cases)
