"""tk: launch .tk kernels from Python (docs/api.md, "Python").

    import tk
    softmax = tk.jit("examples/softmax.tk", "softmax")
    softmax[(rows,)](out, x, x.stride(0), out.stride(0), cols, BLOCK=1024)

    tk.interpret = True      # or TK_INTERPRET=1: the CPU interpreter, on
                             # numpy arrays (or CPU tensors)

Pure Python over libtkjit's C API (ctypes).
"""
from ._capi import TkError
from ._jit import JITFunction, jit, kernel
from . import testing

__all__ = ["JITFunction", "TkError", "cdiv", "interpret", "jit", "kernel",
           "testing"]
__version__ = "0.1.0"

#: Run launches in the CPU interpreter (numpy arrays, CPU tensors) instead
#: of on the GPU; TK_INTERPRET=1 does the same.
interpret = False


def cdiv(a, b):
    """Ceiling division, for grids: cdiv(1000, 256) == 4."""
    return -(-a // b)
