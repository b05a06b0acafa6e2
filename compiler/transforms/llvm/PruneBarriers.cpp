//===- PruneBarriers.cpp - tk-llvm-prune-barriers -------------------------===//
//
// A barrier orders shared-memory accesses before it with those after it; a
// bar.sync that no shared-memory access precedes on any path since the
// last barrier (or the function entry) orders nothing and costs a CTA-wide
// wait. Lowerings keep barriers between the phases of one op (write,
// barrier, read) and tkgpu-membar places them between ops from shared
// memory intervals; after both, and once scf became a CFG, some are
// redundant: e.g. a phase barrier whose write was folded away, or a
// barrier on a path that no access reaches.
//
// A forward dataflow over the CFG of each llvm.func: "some shared-memory
// access happened since the last barrier", joined with or, starting false
// at the entry. A barrier reached with false on every path is erased.
//
//===----------------------------------------------------------------------===//
#include "compiler/transforms/llvm/Passes.h"

#include "dialects/tkgpu/NamedBarriers.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::tk {
#define GEN_PASS_DEF_TKLLVMPRUNEBARRIERS
#include "compiler/transforms/llvm/Passes.h.inc"
} // namespace mlir::tk

using namespace mlir;

namespace {

/// Whether `op` may read or write shared memory.
bool accessesSharedMemory(Operation *op) {
  auto isShared = [](Value ptr) {
    auto type = dyn_cast<LLVM::LLVMPointerType>(ptr.getType());
    return type && type.getAddressSpace() == 3;
  };
  // cp.async.wait_group takes no pointer, but it is where the copies'
  // writes land: the barrier after it orders them before other threads'
  // reads.
  if (isa<NVVM::CpAsyncWaitGroupOp>(op))
    return true;
  // wgmma reads its shared operands through descriptors (i64s, no pointer)
  // until its wait_group returns. A barrier after the wait orders those
  // reads before other warp groups overwrite the tile: with two warp
  // groups, one may still be reading while the other stores the next
  // operand. (NVVM declares no memory effects on these ops.)
  if (isa<NVVM::WgmmaMmaAsyncOp, NVVM::WgmmaWaitGroupSyncOp>(op))
    return true;
  if (auto load = dyn_cast<LLVM::LoadOp>(op))
    return isShared(load.getAddr());
  if (auto store = dyn_cast<LLVM::StoreOp>(op))
    return isShared(store.getAddr());
  if (auto asmOp = dyn_cast<LLVM::InlineAsmOp>(op))
    return asmOp.getAsmString().contains("shared");
  // Indirect calls could do anything; vprintf and __assertfail do not touch
  // shared memory unless given a shared pointer.
  if (auto call = dyn_cast<LLVM::CallOp>(op))
    return !call.getCallee() || llvm::any_of(op->getOperands(), isShared);
  if (isa<LLVM::AtomicRMWOp, LLVM::AtomicCmpXchgOp>(op))
    return llvm::any_of(op->getOperands(), isShared);
  // NVVM ops taking a shared pointer (ldmatrix, cp.async, ...).
  if (op->getDialect() &&
      op->getDialect()->getNamespace() ==
          NVVM::NVVMDialect::getDialectNamespace())
    return llvm::any_of(op->getOperands(), isShared);
  return false;
}

/// bar.sync 0, or a named barrier of a warp-specialized partition (no
/// reduction: those return a value someone reads). A barrier whose id is
/// not a constant below kFirstSchedulingBarrierId schedules warp groups
/// (tkgpu-pingpong's turns): its waits are paired with other groups'
/// arrives, so removing one would break the pairing, and it orders
/// memory only towards the waiting threads. It is neither removed nor
/// taken for a barrier.
bool isBarrier(Operation &op) {
  if (isa<NVVM::Barrier0Op>(op))
    return true;
  auto named = dyn_cast<NVVM::BarrierOp>(op);
  if (!named || named.getReductionOp())
    return false;
  if (!named.getBarrierId())
    return true;
  APInt id;
  return matchPattern(named.getBarrierId(), m_ConstantInt(&id)) &&
         id.getZExtValue() < tkgpu::kFirstSchedulingBarrierId;
}

void removeRedundantBarriers(LLVM::LLVMFuncOp func) {
  if (func.getBody().empty())
    return;
  llvm::DenseMap<Block *, bool> dirtyIn;
  SmallVector<Block *> worklist;
  Block *entry = &func.getBody().front();
  dirtyIn[entry] = false;
  worklist.push_back(entry);
  auto transfer = [](Block *block, bool dirty) {
    for (Operation &op : *block) {
      if (isBarrier(op))
        dirty = false;
      else if (accessesSharedMemory(&op))
        dirty = true;
    }
    return dirty;
  };
  while (!worklist.empty()) {
    Block *block = worklist.pop_back_val();
    bool out = transfer(block, dirtyIn[block]);
    for (Block *succ : block->getSuccessors()) {
      auto [it, inserted] = dirtyIn.try_emplace(succ, out);
      if (inserted || (out && !it->second)) {
        it->second = it->second || out;
        worklist.push_back(succ);
      }
    }
  }
  SmallVector<Operation *> redundant;
  for (auto [block, in] : dirtyIn) {
    bool dirty = in;
    for (Operation &op : *block) {
      if (isBarrier(op)) {
        if (!dirty)
          redundant.push_back(&op);
        dirty = false;
      } else if (accessesSharedMemory(&op)) {
        dirty = true;
      }
    }
  }
  for (Operation *op : redundant)
    op->erase();
}

struct PruneBarriersPass
    : public tk::impl::TkLlvmPruneBarriersBase<PruneBarriersPass> {
  void runOnOperation() override {
    getOperation().walk(removeRedundantBarriers);
  }
};

} // namespace
