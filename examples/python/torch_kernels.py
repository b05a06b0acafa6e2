#!/usr/bin/env python3
"""tk's softmax and matmul on PyTorch tensors, checked against
torch.softmax and torch.matmul (on the GPU machine):

    TK_LIBRARY=build/lib/libtkjit.so python3 examples/python/torch_kernels.py

With --interpret (or TK_INTERPRET=1) the same calls run in the CPU
interpreter on CPU tensors, with smaller sizes. Prints one line per check
and the time per call (tk.testing.do_bench) next to PyTorch's; exits 1 on
a mismatch.
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))

import torch  # noqa: E402

import tk  # noqa: E402

EXAMPLES = os.path.join(HERE, "..")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--interpret", action="store_true")
    options = parser.parse_args()
    if options.interpret:
        tk.interpret = True
    interpreting = tk.interpret or os.environ.get("TK_INTERPRET") == "1"
    device = "cpu" if interpreting else "cuda"
    torch.manual_seed(0)
    failures = 0

    # Softmax over rows: one program per row, BLOCK >= the row length.
    softmax = tk.jit(os.path.join(EXAMPLES, "softmax.tk"), "softmax")
    rows, cols = (64, 781) if interpreting else (4096, 781)
    x = torch.randn(rows, cols, device=device, dtype=torch.float32)
    y = torch.empty_like(x)

    def run_softmax():
        softmax[(rows,)](y, x, x.stride(0), y.stride(0), cols, BLOCK=1024)

    run_softmax()
    expected = torch.softmax(x, dim=1)
    error = (y - expected).abs().max().item()
    ok = torch.allclose(y, expected, rtol=1e-5, atol=1e-6)
    failures += not ok
    print("softmax %dx%d: max abs error %.2e %s" %
          (rows, cols, error, "ok" if ok else "MISMATCH"))
    if not interpreting:
        ms = tk.testing.do_bench(run_softmax)
        ref = tk.testing.do_bench(lambda: torch.softmax(x, dim=1))
        print("  tk %.4f ms, torch.softmax %.4f ms" % (ms, ref))

    # Matmul, f16 in, f32 accumulation, f16 out; the grid from the blocks.
    matmul = tk.jit(os.path.join(EXAMPLES, "matmul.tk"), "matmul")
    m, n, k = (64, 48, 80) if interpreting else (4096, 4096, 4096)
    a = torch.randn(m, k, device=device, dtype=torch.float16)
    b = torch.randn(k, n, device=device, dtype=torch.float16)
    c = torch.empty(m, n, device=device, dtype=torch.float16)
    blocks = dict(BLOCK_M=32, BLOCK_N=32, BLOCK_K=32, GROUP_M=4) \
        if interpreting else dict(BLOCK_M=128, BLOCK_N=128, BLOCK_K=32,
                                  GROUP_M=8)

    def run_matmul():
        matmul[lambda meta: (tk.cdiv(m, meta["BLOCK_M"]) *
                             tk.cdiv(n, meta["BLOCK_N"]),)](
            a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0),
            b.stride(1), c.stride(0), c.stride(1), LEAKY=False,
            num_warps=4, num_stages=3, **blocks)

    run_matmul()
    expected = (a.float() @ b.float()) if interpreting else \
        torch.matmul(a, b).float()
    error = (c.float() - expected).abs().max().item()
    ok = torch.allclose(c.float(), expected, rtol=1e-2, atol=1e-1 * (k ** .5))
    failures += not ok
    print("matmul %dx%dx%d f16: max abs error %.2e %s" %
          (m, n, k, error, "ok" if ok else "MISMATCH"))
    if not interpreting:
        ms = tk.testing.do_bench(run_matmul)
        ref = tk.testing.do_bench(lambda: torch.matmul(a, b))
        flops = 2.0 * m * n * k
        print("  tk %.4f ms (%.1f TFLOP/s), torch.matmul %.4f ms (%.1f "
              "TFLOP/s)" % (ms, flops / ms / 1e9, ref, flops / ref / 1e9))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
