//===- MmaLayoutTest.cpp - mma / dot_operand layouts vs the PTX ISA -------===//
//
// For mma.m16n8k16 (f16/bf16), m16n8k8 (tf32) and m16n8k32 (s8): every
// (lane, fragment element) of A, B and C must land where the PTX ISA's
// "Matrix Fragments for mma.m16n8kK" tables put it. The tables are written
// out here as the ISA states them (groupID = lane / 4, threadID_in_group =
// lane % 4), independently of the encodings' code. Then: instruction tiles
// repeat K fastest, warps go along M first, and the shared layouts of
// OperandLayouts.h keep ldmatrix reads and 16-byte stores free of bank
// conflicts.
//
//===----------------------------------------------------------------------===//
#include "dialects/tkgpu/LinearLayout.h"
#include "dialects/tkgpu/OperandLayouts.h"
#include "dialects/tkgpu/TkgpuDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <functional>
#include <set>

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

using Coords = std::vector<int32_t>;
/// (lane, fragment element i) -> (row, col) of the instruction tile.
using Fragment = std::function<Coords(int32_t lane, int32_t i)>;

class MmaLayoutTest : public ::testing::Test {
protected:
  MmaLayoutTest() { ctx.getOrLoadDialect<TkgpuDialect>(); }

  MmaEncodingAttr mma(unsigned wM, unsigned wN) {
    return MmaEncodingAttr::get(&ctx, 2, {wM, wN}, {16, 8});
  }
  DotOperandEncodingAttr operand(unsigned opIdx, MmaEncodingAttr parent,
                                 unsigned kWidth) {
    return DotOperandEncodingAttr::get(&ctx, opIdx, parent, kWidth);
  }

  /// Element i of the fragment is register i (kWidth elements per 32-bit
  /// register, in register order).
  static void expectFragment(const LinearLayout &ll, int32_t numElements,
                             const Fragment &table) {
    ASSERT_EQ(ll.getInDimSize(kRegister), numElements);
    for (int32_t lane = 0; lane < 32; ++lane)
      for (int32_t i = 0; i < numElements; ++i)
        ASSERT_EQ(ll.applyDistributed(i, lane, 0), table(lane, i))
            << "lane " << lane << ", element " << i;
  }

  MLIRContext ctx;
};

int32_t group(int32_t lane) { return lane >> 2; }
int32_t inGroup(int32_t lane) { return lane % 4; }

// C/D of every m16n8k* shape (f32 or s32 accumulators).
Coords accumulator(int32_t lane, int32_t i) {
  return {group(lane) + (i >= 2 ? 8 : 0), inGroup(lane) * 2 + (i & 1)};
}

// m16n8k16, .f16/.bf16: A a0..a7, B b0..b3.
Coords aF16(int32_t lane, int32_t i) {
  bool lowRow = i < 2 || (i >= 4 && i < 6);
  return {group(lane) + (lowRow ? 0 : 8),
          inGroup(lane) * 2 + (i & 1) + (i >= 4 ? 8 : 0)};
}
Coords bF16(int32_t lane, int32_t i) {
  return {inGroup(lane) * 2 + (i & 1) + (i >= 2 ? 8 : 0), group(lane)};
}

// m16n8k8, .tf32: A a0..a3, B b0..b1.
Coords aTf32(int32_t lane, int32_t i) {
  bool lowRow = i == 0 || i == 2;
  return {group(lane) + (lowRow ? 0 : 8), inGroup(lane) + (i >= 2 ? 4 : 0)};
}
Coords bTf32(int32_t lane, int32_t i) {
  return {inGroup(lane) + (i >= 1 ? 4 : 0), group(lane)};
}

// m16n8k32, .s8: A a0..a15, B b0..b7.
Coords aS8(int32_t lane, int32_t i) {
  bool lowRow = i < 4 || (i >= 8 && i < 12);
  return {group(lane) + (lowRow ? 0 : 8),
          inGroup(lane) * 4 + (i & 3) + (i >= 8 ? 16 : 0)};
}
Coords bS8(int32_t lane, int32_t i) {
  return {inGroup(lane) * 4 + (i & 3) + (i >= 4 ? 16 : 0), group(lane)};
}

TEST_F(MmaLayoutTest, AccumulatorFragment) {
  expectFragment(mma(1, 1).toLinearLayout({16, 8}), 4, accumulator);
}

TEST_F(MmaLayoutTest, F16Fragments) {
  auto parent = mma(1, 1);
  expectFragment(operand(0, parent, 2).toLinearLayout({16, 16}), 8, aF16);
  expectFragment(operand(1, parent, 2).toLinearLayout({16, 8}), 4, bF16);
}

TEST_F(MmaLayoutTest, Tf32Fragments) {
  auto parent = mma(1, 1);
  expectFragment(operand(0, parent, 1).toLinearLayout({16, 8}), 4, aTf32);
  expectFragment(operand(1, parent, 1).toLinearLayout({8, 8}), 2, bTf32);
}

TEST_F(MmaLayoutTest, S8Fragments) {
  auto parent = mma(1, 1);
  expectFragment(operand(0, parent, 4).toLinearLayout({16, 32}), 16, aS8);
  expectFragment(operand(1, parent, 4).toLinearLayout({32, 8}), 8, bS8);
}

// 64x32 (A) by 32x32 (B) on warps [2, 2]: warp w is at M-tile w % 2 and
// N-tile w / 2; a thread's instruction tiles repeat K fastest, then M (A)
// or N (B), every CTA tile (32 rows of A, 16 columns of B) further.
TEST_F(MmaLayoutTest, F16RepeatsAndWarps) {
  auto parent = mma(2, 2);
  LinearLayout a = operand(0, parent, 2).toLinearLayout({64, 32});
  LinearLayout b = operand(1, parent, 2).toLinearLayout({32, 32});
  LinearLayout c = parent.toLinearLayout({64, 32});
  ASSERT_EQ(a.getInDimSize(kRegister), 8 * 2 * 2);
  ASSERT_EQ(b.getInDimSize(kRegister), 4 * 2 * 2);
  ASSERT_EQ(c.getInDimSize(kRegister), 4 * 2 * 2);
  for (int32_t warp = 0; warp < 4; ++warp) {
    int32_t wm = warp % 2, wn = warp / 2;
    for (int32_t lane = 0; lane < 32; ++lane) {
      for (int32_t r = 0; r < 32; ++r) {
        int32_t kRep = (r / 8) % 2, mRep = r / 16;
        Coords e = aF16(lane, r % 8);
        ASSERT_EQ(a.applyDistributed(r, lane, warp),
                  (Coords{mRep * 32 + wm * 16 + e[0], kRep * 16 + e[1]}));
      }
      for (int32_t r = 0; r < 16; ++r) {
        int32_t kRep = (r / 4) % 2, nRep = r / 8;
        Coords e = bF16(lane, r % 4);
        ASSERT_EQ(b.applyDistributed(r, lane, warp),
                  (Coords{kRep * 16 + e[0], nRep * 16 + wn * 8 + e[1]}));
      }
      // C repeats N fastest (row-major), then M.
      for (int32_t r = 0; r < 16; ++r) {
        int32_t nRep = (r / 4) % 2, mRep = r / 8;
        Coords e = accumulator(lane, r % 4);
        ASSERT_EQ(c.applyDistributed(r, lane, warp),
                  (Coords{mRep * 32 + wm * 16 + e[0],
                          nRep * 16 + wn * 8 + e[1]}));
      }
    }
  }
}

// The A operand is the same on every N-warp, B on every M-warp.
TEST_F(MmaLayoutTest, OperandsReplicateAcrossWarps) {
  auto parent = mma(2, 2);
  LinearLayout a = operand(0, parent, 2).toLinearLayout({32, 16});
  LinearLayout b = operand(1, parent, 2).toLinearLayout({16, 16});
  EXPECT_EQ(a.getBasis(kWarp, 1), (Coords{0, 0}));
  EXPECT_EQ(b.getBasis(kWarp, 0), (Coords{0, 0}));
  EXPECT_EQ(a.getBasis(kWarp, 0), (Coords{16, 0}));
  EXPECT_EQ(b.getBasis(kWarp, 1), (Coords{0, 8}));
}

//===----------------------------------------------------------------------===//
// Shared layouts of dot operands: bank conflicts
//===----------------------------------------------------------------------===//

struct SharedCase {
  int64_t rows, cols; // cols: the contiguous dimension
  unsigned bits;
};

class OperandSharedTest : public MmaLayoutTest {
protected:
  Type elementType(unsigned bits) {
    Builder b(&ctx);
    if (bits == 8)
      return b.getI8Type();
    if (bits == 16)
      return b.getF16Type();
    return b.getF32Type();
  }
  /// Byte address of element (row, col) of a row-contiguous tile.
  static std::function<int64_t(int32_t, int32_t)>
  addressOf(const LinearLayout &sharedLayout, unsigned bytes) {
    LinearLayout inverse = sharedLayout.invert();
    return [inverse, bytes](int32_t row, int32_t col) {
      return int64_t(inverse.apply({{"dim0", row}, {"dim1", col}})[0]) *
             bytes;
    };
  }
};

TEST_F(OperandSharedTest, DerivedParameters) {
  auto parent = mma(2, 2);
  auto a = operand(0, parent, 2);
  // f16, 32-element rows (64 bytes): 2 rows per bank line, 4 phases.
  auto s = getDotOperandSharedEncoding(a, {128, 32}, elementType(16), {1, 0});
  EXPECT_EQ(s.getVec(), 8u);
  EXPECT_EQ(s.getPerPhase(), 2u);
  EXPECT_EQ(s.getMaxPhase(), 4u);
  EXPECT_EQ(s.getOrder(), (ArrayRef<unsigned>{1, 0}));
  // f16, 128-element rows: every row its own phase, 8 phases.
  s = getDotOperandSharedEncoding(a, {32, 128}, elementType(16), {1, 0});
  EXPECT_EQ(s.getPerPhase(), 1u);
  EXPECT_EQ(s.getMaxPhase(), 8u);
  // f32 rows of 16 elements: vec 4, 2 rows per line, 4 phases.
  s = getDotOperandSharedEncoding(operand(0, parent, 1), {64, 16},
                                  elementType(32), {1, 0});
  EXPECT_EQ(s.getVec(), 4u);
  EXPECT_EQ(s.getPerPhase(), 2u);
  EXPECT_EQ(s.getMaxPhase(), 4u);
  // i8 rows of 32 bytes: vec 16, 4 rows per line, 2 phases (the row has
  // only 2 pieces).
  s = getDotOperandSharedEncoding(operand(1, parent, 4), {64, 32},
                                  elementType(8), {1, 0});
  EXPECT_EQ(s.getVec(), 16u);
  EXPECT_EQ(s.getPerPhase(), 4u);
  EXPECT_EQ(s.getMaxPhase(), 2u);
}

TEST_F(OperandSharedTest, LdmatrixRowsAndVectorStoresAreConflictFree) {
  auto parent = mma(2, 2);
  auto a = operand(0, parent, 2);
  std::vector<SharedCase> cases = {{128, 32, 16}, {32, 128, 16}, {64, 64, 16},
                                   {16, 16, 16},  {64, 16, 32},  {32, 32, 32},
                                   {64, 32, 8},   {64, 128, 8},  {32, 256, 16}};
  for (const SharedCase &c : cases) {
    SCOPED_TRACE(std::to_string(c.rows) + "x" + std::to_string(c.cols) + "x" +
                 std::to_string(c.bits));
    unsigned bytes = c.bits / 8;
    int32_t piece = 16 / bytes; // elements per 16-byte piece
    auto s = getDotOperandSharedEncoding(a, {c.rows, c.cols},
                                         elementType(c.bits), {1, 0});
    LinearLayout ll = s.toLinearLayout({c.rows, c.cols});
    ASSERT_TRUE(ll.isInvertible());
    auto address = addressOf(ll, bytes);
    auto bankGroup = [](int64_t addr) { return (addr / 16) % 8; };
    // Every 16-byte piece stays contiguous and aligned.
    for (int32_t r = 0; r < c.rows; ++r)
      for (int32_t p = 0; p < c.cols; p += piece) {
        ASSERT_EQ(address(r, p) % 16, 0);
        for (int32_t e = 1; e < piece; ++e)
          ASSERT_EQ(address(r, p + e), address(r, p) + e * bytes);
      }
    // ldmatrix: 8 consecutive rows at one piece position.
    for (int32_t r0 = 0; r0 + 8 <= c.rows; r0 += 8)
      for (int32_t p = 0; p < c.cols; p += piece) {
        std::set<int64_t> groups;
        for (int32_t i = 0; i < 8; ++i)
          groups.insert(bankGroup(address(r0 + i, p)));
        ASSERT_EQ(groups.size(), 8u) << "rows " << r0 << ".., col " << p;
      }
    // Coalesced 16-byte stores: 8 lanes store 8 consecutive pieces in
    // row-major order.
    int64_t pieces = c.rows * c.cols / piece;
    for (int64_t first = 0; first + 8 <= pieces; first += 8) {
      std::set<int64_t> groups;
      for (int64_t q = first; q < first + 8; ++q) {
        int64_t element = q * piece;
        groups.insert(bankGroup(address(int32_t(element / c.cols),
                                        int32_t(element % c.cols))));
      }
      ASSERT_EQ(groups.size(), 8u) << "pieces " << first << "..";
    }
  }
}

//===----------------------------------------------------------------------===//
// wgmma (mma v3): the accumulator fragment
//===----------------------------------------------------------------------===//

// PTX ISA, "Matrix Fragments for wgmma.mma_async.m64nNk16" (and k8, k32),
// accumulator D: thread t of warp w of the warp group holds d0 .. d(N/2-1);
// d[i] is at row 16w + t/4 + 8 * ((i % 4) / 2), column 8 * (i / 4) +
// 2 * (t % 4) + i % 2.
Coords wgmmaAccumulator(int32_t warp, int32_t lane, int32_t i) {
  return {16 * warp + group(lane) + 8 * ((i % 4) / 2),
          8 * (i / 4) + 2 * inGroup(lane) + (i % 2)};
}

TEST_F(MmaLayoutTest, WgmmaAccumulatorFragment) {
  for (unsigned n : {8u, 16u, 64u, 128u, 256u}) {
    auto mma = MmaEncodingAttr::get(&ctx, 3, {4, 1}, {16, n, 16});
    LinearLayout ll = mma.toLinearLayout({64, int64_t(n)});
    ASSERT_EQ(ll.getInDimSize(kRegister), int32_t(n / 2)) << "n " << n;
    for (int32_t warp = 0; warp < 4; ++warp)
      for (int32_t lane = 0; lane < 32; ++lane)
        for (int32_t i = 0; i < int32_t(n / 2); ++i)
          ASSERT_EQ(ll.applyDistributed(i, lane, warp),
                    wgmmaAccumulator(warp, lane, i))
              << "n " << n << ", warp " << warp << ", lane " << lane
              << ", d" << i;
  }
}

TEST_F(MmaLayoutTest, WgmmaWarpGroupsAndRepeats) {
  // 8 warps as [8, 1]: warp group 1 (warps 4..7) takes rows 64..127.
  auto tall = MmaEncodingAttr::get(&ctx, 3, {8, 1}, {16, 128, 16});
  LinearLayout ll = tall.toLinearLayout({128, 128});
  ASSERT_EQ(ll.getInDimSize(kRegister), 64);
  for (int32_t warp = 0; warp < 8; ++warp)
    for (int32_t lane = 0; lane < 32; lane += 5)
      for (int32_t i = 0; i < 64; i += 3) {
        Coords expected = wgmmaAccumulator(warp % 4, lane, i);
        expected[0] += 64 * (warp / 4);
        ASSERT_EQ(ll.applyDistributed(i, lane, warp), expected);
      }
  // [4, 2] with N = 64: warp group 1 takes columns 64..127.
  auto wide = MmaEncodingAttr::get(&ctx, 3, {4, 2}, {16, 64, 16});
  ll = wide.toLinearLayout({64, 128});
  for (int32_t warp = 0; warp < 8; ++warp)
    for (int32_t i = 0; i < 32; ++i) {
      Coords expected = wgmmaAccumulator(warp % 4, 7, i);
      expected[1] += 64 * (warp / 4);
      ASSERT_EQ(ll.applyDistributed(i, 7, warp), expected);
    }
  // 128 rows on one warp group: the second 64 rows are the next N/2
  // registers (one instruction's accumulator after the other).
  auto one = MmaEncodingAttr::get(&ctx, 3, {4, 1}, {16, 128, 16});
  ll = one.toLinearLayout({128, 128});
  ASSERT_EQ(ll.getInDimSize(kRegister), 128);
  for (int32_t i = 0; i < 64; ++i) {
    Coords expected = wgmmaAccumulator(1, 9, i);
    ASSERT_EQ(ll.applyDistributed(i, 9, 1), expected);
    expected[0] += 64;
    ASSERT_EQ(ll.applyDistributed(64 + i, 9, 1), expected);
  }
}

TEST_F(MmaLayoutTest, WgmmaRegisterA) {
  // A from registers (wgmma m64nNk16, "Multiplicand A in registers"): per
  // warp the mma.sync m16n8k16 A fragment, warp w of the group at rows
  // 16w; replicated over the warp groups along N.
  auto mma = MmaEncodingAttr::get(&ctx, 3, {4, 2}, {16, 64, 16});
  LinearLayout ll = operand(0, mma, 2).toLinearLayout({64, 16});
  ASSERT_EQ(ll.getInDimSize(kRegister), 8);
  for (int32_t warp = 0; warp < 8; ++warp)
    for (int32_t lane = 0; lane < 32; ++lane)
      for (int32_t i = 0; i < 8; ++i) {
        Coords expected = aF16(lane, i);
        expected[0] += 16 * (warp % 4);
        ASSERT_EQ(ll.applyDistributed(i, lane, warp), expected);
      }
}

//===----------------------------------------------------------------------===//
// wgmma operands in shared memory: nvmma_shared and matrix descriptors
//===----------------------------------------------------------------------===//

class NvmmaSharedTest : public OperandSharedTest {};

// The address the hardware uses for element (row, col) of a tile stored
// in the canonical swizzled layout with rows of `swizzle` bytes along the
// contiguous dimension `col` (chunks of `swizzle` bytes one after the
// other): unswizzled, then bits [4, 4 + log2(swizzle / 16)) XORed with the
// bits from 7 on (PTX ISA, "Shared Memory Matrix Layout": the 32/64/128-byte
// swizzling modes; CUTLASS's Swizzle<log2(swizzle / 16), 4, 3>).
int64_t hardwareAddress(int64_t row, int64_t col, int64_t rows,
                        int64_t swizzle, int64_t bytes) {
  int64_t chunkElements = swizzle / bytes;
  int64_t linear = (col / chunkElements) * rows * swizzle + row * swizzle +
                   (col % chunkElements) * bytes;
  int64_t mask = swizzle / 16 - 1;
  return linear ^ (((linear >> 7) & mask) << 4);
}

TEST_F(NvmmaSharedTest, MatchesHardwareSwizzle) {
  for (unsigned swizzle : {32u, 64u, 128u})
    for (unsigned bits : {8u, 16u, 32u})
      for (auto [rows, cols] : {std::pair<int64_t, int64_t>{64, 64},
                                {128, 128}, {16, 256}, {256, 64}}) {
        unsigned bytes = bits / 8;
        if (cols * bytes % swizzle != 0)
          continue;
        auto layout = NvmmaSharedEncodingAttr::get(&ctx, swizzle, bits, {1, 0});
        LinearLayout ll = layout.toLinearLayout({rows, cols});
        ASSERT_TRUE(ll.isInvertible());
        auto address = addressOf(ll, bytes);
        for (int32_t r = 0; r < rows; ++r)
          for (int32_t c = 0; c < cols; ++c)
            ASSERT_EQ(address(r, c), hardwareAddress(r, c, rows, swizzle, bytes))
                << "swizzle " << swizzle << ", " << bits << "-bit, " << rows
                << "x" << cols << " at (" << r << ", " << c << ")";
      }
  // Column-contiguous (order [0, 1]): the same with the roles swapped.
  auto colMajor = NvmmaSharedEncodingAttr::get(&ctx, 128, 16, {0, 1});
  LinearLayout ll = colMajor.toLinearLayout({128, 64});
  LinearLayout inverse = ll.invert();
  for (int32_t r = 0; r < 128; ++r)
    for (int32_t c = 0; c < 64; ++c)
      ASSERT_EQ(int64_t(inverse.apply({{"dim0", r}, {"dim1", c}})[0]) * 2,
                hardwareAddress(c, r, 64, 128, 2));
}

TEST_F(NvmmaSharedTest, ChosenSwizzle) {
  // The widest swizzle dividing the contiguous bytes (and the bytes one
  // instruction reads along them).
  auto s = getWgmmaOperandSharedEncoding({128, 64}, elementType(16), {1, 0});
  ASSERT_TRUE(s);
  EXPECT_EQ(s.getSwizzle(), 128u);
  s = getWgmmaOperandSharedEncoding({128, 32}, elementType(16), {1, 0});
  EXPECT_EQ(s.getSwizzle(), 64u);
  s = getWgmmaOperandSharedEncoding({128, 16}, elementType(16), {1, 0});
  EXPECT_EQ(s.getSwizzle(), 32u);
  s = getWgmmaOperandSharedEncoding({64, 256}, elementType(16), {1, 0}, 64);
  EXPECT_EQ(s.getSwizzle(), 64u);
  // 16 bytes per row, or fewer than 8 rows: no wgmma layout.
  EXPECT_FALSE(getWgmmaOperandSharedEncoding({64, 8}, elementType(16), {1, 0}));
  EXPECT_FALSE(getWgmmaOperandSharedEncoding({4, 64}, elementType(16), {1, 0}));
}

TEST_F(NvmmaSharedTest, DescriptorBits) {
  // PTX ISA, "Matrix Descriptor Format".
  uint64_t d = encodeWgmmaDescriptor(/*start=*/0x1230, /*lbo=*/16,
                                     /*sbo=*/1024, /*swizzle=*/128);
  EXPECT_EQ(d & 0x3FFF, 0x123u);
  EXPECT_EQ((d >> 16) & 0x3FFF, 1u);
  EXPECT_EQ((d >> 32) & 0x3FFF, 64u);
  EXPECT_EQ((d >> 49) & 0x7, 0u);
  EXPECT_EQ(d >> 62, 1u);
  EXPECT_EQ(encodeWgmmaDescriptor(0, 0, 0, 64) >> 62, 2u);
  EXPECT_EQ(encodeWgmmaDescriptor(0, 0, 0, 32) >> 62, 3u);
  // 14-bit fields: the shared window (228 KiB) fits.
  EXPECT_EQ(encodeWgmmaDescriptor(0x3FFF0, 0, 0, 128) & 0x3FFF, 0x3FFFu);
}

TEST_F(NvmmaSharedTest, OperandAccess) {
  // A 128x64 f16 row-major: K-major, 128-byte rows; SBO = 8 rows.
  auto a = getWgmmaOperandSharedEncoding({128, 64}, elementType(16), {1, 0});
  auto accessA = getWgmmaOperandAccess(a, {128, 64}, 0);
  ASSERT_TRUE(accessA);
  EXPECT_FALSE(accessA->transposed);
  EXPECT_EQ(accessA->strideBytes, 1024);
  // Warp group 1 (rows 64..) and k = 16, 32, 48: 64 rows of 128 bytes
  // on, 32 bytes per k16 inside the swizzled row.
  EXPECT_EQ(getWgmmaTileByteOffset(a, {128, 64}, 64, 0), 64 * 128);
  EXPECT_EQ(getWgmmaTileByteOffset(a, {128, 64}, 64, 48), 64 * 128 + 96);
  // B 64x256 f16 row-major (N contiguous): MN-major; 128-byte chunks of N,
  // each 64 K rows: LBO = 64 * 128, SBO = 8 K rows = 1024.
  auto b = getWgmmaOperandSharedEncoding({64, 256}, elementType(16), {1, 0});
  auto accessB = getWgmmaOperandAccess(b, {64, 256}, 1);
  ASSERT_TRUE(accessB);
  EXPECT_TRUE(accessB->transposed);
  EXPECT_EQ(accessB->leadingBytes, 64 * 128);
  EXPECT_EQ(accessB->strideBytes, 1024);
  // k = 16: two 8-row groups on; n = 128: two chunks on.
  EXPECT_EQ(getWgmmaTileByteOffset(b, {64, 256}, 16, 0), 2048);
  EXPECT_EQ(getWgmmaTileByteOffset(b, {64, 256}, 16, 128), 2 * 64 * 128 + 2048);
  uint64_t base = accessB->getDescriptorBase();
  EXPECT_EQ(base & 0x3FFF, 0u);
  EXPECT_EQ((base >> 16) & 0x3FFF, uint64_t(64 * 128 / 16));
  // B 64x128 K-contiguous (order [0, 1], a column-major B): K-major.
  auto bk = getWgmmaOperandSharedEncoding({64, 128}, elementType(16), {0, 1});
  auto accessBk = getWgmmaOperandAccess(bk, {64, 128}, 1);
  ASSERT_TRUE(accessBk);
  EXPECT_FALSE(accessBk->transposed);
  // tf32 MN-major: wgmma transposes 16-bit types only.
  auto bf32 = getWgmmaOperandSharedEncoding({32, 128}, elementType(32), {1, 0});
  EXPECT_FALSE(getWgmmaOperandAccess(bf32, {32, 128}, 1));
}

} // namespace
