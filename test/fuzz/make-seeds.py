#!/usr/bin/env python3
"""Writes the seed corpora of the tk fuzz targets.

    make-seeds.py OUT_DIR

creates OUT_DIR/{parse,frontend,compile,metadata,npy}/ with:
  parse, frontend, compile  every examples/*.tk and test/lit/**/*.tk (copied
                            at run time, so the repository holds each
                            program once), plus a few small programs below;
  metadata                  kernel metadata files in the format libtkrt
                            reads (tk_metadata_version 1), some followed by
                            a NUL byte and launch bytes (FuzzMetadata.cpp);
  npy                       .npy files of every dtype the reader knows, in
                            format versions 1.0, 2.0 and 3.0, 0-d to 3-d.
Only the Python standard library is used (no NumPy here).
"""

import os
import shutil
import struct
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Small programs that reach corners the examples do not: helpers, loops,
# every statement form, decorator arguments, -D options in the header.
EXTRA_PROGRAMS = {
    "tiny.tk": """\
# -D BLOCK=16
@kernel
def tiny(x_ptr: *f32, n: i32, BLOCK: constexpr):
    offs = program_id(0) * BLOCK + arange(0, BLOCK)
    store(x_ptr + offs, load(x_ptr + offs, mask=offs < n) * 2.0, mask=offs < n)
""",
    "statements.tk": """\
# -D BLOCK=32 -D FLAG=True --num-warps 2
def helper(a, b: i32):
    if b > 0:
        return a + b
    else:
        return a - b

@kernel(num_warps=2, num_stages=1)
def statements(out_ptr: *i32, n: i32, BLOCK: constexpr, FLAG: constexpr = False):
    acc = zeros((BLOCK,), dtype=i32)
    i = 0
    while i < n:
        acc += helper(arange(0, BLOCK), i)
        i += 1
    for j in range(0, n, 2):
        acc = acc ^ (j << 1)
    for k in static_range(4):
        acc = where(acc > k, acc, k)
    if FLAG:
        acc = -acc
    elif n == 3:
        pass
    static_assert(BLOCK >= 16, "BLOCK too small")
    store(out_ptr + arange(0, BLOCK), acc % 7 if n > 0 else acc // 3)
""",
    "reduce2d.tk": """\
# -D BM=16 -D BN=32
@kernel
def reduce2d(x_ptr: *f16, y_ptr: *f32, stride: i64, BM: constexpr, BN: constexpr):
    rows = program_id(0) * BM + arange(0, BM)
    cols = arange(0, BN)
    x = load(x_ptr + rows[:, None] * stride + cols[None, :]).to(f32)
    y = sum(x * x, axis=1) / BN
    z = max(sqrt(y), axis=0) + min(rsqrt(y + 1e-6), axis=0)
    store(y_ptr + rows, y + z)
    atomic_add(y_ptr, z)
""",
    "dot.tk": """\
# -D BM=16 -D BN=16 -D BK=16
@kernel
def dot_kernel(a_ptr: *bf16, b_ptr: *bf16, c_ptr: *f32, BM: constexpr,
               BN: constexpr, BK: constexpr):
    rm = arange(0, BM)
    rn = arange(0, BN)
    rk = arange(0, BK)
    a = load(a_ptr + rm[:, None] * BK + rk[None, :])
    b = load(b_ptr + rk[:, None] * BN + rn[None, :])
    c = dot(a, b)
    store(c_ptr + rm[:, None] * BN + rn[None, :], trans(trans(c)))
""",
}


def copy_programs(out_dir):
    sources = []
    for folder in (os.path.join(REPO, "examples"), os.path.join(REPO, "test", "lit")):
        for root, _, files in os.walk(folder):
            sources += [os.path.join(root, f) for f in files if f.endswith(".tk")]
    for target in ("parse", "frontend", "compile"):
        dest = os.path.join(out_dir, target)
        os.makedirs(dest, exist_ok=True)
        for path in sorted(sources):
            name = os.path.relpath(path, REPO).replace(os.sep, "_")
            shutil.copyfile(path, os.path.join(dest, name))
        for name, text in EXTRA_PROGRAMS.items():
            with open(os.path.join(dest, "extra_" + name), "w") as f:
                f.write(text)


def metadata_json(name, args, extra=""):
    arg_text = ", ".join(
        '{"name": "%s", "type": "%s", "spec": "%s"}' % a for a in args)
    return ('{"tk_metadata_version": 1, "name": "%s", "arch": "sm_90a", '
            '"num_warps": 4, "num_stages": 3, "shared_bytes": 0, '
            '"binary": "%s.cubin", "binary_kind": "cubin", "args": [%s]%s}'
            % (name, name, arg_text, extra))


def launch_bytes(grid, args):
    """Grid (x: i64, y: i32, z: i32), an argument count byte (below 0xF0:
    as many as the kernel has), then per argument a choice byte (0x00: the declared type),
    8 value bytes and a flags byte (FuzzMetadata.cpp, decodeArg)."""
    out = struct.pack("<qii", *grid) + b"\x00"
    for value in args:
        out += b"\x00" + struct.pack("<Q", value & (2**64 - 1)) + b"\x00"
    return out


def write_metadata_seeds(out_dir):
    dest = os.path.join(out_dir, "metadata")
    os.makedirs(dest, exist_ok=True)
    softmax_args = [("out_ptr", "*f32", "div16"), ("in_ptr", "*f32", "div16"),
                    ("in_stride", "i32", "none"), ("out_stride", "i32", "none"),
                    ("n_cols", "i32", "none")]
    seeds = {
        "softmax.json": metadata_json(
            "softmax", softmax_args,
            ', "constexprs": {"BLOCK": 1024}, "grid_rank": 1, '
            '"source": "examples/softmax.tk"').encode(),
        "ptx_interp.json": ('{"tk_metadata_version": 1, "name": "k", '
                            '"arch": "sm_80", "num_warps": 8, "num_stages": 2, '
                            '"shared_bytes": 49152, "binary": "k.ptx", '
                            '"binary_kind": "ptx", "tk_ir": "k.tk.mlir", '
                            '"args": [{"name": "x", "type": "*bf16"}, '
                            '{"name": "eps", "type": "f32"}, '
                            '{"name": "flag", "type": "i1"}], '
                            '"constexprs": {"EPS": 1e-5, "ON": true}, '
                            '"grid_rank": 3}').encode(),
        "interp_only.json": ('{"tk_metadata_version": 1, "name": "only_ir", '
                             '"arch": "sm_90a", "num_warps": 1, '
                             '"shared_bytes": 0, "tk_ir": "only_ir.tk.mlir", '
                             '"args": []}').encode(),
        "every_type.json": metadata_json(
            "every_type",
            [("a%d" % i, t, "none") for i, t in enumerate(
                ["i1", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64",
                 "f16", "bf16", "f32", "f64", "*i8", "*u64", "*f16"])] +
            [("s1", "i32", "one"), ("s16", "u64", "div16")]).encode(),
        "unicode.json": ('{"tk_metadata_version": 1, "name": "k", '
                         '"arch": "sm_90a", "num_warps": 4, "shared_bytes": 0, '
                         '"binary": "\\u006b.cubin", "binary_kind": "cubin", '
                         '"source": "caf\\u00e9 \\ud83d\\ude00 \\"q\\" \\\\ \\n", '
                         '"args": [], "extra": [1, -2.5e3, null, {"a": [[]]}]}'
                         ).encode(),
        "version2.json": b'{"tk_metadata_version": 2, "name": "k"}',
        # With launch bytes: a valid launch, and one that a check rejects.
        "softmax_launch.bin": metadata_json("softmax", softmax_args).encode() +
        b"\x00" + launch_bytes((64, 1, 1), [0x10000, 0x20000, 781, 781, 781]),
        "softmax_null.bin": metadata_json("softmax", softmax_args).encode() +
        b"\x00" + launch_bytes((1, 1, 1), [0, 0x20000, 1, 1, 1]),
        "spec_one.bin": metadata_json("k", [("one", "i64", "one"),
                                            ("p", "*u8", "div16")]).encode() +
        b"\x00" + launch_bytes((2, 3, 4), [1, 0x1008]),
    }
    for name, data in seeds.items():
        with open(os.path.join(dest, name), "wb") as f:
            f.write(data)


NPY_DTYPES = {  # descr: (struct format of one element, element size)
    "<f2": ("e", 2), "<f4": ("f", 4), "<f8": ("d", 8),
    "|i1": ("b", 1), "<i2": ("h", 2), "<i4": ("i", 4), "<i8": ("q", 8),
    "|u1": ("B", 1), "<u2": ("H", 2), "<u4": ("I", 4), "<u8": ("Q", 8),
    "|b1": ("?", 1), "|V2": ("H", 2),
}


def npy_bytes(descr, shape, version=(1, 0), fortran=False):
    shape_text = "(" + "".join("%d, " % d for d in shape).rstrip(" ")
    if len(shape) > 1:
        shape_text = shape_text.rstrip(",")
    shape_text += ")"
    header = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (
        descr, "True" if fortran else "False", shape_text)
    length_size = 2 if version[0] == 1 else 4
    preamble = 6 + 2 + length_size
    total = preamble + len(header) + 1
    header += " " * ((64 - total % 64) % 64) + "\n"
    encoding = "latin1" if version[0] < 3 else "utf-8"
    header_bytes = header.encode(encoding)
    out = b"\x93NUMPY" + bytes(version)
    out += struct.pack("<H" if length_size == 2 else "<I", len(header_bytes))
    out += header_bytes
    count = 1
    for d in shape:
        count *= d
    fmt, size = NPY_DTYPES[descr]
    for i in range(count):
        if fmt in "efd":
            value = (i - count / 2) * 0.5
        elif fmt == "?":
            value = i % 2 == 1
        elif fmt in "BHIQ":
            value = (i * 37) % (2 ** (8 * size))
        else:
            value = (i * 37) % (2 ** (8 * size - 1)) - i
        out += struct.pack("<" + fmt, value)
    return out


def write_npy_seeds(out_dir):
    dest = os.path.join(out_dir, "npy")
    os.makedirs(dest, exist_ok=True)
    shapes = [(), (0,), (5,), (2, 3), (2, 1, 3)]
    for descr in NPY_DTYPES:
        for shape in shapes:
            name = "%s_%s.npy" % (descr[1:], "x".join(map(str, shape)) or "scalar")
            with open(os.path.join(dest, name), "wb") as f:
                f.write(npy_bytes(descr, shape))
    for version in ((2, 0), (3, 0)):
        with open(os.path.join(dest, "f4_v%d.npy" % version[0]), "wb") as f:
            f.write(npy_bytes("<f4", (3, 2), version))
    # Rejected ones: Fortran order, big-endian (accepted: one-byte '>' types).
    with open(os.path.join(dest, "fortran.npy"), "wb") as f:
        f.write(npy_bytes("<f4", (2, 2), fortran=True))
    with open(os.path.join(dest, "bigendian.npy"), "wb") as f:
        f.write(npy_bytes("<i4", (3,)).replace(b"'<i4'", b"'>i4'"))


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make-seeds.py OUT_DIR")
    out_dir = sys.argv[1]
    copy_programs(out_dir)
    write_metadata_seeds(out_dir)
    write_npy_seeds(out_dir)


if __name__ == "__main__":
    main()
