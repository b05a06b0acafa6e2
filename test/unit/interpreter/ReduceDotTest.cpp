//===- ReduceDotTest.cpp - Reductions, scans and dot ----------------------===//
#include "KernelHarness.h"

#include "compiler/interpreter/Float16.h"

#include <cmath>

using namespace tk::interp;
using namespace tk::interp::test;

namespace {

/// Loads a 4x4 block of T from %x (row-major) as %a, runs BODY (which
/// defines %r of type RT, a scalar or a tensor of RE) and stores %r to %y.
std::string blockKernel(const std::string &body, const std::string &t,
                        const std::string &resultShape,
                        const std::string &resultElement) {
  std::string store;
  if (resultShape.empty()) {
    store = R"(
  tk.store %y, %r : !tk.ptr<{RE}>, {RE})";
  } else {
    store = R"(
  %ro = tk.make_range {start = 0 : i32, end = {RN} : i32} : tensor<{RN}xi32>
  %ys = tk.splat %y : !tk.ptr<{RE}> -> tensor<{RN}x!tk.ptr<{RE}>>
  %yp = tk.addptr %ys, %ro : tensor<{RN}x!tk.ptr<{RE}>>, tensor<{RN}xi32>
  %rf = tk.reshape %r : tensor<{RS}x{RE}> -> tensor<{RN}x{RE}>
  tk.store %yp, %rf : tensor<{RN}x!tk.ptr<{RE}>>, tensor<{RN}x{RE}>)";
  }
  std::string text = R"(
func.func @k(%x: !tk.ptr<{T}>, %y: !tk.ptr<{RE}>) attributes {tk.kernel} {
  %flat = tk.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
  %xs = tk.splat %x : !tk.ptr<{T}> -> tensor<16x!tk.ptr<{T}>>
  %xp = tk.addptr %xs, %flat : tensor<16x!tk.ptr<{T}>>, tensor<16xi32>
  %v = tk.load %xp : tensor<16x!tk.ptr<{T}>> -> tensor<16x{T}>
  %a = tk.reshape %v : tensor<16x{T}> -> tensor<4x4x{T}>
  %a1 = tk.reshape %v : tensor<16x{T}> -> tensor<16x{T}>
)" + body + store + R"(
  return
}
)";
  int rn = 1;
  std::string shape = resultShape;
  for (size_t at = 0; !shape.empty();) {
    size_t x = shape.find('x', at);
    rn *= std::stoi(shape.substr(at, x - at));
    if (x == std::string::npos)
      break;
    at = x + 1;
  }
  return substitute(text, {{"T", t},
                           {"RE", resultElement},
                           {"RS", resultShape},
                           {"RN", std::to_string(rn)}});
}

template <typename R, typename T>
std::vector<R> runBlock(const std::string &body, const std::string &t,
                        const std::string &resultShape,
                        const std::string &resultElement,
                        const std::vector<T> &input, size_t resultCount) {
  KernelHarness harness(blockKernel(body, t, resultShape, resultElement));
  EXPECT_TRUE(harness.loaded()) << harness.loadError();
  if (!harness.loaded())
    return {};
  uint64_t x = harness.buffer(input);
  uint64_t y = harness.buffer(std::vector<R>(resultCount));
  EXPECT_EQ(harness.run({1, 1, 1}, {x, y}), "");
  return harness.read<R>(y, resultCount);
}

TEST(ReduceTest, ArgMaxAndArgMinPickTheFirstOfTies) {
  std::vector<float> x{3, 7, 7, 1, //
                       5, 5, 5, 5, //
                       2, 9, 0, 0, //
                       NAN, 1, NAN, 8};
  EXPECT_EQ(runBlock<int32_t>("%r = tk.reduce argmax %a {axis = 1 : i32} : "
                              "tensor<4x4xf32> -> tensor<4xi32>",
                              "f32", "4", "i32", x, 4),
            (std::vector<int32_t>{1, 0, 1, 0}));
  EXPECT_EQ(runBlock<int32_t>("%r = tk.reduce argmin %a {axis = 1 : i32} : "
                              "tensor<4x4xf32> -> tensor<4xi32>",
                              "f32", "4", "i32", x, 4),
            (std::vector<int32_t>{3, 0, 2, 0}));
  // Along axis 0: columns 0 and 2 end in a NaN, which wins.
  EXPECT_EQ(runBlock<int32_t>("%r = tk.reduce argmax %a {axis = 0 : i32} : "
                              "tensor<4x4xf32> -> tensor<4xi32>",
                              "f32", "4", "i32", x, 4),
            (std::vector<int32_t>{3, 2, 3, 3}));
  std::vector<int32_t> ints{4, -9, 4, 4, 0, 0, 0, 0, -1, -1, 6, 6, 1, 2, 3, 4};
  EXPECT_EQ(runBlock<int32_t>("%r = tk.reduce argmin %a1 {axis = 0 : i32} : "
                              "tensor<16xi32> -> i32",
                              "i32", "", "i32", ints, 1),
            (std::vector<int32_t>{1}));
  EXPECT_EQ(runBlock<int32_t>("%r = tk.reduce argmax %a1 {axis = 0 : i32} : "
                              "tensor<16xi32> -> i32",
                              "i32", "", "i32", ints, 1),
            (std::vector<int32_t>{10}));
}

TEST(ReduceTest, SumMaxMinAlongEachAxis) {
  std::vector<float> x;
  for (int i = 0; i < 16; ++i)
    x.push_back(static_cast<float>(i));
  EXPECT_EQ(runBlock<float>("%r = tk.reduce sum %a {axis = 0 : i32} : "
                            "tensor<4x4xf32> -> tensor<4xf32>",
                            "f32", "4", "f32", x, 4),
            (std::vector<float>{24, 28, 32, 36}));
  EXPECT_EQ(runBlock<float>("%r = tk.reduce sum %a {axis = 1 : i32} : "
                            "tensor<4x4xf32> -> tensor<4xf32>",
                            "f32", "4", "f32", x, 4),
            (std::vector<float>{6, 22, 38, 54}));
  EXPECT_EQ(runBlock<float>("%r = tk.reduce max %a {axis = 1 : i32} : "
                            "tensor<4x4xf32> -> tensor<4xf32>",
                            "f32", "4", "f32", x, 4),
            (std::vector<float>{3, 7, 11, 15}));
  x[5] = NAN;
  auto withNaN = runBlock<float>("%r = tk.reduce min %a {axis = 1 : i32} : "
                                 "tensor<4x4xf32> -> tensor<4xf32>",
                                 "f32", "4", "f32", x, 4);
  EXPECT_EQ(withNaN[0], 0.0f);
  EXPECT_TRUE(std::isnan(withNaN[1]));
  std::vector<int8_t> bytes(16, 100);
  EXPECT_EQ(runBlock<int8_t>("%r = tk.reduce sum %a1 {axis = 0 : i32} : "
                             "tensor<16xi8> -> i8",
                             "i8", "", "i8", bytes, 1),
            (std::vector<int8_t>{static_cast<int8_t>(1600 % 256)}));
  std::vector<int32_t> bits{1, 2, 4, 8, 16, 32, 64, 128, 0, 0, 0, 0, 0, 0, 0, 3};
  EXPECT_EQ(runBlock<int32_t>("%r = tk.reduce xor %a {axis = 1 : i32} : "
                              "tensor<4x4xi32> -> tensor<4xi32>",
                              "i32", "4", "i32", bits, 4),
            (std::vector<int32_t>{15, 240, 0, 3}));
  std::vector<int32_t> mixed{-1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  EXPECT_EQ(runBlock<int32_t>("%r = tk.reduce umax %a1 {axis = 0 : i32} : "
                              "tensor<16xi32> -> i32",
                              "i32", "", "i32", mixed, 1),
            (std::vector<int32_t>{-1}));
}

TEST(ReduceTest, HalfSumRoundsOnce) {
  // 16 x 0.1 in f16: each partial sum rounded would drift; the interpreter
  // rounds the exact sum once.
  std::vector<uint16_t> x(16, floatToHalfBits(0.1f));
  auto sum = runBlock<uint16_t>("%r = tk.reduce sum %a1 {axis = 0 : i32} : "
                                "tensor<16xf16> -> f16",
                                "f16", "", "f16", x, 1);
  EXPECT_EQ(sum[0], doubleToHalfBits(16.0 * halfBitsToFloat(x[0])));
}

TEST(ScanTest, InclusiveForwardAndReverse) {
  std::vector<int32_t> x;
  for (int i = 1; i <= 16; ++i)
    x.push_back(i);
  EXPECT_EQ(runBlock<int32_t>("%r = tk.scan sum %a {axis = 1 : i32} : "
                              "tensor<4x4xi32> -> tensor<4x4xi32>",
                              "i32", "4x4", "i32", x, 16),
            (std::vector<int32_t>{1, 3, 6, 10, 5, 11, 18, 26, 9, 19, 30, 42,
                                  13, 27, 42, 58}));
  EXPECT_EQ(runBlock<int32_t>("%r = tk.scan sum %a {axis = 0 : i32} : "
                              "tensor<4x4xi32> -> tensor<4x4xi32>",
                              "i32", "4x4", "i32", x, 16),
            (std::vector<int32_t>{1, 2, 3, 4, 6, 8, 10, 12, 15, 18, 21, 24,
                                  28, 32, 36, 40}));
  EXPECT_EQ(runBlock<int32_t>("%r = tk.scan sum %a {axis = 1 : i32, reverse} : "
                              "tensor<4x4xi32> -> tensor<4x4xi32>",
                              "i32", "4x4", "i32", x, 16),
            (std::vector<int32_t>{10, 9, 7, 4, 26, 21, 15, 8, 42, 33, 23, 12,
                                  58, 45, 31, 16}));
  std::vector<float> f{1, 3, 2, 5, 0.5f, 1, 4, 2, 1, 1, 1, 1, -1, 2, -3, 4};
  EXPECT_EQ(runBlock<float>("%r = tk.scan max %a {axis = 1 : i32} : "
                            "tensor<4x4xf32> -> tensor<4x4xf32>",
                            "f32", "4x4", "f32", f, 16),
            (std::vector<float>{1, 3, 3, 5, 0.5f, 1, 4, 4, 1, 1, 1, 1, -1, 2,
                                2, 4}));
  EXPECT_EQ(runBlock<float>("%r = tk.scan prod %a {axis = 1 : i32} : "
                            "tensor<4x4xf32> -> tensor<4x4xf32>",
                            "f32", "4x4", "f32", f, 16),
            (std::vector<float>{1, 3, 6, 30, 0.5f, 0.5f, 2, 4, 1, 1, 1, 1, -1,
                                -2, 6, 24}));
}

/// d = a @ b + c with a 4x8 A and 8x4 B given as one 16-lane tensor each
/// (rows of A, rows of B) and c = 1.
std::string dotKernel(const std::string &in, const std::string &acc) {
  return substitute(R"(
func.func @k(%pa: !tk.ptr<{I}>, %pb: !tk.ptr<{I}>, %pc: !tk.ptr<{C}>) attributes {tk.kernel} {
  %r32 = tk.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %as = tk.splat %pa : !tk.ptr<{I}> -> tensor<32x!tk.ptr<{I}>>
  %ap = tk.addptr %as, %r32 : tensor<32x!tk.ptr<{I}>>, tensor<32xi32>
  %av = tk.load %ap : tensor<32x!tk.ptr<{I}>> -> tensor<32x{I}>
  %a = tk.reshape %av : tensor<32x{I}> -> tensor<4x8x{I}>
  %bs = tk.splat %pb : !tk.ptr<{I}> -> tensor<32x!tk.ptr<{I}>>
  %bp = tk.addptr %bs, %r32 : tensor<32x!tk.ptr<{I}>>, tensor<32xi32>
  %bv = tk.load %bp : tensor<32x!tk.ptr<{I}>> -> tensor<32x{I}>
  %b = tk.reshape %bv : tensor<32x{I}> -> tensor<8x4x{I}>
  %c = arith.constant dense<{ONE}> : tensor<4x4x{C}>
  %d = tk.dot %a, %b, %c {PRECISION}: tensor<4x8x{I}> * tensor<8x4x{I}> -> tensor<4x4x{C}>
  %r16 = tk.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
  %cs = tk.splat %pc : !tk.ptr<{C}> -> tensor<16x!tk.ptr<{C}>>
  %cp = tk.addptr %cs, %r16 : tensor<16x!tk.ptr<{C}>>, tensor<16xi32>
  %df = tk.reshape %d : tensor<4x4x{C}> -> tensor<16x{C}>
  tk.store %cp, %df : tensor<16x!tk.ptr<{C}>>, tensor<16x{C}>
  return
}
)",
                    {{"I", in},
                     {"C", acc},
                     {"ONE", acc == "i32" ? "1" : "1.0"},
                     {"PRECISION", in == "f32" ? "precision = ieee " : ""}});
}

template <typename C, typename I>
std::vector<C> runDot(const std::string &in, const std::string &acc,
                      const std::vector<I> &a, const std::vector<I> &b) {
  KernelHarness harness(dotKernel(in, acc));
  EXPECT_TRUE(harness.loaded()) << harness.loadError();
  if (!harness.loaded())
    return {};
  uint64_t pa = harness.buffer(a), pb = harness.buffer(b);
  uint64_t pc = harness.buffer(std::vector<C>(16));
  EXPECT_EQ(harness.run({1, 1, 1}, {pa, pb, pc}), "");
  return harness.read<C>(pc, 16);
}

TEST(DotTest, F32AndHalfInputsAccumulateInF32) {
  std::vector<float> a(32), b(32);
  for (int i = 0; i < 32; ++i) {
    a[i] = 0.25f * static_cast<float>(i % 7) - 0.5f;
    b[i] = 0.125f * static_cast<float>(i % 5) + 1.0f;
  }
  std::vector<float> expected(16);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      float sum = 1.0f;
      for (int k = 0; k < 8; ++k)
        sum += a[i * 8 + k] * b[k * 4 + j];
      expected[i * 4 + j] = sum;
    }
  // These values are exact in every format, so all variants agree exactly.
  EXPECT_EQ((runDot<float, float>("f32", "f32", a, b)), expected);
  std::vector<uint16_t> ah, bh, abf, bbf;
  for (int i = 0; i < 32; ++i) {
    ah.push_back(floatToHalfBits(a[i]));
    bh.push_back(floatToHalfBits(b[i]));
    abf.push_back(floatToBf16Bits(a[i]));
    bbf.push_back(floatToBf16Bits(b[i]));
  }
  EXPECT_EQ((runDot<float, uint16_t>("f16", "f32", ah, bh)), expected);
  EXPECT_EQ((runDot<float, uint16_t>("bf16", "f32", abf, bbf)), expected);
  auto halfAcc = runDot<uint16_t, uint16_t>("f16", "f16", ah, bh);
  for (int i = 0; i < 16; ++i)
    EXPECT_EQ(halfAcc[i], floatToHalfBits(expected[i]));
}

TEST(DotTest, I8AccumulatesInI32) {
  std::vector<int8_t> a(32), b(32);
  for (int i = 0; i < 32; ++i) {
    a[i] = static_cast<int8_t>(127 - i * 9);
    b[i] = static_cast<int8_t>(-128 + i * 7);
  }
  auto d = runDot<int32_t, int8_t>("i8", "i32", a, b);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      int32_t sum = 1;
      for (int k = 0; k < 8; ++k)
        sum += int32_t(a[i * 8 + k]) * int32_t(b[k * 4 + j]);
      EXPECT_EQ(d[i * 4 + j], sum);
    }
}

} // namespace

namespace {

TEST(ShapeTest, TransposeAndBroadcast) {
  std::vector<int32_t> x;
  for (int i = 0; i < 16; ++i)
    x.push_back(i);
  // 2-D transpose.
  EXPECT_EQ(runBlock<int32_t>("%r = tk.trans %a {order = array<i32: 1, 0>} : "
                              "tensor<4x4xi32> -> tensor<4x4xi32>",
                              "i32", "4x4", "i32", x, 16),
            (std::vector<int32_t>{0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3,
                                  7, 11, 15}));
  // 3-D: [2, 2, 4] -> order (2, 0, 1) -> [4, 2, 2]; r[i][j][k] = a[j][k][i].
  std::string trans3 = R"(
  %a3 = tk.reshape %v : tensor<16xi32> -> tensor<2x2x4xi32>
  %r = tk.trans %a3 {order = array<i32: 2, 0, 1>} : tensor<2x2x4xi32> -> tensor<4x2x2xi32>)";
  std::vector<int32_t> expected;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 2; ++k)
        expected.push_back(j * 8 + k * 4 + i);
  EXPECT_EQ(runBlock<int32_t>(trans3, "i32", "4x2x2", "i32", x, 16), expected);
  // Broadcasts of a row (1x4) and of a column (4x1) to 4x4.
  std::string broadcast = R"(
  %half = tk.reshape %v : tensor<16xi32> -> tensor<4x4xi32>
  %row = tk.reduce max %half {axis = 0 : i32} : tensor<4x4xi32> -> tensor<4xi32>
  %col = tk.reduce min %half {axis = 1 : i32} : tensor<4x4xi32> -> tensor<4xi32>
  %rowe = tk.expand_dims %row {axis = 0 : i32} : tensor<4xi32> -> tensor<1x4xi32>
  %cole = tk.expand_dims %col {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
  %rb = tk.broadcast %rowe : tensor<1x4xi32> -> tensor<4x4xi32>
  %cb = tk.broadcast %cole : tensor<4x1xi32> -> tensor<4x4xi32>
  %r = arith.subi %rb, %cb : tensor<4x4xi32>)";
  // row = [12, 13, 14, 15], col = [0, 4, 8, 12]: r[i][j] = 12 + j - 4 i.
  expected.clear();
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      expected.push_back(12 + j - 4 * i);
  EXPECT_EQ(runBlock<int32_t>(broadcast, "i32", "4x4", "i32", x, 16), expected);
}

} // namespace
