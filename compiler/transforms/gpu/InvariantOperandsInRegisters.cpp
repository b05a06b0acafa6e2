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
// registers).
//
// When it pays. `always` loads every such operand, and otherwise the pass
// decides per loop (`automatic`), from two things measured on the H200
// (docs/benchmarks.md, thirteenth and fourteenth sessions):
//   - Registers. Where the copy pushed a kernel past its registers (the
//     attention backward's dK/dV at HEAD_DIM 128, which already spilled),
//     it lost 14 to 17%. The pass estimates the registers a thread holds
//     at the loop's busiest point: a backward scan over the loop body
//     (nested loops and branches included) keeps the tensor values live
//     there, each costing its elements per thread times their width in
//     32-bit registers (float and pointer tensors; constants, splats and
//     integer or i1 tensors nothing, a broadcast what its source costs,
//     an extract_slice nothing: getCost), plus every tensor the loop
//     uses from outside it (live in every iteration), plus the copy.
//     That peak plus a reserve for what the scan does not see
//     (addresses, indices, barrier phases, descriptors, ptxas's
//     temporaries: kReserveRegisters) must fit the
//     registers of the partition the loop runs in (warp_specialize's
//     consumer registers) or of the program (getEntryRegisters).
//   - Stages. Every kernel whose loop fed its dots from two slots lost
//     with the copy (10 to 12% on the two-stage BLOCK_M 256 forward, with
//     registers to spare: fewer instructions issued, more long-scoreboard
//     and barrier stalls), and every one with three or more slots gained
//     (1.5 to 8% forward, 2 to 7% backward). So the loop's dots must read
//     B from a multi-buffer of at least kMinSlots slots.
// Each decision is an optimization remark (category strategy; tkc
// --remarks prints it) and, with `report`, a diagnostic remark on the dot.
//
// Runs after the pipeliner and warp specialization, on the loops as they
// will run: the load then sits where the loop's own waits for the buffer
// (Q's TMA barrier, waited for before the loop) already ordered it, and
// the slots and partitions the decision reads exist.
//
//===----------------------------------------------------------------------===//
#include "compiler/transforms/gpu/Passes.h"

#include "dialects/tk/TkDialect.h"
#include "dialects/tkgpu/TkgpuDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Remarks.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/ADT/DenseSet.h"

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

/// Registers per thread that the peak estimate leaves for what it does not
/// count: addresses, loop indices, barrier phases, 64-bit wgmma
/// descriptors, index arithmetic, masks and ptxas's own temporaries.
constexpr int64_t kReserveRegisters = 40;
/// The fewest slots of B's multi-buffer with which the copy paid.
constexpr int64_t kMinSlots = 3;

/// 32-bit registers one thread holds of a distributed tensor of `type`:
/// its elements per thread times their width (pointers 64 bits).
int64_t getRegisters(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !getLayoutEncoding(type))
    return 0;
  Type element = tensor.getElementType();
  int64_t bits =
      element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 64;
  return llvm::divideCeil(getTotalElemsPerThread(type) * bits, 32);
}

/// What `value` costs in registers as ptxas will see it: the data (float
/// tensors: accumulators, scores, operands) and pointer tensors in full;
/// constants and splats nothing (immediates, one scalar), a broadcast
/// what its source costs (its copies are the same registers), integer and
/// i1 tensors nothing (index arithmetic becomes immediate offsets from a
/// per-thread base, comparisons predicates: the reserve's share).
int64_t getCost(Value value) {
  auto tensor = dyn_cast<RankedTensorType>(value.getType());
  if (!tensor || tensor.getElementType().isInteger())
    return 0;
  if (Operation *def = value.getDefiningOp()) {
    if (def->hasTrait<OpTrait::ConstantLike>() || isa<tk::SplatOp>(def))
      return 0;
    if (isa<tk::BroadcastOp>(def))
      return getCost(def->getOperand(0));
    // A window of a register tensor is some of its source's registers
    // (tkgpu-defer-row-sums' column blocks, read right away).
    if (isa<ExtractSliceOp>(def))
      return 0;
  }
  return getRegisters(tensor);
}

int64_t getCost(const DenseSet<Value> &values) {
  int64_t total = 0;
  for (Value value : values)
    total += getCost(value);
  return total;
}

/// The tensor values read inside `op` (by `op` itself too when
/// `withOwnOperands`) that are defined outside it.
void collectUsesFromOutside(Operation *op, DenseSet<Value> &uses,
                            bool withOwnOperands) {
  op->walk([&](Operation *inner) {
    if (inner == op && !withOwnOperands)
      return;
    for (Value operand : inner->getOperands())
      if (isa<RankedTensorType>(operand.getType()) &&
          !op->isAncestor(operand.getParentRegion()->getParentOp()))
        uses.insert(operand);
  });
}

/// The most registers live at once in `block`, not counting the values
/// defined outside it (the caller counts those): a backward scan from the
/// terminator's operands. At an op, what is live after it and its
/// results; inside an op's region, what is live across the op, what the
/// op reads from this block, and the region's own peak.
int64_t getPeakRegisters(Block &block) {
  auto definedHere = [&](Value value) {
    return value.getParentBlock() == &block;
  };
  DenseSet<Value> live;
  for (Value operand : block.getTerminator()->getOperands())
    if (isa<RankedTensorType>(operand.getType()) && definedHere(operand))
      live.insert(operand);
  int64_t peak = getCost(live);
  for (Operation &op : llvm::reverse(block.without_terminator())) {
    for (Value result : op.getResults())
      live.erase(result);
    DenseSet<Value> atOp = live;
    for (Value result : op.getResults())
      atOp.insert(result);
    peak = std::max(peak, getCost(atOp));
    DenseSet<Value> uses;
    collectUsesFromOutside(&op, uses, /*withOwnOperands=*/true);
    for (Value value : uses)
      if (definedHere(value))
        live.insert(value);
    for (Region &region : op.getRegions())
      for (Block &inner : region)
        peak = std::max(peak, getCost(live) + getPeakRegisters(inner));
  }
  for (BlockArgument arg : block.getArguments())
    live.insert(arg);
  return std::max(peak, getCost(live));
}

/// The registers a thread of `op`'s partition (or program) may hold.
int64_t getRegisterBudget(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp())
    if (auto split = dyn_cast<WarpSpecializeOp>(parent))
      if (split.getConsumer().isAncestor(op->getParentRegion()))
        return split.getConsumerRegisters();
  return getEntryRegisters(op, getTotalNumWarps(op) * getThreadsPerWarp(op));
}

/// The slots of the multi-buffer `operand` (a wgmma's B) is a slot of,
/// through views; 1 when it is a single buffer.
int64_t getSlots(Value operand) {
  while (Operation *def = operand.getDefiningOp()) {
    if (auto index = dyn_cast<MemDescIndexOp>(def))
      return cast<MemDescType>(index.getSrc().getType()).getShape()[0];
    auto view = dyn_cast<ViewLikeOpInterface>(def);
    if (!view)
      break;
    operand = view.getViewSource();
  }
  return 1;
}

struct InvariantOperandsInRegistersPass
    : public tkgpu::impl::TkgpuInvariantOperandsInRegistersBase<
          InvariantOperandsInRegistersPass> {
  using TkgpuInvariantOperandsInRegistersBase::
      TkgpuInvariantOperandsInRegistersBase;

  /// Whether a copy of `dot`'s A in registers of `type`, loaded before
  /// `loop` (`dot`'s loop or one around it), fits and pays: see the
  /// banner.
  bool pays(WarpGroupDotOp dot, scf::ForOp loop, RankedTensorType type) {
    int64_t slots = std::numeric_limits<int64_t>::max();
    dot->getParentOfType<scf::ForOp>().walk([&](WarpGroupDotOp inner) {
      slots = std::min(slots, getSlots(inner.getB()));
    });
    DenseSet<Value> fromOutside;
    collectUsesFromOutside(loop, fromOutside, /*withOwnOperands=*/false);
    int64_t peak = getCost(fromOutside) +
                   getPeakRegisters(*loop.getBody()) + getRegisters(type);
    int64_t budget = getRegisterBudget(loop);
    bool fits = peak + kReserveRegisters <= budget;
    bool staged = slots >= kMinSlots;
    std::string decision = llvm::formatv(
        "invariant A in registers: {0} (peak {1} registers with the copy's "
        "{2}, reserve {3}, budget {4}; {5} slots of B, at least {6})",
        fits && staged ? "yes" : "no", peak, getRegisters(type),
        kReserveRegisters, budget, slots, kMinSlots);
    if (report)
      dot.emitRemark() << decision;
    // tkc --remarks shows the decision and its numbers.
    auto opts = mlir::remark::RemarkOpts::name("InvariantAInRegisters")
                    .category("strategy");
    if (fits && staged)
      mlir::remark::passed(dot.getLoc(), opts) << decision;
    else
      mlir::remark::missed(dot.getLoc(), opts) << decision;
    return fits && staged;
  }

  void runOnOperation() override {
    if (!always && !automatic)
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
      if (!registers && !always && !pays(dot, loop, operandType))
        continue;
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
