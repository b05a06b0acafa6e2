//===- LinearLayoutTest.cpp - linear layouts and the tkgpu encodings ------===//
//
// Concrete mappings: which (register, lane, warp) holds which element for
// blocked, slice and shared encodings, broadcasting on small tensors, and
// the algebra (product, compose, invert, invertAndCompose) codegen relies on.
//
//===----------------------------------------------------------------------===//
#include "dialects/tkgpu/LinearLayout.h"
#include "dialects/tkgpu/TkgpuDialect.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

class LayoutTest : public ::testing::Test {
protected:
  LayoutTest() { ctx.getOrLoadDialect<TkgpuDialect>(); }

  BlockedEncodingAttr blocked(ArrayRef<unsigned> sizePerThread,
                              ArrayRef<unsigned> threadsPerWarp,
                              ArrayRef<unsigned> warpsPerCTA,
                              ArrayRef<unsigned> order) {
    return BlockedEncodingAttr::get(&ctx, sizePerThread, threadsPerWarp,
                                    warpsPerCTA, order);
  }

  MLIRContext ctx;
};

using Coords = std::vector<int32_t>;

TEST_F(LayoutTest, Blocked1DExactTile) {
  // The CTA tile is 4 * 32 * 4 = 512 elements.
  auto enc = blocked({4}, {32}, {4}, {0});
  LinearLayout ll = enc.toLinearLayout({512});
  EXPECT_EQ(ll.getInDimSize(kRegister), 4);
  EXPECT_EQ(ll.getInDimSize(kLane), 32);
  EXPECT_EQ(ll.getInDimSize(kWarp), 4);
  EXPECT_EQ(ll.getOutDimSize("dim0"), 512);
  for (int32_t w = 0; w < 4; ++w)
    for (int32_t l = 0; l < 32; ++l)
      for (int32_t r = 0; r < 4; ++r)
        ASSERT_EQ(ll.applyDistributed(r, l, w), Coords{w * 128 + l * 4 + r});
  EXPECT_TRUE(ll.isInvertible());
  EXPECT_EQ(ll.getNumConsecutiveInOut(), 4);
  EXPECT_EQ(enc.getTotalElemsPerThread({512}), 4);
}

TEST_F(LayoutTest, Blocked1DRepeatsInRegisters) {
  auto enc = blocked({4}, {32}, {4}, {0});
  // tensor<1024>: registers r < 4 as in one tile, the extra register bit
  // steps over one whole tile (+512).
  LinearLayout ll = enc.toLinearLayout({1024});
  EXPECT_EQ(ll.getInDimSize(kRegister), 8);
  EXPECT_EQ(ll.getBasis(kRegister, 2), Coords{512});
  for (int32_t w = 0; w < 4; ++w)
    for (int32_t l = 0; l < 32; ++l)
      for (int32_t r = 0; r < 8; ++r)
        ASSERT_EQ(ll.applyDistributed(r, l, w),
                  Coords{(r / 4) * 512 + w * 128 + l * 4 + r % 4});
  // Vector width stays 4: registers 4..7 are not next to 0..3.
  EXPECT_EQ(ll.getNumConsecutiveInOut(), 4);
  EXPECT_EQ(enc.getTotalElemsPerThread({1024}), 8);
  // tensor<2048>: two extra register bits, +512 and +1024.
  LinearLayout big = enc.toLinearLayout({2048});
  EXPECT_EQ(big.getInDimSize(kRegister), 16);
  EXPECT_EQ(big.getBasis(kRegister, 2), Coords{512});
  EXPECT_EQ(big.getBasis(kRegister, 3), Coords{1024});
}

TEST_F(LayoutTest, Blocked1DBroadcastsOnSmallTensors) {
  auto enc = blocked({4}, {32}, {4}, {0});
  // 256 elements on a 512-element tile: the high warp bit replicates.
  LinearLayout ll = enc.toLinearLayout({256});
  EXPECT_EQ(ll.getInDimSize(kRegister), 4);
  EXPECT_EQ(ll.getBasis(kWarp, 0), Coords{128});
  EXPECT_EQ(ll.getBasis(kWarp, 1), Coords{0});
  EXPECT_EQ(ll.applyDistributed(1, 3, 2), ll.applyDistributed(1, 3, 0));
  auto free = ll.getFreeVariableMasks();
  EXPECT_EQ(free[kRegister], 0);
  EXPECT_EQ(free[kLane], 0);
  EXPECT_EQ(free[kWarp], 0b10);
  EXPECT_FALSE(ll.isInjective());
  EXPECT_TRUE(ll.isSurjective());

  // 2 elements: registers that would repeat data are dropped; every lane
  // but the first and every warp replicate.
  LinearLayout tiny = enc.toLinearLayout({2});
  EXPECT_EQ(tiny.getInDimSize(kRegister), 2);
  auto tinyFree = tiny.getFreeVariableMasks();
  EXPECT_EQ(tinyFree[kRegister], 0);
  EXPECT_EQ(tinyFree[kLane], 0b11111);
  EXPECT_EQ(tinyFree[kWarp], 0b11);
  EXPECT_EQ(tiny.applyDistributed(1, 17, 3), Coords{1});
  EXPECT_EQ(enc.getTotalElemsPerThread({2}), 2);
}

TEST_F(LayoutTest, Blocked2DRowMajor) {
  // 4x8 lanes, 4 warps stacked along rows; tile 16x32; tensor 64x32.
  auto enc = blocked({1, 4}, {4, 8}, {4, 1}, {1, 0});
  LinearLayout ll = enc.toLinearLayout({64, 32});
  EXPECT_EQ(ll.getInDimSize(kRegister), 16);
  for (int32_t w = 0; w < 4; ++w)
    for (int32_t l = 0; l < 32; ++l)
      for (int32_t r = 0; r < 16; ++r) {
        int32_t row = (r / 4) * 16 + w * 4 + l / 8;
        int32_t col = (l % 8) * 4 + r % 4;
        ASSERT_EQ(ll.applyDistributed(r, l, w), (Coords{row, col}))
            << "r=" << r << " l=" << l << " w=" << w;
      }
  EXPECT_EQ(ll.getNumContiguousRegisters("dim1"), 4);
  EXPECT_EQ(ll.getNumContiguousRegisters("dim0"), 1);
  EXPECT_EQ(ll.getNumConsecutiveInOut(), 4);
  EXPECT_TRUE(ll.isInvertible());
}

TEST_F(LayoutTest, BlockedColumnMajorOrder) {
  // order = [0, 1]: dimension 0 varies fastest.
  auto enc = blocked({2, 1}, {16, 2}, {1, 4}, {0, 1});
  LinearLayout ll = enc.toLinearLayout({32, 8});
  for (int32_t w = 0; w < 4; ++w)
    for (int32_t l = 0; l < 32; ++l)
      for (int32_t r = 0; r < 2; ++r)
        ASSERT_EQ(ll.applyDistributed(r, l, w),
                  (Coords{(l % 16) * 2 + r, w * 2 + l / 16}));
  EXPECT_EQ(ll.getNumContiguousRegisters("dim0"), 2);
}

TEST_F(LayoutTest, SliceDropsADimension) {
  auto parent = blocked({1, 4}, {4, 8}, {4, 1}, {1, 0});
  // Reduce along dim 1 (columns): rows remain; the 8 lanes along columns
  // hold the same row.
  auto rows = SliceEncodingAttr::get(1, parent);
  LinearLayout ll = rows.toLinearLayout({64});
  EXPECT_EQ(ll.getNumOutDims(), 1u);
  EXPECT_EQ(ll.getInDimSize(kRegister), 4);
  for (int32_t w = 0; w < 4; ++w)
    for (int32_t l = 0; l < 32; ++l)
      for (int32_t r = 0; r < 4; ++r)
        ASSERT_EQ(ll.applyDistributed(r, l, w),
                  Coords{r * 16 + w * 4 + l / 8});
  EXPECT_EQ(ll.getFreeVariableMasks()[kLane], 0b111);
  EXPECT_EQ(rows.getTotalElemsPerThread({64}), 4);
  EXPECT_EQ(rows.getLayoutOrder(), SmallVector<unsigned>{0});

  // Reduce along dim 0: columns remain, held by the column lanes.
  auto cols = SliceEncodingAttr::get(0, parent);
  LinearLayout colLL = cols.toLinearLayout({32});
  EXPECT_EQ(colLL.getInDimSize(kRegister), 4);
  for (int32_t l = 0; l < 32; ++l)
    for (int32_t r = 0; r < 4; ++r)
      ASSERT_EQ(colLL.applyDistributed(r, l, 3), Coords{(l % 8) * 4 + r});
  EXPECT_EQ(colLL.getFreeVariableMasks()[kLane], 0b11000);
  EXPECT_EQ(colLL.getFreeVariableMasks()[kWarp], 0b11);
}

TEST_F(LayoutTest, SharedSwizzle) {
  // 64x64 f16, 8-element vectors XORed with the row index mod 8.
  auto enc = SharedEncodingAttr::get(&ctx, 8, 1, 8, {1, 0});
  LinearLayout ll = enc.toLinearLayout({64, 64});
  EXPECT_EQ(ll.getInDimSize(kOffset), 4096);
  EXPECT_TRUE(ll.isInvertible());
  for (int32_t offset = 0; offset < 4096; ++offset) {
    int32_t row = offset / 64;
    int32_t col = (offset % 64) ^ ((row % 8) * 8);
    ASSERT_EQ(ll.apply({{kOffset, offset}}), (Coords{row, col}));
  }
  // perPhase 2: two rows share a phase.
  auto enc2 = SharedEncodingAttr::get(&ctx, 4, 2, 4, {1, 0});
  LinearLayout ll2 = enc2.toLinearLayout({16, 32});
  for (int32_t offset = 0; offset < 512; ++offset) {
    int32_t row = offset / 32;
    int32_t col = (offset % 32) ^ (((row / 2) % 4) * 4);
    ASSERT_EQ(ll2.apply({{kOffset, offset}}), (Coords{row, col}));
  }
  EXPECT_EQ(enc.getTotalElemsPerThread({64, 64}), 0);
}

TEST_F(LayoutTest, InvertAndComposeFindsTheDestinationThread) {
  // Converting spt=1 to spt=4 on 1024 elements: for each source (r, l, w),
  // the destination (r', l', w') holding the same element.
  LinearLayout src = blocked({1}, {32}, {4}, {0}).toLinearLayout({1024});
  LinearLayout dst = blocked({4}, {32}, {4}, {0}).toLinearLayout({1024});
  LinearLayout conversion = src.invertAndCompose(dst);
  EXPECT_EQ(conversion.getOutDimNames(),
            (std::vector<std::string>{kRegister, kLane, kWarp}));
  for (int32_t w = 0; w < 4; ++w)
    for (int32_t l = 0; l < 32; ++l)
      for (int32_t r = 0; r < 8; ++r) {
        auto to = conversion.applyDistributed(r, l, w);
        ASSERT_EQ(dst.applyDistributed(to[0], to[1], to[2]),
                  src.applyDistributed(r, l, w));
      }
  // Same layout: the identity.
  LinearLayout self = dst.invertAndCompose(dst);
  for (int32_t r = 0; r < 8; ++r)
    EXPECT_EQ(self.applyDistributed(r, 5, 1), (Coords{r, 5, 1}));

  // Into a broadcast destination (64 elements on 128 threads): the copy
  // with the free bits 0 is chosen.
  LinearLayout small = blocked({1}, {32}, {4}, {0}).toLinearLayout({64});
  LinearLayout packed = blocked({2}, {32}, {1}, {0}).toLinearLayout({64});
  LinearLayout toSmall = packed.invertAndCompose(small);
  for (int32_t l = 0; l < 32; ++l)
    for (int32_t r = 0; r < 2; ++r) {
      auto to = toSmall.applyDistributed(r, l, 0);
      EXPECT_EQ(to[2] & 0b10, 0); // the broadcast warp bit
      EXPECT_EQ(small.applyDistributed(to[0], to[1], to[2]),
                packed.applyDistributed(r, l, 0));
    }
}

TEST_F(LayoutTest, InvertAndCompose) {
  LinearLayout ll = blocked({1, 4}, {4, 8}, {4, 1}, {1, 0}).toLinearLayout({64, 32});
  LinearLayout inverse = ll.invert();
  EXPECT_EQ(inverse.getInDimNames(), (std::vector<std::string>{"dim0", "dim1"}));
  for (int32_t row = 0; row < 64; ++row)
    for (int32_t col = 0; col < 32; ++col) {
      auto where = inverse.apply({{"dim0", row}, {"dim1", col}});
      ASSERT_EQ(ll.applyDistributed(where[0], where[1], where[2]),
                (Coords{row, col}));
    }
  // ll ∘ ll^-1 is the identity on the tensor.
  LinearLayout roundTrip = inverse.compose(ll);
  for (int32_t row = 0; row < 64; row += 7)
    EXPECT_EQ(roundTrip.apply({{"dim0", row}, {"dim1", 5}}), (Coords{row, 5}));
}

TEST_F(LayoutTest, ProductAndReshape) {
  LinearLayout a = LinearLayout::identity1D(4, kRegister, "dim0");
  LinearLayout b = LinearLayout::identity1D(8, kLane, "dim0");
  LinearLayout ab = a * b;
  EXPECT_EQ(ab.getOutDimSize("dim0"), 32);
  EXPECT_EQ(ab.apply({{kRegister, 3}, {kLane, 5}}), Coords{5 * 4 + 3});
  LinearLayout withZeros = ab * LinearLayout::zeros1D(2, kWarp, "dim0");
  EXPECT_EQ(withZeros.getFreeVariableMasks()[kWarp], 1);

  // Row-major flatten and reshape of a 2-D layout.
  LinearLayout ll = blocked({1, 4}, {4, 8}, {4, 1}, {1, 0}).toLinearLayout({16, 32});
  LinearLayout flat = ll.flattenOuts();
  LinearLayout reshaped = ll.reshapeOuts({{"dim0", 8}, {"dim1", 64}});
  for (int32_t l = 0; l < 32; ++l)
    for (int32_t r = 0; r < 4; ++r) {
      auto rc = ll.applyDistributed(r, l, 2);
      auto f = flat.applyDistributed(r, l, 2);
      EXPECT_EQ(f[0], rc[0] * 32 + rc[1]);
      auto rs = reshaped.applyDistributed(r, l, 2);
      EXPECT_EQ(rs[0] * 64 + rs[1], f[0]);
    }
  // Dependent (not just zero) bases are free too.
  LinearLayout dependent({{kLane, {{1}, {2}, {3}}}}, {{"dim0", 4}});
  EXPECT_EQ(dependent.getFreeVariableMasks()[kLane], 0b100);
}

TEST_F(LayoutTest, EqualityAndEquivalence) {
  auto a = blocked({4}, {32}, {4}, {0});
  EXPECT_EQ(a.toLinearLayout({1024}), blocked({4}, {32}, {4}, {0}).toLinearLayout({1024}));
  EXPECT_NE(a.toLinearLayout({1024}), blocked({1}, {32}, {4}, {0}).toLinearLayout({1024}));
  // A slice of a 2-D layout whose dropped dimension has one thread equals a
  // 1-D blocked layout.
  auto parent = blocked({1, 1}, {32, 1}, {4, 1}, {0, 1});
  auto slice = SliceEncodingAttr::get(1, parent);
  auto flat = blocked({1}, {32}, {4}, {0});
  EXPECT_TRUE(areLayoutsEquivalent({128}, slice, flat));
  EXPECT_FALSE(areLayoutsEquivalent({128}, slice, a));
}

TEST_F(LayoutTest, DefaultBlockedEncoding) {
  auto d1 = getDefaultBlockedEncoding(&ctx, {1024}, 4, 32);
  EXPECT_EQ(d1, blocked({1}, {32}, {4}, {0}));
  auto d2 = getDefaultBlockedEncoding(&ctx, {64, 64}, 4, 32);
  EXPECT_EQ(d2, blocked({1, 1}, {1, 32}, {2, 2}, {1, 0}));
  // Few columns: the remaining lanes go to the rows.
  auto d3 = getDefaultBlockedEncoding(&ctx, {128, 8}, 8, 32);
  EXPECT_EQ(d3, blocked({1, 1}, {4, 8}, {8, 1}, {1, 0}));
  // A tensor smaller than the CTA: leftovers replicate on the slowest dim.
  auto d4 = getDefaultBlockedEncoding(&ctx, {16}, 4, 32);
  EXPECT_EQ(d4, blocked({1}, {32}, {4}, {0}));
  auto d5 = getDefaultBlockedEncoding(&ctx, {1024}, 4, 32, {4});
  EXPECT_EQ(d5, blocked({4}, {32}, {4}, {0}));
}

} // namespace
