//===- SinkUnpacking.cpp - tk-llvm-sink-unpacking -------------------------===//
//
// Moves unpacking and widening ops (extractvalue, extractelement, bitcast,
// fpext, sext, zext) down to their first user in the block, as Triton's
// reorder-instructions does for conversions: a loaded bf16 vector then
// stays packed in its b32 registers until it is used instead of living
// unpacked, or extended to f32, across a reduction. PTX keeps this order,
// and ptxas allocates fewer registers (RMSNorm bf16, 4096 columns on 8
// warps: 48 -> 40 registers, 6 instead of 5 CTAs per SM).
//
// Run it after canonicalize/cse: the struct packing and unpacking between
// converted ops must be folded first, so that what sinks are the real
// unpacking ops. Candidates move last first, so that a chain (extractvalue
// -> bitcast -> extractelement -> fpext) moves down together; an op whose
// users are in other blocks stays.
//
//===----------------------------------------------------------------------===//
#include "compiler/transforms/llvm/Passes.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::tk {
#define GEN_PASS_DEF_TKLLVMSINKUNPACKING
#include "compiler/transforms/llvm/Passes.h.inc"
} // namespace mlir::tk

using namespace mlir;

namespace {

void sinkUnpackingOps(LLVM::LLVMFuncOp func) {
  SmallVector<Operation *> candidates;
  func.walk([&](Operation *op) {
    if (isa<LLVM::ExtractValueOp, LLVM::ExtractElementOp, LLVM::BitcastOp,
            LLVM::FPExtOp, LLVM::SExtOp, LLVM::ZExtOp>(op))
      candidates.push_back(op);
  });
  for (Operation *op : llvm::reverse(candidates)) {
    Operation *firstUser = nullptr;
    bool sameBlock = true;
    for (Operation *user : op->getUsers()) {
      Operation *inBlock = op->getBlock()->findAncestorOpInBlock(*user);
      if (!inBlock) {
        sameBlock = false;
        break;
      }
      if (!firstUser || inBlock->isBeforeInBlock(firstUser))
        firstUser = inBlock;
    }
    if (sameBlock && firstUser && firstUser != op->getNextNode())
      op->moveBefore(firstUser);
  }
}

struct SinkUnpackingPass
    : public tk::impl::TkLlvmSinkUnpackingBase<SinkUnpackingPass> {
  void runOnOperation() override { getOperation().walk(sinkUnpackingOps); }
};

} // namespace
