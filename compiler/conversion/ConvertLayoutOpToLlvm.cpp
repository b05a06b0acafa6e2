//===- ConvertLayoutOpToLlvm.cpp - tkgpu.convert_layout -------------------===//
//
// Both layouts are LinearLayouts, so one mechanism serves every pair:
// nothing when they are equal, a register permutation when each thread
// already holds the elements it needs, else a round trip through shared
// memory at the op's scratch offset (store in the source layout; barrier;
// load in the destination layout; tkgpu-membar synchronizes with earlier
// accesses), row-major with rows padded by one 16-byte vector so
// that column-wise accesses spread over the banks, and vectorized where
// registers are contiguous.
//
//===----------------------------------------------------------------------===//
#include "compiler/conversion/PatternSets.h"

#include "dialects/tkgpu/TkgpuDialect.h"

#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

struct ConvertLayoutConversion : public OpConversionPattern<ConvertLayoutOp> {
  ConvertLayoutConversion(TkgpuToLlvmTypeConverter &converter,
                          LoweringState &state)
      : OpConversionPattern(converter, &converter.getContext()),
        state(state) {}

  LogicalResult
  matchAndRewrite(ConvertLayoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    Type elementType = srcType.getElementType();
    SmallVector<Value> values = unpackValues(rewriter, loc, adaptor.getSrc());
    bool isPointer = isa<tk::PtrType>(elementType);
    if (isPointer) {
      // Pointers travel as i64.
      for (Value &v : values)
        v = LLVM::PtrToIntOp::create(rewriter, loc, rewriter.getI64Type(), v);
      elementType = rewriter.getI64Type();
    }
    SmallVector<Value> results = convertDistributed(
        rewriter, loc, state, values, getDistributedLayout(srcType),
        getDistributedLayout(dstType), srcType.getShape(), elementType,
        getAllocatedOffset(op, kScratchOffsetAttr));
    if (isPointer) {
      auto ptrType = LLVM::LLVMPointerType::get(getContext(), 1);
      for (Value &v : results)
        v = LLVM::IntToPtrOp::create(rewriter, loc, ptrType, v);
    }
    rewriter.replaceOp(op, packValues(rewriter, loc,
                                      getTypeConverter()->convertType(dstType),
                                      results));
    return success();
  }

  LoweringState &state;
};

} // namespace

void tkgpu::populateConvertLayoutOpToLlvmPatterns(
    TkgpuToLlvmTypeConverter &converter, LoweringState &state,
    RewritePatternSet &patterns) {
  patterns.add<ConvertLayoutConversion>(converter, state);
}
