"""Launching .tk kernels from Python: tk.jit(path, name), tk.kernel(source).

    add = tk.jit("examples/add.tk", "add")
    add[(triton_cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    add[lambda meta: (cdiv(n, meta["BLOCK"]),)](x, y, out, n, BLOCK=1024)

A JITFunction keeps one _Handle per (interpreter or GPU, constexpr values,
num_warps, num_stages), and each _Handle one libtkjit kernel per device it
was launched on (created at the first launch there: the kernel runs in that
device's context, on its current stream). libtkjit specializes each launch
(divisibility by 16, equality to 1, pointer alignment), compiles through
the kernel cache, and tunes @autotune kernels at their first launch
(include/tk/jit.h). A launch that repeats an earlier one's kinds of
arguments takes the generated cheap path of tk/_launcher.py.
"""
import ctypes
import functools
import os
import struct
import sys
import threading

from . import _capi, _launcher

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

def _environment_interprets():
    """TK_INTERPRET as a boolean."""
    return os.environ.get("TK_INTERPRET", "").lower() in ("1", "true", "yes",
                                                          "on")


# The package (tk), whose `interpret` attribute each launch reads.
_package = sys.modules[__package__]


def _interpreting():
    """Whether launches run in the CPU interpreter now: tk.interpret, or
    TK_INTERPRET in the environment (tk.testing.do_bench asks, to time
    with the host clock instead of CUDA events)."""
    return bool(_package.interpret) or _environment_interprets()


class _Device:
    """One libtkrt context (the interpreter, or CUDA device `index`'s
    primary context) and the streams wrapped on it, by CUstream value."""

    def __init__(self, interpret_mode, index=0):
        lib = _capi.lib()
        handle = ctypes.c_void_p()
        mode = (_capi.TKRT_MODE_INTERPRETER if interpret_mode
                else _capi.TKRT_MODE_GPU)
        _capi.check(lib.tkrt_context_create_on_device(mode, index,
                                                      ctypes.byref(handle)))
        self.handle = handle
        self.interpret = interpret_mode
        self.index = index
        self.streams = {}
        # CUstream -> the tkrt_stream's address, for the packed launch
        # (0, the legacy default stream, is tk's default stream: NULL).
        self.stream_addresses = {0: 0}

    def stream(self, cu_stream):
        """The tkrt_stream over `cu_stream` (None for the default stream)."""
        if not cu_stream or self.interpret:
            return None
        wrapped = self.streams.get(cu_stream)
        if wrapped is None:
            wrapped = ctypes.c_void_p()
            _capi.check(_capi.lib().tkrt_stream_wrap(
                self.handle, ctypes.c_void_p(cu_stream), ctypes.byref(wrapped)))
            self.streams[cu_stream] = wrapped
            self.stream_addresses[cu_stream] = wrapped.value
        return wrapped


_devices = {}
_devices_lock = threading.Lock()


def _device(interpret_mode, index=0):
    """The context of the interpreter or of CUDA device `index`, created at
    its first use."""
    key = (interpret_mode, 0 if interpret_mode else index)
    device = _devices.get(key)
    if device is None:
        with _devices_lock:
            device = _devices.get(key)
            if device is None:
                device = _devices[key] = _Device(*key)
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


class _OnDevice:
    """A _Handle's libtkjit kernel on one device (its own specializations
    and loaded modules)."""
    __slots__ = ("device", "kernel")

    def __init__(self, device, kernel):
        self.device, self.kernel = device, kernel


class _Handle:
    """A kernel with fixed constexprs, num_warps and num_stages: one
    libtkjit kernel per device it was launched on, each created (and its
    kernels compiled or found in the cache, and loaded) at the first launch
    there, as Triton loads a kernel lazily per device."""

    def __init__(self, function, interpret_mode, defines, num_warps,
                 num_stages, first_device, maxnreg=None):
        self.function = function
        self.interpret = interpret_mode
        self.defines = defines
        self.num_warps, self.num_stages = num_warps, num_stages
        self.maxnreg = maxnreg
        self.per_device = {}
        # The library the kernels are destroyed through: the one that
        # created them.
        self.lib = _capi.lib()
        self.lock = threading.Lock()
        self.constexprs = {}
        self.fast = None
        self.fast_built = False
        # The signature, from the kernel on the first device launched on.
        first = self.on(first_device)
        lib = _capi.lib()
        self.name = lib.tk_jit_kernel_name(first.kernel).decode()
        self.params = []
        for i in range(lib.tk_jit_kernel_num_params(first.kernel)):
            self.params.append(
                (lib.tk_jit_kernel_param_name(first.kernel, i).decode(),
                 lib.tk_jit_kernel_param_type(first.kernel, i).decode()))
        self.num_configs = lib.tk_jit_kernel_num_configs(first.kernel)

    def on(self, index):
        """The kernel on device `index`, created at its first use."""
        entry = self.per_device.get(index)
        if entry is not None:
            return entry
        with self.lock:
            entry = self.per_device.get(index)
            if entry is None:
                device = _device(self.interpret, index)
                entry = _OnDevice(device, self._create(device))
                self.per_device[index] = entry
        return entry

    def _create(self, device):
        lib = _capi.lib()
        function = self.function
        encoded = [(n.encode(), v.encode()) for n, v in self.defines]
        array = (_capi.Define * max(1, len(encoded)))()
        for i, (name, value) in enumerate(encoded):
            array[i].name, array[i].value = name, value
        options = _capi.Options()
        options.defines = array
        options.num_defines = len(encoded)
        options.num_warps = self.num_warps or 0
        options.num_stages = self.num_stages or 0
        options.maxnreg = self.maxnreg or 0
        options.quiet = int(function.quiet)
        handle = ctypes.c_void_p()
        _capi.check(lib.tk_jit_kernel_from_source(
            device.handle, function.source.encode(),
            function.source_name.encode(),
            function.name.encode() if function.name else None,
            ctypes.byref(options), ctypes.byref(handle)))
        return handle

    def build_fast(self):
        """The generated cheap launch (tk._launcher), once torch is
        imported; None if the signature needs the general path."""
        torch = sys.modules.get("torch")
        if self.fast_built or torch is None or self.interpret:
            return
        self.fast_built = True
        if getattr(torch._C, "_cuda_getCurrentRawStream", None) is None:
            return
        dtypes = {}
        for name, element in _TORCH_DTYPES.items():
            dtype = getattr(torch, name.split(".")[1], None)
            if dtype is not None:
                dtypes[element] = dtype
        self.fast = _launcher.build(self, torch, dtypes, _bf16_bits, _Meta,
                                    _grid_dims)

    def __del__(self):
        try:
            destroy = self.lib.tk_jit_kernel_destroy
            for entry in self.per_device.values():
                destroy(entry.kernel)
        except Exception:
            pass

    def signature(self):
        return "(" + ", ".join("%s: %s" % p for p in self.params) + ")"


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


def _device_index(args):
    """The CUDA device a GPU launch runs on: that of its first CUDA tensor;
    without one, PyTorch's current device (if PyTorch is loaded), else 0."""
    torch = sys.modules.get("torch")
    if torch is None:
        return 0
    for value in args:
        if isinstance(value, torch.Tensor) and value.is_cuda:
            return value.get_device()
    try:
        return torch.cuda.current_device() if torch.cuda.is_initialized() \
            else 0
    except Exception:
        return 0


def _current_stream(index):
    """PyTorch's current stream on device `index` (0, the default stream,
    without PyTorch)."""
    torch = sys.modules.get("torch")
    raw = getattr(getattr(torch, "_C", None), "_cuda_getCurrentRawStream",
                  None)
    return raw(index) if raw is not None else 0


class JITFunction:
    """A .tk kernel launched as `function[grid](*args, **constexprs)`.

    TK_INTERPRET is read when the function is created (as Triton reads
    TRITON_INTERPRET at @triton.jit); tk.interpret at each launch."""

    def __init__(self, source, name=None, source_name="<source>",
                 defaults=None, quiet=False):
        self.source = source
        self.name = name
        self.source_name = source_name
        self.defaults = dict(defaults or {})
        self.quiet = quiet
        self._interpret_env = _environment_interprets()
        self._handles = {}
        # The cheap launch of a GPU handle by the call's keyword arguments
        # as spelled (no sorting, no copies).
        self._by_call = {}
        self._lock = threading.Lock()

    def __getitem__(self, grid):
        return functools.partial(self._call, grid)

    def __repr__(self):
        return "JITFunction(%s:%s)" % (self.source_name, self.name or "")

    def _call(self, grid, *args, **kwargs):
        """kernel[grid](*args, **kwargs): the cheap launch when it applies
        (tk._launcher), else the general one."""
        fast = self._by_call.get(tuple(kwargs.items()))
        if (fast is not None and not (_package.interpret or
                                      self._interpret_env)
                and fast(grid, args) is None):
            return
        self.run(*args, grid=grid, **kwargs)

    def _handle(self, interpret_mode, constexprs, num_warps, num_stages,
                device_index, maxnreg=None):
        key = (interpret_mode, tuple(sorted(constexprs.items())), num_warps,
               num_stages, maxnreg)
        handle = self._handles.get(key)
        if handle is None:
            with self._lock:
                handle = self._handles.get(key)
                if handle is None:
                    defines = [(n, _define_text(n, v))
                               for n, v in sorted(constexprs.items())]
                    handle = _Handle(self, interpret_mode, defines,
                                     num_warps, num_stages, device_index,
                                     maxnreg)
                    handle.constexprs = constexprs
                    self._handles[key] = handle
        return handle

    def run(self, *args, grid, **kwargs):
        """The general launch: any argument kind, with the messages.
        Keyword arguments: the constexprs, num_warps, num_stages and
        maxnreg."""
        call_key = tuple(kwargs.items())
        num_warps = kwargs.pop("num_warps", None)
        num_stages = kwargs.pop("num_stages", None)
        maxnreg = kwargs.pop("maxnreg", None)
        interpret_mode = bool(_package.interpret or self._interpret_env)
        index = 0 if interpret_mode else _device_index(args)
        constexprs = dict(self.defaults)
        constexprs.update(kwargs)
        handle = self._handle(interpret_mode, constexprs, num_warps,
                              num_stages, index, maxnreg)
        constexprs = handle.constexprs
        if len(args) != len(handle.params):
            raise TypeError("kernel '%s' takes %d arguments %s, got %d "
                            "(constexprs go as keyword arguments)" %
                            (handle.name, len(handle.params),
                             handle.signature(), len(args)))
        on = handle.on(index)
        device = on.device
        staged = []
        cu_stream = None
        try:
            c_args = (_capi.Arg * max(1, len(handle.params)))()
            for i, ((name, type_name), value) in enumerate(
                    zip(handle.params, args)):
                stream = self._convert(handle, device, i, name, type_name,
                                       value, c_args[i], staged)
                if stream is not None:
                    cu_stream = stream
            if cu_stream is None and not interpret_mode:
                cu_stream = _current_stream(index)
            stream = device.stream(cu_stream)
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
                    self._launch_with_grid_fn(lib, on.kernel, grid, named,
                                              stream, c_args,
                                              len(handle.params))
                else:
                    _capi.check(lib.tk_jit_launch(
                        on.kernel, dims[0], dims[1], dims[2], stream,
                        c_args, len(handle.params)))
            else:
                dims = _grid_dims(grid)
                _capi.check(lib.tk_jit_launch(
                    on.kernel, dims[0], dims[1], dims[2], stream, c_args,
                    len(handle.params)))
            if staged:
                _capi.check(lib.tkrt_sync(device.handle))
        finally:
            for entry in staged:
                entry.finish()
        if not interpret_mode:
            # The next call with these keyword arguments may be cheap.
            handle.build_fast()
            if handle.fast is not None:
                self._by_call[call_key] = handle.fast

    @staticmethod
    def _launch_with_grid_fn(lib, kernel, grid, named, stream, c_args,
                             count):
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
        status = lib.tk_jit_launch_grid_fn(kernel, function, None, stream,
                                           c_args, count)
        if failure:
            raise failure[0]
        _capi.check(status)

    def _convert(self, handle, device, index, name, type_name, value, arg,
                 staged):
        """Fills `arg` from `value`; returns the CUstream of a CUDA tensor
        (the current stream of its device), else None."""
        where = _Where(handle.name, index, name, type_name)
        if type_name.startswith("*"):
            return self._convert_pointer(device, where, type_name[1:], value,
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

    def _convert_pointer(self, device, where, element, value, arg, staged):
        arg.type = _capi.ARG_PTR
        interpret_mode = device.interpret
        torch = sys.modules.get("torch")
        if torch is not None and isinstance(value, torch.Tensor):
            dtype = _TORCH_DTYPES.get(str(value.dtype))
            if dtype != element:
                raise TypeError("%s expects a tensor of %s, got %s" %
                                (where, element, value.dtype))
            if value.is_cuda:
                if interpret_mode:
                    raise TypeError("%s: a CUDA tensor, but tk.interpret is "
                                    "on (pass CPU tensors or numpy arrays)"
                                    % where)
                if value.get_device() != device.index:
                    raise TypeError("%s: a tensor on cuda:%d, but the launch "
                                    "runs on cuda:%d (the device of the "
                                    "first CUDA tensor)" %
                                    (where, value.get_device(), device.index))
                arg.value.ptr = value.data_ptr()
                # The raw-stream call costs a fraction of
                # torch.cuda.current_stream() (Triton's launcher uses it).
                raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
                if raw is not None:
                    return raw(device.index)
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
            entry = _Staged(device, value)
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
