//===- OpsTest.cpp - arith and math semantics in the interpreter ----------===//
#include "KernelHarness.h"

#include "compiler/interpreter/Float16.h"

#include <cmath>
#include <limits>

using namespace tk::interp;
using namespace tk::interp::test;

namespace {

std::vector<uint16_t> toHalf(const std::vector<float> &values) {
  std::vector<uint16_t> bits;
  for (float v : values)
    bits.push_back(floatToHalfBits(v));
  return bits;
}

TEST(OpsTest, F16ArithmeticRoundsEveryResult) {
  // 2048 + 1 is a tie between 2048 and 2050: even wins. 2048 + 3 -> 2052.
  auto sum = runElementwise<uint16_t>(
      "%r = arith.addf %a, %b : tensor<4xf16>", "f16", "f16",
      toHalf({2048, 2048, 1, 65504}), toHalf({1, 3, 0.0004882812f, 15}));
  ASSERT_EQ(sum.size(), 4u);
  EXPECT_EQ(halfBitsToFloat(sum[0]), 2048.0f);
  EXPECT_EQ(halfBitsToFloat(sum[1]), 2052.0f);
  EXPECT_EQ(sum[2], floatToHalfBits(1.0f + 0.0004882812f));
  EXPECT_EQ(halfBitsToFloat(sum[3]), 65504.0f); // 65519 rounds down
}

TEST(OpsTest, TruncFRoundsToNearestEven) {
  float tie = 1.0f + std::ldexp(1.0f, -11);
  auto half = runElementwise<uint16_t>(
      "%r = arith.truncf %a : tensor<4xf32> to tensor<4xf16>", "f32", "f16",
      std::vector<float>{tie, 70000.0f, -0.0f, 1e-8f});
  EXPECT_EQ(half, (std::vector<uint16_t>{0x3c00, 0x7c00, 0x8000, 0x0000}));
  auto bf = runElementwise<uint16_t>(
      "%r = arith.truncf %a : tensor<4xf32> to tensor<4xbf16>", "f32", "bf16",
      std::vector<float>{1.0f + std::ldexp(1.0f, -8),
                         1.0f + 3 * std::ldexp(1.0f, -8), 3.4e38f, -2.0f});
  EXPECT_EQ(bf, (std::vector<uint16_t>{0x3f80, 0x3f82, 0x7f80, 0xc000}));
}

TEST(OpsTest, ExtFIsExact) {
  auto widened = runElementwise<float>(
      "%r = arith.extf %a : tensor<4xbf16> to tensor<4xf32>", "bf16", "f32",
      std::vector<uint16_t>{0x3f81, 0xff80, 0x0001, 0x4049});
  EXPECT_EQ(widened[0], 1.0078125f);
  EXPECT_EQ(widened[1], -INFINITY);
  EXPECT_EQ(widened[2], bf16BitsToFloat(1));
  EXPECT_EQ(widened[3], 3.140625f);
}

TEST(OpsTest, IntegerToHalfRoundsOnce) {
  auto half = runElementwise<uint16_t>(
      "%r = arith.sitofp %a : tensor<4xi32> to tensor<4xf16>", "i32", "f16",
      std::vector<int32_t>{2049, 2051, 65520, -65519});
  EXPECT_EQ(halfBitsToFloat(half[0]), 2048.0f);
  EXPECT_EQ(halfBitsToFloat(half[1]), 2052.0f);
  EXPECT_EQ(half[2], 0x7c00);
  EXPECT_EQ(halfBitsToFloat(half[3]), -65504.0f);
  auto unsignedFloat = runElementwise<float>(
      "%r = arith.uitofp %a : tensor<2xi32> to tensor<2xf32>", "i32", "f32",
      std::vector<uint32_t>{4294967295u, 16777217u});
  EXPECT_EQ(unsignedFloat[0], 4294967296.0f);
  EXPECT_EQ(unsignedFloat[1], 16777216.0f);
}

TEST(OpsTest, FloatToIntegerSaturates) {
  auto signedInt = runElementwise<int32_t>(
      "%r = arith.fptosi %a : tensor<8xf32> to tensor<8xi32>", "f32", "i32",
      std::vector<float>{NAN, 3e9f, -3e9f, -1.7f, 1.7f, INFINITY, -0.5f,
                         2147483520.0f});
  EXPECT_EQ(signedInt, (std::vector<int32_t>{0, INT32_MAX, INT32_MIN, -1, 1,
                                             INT32_MAX, 0, 2147483520}));
  auto unsignedInt = runElementwise<uint8_t>(
      "%r = arith.fptoui %a : tensor<4xf32> to tensor<4xi8>", "f32", "i8",
      std::vector<float>{-5.0f, 300.0f, 254.9f, NAN});
  EXPECT_EQ(unsignedInt, (std::vector<uint8_t>{0, 255, 254, 0}));
}

TEST(OpsTest, IntegerDivisionFollowsTheGpu) {
  std::vector<int32_t> a{7, -7, 7, -7, 5, INT32_MIN, -7, 9};
  std::vector<int32_t> b{-2, 2, 2, 2, 0, -1, 2, 3};
  EXPECT_EQ(runElementwise<int32_t>("%r = arith.divsi %a, %b : tensor<8xi32>",
                                    "i32", "i32", a, b),
            (std::vector<int32_t>{-3, -3, 3, -3, -1, INT32_MIN, -3, 3}));
  EXPECT_EQ(runElementwise<int32_t>("%r = arith.remsi %a, %b : tensor<8xi32>",
                                    "i32", "i32", a, b),
            (std::vector<int32_t>{1, -1, 1, -1, 5, 0, -1, 0}));
  EXPECT_EQ(
      runElementwise<int32_t>("%r = arith.floordivsi %a, %b : tensor<8xi32>",
                              "i32", "i32", a, b),
      (std::vector<int32_t>{-4, -4, 3, -4, -1, INT32_MIN, -4, 3}));
  EXPECT_EQ(
      runElementwise<int32_t>("%r = arith.ceildivsi %a, %b : tensor<8xi32>",
                              "i32", "i32", a, b),
      (std::vector<int32_t>{-3, -3, 4, -3, -1, INT32_MIN, -3, 3}));
  EXPECT_EQ(runElementwise<uint32_t>("%r = arith.divui %a, %b : tensor<2xi32>",
                                     "i32", "i32", std::vector<uint32_t>{7, 4000000000u},
                                     std::vector<uint32_t>{0, 3}),
            (std::vector<uint32_t>{0xffffffffu, 1333333333u}));
}

TEST(OpsTest, ShiftsClampLikePtx) {
  std::vector<int32_t> a{1, -8, -8, 1 << 30};
  std::vector<int32_t> b{33, 40, 1, 1};
  EXPECT_EQ(runElementwise<int32_t>("%r = arith.shli %a, %b : tensor<4xi32>",
                                    "i32", "i32", a, b),
            (std::vector<int32_t>{0, 0, -16, INT32_MIN}));
  EXPECT_EQ(runElementwise<int32_t>("%r = arith.shrsi %a, %b : tensor<4xi32>",
                                    "i32", "i32", a, b),
            (std::vector<int32_t>{0, -1, -4, 1 << 29}));
  EXPECT_EQ(runElementwise<int32_t>("%r = arith.shrui %a, %b : tensor<4xi32>",
                                    "i32", "i32", a, b),
            (std::vector<int32_t>{0, 0, 0x7ffffffc, 1 << 29}));
}

TEST(OpsTest, NarrowIntegersWrap) {
  EXPECT_EQ(runElementwise<int8_t>("%r = arith.addi %a, %b : tensor<4xi8>",
                                   "i8", "i8", std::vector<int8_t>{127, -128, 100, 5},
                                   std::vector<int8_t>{1, -1, 100, -6}),
            (std::vector<int8_t>{-128, 127, -56, -1}));
  EXPECT_EQ(runElementwise<int16_t>("%r = arith.muli %a, %b : tensor<2xi16>",
                                    "i16", "i16", std::vector<int16_t>{-1, 300},
                                    std::vector<int16_t>{-1, 300}),
            (std::vector<int16_t>{1, 24464}));
}

TEST(OpsTest, CompareFloatsHandlesNaN) {
  const char *predicates[] = {"false", "oeq", "ogt", "oge", "olt", "ole",
                              "one",   "ord", "ueq", "ugt", "uge", "ult",
                              "ule",   "une", "uno", "true"};
  std::vector<float> a{1, 2, 1, NAN};
  std::vector<float> b{2, 1, 1, 1};
  // Expected results for (1,2), (2,1), (1,1), (NaN,1).
  const char *expected[] = {"0000", "0010", "0100", "0110", "1000", "1010",
                            "1100", "1110", "0011", "0101", "0111", "1001",
                            "1011", "1101", "0001", "1111"};
  for (int p = 0; p < 16; ++p) {
    std::string body = std::string("%c = arith.cmpf ") + predicates[p] +
                       ", %a, %b : tensor<4xf32>\n"
                       "  %r = arith.extui %c : tensor<4xi1> to tensor<4xi8>";
    auto result = runElementwise<uint8_t>(body, "f32", "i8", a, b);
    std::string got;
    for (uint8_t v : result)
      got += char('0' + v);
    EXPECT_EQ(got, expected[p]) << predicates[p];
  }
}

TEST(OpsTest, CompareIntegersSignedAndUnsigned) {
  std::vector<int32_t> a{-1, 1, 5, 0};
  std::vector<int32_t> b{1, -1, 5, 0};
  auto run = [&](const char *predicate) {
    std::string body = std::string("%c = arith.cmpi ") + predicate +
                       ", %a, %b : tensor<4xi32>\n"
                       "  %r = arith.extui %c : tensor<4xi1> to tensor<4xi8>";
    auto result = runElementwise<uint8_t>(body, "i32", "i8", a, b);
    std::string got;
    for (uint8_t v : result)
      got += char('0' + v);
    return got;
  };
  EXPECT_EQ(run("slt"), "1000");
  EXPECT_EQ(run("ult"), "0100");
  EXPECT_EQ(run("sge"), "0111");
  EXPECT_EQ(run("uge"), "1011");
  EXPECT_EQ(run("eq"), "0011");
  EXPECT_EQ(run("ne"), "1100");
}

TEST(OpsTest, MinMaxFollowIeee) {
  std::vector<float> a{NAN, 1, -0.0f, 3};
  std::vector<float> b{1, NAN, 0.0f, -3};
  auto maximum = runElementwise<float>(
      "%r = arith.maximumf %a, %b : tensor<4xf32>", "f32", "f32", a, b);
  EXPECT_TRUE(std::isnan(maximum[0]) && std::isnan(maximum[1]));
  EXPECT_EQ(maximum[2], 0.0f);
  EXPECT_FALSE(std::signbit(maximum[2]));
  EXPECT_EQ(maximum[3], 3.0f);
  auto minimum = runElementwise<float>(
      "%r = arith.minimumf %a, %b : tensor<4xf32>", "f32", "f32", a, b);
  EXPECT_TRUE(std::isnan(minimum[0]) && std::isnan(minimum[1]));
  EXPECT_TRUE(std::signbit(minimum[2]));
  auto maxnum = runElementwise<float>(
      "%r = arith.maxnumf %a, %b : tensor<4xf32>", "f32", "f32", a, b);
  EXPECT_EQ(maxnum[0], 1.0f);
  EXPECT_EQ(maxnum[1], 1.0f);
  auto minnum = runElementwise<float>(
      "%r = arith.minnumf %a, %b : tensor<4xf32>", "f32", "f32", a, b);
  EXPECT_EQ(minnum[3], -3.0f);
}

TEST(OpsTest, MathFunctions) {
  std::vector<float> x{0.5f, 1.0f, 2.0f, 4.0f};
  auto check = [&](const char *op, float (*reference)(float)) {
    auto result = runElementwise<float>(
        std::string("%r = ") + op + " %a : tensor<4xf32>", "f32", "f32", x);
    for (size_t i = 0; i < x.size(); ++i)
      EXPECT_EQ(result[i], reference(x[i])) << op << " " << x[i];
  };
  check("math.exp", [](float v) { return std::exp(v); });
  check("math.exp2", [](float v) { return std::exp2(v); });
  check("math.log", [](float v) { return std::log(v); });
  check("math.log2", [](float v) { return std::log2(v); });
  check("math.sqrt", [](float v) { return std::sqrt(v); });
  check("math.rsqrt", [](float v) { return 1.0f / std::sqrt(v); });
  check("math.sin", [](float v) { return std::sin(v); });
  check("math.cos", [](float v) { return std::cos(v); });
  check("math.tanh", [](float v) { return std::tanh(v); });
  check("math.erf", [](float v) { return std::erf(v); });
  check("math.floor", [](float v) { return std::floor(v); });
  check("math.ceil", [](float v) { return std::ceil(v); });
  check("math.absf", [](float v) { return std::fabs(v); });
  check("arith.negf", [](float v) { return -v; });

  auto fma = runElementwise<float>(
      "%r = math.fma %a, %b, %b : tensor<4xf32>", "f32", "f32",
      std::vector<float>{1, 2, 3, 4}, std::vector<float>{0.5f, 0.5f, 0.5f, 0.5f});
  EXPECT_EQ(fma, (std::vector<float>{1.0f, 1.5f, 2.0f, 2.5f}));
  auto absi = runElementwise<int32_t>("%r = math.absi %a : tensor<4xi32>",
                                      "i32", "i32",
                                      std::vector<int32_t>{-5, 5, 0, INT32_MIN});
  EXPECT_EQ(absi, (std::vector<int32_t>{5, 5, 0, INT32_MIN}));
}

TEST(OpsTest, SelectWithScalarAndTensorConditions) {
  std::string body = R"(
  %zero = arith.constant dense<0.0> : tensor<4xf32>
  %mask = arith.cmpf ogt, %a, %zero : tensor<4xf32>
  %t = arith.select %mask, %a, %b : tensor<4xi1>, tensor<4xf32>
  %true = arith.constant true
  %r = arith.select %true, %t, %b : tensor<4xf32>)";
  auto result = runElementwise<float>(body, "f32", "f32",
                                      std::vector<float>{1, -1, 2, -2},
                                      std::vector<float>{9, 8, 7, 6});
  EXPECT_EQ(result, (std::vector<float>{1, 8, 2, 6}));
}

TEST(OpsTest, DenseConstantsAndBitcasts) {
  std::string body = R"(
  %c = arith.constant dense<[1.5, -2.0, 0x7F800000, 3.0]> : tensor<4xf32>
  %s = arith.addf %a, %c : tensor<4xf32>
  %r = tk.bitcast %s : tensor<4xf32> -> tensor<4xi32>)";
  auto result = runElementwise<int32_t>(body, "f32", "i32",
                                        std::vector<float>{1, 1, 1, 1});
  EXPECT_EQ(result[0], bitCast<int32_t>(2.5f));
  EXPECT_EQ(result[1], bitCast<int32_t>(-1.0f));
  EXPECT_EQ(result[2], 0x7f800000);
  EXPECT_EQ(result[3], bitCast<int32_t>(4.0f));
}

} // namespace
