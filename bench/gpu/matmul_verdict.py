"""The verdict of a GPU matmul check, shared by bench/gpu/matmul_tma_gpu.sh
and bench/gpu/matmul_fp8_gpu.sh.

`check(out, ref64, cublas, what, cublas_name)` compares tk's result and
cuBLAS's on the same inputs with the float64 product: tk's relative error
(Frobenius norm) must be below 1e-2 and at most twice cuBLAS's, with no
NaN. It prints one `ok` line with both errors and the share of elements
equal to cuBLAS's, or fails an assertion. The operations are those torch
tensors and numpy arrays share, so either works (float64 values).
"""


def _norm(x):
    return float((x * x).sum()) ** 0.5


def check(out, ref64, cublas, what, cublas_name="cuBLAS"):
    assert tuple(out.shape) == tuple(ref64.shape), out.shape
    assert not bool((out != out).any()), "NaN in the result"
    rel = _norm(out - ref64) / _norm(ref64)
    rel_cublas = _norm(cublas - ref64) / _norm(ref64)
    same = float(((out == cublas) * 1.0).mean())
    assert rel < 1e-2 and rel <= 2 * rel_cublas + 1e-6, (rel, rel_cublas)
    print(f"ok {what}: ||c - ref64|| / ||ref64|| = {rel:.2e} "
          f"({cublas_name} {rel_cublas:.2e}; {100 * same:.1f}% of elements "
          f"equal to cuBLAS's)")
