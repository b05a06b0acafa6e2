//===- Half.h - 16-bit float storage types for host code -------*- C++ -*-===//
//
// tk::half (IEEE binary16, the language's f16) and tk::bf16 (bfloat16) hold
// the 16-bit pattern only; they exist so that a host program can pass f16 and
// bf16 kernel arguments with their type checked, and fill or read buffers of
// those types. Conversions from float round to nearest even; NaN stays NaN.
//
//===----------------------------------------------------------------------===//

#ifndef TK_HALF_H
#define TK_HALF_H

#include <cstdint>

namespace tk {

uint16_t floatToHalfBits(float value);
float halfBitsToFloat(uint16_t bits);
uint16_t floatToBf16Bits(float value);
float bf16BitsToFloat(uint16_t bits);

struct half {
  uint16_t bits = 0;

  half() = default;
  explicit half(float value) : bits(floatToHalfBits(value)) {}
  static half fromBits(uint16_t bits) {
    half h;
    h.bits = bits;
    return h;
  }
  float toFloat() const { return halfBitsToFloat(bits); }
  explicit operator float() const { return toFloat(); }
};

struct bf16 {
  uint16_t bits = 0;

  bf16() = default;
  explicit bf16(float value) : bits(floatToBf16Bits(value)) {}
  static bf16 fromBits(uint16_t bits) {
    bf16 b;
    b.bits = bits;
    return b;
  }
  float toFloat() const { return bf16BitsToFloat(bits); }
  explicit operator float() const { return toFloat(); }
};

static_assert(sizeof(half) == 2 && sizeof(bf16) == 2,
              "tk::half and tk::bf16 must be 16-bit, like the device types");

} // namespace tk

#endif // TK_HALF_H
