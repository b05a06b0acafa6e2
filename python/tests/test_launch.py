"""The GPU launch path of the tk package without a GPU: a stand-in torch
module (tensors on several CUDA devices) and a stand-in libtkjit that
records every call, so that what reaches the C API is checked exactly:
  - the cheap launch (tk/_launcher.py) packs the grid, the stream and each
    tkrt_arg as tk_jit_launch_packed reads them, and runs from the second
    call on (the first takes the general path, which compiles);
  - a launch on tensors on device N runs in device N's context, on device
    N's current stream, with a kernel created (loaded) there at the first
    launch on N, as Triton loads a kernel lazily per device;
  - what the cheap launch does not recognise goes to the general path.
"""
import os
import struct
import sys
import types
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
if os.environ.get("TK_TEST_INSTALLED") != "1":
    sys.path.insert(0, os.path.join(ROOT, "python"))

import tk  # noqa: E402
from tk import _capi, _jit  # noqa: E402


class Dtype:
    def __init__(self, name):
        self.name = name

    def __str__(self):
        return "torch." + self.name


def fake_torch(devices):
    torch = types.ModuleType("torch")

    class Tensor:
        def __init__(self, address, dtype, device=0):
            self.address, self.dtype, self.index = address, dtype, device
            self.is_cuda = True

        def data_ptr(self):
            return self.address

        def get_device(self):
            return self.index

    torch.Tensor = Tensor
    torch.float32, torch.float16 = Dtype("float32"), Dtype("float16")
    torch._C = types.SimpleNamespace(
        _cuda_getCurrentRawStream=lambda index: 0x5000 + index)
    torch.cuda = types.SimpleNamespace(current_device=lambda: 0,
                                       is_initialized=lambda: True,
                                       device_count=lambda: devices)
    return torch


class FakeLibrary:
    """libtkjit's entry points the package calls, recording them. Context
    d is the handle 0x100 + d, its kernels 0x1000 * (d + 1) + n, its
    wrapped streams 0x9000 + CUstream."""

    def __init__(self, params):
        self.params = params  # [(name, type)]
        self.calls = []
        self.contexts = {}
        self.kernels = {}

    @staticmethod
    def _out(reference, value):
        reference._obj.value = value

    def tkrt_last_error(self):
        return b"fake error"

    def tkrt_context_create_on_device(self, mode, device, out):
        self.calls.append(("context", mode, device))
        self._out(out, 0x100 + device)
        self.contexts[0x100 + device] = device
        return 0

    def tkrt_stream_wrap(self, context, native, out):
        self.calls.append(("stream", self.contexts[context.value],
                           native.value))
        self._out(out, 0x9000 + native.value)
        return 0

    def tk_jit_kernel_from_source(self, context, source, source_name, name,
                                  options, out):
        device = self.contexts[context.value]
        kernel = 0x1000 * (device + 1) + len(self.kernels)
        self.kernels[kernel] = device
        self.calls.append(("kernel", device))
        self._out(out, kernel)
        return 0

    def tk_jit_kernel_destroy(self, kernel):
        pass

    def tk_jit_kernel_name(self, kernel):
        return b"k"

    def tk_jit_kernel_num_params(self, kernel):
        return len(self.params)

    def tk_jit_kernel_param_name(self, kernel, index):
        return self.params[index][0].encode()

    def tk_jit_kernel_param_type(self, kernel, index):
        return self.params[index][1].encode()

    def tk_jit_kernel_num_configs(self, kernel):
        return 0

    def tk_jit_launch(self, kernel, gx, gy, gz, stream, args, count):
        values = [(args[i].type, args[i].value.u64) for i in range(count)]
        self.calls.append(("launch", self.kernels[kernel.value],
                           (gx, gy, gz), stream and stream.value, values))
        return 0

    def tk_jit_launch_packed(self, kernel, packet):
        self.last_packet = packet
        gx, gy, gz, stream, count = struct.unpack_from("<qqqQq", packet)
        values = [struct.unpack_from("<i4xQ", packet, 40 + 16 * i)
                  for i in range(count)]
        self.calls.append(("packed", self.kernels[kernel.value],
                           (gx, gy, gz), stream or None, values))
        return 0


def bits(fmt, value):
    return int.from_bytes(struct.pack(fmt, value).ljust(8, b"\0"), "little")


class LaunchTest(unittest.TestCase):
    SOURCE = "@kernel\ndef k(): pass\n"  # the fake library ignores it

    def setUp(self):
        self.saved = (sys.modules.get("torch"), _capi._lib,
                      dict(_jit._devices), tk.interpret)
        _jit._devices.clear()
        tk.interpret = False
        self.torch = sys.modules["torch"] = fake_torch(devices=2)

    def tearDown(self):
        torch, lib, devices, interpret = self.saved
        if torch is None:
            sys.modules.pop("torch", None)
        else:
            sys.modules["torch"] = torch
        _capi._lib = lib
        _jit._devices.clear()
        _jit._devices.update(devices)
        tk.interpret = interpret

    def use(self, params):
        self.lib = _capi._lib = FakeLibrary(params)
        return tk.kernel(self.SOURCE, "k")

    def launches(self):
        return [c for c in self.lib.calls if c[0] in ("launch", "packed")]

    def test_packed_arguments_of_every_kind(self):
        kernel = self.use([("x", "*f32"), ("h", "*f16"), ("n", "i32"),
                           ("big", "u64"), ("a", "f32"), ("b", "f64"),
                           ("c", "f16"), ("d", "bf16"), ("flag", "i1")])
        T = self.torch.Tensor
        x, h = T(0x1000, self.torch.float32), T(0x2000, self.torch.float16)
        call = (x, h, 7, 2**64 - 1, 1.5, 2.5, 0.5, 1.0, True)
        for _ in range(2):
            kernel[(3, 2)](*call, BLOCK=4)
        general, packed = self.launches()
        self.assertEqual(general[0], "launch")
        self.assertEqual(packed[0], "packed")
        expected = [
            (_capi.ARG_PTR, 0x1000), (_capi.ARG_PTR, 0x2000),
            (_capi.ARG_INT, 7), (_capi.ARG_U64, 2**64 - 1),
            (_capi.ARG_F32, bits("<f", 1.5)), (_capi.ARG_F64, bits("<d", 2.5)),
            (_capi.ARG_F16, bits("<e", 0.5)), (_capi.ARG_BF16, 0x3F80),
            (_capi.ARG_I1, 1)]
        # Both paths pass the same: the grid, device 0's current stream
        # (wrapped once), the tags and values.
        self.assertEqual(general[1:], (0, (3, 2, 1), 0x9000 + 0x5000,
                                       expected))
        self.assertEqual(packed[1:], general[1:])
        self.assertEqual(
            [c for c in self.lib.calls if c[0] == "stream"],
            [("stream", 0, 0x5000)])
        self.assertEqual(len(self.lib.last_packet), 40 + 16 * len(call))

    def test_cheap_path_grids_and_fallbacks(self):
        kernel = self.use([("x", "*f32"), ("n", "i32")])
        T = self.torch.Tensor
        x = T(0x1000, self.torch.float32)
        kernel[(1,)](x, 5, BLOCK=4)  # general
        kernel[7](x, 5, BLOCK=4)
        kernel[(1, 2, 3)](x, 5, BLOCK=4)
        kernel[lambda meta: (meta["n"] * meta["BLOCK"],)](x, 5, BLOCK=4)
        kinds = [(c[0], c[2]) for c in self.launches()]
        self.assertEqual(kinds, [("launch", (1, 1, 1)), ("packed", (7, 1, 1)),
                                 ("packed", (1, 2, 3)),
                                 ("packed", (20, 1, 1))])
        # Another constexpr value is another handle: general first.
        kernel[(1,)](x, 5, BLOCK=8)
        self.assertEqual(self.launches()[-1][0], "launch")
        # What the cheap launch does not take goes to the general path,
        # which reports it.
        del self.lib.calls[:]
        with self.assertRaisesRegex(OverflowError, "does not fit"):
            kernel[(1,)](x, 2**40, BLOCK=4)
        with self.assertRaisesRegex(TypeError, "expects an integer"):
            kernel[(1,)](x, 5.0, BLOCK=4)
        with self.assertRaisesRegex(TypeError, "expects a tensor of f32"):
            kernel[(1,)](T(0x1000, self.torch.float16), 5, BLOCK=4)
        with self.assertRaisesRegex(ValueError, "1 to 3 dimensions"):
            kernel[(1, 1, 1, 1)](x, 5, BLOCK=4)
        self.assertEqual(self.launches(), [])
        # A failed launch raises the library's message.
        self.lib.tk_jit_launch_packed = lambda kernel, packet: 1
        failing = tk.kernel(self.SOURCE, "k")
        failing[(1,)](x, 5, BLOCK=4)
        with self.assertRaisesRegex(tk.TkError, "fake error"):
            failing[(1,)](x, 5, BLOCK=4)

    def test_launches_on_the_tensors_device(self):
        kernel = self.use([("x", "*f32"), ("y", "*f32"), ("n", "i32")])
        T, f32 = self.torch.Tensor, self.torch.float32
        x1, y1 = T(0x1100, f32, device=1), T(0x1200, f32, device=1)
        for _ in range(2):
            kernel[(1,)](x1, y1, 4, BLOCK=4)
        # Only device 1's context exists; the kernel was created there and
        # both launches ran it, on device 1's current stream.
        contexts = [c for c in self.lib.calls if c[0] == "context"]
        self.assertEqual(contexts, [("context", _capi.TKRT_MODE_GPU, 1)])
        self.assertEqual([c for c in self.lib.calls if c[0] == "kernel"],
                         [("kernel", 1)])
        self.assertEqual([(c[0], c[1], c[3]) for c in self.launches()],
                         [("launch", 1, 0x9000 + 0x5001),
                          ("packed", 1, 0x9000 + 0x5001)])
        # Device 0 next: its context and kernel are made at its first
        # launch; device 1's stay.
        x0, y0 = T(0x100, f32, device=0), T(0x200, f32, device=0)
        for _ in range(2):
            kernel[(1,)](x0, y0, 4, BLOCK=4)
        kernel[(1,)](x1, y1, 4, BLOCK=4)
        self.assertEqual([c for c in self.lib.calls if c[0] == "kernel"],
                         [("kernel", 1), ("kernel", 0)])
        self.assertEqual([(c[0], c[1], c[3]) for c in self.launches()[2:]],
                         [("launch", 0, 0x9000 + 0x5000),
                          ("packed", 0, 0x9000 + 0x5000),
                          ("packed", 1, 0x9000 + 0x5001)])
        # Tensors on two devices in one launch are an error.
        with self.assertRaisesRegex(TypeError, "argument 2 'y' .* a tensor "
                                    "on cuda:1, but the launch runs on "
                                    "cuda:0"):
            kernel[(1,)](x0, y1, 4, BLOCK=4)

    def test_without_tensors_the_current_device(self):
        kernel = self.use([("n", "i32")])
        self.torch.cuda.current_device = lambda: 1
        self.torch._C._cuda_getDevice = lambda: 1
        for _ in range(2):
            kernel[(1,)](3, BLOCK=4)
        self.assertEqual([(c[0], c[1]) for c in self.launches()],
                         [("launch", 1), ("packed", 1)])

    def test_interpret_flag_bypasses_the_cheap_path(self):
        kernel = self.use([("x", "*f32")])
        x = self.torch.Tensor(0x1000, self.torch.float32)
        kernel[(1,)](x, BLOCK=4)
        tk.interpret = True
        with self.assertRaisesRegex(TypeError, "tk.interpret is on"):
            kernel[(1,)](x, BLOCK=4)
        tk.interpret = False
        kernel[(1,)](x, BLOCK=4)
        self.assertEqual([c[0] for c in self.launches()],
                         ["launch", "packed"])


if __name__ == "__main__":
    unittest.main()
