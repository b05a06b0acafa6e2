//===- Float8.h - fp8 conversions for the interpreter -----------*- C++ -*-===//
//
// The two fp8 types NVIDIA GPUs convert in hardware, stored as bytes:
//   e4m3 (Triton's float8e4nv, MLIR f8E4M3FN): bias 7, no infinities, NaN is
//        S.1111.111, the largest finite value 448;
//   e5m2 (float8e5, f8E5M2): bias 15, IEEE infinities and NaNs, the largest
//        finite value 57344.
// To fp8 rounds as `cvt.rn.satfinite.{e4m3,e5m2}x2.f32` does (what the GPU
// lowering emits, or emulates bit for bit before sm_89): to nearest, ties to
// even; a magnitude beyond the largest finite value (infinity included)
// gives the largest finite value with the sign; NaN gives 0x7f. From fp8 is
// exact.
//
//===----------------------------------------------------------------------===//

#ifndef TK_COMPILER_INTERPRETER_FLOAT8_H
#define TK_COMPILER_INTERPRETER_FLOAT8_H

#include <cmath>
#include <cstdint>

namespace tk::interp {

/// The layout of an fp8 format.
struct Fp8Format {
  int exponentBits;
  int mantissaBits;
  int bias;
  bool hasInfinity; // e5m2: exponent all ones is inf/NaN; e4m3: only S.1111.111 is NaN
  uint8_t maxFinite; // bits of the largest finite magnitude
};

inline constexpr Fp8Format kFp8E4M3{4, 3, 7, false, 0x7e};
inline constexpr Fp8Format kFp8E5M2{5, 2, 15, true, 0x7b};

inline float fp8BitsToFloat(uint8_t bits, const Fp8Format &format) {
  bool negative = bits & 0x80;
  int exponent = (bits >> format.mantissaBits) & ((1 << format.exponentBits) - 1);
  int mantissa = bits & ((1 << format.mantissaBits) - 1);
  int maxExponent = (1 << format.exponentBits) - 1;
  float value;
  if (format.hasInfinity && exponent == maxExponent)
    value = mantissa == 0 ? INFINITY : NAN;
  else if (!format.hasInfinity && exponent == maxExponent &&
           mantissa == (1 << format.mantissaBits) - 1)
    value = NAN;
  else if (exponent == 0)
    value = std::ldexp(float(mantissa), 1 - format.bias - format.mantissaBits);
  else
    value = std::ldexp(float(mantissa + (1 << format.mantissaBits)),
                       exponent - format.bias - format.mantissaBits);
  return negative ? -value : value;
}

inline uint8_t doubleToFp8Bits(double value, const Fp8Format &format) {
  if (std::isnan(value))
    return 0x7f;
  uint8_t sign = std::signbit(value) ? 0x80 : 0;
  double magnitude = std::fabs(value);
  int m = format.mantissaBits;
  // Smallest normal exponent 1 - bias; below it the spacing is fixed.
  int exponent = 1 - format.bias;
  if (magnitude >= std::ldexp(1.0, 1 - format.bias)) {
    int e2;
    std::frexp(magnitude, &e2); // magnitude = f * 2^e2, f in [0.5, 1)
    exponent = e2 - 1;
  }
  // The magnitude in units of the last place at that exponent, rounded to
  // nearest even (exact: scaling by a power of two, nearbyint's default
  // mode is to nearest even). Infinity stays infinite and saturates below.
  double units = std::nearbyint(std::ldexp(magnitude, m - exponent));
  uint64_t bits;
  if (!std::isfinite(units) || exponent > 64) {
    bits = ~uint64_t(0);
  } else if (exponent == 1 - format.bias && units < double(1 << m)) {
    bits = uint64_t(units); // subnormal (or zero); 2^m rounds up to normal
  } else {
    // units in [2^m, 2^(m+1)]; 2^(m+1) carries into the exponent.
    uint64_t u = uint64_t(units);
    int biased = exponent + format.bias;
    if (u == (uint64_t(1) << (m + 1))) {
      u >>= 1;
      ++biased;
    }
    bits = (uint64_t(biased) << m) | (u - (uint64_t(1) << m));
  }
  if (bits > format.maxFinite)
    bits = format.maxFinite;
  return uint8_t(sign | bits);
}

} // namespace tk::interp

#endif // TK_COMPILER_INTERPRETER_FLOAT8_H
