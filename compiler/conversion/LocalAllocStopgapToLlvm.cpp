//===- LocalAllocStopgapToLlvm.cpp - TEMPORARY local_alloc / local_load ---===//
//
// STOPGAP for the mma branch only, so that matmuls compile end to end
// before the generic local_* lowering of the "smem" work is merged: delete
// this file (and its populate call) when that lands; it has the lowest
// benefit, so the generic pattern wins anyway.
//
// local_alloc %src: each thread stores every register it owns (scalar
// st.shared, no vectorization) at the offset the shared layout gives its
// element (distributed layout composed with the inverse shared layout),
// between two barriers (membar does not exist yet: the first orders the
// store after earlier readers of the buffer, the second before its
// readers). Without the allocation pass (no tkgpu.offset), buffers are
// placed one after the other, so that a dot's two operands do not overlap.
//
//===----------------------------------------------------------------------===//
#include "compiler/conversion/PatternSets.h"

#include "dialects/tkgpu/TkgpuDialect.h"

#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

struct LocalAllocStopgapConversion
    : public OpConversionPattern<LocalAllocOp> {
  LocalAllocStopgapConversion(TkgpuToLlvmTypeConverter &converter,
                              LoweringState &state)
      : OpConversionPattern(converter, &converter.getContext(),
                            /*benefit=*/0),
        state(state) {}

  LogicalResult
  matchAndRewrite(LocalAllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getSrc())
      return op.emitError("local_alloc without a source is not lowered yet");
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    LinearLayout shared = toLinearLayout(op.getType());
    if (!shared.isInvertible())
      return op.emitError("local_alloc: shared layout is not invertible");
    LinearLayout regToOffset =
        getDistributedLayout(srcType).compose(shared.invert());
    Value base = getSharedMemoryBase(rewriter, loc, state.module);
    auto ptrType = LLVM::LLVMPointerType::get(getContext(), 3);
    int64_t offset = getAllocatedOffset(op, kSharedOffsetAttr);
    if (!op->hasAttr(kSharedOffsetAttr)) {
      offset = nextOffset;
      nextOffset += llvm::alignTo(getSizeInBytes(op.getType()), 16);
    }
    if (offset != 0)
      base = LLVM::GEPOp::create(rewriter, loc, ptrType, rewriter.getI8Type(),
                                 base,
                                 ArrayRef<LLVM::GEPArg>{int32_t(offset)});
    Type element = getMemoryElementType(srcType.getElementType());
    Type llvmElement = getTypeConverter()->convertType(element);
    auto [lane, warp] = getLaneAndWarp(rewriter, loc, state.threadsPerWarp);
    SmallVector<SmallVector<Value>> offsets =
        emitIndices(rewriter, loc, regToOffset, lane, warp);
    SmallVector<Value> values = unpackValues(rewriter, loc, adaptor.getSrc());
    createBarrier(rewriter, loc);
    for (auto [i, value] : llvm::enumerate(values)) {
      if (isDuplicateRegister(regToOffset, int32_t(i)))
        continue;
      Value v = value;
      if (v.getType() != llvmElement)
        v = LLVM::ZExtOp::create(rewriter, loc, llvmElement, v);
      Value ptr = LLVM::GEPOp::create(rewriter, loc, ptrType, llvmElement,
                                      base, ArrayRef<LLVM::GEPArg>{offsets[i][0]});
      LLVM::StoreOp::create(rewriter, loc, v, ptr);
    }
    createBarrier(rewriter, loc);
    state.requireSharedBytes(offset + getSizeInBytes(op.getType()));
    rewriter.replaceOp(op, base);
    return success();
  }

  LoweringState &state;
  mutable int64_t nextOffset = 0;
};

struct LocalLoadStopgapConversion : public OpConversionPattern<LocalLoadOp> {
  LocalLoadStopgapConversion(TkgpuToLlvmTypeConverter &converter,
                             LoweringState &state)
      : OpConversionPattern(converter, &converter.getContext(),
                            /*benefit=*/0),
        state(state) {}

  LogicalResult
  matchAndRewrite(LocalLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    LinearLayout shared = toLinearLayout(op.getBuffer().getType());
    if (!shared.isInvertible())
      return op.emitError("local_load: shared layout is not invertible");
    LinearLayout regToOffset =
        getDistributedLayout(type).compose(shared.invert());
    auto ptrType = LLVM::LLVMPointerType::get(getContext(), 3);
    Type element = getMemoryElementType(type.getElementType());
    Type llvmElement = getTypeConverter()->convertType(element);
    Type resultElement = getTypeConverter()->convertType(type.getElementType());
    auto [lane, warp] = getLaneAndWarp(rewriter, loc, state.threadsPerWarp);
    SmallVector<SmallVector<Value>> offsets =
        emitIndices(rewriter, loc, regToOffset, lane, warp);
    SmallVector<Value> values;
    for (auto &offset : offsets) {
      Value ptr = LLVM::GEPOp::create(rewriter, loc, ptrType, llvmElement,
                                      adaptor.getBuffer(),
                                      ArrayRef<LLVM::GEPArg>{offset[0]});
      Value v = LLVM::LoadOp::create(rewriter, loc, llvmElement, ptr);
      if (resultElement != llvmElement)
        v = LLVM::TruncOp::create(rewriter, loc, resultElement, v);
      values.push_back(v);
    }
    rewriter.replaceOp(op, packValues(rewriter, loc,
                                      getTypeConverter()->convertType(type),
                                      values));
    return success();
  }

  LoweringState &state;
};

} // namespace

void tkgpu::populateLocalAllocStopgapToLlvmPatterns(
    TkgpuToLlvmTypeConverter &converter, LoweringState &state,
    RewritePatternSet &patterns) {
  patterns.add<LocalAllocStopgapConversion, LocalLoadStopgapConversion>(
      converter, state);
}
