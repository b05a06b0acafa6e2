//===- LibdeviceTest.cpp - tk.extern_elementwise in the interpreter -------===//
//
// Every libdevice overload the frontend can emit (LibdeviceExterns.def) has
// a host implementation, and tk.extern_elementwise calls it per element
// with the operand and result kinds of the op.
//
//===----------------------------------------------------------------------===//
#include "KernelHarness.h"

#include "compiler/interpreter/LibdeviceHost.h"

#include <climits>
#include <cmath>
#include <limits>

using namespace tk::interp;
using namespace tk::interp::test;

namespace {

TEST(LibdeviceTest, EveryOverloadHasAHostImplementation) {
  std::vector<std::string> missing;
  int overloads = 0;
#define TK_LIBDEVICE(NAME, SYMBOL, ...)                                        \
  ++overloads;                                                                 \
  if (!findLibdeviceHostFunction(#SYMBOL))                                     \
    missing.push_back(#SYMBOL);
#include "compiler/frontend/LibdeviceExterns.def"
  EXPECT_GT(overloads, 200);
  EXPECT_EQ(missing, std::vector<std::string>{});
  EXPECT_EQ(findLibdeviceHostFunction("__nv_no_such_function"), nullptr);
}

TEST(LibdeviceTest, FloatToIntRoundsDownAndSaturates) {
  float nan = std::numeric_limits<float>::quiet_NaN();
  auto rounded = runElementwise<int32_t>(
      "%r = tk.extern_elementwise \"__nv_float2int_rd\"(%a) : "
      "(tensor<4xf32>) -> tensor<4xi32>",
      "f32", "i32", std::vector<float>{1.5f, -1.5f, nan, 3e9f});
  EXPECT_EQ(rounded, (std::vector<int32_t>{1, -2, 0, INT_MAX}));
}

TEST(LibdeviceTest, DirectedAdditionRoundsEachWay) {
  std::vector<float> ones(4, 1.0f), tiny(4, 1e-10f);
  auto up = runElementwise<float>(
      "%r = tk.extern_elementwise \"__nv_fadd_ru\"(%a, %b) : "
      "(tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>",
      "f32", "f32", ones, tiny);
  auto down = runElementwise<float>(
      "%r = tk.extern_elementwise \"__nv_fadd_rd\"(%a, %b) : "
      "(tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>",
      "f32", "f32", ones, tiny);
  ASSERT_EQ(up.size(), 4u);
  ASSERT_EQ(down.size(), 4u);
  EXPECT_EQ(up[0], std::nextafter(1.0f, 2.0f));
  EXPECT_EQ(down[0], 1.0f);
}

TEST(LibdeviceTest, BitReverseAndInverseErrorFunction) {
  auto reversed = runElementwise<int32_t>(
      "%r = tk.extern_elementwise \"__nv_brev\"(%a) : "
      "(tensor<4xi32>) -> tensor<4xi32>",
      "i32", "i32", std::vector<int32_t>{1, 0, -1, 0x0000ffff});
  EXPECT_EQ(reversed, (std::vector<int32_t>{INT_MIN, 0, -1, int32_t(0xffff0000)}));

  std::vector<double> x{0.0, 0.5, -0.9, 1.0};
  auto inverse = runElementwise<double>(
      "%r = tk.extern_elementwise \"__nv_erfinv\"(%a) : "
      "(tensor<4xf64>) -> tensor<4xf64>",
      "f64", "f64", x);
  ASSERT_EQ(inverse.size(), 4u);
  EXPECT_EQ(inverse[0], 0.0);
  EXPECT_NEAR(std::erf(inverse[1]), 0.5, 1e-15);
  EXPECT_NEAR(std::erf(inverse[2]), -0.9, 1e-15);
  EXPECT_EQ(inverse[3], std::numeric_limits<double>::infinity());
}

} // namespace
