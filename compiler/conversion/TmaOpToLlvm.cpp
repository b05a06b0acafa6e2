//===- TmaOpToLlvm.cpp - mbarriers and TMA copies to NVVM -----------------===//
//
// The ops of TkgpuTmaOps.td, one NVVM op each (no inline PTX):
//
//   init_barrier %bar, N        nvvm.mbarrier.init [bar], N   (thread 0)
//   barrier_expect %bar, B, %p  nvvm.mbarrier.arrive.expect_tx [bar], B
//                               (thread 0 and p)
//   wait_barrier %bar, %phase   nvvm.mbarrier.try_wait.parity [bar], phase
//                               (every thread; the NVVM op loops until the
//                               phase has completed)
//   async_tma_copy_global_to_local %desc[c0, .., cn] %buf, %bar, %p
//                               nvvm.cp.async.bulk.tensor.shared.cluster.global
//                               [buf], [desc, {cn, .., c0}], [bar]
//                               (thread 0 and p; coordinates innermost first)
//   async_tma_copy_local_to_global %desc[c0, .., cn] %buf
//                               nvvm.cp.async.bulk.tensor.global.shared.cta
//                               + nvvm.cp.async.bulk.commit.group (thread 0)
//   async_tma_store_wait {pendings = P}
//                               nvvm.cp.async.bulk.wait_group P {read}
//
// Memdescs are already `!llvm.ptr<3>` (MemDescOpToLlvm.cpp); the descriptor
// pointer (`!tk.ptr<i8>`, a global address) is cast to a generic address,
// which is what the TMA instructions take.
//
//===----------------------------------------------------------------------===//
#include "compiler/conversion/TmaOpToLlvm.h"

#include "compiler/conversion/LoweringUtils.h"
#include "dialects/tkgpu/TkgpuTmaOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

/// threadIdx.x == 0, and `pred` when given.
Value threadZeroAnd(ConversionPatternRewriter &rewriter, Location loc,
                    Value pred = Value()) {
  Value tid = getThreadId(rewriter, loc);
  Value zero = LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(),
                                        rewriter.getI32IntegerAttr(0));
  Value first = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                     tid, zero);
  return pred ? LLVM::AndOp::create(rewriter, loc, first, pred).getResult()
              : first;
}

Value i32Constant(ConversionPatternRewriter &rewriter, Location loc,
                  int64_t value) {
  return LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(),
                                  rewriter.getI32IntegerAttr(value));
}

/// The descriptor's global address as a generic pointer.
Value genericDescriptor(ConversionPatternRewriter &rewriter, Location loc,
                        Value global) {
  return LLVM::AddrSpaceCastOp::create(
      rewriter, loc, LLVM::LLVMPointerType::get(rewriter.getContext()),
      global);
}

/// TMA counts dimensions innermost first.
SmallVector<Value> innermostFirst(ValueRange coords) {
  SmallVector<Value> reversed(coords.begin(), coords.end());
  std::reverse(reversed.begin(), reversed.end());
  return reversed;
}

struct InitBarrierConversion : OpConversionPattern<InitBarrierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(InitBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value count = i32Constant(rewriter, loc, op.getCount());
    Value issue = threadZeroAnd(rewriter, loc);
    NVVM::MBarrierInitOp::create(rewriter, loc, adaptor.getBarrier(), count,
                                 issue);
    rewriter.eraseOp(op);
    return success();
  }
};

struct BarrierExpectConversion : OpConversionPattern<BarrierExpectOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BarrierExpectOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value bytes = i32Constant(rewriter, loc, op.getBytes());
    Value issue = threadZeroAnd(rewriter, loc, adaptor.getPred());
    NVVM::MBarrierArriveExpectTxOp::create(
        rewriter, loc, /*res=*/Type(), adaptor.getBarrier(), bytes,
        NVVM::MemScopeKind::CTA, /*relaxed=*/false, issue);
    rewriter.eraseOp(op);
    return success();
  }
};

struct WaitBarrierConversion : OpConversionPattern<WaitBarrierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WaitBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // ticks: the suspend-time hint of try_wait (ns), as CUTLASS uses.
    Value ticks = i32Constant(rewriter, loc, 10000000);
    NVVM::MBarrierTryWaitParityOp::create(rewriter, loc, adaptor.getBarrier(),
                                          adaptor.getPhase(), ticks);
    rewriter.eraseOp(op);
    return success();
  }
};

struct TmaLoadConversion : OpConversionPattern<AsyncTmaCopyGlobalToLocalOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AsyncTmaCopyGlobalToLocalOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // In statement order (argument evaluation order differs by compiler).
    Value issue = threadZeroAnd(rewriter, loc, adaptor.getPred());
    Value desc = genericDescriptor(rewriter, loc, adaptor.getDesc());
    NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
        rewriter, loc, adaptor.getResult(), desc,
        innermostFirst(adaptor.getCoords()), adaptor.getBarrier(),
        /*im2colOffsets=*/ValueRange(), /*multicastMask=*/Value(),
        /*l2CacheHint=*/Value(), NVVM::TMALoadMode::TILE,
        /*isCTAOnly=*/false, /*group=*/NVVM::CTAGroupKindAttr(), issue);
    rewriter.eraseOp(op);
    return success();
  }
};

struct TmaStoreConversion : OpConversionPattern<AsyncTmaCopyLocalToGlobalOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AsyncTmaCopyLocalToGlobalOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value issue = threadZeroAnd(rewriter, loc);
    Value desc = genericDescriptor(rewriter, loc, adaptor.getDesc());
    NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(
        rewriter, loc, desc, adaptor.getSrc(),
        innermostFirst(adaptor.getCoords()), /*l2CacheHint=*/Value(),
        NVVM::TMAStoreMode::TILE, issue);
    // Every thread commits (an empty group where nothing was issued).
    NVVM::CpAsyncBulkCommitGroupOp::create(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

struct TmaStoreWaitConversion : OpConversionPattern<AsyncTmaStoreWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AsyncTmaStoreWaitOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::CpAsyncBulkWaitGroupOp>(
        op, uint32_t(op.getPendings()), rewriter.getUnitAttr());
    return success();
  }
};

} // namespace

void tkgpu::populateTmaOpToLlvmPatterns(LLVMTypeConverter &converter,
                                        RewritePatternSet &patterns) {
  patterns.add<InitBarrierConversion, BarrierExpectConversion,
               WaitBarrierConversion, TmaLoadConversion, TmaStoreConversion,
               TmaStoreWaitConversion>(converter, &converter.getContext());
}
