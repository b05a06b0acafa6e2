"""The tk package through the CPU interpreter, on numpy arrays (no GPU).

Run: python3 -m unittest discover -s python/tests   (TK_LIBRARY may name
libtkjit.so; otherwise the checkout's build/lib is used). References are
computed with numpy.
"""
import os
import subprocess
import sys
import tempfile
import types
import unittest
from unittest import mock

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
# TK_TEST_INSTALLED=1: test the package pip installed, not the checkout's.
if os.environ.get("TK_TEST_INSTALLED") != "1":
    sys.path.insert(0, os.path.join(ROOT, "python"))

import tk  # noqa: E402

ADD = """
@kernel
def add(x_ptr: *f32, y_ptr: *f32, out_ptr: *f32, n: i32, BLOCK: constexpr):
    offsets = program_id(0) * BLOCK + arange(0, BLOCK)
    mask = offsets < n
    store(out_ptr + offsets,
          load(x_ptr + offsets, mask=mask) + load(y_ptr + offsets, mask=mask),
          mask=mask)
"""

SCALE_TUNED = """
@autotune(configs=[Config(BLOCK=16), Config(BLOCK=32, num_warps=2)],
          key=["n"])
@kernel
def scale(x_ptr: *f32, out_ptr: *f32, n: i32, factor: f32, BLOCK: constexpr):
    offsets = program_id(0) * BLOCK + arange(0, BLOCK)
    mask = offsets < n
    store(out_ptr + offsets, load(x_ptr + offsets, mask=mask) * factor,
          mask=mask)
"""


class InterpretTest(unittest.TestCase):
    def setUp(self):
        self.cache = tempfile.TemporaryDirectory()
        os.environ["TK_CACHE_DIR"] = self.cache.name
        tk.interpret = True
        self.rng = np.random.default_rng(7)

    def tearDown(self):
        tk.interpret = False
        self.cache.cleanup()

    def test_add_on_numpy_arrays(self):
        add = tk.kernel(ADD, "add")
        n = 1000
        x = self.rng.standard_normal(n).astype(np.float32)
        y = self.rng.standard_normal(n).astype(np.float32)
        out = np.zeros(n, np.float32)
        add[(tk.cdiv(n, 256),)](x, y, out, n, BLOCK=256)
        np.testing.assert_array_equal(out, x + y)
        # A grid function sees the constexprs and the arguments by name.
        out[:] = 0
        add[lambda meta: (tk.cdiv(meta["n"], meta["BLOCK"]),)](
            x, y, out, n, BLOCK=128)
        np.testing.assert_array_equal(out, x + y)

    def test_maxnreg_launch_option(self):
        # maxnreg= at launch, as in Triton: a register cap for the GPU
        # (the interpreter runs the same kernel); a value setmaxnreg
        # cannot move is refused with the reason.
        add = tk.kernel(ADD, "add")
        n = 100
        x = self.rng.standard_normal(n).astype(np.float32)
        out = np.zeros(n, np.float32)
        add[(1,)](x, x, out, n, BLOCK=128, num_warps=4, maxnreg=128)
        np.testing.assert_array_equal(out, x + x)
        with self.assertRaisesRegex(tk.TkError, "maxnreg must be a multiple "
                                    "of 8 between 24 and 256, got 100"):
            add[(1,)](x, x, out, n, BLOCK=128, maxnreg=100)

    def test_decorator_and_file(self):
        @tk.kernel(ADD)
        def add(x, y, out, n, BLOCK=64):
            pass

        x = np.arange(100, dtype=np.float32)
        out = np.zeros(100, np.float32)
        add[(2,)](x, x, out, 100)  # BLOCK from the stub's default
        np.testing.assert_array_equal(out, 2 * x)

        softmax = tk.jit(os.path.join(ROOT, "examples", "softmax.tk"),
                         "softmax")
        rows, cols = 5, 37
        data = self.rng.standard_normal((rows, cols)).astype(np.float32)
        result = np.zeros_like(data)
        softmax[(rows,)](result, data, cols, cols, cols, BLOCK=64)
        shifted = np.exp(data - data.max(axis=1, keepdims=True))
        np.testing.assert_allclose(
            result, shifted / shifted.sum(axis=1, keepdims=True), rtol=1e-5)

    def test_environment_variable(self):
        tk.interpret = False
        os.environ["TK_INTERPRET"] = "1"
        try:
            add = tk.kernel(ADD, "add")
            x = np.ones(10, np.float32)
            out = np.zeros(10, np.float32)
            add[(1,)](x, x, out, 10, BLOCK=16)
            np.testing.assert_array_equal(out, 2 * x)
        finally:
            del os.environ["TK_INTERPRET"]

    def test_argument_errors(self):
        add = tk.kernel(ADD, "add")
        x = np.ones(16, np.float32)
        with self.assertRaisesRegex(TypeError, "takes 4 arguments"):
            add[(1,)](x, x, x, BLOCK=16)
        with self.assertRaisesRegex(TypeError, "expects an array of f32, got "
                                    "dtype float64"):
            add[(1,)](x.astype(np.float64), x, x, 16, BLOCK=16)
        with self.assertRaisesRegex(TypeError, "expects an integer"):
            add[(1,)](x, x, x, 16.0, BLOCK=16)
        with self.assertRaisesRegex(OverflowError, "does not fit"):
            add[(1,)](x, x, x, 2**40, BLOCK=16)
        with self.assertRaisesRegex(TypeError, "expects a tensor or array"):
            add[(1,)](x, [1.0], x, 16, BLOCK=16)
        # A compile error comes with its .tk position.
        with self.assertRaisesRegex(tk.TkError, "BLOCK"):
            add[(1,)](x, x, x, 16)
        with self.assertRaisesRegex(tk.TkError, "has no kernel named 'nope'"):
            tk.kernel(ADD, "nope")[(1,)](x, x, x, 16, BLOCK=16)
        # An out-of-bounds access in the interpreter is an error.
        small = np.ones(4, np.float32)
        with self.assertRaisesRegex(tk.TkError, "out-of-bounds"):
            add[(1,)](small, small, small, 16, BLOCK=16)

    def test_scalars_of_every_kind(self):
        source = """
@kernel
def fill(out_ptr: *f32, a: f32, b: f64, c: f16, d: bf16, e: u8, f: i1):
    value = a + b.to(f32) + c.to(f32) + d.to(f32) + e.to(f32)
    store(out_ptr, where(f, value, -1.0))
"""
        fill = tk.kernel(source)
        out = np.zeros(1, np.float32)
        fill[(1,)](out, 1.5, 2.25, 0.5, 4.0, 200, True)
        self.assertEqual(out[0], 1.5 + 2.25 + 0.5 + 4.0 + 200)
        fill[(1,)](out, 1.5, 2.25, 0.5, 4.0, 200, False)
        self.assertEqual(out[0], -1.0)

    def test_autotune_is_quiet_when_asked(self):
        scale = tk.kernel(SCALE_TUNED, "scale", quiet=True)
        n = 50
        x = np.arange(n, dtype=np.float32)
        out = np.zeros(n, np.float32)
        scale[lambda meta: (tk.cdiv(n, meta["BLOCK"]),)](x, out, n, 3.0)
        np.testing.assert_array_equal(out, 3 * x)

    def test_autotune_progress_in_a_child(self):
        # stderr of the library is the process's: look at it from outside.
        script = (
            "import sys, numpy as np; sys.path.append(%r)\n"
            "import tk; tk.interpret = True\n"
            "k = tk.kernel(%r, 'scale')\n"
            "x = np.arange(40, dtype=np.float32); out = np.zeros_like(x)\n"
            "k[lambda m: (tk.cdiv(40, m['BLOCK']),)](x, out, 40, 2.0)\n"
            "assert (out == 2 * x).all()\n" % (os.path.join(ROOT, "python"),
                                               SCALE_TUNED))
        env = dict(os.environ, TK_AUTOTUNE_QUIET="0")
        done = subprocess.run([sys.executable, "-c", script], env=env,
                              capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("autotune scale[40]: config 1/2 ", done.stderr)
        self.assertIn("autotune scale[40]: config 2/2 ", done.stderr)
        env["TK_AUTOTUNE_QUIET"] = "1"
        env["TK_CACHE_DIR"] = os.path.join(self.cache.name, "quiet")
        done = subprocess.run([sys.executable, "-c", script], env=env,
                              capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertNotIn("autotune", done.stderr)

    def test_do_bench(self):
        add = tk.kernel(ADD, "add")
        x = np.ones(64, np.float32)
        out = np.zeros(64, np.float32)
        ms = tk.testing.do_bench(lambda: add[(1,)](x, x, out, 64, BLOCK=64),
                                 warmup=1, rep=5)
        self.assertGreater(ms, 0)
        low, high = tk.testing.do_bench(
            lambda: add[(1,)](x, x, out, 64, BLOCK=64), warmup=1, rep=5,
            quantiles=[0.2, 0.8])
        self.assertLessEqual(low, high)

    def test_do_bench_interpreting_with_cuda_present(self):
        # With a GPU present (a torch whose CUDA is available) but tk.interpret
        # set, do_bench times the interpreter with the host clock; it must
        # not touch CUDA (events, the L2 flush buffer).
        class NoCuda:
            @staticmethod
            def is_available():
                return True

            def __getattr__(self, name):
                raise AssertionError("do_bench used torch.cuda." + name)

        fake = types.ModuleType("torch")
        fake.cuda = NoCuda()
        fake.Tensor = type("Tensor", (), {})
        fake.empty = lambda *a, **k: self.fail("do_bench allocated a tensor")
        add = tk.kernel(ADD, "add")
        x = np.ones(64, np.float32)
        out = np.zeros(64, np.float32)
        saved, tk.interpret = tk.interpret, True
        try:
            with mock.patch.dict(sys.modules, {"torch": fake}):
                ms = tk.testing.do_bench(
                    lambda: add[(1,)](x, x, out, 64, BLOCK=64), warmup=1, rep=5)
        finally:
            tk.interpret = saved
        self.assertGreater(ms, 0)
        np.testing.assert_array_equal(out, 2 * x)


if __name__ == "__main__":
    unittest.main()
