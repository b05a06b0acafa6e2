//===- TmaOpToLlvm.cpp - mbarriers and TMA copies to NVVM -----------------===//
//
// The ops of TkgpuTmaOps.td, one NVVM op each (no inline PTX):
//
//   init_barrier %bar, N        nvvm.mbarrier.init [bar], N   (thread 0)
//   barrier_expect %bar, B, %p  nvvm.mbarrier.arrive.expect_tx [bar], B
//                               (thread 0 and p)
//   arrive_barrier %bar, %p     nvvm.mbarrier.arrive [bar]  (lane 0 of each
//                               warp, and p)
//   wait_barrier %bar, %phase   nvvm.mbarrier.try_wait.parity [bar], phase
//                               (every thread; the NVVM op loops until the
//                               phase has completed)
//   inval_barrier %bar          nvvm.mbarrier.inval [bar]  (thread 0)
//   async_tma_copy_global_to_local %desc[c0, .., cn] %buf, %bar, %p
//                               nvvm.cp.async.bulk.tensor.shared.cluster.global
//                               [buf + off_b], [desc, {cn + o_bn, .., c0 + o_b0}],
//                               [bar] per box b (thread 0 and p;
//                               coordinates innermost first)
//   async_tma_copy_local_to_global %desc[c0, .., cn] %buf
//                               nvvm.cp.async.bulk.tensor.global.shared.cta
//                               per box + nvvm.cp.async.bulk.commit.group
//                               (thread 0)
//   async_tma_store_wait {pendings = P}
//                               nvvm.cp.async.bulk.wait_group P {read}
//
// "Thread 0" is the issuing thread: in the producer region of a
// tkgpu.warp_specialize, the producer partition's first thread
// (getIssuingThread).
//
// Boxes: a buffer wider than one swizzle chunk (or taller than 256 rows)
// moves as several boxes (getTmaBoxShape); box b's origin o_b is added to
// the coordinates and its element's byte offset in the buffer, off_b (the
// buffer's shared offset layout at o_b: chunk c of an nvmma_shared tile
// starts c * rows * swizzle bytes in), to the shared address.
//
// Memdescs are already `!llvm.ptr<3>` (MemDescOpToLlvm.cpp). A descriptor
// in global memory (`!tk.ptr<i8>`) is cast to a generic address, which is
// what the TMA instructions take; a `!tkgpu.tensor_map` parameter is
// already one (FuncOpToLlvm.cpp makes it a byval `__grid_constant__`
// parameter, whose address NVPTX takes with cvta.param).
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

/// threadIdx.x == the issuing thread (0, or the producer partition's
/// first), and `pred` when given.
Value issuingThreadAnd(ConversionPatternRewriter &rewriter, Location loc,
                       Value pred = Value()) {
  Value tid = getThreadId(rewriter, loc);
  Value issuer = LLVM::ConstantOp::create(
      rewriter, loc, rewriter.getI32Type(),
      rewriter.getI32IntegerAttr(
          getIssuingThread(rewriter.getInsertionBlock())));
  Value first = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                     tid, issuer);
  return pred ? LLVM::AndOp::create(rewriter, loc, first, pred).getResult()
              : first;
}

/// The descriptor as a generic pointer.
Value genericDescriptor(ConversionPatternRewriter &rewriter, Location loc,
                        Value desc) {
  auto generic = LLVM::LLVMPointerType::get(rewriter.getContext());
  if (desc.getType() == generic)
    return desc;
  return LLVM::AddrSpaceCastOp::create(rewriter, loc, generic, desc);
}

/// One box of a TMA copy: its origin in the buffer (elements, outermost
/// first) and the byte offset of that element from the buffer's base.
struct TmaBox {
  SmallVector<int64_t> origin;
  int64_t byteOffset;
};

/// The boxes that move `buffer`, in row-major order of their origins.
SmallVector<TmaBox> getTmaBoxes(MemDescType buffer) {
  ArrayRef<int64_t> shape = buffer.getShape();
  SmallVector<int64_t> box = getTmaBoxShape(buffer);
  SharedOffsetLayout offsets = getSharedOffsetLayout(buffer);
  int64_t elementBytes = getMemoryBitWidth(buffer.getElementType()) / 8;
  SmallVector<TmaBox> boxes;
  SmallVector<int64_t> origin(shape.size(), 0);
  while (true) {
    std::vector<std::pair<std::string, int32_t>> index;
    for (auto [d, o] : llvm::enumerate(origin))
      index.push_back({outDimName(d), int32_t(o)});
    int64_t element = 0;
    for (const SharedOffsetLayout::Term &term : offsets.terms)
      element += term.scale * term.layout.apply(index)[0];
    boxes.push_back({origin, element * elementBytes});
    int64_t d = int64_t(shape.size()) - 1;
    for (; d >= 0; --d) {
      origin[d] += box[d];
      if (origin[d] < shape[d])
        break;
      origin[d] = 0;
    }
    if (d < 0)
      return boxes;
  }
}

/// The coordinates of `box`, innermost first (TMA counts dimensions so).
SmallVector<Value> boxCoordinates(ConversionPatternRewriter &rewriter,
                                  Location loc, ValueRange coords,
                                  const TmaBox &box) {
  // Coordinates beyond the buffer's rank come first (box extent 1 there).
  SmallVector<int64_t> origin(coords.size() - box.origin.size(), 0);
  llvm::append_range(origin, box.origin);
  SmallVector<Value> result;
  for (auto [coord, o] : llvm::zip_equal(coords, origin))
    result.push_back(o == 0 ? coord
                            : LLVM::AddOp::create(rewriter, loc, coord,
                                                  createI32(rewriter, loc, o))
                                  .getResult());
  std::reverse(result.begin(), result.end());
  return result;
}

/// The shared address of `box` in the buffer at `base`.
Value boxAddress(ConversionPatternRewriter &rewriter, Location loc, Value base,
                 const TmaBox &box) {
  if (box.byteOffset == 0)
    return base;
  return LLVM::GEPOp::create(rewriter, loc, base.getType(),
                             rewriter.getI8Type(), base,
                             ArrayRef<LLVM::GEPArg>{int32_t(box.byteOffset)});
}

struct InitBarrierConversion : OpConversionPattern<InitBarrierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(InitBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value count = createI32(rewriter, loc, op.getCount());
    Value issue = issuingThreadAnd(rewriter, loc);
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
    Value bytes = createI32(rewriter, loc, op.getBytes());
    Value issue = issuingThreadAnd(rewriter, loc, adaptor.getPred());
    NVVM::MBarrierArriveExpectTxOp::create(
        rewriter, loc, /*res=*/Type(), adaptor.getBarrier(), bytes,
        NVVM::MemScopeKind::CTA, /*relaxed=*/false, issue);
    rewriter.eraseOp(op);
    return success();
  }
};

struct ArriveBarrierConversion : OpConversionPattern<ArriveBarrierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ArriveBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value barrier = adaptor.getBarrier();
    Value lane = getLaneAndWarp(rewriter, loc, 32).first;
    Value laneZero =
        LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq, lane,
                             createI32(rewriter, loc, 0));
    Value arrive =
        LLVM::AndOp::create(rewriter, loc, laneZero, adaptor.getPred());
    unsigned cluster = op.getCluster() ? getClusterSize(op) : 1;
    createIfThen(rewriter, loc, arrive, [&](RewriterBase &b) {
      if (cluster == 1) {
        NVVM::MBarrierArriveOp::create(b, loc, /*res=*/Type(), barrier,
                                       /*count=*/Value());
        return;
      }
      // The same barrier in every CTA of the cluster, with the default
      // CTA-scope release. What the arrival orders is the end of this
      // warp's reads of the slot (its wgmma groups waited for), not
      // writes a peer must see, and a cluster-scope release costs a
      // MEMBAR.ALL.GPU before each arrival: with it the multicast matmul
      // ran at 315 TFLOP/s instead of 740 (H100, 4096^3).
      auto remoteType = LLVM::LLVMPointerType::get(
          b.getContext(), unsigned(NVVM::NVVMMemorySpace::SharedCluster));
      for (unsigned rank = 0; rank < cluster; ++rank) {
        Value remote = NVVM::MapaOp::create(b, loc, remoteType, barrier,
                                            createI32(b, loc, rank));
        NVVM::MBarrierArriveOp::create(
            b, loc, /*res=*/Type(), remote, /*count=*/Value(),
            NVVM::MemScopeKind::CTA, /*relaxed=*/false);
      }
    });
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
    Value ticks = createI32(rewriter, loc, 10000000);
    NVVM::MBarrierTryWaitParityOp::create(rewriter, loc, adaptor.getBarrier(),
                                          adaptor.getPhase(), ticks);
    rewriter.eraseOp(op);
    return success();
  }
};

struct InvalBarrierConversion : OpConversionPattern<InvalBarrierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(InvalBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value barrier = adaptor.getBarrier();
    // Once: a second inval of the same barrier is undefined.
    createIfThen(rewriter, loc, issuingThreadAnd(rewriter, loc),
                 [&](RewriterBase &b) {
                   NVVM::MBarrierInvalOp::create(b, loc, barrier);
                 });
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
    Value issue = issuingThreadAnd(rewriter, loc, adaptor.getPred());
    Value desc = genericDescriptor(rewriter, loc, adaptor.getDesc());
    // Multicast: CTA r issues boxes r, r + R, ... to all R CTAs.
    unsigned cluster = op.getMulticast() ? getClusterSize(op) : 1;
    Value rank, mask;
    if (cluster > 1) {
      rank = NVVM::ClusterId::create(rewriter, loc, rewriter.getI32Type());
      mask = LLVM::ConstantOp::create(
          rewriter, loc, rewriter.getI16Type(),
          rewriter.getI16IntegerAttr((1 << cluster) - 1));
    }
    for (auto [index, box] :
         llvm::enumerate(getTmaBoxes(op.getResult().getType()))) {
      SmallVector<Value> coords =
          boxCoordinates(rewriter, loc, adaptor.getCoords(), box);
      Value dst = boxAddress(rewriter, loc, adaptor.getResult(), box);
      Value pred = issue;
      if (cluster > 1)
        pred = LLVM::AndOp::create(
            rewriter, loc, issue,
            LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                 rank,
                                 createI32(rewriter, loc,
                                           int32_t(index % cluster))));
      NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
          rewriter, loc, dst, desc, coords, adaptor.getBarrier(),
          /*im2colOffsets=*/ValueRange(), /*multicastMask=*/mask,
          /*l2CacheHint=*/Value(), NVVM::TMALoadMode::TILE,
          /*isCTAOnly=*/false, /*group=*/NVVM::CTAGroupKindAttr(), pred);
    }
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
    Value issue = issuingThreadAnd(rewriter, loc);
    Value desc = genericDescriptor(rewriter, loc, adaptor.getDesc());
    for (const TmaBox &box : getTmaBoxes(op.getSrc().getType())) {
      SmallVector<Value> coords =
          boxCoordinates(rewriter, loc, adaptor.getCoords(), box);
      Value src = boxAddress(rewriter, loc, adaptor.getSrc(), box);
      NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(
          rewriter, loc, desc, src, coords, /*l2CacheHint=*/Value(),
          NVVM::TMAStoreMode::TILE, issue);
    }
    // Every thread commits (an empty group where nothing was issued).
    NVVM::CpAsyncBulkCommitGroupOp::create(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

struct ClusterBarrierConversion : OpConversionPattern<ClusterBarrierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ClusterBarrierOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (getClusterSize(op) > 1) {
      if (op.getAfterBarrierInit())
        NVVM::FenceMbarrierInitOp::create(rewriter, loc);
      NVVM::ClusterArriveOp::create(rewriter, loc, /*aligned=*/nullptr);
      NVVM::ClusterWaitOp::create(rewriter, loc, /*aligned=*/nullptr);
    }
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
               ArriveBarrierConversion, WaitBarrierConversion,
               InvalBarrierConversion, TmaLoadConversion, TmaStoreConversion,
               TmaStoreWaitConversion, ClusterBarrierConversion>(
      converter, &converter.getContext());
}
