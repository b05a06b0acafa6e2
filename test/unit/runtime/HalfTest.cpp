//===- HalfTest.cpp - f16/bf16 host conversions ---------------------------===//

#include "tk/Half.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

using namespace tk;

namespace {

TEST(Half, KnownValues) {
  EXPECT_EQ(half(1.0f).bits, 0x3C00);
  EXPECT_EQ(half(-2.0f).bits, 0xC000);
  EXPECT_EQ(half(0.0f).bits, 0x0000);
  EXPECT_EQ(half(-0.0f).bits, 0x8000);
  EXPECT_EQ(half(65504.0f).bits, 0x7BFF);   // Largest finite.
  EXPECT_EQ(half(65520.0f).bits, 0x7C00);   // Rounds to infinity.
  EXPECT_EQ(half(65519.0f).bits, 0x7BFF);   // Rounds down.
  EXPECT_EQ(half(std::ldexp(1.0f, -24)).bits, 0x0001); // Smallest subnormal.
  EXPECT_EQ(half(std::ldexp(1.0f, -25)).bits, 0x0000); // Tie to even: 0.
  EXPECT_EQ(half(std::ldexp(3.0f, -26)).bits, 0x0001); // Above the tie.
  EXPECT_EQ(half(std::ldexp(1.0f, -14)).bits, 0x0400); // Smallest normal.
  EXPECT_EQ(half(1.0f + std::ldexp(1.0f, -11)).bits, 0x3C00); // Tie, even.
  EXPECT_EQ(half(1.0f + std::ldexp(3.0f, -11)).bits, 0x3C02); // Tie, up.
  EXPECT_EQ(half(std::numeric_limits<float>::infinity()).bits, 0x7C00);
  EXPECT_TRUE(std::isnan(half(std::nanf("")).toFloat()));
  EXPECT_EQ(half(1e-30f).bits, 0x0000);
}

TEST(Half, EveryHalfRoundTripsThroughFloat) {
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    float f = halfBitsToFloat(static_cast<uint16_t>(bits));
    if (std::isnan(f)) {
      EXPECT_TRUE(std::isnan(halfBitsToFloat(floatToHalfBits(f))));
      continue;
    }
    EXPECT_EQ(floatToHalfBits(f), bits) << std::hex << bits;
  }
}

TEST(Bf16, KnownValues) {
  EXPECT_EQ(bf16(1.0f).bits, 0x3F80);
  EXPECT_EQ(bf16(-1.5f).bits, 0xBFC0);
  EXPECT_FLOAT_EQ(bf16::fromBits(0x4049).toFloat(), 3.140625f);
  // 1 + 2^-8 is a tie between 0x3F80 and 0x3F81: to even.
  EXPECT_EQ(bf16(1.0f + std::ldexp(1.0f, -8)).bits, 0x3F80);
  EXPECT_EQ(bf16(1.0f + std::ldexp(3.0f, -8)).bits, 0x3F82);
  EXPECT_TRUE(std::isnan(bf16(std::nanf("")).toFloat()));
  EXPECT_EQ(bf16(std::numeric_limits<float>::infinity()).bits, 0x7F80);
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    float f = bf16BitsToFloat(static_cast<uint16_t>(bits));
    if (!std::isnan(f)) {
      EXPECT_EQ(floatToBf16Bits(f), bits);
    }
  }
}

} // namespace
