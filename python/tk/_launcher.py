"""The cheap launch: a Python function generated for one kernel signature.

A launch that only repeats an earlier one (CUDA tensors of the parameters'
dtypes on one device, plain ints and floats, a grid tuple or a grid function
without @autotune, a stream already wrapped) runs this function and nothing
else: no loop over the parameters, no per-argument ctypes conversion, no
attribute walk. It is compiled once per kernel handle from source text that
names each argument (`a0, a1, ...`), checks each inline against its
parameter type, and packs the grid, the stream and every tkrt_arg with one
`struct.pack` into the buffer libtkjit's `tk_jit_launch_packed` reads (one
foreign call with two arguments; see include/tk/jit_c.h). The current
stream is `torch._C._cuda_getCurrentRawStream(device)`, the call Triton's
launcher makes (torch.cuda.current_stream() builds a Python object).

Whatever the function does not recognise returns SLOW before anything is
launched, and the general path (tk._jit.JITFunction.run) takes the call:
it reports errors, compiles new specializations, loads the kernel on a new
device and wraps new streams, after which the same call is cheap. The
specialization itself (divisibility by 16, equality to 1, 16-byte pointer
alignment, do_not_specialize) is libtkjit's, from the argument values.
"""
import struct

from . import _capi

SLOW = object()

# Parameter type -> (struct format of the tkrt_arg, tag, check, value).
# tkrt_arg is an int32 tag, 4 bytes of padding and an 8-byte union.
_INT_RANGES = {"i1": (0, 1), "i8": (-2**7, 2**7 - 1),
               "i16": (-2**15, 2**15 - 1), "i32": (-2**31, 2**31 - 1),
               "i64": (-2**63, 2**63 - 1), "u8": (0, 2**8 - 1),
               "u16": (0, 2**16 - 1), "u32": (0, 2**32 - 1),
               "u64": (0, 2**64 - 1)}


def _argument(index, type_name, dtypes):
    """(format, tag, condition, value expression) for parameter `index`."""
    name = "a%d" % index
    if type_name.startswith("*"):
        dtype = dtypes.get(type_name[1:])
        if dtype is None:
            return None
        condition = "type(%s) is Tensor and %s.dtype is D%d" % (name, name,
                                                                 index)
        return "i4xQ", _capi.ARG_PTR, condition, "%s.data_ptr()" % name
    if type_name in _INT_RANGES:
        low, high = _INT_RANGES[type_name]
        kinds = "(%s.__class__ is int or %s.__class__ is bool)" % (name, name)
        condition = "%s and %d <= %s <= %d" % (kinds, low, name, high)
        if type_name == "u64":
            return "i4xQ", _capi.ARG_U64, condition, name
        tag = _capi.ARG_I1 if type_name == "i1" else _capi.ARG_INT
        return "i4xq", tag, condition, name
    number = "(%s.__class__ is float or %s.__class__ is int)" % (name, name)
    if type_name == "f32":
        return "i4xf4x", _capi.ARG_F32, number, name
    if type_name == "f64":
        return "i4xd", _capi.ARG_F64, number, name
    if type_name == "f16":
        return "i4xe6x", _capi.ARG_F16, number, name
    if type_name == "bf16":
        return "i4xH6x", _capi.ARG_BF16, number, "bf16_bits(%s)" % name
    return None


def build(handle, torch, dtypes, bf16_bits, meta_class, grid_dims):
    """The cheap launch of `handle` (a tk._jit._Handle) as a function
    `launch(grid, args)` returning None once launched, or SLOW; None when
    the signature has a parameter it does not handle.

    `dtypes` maps a parameter element type ("f32") to the torch dtype
    accepted for it."""
    params = handle.params
    count = len(params)
    formats, conditions, packed = ["<qqqQq"], [], ["g0", "g1", "g2", "stream",
                                                  str(count)]
    scope = {"Tensor": torch.Tensor, "SLOW": SLOW, "TkError": _capi.TkError,
             "bf16_bits": bf16_bits, "Meta": meta_class,
             "grid_dims": grid_dims, "names": tuple(p[0] for p in params),
             "per_device": handle.per_device, "handle": handle,
             "raw_stream": torch._C._cuda_getCurrentRawStream,
             "launch_packed": _capi.lib().tk_jit_launch_packed,
             "last_error": _capi.last_error, "struct_error": struct.error}
    pointers = []
    for index, (_, type_name) in enumerate(params):
        entry = _argument(index, type_name, dtypes)
        if entry is None:
            return None
        fmt, tag, condition, value = entry
        formats.append(fmt)
        conditions.append(condition)
        packed += [str(tag), value]
        if type_name.startswith("*"):
            scope["D%d" % index] = dtypes[type_name[1:]]
            pointers.append(index)
    scope["pack"] = struct.Struct("".join(formats)).pack
    arguments = ", ".join("a%d" % i for i in range(count))
    lines = ["def launch(grid, args):",
             "    if len(args) != %d:" % count,
             "        return SLOW"]
    if count:
        lines.append("    %s, = args" % arguments)
    if conditions:
        lines += ["    if not (%s):" % " and\n            ".join(conditions),
                  "        return SLOW"]
    if pointers:
        first = "a%d" % pointers[0]
        lines.append("    device = %s.get_device()" % first)
        same = "".join(" or a%d.get_device() != device" % i
                       for i in pointers[1:])
        lines += ["    if device < 0%s:" % same, "        return SLOW"]
    else:
        # No tensor to take the device from: PyTorch's current one, as the
        # general path does.
        scope["current_device"] = getattr(torch._C, "_cuda_getDevice",
                                          lambda: 0)
        lines.append("    device = current_device()")
    lines += [
        "    on = per_device.get(device)",
        "    if on is None:",
        "        return SLOW",
        "    stream = on.device.stream_addresses.get(raw_stream(device))",
        "    if stream is None:",
        "        return SLOW",
        "    kind = grid.__class__",
        "    if kind is not tuple:",
        "        if kind is int:",
        "            grid = (grid,)",
        "        elif callable(grid) and not handle.num_configs:",
        "            named = dict(zip(names, args))",
        "            named.update(handle.constexprs)",
        "            try:",
        "                grid = grid(Meta(None, named))",
        "            except KeyError:",
        "                return SLOW",
        "            if grid.__class__ is int:",
        "                grid = (grid,)",
        "            elif grid.__class__ is not tuple:",
        "                grid = tuple(grid)",
        "        else:",
        "            return SLOW",
        "    dims = len(grid)",
        "    if dims == 1:",
        "        g0, = grid",
        "        g1 = g2 = 1",
        "    elif dims == 2:",
        "        g0, g1 = grid",
        "        g2 = 1",
        "    elif dims == 3:",
        "        g0, g1, g2 = grid",
        "    else:",
        "        return SLOW",
        "    try:",
        "        packet = pack(%s)" % ", ".join(packed),
        "    except (struct_error, OverflowError):",
        "        return SLOW",
        "    if launch_packed(on.kernel, packet):",
        "        raise TkError(last_error())",
    ]
    namespace = {}
    exec(compile("\n".join(lines) + "\n", "<tk launch %s>" % handle.name,
                 "exec"), scope, namespace)
    return namespace["launch"]
