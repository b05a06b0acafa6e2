#!/usr/bin/env python3
"""Random small tk kernels for differential testing (GPU vs interpreter).

    python3 scripts/tkgen.py --seed 7 --out DIR        # DIR/gen_7.tk, DIR/gen_7.json
    python3 scripts/tkgen.py --seed 7 --print          # the kernel text only

Each kernel is deterministic in its seed. The .json beside it is the case
that scripts/differential.py runs: constexprs, grid, num_warps, every
parameter (inputs with the distribution to draw them from, outputs, scalar
values) and, per output, how closely the GPU must match the interpreter.

Standard library only (the lit test runs it where numpy is missing).

How the tolerances come about: every generated value carries static bounds
(`Val`): `mag`, a bound on |value| given the input ranges, and `err`, a bound
on how far the GPU's value may be from the interpreter's. `err` stays 0 for
operations both sides compute bit for bit (integer ops, + - * / sqrt, min,
max, casts, comparisons) and grows where they may not:
  * the fast PTX approximations (exp, log, sin, rsqrt, ...; MathOpToLlvm.cpp),
  * fused multiply-add: the GPU lowering lets LLVM contract `a * b + c` into
    one fma (LlvmToPtx.cpp, AllowFPOpFusion::Fast), which skips the product's
    rounding, at most half an ulp of |a * b|,
  * float sums and scans, whose order differs (GPU: a tree in f32;
    interpreter: sequential in f64).
A value with err > 0 never feeds a comparison, a float->int cast, floor or
an argmax (a flipped comparison is not a small error), and is bounded away
from 0 where it is a divisor or under sqrt/log (`abs(x) + c`).

About one kernel in four (MATMUL_SHARE) is a matmul instead:
scripts/tkgen_matmul.py describes those and their bounds.
"""

import argparse
import json
import math
import os
import random
import subprocess
import sys

from tkgen_bounds import APPROX_REL, EPS, MAG_LIMIT, Val, rounding
from tkgen_matmul import MatmulKernels

MATMUL_SHARE = 0.25       # the fraction of kernels that are matmuls

FLOAT_CONSTANTS = ["0.5", "1.5", "2.0", "-0.25", "3.0", "0.1", "-1.75", "1e-3"]
INT_CONSTANTS = ["1", "3", "7", "-5", "12", "255", "-1000", "65536"]
OTHER_FLOATS = ["0.0", "1.5", "-2.0", "0.25"]
OTHER_INTS = ["0", "-3", "7", "100"]


class Generator(MatmulKernels):
    def __init__(self, seed):
        self.seed = seed
        self.rng = random.Random(seed)
        self.lines = []           # kernel body statements
        self.params = []          # kernel signature entries
        self.args = []            # the case's parameter descriptions
        self.checks = {}          # output name -> tolerance
        self.counter = 0
        self.floats = []          # pool of f32 values to draw leaves from
        self.ints = []
        self.scalar_floats = []
        self.scalar_ints = []

    # --- small helpers -------------------------------------------------
    def fresh(self, prefix="t"):
        self.counter += 1
        return "%s%d" % (prefix, self.counter)

    def emit(self, line):
        self.lines.append("    " + line)

    def let(self, expr, dtype, **bounds):
        name = self.fresh()
        self.emit("%s = %s" % (name, expr))
        return Val(name, dtype, **bounds)

    def chance(self, p):
        return self.rng.random() < p

    # --- leaves --------------------------------------------------------
    def float_leaf(self, allow_const=True):
        r = self.rng.random()
        if allow_const and r < 0.15:
            c = self.rng.choice(FLOAT_CONSTANTS)
            return Val(c, "f32", mag=abs(float(c)), lo=abs(float(c)),
                       const=True, block=False)
        if r < 0.25 and self.scalar_floats:
            return self.rng.choice(self.scalar_floats)
        if r < 0.33 and self.ints:
            i = self.rng.choice(self.ints)
            return self.let("%s.to(f32)" % i.text, "f32", mag=i.mag,
                            block=i.block)
        return self.rng.choice(self.floats)

    def int_leaf(self, allow_const=True):
        r = self.rng.random()
        if allow_const and r < 0.15:
            c = self.rng.choice(INT_CONSTANTS)
            return Val(c, "i32", mag=abs(int(c)), const=True, block=False)
        if r < 0.25 and self.scalar_ints:
            return self.rng.choice(self.scalar_ints)
        if r < 0.33:
            f = [v for v in self.floats if v.exact and v.mag < 2.0 ** 30]
            if f:
                v = self.rng.choice(f)
                return self.let("%s.to(i32)" % v.text, "i32", mag=v.mag)
        return self.rng.choice(self.ints)

    # --- booleans (always exact: comparisons of exact values) ----------
    def gen_bool(self, depth):
        if depth > 0 and self.chance(0.25):
            a, b = self.gen_bool(depth - 1), self.gen_bool(depth - 1)
            op = self.rng.choice(["&", "|", "^"])
            return self.let("%s %s %s" % (a.text, op, b.text), "i1",
                            block=a.block or b.block)
        op = self.rng.choice(["<", "<=", ">", ">=", "==", "!="])
        if self.chance(0.5):
            a = self.gen_int(depth - 1)
            b = self.int_leaf()
        else:
            a = self.gen_float(depth - 1, exact_only=True)
            b = self.float_leaf()
            if not b.exact:
                b = Val("0.5", "f32", mag=0.5, const=True, block=False)
        if a.const and b.const:
            a = self.rng.choice(self.ints) if b.dtype == "i32" else \
                self.rng.choice([v for v in self.floats if v.exact])
        if a.text == b.text:
            # x < x is constant; compare with a constant instead.
            b = Val(self.rng.choice(INT_CONSTANTS) if a.dtype == "i32" else "0.5",
                    a.dtype, const=True, block=False)
        return self.let("%s %s %s" % (a.text, op, b.text), "i1",
                        block=a.block or b.block)

    # --- integers (always exact) ----------------------------------------
    def gen_int(self, depth):
        """An i32 value; `mag` bounds |value| (2^31 once it may wrap)."""
        if depth <= 0 or self.chance(0.2):
            return self.int_leaf(allow_const=False)
        kind = self.rng.choice(["add", "sub", "mul", "div", "mod", "and", "or",
                                "xor", "not", "shl", "shr", "min", "max",
                                "abs", "neg", "where", "from_bool", "lshr",
                                "from_float"])
        a = self.gen_int(depth - 1)
        wide = 2.0 ** 31
        if kind in ("add", "sub", "mul", "and", "or", "xor", "min", "max"):
            b = self.gen_int(depth - 1) if self.chance(0.7) else self.int_leaf()
            sym = {"add": "+", "sub": "-", "mul": "*", "and": "&", "or": "|",
                   "xor": "^"}.get(kind)
            if sym:
                expr = "%s %s %s" % (a.text, sym, b.text)
            else:
                expr = "%s(%s, %s)" % ({"min": "minimum", "max": "maximum"}[kind],
                                       a.text, b.text)
            mag = {"add": a.mag + b.mag, "sub": a.mag + b.mag,
                   "mul": a.mag * b.mag}.get(
                kind, max(a.mag, b.mag) * (1 if kind in ("min", "max") else 2))
            return self.let(expr, "i32", mag=min(mag, wide),
                            block=a.block or b.block)
        if kind in ("div", "mod"):
            # A divisor that is never 0 (nor -1, so no INT_MIN // -1): both
            # are undefined in LLVM, and we compare defined behaviour only.
            r = self.rng.random()
            if r < 0.3:
                d = self.rng.choice(["3", "7", "-5", "16", "-9", "1000"])
            else:
                b = self.gen_int(depth - 1)
                if r < 0.65:
                    d = self.let("(%s & 15) + 2" % b.text, "i32", mag=17).text
                else:
                    d = self.let("-((%s & 7) + 2)" % b.text, "i32", mag=9).text
            sym = "//" if kind == "div" else "%"
            return self.let("%s %s %s" % (a.text, sym, d), "i32", mag=a.mag,
                            block=a.block)
        if kind in ("shl", "shr"):
            # Shift counts stay below the width (larger ones are poison in LLVM).
            if self.chance(0.4):
                s = str(self.rng.randrange(0, 32))
            else:
                s = self.let("%s & 31" % self.gen_int(depth - 1).text, "i32",
                             mag=31).text
            sym = "<<" if kind == "shl" else ">>"
            return self.let("%s %s %s" % (a.text, sym, s), "i32",
                            mag=wide if kind == "shl" else a.mag, block=a.block)
        if kind == "lshr":
            # Logical shift: through u32, back to i32 by truncation.
            s = str(self.rng.randrange(1, 32))
            return self.let("(%s.to(u32) >> %s).to(i32)" % (a.text, s), "i32",
                            mag=wide, block=a.block)
        if kind in ("not", "neg", "abs"):
            form = {"not": "~%s", "neg": "-%s", "abs": "abs(%s)"}[kind]
            return self.let(form % a.text, "i32", mag=min(a.mag + 1, wide),
                            block=a.block)
        if kind == "where":
            c = self.gen_bool(depth - 1)
            b = self.gen_int(depth - 1)
            return self.let("where(%s, %s, %s)" % (c.text, a.text, b.text),
                            "i32", mag=max(a.mag, b.mag),
                            block=a.block or b.block or c.block)
        if kind == "from_bool":
            c = self.gen_bool(depth - 1)
            return self.let("%s.to(i32)" % c.text, "i32", mag=1, block=c.block)
        # from_float: truncation toward zero of an exact, in-range float.
        f = self.gen_float(depth - 1, exact_only=True)
        if f.mag >= 2.0 ** 30:
            f = self.let("minimum(maximum(%s, -1e9), 1e9)" % f.text, "f32",
                         mag=1e9, block=f.block)
        return self.let("%s.to(i32)" % f.text, "i32", mag=f.mag, block=f.block)

    # --- floats -----------------------------------------------------------
    def positive(self, a):
        """abs(a) + c: a value bounded away from 0 (divisors, sqrt, log)."""
        c = self.rng.choice([0.5, 1.0, 2.0])
        return self.let("abs(%s) + %s" % (a.text, c), "f32", mag=a.mag + c,
                        lo=c, err=a.err + rounding(a.mag + c, a), block=a.block)

    def gen_float(self, depth, exact_only=False):
        if depth <= 0 or self.chance(0.2):
            v = self.float_leaf(allow_const=False)
            if exact_only and not v.exact:
                v = self.rng.choice([f for f in self.floats if f.exact])
            return v
        for _ in range(8):
            v = self.try_float_op(depth, exact_only)
            if v is not None and v.mag <= MAG_LIMIT and (v.exact or not exact_only):
                return v
        return self.rng.choice([f for f in self.floats if f.exact])

    def try_float_op(self, depth, exact_only):
        # f32 `/` is the GPU's 2-ulp div.full (as in Triton), so it is not
        # among the bit-exact kinds.
        exact_kinds = ["add", "sub", "mul", "neg", "abs", "min", "max",
                       "where", "sqrt", "floor", "f16", "bf16", "fma",
                       "from_int"]
        approx_kinds = ["div", "exp", "exp2", "log", "log2", "sigmoid", "tanh", "sin",
                        "cos", "rsqrt", "erf"]
        kinds = exact_kinds if exact_only else exact_kinds + approx_kinds
        kind = self.rng.choice(kinds)
        sub = lambda: self.gen_float(depth - 1, exact_only)
        a = sub()
        if kind in ("add", "sub", "mul", "min", "max"):
            b = sub() if self.chance(0.75) else self.float_leaf()
            if a.const and b.const:
                return None
            block = a.block or b.block
            if kind in ("min", "max"):
                return self.let("%s(%s, %s)" % (
                    "minimum" if kind == "min" else "maximum", a.text, b.text),
                    "f32", mag=max(a.mag, b.mag), err=max(a.err, b.err),
                    block=block)
            if kind == "mul":
                mag = a.mag * b.mag
                err = a.mag * b.err + b.mag * a.err + a.err * b.err
                if exact_only and err:
                    return None
                return self.let("%s * %s" % (a.text, b.text), "f32", mag=mag,
                                err=err + rounding(mag, a, b), mul_top=True,
                                block=block)
            mag = a.mag + b.mag
            # The GPU may fuse a product operand into an fma.
            fused = sum(EPS * v.mag for v in (a, b) if v.mul_top)
            err = a.err + b.err + fused
            if exact_only and err:
                return None
            err += 2 * EPS * mag if err else 0.0
            sym = "+" if kind == "add" else "-"
            return self.let("%s %s %s" % (a.text, sym, b.text), "f32", mag=mag,
                            err=err, block=block)
        if kind == "div":
            if self.chance(0.3):
                c = self.rng.choice(["3.0", "-0.5", "7.0", "1.25"])
                d = Val(c, "f32", mag=abs(float(c)), lo=abs(float(c)), const=True,
                        block=False)
            else:
                d = self.positive(sub())
            if exact_only and not d.exact:
                return None
            mag = a.mag / d.lo
            err = a.err / d.lo + a.mag * d.err / d.lo ** 2
            # div.full.f32 is within 2 ulp of the exact quotient.
            return self.let("%s / %s" % (a.text, d.text), "f32", mag=mag,
                            err=err + 4 * EPS * mag, block=a.block or d.block)
        if kind == "fma":
            b, c = sub(), sub()
            mag = a.mag * b.mag + c.mag
            err = a.mag * b.err + b.mag * a.err + a.err * b.err + c.err
            if exact_only and err:
                return None
            return self.let("fma(%s, %s, %s)" % (a.text, b.text, c.text), "f32",
                            mag=mag, err=err + rounding(mag, a, b, c),
                            block=a.block or b.block or c.block)
        if kind == "neg":
            return self.let("-%s" % a.text, "f32", mag=a.mag, err=a.err,
                            mul_top=a.mul_top, block=a.block)
        if kind == "abs":
            return self.let("abs(%s)" % a.text, "f32", mag=a.mag, err=a.err,
                            block=a.block)
        if kind == "where":
            c = self.gen_bool(depth - 1)
            b = sub()
            # LLVM may pull a common factor out of two product arms
            # (a * select(c, x, y)), which an add then fuses with.
            return self.let("where(%s, %s, %s)" % (c.text, a.text, b.text), "f32",
                            mag=max(a.mag, b.mag), err=max(a.err, b.err),
                            mul_top=a.mul_top and b.mul_top,
                            block=a.block or b.block or c.block)
        if kind == "sqrt":
            if a.exact and self.chance(0.5):
                return self.let("sqrt(abs(%s))" % a.text, "f32",
                                mag=math.sqrt(a.mag), block=a.block)
            d = self.positive(a)
            mag = math.sqrt(d.mag)
            return self.let("sqrt(%s)" % d.text, "f32", mag=mag,
                            err=d.err / (2 * math.sqrt(d.lo)) + rounding(mag, d),
                            block=d.block)
        if kind == "floor":
            if not a.exact:
                return None
            fn = self.rng.choice(["floor", "ceil"])
            return self.let("%s(%s)" % (fn, a.text), "f32", mag=a.mag + 1,
                            block=a.block)
        if kind in ("f16", "bf16"):
            # Round to f16/bf16 and back: cvt.rn on both sides; an inexact
            # input may land on the other side of a rounding boundary.
            if kind == "f16" and a.mag > 60000:
                return None
            step = 2.0 ** -10 if kind == "f16" else 2.0 ** -7
            err = a.err + step * a.mag if a.err else 0.0
            return self.let("%s.to(%s).to(f32)" % (a.text, kind), "f32",
                            mag=a.mag * (1 + step), err=err, block=a.block)
        if kind == "from_int":
            i = self.gen_int(depth - 1)
            return self.let("%s.to(f32)" % i.text, "f32", mag=i.mag,
                            block=i.block)
        # The approximations.
        if kind in ("exp", "exp2"):
            if a.mag > 10:
                return None
            mag = math.exp(a.mag) if kind == "exp" else 2.0 ** a.mag
            # ex2.approx, plus for exp the rounding of x * log2(e): an
            # absolute error in the exponent is a relative one in the result.
            rel = APPROX_REL + 2 * EPS * a.mag + a.err
            return self.let("%s(%s)" % (kind, a.text), "f32", mag=mag,
                            err=mag * rel + 2 * EPS * mag, block=a.block)
        if kind in ("log", "log2"):
            d = self.positive(a)
            mag = max(abs(math.log(d.lo)), abs(math.log(d.mag))) * 1.5
            err = 1.5 * d.err / d.lo + APPROX_REL * (1 + mag)
            return self.let("%s(%s)" % (kind, d.text), "f32", mag=mag, err=err,
                            block=d.block)
        if kind == "rsqrt":
            d = self.positive(a)
            mag = 1 / math.sqrt(d.lo)
            err = mag * APPROX_REL + d.err / (2 * d.lo ** 1.5)
            return self.let("rsqrt(%s)" % d.text, "f32", mag=mag, err=err,
                            block=d.block)
        if kind in ("sin", "cos"):
            if a.mag > 100:
                return None
            return self.let("%s(%s)" % (kind, a.text), "f32", mag=1.0,
                            err=a.err + 4 * APPROX_REL, block=a.block)
        if kind == "sigmoid":
            err = a.err / 4 + APPROX_REL + EPS * a.mag + 2 * EPS
            return self.let("sigmoid(%s)" % a.text, "f32", mag=1.0, err=err,
                            block=a.block)
        # tanh, erf: our own polynomial approximations on the GPU.
        return self.let("%s(%s)" % (kind, a.text), "f32", mag=1.0,
                        err=1.2 * a.err + 2 * APPROX_REL, block=a.block)

    def gen_value(self, dtype, depth, exact_only=False):
        """A value of `dtype` that depends on at least one loaded block."""
        v = self.gen_float(depth, exact_only) if dtype == "f32" else \
            self.gen_int(depth)
        if not v.block:
            pool = [f for f in self.floats if f.exact] if dtype == "f32" else self.ints
            other = self.rng.choice(pool)
            if dtype == "f32":
                v = self.let("%s + %s" % (v.text, other.text), "f32",
                             mag=v.mag + other.mag,
                             err=v.err + (2 * EPS * (v.mag + other.mag) if v.err else 0),
                             block=True)
            else:
                v = self.let("%s ^ %s" % (v.text, other.text), "i32")
        # Later expressions may use it again (values with several uses).
        (self.floats if dtype == "f32" else self.ints).append(v)
        return v

    # --- parameters ------------------------------------------------------
    def add_input(self, dtype, shape, name=None):
        name = name or self.fresh("x")
        self.params.append("%s: *%s" % (name, dtype))
        if dtype in ("f32", "f16", "bf16"):
            r = self.rng.choice([1.0, 2.0, 4.0])
            dist = {"kind": "uniform", "lo": -r, "hi": r}
        else:
            lo, hi = {"u8": (0, 255), "i8": (-128, 127)}.get(dtype) or \
                self.rng.choice([(-100, 100), (-(1 << 20), 1 << 20),
                                 (-(1 << 31), (1 << 31) - 1), (0, 255)])
            dist = {"kind": "int", "lo": lo, "hi": hi}
        self.args.append({"name": name, "kind": "in", "dtype": dtype,
                          "shape": list(shape), "dist": dist})
        return name, dist

    def add_output(self, dtype, shape, tolerance, kind="out", dist=None):
        name = self.fresh("out")
        self.params.append("%s: *%s" % (name, dtype))
        arg = {"name": name, "kind": kind, "dtype": dtype, "shape": list(shape)}
        if dist:
            arg["dist"] = dist
        self.args.append(arg)
        self.checks[name] = tolerance
        return name

    def add_scalar(self, dtype, value):
        name = self.fresh("s")
        self.params.append("%s: %s" % (name, dtype))
        self.args.append({"name": name, "kind": "scalar", "dtype": dtype,
                          "value": value})
        return name

    def scalar_leaves(self):
        for _ in range(self.rng.randrange(0, 3)):
            if self.chance(0.5):
                v = round(self.rng.uniform(-2, 2), 3)
                name = self.add_scalar("f32", repr(v))
                self.scalar_floats.append(Val(name, "f32", mag=abs(v), block=False))
            else:
                v = self.rng.randrange(-50, 51)
                name = self.add_scalar("i32", str(v))
                self.scalar_ints.append(Val(name, "i32", mag=abs(v), block=False))

    def loaded(self, text, dtype, mag):
        """Registers a loaded value (widened to f32/i32) as a leaf."""
        if dtype in ("f16", "bf16"):
            text += ".to(f32)"
        elif dtype in ("u8", "i8"):
            text += ".to(i32)"
        is_float = dtype in ("f32", "f16", "bf16")
        v = self.let(text, "f32" if is_float else "i32", mag=mag)
        (self.floats if is_float else self.ints).append(v)

    def other(self, dtype):
        if dtype in ("f32", "f16", "bf16"):
            return self.rng.choice(OTHER_FLOATS)
        return self.rng.choice(OTHER_INTS if dtype != "u8" else ["0", "7", "200"])

    def input_dtypes(self):
        floats = self.rng.randrange(1, 4)
        ints = self.rng.randrange(1, 3)
        types = ["f32"] * floats + ["i32"] * ints
        for i in range(len(types)):
            if self.chance(0.15):
                types[i] = self.rng.choice(["f16", "bf16"] if types[i] == "f32"
                                           else ["u8", "i8"])
        return types

    # --- outputs -------------------------------------------------------------
    def tolerance(self, v, out_dtype):
        if v.exact:
            return {"exact": True}
        t = {"atol": 4 * v.err, "rtol": 0.0}
        if out_dtype in ("f16", "bf16"):
            t["ulps"] = 1    # the f32 values may round to neighbouring values
        return t

    def store_dtype(self, v):
        if v.dtype == "f32":
            return self.rng.choice(["f32", "f32", "f16", "bf16"])
        return self.rng.choice(["i32", "i32", "i8", "f32"])

    def store_text(self, v, out_dtype):
        # Conversion on store is implicit; spell it out half of the time.
        if out_dtype != v.dtype and self.chance(0.5):
            return "%s.to(%s)" % (v.text, out_dtype)
        return v.text

    # --- templates ------------------------------------------------------------
    def generate(self):
        kind = self.rng.random()
        self.depth = self.rng.randrange(2, 5)
        if kind < MATMUL_SHARE:
            self.num_warps = self.rng.choice([4, 8])
            self.kernel_matmul()
        else:
            self.num_warps = self.rng.choice([1, 2, 4, 4, 8])
            if kind < MATMUL_SHARE + (1 - MATMUL_SHARE) * 0.55:
                self.kernel_1d()
            else:
                self.kernel_2d()
        name = "gen_%d" % self.seed
        text = "# Generated by scripts/tkgen.py --seed %d\n" % self.seed
        # Defaults = the case's values, so that the file compiles alone.
        params = self.params + ["%s: constexpr = %d" % item
                                for item in self.defines.items()]
        text += "@kernel\ndef %s(%s):\n" % (name, ", ".join(params))
        text += "\n".join(self.lines) + "\n"
        case = {"name": name, "source": name + ".tk", "kernel": name,
                "defines": self.defines, "num_warps": self.num_warps,
                "grid": self.grid, "args": self.args, "checks": self.checks}
        return text, case

    def kernel_1d(self):
        block = self.rng.choice([16, 32, 64, 128, 256, 512, 1024])
        n = self.rng.randrange(block + 1, 5 * block)
        if n % block == 0:
            n += 1
        programs = -(-n // block)
        # Sometimes one program more than needed: it must write nothing.
        extra = 1 if self.chance(0.2) else 0
        self.defines = {"BLOCK": block}
        self.grid = [programs + extra]
        inputs = [(self.add_input(t, [n]), t) for t in self.input_dtypes()]
        self.params.append("n: i32")
        self.args.append({"name": "n", "kind": "scalar", "dtype": "i32",
                          "value": str(n)})
        self.scalar_leaves()
        self.emit("pid = program_id(0)")
        self.emit("offs = pid * BLOCK + arange(0, BLOCK)")
        self.emit("mask = offs < n")
        for (name, dist), dtype in inputs:
            mag = max(abs(dist["lo"]), abs(dist["hi"]))
            load_mask = "mask"
            if self.ints and self.floats and self.chance(0.25):
                # A mask that depends on data loaded before.
                c = self.gen_bool(0)
                load_mask = "mask & %s" % c.text
            other = self.other(dtype)
            # Lanes outside a data-dependent mask hold `other`, and count.
            self.loaded("load(%s + offs, mask=%s, other=%s)" %
                        (name, load_mask, other), dtype,
                        max(mag, abs(float(other))))
        heads = self.rng.sample(["store", "store", "reduce", "scan", "atomic",
                                 "fatomic"], self.rng.randrange(1, 4))
        for head in heads:
            getattr(self, "head_1d_" + head)(n, block, programs + extra)

    def head_1d_store(self, n, block, programs):
        dtype = self.rng.choice(["f32", "f32", "i32"])
        v = self.gen_value(dtype, self.depth)
        out_dtype = self.store_dtype(v)
        out = self.add_output(out_dtype, [n], self.tolerance(v, out_dtype))
        mask = "mask"
        if self.chance(0.25):
            mask = "mask & %s" % self.gen_bool(1).text   # lanes left poisoned
        self.emit("store(%s + offs, %s, mask=%s)" %
                  (out, self.store_text(v, out_dtype), mask))

    def reduction(self, v, masked, axis, n):
        """Reduces `v` (neutral where `masked` is false) along `axis`.
        Returns (expression, result Val)."""
        kinds = ["sum", "max", "min"]
        if v.exact and axis is not None:
            kinds += ["argmax", "argmin", "max_idx"]
        kind = self.rng.choice(kinds)
        is_float = v.dtype == "f32"
        neutral = {"sum": "0.0" if is_float else "0",
                   "max": "-inf" if is_float else "-2147483648",
                   "min": "inf" if is_float else "2147483647"}
        base = "max" if kind in ("argmax", "max_idx") else \
            "min" if kind == "argmin" else kind
        w = self.let("where(%s, %s, %s)" % (masked, v.text, neutral[base]),
                     v.dtype, mag=v.mag, err=v.err)
        axis_text = "" if axis is None else ", axis=%d" % axis
        if kind in ("argmax", "argmin"):
            return self.let("%s(%s%s)" % (kind, w.text, axis_text), "i32")
        if kind == "max_idx":
            vals, idx = self.fresh(), self.fresh()
            self.emit("%s, %s = max(%s%s, return_indices=True)" %
                      (vals, idx, w.text, axis_text))
            # Both the value and the index are exact here; keep the index.
            return Val(idx, "i32")
        if kind == "sum" and is_float:
            # Different summation orders: ~log2(n) roundings of partial sums
            # bounded by sum |x| <= n * mag, plus the inputs' own errors.
            err = n * v.err + (math.log2(n) + 2) * 2 * EPS * n * v.mag
            return self.let("sum(%s%s)" % (w.text, axis_text), "f32",
                            mag=n * v.mag, err=err)
        return self.let("%s(%s%s)" % (kind, w.text, axis_text), v.dtype,
                        mag=n * v.mag if kind == "sum" else v.mag, err=v.err)

    def head_1d_reduce(self, n, block, programs):
        dtype = self.rng.choice(["f32", "i32"])
        v = self.gen_value(dtype, self.depth)
        r = self.reduction(v, "mask", None if self.chance(0.5) else 0, block)
        out_dtype = "f32" if r.dtype == "f32" else "i32"
        out = self.add_output(out_dtype, [programs], self.tolerance(r, out_dtype))
        self.emit("store(%s + pid, %s)" % (out, r.text))

    def scan(self, v, masked, axis, n):
        reverse = self.chance(0.3)
        w = self.let("where(%s, %s, %s)" % (masked, v.text,
                                            "0.0" if v.dtype == "f32" else "0"),
                     v.dtype, mag=v.mag, err=v.err)
        err = 0.0
        if v.dtype == "f32":
            # A scan's partial sums may be formed in any order.
            err = n * v.err + (math.log2(n) + 16) * 2 * EPS * n * v.mag
        return self.let("cumsum(%s, axis=%d%s)" % (
            w.text, axis, ", reverse=True" if reverse else ""), v.dtype,
            mag=n * v.mag, err=err)

    def head_1d_scan(self, n, block, programs):
        v = self.gen_value(self.rng.choice(["f32", "i32"]), self.depth)
        s = self.scan(v, "mask", 0, block)
        out = self.add_output(s.dtype, [n], self.tolerance(s, s.dtype))
        self.emit("store(%s + offs, %s, mask=mask)" % (out, s.text))

    def head_1d_atomic(self, n, block, programs):
        # Integer atomics: every order gives the same final bins.
        bins = self.rng.choice([8, 10, 16, 64, 100])
        v = self.gen_value("i32", self.depth - 1)
        if bins & (bins - 1) == 0:
            idx = self.let("%s & %d" % (v.text, bins - 1), "i32")
        else:
            idx = self.let("((%s %% %d) + %d) %% %d" % (v.text, bins, bins, bins),
                           "i32")
        op = self.rng.choice(["atomic_add", "atomic_add", "atomic_max",
                              "atomic_min", "atomic_or", "atomic_xor",
                              "atomic_and"])
        value = "1" if op == "atomic_add" and self.chance(0.4) else \
            self.gen_value("i32", 1).text
        dist = {"kind": "int", "lo": -1000, "hi": 1000}
        out = self.add_output("i32", [bins], {"exact": True}, kind="inout",
                              dist=dist)
        mask = "mask"
        if self.chance(0.3):
            mask = "mask & %s" % self.gen_bool(1).text
        self.emit("%s(%s + %s, %s, mask=%s)" % (op, out, idx.text, value, mask))
        if self.chance(0.3):
            # A scalar atomic: one update per program. It uses the same
            # operation as the block atomic: two different operations on one
            # bin (say and, then add) depend on the order programs run in.
            self.emit("%s(%s + pid %% %d, %s)" % (
                op, out, bins, "1" if op == "atomic_add" else "7"))

    def head_1d_fatomic(self, n, block, programs):
        # Float adds, each element by one lane only, so the order programs
        # run in cannot matter: out = init + v, rounded once on both sides
        # (on sm_90 contiguous f32/f16/bf16 adds go 16 bytes at a time,
        # docs/language.md). v's own difference between the sides passes
        # through the add, which may round it once more.
        v = self.gen_value("f32", self.depth)
        dtype = self.rng.choice(["f32", "f32", "f16", "bf16"])
        init = self.rng.choice([1.0, 4.0])
        dist = {"kind": "uniform", "lo": -init, "hi": init}
        total = Val("", "f32", mag=v.mag + init,
                    err=v.err + 2 * EPS * (v.mag + init) if v.err else 0.0)
        tolerance = self.tolerance(total, dtype)
        if dtype != "f32" and v.err == 0.0:
            # The interpreter adds in f32 and rounds to 16 bits: twice.
            tolerance = {"atol": 0.0, "rtol": 0.0, "ulps": 1}
        out = self.add_output(dtype, [n], tolerance, kind="inout", dist=dist)
        value = v.text if dtype == "f32" else "(%s).to(%s)" % (v.text, dtype)
        self.emit("atomic_add(%s + offs, %s, mask=mask)" % (out, value))

    def kernel_2d(self):
        bm = self.rng.choice([1, 2, 4, 8, 16, 32, 64])
        bn = self.rng.choice([2, 4, 8, 16, 32, 64, 128])
        while bm * bn > 4096:
            bn //= 2
        m = self.rng.randrange(bm + 1, 4 * bm + 3)
        n = self.rng.randrange(bn + 1, 4 * bn + 3)
        if m % bm == 0:
            m += 1
        if n % bn == 0:
            n += 1
        gm, gn = -(-m // bm), -(-n // bn)
        self.defines = {"BM": bm, "BN": bn}
        self.grid = [gm, gn]
        tiles = []
        for dtype in self.input_dtypes():
            shape_kind = self.rng.choice(["row", "col", "tile", "tile"])
            if shape_kind == "tile":
                # A row stride larger than n half of the time.
                stride = n + (self.rng.randrange(1, 9) if self.chance(0.5) else 0)
                name, dist = self.add_input(dtype, [m, stride])
                tiles.append((name, dist, dtype, "tile", stride))
            else:
                name, dist = self.add_input(dtype, [m if shape_kind == "row" else n])
                tiles.append((name, dist, dtype, shape_kind, None))
        self.params += ["M: i32", "N: i32"]
        self.args.append({"name": "M", "kind": "scalar", "dtype": "i32",
                          "value": str(m)})
        self.args.append({"name": "N", "kind": "scalar", "dtype": "i32",
                          "value": str(n)})
        strides = {}
        for name, _, _, kind, stride in tiles:
            if kind == "tile":
                strides[name] = self.add_scalar("i32", str(stride))
        self.scalar_leaves()
        self.emit("pid_m = program_id(0)")
        self.emit("pid_n = program_id(1)")
        self.emit("rows = pid_m * BM + arange(0, BM)")
        self.emit("cols = pid_n * BN + arange(0, BN)")
        self.emit("mask = (rows[:, None] < M) & (cols[None, :] < N)")
        for name, dist, dtype, kind, _ in tiles:
            mag = max(abs(dist["lo"]), abs(dist["hi"]))
            other = self.other(dtype)
            if kind == "row":
                text = "load(%s + rows, mask=rows < M, other=%s)[:, None]" % (name, other)
            elif kind == "col":
                text = "load(%s + cols, mask=cols < N, other=%s)[None, :]" % (name, other)
            else:
                text = ("load(%s + rows[:, None] * %s + cols[None, :], mask=mask, "
                        "other=%s)" % (name, strides[name], other))
            self.loaded(text, dtype, mag)
        heads = self.rng.sample(["store", "store", "reduce", "reduce", "scan"],
                                self.rng.randrange(1, 4))
        for head in heads:
            getattr(self, "head_2d_" + head)(m, n, bm, bn, gm, gn)

    def head_2d_store(self, m, n, bm, bn, gm, gn):
        v = self.gen_value(self.rng.choice(["f32", "f32", "i32"]), self.depth)
        out_dtype = self.store_dtype(v)
        out = self.add_output(out_dtype, [m, n], self.tolerance(v, out_dtype))
        self.emit("store(%s + rows[:, None] * N + cols[None, :], %s, mask=mask)" %
                  (out, self.store_text(v, out_dtype)))

    def head_2d_reduce(self, m, n, bm, bn, gm, gn):
        v = self.gen_value(self.rng.choice(["f32", "i32"]), self.depth)
        axis = self.rng.choice([0, 1, None])
        length = {0: bm, 1: bn, None: bm * bn}[axis]
        r = self.reduction(v, "mask", axis, length)
        out_dtype = r.dtype
        tol = self.tolerance(r, out_dtype)
        # Partial results: one per program along the reduced axis.
        if axis == 1:
            out = self.add_output(out_dtype, [m, gn], tol)
            self.emit("store(%s + rows * num_programs(1) + pid_n, %s, mask=rows < M)"
                      % (out, r.text))
        elif axis == 0:
            out = self.add_output(out_dtype, [gm, n], tol)
            self.emit("store(%s + pid_m * N + cols, %s, mask=cols < N)" % (out, r.text))
        else:
            out = self.add_output(out_dtype, [gm, gn], tol)
            self.emit("store(%s + pid_m * num_programs(1) + pid_n, %s)" % (out, r.text))

    def head_2d_scan(self, m, n, bm, bn, gm, gn):
        v = self.gen_value(self.rng.choice(["f32", "i32"]), self.depth)
        axis = self.rng.choice([0, 1])
        s = self.scan(v, "mask", axis, bm if axis == 0 else bn)
        out = self.add_output(s.dtype, [m, n], self.tolerance(s, s.dtype))
        self.emit("store(%s + rows[:, None] * N + cols[None, :], %s, mask=mask)" %
                  (out, s.text))


def generate(seed):
    """The kernel text and the case description for `seed`."""
    return Generator(seed).generate()


def write_case(seed, directory):
    text, case = generate(seed)
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, case["source"]), "w") as f:
        f.write(text)
    with open(os.path.join(directory, case["name"] + ".json"), "w") as f:
        json.dump(case, f, indent=1)
    return case


def check_case(case, directory, tk_run):
    """Runs the kernel in tk-run's interpreter on zero-filled buffers: it
    must compile and stay inside its buffers. Returns an error or None."""
    command = [tk_run, os.path.join(directory, case["source"]), "-k",
               case["kernel"], "--grid", ",".join(str(g) for g in case["grid"])]
    for key, value in case["defines"].items():
        command += ["-D", "%s=%s" % (key, value)]
    for arg in case["args"]:
        value = arg["value"] if arg["kind"] == "scalar" else \
            "zeros:" + "x".join(str(d) for d in arg["shape"])
        command += ["--arg", "%s=%s" % (arg["name"], value)]
    run = subprocess.run(command, capture_output=True, text=True)
    return None if run.returncode == 0 else (run.stderr or run.stdout).strip()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--count", type=int, default=1,
                        help="kernels for seeds SEED, SEED+1, ...")
    parser.add_argument("--out", help="folder for NAME.tk and NAME.json")
    parser.add_argument("--print", action="store_true",
                        help="print the kernel text to stdout")
    parser.add_argument("--check", action="store_true",
                        help="run each kernel (written to --out) in tk-run's "
                             "interpreter on zero inputs")
    parser.add_argument("--tk-run", default="tk-run",
                        help="the tk-run for --check (default: from PATH)")
    options = parser.parse_args()
    if options.check and not options.out:
        parser.error("--check needs --out")
    failures = 0
    for seed in range(options.seed, options.seed + options.count):
        if options.print:
            sys.stdout.write(generate(seed)[0])
        if options.out:
            case = write_case(seed, options.out)
            if options.check:
                error = check_case(case, options.out, options.tk_run)
                failures += error is not None
                print("%s %s%s" % ("FAIL" if error else "ok", case["name"],
                                   ": " + error if error else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
