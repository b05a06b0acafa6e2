//===- Float16Test.cpp - The interpreter's f16/bf16 rounding --------------===//
#include "compiler/interpreter/Float16.h"

#include "tk/Half.h"

#include "gtest/gtest.h"

#include <cmath>
#include <random>

using namespace tk::interp;

namespace {

TEST(Float16Test, HalfRoundTripsEveryPattern) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    float value = halfBitsToFloat(static_cast<uint16_t>(bits));
    uint16_t back = floatToHalfBits(value);
    if (std::isnan(value))
      EXPECT_TRUE((back & 0x7c00) == 0x7c00 && (back & 0x3ff)) << bits;
    else
      EXPECT_EQ(back, bits) << bits;
  }
}

TEST(Float16Test, HalfRoundsToNearestEven) {
  EXPECT_EQ(floatToHalfBits(65504.0f), 0x7bff);
  EXPECT_EQ(floatToHalfBits(65519.99f), 0x7bff);
  EXPECT_EQ(floatToHalfBits(65520.0f), 0x7c00); // ties to even -> inf
  EXPECT_EQ(floatToHalfBits(-1e10f), 0xfc00);
  EXPECT_EQ(floatToHalfBits(1.0f + std::ldexp(1.0f, -11)), 0x3c00); // tie, even
  EXPECT_EQ(floatToHalfBits(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);
  EXPECT_EQ(floatToHalfBits(std::ldexp(1.0f, -24)), 0x0001); // min subnormal
  EXPECT_EQ(floatToHalfBits(std::ldexp(1.0f, -25)), 0x0000); // tie to 0
  EXPECT_EQ(floatToHalfBits(3 * std::ldexp(1.0f, -25)), 0x0002);
  EXPECT_EQ(floatToHalfBits(-0.0f), 0x8000);
  uint16_t nan = floatToHalfBits(NAN);
  EXPECT_EQ(nan & 0x7c00, 0x7c00);
  EXPECT_NE(nan & 0x3ff, 0);
}

TEST(Float16Test, Bf16RoundsToNearestEven) {
  EXPECT_EQ(floatToBf16Bits(1.0f), 0x3f80);
  EXPECT_EQ(floatToBf16Bits(1.0f + std::ldexp(1.0f, -8)), 0x3f80); // tie
  EXPECT_EQ(floatToBf16Bits(1.0f + 3 * std::ldexp(1.0f, -8)), 0x3f82);
  EXPECT_EQ(floatToBf16Bits(3.4e38f), 0x7f80); // overflows to inf
  EXPECT_EQ(floatToBf16Bits(INFINITY), 0x7f80);
  uint16_t nan = floatToBf16Bits(NAN);
  EXPECT_EQ(nan & 0x7f80, 0x7f80);
  EXPECT_NE(nan & 0x7f, 0);
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    float value = bf16BitsToFloat(static_cast<uint16_t>(bits));
    if (!std::isnan(value)) {
      EXPECT_EQ(floatToBf16Bits(value), bits);
    }
  }
}

/// The runtime's conversions (tk/Half.h) are an independent implementation;
/// both must agree on every float we try.
TEST(Float16Test, AgreesWithTheRuntimeOnRandomFloats) {
  std::mt19937 random(42);
  for (int i = 0; i < 2000000; ++i) {
    uint32_t bits = random();
    float value;
    std::memcpy(&value, &bits, 4);
    if (std::isnan(value))
      continue;
    ASSERT_EQ(floatToHalfBits(value), tk::floatToHalfBits(value)) << value;
    ASSERT_EQ(floatToBf16Bits(value), tk::floatToBf16Bits(value)) << value;
  }
  // Values near the f16 range, where the random patterns are sparse.
  for (int i = 0; i < 1000000; ++i) {
    float value = std::ldexp(static_cast<float>(random()) / 4294967296.0f,
                             static_cast<int>(random() % 44) - 28);
    ASSERT_EQ(floatToHalfBits(value), tk::floatToHalfBits(value)) << value;
  }
}

TEST(Float16Test, DoubleConvertsWithOneRounding) {
  // Rounding to float first would land exactly on a half-way point of f16
  // and then round down to 1.0; the exact value is above it.
  double above = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  EXPECT_EQ(doubleToHalfBits(above), 0x3c01);
  double below = 1.0 + std::ldexp(1.0, -11) - std::ldexp(1.0, -40);
  EXPECT_EQ(doubleToHalfBits(below), 0x3c00);
  double bfAbove = 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40);
  EXPECT_EQ(doubleToBf16Bits(bfAbove), 0x3f81);
  EXPECT_EQ(doubleToHalfBits(1e300), 0x7c00);
  EXPECT_EQ(doubleToHalfBits(-1e-300), 0x8000);
  EXPECT_EQ(doubleToBf16Bits(1e300), 0x7f80);
}

} // namespace
