"""ctypes declarations of libtkjit's C API (include/tk/jit_c.h and
tk/runtime_c.h), and the search for the library.

Every call that returns a status goes through `check`, which raises
tk.TkError with the library's message (tkrt_last_error) on failure.
"""
import ctypes
import ctypes.util
import os
import threading

TKRT_OK = 0
TKRT_MODE_AUTO, TKRT_MODE_GPU, TKRT_MODE_INTERPRETER = 0, 1, 2

# Argument tags (runtime_c.h).
(ARG_I1, ARG_I8, ARG_I16, ARG_I32, ARG_I64, ARG_U8, ARG_U16, ARG_U32,
 ARG_U64, ARG_F16, ARG_BF16, ARG_F32, ARG_F64, ARG_PTR, ARG_INT) = range(15)


class TkError(RuntimeError):
    """A compile error (with its .tk position), an argument mismatch, or a
    runtime failure, as libtkjit reports it."""


class _ArgValue(ctypes.Union):
    _fields_ = [("i64", ctypes.c_int64), ("u64", ctypes.c_uint64),
                ("f32", ctypes.c_float), ("f64", ctypes.c_double),
                ("bits16", ctypes.c_uint16), ("ptr", ctypes.c_uint64)]


class Arg(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int32), ("value", _ArgValue)]


class Define(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("value", ctypes.c_char_p)]


class Options(ctypes.Structure):
    _fields_ = [("defines", ctypes.POINTER(Define)),
                ("num_defines", ctypes.c_int),
                ("num_warps", ctypes.c_int),
                ("num_stages", ctypes.c_int),
                ("arch", ctypes.c_char_p),
                ("no_specialize", ctypes.c_int),
                ("no_cache", ctypes.c_int),
                ("cache_dir", ctypes.c_char_p),
                ("quiet", ctypes.c_int),
                ("autotune_warmup", ctypes.c_int),
                ("autotune_repeats", ctypes.c_int),
                ("compile_threads", ctypes.c_int),
                ("maxnreg", ctypes.c_int)]


GRID_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p,
                           ctypes.POINTER(ctypes.c_int64))

_p = ctypes.c_void_p
_SIGNATURES = {
    "tkrt_last_error": (ctypes.c_char_p, []),
    "tkrt_context_create": (ctypes.c_int, [ctypes.c_int,
                                           ctypes.POINTER(_p)]),
    "tkrt_context_create_on_device": (ctypes.c_int, [
        ctypes.c_int, ctypes.c_int, ctypes.POINTER(_p)]),
    "tkrt_context_destroy": (None, [_p]),
    "tkrt_context_backend_name": (ctypes.c_char_p, [_p]),
    "tkrt_sync": (ctypes.c_int, [_p]),
    "tkrt_alloc": (ctypes.c_int, [_p, ctypes.c_size_t, ctypes.POINTER(_p)]),
    "tkrt_free": (None, [_p]),
    "tkrt_buffer_ptr": (ctypes.c_uint64, [_p]),
    "tkrt_upload": (ctypes.c_int, [_p, _p, ctypes.c_size_t]),
    "tkrt_download": (ctypes.c_int, [_p, _p, ctypes.c_size_t]),
    "tkrt_stream_wrap": (ctypes.c_int, [_p, _p, ctypes.POINTER(_p)]),
    "tkrt_stream_destroy": (None, [_p]),
    "tk_jit_kernel_from_source": (ctypes.c_int, [
        _p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
        ctypes.POINTER(Options), ctypes.POINTER(_p)]),
    "tk_jit_kernel_destroy": (None, [_p]),
    "tk_jit_kernel_name": (ctypes.c_char_p, [_p]),
    "tk_jit_kernel_num_params": (ctypes.c_int, [_p]),
    "tk_jit_kernel_param_name": (ctypes.c_char_p, [_p, ctypes.c_int]),
    "tk_jit_kernel_param_type": (ctypes.c_char_p, [_p, ctypes.c_int]),
    "tk_jit_kernel_num_configs": (ctypes.c_int, [_p]),
    "tk_jit_kernel_num_specializations": (ctypes.c_size_t, [_p]),
    "tk_jit_launch": (ctypes.c_int, [_p, ctypes.c_int64, ctypes.c_int64,
                                     ctypes.c_int64, _p, ctypes.POINTER(Arg),
                                     ctypes.c_int]),
    "tk_jit_launch_grid_fn": (ctypes.c_int, [_p, GRID_FN, _p, _p,
                                             ctypes.POINTER(Arg),
                                             ctypes.c_int]),
    # No argtypes: the cheap launch passes a c_void_p and a bytes object,
    # which ctypes hands over as pointers without converting anything.
    "tk_jit_launch_packed": (ctypes.c_int, None),
    "tk_jit_meta_get": (ctypes.c_int, [_p, ctypes.c_char_p,
                                       ctypes.POINTER(ctypes.c_int64)]),
}


def _candidates():
    """Where libtkjit.so may be, in order."""
    explicit = os.environ.get("TK_LIBRARY")
    if explicit:
        yield explicit
        return
    home = os.environ.get("TK_HOME")
    if home:
        yield os.path.join(home, "lib", "libtkjit.so")
    here = os.path.dirname(os.path.abspath(__file__))
    # A checkout: python/tk/ -> build/lib.
    yield os.path.join(here, "..", "..", "build", "lib", "libtkjit.so")
    found = ctypes.util.find_library("tkjit")
    if found:
        yield found
    yield "libtkjit.so"


_lock = threading.Lock()
_lib = None


def lib():
    """The loaded library, with argument and result types declared."""
    global _lib
    if _lib is not None:
        return _lib
    with _lock:
        if _lib is not None:
            return _lib
        errors = []
        for path in _candidates():
            if os.sep in path and not os.path.exists(path):
                errors.append(path + ": no such file")
                continue
            try:
                loaded = ctypes.CDLL(path)
                break
            except OSError as error:
                errors.append(str(error))
        else:
            raise TkError("cannot load libtkjit.so (set TK_LIBRARY to the "
                          "file, or TK_HOME to the install prefix): " +
                          "; ".join(errors))
        for name, (result, args) in _SIGNATURES.items():
            function = getattr(loaded, name)
            function.restype = result
            function.argtypes = args
        _lib = loaded
        return _lib


def last_error():
    return lib().tkrt_last_error().decode("utf-8", "replace")


def check(status):
    if status != TKRT_OK:
        raise TkError(last_error())
