//===- Prefetch.cpp - k-slices of dot operands, the first one a loop ahead --===//
//
// An mma.sync dot reads its operands from shared memory with ldmatrix.
// Loading a whole BLOCK_K tile of A and B before the first mma keeps all of
// it live in registers (at 128x128x64 with 4 warps: 64 + 64 registers per
// thread next to the 128 of the accumulator) and exposes the shared-memory
// latency at the top of every iteration. This pass does two things:
//
// 1. K-slices. A `tk.dot` whose operands are whole-tile `local_load`s into
//    #dot_operand layouts becomes a chain of dots over k-slices of one
//    instruction's K (8 * kWidth: 16 for f16/bf16, 8 for tf32, 32 for i8),
//    each operand slice a window load (`local_load %buf at [0, k]`):
//
//      a = local_load A; b = local_load B; d = dot a, b, c
//    becomes, with K = 2 slices,
//      a0 = local_load A[0, 0]; b0 = local_load B[0, 0];  d0 = dot a0, b0, c
//      a1 = local_load A[0, 16]; b1 = local_load B[16, 0]; d  = dot a1, b1, d0
//
//    so that only one slice per operand is live, and the scheduler can
//    overlap the loads of slice k+1 with the mma of slice k.
//
// 2. Prefetch. In an scf.for whose operand tile is `memdesc_index %buf[%s]`
//    of a multi-buffer defined outside the loop, %s an iter_arg (the form
//    tkgpu-pipeline produces), the first slice is loaded one iteration
//    ahead: before the loop from %buf[init of %s], and at the end of the
//    body from %buf[next %s], carried as an iter_arg. Then the first mma of
//    an iteration has its operands in registers, and their loads overlap
//    the last mmas of the previous iteration.
//
//    This is exact when no op of the body before the load writes memory
//    (nor waits for async copies): the load then sees the memory that the
//    end of the previous iteration (or the loop's entry) sees. The
//    pipeliner puts its wait and copies at the end of the body for that
//    reason; the copies in flight there target another slot, and membar's
//    one barrier per iteration, after the wait, orders the early load after
//    the landed copies of its slot.
//
//    A whole-tile load outside the dot's block (a loop-invariant operand
//    that accelerate-matmul staged before the loop) is sliced where it is:
//    its slices are read once and stay in registers across the loop.
//
//    An A operand already in registers (attention's P, fed to P @ V by
//    tkgpu-operands-in-registers) is sliced with tkgpu.extract_slice, which
//    only picks registers, when the LinearLayouts show that each slice's
//    elements stay in their threads; B is then sliced as usual, so only
//    one K-slice of B is live at a time.
//
// Dots whose B operand is computed in registers (tf32x3's split operands)
// or loads with other users are left alone, as are tiles whose K is not a
// multiple of the slice.
//
//===----------------------------------------------------------------------===//
#include "compiler/transforms/gpu/Passes.h"
#include "compiler/analysis/ScratchSize.h"
#include "compiler/analysis/SlotIndex.h"
#include "dialects/tk/TkDialect.h"
#include "dialects/tkgpu/TkgpuDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tkgpu {
#define GEN_PASS_DEF_TKGPUPREFETCH
#include "compiler/transforms/gpu/Passes.h.inc"
} // namespace mlir::tkgpu

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

/// The whole-tile dot-operand load feeding operand `opIdx` of `dot`, or
/// null.
LocalLoadOp getOperandLoad(tk::DotOp dot, Value operand) {
  auto load = operand.getDefiningOp<LocalLoadOp>();
  if (!load || load.getOffsets() || !load->hasOneUse())
    return nullptr;
  if (!isa<DotOperandEncodingAttr>(load.getType().getEncoding()))
    return nullptr;
  return load;
}

/// A window of `load`'s result: `extent` elements of dimension `kDim` at
/// `offset` (the other dimension whole).
LocalLoadOp createSlice(OpBuilder &b, LocalLoadOp load, unsigned kDim,
                        int64_t offset, int64_t extent) {
  RankedTensorType whole = load.getType();
  SmallVector<int64_t> shape(whole.getShape());
  shape[kDim] = extent;
  SmallVector<int64_t> origin(shape.size(), 0);
  origin[kDim] = offset;
  auto type = RankedTensorType::get(shape, whole.getElementType(),
                                    whole.getEncoding());
  return LocalLoadOp::create(b, load.getLoc(), type, load.getBuffer(),
                             b.getDenseI64ArrayAttr(origin));
}

/// Whether the K-slices of `slice` columns of the register A operand `a`
/// can be picked from its registers (tkgpu.extract_slice).
bool canSliceRegisters(Value a, int64_t slice) {
  auto type = dyn_cast<RankedTensorType>(a.getType());
  if (!type || !isa_and_nonnull<DotOperandEncodingAttr>(type.getEncoding()))
    return false;
  int64_t k = type.getDimSize(1);
  if (k % slice != 0)
    return false;
  LinearLayout whole = toLinearLayout(type);
  LinearLayout part =
      toLinearLayout({type.getDimSize(0), slice}, type.getEncoding());
  SmallVector<int32_t> mapping;
  for (int64_t offset = 0; offset < k; offset += slice)
    if (!mapWindowRegisters(whole, part, {0, offset}, mapping))
      return false;
  return true;
}

/// Splits `dot` into k-slices; returns the first slice's two loads (null
/// when the dot is left alone; the first is null for a register A).
std::pair<LocalLoadOp, LocalLoadOp> splitDot(tk::DotOp dot) {
  LocalLoadOp a = getOperandLoad(dot, dot.getA());
  LocalLoadOp b = getOperandLoad(dot, dot.getB());
  if (!b)
    return {};
  auto encoding = cast<DotOperandEncodingAttr>(b.getType().getEncoding());
  int64_t slice = 8 * encoding.getKWidth();
  int64_t k = b.getType().getDimSize(0);
  if (k % slice != 0)
    return {};
  Value registerA = a ? Value() : dot.getA();
  if (registerA && !canSliceRegisters(registerA, slice))
    return {};
  OpBuilder builder(dot);
  // Slices of a load hoisted out of the dot's block stay next to it.
  auto sliceBuilder = [&](LocalLoadOp load) {
    OpBuilder at(dot);
    if (load->getBlock() != dot->getBlock())
      at.setInsertionPoint(load);
    return at;
  };
  OpBuilder aBuilder = a ? sliceBuilder(a) : OpBuilder(dot);
  OpBuilder bBuilder = sliceBuilder(b);
  Value acc = dot.getC();
  std::pair<LocalLoadOp, LocalLoadOp> first;
  for (int64_t offset = 0; offset < k; offset += slice) {
    Value aSlice;
    if (a) {
      aSlice = createSlice(aBuilder, a, 1, offset, slice);
    } else {
      auto type = cast<RankedTensorType>(registerA.getType());
      aSlice = ExtractSliceOp::create(
          aBuilder, dot.getLoc(),
          RankedTensorType::get({type.getDimSize(0), slice},
                                type.getElementType(), type.getEncoding()),
          registerA, aBuilder.getDenseI64ArrayAttr({0, offset}));
    }
    LocalLoadOp bSlice = createSlice(bBuilder, b, 0, offset, slice);
    if (offset == 0)
      first = {aSlice.getDefiningOp<LocalLoadOp>(), bSlice};
    Operation *part = builder.clone(*dot);
    part->setOperands({aSlice, bSlice, acc});
    acc = part->getResult(0);
  }
  dot.replaceAllUsesWith(acc);
  dot.erase();
  if (a)
    a.erase();
  b.erase();
  return first;
}

/// Whether `op` may write memory or wait for writes (conservative).
bool mayWrite(Operation *op) {
  if (auto effects = dyn_cast<MemoryEffectOpInterface>(op)) {
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffects(instances);
    if (llvm::any_of(instances, [](const MemoryEffects::EffectInstance &e) {
          return isa<MemoryEffects::Write>(e.getEffect());
        }))
      return true;
  } else if (!op->hasTrait<OpTrait::HasRecursiveMemoryEffects>()) {
    return true;
  }
  for (Region &region : op->getRegions())
    for (Operation &nested : region.getOps())
      if (mayWrite(&nested))
        return true;
  return false;
}

/// One first-slice load to issue an iteration ahead.
struct Prefetch {
  LocalLoadOp load;
  MemDescIndexOp tile;
  BlockArgument slot; // the loop's iter_arg indexing the multi-buffer
};

std::optional<Prefetch> matchPrefetch(scf::ForOp loop, LocalLoadOp load) {
  Block *body = loop.getBody();
  if (load->getBlock() != body)
    return std::nullopt;
  auto tile = load.getBuffer().getDefiningOp<MemDescIndexOp>();
  if (!tile || tile->getBlock() != body ||
      !loop.isDefinedOutsideOfLoop(tile.getSrc()))
    return std::nullopt;
  auto slot = dyn_cast<BlockArgument>(tile.getIndex());
  if (!slot || slot.getOwner() != body || slot == loop.getInductionVar())
    return std::nullopt;
  for (Operation &op : *body) {
    if (&op == load.getOperation())
      return Prefetch{load, tile, slot};
    if (mayWrite(&op))
      return std::nullopt;
  }
  return std::nullopt;
}

/// `prefetch`'s load of the tile at `slot` (a clone of tile and load).
Value emitLoad(OpBuilder &b, Prefetch prefetch, Value slot) {
  IRMapping map;
  map.map(prefetch.tile.getIndex(), slot);
  Operation *tile = b.clone(*prefetch.tile, map);
  map.map(prefetch.tile.getResult(), tile->getResult(0));
  return b.clone(*prefetch.load, map)->getResult(0);
}

/// Whether `op`, between the body's last async_wait and the end of the
/// body, leaves the slots `loads` read untouched: it writes nothing, or it
/// closes a group of copies, or it is a cp.async into another allocation
/// (both live, so disjoint) or into a slot of the same one that provably
/// differs from the load's.
bool leavesSlotsAlone(Operation *op, ArrayRef<LocalLoadOp> loads) {
  if (isa<AsyncCommitGroupOp>(op) || !mayWrite(op))
    return true;
  auto copy = dyn_cast<AsyncCopyGlobalToLocalOp>(op);
  std::optional<SlotRef> written =
      copy ? getSlotRef(copy.getBuffer()) : std::nullopt;
  if (!written || !written->buffer.getDefiningOp<LocalAllocOp>())
    return false;
  return llvm::all_of(loads, [&](LocalLoadOp load) {
    std::optional<SlotRef> read = getSlotRef(load.getBuffer());
    if (!read || !read->buffer.getDefiningOp<LocalAllocOp>())
      return false;
    return read->buffer != written->buffer ||
           areDistinctSlots(*read, *written);
  });
}

/// (tkgpu-prefetch's before-copies, on by default for f16/bf16.) Moves the
/// first-slice loads of the next iteration (`loads`, emitted at
/// the end of `loop`'s body with their memdesc_index and slot arithmetic)
/// up to right after the body's last async_wait, when every op between
/// leaves their slots alone. At the end they follow the pipeliner's
/// cp.async copies, and ptxas does not move an ldmatrix above a write of
/// shared memory, so their latency fell on the first mma of the next
/// iteration (ncu: the largest single stall of the mma.sync matmul).
/// Issued before the copies, they overlap the last k-slice's mma.sync,
/// which ptxas schedules below the iteration's barrier. The loads read the
/// next slot while the copies fill the current one; tkgpu-membar tells the
/// two apart (SlotIndex.h), so the iteration keeps one barrier.
void hoistBelowWait(scf::ForOp loop, ArrayRef<LocalLoadOp> loads) {
  Block *body = loop.getBody();
  AsyncWaitOp wait;
  for (Operation &op : *body)
    if (auto w = dyn_cast<AsyncWaitOp>(op))
      wait = w;
  if (!wait || loads.empty())
    return;
  // What moves: the loads and everything after the wait they are computed
  // from (their memdesc_index and the next slot's arithmetic), pure.
  llvm::SetVector<Operation *> moving;
  SmallVector<Operation *> work;
  for (LocalLoadOp load : loads)
    work.push_back(load);
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    if (op->getBlock() != body || op->isBeforeInBlock(wait) ||
        !moving.insert(op))
      continue;
    auto load = dyn_cast<LocalLoadOp>(op);
    bool isPrefetch = load && llvm::is_contained(loads, load);
    if (!isPrefetch && (!isPure(op) || op->getNumRegions() != 0))
      return;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        work.push_back(def);
  }
  for (Operation *op = wait->getNextNode(); op != body->getTerminator();
       op = op->getNextNode())
    if (!moving.contains(op) && !leavesSlotsAlone(op, loads))
      return;
  SmallVector<Operation *> ordered(moving.begin(), moving.end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  Operation *after = wait;
  for (Operation *op : ordered) {
    op->moveAfter(after);
    after = op;
  }
}

/// Whether every prefetched operand is f16 or bf16: the loops where loading
/// before the copies was measured faster (docs/benchmarks.md, twentieth
/// session: +1 to +8% on five of eight mma.sync tiles, the best tile of each
/// shape faster). tf32 and i8 operands take more registers with it (two i8
/// kernels spilled), and stay as they were.
bool hasHalfOperands(ArrayRef<Prefetch> prefetches) {
  return llvm::all_of(prefetches, [](Prefetch prefetch) {
    Type element = prefetch.load.getType().getElementType();
    return element.isF16() || element.isBF16();
  });
}

void prefetchLoop(scf::ForOp loop, MutableArrayRef<Prefetch> prefetches,
                  bool beforeCopies) {
  beforeCopies = beforeCopies && hasHalfOperands(prefetches);
  IRRewriter rewriter(loop);
  SmallVector<Value> inits;
  for (Prefetch &prefetch : prefetches)
    inits.push_back(emitLoad(rewriter, prefetch,
                             loop.getTiedLoopInit(prefetch.slot)->get()));
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  SmallVector<LocalLoadOp> nextLoads;
  FailureOr<LoopLikeOpInterface> replaced = loop.replaceWithAdditionalYields(
      rewriter, inits, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &b, Location, ArrayRef<BlockArgument>) {
        SmallVector<Value> next;
        for (Prefetch &prefetch : prefetches) {
          next.push_back(emitLoad(
              b, prefetch,
              yield.getOperand(prefetch.slot.getArgNumber() - 1)));
          nextLoads.push_back(next.back().getDefiningOp<LocalLoadOp>());
        }
        return next;
      });
  if (failed(replaced))
    return;
  auto newLoop = cast<scf::ForOp>(replaced->getOperation());
  ArrayRef<BlockArgument> args = newLoop.getRegionIterArgs().take_back(
      prefetches.size());
  for (auto [prefetch, arg] : llvm::zip_equal(prefetches, args)) {
    prefetch.load.replaceAllUsesWith(arg);
    prefetch.load.erase();
    if (prefetch.tile->use_empty())
      prefetch.tile.erase();
  }
  if (beforeCopies)
    hoistBelowWait(newLoop, nextLoads);
}

struct PrefetchPass : public tkgpu::impl::TkgpuPrefetchBase<PrefetchPass> {
  using TkgpuPrefetchBase::TkgpuPrefetchBase;

  void runOnOperation() override {
    SmallVector<tk::DotOp> dots;
    getOperation().walk([&](tk::DotOp dot) {
      if (isa_and_nonnull<MmaEncodingAttr>(dot.getType().getEncoding()))
        dots.push_back(dot);
    });
    llvm::MapVector<scf::ForOp, SmallVector<Prefetch>> loops;
    for (tk::DotOp dot : dots) {
      auto loop = dot->getParentOfType<scf::ForOp>();
      auto [a, b] = splitDot(dot);
      if (!b || !loop)
        continue;
      for (LocalLoadOp load : {a, b})
        if (std::optional<Prefetch> prefetch =
                load ? matchPrefetch(loop, load) : std::nullopt)
          loops[loop].push_back(*prefetch);
    }
    for (auto &[loop, prefetches] : loops)
      prefetchLoop(loop, prefetches, beforeCopies);
  }
};

} // namespace
