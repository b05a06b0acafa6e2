#!/usr/bin/env python3
"""Runs the ports in ports.tk (Triton's test_generic_reduction, test_reduce
through tl.reduce with the argmax combine function, and the combine-function
ops of test_scan2d) in the interpreter against numpy; with --ptx each is
also compiled to cubins for sm_90a and sm_80 (tkc runs ptxas), with --gpu
run on the GPU (tk-run --gpu). Cases and running are run.py's.

    check.py [--bin build/bin] [--gpu] [--ptx [--no-run]] [-k SUBSTRING]

Prints 'ok NAME' or 'FAIL NAME: why' per case; exits 1 on a failure.
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from run import Case, main as run_main  # noqa: E402

rs = np.random.RandomState(17)


def numpy_random(shape, dtype):
    """As test_core.py's numpy_random: small integers, normal floats."""
    if dtype == np.int32:
        return rs.randint(-100, 100, shape).astype(np.int32)
    return rs.randn(*shape).astype(np.float32)


def scan_reference(combine, inputs, axis, reverse):
    """Applies `combine` in sequence along `axis` (from the end when
    `reverse`, the accumulated value on the left): the semantics
    tl.associative_scan defines, for any associative function."""
    moved = [np.moveaxis(x, axis, 0) for x in inputs]
    n = moved[0].shape[0]
    order = range(n - 1, -1, -1) if reverse else range(n)
    out = [np.empty_like(x) for x in moved]
    acc = None
    for k in order:
        cur = tuple(x[k] for x in moved)
        acc = cur if acc is None else combine(*acc, *cur)
        for o, a in zip(out, acc):
            o[k] = a
    return [np.moveaxis(o, 0, axis) for o in out]


def first_element(a, b):
    return (a,)


def linear_recurrence(a1, b1, a2, b2):
    return a1 * a2, b1 * a2 + b2


def cummax(v0, i0, v1, i1):
    gt = v0 > v1
    return np.where(gt, v0, v1), np.where(gt, i0, i1)


def roll(a1, b1_last, b1_cur, a2, b2_last, b2_cur):
    return a1 + a2, np.where(a2 == 1, b1_cur, 0).astype(b2_last.dtype) + b2_last, b2_cur


def cases():
    out = []
    x = rs.rand(512).astype(np.float32)
    out.append(Case("test_core/test_generic_reduction", "combine/ports.tk", "var_mean_kernel",
                    grid=1,
                    args=dict(X=x, out_mean=np.zeros(1, np.float32),
                              out_var=np.zeros(1, np.float32),
                              out_sum0=np.zeros(1, np.float32),
                              out_sum1=np.zeros(1, np.float32)),
                    defines=dict(BLOCK=512),
                    expect=dict(out_mean=np.array([x.mean()], np.float32),
                                out_var=np.array([x.var()], np.float32),
                                out_sum0=np.array([x.sum()], np.float32),
                                out_sum1=np.array([x.sum()], np.float32)),
                    rtol=1e-5, atol=1e-6))

    for shape, axis, keep in (((32, 64), 1, False), ((32, 64), 0, True), ((4, 512), 1, False),
                              ((512, 4), 0, False)):
        x = rs.randn(*shape).astype(np.float32)
        x.ravel()[rs.randint(0, x.size, 8)] = x.max() + 1  # ties: the first index
        want = x.argmax(axis=axis).astype(np.int32)
        if keep:
            want = np.expand_dims(want, axis)
        out.append(Case(f"test_core/test_reduce argmax-combine {shape} axis={axis} keep_dims={keep}",
                        "combine/ports.tk", "argmax_kernel", grid=1,
                        args=dict(X=x, Z=np.zeros(want.shape, np.int32)),
                        defines=dict(BLOCK_M=shape[0], BLOCK_N=shape[1], AXIS=axis,
                                     KEEP_DIMS=keep),
                        expect=dict(Z=want)))

    # test_scan2d's combine-function ops, a sample of its configurations.
    configs = [((8, 32), 1, False, 4), ((8, 32), 0, True, 4), ((32, 16), 0, False, 4),
               ((32, 16), 1, True, 16), ((2, 1024), 1, False, 4), ((2, 1024), 1, True, 16),
               ((1024, 2), 0, True, 4), ((1024, 2), 0, False, 16), ((32, 32), 1, False, 16),
               ((1, 1024), 1, True, 4)]
    for op in ("get_first_element", "linear_recurrence", "cummax", "roll"):
        for dtype, suffix in ((np.float32, "f32"), (np.int32, "i32")):
            for shape, axis, reverse, warps in configs:
                if op == "linear_recurrence" and dtype == np.int32:
                    x = rs.randint(-1, 2, shape).astype(np.int32)
                    y = rs.randint(-1, 2, shape).astype(np.int32)
                else:
                    x = numpy_random(shape, dtype)
                    y = numpy_random(shape, dtype)
                rtol = 0.01 if dtype == np.float32 else 0.0
                if op == "get_first_element":
                    want = scan_reference(first_element, [x], axis, reverse)[0]
                elif op == "linear_recurrence":
                    want = scan_reference(linear_recurrence, [x.astype(np.float64)
                                                             if dtype == np.float32 else x,
                                                             y.astype(np.float64)
                                                             if dtype == np.float32 else y],
                                          axis, reverse)[1].astype(dtype)
                elif op == "cummax":
                    rg = np.broadcast_to(np.arange(shape[axis], dtype=np.int64).reshape(
                        (-1, 1) if axis == 0 else (1, -1)), shape).copy()
                    want = scan_reference(cummax, [x, rg], axis, reverse)[1]
                else:
                    want = scan_reference(roll, [np.ones_like(x), np.zeros_like(x), x],
                                          axis, reverse)[1]
                zdtype = np.int64 if op == "cummax" else dtype
                name = (f"test_core/test_scan2d {op} {suffix} {shape} axis={axis} "
                        f"reverse={reverse} num_warps={warps}")
                out.append(Case(name, "combine/ports.tk", f"scan_{op.replace('get_', '')}_{suffix}",
                                grid=1, num_warps=warps,
                                args=dict(X=x, Y=y, Z=np.zeros(shape, zdtype)),
                                defines=dict(BLOCK_M=shape[0], BLOCK_N=shape[1], AXIS=axis,
                                             REVERSE=reverse),
                                expect=dict(Z=want), rtol=rtol, atol=1e-5 if rtol else 0.0))
    return out


if __name__ == "__main__":
    run_main(cases)
