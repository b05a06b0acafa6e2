"""tkgen's matmul kernels (a mixin of tkgen.Generator).

About one kernel in four (tkgen.MATMUL_SHARE) is a matmul: C = epilogue(A
@ B) over an M x N x K problem that is not a multiple of the blocks
(BLOCK_M, BLOCK_N in 16..128, BLOCK_K in 16..64, 32..64 for i8), a K loop
`for k in range(0, cdiv(K, BLOCK_K))` of masked loads with pointer
increments, `acc = dot(a, b, acc)` / `acc += dot(a, b)` / `acc += a @ b`
into `zeros(..., dtype=f32)` (i32 for i8), operands f16, bf16, f32 (default
tf32, "tf32", "ieee", allow_tf32=False, "tf32x3") or i8, row- or
column-major through strides (sometimes padded, sometimes a literal unit
stride), inputs integer-valued in [-4, 4] or uniform in [-1, 1] / [-2, 2]
(i8: [-128, 127] or [-8, 8]), then 0-3 of: bias (a row vector over N,
sometimes a column vector over M), leaky ReLU, scaling (scalar argument or
constant), and a store to f32, f16 or bf16 (i32 or f32 for i8). The
accumulator's bounds, for every output element, with S = K max|a| max|b|
(a bound on sum_k |a_ik| |b_kj|):
    mag = S,   err = (p + (K + 2) 2^-23) S
  * p: the operand precision: tf32 (f32 operands, the default) rounds each
    operand to 10 mantissa bits, relative 2^-10 (truncation, the worst
    case), so a product is off by up to (2^-9 + 2^-20) |a||b|; tf32x3 (a_hi
    b_hi + a_hi b_lo + a_lo b_hi, dropping a_lo b_lo and rounding the low
    parts) 2^-18; ieee, f16 and bf16 0 (their products are exact in f32;
    bf16/f16 inputs are exactly what was stored).
  * (K + 2) 2^-23 S: the summation order (mma tiles, k-blocking, a split
    dot vs the interpreter's sequential f32 sum): each side's f32 sum of K
    products is within about K 2^-24 S of the exact one, plus the rounding
    of the products themselves (ieee: the GPU fuses them into fmas).
  * i8: i32 accumulation on both sides, err = 0: bit-exact.
The epilogue propagates these as the rules above do (scaling by c: |c| err
plus a rounding, and it may fuse with a following bias add; bias: one
rounding). Leaky ReLU, `where(acc >= 0, acc, s * acc)`, is the one
comparison of an inexact value allowed: it is continuous with slope <= 1,
so where the two sides disagree on the sign (both within err of 0) the
results still differ by at most err. Like every output, the store is
checked with 4x the bound (plus 1 ulp for f16/bf16 outputs); i8 results,
and f32 results converted from them (|acc| < 2^24), are bit-exact.
"""

from tkgen_bounds import EPS, Val, rounding


class MatmulKernels:
    """Generator methods for the matmul kernels; they use the host's
    rng, emit, add_input/add_output/add_scalar and tolerance."""

    def kernel_matmul(self):
        """C = epilogue(A @ B): a K loop of masked block loads and dots, as
        examples/matmul.tk, with random dtypes, layouts and epilogues."""
        rng = self.rng
        dtype = rng.choice(["f16", "f16", "bf16", "f32", "f32", "i8"])
        is_int = dtype == "i8"
        bm = rng.choice([16, 32, 64, 128])
        bn = rng.choice([16, 32, 64, 128])
        bk = rng.choice([32, 64] if is_int else [16, 32, 64])
        size = {"f16": 2, "bf16": 2, "f32": 4, "i8": 1}[dtype]
        # One stage of A and B tiles within 32 KiB of shared memory.
        while (bm + bn) * bk * size > 32768:
            bk //= 2

        def extent(block, low, high):
            # Not a multiple of the block; sometimes less than one block.
            e = rng.randrange(low, high)
            return e + 1 if e % block == 0 else e
        m = extent(bm, max(1, bm // 2), 3 * bm + 1)
        n = extent(bn, max(1, bn // 2), 3 * bn + 1)
        k = extent(bk, max(1, bk // 2), 4 * bk + 1)
        gm, gn = -(-m // bm), -(-n // bn)
        # Sometimes one row of programs too many: they must write nothing.
        extra = 1 if self.chance(0.15) else 0
        self.defines = {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk}

        if is_int:
            lo, hi = rng.choice([(-128, 127), (-8, 8)])
            dist = {"kind": "int", "lo": lo, "hi": hi}
        else:
            dist = rng.choice([{"kind": "int", "lo": -4, "hi": 4},
                               {"kind": "uniform", "lo": -1, "hi": 1},
                               {"kind": "uniform", "lo": -2, "hi": 2}])
        mag_in = float(max(abs(dist["lo"]), abs(dist["hi"])))

        def scalar(name, dtype_, value):
            self.params.append("%s: %s" % (name, dtype_))
            self.args.append({"name": name, "kind": "scalar", "dtype": dtype_,
                              "value": str(value)})

        def operand(name, rows, cols, row_name, col_name):
            """A logical rows x cols operand, row- or column-major, sometimes
            with a padded leading dimension. Returns the two stride terms
            (`None` for a literal unit stride)."""
            pad = rng.randrange(1, 9) if self.chance(0.3) else 0
            column_major = self.chance(0.35)
            shape = [cols, rows + pad] if column_major else [rows, cols + pad]
            strides = (1, rows + pad) if column_major else (cols + pad, 1)
            self.params.append("%s: *%s" % (name, dtype))
            self.args.append({"name": name, "kind": "in", "dtype": dtype,
                              "shape": shape, "dist": dist})
            terms = []
            for axis_name, stride in zip((row_name, col_name), strides):
                if stride == 1 and self.chance(0.5):
                    terms.append(None)      # contiguity visible to the compiler
                else:
                    scalar(axis_name, "i32", stride)
                    terms.append(axis_name)
            return terms

        am, ak = operand("a_ptr", m, k, "stride_am", "stride_ak")
        bk_, bn_ = operand("b_ptr", k, n, "stride_bk", "stride_bn")
        for name, value in (("M", m), ("N", n), ("K", k)):
            scalar(name, "i32", value)

        def scaled(index, stride):
            return index if stride is None else "%s * %s" % (index, stride)

        if self.chance(0.5):
            self.grid = [gm + extra, gn]
            self.emit("pid_m = program_id(0)")
            self.emit("pid_n = program_id(1)")
        else:
            self.grid = [(gm + extra) * gn]
            self.emit("pid = program_id(0)")
            self.emit("num_pid_n = cdiv(N, BLOCK_N)")
            self.emit("pid_m = pid // num_pid_n")
            self.emit("pid_n = pid % num_pid_n")
        self.emit("offs_m = pid_m * BLOCK_M + arange(0, BLOCK_M)")
        self.emit("offs_n = pid_n * BLOCK_N + arange(0, BLOCK_N)")
        self.emit("offs_k = arange(0, BLOCK_K)")
        self.emit("a_ptrs = a_ptr + %s + %s" % (scaled("offs_m[:, None]", am),
                                                scaled("offs_k[None, :]", ak)))
        self.emit("b_ptrs = b_ptr + %s + %s" % (scaled("offs_k[:, None]", bk_),
                                                scaled("offs_n[None, :]", bn_)))
        acc_dtype = "i32" if is_int else "f32"
        zero = "0" if is_int else "0.0"
        self.emit("acc = zeros((BLOCK_M, BLOCK_N), dtype=%s)" % acc_dtype)
        self.emit("for k in range(0, cdiv(K, BLOCK_K)):")
        if self.chance(0.5):
            self.emit("    k_remaining = K - k * BLOCK_K")
            ka, kb = "offs_k[None, :] < k_remaining", "offs_k[:, None] < k_remaining"
        else:
            self.emit("    k_offs = k * BLOCK_K + offs_k")
            ka, kb = "k_offs[None, :] < K", "k_offs[:, None] < K"
        self.emit("    a = load(a_ptrs, mask=(offs_m[:, None] < M) & (%s), other=%s)"
                  % (ka, zero))
        self.emit("    b = load(b_ptrs, mask=(%s) & (offs_n[None, :] < N), other=%s)"
                  % (kb, zero))
        precision = None
        if dtype == "f32":
            precision = rng.choice([None, "tf32", "ieee", "tf32x3"])
        keyword = ""
        if precision == "ieee" and self.chance(0.3):
            keyword = ", allow_tf32=False"
        elif precision:
            keyword = ', input_precision="%s"' % precision
        form = rng.choice(["acc", "acc", "acc=", "+=", "@"])
        if form == "@" and keyword:
            form = "+="
        if form == "acc":
            self.emit("    acc = dot(a, b, acc%s)" % keyword)
        elif form == "acc=":
            self.emit("    acc = dot(a, b, acc=acc%s)" % keyword)
        elif form == "+=":
            self.emit("    acc += dot(a, b%s)" % keyword)
        else:
            self.emit("    acc += a @ b")
        self.emit("    a_ptrs += %s" % scaled("BLOCK_K", ak))
        self.emit("    b_ptrs += %s" % scaled("BLOCK_K", bk_))

        # The accumulator's static bounds: |acc| <= S = K max|a| max|b|
        # (a bound on sum_k |a_ik| |b_kj|), and the difference GPU vs
        # interpreter (see the module docstring: precision + order).
        s_bound = k * mag_in * mag_in
        if is_int:
            err = 0.0
        else:
            operand_rel = {"tf32": 2.0 ** -9 + 2.0 ** -20,
                           "tf32x3": 2.0 ** -18}.get(
                precision or "tf32", 0.0) if dtype == "f32" else 0.0
            err = (operand_rel + (k + 2) * 2.0 ** -23) * s_bound
        acc = Val("acc", acc_dtype, mag=s_bound, err=err)

        for op in rng.sample(["bias", "leaky", "scale"], rng.randrange(0, 4)):
            acc = getattr(self, "matmul_" + op)(acc, dtype)

        mask = "(offs_m[:, None] < M) & (offs_n[None, :] < N)"
        if is_int:
            out_dtype = "f32" if acc.mag < 2.0 ** 24 and self.chance(0.4) else "i32"
        else:
            out_dtype = rng.choice(["f32", "f16", "bf16"])
        # Output rows sometimes wider than N (the padding stays unwritten).
        ldc = n + (rng.randrange(1, 9) if self.chance(0.3) else 0)
        out = self.add_output(out_dtype, [m, ldc], self.tolerance(acc, out_dtype))
        scalar("stride_cm", "i32", ldc)
        self.emit("c_ptrs = %s + offs_m[:, None] * stride_cm + offs_n[None, :]" % out)
        self.emit("store(c_ptrs, %s, mask=%s)" % (self.store_text(acc, out_dtype),
                                                   mask))

    def matmul_scale(self, acc, dtype):
        if dtype == "i8":
            c = self.rng.choice([2, 3, -1, -2])
            self.emit("acc = acc * %d" % c)
            return Val("acc", "i32", mag=acc.mag * abs(c))
        if self.chance(0.5):
            v = self.rng.choice([0.5, 1.5, -0.75, 2.0, 0.1, -1.25])
            name = self.fresh("alpha")
            self.params.append("%s: f32" % name)
            self.args.append({"name": name, "kind": "scalar", "dtype": "f32",
                              "value": repr(v)})
        else:
            v = float(self.rng.choice(["0.5", "2.0", "-1.5", "0.125", "0.1"]))
            name = repr(v)
        self.emit(self.rng.choice(["acc = acc * %s", "acc *= %s", "acc = %s * acc"])
                  % name)
        mag = acc.mag * abs(v)
        return Val("acc", "f32", mag=mag, err=abs(v) * acc.err + rounding(mag, acc),
                   mul_top=True)

    def matmul_bias(self, acc, dtype):
        """A row vector (over N; sometimes a column vector over M) added."""
        rows = self.chance(0.25)
        offs, bound = ("offs_m", "M") if rows else ("offs_n", "N")
        length = int(next(a["value"] for a in self.args if a["name"] == bound))
        name = self.fresh("bias")
        if dtype == "i8":
            bias_dtype = self.rng.choice(["i32", "i8"])
            dist = {"kind": "int", "lo": -1000, "hi": 1000} if bias_dtype == "i32" \
                else {"kind": "int", "lo": -128, "hi": 127}
            other = "0"
        else:
            bias_dtype = self.rng.choice(["f32", dtype])
            dist = {"kind": "uniform", "lo": -1, "hi": 1}
            other = "0.0"
        self.params.append("%s: *%s" % (name, bias_dtype))
        self.args.append({"name": name, "kind": "in", "dtype": bias_dtype,
                          "shape": [length], "dist": dist})
        load = "load(%s + %s, mask=%s < %s, other=%s)" % (name, offs, offs, bound,
                                                          other)
        if bias_dtype in ("f16", "bf16"):
            load += ".to(f32)"
        elif bias_dtype == "i8":
            load += ".to(i32)"
        vec = self.fresh("b")
        self.emit("%s = %s" % (vec, load))
        term = "%s[:, None]" % vec if rows else "%s[None, :]" % vec
        self.emit(self.rng.choice(["acc = acc + %s", "acc += %s", "acc = %s + acc"])
                  .replace("%s", term))
        bmag = max(abs(dist["lo"]), abs(dist["hi"]))
        mag = acc.mag + bmag
        if dtype == "i8":
            return Val("acc", "i32", mag=mag)
        # A product just before may be fused into an fma with the add.
        err = acc.err + (EPS * acc.mag if acc.mul_top else 0.0)
        err += 2 * EPS * mag if err else 0.0
        return Val("acc", "f32", mag=mag, err=err)

    def matmul_leaky(self, acc, dtype):
        if dtype == "i8":
            d = self.rng.choice([4, 8, 100])
            self.emit("acc = where(acc >= 0, acc, acc // %d)" % d)
            return Val("acc", "i32", mag=acc.mag)
        slope = self.rng.choice(["0.01", "0.1", "0.2"])
        self.emit("acc = where(acc >= 0, acc, %s * acc)" % slope)
        # The one comparison of an inexact value: leaky ReLU is continuous
        # with slope <= 1, so where the two sides disagree on the sign (both
        # within err of 0) the results still differ by at most err. LLVM may
        # fold it into acc * select(...), which a following add may fuse.
        return Val("acc", "f32", mag=acc.mag,
                   err=acc.err + 2 * EPS * float(slope) * acc.mag, mul_top=True)
