//===- LibdeviceHost.cpp - Host versions of libdevice functions -----------===//
//
// One host function per symbol of LibdeviceExterns.def, found by name through
// a table built on first use. Each entry is a lambda on typed operands
// wrapped by TK_HOST, which reads the operands from the LibdeviceScalar array
// and stores the result in the union member of the lambda's types.
//
// The `_rn/_rz/_rd/_ru` arithmetic and conversions round exactly as named:
// the host FPU does the operation under std::fesetround(mode), and the mode
// is restored afterwards. The compiler does not model the rounding mode as a
// dependency of ordinary arithmetic, so even with -frounding-math (which this
// file needs, see CMakeLists.txt) it could move or fold the operation across
// the fesetround calls; the operands are therefore read through `volatile`
// after setting the mode and the result written through `volatile` before
// restoring it. Float-to-integer conversions saturate, and map NaN as the
// GPU does (saturateToInteger).
//
// The special functions come from the C library (erfc, lgamma_r, tgamma,
// the Bessel j/y functions) or are computed here: erfinv and erfcinv by
// Newton steps on erf and on log(erfc) (so that tiny erfcinv arguments keep
// their accuracy), erfcx, I0/I1 (series or asymptotic expansion, in long
// double), sinpi/cospi with exact argument reduction. f32 versions compute
// in double and round the result. These are accurate host functions, not
// copies of libdevice's: on an H200 the rounded arithmetic and conversions
// matched bit for bit, the special functions within a few ulp, except where
// libdevice is the less accurate one (lgamma near its negative zeros, the
// j/y Bessel functions near their zeros and for large x; jn(n >= 2, x) of a
// tiny x, which is NaN there). The `fast_*` functions are the accurate ones
// here, MUFU approximations there; rcp64h truncates the exact reciprocal,
// the hardware an approximate one (one unit apart in the last kept bit for
// a few percent of inputs).
//
//===----------------------------------------------------------------------===//
#include "compiler/interpreter/LibdeviceHost.h"

#include <cfenv>
#include <climits>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <type_traits>
#include <unordered_map>
#include <utility>

#include <math.h>

// g++ does not know the pragma (it warns) and relies on -frounding-math.
#if defined(__clang__)
#pragma STDC FENV_ACCESS ON
#endif

using namespace tk::interp;

namespace {

//===----------------------------------------------------------------------===//
// Operands and results
//===----------------------------------------------------------------------===//

/// The member of `s` that holds a T.
template <typename T> T &member(LibdeviceScalar &s) {
  if constexpr (std::is_same_v<T, float>) return s.f32;
  else if constexpr (std::is_same_v<T, double>) return s.f64;
  else if constexpr (std::is_same_v<T, int32_t>) return s.i32;
  else if constexpr (std::is_same_v<T, uint32_t>) return s.u32;
  else if constexpr (std::is_same_v<T, int64_t>) return s.i64;
  else return s.u64;
}

template <typename T> T fromScalar(LibdeviceScalar s) { return member<T>(s); }

template <typename T> LibdeviceScalar toScalar(T value) {
  LibdeviceScalar s;
  s.u64 = 0; // no stale upper bytes under a 32-bit result
  member<T>(s) = value;
  return s;
}

template <typename R, typename... P, size_t... I>
LibdeviceScalar callIndexed(R (*fn)(P...), const LibdeviceScalar *args,
                            std::index_sequence<I...>) {
  return toScalar(fn(fromScalar<P>(args[I])...));
}

template <typename R, typename... P>
LibdeviceScalar callWithScalars(R (*fn)(P...), const LibdeviceScalar *args) {
  return callIndexed(fn, args, std::index_sequence_for<P...>());
}

/// Calls `fn` (a function or captureless lambda on typed scalars) with
/// `args` read as its parameter types.
template <typename Fn>
LibdeviceScalar invokeTyped(Fn fn, const LibdeviceScalar *args) {
  return callWithScalars(+fn, args);
}

/// A LibdeviceHostFunction running the typed function `...`.
#define TK_HOST(...)                                                           \
  [](const LibdeviceScalar *args) { return invokeTyped(__VA_ARGS__, args); }

//===----------------------------------------------------------------------===//
// Rounding modes
//===----------------------------------------------------------------------===//

/// Sets the host rounding mode for its lifetime.
template <int Mode> class RoundingModeScope {
public:
  RoundingModeScope() : saved(std::fegetround()) { std::fesetround(Mode); }
  ~RoundingModeScope() { std::fesetround(saved); }
  RoundingModeScope(const RoundingModeScope &) = delete;
  RoundingModeScope &operator=(const RoundingModeScope &) = delete;

private:
  int saved;
};

/// `value` read back from a volatile copy: the compiler cannot compute with
/// it before this point (in particular not before a fesetround).
template <typename T> T pinned(T value) {
  volatile T copy = value;
  return copy;
}

/// op(operands...) evaluated under rounding mode `Mode`.
template <int Mode, typename Op, typename... T>
auto rounded(Op op, T... operands) {
  RoundingModeScope<Mode> scope;
  volatile auto result = op(pinned(operands)...);
  return result;
}

// The operations of the rounding-mode families.
#define TK_OPERATION(NAME, PARAMETERS, EXPRESSION)                             \
  struct NAME {                                                                \
    template <typename T> T operator() PARAMETERS const { return EXPRESSION; } \
  };
TK_OPERATION(Add, (T a, T b), a + b)
TK_OPERATION(Sub, (T a, T b), a - b)
TK_OPERATION(Mul, (T a, T b), a * b)
TK_OPERATION(Div, (T a, T b), a / b)
TK_OPERATION(Reciprocal, (T a), T(1) / a)
TK_OPERATION(Sqrt, (T a), std::sqrt(a))
TK_OPERATION(Fma, (T a, T b, T c), std::fma(a, b, c)) // one rounding
#undef TK_OPERATION

/// Op on operands of types T..., rounded in mode `Mode`.
template <int Mode, typename Op, typename... T> auto roundedOp(T... operands) {
  return rounded<Mode>(Op(), operands...);
}

/// `value` converted to the floating type F, rounding in the current mode.
/// The host's u64 conversion may be a multi-step sequence that is wrong
/// under directed rounding (or gives -0), so an unsigned value above the
/// i64 range is halved with its low bit kept as a sticky bit: the one
/// signed conversion then rounds as the full value would, and doubling is
/// exact.
template <typename F, typename Int> F toFloating(Int value) {
  if constexpr (std::is_same_v<Int, uint64_t>)
    if (value > uint64_t(INT64_MAX))
      return static_cast<F>(int64_t((value >> 1) | (value & 1))) * F(2);
  return static_cast<F>(static_cast<int64_t>(value));
}

template <int Mode, typename To, typename From> To convertAt(From value) {
  if constexpr (std::is_floating_point_v<From>)
    return rounded<Mode>([](From v) { return static_cast<To>(v); }, value);
  else
    return rounded<Mode>([](From v) { return toFloating<To>(v); }, value);
}

/// An integral floating value clamped to Int's range. NaN gives what the
/// GPU's cvt gives (measured on sm_90): 0 from f32 to 32 bits, otherwise
/// the bit pattern 100...0 (INT_MIN, also for the unsigned results).
template <typename Int, typename F> Int saturateToInteger(F integral) {
  if (std::isnan(integral))
    return std::is_same_v<F, float> && sizeof(Int) == 4
               ? Int(0)
               : Int(std::numeric_limits<std::make_signed_t<Int>>::min());
  // 2^digits: exactly representable, one past the largest Int.
  const F limit = F(std::numeric_limits<Int>::max() / 2 + 1) * F(2);
  const F lowest = std::is_signed_v<Int> ? -limit : F(0);
  if (integral < lowest)
    return std::numeric_limits<Int>::min();
  if (integral >= limit)
    return std::numeric_limits<Int>::max();
  return static_cast<Int>(integral);
}

/// `value` rounded to an integer in rounding mode `Mode`, then saturated.
template <int Mode, typename Int, typename F> Int toIntegerAt(F value) {
  F integral = rounded<Mode>([](F v) { return std::nearbyint(v); }, value);
  return saturateToInteger<Int>(integral);
}

/// llround: halves away from zero, saturated.
template <typename F> int64_t roundHalfAway(F value) {
  return saturateToInteger<int64_t>(std::round(value));
}

//===----------------------------------------------------------------------===//
// Integer and bit helpers
//===----------------------------------------------------------------------===//

template <typename To, typename From> To bitCast(From value) {
  static_assert(sizeof(To) == sizeof(From));
  To result;
  std::memcpy(&result, &value, sizeof(To));
  return result;
}

double doubleFromWords(int32_t high, int32_t low) {
  return bitCast<double>((uint64_t(uint32_t(high)) << 32) | uint32_t(low));
}
int32_t lowWord(double x) { return int32_t(bitCast<uint64_t>(x)); }
int32_t highWord(double x) { return int32_t(bitCast<uint64_t>(x) >> 32); }

template <typename Int> Int reverseBits(Int value) {
  using U = std::make_unsigned_t<Int>;
  U bits = U(value), result = 0;
  for (unsigned i = 0; i < sizeof(U) * 8; ++i, bits >>= 1)
    result = U(result << 1) | (bits & 1);
  return Int(result);
}

__extension__ typedef __int128 Int128;
__extension__ typedef unsigned __int128 UInt128;

/// The high half of x·y, computed in the twice as wide type Wide.
template <typename T, typename Wide> T highHalfOfProduct(T x, T y) {
  return T((Wide(x) * y) >> (8 * sizeof(T)));
}

/// (x + y + Rounding) >> 1 without overflow: signed ones floor.
template <typename T, typename Wide, int Rounding> T halvingAdd(T x, T y) {
  return T((Wide(x) + y + Rounding) >> 1);
}

int32_t bytePermute(int32_t x, int32_t y, int32_t selector) {
  // Bytes 0-3 are x's, 4-7 y's; result byte n is byte (selector >> 4n) & 7.
  uint64_t bytes = (uint64_t(uint32_t(y)) << 32) | uint32_t(x);
  uint32_t result = 0;
  for (unsigned n = 0; n < 4; ++n) {
    unsigned index = (uint32_t(selector) >> (4 * n)) & 7;
    result |= uint32_t((bytes >> (8 * index)) & 0xff) << (8 * n);
  }
  return int32_t(result);
}

//===----------------------------------------------------------------------===//
// Special functions (double)
//===----------------------------------------------------------------------===//

const double kPi = 3.141592653589793238462643;
const double kSqrtPi = 1.772453850905516027298167;
const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

/// exp(x²) with x² carried as its rounding and that rounding's exact error:
/// an error of x²·2^-53 in the exponent would cost up to x²/2 ulp.
double expOfSquare(double x) {
  double square = x * x;
  double squareError = std::fma(x, x, -square);
  double e = std::exp(square);
  return std::isinf(e) ? e : e + e * squareError;
}

double erfcx(double x) {
  if (std::isnan(x))
    return x;
  // erfc(x) stays a normal double up to x = 26, and exp(x²) finite.
  if (x < 26.0)
    return expOfSquare(x) * std::erfc(x);
  // Asymptotic series 1/(x√π) Σ (-1)^k (2k-1)!! / (2x²)^k: at x >= 26 the
  // terms fall below 2^-60 by k = 8, long before they start growing.
  double t = 0.5 / (x * x), term = 1.0, sum = 1.0;
  for (int k = 1; k <= 12; ++k) {
    term *= -(2 * k - 1) * t;
    sum += term;
  }
  return sum / kSqrtPi / x; // x·√π could overflow where the result does not
}

/// Newton's method on erf for |y| < 0.5, where it is well conditioned.
double erfinvCentral(double y) {
  // Three terms of the Maclaurin series of erfinv as the start.
  double y2 = y * y;
  double x = 0.5 * kSqrtPi * y *
             (1 + y2 * (kPi / 12 + y2 * (7 * kPi * kPi / 480)));
  for (int i = 0; i < 8; ++i) {
    double step = (std::erf(x) - y) * 0.5 * kSqrtPi * std::exp(x * x);
    x -= step;
    // Convergence is quadratic: the next step would be below rounding.
    if (!(std::fabs(step) > 0x1p-30 * std::fabs(x)))
      break;
  }
  return x;
}

/// The x >= 0.47 with erfc(x) = q, for 0 < q <= 0.5. Newton's method on
/// log(erfc(x)) - log(q), where log(erfc(x)) = log(erfcx(x)) - x², keeps
/// full relative accuracy down to subnormal q. That function is concave
/// and decreasing, so after the first step the iterates approach the root
/// monotonically from above.
double erfcinvTail(double q) {
  double minusLogQ = -std::log(q);
  double t = std::sqrt(minusLogQ);
  // erfc(x) ≈ exp(-x²)/(x√π) solved once for x² from the crude x = t.
  double x = std::sqrt(std::fmax(minusLogQ - std::log(t * kSqrtPi), 0.1));
  for (int i = 0; i < 50; ++i) {
    double square = x * x;
    double squareError = std::fma(x, x, -square);
    double scaled = erfcx(x);
    double residual = ((minusLogQ - square) - squareError) + std::log(scaled);
    double step = residual * 0.5 * kSqrtPi * scaled;
    x += step;
    if (!(std::fabs(step) > 0x1p-30 * x))
      break;
  }
  return x;
}

double erfinv(double y) {
  double a = std::fabs(y);
  if (!(a <= 1.0))
    return kNaN;
  if (a < 0.5)
    return erfinvCentral(y);
  if (a == 1.0)
    return std::copysign(kInf, y);
  // erf(x) = y is erfc(x) = 1 - |y|, exact for |y| >= 0.5.
  return std::copysign(erfcinvTail(1.0 - a), y);
}

double erfcinv(double q) {
  if (!(q >= 0.0 && q <= 2.0))
    return kNaN;
  if (q == 0.0)
    return kInf;
  if (q == 2.0)
    return -kInf;
  // The differences below are exact (Sterbenz); erfcinv(2 - q) = -erfcinv(q).
  if (q <= 0.5)
    return erfcinvTail(q);
  if (q < 1.5)
    return erfinvCentral(1.0 - q);
  return -erfcinvTail(2.0 - q);
}

double normcdf(double x) {
  // 0.5·erfc(z) with z = -x/√2 carried as z + zError: the rounding of z
  // alone would cost 2z² ulp of the result in the lower tail.
  const double invSqrt2 = 0.70710678118654757;
  const double invSqrt2Low = -4.8336466567264567e-17; // 1/√2 - invSqrt2
  double z = -x * invSqrt2;
  double zError = std::fma(-x, invSqrt2, -z) - x * invSqrt2Low;
  double value = std::erfc(z);
  if (std::isfinite(z))
    value -= zError * (2 / kSqrtPi) * std::exp(-z * z);
  return 0.5 * value;
}

double normcdfinv(double p) {
  return double(-1.41421356237309504880L * erfcinv(2.0 * p));
}

/// sin(πr) or cos(πr) for |r| <= 0.5, with πr carried as a rounded product
/// and its error (π's own rounding included), applied to first order.
template <bool Cosine> double trigOfPiTimes(double r) {
  const double piLow = 1.2246467991473532e-16; // π - kPi
  double product = kPi * r;
  double error = std::fma(kPi, r, -product) + piLow * r;
  if (Cosine)
    return std::cos(product) - error * std::sin(product);
  return std::sin(product) + error * std::cos(product);
}

/// sin(πx): x mod 2 (exact) folded into [-0.5, 0.5] (exact), so that
/// integers give zeros; those take x's sign (sinpi(-n) = -sinpi(n)).
double sinpi(double x) {
  double r = std::remainder(x, 2.0);
  if (std::fabs(r) > 0.5)
    r = std::copysign(1.0, r) - r;
  double value = trigOfPiTimes<false>(r);
  return value == 0.0 ? std::copysign(0.0, x) : value;
}

/// cos(πx) = sin(π(0.5 - |x mod 2|)), exact at half-integers (giving +0).
double cospi(double x) {
  double a = std::fabs(std::remainder(x, 2.0));
  return a <= 0.25 ? trigOfPiTimes<true>(a) : trigOfPiTimes<false>(0.5 - a);
}

/// sqrt(Σ v²) in long double (so that rounding to double, or 1/norm, adds
/// about one rounding), scaled by a power of two so that no square
/// overflows or underflows where long double is double; inf if any
/// component is inf, even with a NaN.
template <size_t N> long double euclideanNorm(const double (&v)[N]) {
  double largest = 0.0;
  bool anyNaN = false;
  for (double c : v) {
    if (std::isinf(c))
      return kInf;
    anyNaN |= std::isnan(c);
    largest = std::fmax(largest, std::fabs(c));
  }
  if (anyNaN)
    return kNaN;
  if (largest == 0.0)
    return 0.0;
  int exponent = std::ilogb(largest);
  long double sum = 0.0;
  for (double c : v) {
    long double scaled = std::scalbn((long double)c, -exponent);
    sum += scaled * scaled;
  }
  return std::scalbn(std::sqrt(sum), exponent);
}

// Reciprocals in long double, so that the final rounding is the one that
// matters.
float reciprocalSqrt(float x) { return float(1 / std::sqrt(1.0L * x)); }
double reciprocalCbrt(double x) { return double(1 / std::cbrt(1.0L * x)); }
template <typename T> T reciprocalHypot(T x, T y) {
  return T(1 / std::hypot(1.0L * x, 1.0L * y));
}

/// The norm of the components, or its reciprocal, rounded to T.
template <typename T, bool Reciprocal, typename... C> T norm(C... components) {
  long double value = euclideanNorm({double(components)...});
  return T(Reciprocal ? 1 / value : value);
}

/// Modified Bessel function I_order(|x|), order 0 or 1, in long double
/// (on x86 its 64-bit mantissa absorbs the ~x/2 ulp the series loses).
double besselI(int order, double x) {
  using Wide = long double;
  if (std::isnan(x) || std::isinf(x))
    return std::fabs(x);
  Wide a = std::fabs(x);
  if (a < 25) {
    // Σ (a/2)^(2k+order) / (k! (k+order)!), all terms positive.
    Wide quarterSquare = a * a / 4, term = order ? a / 2 : 1, sum = term;
    for (int k = 1; k < 200 && term > sum * 1e-21L; ++k) {
      term *= quarterSquare / (Wide(k) * (k + order));
      sum += term;
    }
    return double(sum);
  }
  // e^a/√(2πa) Σ (-1)^k Π_j (4·order² - (2j-1)²) / (k! (8a)^k); the
  // neglected terms and the e^-a solution are below 2^-64 for a >= 25.
  Wide mu = 4.0L * order * order, term = 1, sum = 1;
  for (int k = 1; k <= 40; ++k) {
    term *= -(mu - Wide(2 * k - 1) * (2 * k - 1)) / (Wide(k) * 8 * a);
    sum += term;
  }
  Wide halfExp = std::exp(a / 2); // e^a overflows where long double is double
  return double(halfExp * (halfExp * sum / std::sqrt(2 * Wide(kPi) * a)));
}

double besselI0(double x) { return besselI(0, x); }
double besselI1(double x) { return std::copysign(besselI(1, x), x); }

double tgammaValue(double x) { return std::tgamma(x); }
double lgammaValue(double x) {
  int sign;
  return ::lgamma_r(x, &sign);
}

// Y0, Y1, Yn are real only for x > 0, x = 0 being their pole; libdevice's
// Jn and Yn give NaN for a negative order.
double besselY0(double x) { return x < 0 ? kNaN : x == 0 ? -kInf : ::y0(x); }
double besselY1(double x) { return x < 0 ? kNaN : x == 0 ? -kInf : ::y1(x); }
template <typename T> T besselJn(int32_t n, T x) {
  return T(n < 0 ? kNaN : ::jn(n, x));
}
template <typename T> T besselYn(int32_t n, T x) {
  return T(n < 0 || x < 0 ? kNaN : x == 0 ? -kInf : ::yn(n, x));
}

/// 10^x. glibc's pow is within about half an ulp (and exact for exact
/// powers); its exp10 (before 2.39) is not (exp10(3) = 1000.0000000000001).
double exp10Value(double x) { return std::pow(10.0, x); }

/// rcp.approx.ftz.f64: 1/x from x's upper 32 bits, truncated to its upper
/// 32 bits; subnormal inputs and results flush to zero.
double reciprocalHighWord(double x) {
  if (std::isnan(x))
    return x;
  auto highWordOnly = [](double v) {
    uint64_t bits = bitCast<uint64_t>(v);
    bits &= (bits & 0x7ff0000000000000ull) ? 0xffffffff00000000ull
                                           : 0x8000000000000000ull;
    return bitCast<double>(bits);
  };
  return highWordOnly(1.0 / highWordOnly(x));
}

int32_t ilogbValue(double x) {
  return x == 0 || std::isnan(x) ? INT_MIN
         : std::isinf(x)         ? INT_MAX
                                 : std::ilogb(x);
}

/// A double function applied to a float and rounded once to float.
template <double (*Fn)(double)> float viaDouble(float x) {
  return float(Fn(double(x)));
}

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

// The rounding-mode families, once per mode (X(suffix, FE_mode)).
#define TK_DIRECTED_ROUNDING_MODES(X)                                          \
  X("rz", FE_TOWARDZERO) X("rd", FE_DOWNWARD) X("ru", FE_UPWARD)
#define TK_EACH_ROUNDING_MODE(X)                                               \
  X("rn", FE_TONEAREST) TK_DIRECTED_ROUNDING_MODES(X)

#define TK_ROUNDED_ENTRIES(SUFFIX, MODE)                                       \
  {"__nv_fadd_" SUFFIX, TK_HOST(roundedOp<MODE, Add, float, float>)},          \
  {"__nv_dadd_" SUFFIX, TK_HOST(roundedOp<MODE, Add, double, double>)},        \
  {"__nv_fsub_" SUFFIX, TK_HOST(roundedOp<MODE, Sub, float, float>)},          \
  {"__nv_dsub_" SUFFIX, TK_HOST(roundedOp<MODE, Sub, double, double>)},        \
  {"__nv_fmul_" SUFFIX, TK_HOST(roundedOp<MODE, Mul, float, float>)},          \
  {"__nv_dmul_" SUFFIX, TK_HOST(roundedOp<MODE, Mul, double, double>)},        \
  {"__nv_frcp_" SUFFIX, TK_HOST(roundedOp<MODE, Reciprocal, float>)},          \
  {"__nv_drcp_" SUFFIX, TK_HOST(roundedOp<MODE, Reciprocal, double>)},         \
  {"__nv_fmaf_" SUFFIX, TK_HOST(roundedOp<MODE, Fma, float, float, float>)},   \
  {"__nv_fma_" SUFFIX,                                                         \
   TK_HOST(roundedOp<MODE, Fma, double, double, double>)},                     \
  {"__nv_double2float_" SUFFIX, TK_HOST(convertAt<MODE, float, double>)},      \
  {"__nv_int2float_" SUFFIX, TK_HOST(convertAt<MODE, float, int32_t>)},        \
  {"__nv_uint2float_" SUFFIX, TK_HOST(convertAt<MODE, float, uint32_t>)},      \
  {"__nv_ll2float_" SUFFIX, TK_HOST(convertAt<MODE, float, int64_t>)},         \
  {"__nv_ull2float_" SUFFIX, TK_HOST(convertAt<MODE, float, uint64_t>)},       \
  {"__nv_ll2double_" SUFFIX, TK_HOST(convertAt<MODE, double, int64_t>)},       \
  {"__nv_ull2double_" SUFFIX, TK_HOST(convertAt<MODE, double, uint64_t>)},     \
  {"__nv_float2int_" SUFFIX, TK_HOST(toIntegerAt<MODE, int32_t, float>)},      \
  {"__nv_float2uint_" SUFFIX, TK_HOST(toIntegerAt<MODE, uint32_t, float>)},    \
  {"__nv_float2ll_" SUFFIX, TK_HOST(toIntegerAt<MODE, int64_t, float>)},       \
  {"__nv_float2ull_" SUFFIX, TK_HOST(toIntegerAt<MODE, uint64_t, float>)},     \
  {"__nv_double2int_" SUFFIX, TK_HOST(toIntegerAt<MODE, int32_t, double>)},    \
  {"__nv_double2uint_" SUFFIX, TK_HOST(toIntegerAt<MODE, uint32_t, double>)},  \
  {"__nv_double2ll_" SUFFIX, TK_HOST(toIntegerAt<MODE, int64_t, double>)},     \
  {"__nv_double2ull_" SUFFIX, TK_HOST(toIntegerAt<MODE, uint64_t, double>)},

// The .def has no div_rn or sqrt_rn (tk's own division and sqrt round so).
#define TK_DIRECTED_ENTRIES(SUFFIX, MODE)                                      \
  {"__nv_fdiv_" SUFFIX, TK_HOST(roundedOp<MODE, Div, float, float>)},          \
  {"__nv_ddiv_" SUFFIX, TK_HOST(roundedOp<MODE, Div, double, double>)},        \
  {"__nv_fsqrt_" SUFFIX, TK_HOST(roundedOp<MODE, Sqrt, float>)},               \
  {"__nv_dsqrt_" SUFFIX, TK_HOST(roundedOp<MODE, Sqrt, double>)},

// An f32/f64 pair of one double function (the f32 one rounding its result).
#define TK_UNARY_PAIR(F32_SYMBOL, F64_SYMBOL, FN)                              \
  {F32_SYMBOL, TK_HOST(viaDouble<FN>)},                                        \
  {F64_SYMBOL, TK_HOST([](double x) { return FN(x); })},

// f32/f64 pairs of the float and double overloads of a <cmath> function.
#define TK_CMATH_PAIR1(F32_SYMBOL, F64_SYMBOL, FN)                             \
  {F32_SYMBOL, TK_HOST([](float x) { return FN(x); })},                        \
  {F64_SYMBOL, TK_HOST([](double x) { return FN(x); })},
#define TK_CMATH_PAIR2(F32_SYMBOL, F64_SYMBOL, FN)                             \
  {F32_SYMBOL, TK_HOST([](float x, float y) { return FN(x, y); })},            \
  {F64_SYMBOL, TK_HOST([](double x, double y) { return FN(x, y); })},
#define TK_CMATH_SCALE_PAIR(F32_SYMBOL, F64_SYMBOL, FN)                        \
  {F32_SYMBOL, TK_HOST([](float x, int32_t e) { return FN(x, e); })},          \
  {F64_SYMBOL, TK_HOST([](double x, int32_t e) { return FN(x, e); })},

const std::pair<std::string_view, LibdeviceHostFunction> kEntries[] = {
    // Integer helpers.
    {"__nv_byte_perm", TK_HOST(bytePermute)},
    {"__nv_mulhi", TK_HOST(highHalfOfProduct<int32_t, int64_t>)},
    {"__nv_umulhi", TK_HOST(highHalfOfProduct<uint32_t, uint64_t>)},
    {"__nv_mul64hi", TK_HOST(highHalfOfProduct<int64_t, Int128>)},
    {"__nv_umul64hi", TK_HOST(highHalfOfProduct<uint64_t, UInt128>)},
    {"__nv_mul24", TK_HOST([](int32_t x, int32_t y) {
       // Each operand's low 24 bits, sign-extended from bit 23.
       auto low24 = [](int32_t v) {
         return int64_t(int32_t(uint32_t(v) << 8) >> 8);
       };
       return int32_t(uint32_t(low24(x) * low24(y)));
     })},
    {"__nv_umul24", TK_HOST([](uint32_t x, uint32_t y) {
       return uint32_t((x & 0xffffffu) * uint64_t(y & 0xffffffu));
     })},
    {"__nv_brev", TK_HOST(reverseBits<int32_t>)},
    {"__nv_brevll", TK_HOST(reverseBits<int64_t>)},
    {"__nv_sad", TK_HOST([](int32_t x, int32_t y, uint32_t z) {
       int64_t difference = int64_t(x) - y;
       return int32_t(uint32_t(difference < 0 ? -difference : difference) + z);
     })},
    {"__nv_usad", TK_HOST([](uint32_t x, uint32_t y, uint32_t z) {
       return uint32_t((x > y ? x - y : y - x) + z);
     })},
    {"__nv_hadd", TK_HOST(halvingAdd<int32_t, int64_t, 0>)},
    {"__nv_uhadd", TK_HOST(halvingAdd<uint32_t, uint64_t, 0>)},
    {"__nv_rhadd", TK_HOST(halvingAdd<int32_t, int64_t, 1>)},
    {"__nv_urhadd", TK_HOST(halvingAdd<uint32_t, uint64_t, 1>)},
    {"__nv_ffs", TK_HOST([](int32_t x) { return __builtin_ffs(x); })},
    {"__nv_ffsll", TK_HOST([](int64_t x) { return __builtin_ffsll(x); })},

    // Arithmetic and conversions with an explicit rounding.
    TK_EACH_ROUNDING_MODE(TK_ROUNDED_ENTRIES)
    TK_DIRECTED_ROUNDING_MODES(TK_DIRECTED_ENTRIES)
    {"__nv_frsqrt_rn", TK_HOST(reciprocalSqrt)},
    {"__nv_saturatef", TK_HOST([](float x) { // NaN gives 0
       return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f;
     })},
    {"__nv_rcp64h", TK_HOST(reciprocalHighWord)},
    {"__nv_int2double_rn", TK_HOST([](int32_t x) { return double(x); })},
    {"__nv_uint2double_rn", TK_HOST([](uint32_t x) { return double(x); })},
    {"__nv_llrintf", TK_HOST(toIntegerAt<FE_TONEAREST, int64_t, float>)},
    {"__nv_llrint", TK_HOST(toIntegerAt<FE_TONEAREST, int64_t, double>)},
    {"__nv_llroundf", TK_HOST(roundHalfAway<float>)},
    {"__nv_llround", TK_HOST(roundHalfAway<double>)},

    // Fast approximations: the accurate functions (see the file comment).
    {"__nv_fast_fdividef", TK_HOST([](float x, float y) { return x / y; })},
    {"__nv_fast_sinf", TK_HOST([](float x) { return std::sin(x); })},
    {"__nv_fast_cosf", TK_HOST([](float x) { return std::cos(x); })},
    {"__nv_fast_tanf", TK_HOST([](float x) { return std::tan(x); })},
    {"__nv_fast_expf", TK_HOST([](float x) { return std::exp(x); })},
    {"__nv_fast_exp10f", TK_HOST(viaDouble<exp10Value>)},
    {"__nv_fast_logf", TK_HOST([](float x) { return std::log(x); })},
    {"__nv_fast_log2f", TK_HOST([](float x) { return std::log2(x); })},
    {"__nv_fast_log10f", TK_HOST([](float x) { return std::log10(x); })},
    {"__nv_fast_powf",
     TK_HOST([](float x, float y) { return std::pow(x, y); })},

    // Bit patterns.
    {"__nv_hiloint2double", TK_HOST(doubleFromWords)},
    {"__nv_double2loint", TK_HOST(lowWord)},
    {"__nv_double2hiint", TK_HOST(highWord)},
    {"__nv_int_as_float", TK_HOST(bitCast<float, int32_t>)},
    {"__nv_float_as_int", TK_HOST(bitCast<int32_t, float>)},
    {"__nv_uint_as_float", TK_HOST(bitCast<float, uint32_t>)},
    {"__nv_float_as_uint", TK_HOST(bitCast<uint32_t, float>)},
    {"__nv_longlong_as_double", TK_HOST(bitCast<double, int64_t>)},
    {"__nv_double_as_longlong", TK_HOST(bitCast<int64_t, double>)},

    // Special functions.
    TK_UNARY_PAIR("__nv_exp10f", "__nv_exp10", exp10Value)
    TK_UNARY_PAIR("__nv_sinpif", "__nv_sinpi", sinpi)
    TK_UNARY_PAIR("__nv_cospif", "__nv_cospi", cospi)
    TK_UNARY_PAIR("__nv_erfinvf", "__nv_erfinv", erfinv)
    TK_UNARY_PAIR("__nv_erfcinvf", "__nv_erfcinv", erfcinv)
    TK_UNARY_PAIR("__nv_erfcxf", "__nv_erfcx", erfcx)
    TK_UNARY_PAIR("__nv_normcdff", "__nv_normcdf", normcdf)
    TK_UNARY_PAIR("__nv_normcdfinvf", "__nv_normcdfinv", normcdfinv)
    TK_UNARY_PAIR("__nv_lgammaf", "__nv_lgamma", lgammaValue)
    TK_UNARY_PAIR("__nv_cyl_bessel_i0f", "__nv_cyl_bessel_i0", besselI0)
    TK_UNARY_PAIR("__nv_cyl_bessel_i1f", "__nv_cyl_bessel_i1", besselI1)
    TK_UNARY_PAIR("__nv_rcbrtf", "__nv_rcbrt", reciprocalCbrt)
    TK_UNARY_PAIR("__nv_tgammaf", "__nv_tgamma", tgammaValue)
    TK_CMATH_PAIR2("__nv_hypotf", "__nv_hypot", std::hypot)
    {"__nv_rhypotf", TK_HOST(reciprocalHypot<float>)},
    {"__nv_rhypot", TK_HOST(reciprocalHypot<double>)},
    {"__nv_norm3df", TK_HOST(norm<float, false, float, float, float>)},
    {"__nv_norm3d", TK_HOST(norm<double, false, double, double, double>)},
    {"__nv_rnorm3df", TK_HOST(norm<float, true, float, float, float>)},
    {"__nv_rnorm3d", TK_HOST(norm<double, true, double, double, double>)},
    {"__nv_norm4df", TK_HOST(norm<float, false, float, float, float, float>)},
    {"__nv_norm4d",
     TK_HOST(norm<double, false, double, double, double, double>)},
    {"__nv_rnorm4df", TK_HOST(norm<float, true, float, float, float, float>)},
    {"__nv_rnorm4d",
     TK_HOST(norm<double, true, double, double, double, double>)},

    // Bessel functions of the first and second kind (the C library's).
    TK_UNARY_PAIR("__nv_j0f", "__nv_j0", ::j0)
    TK_UNARY_PAIR("__nv_j1f", "__nv_j1", ::j1)
    TK_UNARY_PAIR("__nv_y0f", "__nv_y0", besselY0)
    TK_UNARY_PAIR("__nv_y1f", "__nv_y1", besselY1)
    {"__nv_jnf", TK_HOST(besselJn<float>)},
    {"__nv_jn", TK_HOST(besselJn<double>)},
    {"__nv_ynf", TK_HOST(besselYn<float>)},
    {"__nv_yn", TK_HOST(besselYn<double>)},

    // Floating-point manipulation.
    TK_CMATH_SCALE_PAIR("__nv_ldexpf", "__nv_ldexp", std::ldexp)
    TK_CMATH_SCALE_PAIR("__nv_scalbnf", "__nv_scalbn", std::scalbn)
    TK_CMATH_PAIR2("__nv_remainderf", "__nv_remainder", std::remainder)
    TK_CMATH_PAIR2("__nv_fdimf", "__nv_fdim", std::fdim)
    TK_CMATH_PAIR2("__nv_nextafterf", "__nv_nextafter", std::nextafter)
    TK_CMATH_PAIR1("__nv_logbf", "__nv_logb", std::logb)
    TK_CMATH_PAIR1("__nv_ilogbf", "__nv_ilogb", ilogbValue)
};

} // namespace

LibdeviceHostFunction
tk::interp::findLibdeviceHostFunction(std::string_view symbol) {
  static const std::unordered_map<std::string_view, LibdeviceHostFunction>
      table(std::begin(kEntries), std::end(kEntries));
  auto found = table.find(symbol);
  return found == table.end() ? nullptr : found->second;
}
