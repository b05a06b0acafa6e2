//===- MemDescOpToLlvm.cpp - explicit shared-memory buffers ---------------===//
//
// local_alloc, local_load, local_store, local_dealloc, memdesc_index,
// memdesc_trans and barrier.
//
// A `!tkgpu.memdesc` becomes the `!llvm.ptr<3>` of its element 0:
//   local_alloc    tk_smem + the `tkgpu.offset` tkgpu-allocate-shared-memory
//                  gave it (0 without that pass), then the optional source
//                  stored into it;
//   memdesc_index  base + index * (bytes of one buffer);
//   memdesc_trans  the source's address (the layout names the dimensions);
//   local_dealloc  nothing (the allocation pass already reused the bytes).
//
// local_load and local_store move any distributed layout to and from any
// shared layout through LinearLayouts: the shared encoding maps an element
// offset to a tensor index, its inverse composed with the distributed
// layout gives each (register, lane, warp) its element offset, which is a
// constant per register XORed (or added) to a lane/warp part computed once
// (storeToShared / loadFromShared in LoweringUtils, the routine the scratch
// of reductions, scans and conversions goes through as well). Consecutive
// registers at consecutive, aligned offsets become one vector access of up
// to 16 bytes; a swizzle keeps `vec` elements contiguous, so a swizzled
// buffer vectorizes like a plain one. Data that several threads hold is
// stored by one of them only. None of these ops synchronizes: tkgpu-membar
// places `tkgpu.barrier` (bar.sync 0) where accesses race.
//
//===----------------------------------------------------------------------===//
#include "compiler/conversion/PatternSets.h"

#include "dialects/tkgpu/TkgpuDialect.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"
#include <limits>

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

/// Base class of the patterns: the conversion state.
template <typename Op>
struct MemDescPattern : public OpConversionPattern<Op> {
  MemDescPattern(TkgpuToLlvmTypeConverter &converter, LoweringState &state)
      : OpConversionPattern<Op>(converter, &converter.getContext()),
        state(state) {}

  LoweringState &state;
};

/// Stores the distributed tensor `src` (converted `values`) into the
/// buffer at `base`; one thread of each group holding the same element
/// writes it.
static void storeTensor(ConversionPatternRewriter &rewriter, Location loc,
                        LoweringState &state, Value base, unsigned alignment,
                        RankedTensorType srcType, MemDescType bufferType,
                        Value converted) {
  SmallVector<Value> values = unpackValues(rewriter, loc, converted);
  LinearLayout layout = getDistributedLayout(srcType);
  auto [lane, warp] = getLaneAndWarp(rewriter, loc, state.threadsPerWarp);
  Value owner = emitUniqueOwnerPredicate(rewriter, loc, layout, lane, warp);
  storeToShared(rewriter, loc, base, values, layout,
                getSharedOffsetLayout(bufferType), srcType.getElementType(),
                lane, warp, owner, alignment);
}

struct LocalAllocConversion : public MemDescPattern<LocalAllocOp> {
  using MemDescPattern::MemDescPattern;

  LogicalResult
  matchAndRewrite(LocalAllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MemDescType type = op.getType();
    int64_t offset = getAllocatedOffset(op, kSharedOffsetAttr);
    // Without tkgpu-allocate-shared-memory (tests of single ops) the module
    // still provides the bytes this buffer needs.
    state.requireSharedBytes(offset + getSizeInBytes(type));
    Value base = getSharedMemoryBase(rewriter, loc, state.module);
    if (offset != 0)
      base = LLVM::GEPOp::create(
          rewriter, loc, base.getType(), rewriter.getI8Type(), base,
          ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(offset)});
    if (Value src = op.getSrc())
      storeTensor(rewriter, loc, state, base, getBufferAlignment(op.getResult()),
                  cast<RankedTensorType>(src.getType()), type,
                  adaptor.getSrc());
    rewriter.replaceOp(op, base);
    return success();
  }
};

struct LocalDeallocConversion : public MemDescPattern<LocalDeallocOp> {
  using MemDescPattern::MemDescPattern;

  LogicalResult
  matchAndRewrite(LocalDeallocOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

struct LocalStoreConversion : public MemDescPattern<LocalStoreOp> {
  using MemDescPattern::MemDescPattern;

  LogicalResult
  matchAndRewrite(LocalStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    storeTensor(rewriter, op.getLoc(), state, adaptor.getBuffer(),
                getBufferAlignment(op.getBuffer()),
                cast<RankedTensorType>(op.getSrc().getType()),
                op.getBuffer().getType(), adaptor.getSrc());
    rewriter.eraseOp(op);
    return success();
  }
};

struct LocalLoadConversion : public MemDescPattern<LocalLoadOp> {
  using MemDescPattern::MemDescPattern;

  LogicalResult
  matchAndRewrite(LocalLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    auto [lane, warp] = getLaneAndWarp(rewriter, loc, state.threadsPerWarp);
    MemDescType bufferType = op.getBuffer().getType();
    LinearLayout layout = getDistributedLayout(type);
    SharedOffsetLayout offsets = getSharedOffsetLayout(bufferType);
    if (std::optional<ArrayRef<int64_t>> origin = op.getOffsets()) {
      layout = widenToBuffer(layout, bufferType.getShape());
      offsets = getSharedOffsetLayout(bufferType, *origin);
    }
    SmallVector<Value> values = loadFromShared(
        rewriter, loc, adaptor.getBuffer(), layout, offsets,
        type.getElementType(), lane, warp, getBufferAlignment(op.getBuffer()));
    rewriter.replaceOp(op, packValues(rewriter, loc,
                                      getTypeConverter()->convertType(type),
                                      values));
    return success();
  }
};

struct MemDescIndexConversion : public MemDescPattern<MemDescIndexOp> {
  using MemDescPattern::MemDescPattern;

  LogicalResult
  matchAndRewrite(MemDescIndexOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t bufferBytes = getSizeInBytes(op.getType());
    if (bufferBytes > std::numeric_limits<int32_t>::max())
      return op.emitError("a buffer of ")
             << bufferBytes << " bytes does not fit in shared memory";
    Value bytes = LLVM::MulOp::create(rewriter, loc, adaptor.getIndex(),
                                      createI32(rewriter, loc, bufferBytes));
    Value base = adaptor.getSrc();
    rewriter.replaceOpWithNewOp<LLVM::GEPOp>(
        op, base.getType(), rewriter.getI8Type(), base,
        ArrayRef<LLVM::GEPArg>{bytes});
    return success();
  }
};

/// memdesc_trans: the same bytes; only the type (its layout) changes.
struct MemDescTransConversion : public MemDescPattern<MemDescTransOp> {
  using MemDescPattern::MemDescPattern;

  LogicalResult
  matchAndRewrite(MemDescTransOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

struct BarrierConversion : public MemDescPattern<BarrierOp> {
  using MemDescPattern::MemDescPattern;

  LogicalResult
  matchAndRewrite(BarrierOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    createBarrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void tkgpu::populateMemDescOpToLlvmPatterns(TkgpuToLlvmTypeConverter &converter,
                                            LoweringState &state,
                                            RewritePatternSet &patterns) {
  patterns.add<LocalAllocConversion, LocalDeallocConversion,
               LocalStoreConversion, LocalLoadConversion,
               MemDescIndexConversion, MemDescTransConversion,
               BarrierConversion>(converter, state);
}
