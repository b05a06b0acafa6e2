//===- InvariantOperandsInRegisters.cpp - loop-invariant wgmma A ----------===//
//
// A wgmma whose operands both sit in shared memory (SS) reads A (64 x 16
// per instruction, 2 KB in 16 bits) and B (16 x N) from shared memory at
// every instruction: for m64n64k16 that is 4 KB in the 32 clocks the
// instruction takes at full rate, 128 bytes per clock, all the bandwidth
// an SM's shared memory has. Attention at HEAD_DIM 64 issues exactly that
// for Q K^T (Q the A operand, BLOCK_N 64), and Q is the same in every
// iteration of the key loop.
//
// This pass loads such a loop-invariant A into registers once, before the
// loop: in an scf.for, a warp_group_dot whose A is a shared buffer defined
// outside the loop (and is 16-bit: wgmma's register A) gets
//   a = local_load %buffer : #dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
// right before the loop, and reads `a` instead (RS wgmma: only B comes
// from shared memory). One load serves every loop that reads the same
// buffer from the same block. It costs registers for the whole loop,
// (rows per warp group) * K * 2 / 128 bytes per thread (64 x 64 f16: 16
// registers), so it is opt-in (`enable`, tkc --invariant-a-in-registers)
// until it pays everywhere (docs/benchmarks.md, thirteenth session: +1.5
// to +2.3% on the fastest attention kernels, -12% on one that ran short
// of registers).
//
// Runs after the pipeliner and warp specialization, on the loops as they
// will run: the load then sits where the loop's own waits for the buffer
// (Q's TMA barrier, waited for before the loop) already ordered it.
//
//===----------------------------------------------------------------------===//
#include "compiler/transforms/gpu/Passes.h"

#include "dialects/tkgpu/TkgpuDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::tkgpu {
#define GEN_PASS_DEF_TKGPUINVARIANTOPERANDSINREGISTERS
#include "compiler/transforms/gpu/Passes.h.inc"
} // namespace mlir::tkgpu

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

/// Whether every use of `buffer` inside `loop`, through views of it
/// (memdesc results), is a warp_group_dot reading it as A: then nothing in
/// the loop writes it, and a copy loaded before the loop stays exact.
bool onlyReadAsA(Value buffer, scf::ForOp loop) {
  SmallVector<Value> work{buffer};
  while (!work.empty()) {
    Value value = work.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (!loop->isAncestor(user)) {
        // A view made outside the loop may be used inside it.
        for (Value result : user->getResults())
          if (isa<MemDescType>(result.getType()))
            work.push_back(result);
        continue;
      }
      auto dot = dyn_cast<WarpGroupDotOp>(user);
      if (!dot || use.getOperandNumber() != 0)
        return false;
    }
  }
  return true;
}

struct InvariantOperandsInRegistersPass
    : public tkgpu::impl::TkgpuInvariantOperandsInRegistersBase<
          InvariantOperandsInRegistersPass> {
  using TkgpuInvariantOperandsInRegistersBase::
      TkgpuInvariantOperandsInRegistersBase;

  void runOnOperation() override {
    if (!enable)
      return;
    SmallVector<WarpGroupDotOp> dots;
    getOperation().walk([&](WarpGroupDotOp dot) { dots.push_back(dot); });
    // (buffer, block holding the loop, operand type) -> its register copy.
    DenseMap<std::tuple<Value, Block *, Type>, Value> loaded;
    for (WarpGroupDotOp dot : dots) {
      auto loop = dot->getParentOfType<scf::ForOp>();
      Value buffer = dot.getA();
      auto memType = dyn_cast<MemDescType>(buffer.getType());
      if (!loop || !memType || !loop.isDefinedOutsideOfLoop(buffer) ||
          !onlyReadAsA(buffer, loop))
        continue;
      Type element = memType.getElementType();
      if (!element.isF16() && !element.isBF16())
        continue;
      // The outermost loop of the nest the dot is in that neither defines
      // nor writes the buffer: the load then runs once.
      while (auto outer = loop->getParentOfType<scf::ForOp>()) {
        if (!outer.isDefinedOutsideOfLoop(buffer) ||
            !onlyReadAsA(buffer, outer))
          break;
        loop = outer;
      }
      auto mma = cast<MmaEncodingAttr>(dot.getD().getType().getEncoding());
      auto operandType = RankedTensorType::get(
          memType.getShape(), element,
          DotOperandEncodingAttr::get(&getContext(), 0, mma, /*kWidth=*/2));
      Value &registers =
          loaded[{buffer, loop->getBlock(), Type(operandType)}];
      if (!registers || !registers.getDefiningOp()->isBeforeInBlock(loop)) {
        OpBuilder b(loop);
        registers =
            LocalLoadOp::create(b, dot.getLoc(), operandType, buffer);
      }
      dot.getAMutable().assign(registers);
    }
  }
};

} // namespace
