//===- SharedOffsetTest.cpp - shared offset layouts of the lowering -------===//
//
// The pure parts of the register <-> shared-memory routine: strided views
// as linear layouts, padded views as affine terms, swizzled buffers
// inverted, and the vector width (contiguous and aligned runs of
// registers) that one ld.shared/st.shared/cp.async may move.
//
//===----------------------------------------------------------------------===//
#include "compiler/conversion/LoweringUtils.h"
#include "dialects/tkgpu/TkgpuDialect.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

class SharedOffsetTest : public ::testing::Test {
protected:
  SharedOffsetTest() { ctx.getOrLoadDialect<TkgpuDialect>(); }

  LinearLayout blocked(ArrayRef<unsigned> sizePerThread,
                       ArrayRef<unsigned> threadsPerWarp,
                       ArrayRef<unsigned> warpsPerCTA,
                       ArrayRef<unsigned> order, ArrayRef<int64_t> shape) {
    return BlockedEncodingAttr::get(&ctx, sizePerThread, threadsPerWarp,
                                    warpsPerCTA, order)
        .toLinearLayout(shape);
  }
  LinearLayout shared(unsigned vec, unsigned perPhase, unsigned maxPhase,
                      ArrayRef<unsigned> order, ArrayRef<int64_t> shape) {
    return SharedEncodingAttr::get(&ctx, vec, perPhase, maxPhase, order)
        .toLinearLayout(shape);
  }

  MLIRContext ctx;
};

/// The element offset of (reg, lane, warp) of `layout` through `offsets`.
int64_t offsetOf(const LinearLayout &layout, const SharedOffsetLayout &offsets,
                 int32_t reg, int32_t lane, int32_t warp) {
  int64_t total = 0;
  for (const SharedOffsetLayout::Term &term : offsets.terms)
    total += term.scale * layout.compose(term.layout)
                              .apply({{kRegister, reg},
                                      {kLane, lane},
                                      {kWarp, warp}})[0];
  return total;
}

TEST_F(SharedOffsetTest, StridedLayoutIsLinearForPowerOfTwoStrides) {
  // Row-major 4x8: dim1 bits -> 1, 2, 4; dim0 bits -> 8, 16.
  std::optional<LinearLayout> ll = getStridedLayout({4, 8}, {8, 1});
  ASSERT_TRUE(ll.has_value());
  EXPECT_EQ(ll->getOutDimSize(kOffset), 32);
  EXPECT_EQ(ll->apply({{"dim0", 3}, {"dim1", 5}})[0], 3 * 8 + 5);
  // A broadcast dimension (stride 0) maps to 0.
  std::optional<LinearLayout> bcast = getStridedLayout({4, 8}, {0, 1});
  ASSERT_TRUE(bcast.has_value());
  EXPECT_EQ(bcast->apply({{"dim0", 3}, {"dim1", 5}})[0], 5);
  // Padded rows (8 + 4) and overlapping bits are not linear over GF(2).
  EXPECT_FALSE(getStridedLayout({4, 8}, {12, 1}).has_value());
  EXPECT_FALSE(getStridedLayout({4, 8}, {4, 1}).has_value());
}

TEST_F(SharedOffsetTest, PaddedViewKeepsExactAffineTerms) {
  // 16x32 f32 rows padded by 4: offset = 36 * row + col.
  SharedView view = SharedView::rowMajor({16, 32}, 4);
  SharedOffsetLayout offsets = SharedOffsetLayout::get({16, 32}, view);
  ASSERT_EQ(offsets.terms.size(), 2u);
  LinearLayout layout = blocked({1, 4}, {4, 8}, {4, 1}, {1, 0}, {16, 32});
  for (int32_t reg = 0; reg < layout.getInDimSize(kRegister); ++reg)
    for (int32_t lane = 0; lane < 32; ++lane)
      for (int32_t warp = 0; warp < 4; ++warp) {
        std::vector<int32_t> index = layout.applyDistributed(reg, lane, warp);
        ASSERT_EQ(offsetOf(layout, offsets, reg, lane, warp),
                  36 * index[0] + index[1]);
      }
  // 4 floats per thread, and a row stride of 36 keeps them 16-byte
  // aligned.
  EXPECT_EQ(getSharedVectorWidth(layout, offsets, 4, 16), 4);
  // A stride of 34 (padding 2) only keeps 8 bytes aligned.
  SharedOffsetLayout odd =
      SharedOffsetLayout::get({16, 32}, SharedView::rowMajor({16, 32}, 2));
  EXPECT_EQ(getSharedVectorWidth(layout, odd, 4, 16), 2);
  // So does a base aligned to 8 bytes only.
  EXPECT_EQ(getSharedVectorWidth(layout, offsets, 4, 8), 2);
}

TEST_F(SharedOffsetTest, SwizzledBufferInverts) {
  // 64x64 f16, vec 8: element (r, c) at r * 64 + (c ^ (r % 8) * 8).
  LinearLayout buffer = shared(8, 1, 8, {1, 0}, {64, 64});
  SharedOffsetLayout offsets = SharedOffsetLayout::get(buffer);
  ASSERT_EQ(offsets.terms.size(), 1u);
  LinearLayout layout = blocked({1, 8}, {8, 4}, {4, 1}, {1, 0}, {64, 64});
  for (int32_t reg = 0; reg < 32; ++reg)
    for (int32_t lane = 0; lane < 32; ++lane)
      for (int32_t warp = 0; warp < 4; ++warp) {
        std::vector<int32_t> index = layout.applyDistributed(reg, lane, warp);
        ASSERT_EQ(offsetOf(layout, offsets, reg, lane, warp),
                  index[0] * 64 + (index[1] ^ ((index[0] % 8) * 8)));
      }
  // The swizzle moves whole 8-element vectors: 16 bytes.
  EXPECT_EQ(getSharedVectorWidth(layout, offsets, 2, 16), 8);
  // A swizzle of 4-element vectors halves it.
  EXPECT_EQ(getSharedVectorWidth(
                layout,
                SharedOffsetLayout::get(shared(4, 1, 8, {1, 0}, {64, 64})),
                2, 16),
            4);
  // A column-major buffer: registers are not contiguous in it.
  EXPECT_EQ(getSharedVectorWidth(
                layout,
                SharedOffsetLayout::get(shared(1, 1, 1, {0, 1}, {64, 64})),
                2, 16),
            1);
}

TEST_F(SharedOffsetTest, ContiguousAlignedRegisters) {
  // Registers 0-3 hold offsets 0-3, lanes move by 4: aligned runs of 4.
  LinearLayout aligned({{kRegister, {{1}, {2}}}, {kLane, {{4}, {8}}}},
                       {{kOffset, 16}});
  EXPECT_EQ(getNumContiguousAlignedRegisters(aligned, kOffset), 4);
  // Lanes moving by 2 leave runs of 2 aligned.
  LinearLayout halves({{kRegister, {{1}, {2}}}, {kLane, {{2}, {8}}}},
                      {{kOffset, 16}});
  EXPECT_EQ(getNumContiguousAlignedRegisters(halves, kOffset), 2);
  // A higher register bit moving by 1 as well breaks the run to 1.
  LinearLayout odd({{kRegister, {{1}, {2}, {1}}}}, {{kOffset, 16}});
  EXPECT_EQ(getNumContiguousAlignedRegisters(odd, kOffset), 1);
  // Register bit 0 not moving by 1: no vector.
  LinearLayout strided({{kRegister, {{2}, {1}}}}, {{kOffset, 4}});
  EXPECT_EQ(getNumContiguousAlignedRegisters(strided, kOffset), 1);
}

} // namespace
