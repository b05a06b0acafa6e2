//===- Half.cpp - float <-> f16/bf16 conversions --------------------------===//

#include "tk/Half.h"

#include <cstring>

using namespace tk;

static uint32_t floatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

static float bitsFloat(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

uint16_t tk::floatToHalfBits(float value) {
  uint32_t f = floatBits(value);
  uint16_t sign = static_cast<uint16_t>((f >> 16) & 0x8000);
  uint32_t exponent = (f >> 23) & 0xFF;
  uint32_t mantissa = f & 0x7FFFFF;
  if (exponent == 0xFF) // Inf or NaN (keep NaN quiet and non-zero).
    return sign | 0x7C00 | (mantissa ? 0x200 | (mantissa >> 13) : 0);
  int32_t halfExponent = static_cast<int32_t>(exponent) - 127 + 15;
  if (halfExponent >= 0x1F) // Overflow to infinity.
    return sign | 0x7C00;
  if (halfExponent <= 0) {
    // Subnormal half (or zero): shift the full significand into place and
    // round to nearest even.
    if (halfExponent < -10)
      return sign;
    uint32_t significand = mantissa | 0x800000;
    uint32_t shift = static_cast<uint32_t>(14 - halfExponent);
    uint32_t result = significand >> shift;
    uint32_t remainder = significand & ((1u << shift) - 1);
    uint32_t halfway = 1u << (shift - 1);
    if (remainder > halfway || (remainder == halfway && (result & 1)))
      ++result;
    return sign | static_cast<uint16_t>(result);
  }
  uint32_t result = (static_cast<uint32_t>(halfExponent) << 10) |
                    (mantissa >> 13);
  uint32_t remainder = mantissa & 0x1FFF;
  if (remainder > 0x1000 || (remainder == 0x1000 && (result & 1)))
    ++result; // May carry into the exponent, up to infinity: correct.
  return sign | static_cast<uint16_t>(result);
}

float tk::halfBitsToFloat(uint16_t bits) {
  uint32_t sign = static_cast<uint32_t>(bits & 0x8000) << 16;
  uint32_t exponent = (bits >> 10) & 0x1F;
  uint32_t mantissa = bits & 0x3FF;
  if (exponent == 0x1F)
    return bitsFloat(sign | 0x7F800000 | (mantissa << 13));
  if (exponent == 0) {
    if (mantissa == 0)
      return bitsFloat(sign);
    // Subnormal: normalize.
    int32_t e = -1;
    do {
      ++e;
      mantissa <<= 1;
    } while (!(mantissa & 0x400));
    mantissa &= 0x3FF;
    return bitsFloat(sign | static_cast<uint32_t>(127 - 15 - e) << 23 |
                     (mantissa << 13));
  }
  return bitsFloat(sign | (exponent + 127 - 15) << 23 | (mantissa << 13));
}

uint16_t tk::floatToBf16Bits(float value) {
  uint32_t f = floatBits(value);
  if ((f & 0x7F800000) == 0x7F800000 && (f & 0x7FFFFF))
    return static_cast<uint16_t>((f >> 16) | 0x40); // Quiet NaN.
  uint32_t roundingBias = 0x7FFF + ((f >> 16) & 1);
  return static_cast<uint16_t>((f + roundingBias) >> 16);
}

float tk::bf16BitsToFloat(uint16_t bits) {
  return bitsFloat(static_cast<uint32_t>(bits) << 16);
}
