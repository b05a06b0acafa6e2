//===- Float16.h - Exact f16/bf16 conversions for the interpreter -*- C++ -*-===//
//
// The interpreter stores f16 and bf16 as bit patterns and computes in float.
// Every store rounds to nearest, ties to even, exactly as the GPU's cvt.rn
// does, so that a value the interpreter holds is always a value the GPU
// could hold. Inline because they sit in the innermost loops.
//
//===----------------------------------------------------------------------===//

#ifndef TK_COMPILER_INTERPRETER_FLOAT16_H
#define TK_COMPILER_INTERPRETER_FLOAT16_H

#include <cmath>
#include <cstdint>
#include <cstring>

namespace tk::interp {

template <typename To, typename From> inline To bitCast(From from) {
  static_assert(sizeof(To) == sizeof(From), "bitCast needs equal sizes");
  To to;
  std::memcpy(&to, &from, sizeof(To));
  return to;
}

/// IEEE binary16 bits -> float (exact).
inline float halfBitsToFloat(uint16_t h) {
  constexpr uint32_t shiftedExponent = 0x7c00u << 13;
  uint32_t bits = (uint32_t(h) & 0x7fffu) << 13;
  uint32_t exponent = bits & shiftedExponent;
  bits += (127 - 15) << 23;
  if (exponent == shiftedExponent) {
    bits += (128 - 16) << 23; // inf, NaN
  } else if (exponent == 0) {
    // Zero or subnormal: renormalise through a float subtraction (exact).
    bits += 1u << 23;
    bits = bitCast<uint32_t>(bitCast<float>(bits) - bitCast<float>(113u << 23));
  }
  bits |= (uint32_t(h) & 0x8000u) << 16;
  return bitCast<float>(bits);
}

/// float -> IEEE binary16 bits, round to nearest even; NaN stays NaN.
inline uint16_t floatToHalfBits(float value) {
  uint32_t bits = bitCast<uint32_t>(value);
  uint16_t sign = uint16_t((bits >> 16) & 0x8000u);
  bits &= 0x7fffffffu;
  if (bits >= 0x47800000u) // >= 65536, inf or NaN
    return sign | (bits > 0x7f800000u ? 0x7e00u : 0x7c00u);
  if (bits < 0x38800000u) {
    // Result is subnormal or zero: adding 0.5 aligns the half's subnormal
    // grid with the float's last mantissa bits, and the FPU rounds to
    // nearest even for us.
    float aligned = bitCast<float>(bits) + bitCast<float>(0x3f000000u);
    return sign | uint16_t(bitCast<uint32_t>(aligned) - 0x3f000000u);
  }
  uint32_t odd = (bits >> 13) & 1u;
  bits += (uint32_t(15 - 127) << 23) + 0xfffu + odd;
  return sign | uint16_t(bits >> 13);
}

inline float bf16BitsToFloat(uint16_t b) {
  return bitCast<float>(uint32_t(b) << 16);
}

/// float -> bfloat16 bits, round to nearest even; NaN stays (quiet) NaN.
inline uint16_t floatToBf16Bits(float value) {
  uint32_t bits = bitCast<uint32_t>(value);
  if ((bits & 0x7fffffffu) > 0x7f800000u)
    return uint16_t((bits >> 16) | 0x40u);
  bits += 0x7fffu + ((bits >> 16) & 1u);
  return uint16_t(bits >> 16);
}

/// double -> float rounding to odd: the result, rounded again to any format
/// with at most 22 significand bits (f16, bf16), equals rounding the double
/// directly. Avoids double rounding in f64 -> f16/bf16.
inline float roundToOddFloat(double value) {
  float rounded = static_cast<float>(value);
  if (std::isnan(value) || static_cast<double>(rounded) == value)
    return rounded;
  uint32_t bits = bitCast<uint32_t>(rounded);
  // Rounded away from zero (or to inf): step back toward zero, i.e. truncate.
  if (std::fabs(static_cast<double>(rounded)) > std::fabs(value))
    bits -= 1;
  return bitCast<float>(bits | 1u);
}

inline uint16_t doubleToHalfBits(double value) {
  return floatToHalfBits(roundToOddFloat(value));
}
inline uint16_t doubleToBf16Bits(double value) {
  return floatToBf16Bits(roundToOddFloat(value));
}

} // namespace tk::interp

#endif // TK_COMPILER_INTERPRETER_FLOAT16_H
