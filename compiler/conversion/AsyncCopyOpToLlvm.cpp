//===- AsyncCopyOpToLlvm.cpp - cp.async -----------------------------------===//
//
// async_copy_global_to_local -> nvvm.cp.async.shared.global, one per run of
// registers of the pointer layout that is contiguous and aligned both in
// global memory (AxisInfo: contiguity, divisibility and mask constancy, as
// for tk.load; computed before the conversion) and in the buffer (the
// shared layout composed with the pointer layout, as local_store does; a
// swizzle keeps `vec` elements together). A copy moves 4, 8 or 16 bytes:
// 16-byte copies bypass L1 (`.cg`, the only modifier PTX allows there and
// what a tile staged in shared memory wants), smaller ones use `.ca`. A
// masked element copies 0 source bytes (the cpSize operand), which makes
// cp.async fill the destination with zeros: `other` must therefore be
// absent or zero. Registers repeating others are skipped, and threads that
// hold the same data as another thread copy nothing, so every byte of the
// buffer has one writer.
//
// async_commit_group -> nvvm.cp.async.commit.group, async_wait {num} ->
// nvvm.cp.async.wait.group num. None of them synchronizes the CTA: other
// threads see the copies after the barrier tkgpu-membar places after the
// wait.
//
//===----------------------------------------------------------------------===//
#include "compiler/conversion/PatternSets.h"

#include "dialects/tkgpu/TkgpuDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tkgpu;

/// Elements per cp.async of `op`: the AxisInfo width (`globalWidth`) and
/// the shared-memory vector width, both powers of two under which every
/// smaller power of two is valid too, so their minimum is.
static int32_t getCopyWidth(AsyncCopyGlobalToLocalOp op, unsigned globalWidth) {
  MemDescType bufferType = op.getBuffer().getType();
  unsigned elementBytes = getMemoryBitWidth(bufferType.getElementType()) / 8;
  int32_t sharedWidth = getSharedVectorWidth(
      getDistributedLayout(op.getPtr().getType()),
      getSharedOffsetLayout(bufferType), elementBytes,
      getBufferAlignment(op.getBuffer()));
  return std::min<int32_t>(std::max(1u, globalWidth), sharedWidth);
}

LogicalResult tkgpu::prepareAsyncCopies(ModuleOp module,
                                        LoweringState &state) {
  WalkResult result = module.walk([&](AsyncCopyGlobalToLocalOp op) {
    if (!isZeroFill(op.getOther())) {
      op.emitError("async_copy_global_to_local: `other` must be absent or a "
                   "zero constant (cp.async fills masked elements with "
                   "zeros)");
      return WalkResult::interrupt();
    }
    MemDescType bufferType = op.getBuffer().getType();
    unsigned elementBytes = getMemoryBitWidth(bufferType.getElementType()) / 8;
    int32_t width = getCopyWidth(op, state.vectorWidths.lookup(op));
    int64_t bytes = int64_t(width) * elementBytes;
    if (bytes < 4) {
      op.emitError("async_copy_global_to_local: each thread has only ")
          << width << " contiguous, aligned element(s) of " << elementBytes
          << " byte(s) (in global memory and in the buffer's layout "
          << bufferType.getEncoding()
          << "); cp.async copies 4, 8 or 16 bytes";
      return WalkResult::interrupt();
    }
    state.vectorWidths[op] = width;
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

namespace {

struct AsyncCopyConversion
    : public OpConversionPattern<AsyncCopyGlobalToLocalOp> {
  AsyncCopyConversion(TkgpuToLlvmTypeConverter &converter,
                      LoweringState &state)
      : OpConversionPattern(converter, &converter.getContext()),
        state(state) {}

  LogicalResult
  matchAndRewrite(AsyncCopyGlobalToLocalOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MemDescType bufferType = op.getBuffer().getType();
    Type elementType = bufferType.getElementType();
    Type memoryType = getMemoryElementType(elementType);
    unsigned elementBytes = getMemoryBitWidth(elementType) / 8;
    LinearLayout layout = getDistributedLayout(op.getPtr().getType());
    auto width = state.vectorWidths.find(op);
    if (width == state.vectorWidths.end())
      return rewriter.notifyMatchFailure(op, "copy width not prepared");
    int32_t vec = width->second;
    int32_t bytes = vec * static_cast<int32_t>(elementBytes);
    auto modifier = bytes == 16 ? NVVM::LoadCacheModifierKind::CG
                                : NVVM::LoadCacheModifierKind::CA;

    SmallVector<Value> ptrs = unpackValues(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> masks;
    if (adaptor.getMask())
      masks = unpackValues(rewriter, loc, adaptor.getMask());
    auto [lane, warp] = getLaneAndWarp(rewriter, loc, state.threadsPerWarp);
    SmallVector<Value> offsets =
        emitSharedOffsets(rewriter, loc, layout,
                          getSharedOffsetLayout(bufferType), vec, lane, warp);
    Value base = adaptor.getBuffer();
    auto sharedPtrType = LLVM::LLVMPointerType::get(getContext(), 3);

    auto emitCopies = [&](RewriterBase &b) {
      for (int32_t reg = 0; reg < static_cast<int32_t>(ptrs.size());
           reg += vec) {
        if (isDuplicateRegister(layout, reg))
          continue;
        Value dst = LLVM::GEPOp::create(b, loc, sharedPtrType, memoryType,
                                        base,
                                        ArrayRef<LLVM::GEPArg>{offsets[reg / vec]});
        Value srcBytes;
        if (!masks.empty())
          srcBytes = LLVM::SelectOp::create(b, loc, masks[reg],
                                            createI32(b, loc, bytes),
                                            createI32(b, loc, 0));
        NVVM::CpAsyncOp::create(b, loc, dst, ptrs[reg],
                                b.getI32IntegerAttr(bytes),
                                NVVM::LoadCacheModifierKindAttr::get(
                                    b.getContext(), modifier),
                                srcBytes);
      }
    };
    // One writer per element: threads repeating another's data skip.
    if (Value owner =
            emitUniqueOwnerPredicate(rewriter, loc, layout, lane, warp))
      createIfThen(rewriter, loc, owner, emitCopies);
    else
      emitCopies(rewriter);
    rewriter.eraseOp(op);
    return success();
  }

  LoweringState &state;
};

struct AsyncCommitGroupConversion
    : public OpConversionPattern<AsyncCommitGroupOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AsyncCommitGroupOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::CpAsyncCommitGroupOp>(op);
    return success();
  }
};

struct AsyncWaitConversion : public OpConversionPattern<AsyncWaitOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AsyncWaitOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::CpAsyncWaitGroupOp>(op, op.getNum());
    return success();
  }
};

} // namespace

void tkgpu::populateAsyncCopyOpToLlvmPatterns(
    TkgpuToLlvmTypeConverter &converter, LoweringState &state,
    RewritePatternSet &patterns) {
  patterns.add<AsyncCopyConversion>(converter, state);
  patterns.add<AsyncCommitGroupConversion, AsyncWaitConversion>(
      converter, &converter.getContext());
}
