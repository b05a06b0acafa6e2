"""tkgen's value bounds: each generated value's magnitude and error bound.

scripts/tkgen.py's docstring explains how the bounds become the tolerances
of the differential test. Standard library only.
"""

EPS = 2.0 ** -24          # f32 unit roundoff
APPROX_REL = 2.0 ** -20   # the PTX approximations, a few ulp, with margin
MAG_LIMIT = 1e7           # keep magnitudes (and so tolerances) modest


class Val:
    """A value in the kernel: a variable name (or a literal) and its bounds."""

    def __init__(self, text, dtype, mag=1.0, err=0.0, lo=0.0, mul_top=False,
                 const=False, block=True):
        self.text = text          # variable name or literal
        self.dtype = dtype        # "f32", "i32" or "i1"
        self.mag = mag            # bound on |value| (floats)
        self.err = err            # bound on |gpu - interpreter|
        self.lo = lo              # lower bound on |value| (divisors)
        self.mul_top = mul_top    # a float product an add may fuse with
        self.const = const        # a literal
        self.block = block        # depends on a loaded block (not only scalars)

    @property
    def exact(self):
        return self.err == 0.0


def rounding(mag, *operands):
    """A result computed from inexact operands may round the other way."""
    return 2 * EPS * mag if any(not v.exact for v in operands) else 0.0
