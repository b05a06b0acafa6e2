//===- WarpSpecializeOpToLlvm.cpp - warp_specialize to branches -----------===//
//
// tkgpu.warp_specialize (TkgpuOps.td) is lowered in two steps around the
// dialect conversion:
//
// 1. During it the op stays, so that the ops of its regions are lowered
//    knowing their partition: single-thread operations are issued by the
//    producer's first thread, CTA barriers become named barriers
//    (LoweringUtils.h, getPartition). Its only conversion is that of its
//    regions' block signatures (scf -> cf left blocks carrying tensors).
// 2. After it, in the llvm.func:
//
//      %tid = tid.x
//      llvm.cond_br %tid >= num_warps * 32, ^producer_gate, ^consumer_gate
//    ^producer_gate:                  (the extra warp group)
//      nvvm.setmaxregister decrease R_p
//      llvm.cond_br %tid / 32 == num_warps, ^producer, ^after
//    ^consumer_gate:                  (the compute warps)
//      nvvm.setmaxregister increase R_c
//      llvm.br ^consumer
//    ^producer: ... llvm.br ^after    (each warp_yield)
//    ^consumer: ... llvm.br ^after
//    ^after: the rest of the function
//
// The ops that schedule warp groups (tkgpu-pingpong's) lower here too:
// warp_group_id to tid.x / 128, named_barrier_sync/arrive to bar.sync and
// bar.arrive with their id and count.
//
// setmaxnreg is executed by every warp of a warp group (as PTX requires);
// the producer region then runs on the group's first warp alone. The
// consumers' count is only an increase when it exceeds the program's
// entry count (the function's nvvm.maxnreg, FuncOpToLlvm.cpp).
//
//===----------------------------------------------------------------------===//
#include "compiler/conversion/WarpSpecializeOpToLlvm.h"

#include "compiler/conversion/LoweringUtils.h"
#include "dialects/tkgpu/TkgpuDialect.h"

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

bool hasLegalBlockArguments(WarpSpecializeOp op,
                            const TypeConverter &converter) {
  for (Region &region : op->getRegions())
    for (Block &block : region)
      if (!converter.isLegal(block.getArgumentTypes()))
        return false;
  return true;
}

struct WarpSpecializeConversion : OpConversionPattern<WarpSpecializeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WarpSpecializeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.modifyOpInPlace(op, [] {});
    for (Region &region : op->getRegions())
      if (failed(rewriter.convertRegionTypes(&region, *getTypeConverter())))
        return rewriter.notifyMatchFailure(op, "unconvertible block types");
    return success();
  }
};

/// tid.x / 128: compute warps 0-3 are group 0, 4-7 group 1.
struct WarpGroupIdConversion : OpConversionPattern<WarpGroupIdOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WarpGroupIdOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value tid = getThreadId(rewriter, loc);
    rewriter.replaceOpWithNewOp<LLVM::LShrOp>(op, tid,
                                              createI32(rewriter, loc, 7));
    return success();
  }
};

/// bar.sync id, count: its id is not a constant below
/// kFirstSchedulingBarrierId, which is how tk-llvm-prune-barriers tells
/// it from a CTA barrier.
struct NamedBarrierSyncConversion : OpConversionPattern<NamedBarrierSyncOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(NamedBarrierSyncOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    NVVM::BarrierOp::create(
        rewriter, loc, TypeRange{}, adaptor.getId(),
        createI32(rewriter, loc, op.getNumThreads()),
        NVVM::BarrierReductionAttr(), Value());
    rewriter.eraseOp(op);
    return success();
  }
};

/// bar.arrive id, count.
struct NamedBarrierArriveConversion
    : OpConversionPattern<NamedBarrierArriveOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(NamedBarrierArriveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    NVVM::BarrierArriveOp::create(rewriter, loc, adaptor.getId(),
                                  createI32(rewriter, loc, op.getNumThreads()));
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void tkgpu::populateWarpSpecializeOpToLlvmPatterns(
    LLVMTypeConverter &converter, ConversionTarget &target,
    RewritePatternSet &patterns) {
  target.addDynamicallyLegalOp<WarpSpecializeOp>(
      [&converter](WarpSpecializeOp op) {
        return hasLegalBlockArguments(op, converter);
      });
  target.addLegalOp<WarpYieldOp>();
  patterns.add<WarpSpecializeConversion, WarpGroupIdConversion,
               NamedBarrierSyncConversion, NamedBarrierArriveConversion>(
      converter, &converter.getContext());
}

void tkgpu::lowerWarpSpecializeOps(ModuleOp module) {
  SmallVector<WarpSpecializeOp> splits;
  module.walk([&](WarpSpecializeOp op) { splits.push_back(op); });
  for (WarpSpecializeOp split : splits) {
    Location loc = split.getLoc();
    unsigned numWarps = getNumWarps(split);
    unsigned entryRegisters =
        getEntryRegisters(split, getTotalNumWarps(split) * 32);
    unsigned producerRegisters = split.getProducerRegisters();
    unsigned consumerRegisters = split.getConsumerRegisters();
    Block *before = split->getBlock();
    Block *after = before->splitBlock(split->getNextNode());
    Region *parent = before->getParent();
    OpBuilder b(split);

    SmallVector<WarpYieldOp> yields;
    split.walk([&](WarpYieldOp yield) { yields.push_back(yield); });
    for (WarpYieldOp yield : yields) {
      b.setInsertionPoint(yield);
      LLVM::BrOp::create(b, yield.getLoc(), ValueRange{}, after);
      yield.erase();
    }
    Block *consumer = &split.getConsumer().front();
    Block *producer = &split.getProducer().front();
    Block *consumerGate = new Block(), *producerGate = new Block();
    parent->getBlocks().insert(after->getIterator(), producerGate);
    parent->getBlocks().insert(after->getIterator(), consumerGate);
    parent->getBlocks().splice(after->getIterator(),
                               split.getProducer().getBlocks());
    parent->getBlocks().splice(after->getIterator(),
                               split.getConsumer().getBlocks());

    b.setInsertionPoint(split);
    Value tid = getThreadId(b, loc);
    Value isProducer =
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::uge, tid,
                             createI32(b, loc, numWarps * 32));
    LLVM::CondBrOp::create(b, loc, isProducer, producerGate, consumerGate);
    split.erase();

    b.setInsertionPointToEnd(producerGate);
    NVVM::SetMaxRegisterOp::create(b, loc, producerRegisters,
                                   NVVM::SetMaxRegisterAction::decrease);
    Value warp = LLVM::LShrOp::create(b, loc, tid, createI32(b, loc, 5));
    Value isFirstWarp = LLVM::ICmpOp::create(
        b, loc, LLVM::ICmpPredicate::eq, warp, createI32(b, loc, numWarps));
    LLVM::CondBrOp::create(b, loc, isFirstWarp, producer, after);

    b.setInsertionPointToEnd(consumerGate);
    if (consumerRegisters > entryRegisters)
      NVVM::SetMaxRegisterOp::create(b, loc, consumerRegisters,
                                     NVVM::SetMaxRegisterAction::increase);
    LLVM::BrOp::create(b, loc, ValueRange{}, consumer);
  }
}
