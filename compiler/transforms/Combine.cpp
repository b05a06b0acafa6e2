//===- Combine.cpp - algebraic rewrites on tk ops -------------------------===//
#include "compiler/transforms/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tk {
#define GEN_PASS_DEF_TKCOMBINE
#include "compiler/transforms/Passes.h.inc"
} // namespace mlir::tk

using namespace mlir;
using namespace mlir::tk;

namespace {

/// addptr(addptr(p, a), b) -> addptr(p, a + b): one address computation
/// instead of two, and the axis analysis sees a single offset expression.
struct FoldNestedAddPtr : OpRewritePattern<AddPtrOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AddPtrOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getPtr().getDefiningOp<AddPtrOp>();
    if (!inner || inner.getOffset().getType() != op.getOffset().getType())
      return failure();
    Value sum = arith::AddIOp::create(rewriter, op.getLoc(), inner.getOffset(),
                                      op.getOffset());
    rewriter.replaceOpWithNewOp<AddPtrOp>(op, inner.getPtr(), sum);
    return success();
  }
};

/// broadcast(splat(x)) -> splat(x).
struct FoldBroadcastOfSplat : OpRewritePattern<BroadcastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BroadcastOp op,
                                PatternRewriter &rewriter) const override {
    auto splat = op.getSrc().getDefiningOp<SplatOp>();
    if (!splat)
      return failure();
    rewriter.replaceOpWithNewOp<SplatOp>(op, op.getType(), splat.getSrc());
    return success();
  }
};

/// select(m, load(p, mask=m), o) -> load(p, mask=m, other=o): the masked
/// lanes of the load take `o` directly.
struct FoldSelectOfMaskedLoad : OpRewritePattern<arith::SelectOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::SelectOp op,
                                PatternRewriter &rewriter) const override {
    auto load = op.getTrueValue().getDefiningOp<LoadOp>();
    if (!load || !load.getMask() || load.getMask() != op.getCondition() ||
        !load->hasOneUse() || load.getIsVolatile())
      return failure();
    rewriter.replaceOpWithNewOp<LoadOp>(op, load.getPtr(), load.getMask(),
                                        op.getFalseValue());
    return success();
  }
};

bool isZeroTensor(Value v) {
  return matchPattern(v, m_AnyZeroFloat()) || matchPattern(v, m_Zero());
}

/// dot(a, b, 0) + c -> dot(a, b, c): the add happens in the accumulator.
template <typename AddOp>
struct FoldAddIntoDot : OpRewritePattern<AddOp> {
  using OpRewritePattern<AddOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(AddOp op,
                                PatternRewriter &rewriter) const override {
    for (int i = 0; i < 2; ++i) {
      auto dot = op->getOperand(i).template getDefiningOp<DotOp>();
      if (!dot || !dot->hasOneUse() || !isZeroTensor(dot.getC()))
        continue;
      rewriter.replaceOpWithNewOp<DotOp>(op, dot.getType(), dot.getA(),
                                         dot.getB(), op->getOperand(1 - i),
                                         dot.getPrecision());
      return success();
    }
    return failure();
  }
};

struct TkCombinePass : mlir::tk::impl::TkCombineBase<TkCombinePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldNestedAddPtr, FoldBroadcastOfSplat,
                 FoldSelectOfMaskedLoad, FoldAddIntoDot<arith::AddFOp>,
                 FoldAddIntoDot<arith::AddIOp>>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
