"""Launching .tk kernels from Python: tk.jit(path, name), tk.kernel(source).

    add = tk.jit("examples/add.tk", "add")
    add[(triton_cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    add[lambda meta: (cdiv(n, meta["BLOCK"]),)](x, y, out, n, BLOCK=1024)

A JITFunction keeps one libtkjit kernel handle per (device kind, constexpr
values, num_warps, num_stages); each handle specializes per launch on its own
(divisibility by 16, equality to 1, pointer alignment), compiles through the
kernel cache, and tunes @autotune kernels at their first launch
(include/tk/jit.h).
"""
import ctypes
import os
import struct
import sys
import threading

from . import _capi
from ._capi import TkError

# Parameter type name -> numpy dtype.str accepted for a pointer to it.
_NUMPY_DTYPES = {
    "f16": ("<f2",), "bf16": ("<V2", "|V2"), "f32": ("<f4",), "f64": ("<f8",),
    "i1": ("|b1",), "i8": ("|i1",), "i16": ("<i2",), "i32": ("<i4",),
    "i64": ("<i8",), "u8": ("|u1",), "u16": ("<u2",), "u32": ("<u4",),
    "u64": ("<u8",),
}
# torch dtype (str) -> parameter type name.
_TORCH_DTYPES = {
    "torch.float16": "f16", "torch.bfloat16": "bf16", "torch.float32": "f32",
    "torch.float64": "f64", "torch.bool": "i1", "torch.int8": "i8",
    "torch.int16": "i16", "torch.int32": "i32", "torch.int64": "i64",
    "torch.uint8": "u8", "torch.uint16": "u16", "torch.uint32": "u32",
    "torch.uint64": "u64",
}
_INT_TAGS = {"i1": _capi.ARG_I1, "i8": _capi.ARG_I8, "i16": _capi.ARG_I16,
             "i32": _capi.ARG_I32, "i64": _capi.ARG_I64, "u8": _capi.ARG_U8,
             "u16": _capi.ARG_U16, "u32": _capi.ARG_U32, "u64": _capi.ARG_U64}
_INT_RANGES = {"i1": (0, 1), "i8": (-2**7, 2**7 - 1),
               "i16": (-2**15, 2**15 - 1), "i32": (-2**31, 2**31 - 1),
               "i64": (-2**63, 2**63 - 1), "u8": (0, 2**8 - 1),
               "u16": (0, 2**16 - 1), "u32": (0, 2**32 - 1),
               "u64": (0, 2**64 - 1)}

def _interpreting():
    """tk.interpret (the package attribute), else TK_INTERPRET."""
    package = sys.modules.get(__package__)
    if getattr(package, "interpret", False):
        return True
    return os.environ.get("TK_INTERPRET", "").lower() in ("1", "true", "yes",
                                                          "on")


class _Device:
    """One libtkrt context (GPU or interpreter) and the streams wrapped on
    it, by CUstream value."""

    def __init__(self, interpret_mode):
        lib = _capi.lib()
        handle = ctypes.c_void_p()
        mode = (_capi.TKRT_MODE_INTERPRETER if interpret_mode
                else _capi.TKRT_MODE_GPU)
        _capi.check(lib.tkrt_context_create(mode, ctypes.byref(handle)))
        self.handle = handle
        self.interpret = interpret_mode
        self.streams = {}

    def stream(self, cu_stream):
        wrapped = self.streams.get(cu_stream)
        if wrapped is None:
            wrapped = ctypes.c_void_p()
            _capi.check(_capi.lib().tkrt_stream_wrap(
                self.handle, ctypes.c_void_p(cu_stream), ctypes.byref(wrapped)))
            self.streams[cu_stream] = wrapped
        return wrapped


_devices = {}
_devices_lock = threading.Lock()


def _device(interpret_mode):
    device = _devices.get(interpret_mode)
    if device is None:
        with _devices_lock:
            device = _devices.get(interpret_mode)
            if device is None:
                device = _devices[interpret_mode] = _Device(interpret_mode)
    return device


def _define_text(name, value):
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return value
    raise TypeError("constexpr %s=%r: expected an int, float, bool or str "
                    "(a dtype name such as 'f16')" % (name, value))


def _f16_bits(value):
    return struct.unpack("<H", struct.pack("<e", value))[0]


def _bf16_bits(value):
    bits = struct.unpack("<I", struct.pack("<f", value))[0]
    if (bits & 0x7F800000) == 0x7F800000 and bits & 0x7FFFFF:
        return (bits >> 16) | 0x40  # NaN stays NaN
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) & 0xFFFF


class _Handle:
    """A libtkjit kernel with fixed constexprs."""

    def __init__(self, function, device, defines, num_warps, num_stages):
        lib = _capi.lib()
        self.device = device
        encoded = [(n.encode(), v.encode()) for n, v in defines]
        array = (_capi.Define * max(1, len(encoded)))()
        for i, (name, value) in enumerate(encoded):
            array[i].name, array[i].value = name, value
        options = _capi.Options()
        options.defines = array
        options.num_defines = len(encoded)
        options.num_warps = num_warps or 0
        options.num_stages = num_stages or 0
        options.quiet = int(function.quiet)
        handle = ctypes.c_void_p()
        _capi.check(lib.tk_jit_kernel_from_source(
            device.handle, function.source.encode(),
            function.source_name.encode(),
            function.name.encode() if function.name else None,
            ctypes.byref(options), ctypes.byref(handle)))
        self.handle = handle
        self.name = lib.tk_jit_kernel_name(handle).decode()
        self.params = []
        for i in range(lib.tk_jit_kernel_num_params(handle)):
            self.params.append(
                (lib.tk_jit_kernel_param_name(handle, i).decode(),
                 lib.tk_jit_kernel_param_type(handle, i).decode()))
        self.num_configs = lib.tk_jit_kernel_num_configs(handle)
        self.args = (_capi.Arg * max(1, len(self.params)))()
        self.constexprs = {}
        self._fast = None
        self._local = threading.local()

    def fast_packer(self):
        """(converters, struct, tags, first pointer index) for launches whose
        arguments are all CUDA tensors of the right dtype and plain numbers:
        one struct.pack_into of the tkrt_arg array instead of ctypes field
        stores. Built on first use, once torch is imported."""
        if self._fast is None:
            self._fast = _FastPacker(self.params)
        return self._fast

    def __del__(self):
        try:
            _capi.lib().tk_jit_kernel_destroy(self.handle)
        except Exception:
            pass

    def signature(self):
        return "(" + ", ".join("%s: %s" % p for p in self.params) + ")"


_SLOW = object()


class _FastPacker:
    """Converts and packs the arguments of the common GPU launch; returns
    _SLOW from a converter when the general path must handle (or report)
    an argument."""

    # tkrt_arg: int32 tag, 4 bytes of padding, an 8-byte union.
    _FORMATS = {"ptr": "i4xQ", "int": "i4xq", "u64": "i4xQ", "f32": "i4xf4x",
                "f64": "i4xd", "bits16": "i4xH6x"}

    def __init__(self, params):
        torch = sys.modules.get("torch")
        tensor = torch.Tensor if torch is not None else None
        self.converters, self.tags, formats = [], [], ["<"]
        self.pointer_index = None
        for index, (_, type_name) in enumerate(params):
            if type_name.startswith("*"):
                if self.pointer_index is None:
                    self.pointer_index = index
                dtype = None
                for name, element in _TORCH_DTYPES.items():
                    if element == type_name[1:] and torch is not None:
                        dtype = getattr(torch, name.split(".")[1], None)
                self.converters.append(self._pointer(tensor, dtype))
                self.tags.append(_capi.ARG_PTR)
                formats.append(self._FORMATS["ptr"])
            elif type_name in _INT_TAGS:
                low, high = _INT_RANGES[type_name]
                self.converters.append(self._integer(low, high))
                tag = (_capi.ARG_U64 if type_name == "u64" else
                       _capi.ARG_I1 if type_name == "i1" else _capi.ARG_INT)
                self.tags.append(tag)
                formats.append(self._FORMATS["u64" if type_name == "u64"
                                             else "int"])
            elif type_name in ("f32", "f64"):
                self.converters.append(self._real(None))
                self.tags.append(_capi.ARG_F32 if type_name == "f32"
                                 else _capi.ARG_F64)
                formats.append(self._FORMATS[type_name])
            else:
                bits = _f16_bits if type_name == "f16" else _bf16_bits
                self.converters.append(self._real(bits))
                self.tags.append(_capi.ARG_F16 if type_name == "f16"
                                 else _capi.ARG_BF16)
                formats.append(self._FORMATS["bits16"])
        self.struct = struct.Struct("".join(formats))
        self.raw_stream = (getattr(torch._C, "_cuda_getCurrentRawStream",
                                   None) if torch is not None else None)
        self.usable = tensor is not None and self.raw_stream is not None
        self.local = threading.local()

    @staticmethod
    def _pointer(tensor, dtype):
        def convert(value):
            if type(value) is tensor and value.dtype is dtype and value.is_cuda:
                return value.data_ptr()
            return _SLOW
        return convert

    @staticmethod
    def _integer(low, high):
        def convert(value):
            kind = type(value)
            if (kind is int or kind is bool) and low <= value <= high:
                return int(value)
            return _SLOW
        return convert

    @staticmethod
    def _real(bits):
        def convert(value):
            kind = type(value)
            if kind is float or kind is int:
                return bits(value) if bits else float(value)
            return _SLOW
        return convert

    def pack(self, args):
        """The tkrt_arg array (a ctypes pointer) and the CUstream, or None."""
        if not self.usable or len(args) != len(self.converters):
            return None
        local = self.local
        buffer = getattr(local, "buffer", None)
        if buffer is None:
            local.buffer = buffer = ctypes.create_string_buffer(
                max(1, self.struct.size))
            local.pointer = ctypes.cast(buffer, ctypes.POINTER(_capi.Arg))
            local.flat = [0] * (2 * len(self.converters))
            local.flat[0::2] = self.tags
        flat = local.flat
        i = 1
        for convert, value in zip(self.converters, args):
            converted = convert(value)
            if converted is _SLOW:
                return None
            flat[i] = converted
            i += 2
        self.struct.pack_into(buffer, 0, *flat)
        stream = 0
        if self.pointer_index is not None:
            index = args[self.pointer_index].get_device()
            if index != 0:
                return None  # the general path reports it
            stream = self.raw_stream(index)
        return local.pointer, stream


class _Staged:
    """A host array copied into an interpreter buffer for one launch."""

    def __init__(self, device, array):
        import numpy
        lib = _capi.lib()
        self.array = array
        self.contiguous = numpy.ascontiguousarray(array)
        self.buffer = ctypes.c_void_p()
        _capi.check(lib.tkrt_alloc(device.handle, self.contiguous.nbytes,
                                   ctypes.byref(self.buffer)))
        _capi.check(lib.tkrt_upload(self.buffer,
                                    self.contiguous.ctypes.data_as(
                                        ctypes.c_void_p),
                                    self.contiguous.nbytes))
        self.address = lib.tkrt_buffer_ptr(self.buffer)

    def finish(self):
        lib = _capi.lib()
        try:
            if self.array.flags.writeable:
                _capi.check(lib.tkrt_download(
                    self.buffer,
                    self.contiguous.ctypes.data_as(ctypes.c_void_p),
                    self.contiguous.nbytes))
                if self.contiguous is not self.array:
                    self.array[...] = self.contiguous
        finally:
            lib.tkrt_free(self.buffer)


class _Where:
    """Names an argument in messages; formatted only when one is raised,
    so that a launch pays nothing for it."""
    __slots__ = ("kernel", "index", "name", "type_name")

    def __init__(self, kernel, index, name, type_name):
        self.kernel, self.index = kernel, index
        self.name, self.type_name = name, type_name

    def __str__(self):
        return "kernel '%s': argument %d '%s' (%s)" % (
            self.kernel, self.index + 1, self.name, self.type_name)


class _Meta:
    """What a grid function sees (Triton's META): the constexpr values of
    the kernel being launched (with @autotune, of each config), then the
    call's arguments by name and its keyword arguments."""

    def __init__(self, c_meta, named):
        self._c_meta = c_meta
        self._named = named

    def __getitem__(self, name):
        if self._c_meta:
            value = ctypes.c_int64()
            if _capi.lib().tk_jit_meta_get(self._c_meta, name.encode(),
                                           ctypes.byref(value)) == 0:
                return value.value
        if name in self._named:
            return self._named[name]
        raise KeyError(name)

    def get(self, name, default=None):
        try:
            return self[name]
        except KeyError:
            return default


def _grid_dims(grid):
    if isinstance(grid, int):
        grid = (grid,)
    dims = tuple(int(d) for d in grid)
    if not 1 <= len(dims) <= 3:
        raise ValueError("the grid has 1 to 3 dimensions, got %r" % (grid,))
    return dims + (1,) * (3 - len(dims))


class JITFunction:
    """A .tk kernel launched as `function[grid](*args, **constexprs)`."""

    def __init__(self, source, name=None, source_name="<source>",
                 defaults=None, quiet=False):
        self.source = source
        self.name = name
        self.source_name = source_name
        self.defaults = dict(defaults or {})
        self.quiet = quiet
        self._handles = {}
        self._by_call = {}
        self._lock = threading.Lock()

    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.run(*args, grid=grid, **kwargs)

    def __repr__(self):
        return "JITFunction(%s:%s)" % (self.source_name, self.name or "")

    def _handle(self, interpret_mode, constexprs, num_warps, num_stages):
        key = (interpret_mode, tuple(sorted(constexprs.items())), num_warps,
               num_stages)
        handle = self._handles.get(key)
        if handle is None:
            with self._lock:
                handle = self._handles.get(key)
                if handle is None:
                    defines = [(n, _define_text(n, v))
                               for n, v in sorted(constexprs.items())]
                    handle = _Handle(self, _device(interpret_mode), defines,
                                     num_warps, num_stages)
                    self._handles[key] = handle
        return handle

    def run(self, *args, grid, num_warps=None, num_stages=None, **kwargs):
        interpret_mode = _interpreting()
        # The handle by the call's own spelling first (no sorting, no
        # copies); the canonical key on a miss.
        quick = (interpret_mode, num_warps, num_stages) + tuple(kwargs.items())
        handle = self._by_call.get(quick)
        if handle is None:
            constexprs = dict(self.defaults)
            constexprs.update(kwargs)
            handle = self._handle(interpret_mode, constexprs, num_warps,
                                  num_stages)
            handle.constexprs = constexprs
            self._by_call[quick] = handle
        if not interpret_mode and self._launch_fast(handle, args, grid):
            return
        constexprs = handle.constexprs
        if len(args) != len(handle.params):
            raise TypeError("kernel '%s' takes %d arguments %s, got %d "
                            "(constexprs go as keyword arguments)" %
                            (handle.name, len(handle.params),
                             handle.signature(), len(args)))
        staged = []
        cu_stream = None
        try:
            c_args = handle.args
            for i, ((name, type_name), value) in enumerate(
                    zip(handle.params, args)):
                stream = self._convert(handle, i, name, type_name, value,
                                       c_args[i], staged)
                if stream is not None:
                    cu_stream = stream
            device = handle.device
            stream = (device.stream(cu_stream) if cu_stream
                      and not device.interpret else None)
            lib = _capi.lib()
            if callable(grid):
                named = dict(zip((p[0] for p in handle.params), args))
                named.update(constexprs)
                dims = None
                if handle.num_configs == 0:
                    try:
                        dims = _grid_dims(grid(_Meta(None, named)))
                    except KeyError:
                        dims = None  # a constexpr the call does not name
                if dims is None:
                    self._launch_with_grid_fn(lib, handle, grid, named,
                                              stream, c_args)
                else:
                    _capi.check(lib.tk_jit_launch(
                        handle.handle, dims[0], dims[1], dims[2], stream,
                        c_args, len(handle.params)))
            else:
                dims = _grid_dims(grid)
                _capi.check(lib.tk_jit_launch(
                    handle.handle, dims[0], dims[1], dims[2], stream, c_args,
                    len(handle.params)))
            if staged:
                _capi.check(lib.tkrt_sync(device.handle))
        finally:
            for entry in staged:
                entry.finish()

    @staticmethod
    def _launch_fast(handle, args, grid):
        """The common GPU launch (CUDA tensors and numbers, a tuple grid or
        a grid function of the call's constexprs); False to take the
        general path."""
        packed = handle.fast_packer().pack(args)
        if packed is None:
            return False
        pointer, cu_stream = packed
        kind = type(grid)
        if kind is tuple:
            dims = grid
        elif kind is int:
            dims = (grid,)
        elif callable(grid) and handle.num_configs == 0:
            named = dict(zip((p[0] for p in handle.params), args))
            named.update(handle.constexprs)
            try:
                dims = grid(_Meta(None, named))
            except KeyError:
                return False
            if type(dims) is int:
                dims = (dims,)
        else:
            return False
        count = len(dims)
        if not 1 <= count <= 3:
            return False
        stream = handle.device.stream(cu_stream) if cu_stream else None
        _capi.check(_capi.lib().tk_jit_launch(
            handle.handle, dims[0], dims[1] if count > 1 else 1,
            dims[2] if count > 2 else 1, stream, pointer, len(handle.params)))
        return True

    @staticmethod
    def _launch_with_grid_fn(lib, handle, grid, named, stream, c_args):
        failure = []

        def callback(_, c_meta, out):
            try:
                dims = _grid_dims(grid(_Meta(c_meta, named)))
                out[0], out[1], out[2] = dims
                return 0
            except BaseException as error:  # reported after the launch
                failure.append(error)
                return 1

        function = _capi.GRID_FN(callback)
        status = lib.tk_jit_launch_grid_fn(handle.handle, function, None,
                                           stream, c_args,
                                           len(handle.params))
        if failure:
            raise failure[0]
        _capi.check(status)

    def _convert(self, handle, index, name, type_name, value, arg, staged):
        """Fills `arg` from `value`; returns the CUstream of a CUDA tensor
        (the current stream of its device), else None."""
        where = _Where(handle.name, index, name, type_name)
        if type_name.startswith("*"):
            return self._convert_pointer(handle, where, type_name[1:], value,
                                         arg, staged)
        if type_name in _INT_TAGS:
            if isinstance(value, float) or not hasattr(value, "__index__"):
                raise TypeError("%s expects an integer, got %r" %
                                (where, value))
            number = int(value)
            low, high = _INT_RANGES[type_name]
            if not low <= number <= high:
                raise OverflowError("%s: %d does not fit" % (where, number))
            arg.type = _capi.ARG_INT if type_name != "i1" else _capi.ARG_I1
            if type_name == "u64" and number > 2**63 - 1:
                arg.type = _capi.ARG_U64
                arg.value.u64 = number
            else:
                arg.value.i64 = number
            return None
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            if not hasattr(value, "__float__"):
                raise TypeError("%s expects a number, got %r" % (where, value))
        number = float(value)
        if type_name == "f32":
            arg.type, arg.value.f32 = _capi.ARG_F32, number
        elif type_name == "f64":
            arg.type, arg.value.f64 = _capi.ARG_F64, number
        elif type_name == "f16":
            arg.type, arg.value.bits16 = _capi.ARG_F16, _f16_bits(number)
        elif type_name == "bf16":
            arg.type, arg.value.bits16 = _capi.ARG_BF16, _bf16_bits(number)
        else:
            raise TypeError("%s: unsupported parameter type" % where)
        return None

    def _convert_pointer(self, handle, where, element, value, arg, staged):
        arg.type = _capi.ARG_PTR
        interpret_mode = handle.device.interpret
        torch = sys.modules.get("torch")
        if torch is not None and isinstance(value, torch.Tensor):
            dtype = _TORCH_DTYPES.get(str(value.dtype))
            if dtype != element:
                raise TypeError("%s expects a tensor of %s, got %s" %
                                (where, element, value.dtype))
            if value.is_cuda:
                if value.get_device() != 0:
                    raise TypeError("%s: a tensor on cuda:%d; tk launches on "
                                    "device 0 (its primary context) only" %
                                    (where, value.get_device()))
                if interpret_mode:
                    raise TypeError("%s: a CUDA tensor, but tk.interpret is "
                                    "on (pass CPU tensors or numpy arrays)"
                                    % where)
                arg.value.ptr = value.data_ptr()
                # The raw-stream call costs a fraction of
                # torch.cuda.current_stream() (Triton's launcher uses it).
                raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
                if raw is not None:
                    return raw(value.device.index)
                return torch.cuda.current_stream(value.device).cuda_stream
            if not interpret_mode:
                raise TypeError("%s: a CPU tensor; move it to the GPU, or "
                                "set tk.interpret = True" % where)
            value = value.detach().numpy()
        interface = getattr(value, "__cuda_array_interface__", None)
        if interface is not None:
            if interpret_mode:
                raise TypeError("%s: device memory, but tk.interpret is on"
                                % where)
            typestr = interface.get("typestr", "")
            if typestr not in _NUMPY_DTYPES.get(element, ()):
                raise TypeError("%s expects %s elements, got typestr %r" %
                                (where, element, typestr))
            arg.value.ptr = int(interface["data"][0])
            stream = interface.get("stream")
            return stream if isinstance(stream, int) and stream > 2 else None
        numpy = sys.modules.get("numpy")
        if numpy is not None and isinstance(value, numpy.ndarray):
            if not interpret_mode:
                raise TypeError("%s: a numpy array is host memory; set "
                                "tk.interpret = True (or TK_INTERPRET=1) to "
                                "run in the CPU interpreter" % where)
            if value.dtype.str not in _NUMPY_DTYPES.get(element, ()):
                raise TypeError("%s expects an array of %s, got dtype %s" %
                                (where, element, value.dtype))
            entry = _Staged(handle.device, value)
            staged.append(entry)
            arg.value.ptr = entry.address
            return None
        raise TypeError("%s expects a tensor or array, got %s" %
                        (where, type(value).__name__))


def jit(path, name=None, **options):
    """The kernel `name` (default: the only one) of the .tk file `path`."""
    with open(path, encoding="utf-8") as file:
        source = file.read()
    return JITFunction(source, name, source_name=path, **options)


def kernel(source, name=None, **options):
    """A kernel from .tk source text. Used as a decorator, the decorated
    Python function names the kernel and its keyword defaults become
    constexpr defaults:

        @tk.kernel(SOURCE)
        def add(x, y, out, n, BLOCK=1024): ...
    """
    if name is not None:
        return JITFunction(source, name, **options)

    class _Decorator(JITFunction):
        def __call__(self, function):
            import inspect
            defaults = {
                p.name: p.default
                for p in inspect.signature(function).parameters.values()
                if p.default is not inspect.Parameter.empty
            }
            return JITFunction(source, function.__name__,
                               source_name="<%s>" % function.__name__,
                               defaults=defaults, **options)

    return _Decorator(source, None, **options)
