//===- Coalesce.cpp - layouts for wide, coalesced global accesses ---------===//
//
// A warp's global access is fastest when each thread moves 16 bytes in one
// instruction (ld.global.v4.b32) and neighbouring lanes move neighbouring
// 16-byte pieces. For each load/store/atomic on a pointer tensor this pass
// picks a blocked layout with
//   order[0]         = the pointer's most contiguous dimension,
//   sizePerThread[order[0]] = min(alignment (AxisInfo: contiguity and
//                     address divisibility), 128 bits / element size,
//                     elements per thread),
// lanes and warps spread fastest dimension first, and rewrites the op in
// that layout between convert_layout ops. Atomics get one element per
// thread, except the float adds that sm_90 has in vector form
// (tk::hasVectorAtomicForm). Removing the conversions is left
// to tkgpu-remove-layout-conversions.
//
//===----------------------------------------------------------------------===//
#include "compiler/analysis/AccessWidth.h"
#include "compiler/analysis/AxisInfo.h"
#include "compiler/transforms/gpu/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::tkgpu {
#define GEN_PASS_DEF_TKGPUCOALESCE
#include "compiler/transforms/gpu/Passes.h.inc"
} // namespace mlir::tkgpu

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

/// The pointer and mask of a memory op, if it accesses a pointer tensor.
struct MemoryAccess {
  Value ptr;
  Value mask;
  bool isAtomic;
  bool isVectorAtomic = false; // an atomic with a vector form (sm_90)
};

std::optional<MemoryAccess> getMemoryAccess(Operation *op,
                                            unsigned computeCapability) {
  MemoryAccess access;
  if (auto load = dyn_cast<tk::LoadOp>(op))
    access = {load.getPtr(), load.getMask(), false};
  else if (auto store = dyn_cast<tk::StoreOp>(op))
    access = {store.getPtr(), store.getMask(), false};
  else if (auto rmw = dyn_cast<tk::AtomicRMWOp>(op))
    access = {rmw.getPtr(), rmw.getMask(), true};
  else if (auto cas = dyn_cast<tk::AtomicCASOp>(op))
    access = {cas.getPtr(), Value(), true};
  else
    return std::nullopt;
  access.isVectorAtomic = tk::hasVectorAtomicForm(op, computeCapability);
  auto type = dyn_cast<RankedTensorType>(access.ptr.getType());
  if (!type || !isa_and_nonnull<LayoutEncodingAttrInterface>(type.getEncoding()))
    return std::nullopt;
  return access;
}

struct CoalescePass : public tkgpu::impl::TkgpuCoalesceBase<CoalescePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    unsigned numWarps = getNumWarps(module);
    unsigned threadsPerWarp = getThreadsPerWarp(module);
    if (numWarps == 0) {
      module.emitError("tkgpu-coalesce needs the tkgpu.num_warps module "
                       "attribute (run convert-tk-to-tkgpu first)");
      return signalPassFailure();
    }
    tk::AxisInfoAnalysis axisInfo(module);
    unsigned computeCapability = getComputeCapability(getTarget(module));

    // Decide every layout first: rewriting invalidates the analysis' values.
    SmallVector<std::pair<Operation *, Attribute>> decisions;
    module.walk([&](Operation *op) {
      std::optional<MemoryAccess> access =
          getMemoryAccess(op, computeCapability);
      if (!access)
        return;
      Attribute layout = chooseLayout(*access, axisInfo, numWarps,
                                      threadsPerWarp);
      auto current = cast<RankedTensorType>(access->ptr.getType()).getEncoding();
      if (layout != current)
        decisions.emplace_back(op, layout);
    });
    for (auto [op, layout] : decisions)
      rewriteInLayout(op, layout);
  }

  Attribute chooseLayout(const MemoryAccess &access,
                         const tk::AxisInfoAnalysis &axisInfo,
                         unsigned numWarps, unsigned threadsPerWarp) {
    auto type = cast<RankedTensorType>(access.ptr.getType());
    SmallVector<unsigned> order = axisInfo.getContiguityOrder(access.ptr);
    unsigned fastest = order.front();
    auto pointee = cast<tk::PtrType>(type.getElementType()).getPointeeType();
    int64_t elementBits = std::max(8u, pointee.getIntOrFloatBitWidth());

    // The mask does not limit the layout: the lowering splits a vector
    // whose mask bits may differ (AxisInfo mask constancy), as Triton does,
    // and the layout still gives each thread contiguous elements.
    int64_t perThread = axisInfo.getPtrAlignment(access.ptr);
    perThread = std::min<int64_t>(perThread, 128 / elementBits);
    // Keep every thread busy: no more than the elements each one gets.
    int64_t perThreadAvailable = std::max<int64_t>(
        1, type.getNumElements() / (int64_t(numWarps) * threadsPerWarp));
    perThread = std::min(perThread, perThreadAvailable);
    perThread = std::min(perThread, type.getDimSize(fastest));
    // Atomics move one element per instruction, but for the float adds
    // that sm_90 has in vector form (up to 16 bytes).
    if (access.isAtomic && !access.isVectorAtomic)
      perThread = 1;
    perThread = std::max<int64_t>(1, perThread);

    SmallVector<unsigned> sizePerThread(type.getRank(), 1);
    sizePerThread[fastest] = perThread;
    return getDefaultBlockedEncoding(&getContext(), type.getShape(), numWarps,
                                     threadsPerWarp, sizePerThread, order);
  }

  /// Rewrites `op` with every tensor operand and result in `layout`;
  /// convert_layout ops connect it to the unchanged rest of the program.
  void rewriteInLayout(Operation *op, Attribute layout) {
    OpBuilder builder(op);
    IRMapping converted;
    for (Value operand : op->getOperands()) {
      auto type = dyn_cast<RankedTensorType>(operand.getType());
      if (!type || converted.contains(operand))
        continue;
      converted.map(operand,
                    ConvertLayoutOp::create(builder, op->getLoc(),
                                            withEncoding(type, layout),
                                            operand));
    }
    Operation *newOp = builder.clone(*op, converted);
    builder.setInsertionPointAfter(newOp);
    for (auto [oldResult, newResult] :
         llvm::zip(op->getResults(), newOp->getResults())) {
      auto type = dyn_cast<RankedTensorType>(oldResult.getType());
      if (!type)
        continue;
      newResult.setType(withEncoding(type, layout));
      oldResult.replaceAllUsesWith(ConvertLayoutOp::create(
          builder, op->getLoc(), type, newResult));
    }
    op->erase();
  }
};

} // namespace
