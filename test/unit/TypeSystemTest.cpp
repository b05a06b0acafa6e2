//===- TypeSystemTest.cpp - promotion and broadcasting rules --------------===//
//
// The rules of compiler/frontend/TypeSystem.h, which mirror Triton's
// semantic.py: literal types, the promotion table, C's integer conversions
// and numpy broadcasting.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/TypeSystem.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace tk::sema;
using S = ScalarType;

namespace {

/// The common type of two non-literal operands, "error" on failure.
std::string common(DType a, DType b, bool divOrMod = false) {
  std::string error;
  std::optional<DType> result =
      computeCommonType({a, false}, {b, false}, divOrMod, "+", error);
  return result ? result->toString() : "error";
}

/// The common type of a value and a literal of type `literal`.
std::string withLiteral(DType value, DType literal, bool divOrMod = false) {
  std::string error;
  std::optional<DType> result =
      computeCommonType({value, false}, {literal, true}, divOrMod, "+", error);
  return result ? result->toString() : "error";
}

TEST(DTypeTest, NamesAndProperties) {
  EXPECT_EQ(DType(S::BF16).toString(), "bf16");
  EXPECT_EQ(DType::getPointer(S::F16).toString(), "*f16");
  EXPECT_TRUE(DType(S::U8).isUnsigned());
  EXPECT_FALSE(DType(S::I1).isSigned());
  EXPECT_TRUE(DType(S::I1).isBool());
  EXPECT_TRUE(DType(S::I1).isInt());
  EXPECT_FALSE(DType::getPointer(S::I32).isInt());
  EXPECT_EQ(DType(S::BF16).getBitWidth(), 16u);
  EXPECT_EQ(DType::getPointer(S::I8).getBitWidth(), 64u);
  EXPECT_EQ(ValueType(S::F32, {128, 64}).toString(), "f32[128, 64]");
  EXPECT_EQ(ValueType(DType::getPointer(S::F32)).toString(), "*f32");
  EXPECT_EQ(ValueType(S::F32, {128, 64}).getNumElements(), 8192);
}

TEST(LiteralTypeTest, Integers) {
  EXPECT_EQ(getLiteralIntType(0).toString(), "i32");
  EXPECT_EQ(getLiteralIntType(-(int64_t(1) << 31)).toString(), "i32");
  EXPECT_EQ(getLiteralIntType((int64_t(1) << 31) - 1).toString(), "i32");
  EXPECT_EQ(getLiteralIntType(int64_t(1) << 31).toString(), "u32");
  EXPECT_EQ(getLiteralIntType((int64_t(1) << 32) - 1).toString(), "u32");
  EXPECT_EQ(getLiteralIntType(int64_t(1) << 32).toString(), "i64");
  EXPECT_EQ(getLiteralIntType(-(int64_t(1) << 31) - 1).toString(), "i64");
}

TEST(LiteralTypeTest, Floats) {
  EXPECT_EQ(getLiteralFloatType(1.5).toString(), "f32");
  EXPECT_EQ(getLiteralFloatType(0.0).toString(), "f32");
  EXPECT_EQ(getLiteralFloatType(std::numeric_limits<double>::infinity())
                .toString(),
            "f32");
  EXPECT_EQ(getLiteralFloatType(std::nan("")).toString(), "f32");
  EXPECT_EQ(getLiteralFloatType(1e-40).toString(), "f64");
  EXPECT_EQ(getLiteralFloatType(1e300).toString(), "f64");
}

TEST(LiteralTypeTest, Fits) {
  EXPECT_TRUE(fitsInIntType(127, S::I8));
  EXPECT_FALSE(fitsInIntType(128, S::I8));
  EXPECT_TRUE(fitsInIntType(-128, S::I8));
  EXPECT_TRUE(fitsInIntType(255, S::U8));
  EXPECT_FALSE(fitsInIntType(-1, S::U32));
  EXPECT_TRUE(fitsInIntType(1, S::I1));
  EXPECT_FALSE(fitsInIntType(2, S::I1));
  EXPECT_TRUE(fitsInIntType(std::numeric_limits<int64_t>::min(), S::I64));
}

TEST(PromotionTest, Floats) {
  EXPECT_EQ(common(S::F32, S::F16), "f32");
  EXPECT_EQ(common(S::F64, S::F32), "f64");
  EXPECT_EQ(common(S::F16, S::F16), "f16");
  EXPECT_EQ(common(S::BF16, S::BF16), "bf16");
  // Triton 3.6: f16 wins over bf16; bf16 with anything but bf16 is f32.
  EXPECT_EQ(common(S::F16, S::BF16), "f16");
  EXPECT_EQ(common(S::BF16, S::F16), "f16");
  EXPECT_EQ(common(S::F16, S::BF16, /*divOrMod=*/true), "f32");
  // int with float gives the float, except bf16.
  EXPECT_EQ(common(S::I64, S::F16), "f16");
  EXPECT_EQ(common(S::BF16, S::I32), "f32");
  EXPECT_EQ(common(S::U8, S::F64), "f64");
}

TEST(PromotionTest, DivisionOfHalvesIsF32) {
  EXPECT_EQ(common(S::F16, S::F16, /*divOrMod=*/true), "f32");
  EXPECT_EQ(common(S::BF16, S::BF16, true), "f32");
  EXPECT_EQ(common(S::F32, S::F32, true), "f32");
  EXPECT_EQ(withLiteral(S::F16, S::F32, true), "f32");
}

TEST(PromotionTest, IntegersFollowC) {
  EXPECT_EQ(common(S::I8, S::I16), "i16");
  EXPECT_EQ(common(S::I32, S::I64), "i64");
  EXPECT_EQ(common(S::U8, S::I32), "i32");
  EXPECT_EQ(common(S::U32, S::I32), "u32");
  EXPECT_EQ(common(S::I32, S::U32), "u32");
  EXPECT_EQ(common(S::U32, S::I64), "i64");
  EXPECT_EQ(common(S::U64, S::I64), "u64");
  EXPECT_EQ(common(S::I1, S::I32), "i32");
  EXPECT_EQ(common(S::I1, S::I1), "i1");
  EXPECT_EQ(common(S::U16, S::U8), "u16");
}

TEST(PromotionTest, MixedSignednessDivisionIsAnError) {
  std::string error;
  EXPECT_FALSE(computeCommonType({S::I32, false}, {S::U32, false},
                                 /*divOrMod=*/true, "//", error));
  EXPECT_NE(error.find("different signedness"), std::string::npos);
  EXPECT_NE(error.find("'//'"), std::string::npos);
  EXPECT_EQ(common(S::U32, S::U8, true), "u32");
}

TEST(PromotionTest, LiteralsAdapt) {
  // A literal of a lower or equal kind takes the other operand's type.
  EXPECT_EQ(withLiteral(S::F16, S::F32), "f16");
  EXPECT_EQ(withLiteral(S::BF16, S::F32), "bf16");
  EXPECT_EQ(withLiteral(S::I8, S::I32), "i8");
  EXPECT_EQ(withLiteral(S::I64, S::I32), "i64");
  EXPECT_EQ(withLiteral(S::F32, S::I32), "f32");
  EXPECT_EQ(withLiteral(S::I32, S::I1), "i32");
  // A literal of a higher kind takes part in promotion.
  EXPECT_EQ(withLiteral(S::I32, S::F32), "f32");
  EXPECT_EQ(withLiteral(S::I8, S::F32), "f32");
  EXPECT_EQ(withLiteral(S::U32, S::I32), "u32");
  EXPECT_EQ(withLiteral(S::U8, S::I32), "i32");
  EXPECT_EQ(withLiteral(S::I1, S::I32), "i32");
}

TEST(BroadcastTest, CompatibleShapes) {
  std::string error;
  EXPECT_EQ(*broadcastShapes({128, 1}, {1, 64}, error), (Shape{128, 64}));
  EXPECT_EQ(*broadcastShapes({64}, {128, 64}, error), (Shape{128, 64}));
  EXPECT_EQ(*broadcastShapes({}, {4}, error), (Shape{4}));
  EXPECT_EQ(*broadcastShapes({4, 1, 8}, {2, 1}, error), (Shape{4, 2, 8}));
  EXPECT_EQ(*broadcastShapes({16}, {16}, error), (Shape{16}));
}

TEST(BroadcastTest, IncompatibleShapes) {
  std::string error;
  EXPECT_FALSE(broadcastShapes({64}, {128}, error));
  EXPECT_EQ(error, "dimension 0 is 64 vs 128");
  EXPECT_FALSE(broadcastShapes({4, 64}, {32}, error));
  EXPECT_EQ(error, "dimension 1 is 64 vs 32");
  EXPECT_FALSE(broadcastShapes({128, 32}, {32, 128}, error));
}

TEST(BroadcastTest, BroadcastTo) {
  EXPECT_TRUE(canBroadcastTo({1, 64}, {128, 64}));
  EXPECT_TRUE(canBroadcastTo({64}, {128, 64}));
  EXPECT_TRUE(canBroadcastTo({}, {128}));
  EXPECT_FALSE(canBroadcastTo({128, 64}, {64}));
  EXPECT_FALSE(canBroadcastTo({32}, {128, 64}));
}

TEST(BlockShapeTest, PowersOfTwo) {
  std::string error;
  EXPECT_TRUE(checkBlockShape({16, 16}, error));
  EXPECT_TRUE(checkBlockShape({1}, error));
  EXPECT_FALSE(checkBlockShape({3}, error));
  EXPECT_NE(error.find("powers of two"), std::string::npos);
  EXPECT_FALSE(checkBlockShape({0}, error));
  EXPECT_FALSE(checkBlockShape({int64_t(1) << 21}, error));
  EXPECT_NE(error.find("elements"), std::string::npos);
  EXPECT_TRUE(isPowerOfTwo(1024));
  EXPECT_FALSE(isPowerOfTwo(-4));
}

} // namespace
