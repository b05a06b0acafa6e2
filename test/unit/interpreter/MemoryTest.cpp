//===- MemoryTest.cpp - Loads, stores, bounds checks and atomics ----------===//
#include "KernelHarness.h"

#include "compiler/interpreter/Float16.h"

using namespace tk::interp;
using namespace tk::interp::test;

namespace {

/// out[pid*4 + i] = in[pid*4 + i + SHIFT] for i < n (masked), on 4 lanes.
/// The load carries the location of a .tk source line.
const char *kShiftedCopy = R"(
func.func @copy(%in: !tk.ptr<f32>, %out: !tk.ptr<f32>, %shift: i32, %n: i32)
    attributes {tk.kernel, tk.arg_names = ["in_ptr", "out_ptr", "shift", "n"]} {
  %pid = tk.program_id 0 : i32
  %c4 = arith.constant 4 : i32
  %base = arith.muli %pid, %c4 : i32
  %lanes = tk.make_range {start = 0 : i32, end = 4 : i32} : tensor<4xi32>
  %bases = tk.splat %base : i32 -> tensor<4xi32>
  %offsets = arith.addi %bases, %lanes : tensor<4xi32>
  %ns = tk.splat %n : i32 -> tensor<4xi32>
  %mask = arith.cmpi slt, %offsets, %ns : tensor<4xi32>
  %shifts = tk.splat %shift : i32 -> tensor<4xi32>
  %from = arith.addi %offsets, %shifts : tensor<4xi32>
  %ins = tk.splat %in : !tk.ptr<f32> -> tensor<4x!tk.ptr<f32>>
  %inp = tk.addptr %ins, %from : tensor<4x!tk.ptr<f32>>, tensor<4xi32>
  %other = arith.constant dense<-1.0> : tensor<4xf32>
  %x = tk.load %inp, mask %mask, other %other : tensor<4x!tk.ptr<f32>> -> tensor<4xf32>, tensor<4xi1> loc("softmax.tk":9:9)
  %outs = tk.splat %out : !tk.ptr<f32> -> tensor<4x!tk.ptr<f32>>
  %outp = tk.addptr %outs, %offsets : tensor<4x!tk.ptr<f32>>, tensor<4xi32>
  tk.store %outp, %x : tensor<4x!tk.ptr<f32>>, tensor<4xf32> loc("softmax.tk":12:5)
  return
}
)";

TEST(MemoryTest, ArgumentsBreakingTheSpecializationAreRefused) {
  // The same kernel compiled assuming shift == 1 and n a multiple of 16.
  std::string specialized = kShiftedCopy;
  std::string names = "tk.arg_names = [\"in_ptr\", \"out_ptr\", \"shift\", \"n\"]";
  specialized.replace(specialized.find(names), names.size(),
                      names + ", tk.arg_specs = [\"div16\", \"none\", "
                              "\"one\", \"div16\"]");
  KernelHarness harness(specialized);
  ASSERT_TRUE(harness.loaded()) << harness.loadError();
  uint64_t in = harness.buffer(std::vector<float>(40, 1.0f));
  uint64_t out = harness.buffer(std::vector<float>(32));
  EXPECT_EQ(harness.run({1, 1, 1}, {in, out, 1, 32}), "");
  EXPECT_NE(harness.run({1, 1, 1}, {in, out, 1, 30})
                .find("argument n=30 breaks the assumption n=16"),
            std::string::npos);
  EXPECT_NE(harness.run({1, 1, 1}, {in, out, 0, 32})
                .find("argument shift=0 breaks the assumption shift=1"),
            std::string::npos);
  EXPECT_NE(harness.run({1, 1, 1}, {in + 4, out, 1, 32})
                .find("pointer argument in_ptr is not 16-byte aligned"),
            std::string::npos);
}

TEST(MemoryTest, MaskedLanesTakeOtherAndNeverTouchMemory) {
  KernelHarness harness(kShiftedCopy);
  ASSERT_TRUE(harness.loaded()) << harness.loadError();
  uint64_t in = harness.buffer(std::vector<float>{1, 2, 3, 4, 5, 6});
  uint64_t out = harness.buffer(std::vector<float>(8, 0.0f));
  // Lanes 6 and 7 are masked off; their addresses are past the buffer.
  EXPECT_EQ(harness.run({2, 1, 1}, {in, out, 0, 6}), "");
  EXPECT_EQ(harness.read<float>(out, 8),
            (std::vector<float>{1, 2, 3, 4, 5, 6, -1, -1}));
}

TEST(MemoryTest, OutOfBoundsLoadNamesTheSourceLaneAndBuffer) {
  KernelHarness harness(kShiftedCopy);
  ASSERT_TRUE(harness.loaded()) << harness.loadError();
  uint64_t in = harness.buffer(std::vector<float>(781, 1.0f));
  uint64_t out = harness.buffer(std::vector<float>(800, 0.0f));
  // Program 195 covers offsets 780..783; lane 1 reads element 781.
  EXPECT_EQ(harness.run({200, 1, 1}, {in, out, 0, 800}),
            "softmax.tk:9:9: error: out-of-bounds load in program (195, 0, 0): "
            "lane 1 reads byte offset 3124 past the end of a 3124-byte buffer "
            "(in_ptr + 781 elements)");
  // The run stopped there: program 195's store never happened.
  EXPECT_EQ(harness.read<float>(out, 800)[780], 0.0f);
  EXPECT_EQ(harness.read<float>(out, 800)[779], 1.0f);
}

TEST(MemoryTest, OutOfBoundsBeforeTheStart) {
  KernelHarness harness(kShiftedCopy);
  ASSERT_TRUE(harness.loaded()) << harness.loadError();
  uint64_t in = harness.buffer(std::vector<float>(8, 1.0f));
  uint64_t out = harness.buffer(std::vector<float>(8, 0.0f));
  EXPECT_EQ(harness.run({1, 1, 1}, {in, out, static_cast<uint32_t>(-2), 8}),
            "softmax.tk:9:9: error: out-of-bounds load in program (0, 0, 0): "
            "lane 0 reads byte offset -8 before the start of a 32-byte buffer "
            "(in_ptr - 2 elements)");
}

TEST(MemoryTest, OutOfBoundsStore) {
  KernelHarness harness(kShiftedCopy);
  ASSERT_TRUE(harness.loaded()) << harness.loadError();
  uint64_t in = harness.buffer(std::vector<float>(8, 1.0f));
  uint64_t out = harness.buffer(std::vector<float>(6, 0.0f));
  EXPECT_EQ(harness.run({2, 1, 1}, {in, out, 0, 8}),
            "softmax.tk:12:5: error: out-of-bounds store in program (1, 0, 0): "
            "lane 2 writes byte offset 24 past the end of a 24-byte buffer "
            "(out_ptr + 6 elements)");
}

TEST(MemoryTest, NullAndUnboundPointers) {
  KernelHarness harness(kShiftedCopy);
  ASSERT_TRUE(harness.loaded()) << harness.loadError();
  uint64_t out = harness.buffer(std::vector<float>(4, 0.0f));
  EXPECT_EQ(harness.run({1, 1, 1}, {0, out, 0, 4}),
            "softmax.tk:9:9: error: out-of-bounds load in program (0, 0, 0): "
            "lane 0 reads address 0x0 through a null pointer");
  // A host array nobody registered is as good as a wild pointer.
  std::vector<float> unregistered(4, 1.0f);
  uint64_t wild = reinterpret_cast<uintptr_t>(unregistered.data());
  std::string error = harness.run({1, 1, 1}, {wild, out, 0, 4});
  EXPECT_NE(error.find("softmax.tk:9:9: error: out-of-bounds load in program "
                       "(0, 0, 0): lane 0 reads byte offset"),
            std::string::npos)
      << error;
}

TEST(MemoryTest, MisalignedAccess) {
  KernelHarness harness(kShiftedCopy);
  ASSERT_TRUE(harness.loaded()) << harness.loadError();
  uint64_t in = harness.buffer(std::vector<float>(8, 1.0f));
  uint64_t out = harness.buffer(std::vector<float>(4, 0.0f));
  std::string error = harness.run({1, 1, 1}, {in + 2, out, 0, 4});
  EXPECT_NE(error.find("softmax.tk:9:9: error: misaligned load in program "
                       "(0, 0, 0): lane 0 reads address 0x"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("(in_ptr + 0 elements), which is not a multiple of 4 "
                       "bytes"),
            std::string::npos)
      << error;
}

TEST(MemoryTest, TwoDimensionalLanesShowTheirIndex) {
  std::string ir = R"(
func.func @k(%p: !tk.ptr<i32>) attributes {tk.kernel, tk.arg_names = ["p"]} {
  %r = tk.make_range {start = 0 : i32, end = 4 : i32} : tensor<4xi32>
  %row = tk.expand_dims %r {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
  %c4 = arith.constant dense<4> : tensor<4x1xi32>
  %rs = arith.muli %row, %c4 : tensor<4x1xi32>
  %rb = tk.broadcast %rs : tensor<4x1xi32> -> tensor<4x4xi32>
  %col = tk.expand_dims %r {axis = 0 : i32} : tensor<4xi32> -> tensor<1x4xi32>
  %cb = tk.broadcast %col : tensor<1x4xi32> -> tensor<4x4xi32>
  %offs = arith.addi %rb, %cb : tensor<4x4xi32>
  %ps = tk.splat %p : !tk.ptr<i32> -> tensor<4x4x!tk.ptr<i32>>
  %pp = tk.addptr %ps, %offs : tensor<4x4x!tk.ptr<i32>>, tensor<4x4xi32>
  tk.store %pp, %offs : tensor<4x4x!tk.ptr<i32>>, tensor<4x4xi32>
  return
}
)";
  KernelHarness harness(ir, "store2d.mlir");
  ASSERT_TRUE(harness.loaded()) << harness.loadError();
  uint64_t p = harness.buffer(std::vector<int32_t>(10, 0));
  EXPECT_EQ(harness.run({1, 1, 1}, {p}),
            "store2d.mlir:13:3: error: out-of-bounds store in program (0, 0, "
            "0): lane 10 (2, 2) writes byte offset 40 past the end of a "
            "40-byte buffer (p + 10 elements)");
}

/// Every lane of every program adds to one counter and to its own slot.
const char *kAtomics = R"(
func.func @atomics(%counter: !tk.ptr<i32>, %olds: !tk.ptr<i32>, %last: !tk.ptr<i32>)
    attributes {tk.kernel} {
  %pid = tk.program_id 0 : i32
  %lanes = tk.make_range {start = 0 : i32, end = 4 : i32} : tensor<4xi32>
  %c4 = arith.constant 4 : i32
  %base = arith.muli %pid, %c4 : i32
  %bases = tk.splat %base : i32 -> tensor<4xi32>
  %ids = arith.addi %bases, %lanes : tensor<4xi32>
  %one = arith.constant dense<1> : tensor<4xi32>
  %cs = tk.splat %counter : !tk.ptr<i32> -> tensor<4x!tk.ptr<i32>>
  %old = tk.atomic_rmw add %cs, %one : tensor<4x!tk.ptr<i32>>, tensor<4xi32>
  %os = tk.splat %olds : !tk.ptr<i32> -> tensor<4x!tk.ptr<i32>>
  %op = tk.addptr %os, %ids : tensor<4x!tk.ptr<i32>>, tensor<4xi32>
  tk.store %op, %old : tensor<4x!tk.ptr<i32>>, tensor<4xi32>
  %ls = tk.splat %last : !tk.ptr<i32> -> tensor<4x!tk.ptr<i32>>
  %prev = tk.atomic_rmw xchg %ls, %ids : tensor<4x!tk.ptr<i32>>, tensor<4xi32>
  return
}
)";

TEST(MemoryTest, AtomicsApplyInProgramThenLaneOrder) {
  KernelHarness harness(kAtomics);
  ASSERT_TRUE(harness.loaded()) << harness.loadError();
  uint64_t counter = harness.buffer(std::vector<int32_t>{100});
  uint64_t olds = harness.buffer(std::vector<int32_t>(12, 0));
  uint64_t last = harness.buffer(std::vector<int32_t>{-1});
  EXPECT_EQ(harness.run({3, 1, 1}, {counter, olds, last}), "");
  EXPECT_EQ(harness.read<int32_t>(counter, 1)[0], 112);
  std::vector<int32_t> expected;
  for (int i = 0; i < 12; ++i)
    expected.push_back(100 + i);
  EXPECT_EQ(harness.read<int32_t>(olds, 12), expected);
  EXPECT_EQ(harness.read<int32_t>(last, 1)[0], 11);
}

TEST(MemoryTest, AtomicCompareAndSwapAndMaskedRmw) {
  std::string ir = R"(
func.func @k(%p: !tk.ptr<i32>, %olds: !tk.ptr<i32>, %f: !tk.ptr<f16>) attributes {tk.kernel} {
  %lanes = tk.make_range {start = 0 : i32, end = 4 : i32} : tensor<4xi32>
  %ps = tk.splat %p : !tk.ptr<i32> -> tensor<4x!tk.ptr<i32>>
  %zero = arith.constant dense<0> : tensor<4xi32>
  %one = arith.constant dense<1> : tensor<4xi32>
  %new = arith.addi %lanes, %one : tensor<4xi32>
  %old = tk.atomic_cas %ps, %zero, %new : tensor<4x!tk.ptr<i32>>, tensor<4xi32>
  %os = tk.splat %olds : !tk.ptr<i32> -> tensor<4x!tk.ptr<i32>>
  %op = tk.addptr %os, %lanes : tensor<4x!tk.ptr<i32>>, tensor<4xi32>
  tk.store %op, %old : tensor<4x!tk.ptr<i32>>, tensor<4xi32>
  %c2 = arith.constant dense<2> : tensor<4xi32>
  %odd = arith.remsi %lanes, %c2 : tensor<4xi32>
  %mask = arith.cmpi eq, %odd, %one : tensor<4xi32>
  %pp = tk.addptr %ps, %one : tensor<4x!tk.ptr<i32>>, tensor<4xi32>
  %m = tk.atomic_rmw max %pp, %lanes, mask %mask : tensor<4x!tk.ptr<i32>>, tensor<4xi32>, tensor<4xi1>
  %fs = tk.splat %f : !tk.ptr<f16> -> tensor<4x!tk.ptr<f16>>
  %third = arith.constant dense<0.333333> : tensor<4xf16>
  %fo = tk.atomic_rmw add %fs, %third : tensor<4x!tk.ptr<f16>>, tensor<4xf16>
  return
}
)";
  KernelHarness harness(ir);
  ASSERT_TRUE(harness.loaded()) << harness.loadError();
  uint64_t p = harness.buffer(std::vector<int32_t>{0, -5});
  uint64_t olds = harness.buffer(std::vector<int32_t>(4, 7));
  uint64_t f = harness.buffer(std::vector<uint16_t>{0});
  EXPECT_EQ(harness.run({1, 1, 1}, {p, olds, f}), "");
  // Lane 0 swaps 0 -> 1; the others see 1 and fail.
  EXPECT_EQ(harness.read<int32_t>(p, 2), (std::vector<int32_t>{1, 3}));
  EXPECT_EQ(harness.read<int32_t>(olds, 4), (std::vector<int32_t>{0, 1, 1, 1}));
  // Four f16 additions of 1/3, each rounded to f16.
  uint16_t third = floatToHalfBits(0.333333f);
  float sum = 0;
  for (int i = 0; i < 4; ++i)
    sum = halfBitsToFloat(floatToHalfBits(sum + halfBitsToFloat(third)));
  EXPECT_EQ(harness.read<uint16_t>(f, 1)[0], floatToHalfBits(sum));
}

} // namespace
