"""cubin.py -- tkc's cubins from Python, for the GPU check scripts
(matmul_gpu.py, attention_gpu.py, attention_bwd_gpu.py).

The CUDA driver through ctypes, inside PyTorch's primary context (the
scripts make it current before loading anything), so torch tensors are the
kernels' buffers. A Cubin is NAME.cubin with the metadata tkc wrote next
to it (NAME.json: kernel name, argument types, num_warps, shared bytes);
it launches with num_warps * 32 threads and that much dynamic shared
memory on torch's current stream, with the CUtensorMaps of its metadata's
`tensor_maps` encoded at each launch (as libtkrt does). time_ms is the
scripts' do_bench.
"""
import ctypes
import json
import os

import torch

cuda = ctypes.CDLL("libcuda.so.1")
CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8


# CUtensorMapDataType, CUtensorMapSwizzle (cuda.h) and element bytes of the
# metadata's tensor-map dtypes.
_TMA_TYPE = {"i8": 0, "u8": 0, "f8e4m3": 0, "f8e5m2": 0, "i16": 1, "u16": 1, "u32": 2,
             "i32": 3, "u64": 4, "i64": 5, "f16": 6, "f32": 7, "f64": 8, "bf16": 9}
_TMA_BYTES = {"i8": 1, "u8": 1, "f8e4m3": 1, "f8e5m2": 1, "i16": 2, "u16": 2, "f16": 2,
              "bf16": 2, "i32": 4, "u32": 4, "f32": 4, "i64": 8, "u64": 8, "f64": 8}
_TMA_SWIZZLE = {0: 0, 32: 1, 64: 2, 128: 3}


def use_torch_context():
    """Makes PyTorch's primary context current, before any cubin loads."""
    torch.cuda.init()
    torch.zeros(1, device="cuda")


_flush_buffer = None


def time_ms(fn, warmup=5, reps=40, warmup_ms=50.0, rep_ms=300.0):
    """The median of timed calls of `fn`, as triton.testing.do_bench
    measures (its defaults: 50 ms of warm-up, 300 ms of timed calls):
    at least `warmup` untimed calls and `warmup_ms` of them, then at least
    `reps` timed calls and `rep_ms` of them (at most 1000), each with the
    60 MB L2 evicted before it by rewriting a 256 MB buffer and CUDA
    events around it, all enqueued before one synchronize, so that the GPU
    does not idle (and its clocks drop) between calls."""
    global _flush_buffer
    if _flush_buffer is None:
        _flush_buffer = torch.empty(256 * 1024 * 1024, dtype=torch.int8, device="cuda")
    start = torch.cuda.Event(enable_timing=True)
    stop = torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(5):
        _flush_buffer.zero_()
        fn()
    stop.record()
    stop.synchronize()
    estimate = max(start.elapsed_time(stop) / 5, 1e-3)
    for _ in range(max(warmup, int(warmup_ms / estimate))):
        fn()
    n = min(max(reps, int(rep_ms / estimate)), 1000)
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(n)]
    stops = [torch.cuda.Event(enable_timing=True) for _ in range(n)]
    for i in range(n):
        _flush_buffer.zero_()
        starts[i].record()
        fn()
        stops[i].record()
    torch.cuda.synchronize()
    times = sorted(a.elapsed_time(b) for a, b in zip(starts, stops))
    return times[len(times) // 2]


def check(status, what):
    if status != 0:
        name = ctypes.c_char_p()
        cuda.cuGetErrorName(status, ctypes.byref(name))
        raise RuntimeError(f"{what}: CUDA error {status} ({name.value.decode() if name.value else '?'})")


class Cubin:
    def __init__(self, path):
        self.meta = json.load(open(path[:-len(".cubin")] + ".json"))
        self.name = os.path.basename(path)[:-len(".cubin")]
        self.module = ctypes.c_void_p()
        check(cuda.cuModuleLoadData(ctypes.byref(self.module), open(path, "rb").read()), f"load {path}")
        self.func = ctypes.c_void_p()
        check(cuda.cuModuleGetFunction(ctypes.byref(self.func), self.module,
                                       self.meta["name"].encode()), "get function")
        self.shared = int(self.meta["shared_bytes"])
        if self.shared > 48 * 1024:
            check(cuda.cuFuncSetAttribute(self.func, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                          self.shared), "set shared size")
        self.threads = 32 * int(self.meta["num_warps"])
        self.args = self.meta["args"]
        self.tensor_maps = self.meta.get("tensor_maps", [])

    def encode_tensor_maps(self, values):
        """The CUtensorMaps of the metadata's `tensor_maps` (tkgpu-lower-tma's
        hidden parameters, after the kernel's own), encoded from the argument
        `values` as libtkrt does (runtime/lib/TensorMap.cpp): dimensions
        innermost first, strides in bytes, zero fill, 128-byte L2 promotion."""
        by_name = {a["name"]: v for a, v in zip(self.args, values)}
        maps = []
        for m in self.tensor_maps:
            value = lambda x: int(by_name[x]) if isinstance(x, str) else int(x)
            base = by_name[m["base"]]
            address = base if isinstance(base, int) else base.data_ptr()
            dtype = m["dtype"]
            size = _TMA_BYTES[dtype]
            rank = len(m["block"])
            dims = [value(x) for x in reversed(m["shape"])]
            strides = [value(x) * size for x in reversed(m["strides"])][1:]
            box = list(reversed(m["block"]))
            raw = ctypes.create_string_buffer(128 + 64)
            aligned = (ctypes.addressof(raw) + 63) & ~63
            check(cuda.cuTensorMapEncodeTiled(
                ctypes.c_void_p(aligned), ctypes.c_int(_TMA_TYPE[dtype]), ctypes.c_uint32(rank),
                ctypes.c_void_p(address), (ctypes.c_uint64 * rank)(*dims),
                (ctypes.c_uint64 * max(rank - 1, 1))(*(strides or [0])),
                (ctypes.c_uint32 * rank)(*box), (ctypes.c_uint32 * rank)(*([1] * rank)),
                ctypes.c_int(0), ctypes.c_int(_TMA_SWIZZLE[int(m["swizzle"])]),
                ctypes.c_int(2), ctypes.c_int(0)), f"{self.name}: encode tensor map of {m['base']}")
            maps.append((raw, aligned))
        return maps

    def launch_values(self, grid, values, stream=None):
        """Launches on `grid` (x, y, z) with `values` in argument order:
        tensors or addresses for pointers, numbers for f32 and integer
        arguments."""
        holders = []
        for spec, value in zip(self.args, values):
            ty = spec["type"]
            if ty.startswith("*"):
                holders.append(ctypes.c_uint64(value if isinstance(value, int) else value.data_ptr()))
            elif ty == "f32":
                holders.append(ctypes.c_float(value))
            else:
                holders.append(ctypes.c_int32(value))
        if len(holders) != len(self.args):
            raise ValueError(f"{self.name}: {len(values)} values for {len(self.args)} arguments")
        addresses = [ctypes.cast(ctypes.pointer(h), ctypes.c_void_p) for h in holders]
        maps = self.encode_tensor_maps(values)  # kept alive until the launch
        addresses += [ctypes.c_void_p(aligned) for _, aligned in maps]
        params = (ctypes.c_void_p * len(addresses))(*addresses)
        s = stream if stream is not None else torch.cuda.current_stream().cuda_stream
        check(cuda.cuLaunchKernel(self.func, grid[0], grid[1], grid[2], self.threads, 1, 1,
                                  self.shared, ctypes.c_void_p(s), params, None), f"launch {self.name}")
