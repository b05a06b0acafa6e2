//===- OperandsInRegisters.cpp - dot operands that need no shared memory --===//
//
// accelerate-matmul sends every dot operand through shared memory:
//   m = local_alloc x;  a = local_load m   (x distributed, a #dot_operand)
// That is needed when the threads that must hold an element of `a` are not
// the ones that hold it in `x` (a tile loaded from global memory). But a
// tensor computed in registers may already sit where the operand layout
// wants it: for mma.sync v2, the m16n8 accumulator fragment of one dot
// (thread t holds rows t/4 and t/4+8, columns 2(t%4) and 2(t%4)+1 of each
// 16x8 tile) is exactly the m16n8k16 A fragment of the next, when both use
// the same warps. Attention's P = exp2(QK^T - m) feeds P @ V this way.
//
// The decision is the LinearLayouts': the pair is rewritten to
//   a = convert_layout x
// when every lane and warp basis of the operand layout equals the source
// layout's (each thread already holds the elements it needs) and every
// operand register is some source register. The conversion then lowers to
// register moves only (ConvertLayoutOpToLlvm: a register permutation, no
// scratch, no barrier). A convert_layout that only fed the local_alloc is
// looked through, so a conversion towards the store layout that
// remove-layout-conversions left before the staging disappears too (with
// its last staging, when it fed several).
//
// wgmma (warp_group_dot) reads A from a shared buffer or from registers in
// the #dot_operand (opIdx 0, kWidth 2) layout of its #mma v3 result, which
// for 16-bit types is the m64nNk16 A fragment: per warp the same 16-row
// pattern as the v3 accumulator. So `warp_group_dot(local_alloc x, ..)`
// takes `convert_layout x` instead under the same LinearLayout condition;
// B stays in shared memory (wgmma has no register B).
//
//===----------------------------------------------------------------------===//
#include "compiler/transforms/gpu/Passes.h"

#include "compiler/analysis/ScratchSize.h"

#include "mlir/IR/Builders.h"

namespace mlir::tkgpu {
#define GEN_PASS_DEF_TKGPUOPERANDSINREGISTERS
#include "compiler/transforms/gpu/Passes.h.inc"
} // namespace mlir::tkgpu

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

/// Whether a conversion of a `from` tensor to `to` moves no data between
/// threads.
bool staysInThreads(RankedTensorType from, RankedTensorType to) {
  auto fromLayout =
      dyn_cast_or_null<LayoutEncodingAttrInterface>(from.getEncoding());
  auto toLayout = dyn_cast_or_null<LayoutEncodingAttrInterface>(to.getEncoding());
  if (!fromLayout || !toLayout || !fromLayout.isDistributed() ||
      !toLayout.isDistributed())
    return false;
  SmallVector<int32_t> permutation;
  return getRegisterPermutation(toLinearLayout(from), toLinearLayout(to),
                                permutation);
}

/// If `alloc` stages a register tensor for its one reader `user`, and the
/// tensor's threads already hold what `target` (the reader's layout) asks
/// of them, converts the tensor to `target` before `user`, hands the
/// result to `use` (which must drop the reader's use of the buffer) and
/// erases the staging; returns whether it did.
bool stageInRegisters(LocalAllocOp alloc, RankedTensorType target,
                      Operation *user, function_ref<void(Value)> use) {
  if (!alloc || !alloc.getSrc() || !alloc->hasOneUse())
    return false;
  Value source = alloc.getSrc();
  // The conversion in front of the staging is looked through (it only
  // changes the layout); it goes when its last staging does, so two dots
  // that read one tensor (attention's P @ V and P @ ones) both take it
  // from registers.
  auto convert = source.getDefiningOp<ConvertLayoutOp>();
  if (convert && staysInThreads(convert.getSrc().getType(), target))
    source = convert.getSrc();
  else if (!staysInThreads(cast<RankedTensorType>(source.getType()), target))
    return false;
  OpBuilder b(user);
  use(ConvertLayoutOp::create(b, user->getLoc(), target, source));
  alloc.erase();
  if (convert && convert->use_empty())
    convert.erase();
  return true;
}

/// Rewrites `load` (of a local_alloc of a register tensor) to a conversion
/// when the layouts allow it; returns whether it did.
bool rewriteToRegisters(LocalLoadOp load) {
  if (load.getOffsets())
    return false;
  return stageInRegisters(load.getBuffer().getDefiningOp<LocalAllocOp>(),
                          load.getType(), load, [&](Value registers) {
                            load.getResult().replaceAllUsesWith(registers);
                            load.erase();
                          });
}

/// Gives `dot` its A operand in registers when A is a local_alloc of a
/// register tensor whose threads already hold the fragment; returns
/// whether it did.
bool rewriteToRegisters(WarpGroupDotOp dot) {
  auto alloc = dot.getA().getDefiningOp<LocalAllocOp>();
  if (!alloc)
    return false;
  auto memType = cast<MemDescType>(alloc.getType());
  Type element = memType.getElementType();
  if (!element.isF16() && !element.isBF16())
    return false;
  auto mma = cast<MmaEncodingAttr>(
      cast<RankedTensorType>(dot.getD().getType()).getEncoding());
  auto operandType = RankedTensorType::get(
      memType.getShape(), element,
      DotOperandEncodingAttr::get(dot.getContext(), 0, mma, /*kWidth=*/2));
  return stageInRegisters(alloc, operandType, dot, [&](Value registers) {
    dot.getAMutable().assign(registers);
  });
}

struct OperandsInRegistersPass
    : public tkgpu::impl::TkgpuOperandsInRegistersBase<
          OperandsInRegistersPass> {
  void runOnOperation() override {
    SmallVector<LocalLoadOp> loads;
    getOperation().walk([&](LocalLoadOp load) { loads.push_back(load); });
    for (LocalLoadOp load : loads)
      (void)rewriteToRegisters(load);
    SmallVector<WarpGroupDotOp> dots;
    getOperation().walk([&](WarpGroupDotOp dot) { dots.push_back(dot); });
    for (WarpGroupDotOp dot : dots)
      (void)rewriteToRegisters(dot);
  }
};

} // namespace
