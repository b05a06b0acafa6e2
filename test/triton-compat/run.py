#!/usr/bin/env python3
"""Runs the Triton ports of test/triton-compat and checks them against numpy.

Each case names a kernel of a .tk file here, its constexpr values, grid and
arguments (numpy arrays become .npy files), and a numpy function computing
what the outputs must be. The kernel runs in the CPU interpreter (tk-run),
or with --gpu on the GPU (tk-run --gpu); with --ptx every case is also
compiled to cubins for sm_90a and sm_80 (tkc runs ptxas and fails on PTX it
rejects).

    run.py [--bin build/bin] [--gpu] [--ptx [--no-run]] [-k SUBSTRING]

Prints one 'ok NAME' or 'FAIL NAME: why' line per case; exits 1 on any FAIL.
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(20250101)


class Case:
    def __init__(self, name, file, kernel, grid, args, expect, defines=None,
                 num_warps=None, rtol=0.0, atol=0.0):
        self.name, self.file, self.kernel = name, file, kernel
        self.grid, self.args, self.expect = grid, args, expect
        self.defines = defines or {}
        self.num_warps = num_warps
        self.rtol, self.atol = rtol, atol


# ---------------------------------------------------------------------------
# References
# ---------------------------------------------------------------------------

def fp8_e4m3(x):
    """cvt.rn.satfinite.e4m3x2.f32 and back: round to nearest even at 3
    mantissa bits (subnormals below 2^-6), saturate at 448, NaN stays NaN."""
    return _fp8(x, mantissa=3, min_exp=-6, max_finite=448.0)


def fp8_e5m2(x):
    return _fp8(x, mantissa=2, min_exp=-14, max_finite=57344.0)


def _fp8(x, mantissa, min_exp, max_finite):
    x = np.asarray(x, np.float64)
    a = np.minimum(np.abs(x), 2 * max_finite)  # inf saturates too
    with np.errstate(divide="ignore", invalid="ignore"):
        e = np.floor(np.log2(np.where(a > 0, a, 1.0)))
    e = np.maximum(e, min_exp)
    ulp = np.exp2(e - mantissa)
    r = np.rint(a / ulp) * ulp  # numpy rounds half to even
    r = np.minimum(r, max_finite)
    r = np.where(np.isnan(x), np.nan, np.copysign(r, x))
    return r.astype(np.float32)


def fp8_bits(values, mantissa, min_exp):
    """The fp8 encodings (uint8) of values that fp8 represents exactly (the
    results of fp8_e4m3 / fp8_e5m2): bias 1 - min_exp, subnormals below
    2^min_exp."""
    out = []
    for v in np.asarray(values, np.float64).ravel():
        sign = 0x80 if np.signbit(v) else 0
        a = abs(float(v))
        if a == 0:
            out.append(sign)
            continue
        e = max(int(np.floor(np.log2(a))), min_exp)
        field = 0 if a < 2.0 ** min_exp else e - min_exp + 1
        m = a / 2.0 ** e if field else a / 2.0 ** min_exp
        frac = int(round((m - (1 if field else 0)) * 2 ** mantissa))
        assert frac < 2 ** mantissa and (frac / 2 ** mantissa + (1 if field else 0)) * \
            2.0 ** e == a, v
        out.append(sign | (field << mantissa) | frac)
    return np.array(out, np.uint8).reshape(np.shape(values))


def softmax_ref(x):
    z = x - x.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def matmul_ref(a, b, leaky):
    c = a.astype(np.float32) @ b.astype(np.float32)
    if leaky:
        c = np.where(c >= 0, c, 0.01 * c)
    return c.astype(np.float16)


# ---------------------------------------------------------------------------
# Cases
# ---------------------------------------------------------------------------

def cases():
    out = []
    n = 98432
    x = rng.random(n, dtype=np.float32)
    y = rng.random(n, dtype=np.float32)
    out.append(Case("tutorial01/add_kernel", "vector_add.tk", "add_kernel",
                    grid=(n + 1023) // 1024,
                    args=dict(x_ptr=x, y_ptr=y, output_ptr=np.zeros(n, np.float32),
                              n_elements=n),
                    defines=dict(BLOCK_SIZE=1024),
                    expect=dict(output_ptr=x + y)))

    rows, cols = 123, 781
    s = rng.standard_normal((rows, cols), dtype=np.float32)
    out.append(Case("tutorial02/softmax_kernel", "fused_softmax.tk", "softmax_kernel",
                    grid=32,
                    args=dict(output_ptr=np.zeros((rows, cols), np.float32), input_ptr=s,
                              input_row_stride=cols, output_row_stride=cols,
                              n_rows=rows, n_cols=cols),
                    defines=dict(BLOCK_SIZE=1024, num_stages=2), num_warps=8,
                    expect=dict(output_ptr=softmax_ref(s)), rtol=1e-5, atol=1e-6))

    for act, leaky in (('"leaky_relu"', True), ('""', False)):
        M, N, K = 96, 80, 72
        a = (rng.standard_normal((M, K)) * 0.5).astype(np.float16)
        b = (rng.standard_normal((K, N)) * 0.5).astype(np.float16)
        out.append(Case("tutorial03/matmul_kernel" + ("_leaky" if leaky else ""),
                        "matmul.tk", "matmul_kernel",
                        grid=((M + 31) // 32) * ((N + 31) // 32),
                        args=dict(a_ptr=a, b_ptr=b, c_ptr=np.zeros((M, N), np.float16),
                                  M=M, N=N, K=K, stride_am=K, stride_ak=1,
                                  stride_bk=N, stride_bn=1, stride_cm=N, stride_cn=1),
                        # The third autotune config (32 x 32 x 32).
                        defines=dict(ACTIVATION=act, BLOCK_SIZE_M=32, BLOCK_SIZE_N=32,
                                     BLOCK_SIZE_K=32, GROUP_SIZE_M=8),
                        expect=dict(c_ptr=matmul_ref(a, b, leaky)), rtol=2e-2, atol=2e-2))

    sx = np.array([-16, 16, -1, 1 << 30, -(1 << 31), 7, -7, 0], np.int32)
    sy = np.array([2, 2, 31, 3, 4, 1, 1, 5], np.uint32)
    out.append(Case("test_core/test_shift_op i32>>u32", "test_core.tk", "shift_kernel",
                    grid=1, args=dict(Z=np.zeros(8, np.uint32), X=sx, Y=sy),
                    defines=dict(SIZE=8),
                    expect=dict(Z=(sx.astype(np.int64) >> sy.astype(np.int64))
                                .astype(np.uint32))))
    sx8 = sx.astype(np.int8)
    out.append(Case("test_core/test_shift_op i8>>u32", "test_core.tk", "shift_i8_kernel",
                    grid=1, args=dict(Z=np.zeros(8, np.uint32), X=sx8, Y=sy),
                    defines=dict(SIZE=8),
                    expect=dict(Z=(sx8.astype(np.int64) >> sy.astype(np.int64))
                                .astype(np.uint32))))

    for init, din, dout, want in ((1, "tl.int1", "None", 1024), (1, "tl.int1", "tl.int1", 0),
                                  (7, "tl.int8", "tl.int8", 0),
                                  (300, "tl.int16", "tl.int16", -20480),
                                  (7, "tl.int8", "None", 7168)):
        out.append(Case(f"test_core/test_sum_dtype {din}->{dout}", "test_core.tk",
                        "kernel_dtype", grid=1,
                        args=dict(out_ptr=np.zeros(1, np.int32), init=init),
                        defines=dict(in_dtype=din, out_dtype=dout),
                        expect=dict(out_ptr=np.array([want], np.int32))))
    out.append(Case("test_core/test_sum_dtype default int", "test_core.tk",
                    "kernel_default_int", grid=1, args=dict(out_ptr=np.zeros(1, np.int32)),
                    expect=dict(out_ptr=np.array([1024], np.int32))))

    for mode in ('"dynamic"', '"static"'):
        for exit_early in (1, 0):
            out.append(Case(f"test_core/test_if_return {mode} {exit_early}", "test_core.tk",
                            "if_return_kernel", grid=1,
                            args=dict(ExitEarly=np.array([exit_early], np.int32),
                                      Out=np.full(1, -1, np.int32)),
                            defines=dict(mode=mode, cond=bool(exit_early)),
                            expect=dict(Out=np.array([0 if exit_early else 1], np.int32))))
    for c1 in (1, 0):
        for c2 in (1, 0):
            for c3 in (1, 0):
                want = (1 if c2 else -1) if c1 else (2 if c3 else 3)
                out.append(Case(f"test_core/test_nested_if_else_return {c1}{c2}{c3}",
                                "test_core.tk", "nested_if_else_return_kernel", grid=1,
                                args=dict(Cond1=np.array([c1], np.int32),
                                          Cond2=np.array([c2], np.int32),
                                          Cond3=np.array([c3], np.int32),
                                          Val1=np.array([1], np.int32),
                                          Val2=np.array([2], np.int32),
                                          Val3=np.array([3], np.int32),
                                          Out=np.full(1, -1, np.int32)),
                                expect=dict(Out=np.array([want], np.int32))))
    cx = np.arange(2 * 16, dtype=np.int32)
    out.append(Case("test_core/test_call add_fn_return", "test_core.tk", "call_kernel",
                    grid=2, args=dict(X=cx.copy()), defines=dict(SIZE=16),
                    expect=dict(X=cx + np.repeat(np.array([1, 2], np.int32), 16))))

    wn = 1000
    wc = rng.integers(-2, 3, wn).astype(np.int32)
    wa = rng.standard_normal(wn).astype(np.float32)
    wb = rng.standard_normal(wn).astype(np.float32)
    out.append(Case("test_core/test_where int condition", "test_core.tk", "where_kernel",
                    grid=(wn + 255) // 256,
                    args=dict(cond_ptr=wc, a_ptr=wa, b_ptr=wb,
                              output_ptr=np.zeros(wn, np.float32), n_elements=wn),
                    defines=dict(BLOCK_SIZE=256),
                    expect=dict(output_ptr=np.where(wc != 0, wa, wb))))

    special = np.array([0.0, -0.0, 1.0, -1.5, 448.0, 449.0, 464.0, 480.0, 1e6, -1e6,
                        np.inf, -np.inf, 0.0625, 0.001953125, 0.0029296875, 0.0009765625,
                        1e-9, 57344.0, 61440.0, 3.14159, 2.0**-16, 2.0**-17, 1.75, 1.8125],
                       np.float32)
    fx = np.concatenate([special, (rng.standard_normal(1000) * 50).astype(np.float32),
                         (rng.standard_normal(1000) * 1e-3).astype(np.float32)])
    fn = fx.size
    for dst, ref, name in (("tl.float8e4nv", fp8_e4m3, "e4m3"), ("tl.float8e5", fp8_e5m2, "e5m2")):
        out.append(Case(f"test_core/fp8 round trip {name}", "test_core.tk",
                        "fp8_roundtrip_kernel", grid=(fn + 255) // 256,
                        args=dict(in_ptr=fx, out_ptr=np.zeros(fn, np.float32),
                                  e4_ptr=np.zeros(fn, np.uint8), e5_ptr=np.zeros(fn, np.uint8),
                                  n=fn),
                        defines=dict(dst_type=dst, BLOCK=256),
                        expect=dict(out_ptr=ref(fx))))

    # test_dot, in_dtype float8e4nv and float8e5: M, N, K = 64, 32, 64 with
    # row-major operands; numpy_random's fp8 values, exact in f32 products.
    M, N, K = 64, 32, 64
    for kernel, name, ref, mantissa, min_exp in (
            ("dot_fp8e4nv_kernel", "float8e4nv", fp8_e4m3, 3, -6),
            ("dot_fp8e5_kernel", "float8e5", fp8_e5m2, 2, -14)):
        xv = ref(rng.standard_normal((M, K)).astype(np.float32) * 4)
        yv = ref(rng.standard_normal((K, N)).astype(np.float32) * 4)
        want = (xv.astype(np.float64) @ yv.astype(np.float64)).astype(np.float32)
        out.append(Case(f"test_core/test_dot {name}", "test_core.tk", kernel, grid=1,
                        args=dict(X=fp8_bits(xv, mantissa, min_exp), stride_xm=K,
                                  stride_xk=1, Y=fp8_bits(yv, mantissa, min_exp),
                                  stride_yk=N, stride_yn=1, Z=np.zeros((M, N), np.float32),
                                  stride_zm=N, stride_zn=1),
                        defines=dict(BLOCK_M=M, BLOCK_N=N, BLOCK_K=K),
                        expect=dict(Z=want), rtol=1e-5, atol=1e-4))

    px = np.array([5, 4000000000, 7, 1, 4000000001, 3, 0, 2], np.uint32)
    for bias, add in (("None", 0), ("3", 3)):
        out.append(Case(f"test_core/python-isms bias={bias}", "test_core.tk",
                        "pythonisms_kernel", grid=1,
                        args=dict(x_ptr=px, out_ptr=np.zeros(8, np.int32),
                                  idx_ptr=np.zeros(1, np.int32)),
                        defines=dict(BLOCK=8, bias=bias),
                        expect=dict(out_ptr=((px + np.uint32(add)) * np.uint32(2))
                                    .astype(np.int32),
                                    idx_ptr=np.array([4], np.int32))))
    return out


# ---------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------

def run_case(case, bin_dir, tmp, gpu):
    cmd = [os.path.join(bin_dir, "tk-run"), os.path.join(HERE, case.file), "-k", case.kernel,
           "--grid", str(case.grid)]
    if gpu:
        cmd.append("--gpu")
    if case.num_warps:
        cmd += ["--num-warps", str(case.num_warps)]
    for k, v in case.defines.items():
        cmd += ["-D", f"{k}={v}"]
    for k, v in case.args.items():
        if isinstance(v, np.ndarray):
            path = os.path.join(tmp, f"{k}.npy")
            np.save(path, v)
            cmd += ["--arg", f"{k}={path}"]
        else:
            cmd += ["--arg", f"{k}={v}"]
    for k in case.expect:
        cmd += ["--write", f"{k}={os.path.join(tmp, k + '.out.npy')}"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        return f"tk-run exit {proc.returncode}: {proc.stderr.strip()[-600:]}"
    for k, want in case.expect.items():
        got = np.load(os.path.join(tmp, k + ".out.npy"))
        if got.shape != want.shape:
            got = got.reshape(want.shape)
        if want.dtype.kind == "f":
            ok = np.allclose(got.astype(np.float64), want.astype(np.float64),
                             rtol=case.rtol, atol=case.atol, equal_nan=True)
        else:
            ok = np.array_equal(got, want)
        if not ok:
            bad = np.flatnonzero(~np.isclose(got.astype(np.float64).ravel(),
                                             want.astype(np.float64).ravel(),
                                             rtol=case.rtol, atol=case.atol,
                                             equal_nan=True))
            i = bad[0] if bad.size else 0
            return (f"{k}: {bad.size} elements differ, first at {i}: got "
                    f"{got.ravel()[i]!r}, want {want.ravel()[i]!r}")
    return None


def compile_case(case, bin_dir, tmp):
    for arch in ("sm_90a", "sm_80"):
        cmd = [os.path.join(bin_dir, "tkc"), os.path.join(HERE, case.file), "-k", case.kernel,
               "--arch", arch, "-o", os.path.join(tmp, f"k-{arch}.cubin")]
        if case.num_warps:
            cmd += ["--num-warps", str(case.num_warps)]
        for k, v in case.defines.items():
            cmd += ["-D", f"{k}={v}"]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            return f"tkc --arch {arch} exit {proc.returncode}: {proc.stderr.strip()[-600:]}"
    return None


def main(make_cases=None):
    """Runs `make_cases()` (this file's cases by default; combine/check.py
    passes its own) with the command-line options below."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default="", help="folder with tk-run and tkc (default: PATH)")
    parser.add_argument("--gpu", action="store_true", help="run on the GPU")
    parser.add_argument("--ptx", action="store_true",
                        help="also compile each case for sm_90a and sm_80")
    parser.add_argument("--no-run", action="store_true", help="only compile (with --ptx)")
    parser.add_argument("-k", default="", help="only cases whose name contains this")
    opts = parser.parse_args()
    failed = 0
    for case in (make_cases or cases)():
        if opts.k not in case.name:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            why = None if opts.no_run else run_case(case, opts.bin, tmp, opts.gpu)
            if why is None and opts.ptx:
                why = compile_case(case, opts.bin, tmp)
        if why:
            failed += 1
            print(f"FAIL {case.name}: {why}")
        else:
            print(f"ok {case.name}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
