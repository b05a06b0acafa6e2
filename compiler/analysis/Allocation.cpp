//===- Allocation.cpp - shared-memory allocation --------------------------===//
//
// Lifetimes. The ops of a function are numbered in program order (pre-order
// walk); an op with regions also knows the last number inside it. An
// allocation is live over a closed range of numbers:
//   - an explicit buffer (local_alloc) from its local_alloc to its last use,
//     uses counted over every alias (memdesc_index, loop-carried values,
//     if results); a use inside a loop that does not contain the
//     local_alloc keeps the buffer live to the end of that loop (the next
//     iteration uses it again); a buffer a TMA store reads stays live to
//     the end of the block of the store, since the copy reads it until an
//     async_tma_store_wait that tkgpu-membar places as late as it can (a
//     buffer reusing those bytes earlier would force that wait early:
//     the backward's dV staged in dK's bytes waited for dK's store);
//   - a scratch interval (ScratchOpInterface, nonzero size) over its op
//     alone.
// Offsets. Largest first (ties: earliest first), each allocation takes the
// lowest aligned offset (0 or the end of a placed allocation) where it
// overlaps no placed allocation whose lifetime it overlaps: first fit, so
// allocations with disjoint lifetimes share bytes. Scratch is aligned as
// its op asks (16 by default); buffers to 16 bytes, or 128 from 128 bytes
// on, so that swizzled layouts see the bank pattern they were built for;
// nvmma_shared buffers (wgmma operands) to 8 rows of their swizzle (up to
// 1024 bytes), where the hardware swizzle pattern repeats.
//
//===----------------------------------------------------------------------===//
#include "compiler/analysis/Allocation.h"

#include "dialects/tkgpu/TkgpuDialect.h"
#include "dialects/tkgpu/TkgpuTmaOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tkgpu;

//===----------------------------------------------------------------------===//
// Aliases
//===----------------------------------------------------------------------===//

/// Values a use of a memdesc passes the buffer on to.
static void forwardAlias(OpOperand &use, SmallVectorImpl<Value> &next) {
  Operation *user = use.getOwner();
  unsigned n = use.getOperandNumber();
  // memdesc_index and memdesc_trans: views of their source's bytes.
  if (auto view = dyn_cast<ViewLikeOpInterface>(user)) {
    if (use.get() == view.getViewSource())
      next.push_back(view.getViewDest());
    return;
  }
  if (auto forOp = dyn_cast<scf::ForOp>(user)) {
    if (n >= forOp.getNumControlOperands()) {
      next.push_back(forOp.getTiedLoopRegionIterArg(&use));
      next.push_back(forOp.getTiedLoopResult(&use));
    }
    return;
  }
  if (auto whileOp = dyn_cast<scf::WhileOp>(user)) {
    next.push_back(whileOp.getBeforeArguments()[n]);
    return;
  }
  if (auto condition = dyn_cast<scf::ConditionOp>(user)) {
    if (n == 0)
      return;
    auto whileOp = cast<scf::WhileOp>(condition->getParentOp());
    next.push_back(whileOp.getAfterArguments()[n - 1]);
    next.push_back(whileOp.getResult(n - 1));
    return;
  }
  if (auto yield = dyn_cast<scf::YieldOp>(user)) {
    Operation *parent = yield->getParentOp();
    if (auto forOp = dyn_cast<scf::ForOp>(parent)) {
      next.push_back(forOp.getRegionIterArgs()[n]);
      next.push_back(forOp.getResult(n));
    } else if (auto ifOp = dyn_cast<scf::IfOp>(parent)) {
      next.push_back(ifOp.getResult(n));
    } else if (auto whileOp = dyn_cast<scf::WhileOp>(parent)) {
      next.push_back(whileOp.getBeforeArguments()[n]);
    }
  }
}

SmallVector<Value> tkgpu::getBufferAliases(Value allocResult) {
  SmallVector<Value> aliases;
  llvm::DenseSet<Value> seen;
  SmallVector<Value> worklist = {allocResult};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    aliases.push_back(value);
    SmallVector<Value> next;
    for (OpOperand &use : value.getUses())
      forwardAlias(use, next);
    worklist.append(next.begin(), next.end());
  }
  return aliases;
}

//===----------------------------------------------------------------------===//
// Intervals of memdesc values
//===----------------------------------------------------------------------===//

namespace {
/// What a value is known to designate: nothing yet (a cycle through a
/// loop), an interval, or unknown.
struct IntervalLattice {
  enum Kind { None, Known, Unknown } kind = None;
  SharedInterval interval;

  static IntervalLattice unknown() { return {Unknown, {}}; }
  static IntervalLattice known(SharedInterval i) { return {Known, i}; }
  IntervalLattice join(const IntervalLattice &other) const {
    if (kind == None)
      return other;
    if (other.kind == None)
      return *this;
    if (kind == Unknown || other.kind == Unknown)
      return unknown();
    return known(interval.hull(other.interval));
  }
};
} // namespace

static IntervalLattice resolve(Value value, llvm::DenseSet<Value> &visiting);

static IntervalLattice resolveYielded(Operation *terminator, unsigned n,
                                      llvm::DenseSet<Value> &visiting) {
  if (!terminator || n >= terminator->getNumOperands())
    return IntervalLattice::unknown();
  return resolve(terminator->getOperand(n), visiting);
}

static IntervalLattice resolve(Value value, llvm::DenseSet<Value> &visiting) {
  if (!visiting.insert(value).second)
    return {};
  IntervalLattice result = IntervalLattice::unknown();
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *parent = arg.getOwner()->getParentOp();
    if (auto forOp = dyn_cast<scf::ForOp>(parent)) {
      if (arg.getArgNumber() >= 1) {
        unsigned n = arg.getArgNumber() - 1;
        result = resolve(forOp.getInitArgs()[n], visiting)
                     .join(resolveYielded(
                         forOp.getBody()->getTerminator(), n, visiting));
      }
    } else if (auto whileOp = dyn_cast<scf::WhileOp>(parent)) {
      unsigned n = arg.getArgNumber();
      if (arg.getOwner() == whileOp.getBeforeBody())
        result = resolve(whileOp.getInits()[n], visiting)
                     .join(resolveYielded(
                         whileOp.getAfterBody()->getTerminator(), n,
                         visiting));
      else
        result = resolveYielded(whileOp.getConditionOp(), n + 1, visiting);
    }
  } else {
    Operation *def = value.getDefiningOp();
    unsigned n = cast<OpResult>(value).getResultNumber();
    if (auto alloc = dyn_cast<LocalAllocOp>(def)) {
      if (auto offset = alloc->getAttrOfType<IntegerAttr>(kSharedOffsetAttr))
        result = IntervalLattice::known(
            {offset.getInt(), offset.getInt() + getSizeInBytes(alloc.getType())});
    } else if (auto index = dyn_cast<MemDescIndexOp>(def)) {
      result = resolve(index.getSrc(), visiting);
      APInt constant;
      if (result.kind == IntervalLattice::Known &&
          matchPattern(index.getIndex(), m_ConstantInt(&constant))) {
        int64_t bytes = getSizeInBytes(index.getType());
        int64_t start = result.interval.start + constant.getSExtValue() * bytes;
        result = IntervalLattice::known({start, start + bytes});
      }
    } else if (auto view = dyn_cast<ViewLikeOpInterface>(def)) {
      result = resolve(view.getViewSource(), visiting);
    } else if (auto forOp = dyn_cast<scf::ForOp>(def)) {
      result = resolve(forOp.getRegionIterArgs()[n], visiting);
    } else if (auto ifOp = dyn_cast<scf::IfOp>(def)) {
      result = resolveYielded(ifOp.thenYield(), n, visiting);
      result = ifOp.getElseRegion().empty()
                   ? IntervalLattice::unknown()
                   : result.join(resolveYielded(ifOp.elseYield(), n, visiting));
    } else if (auto whileOp = dyn_cast<scf::WhileOp>(def)) {
      result = resolveYielded(whileOp.getConditionOp(), n + 1, visiting);
    }
  }
  visiting.erase(value);
  return result;
}

std::optional<SharedInterval> tkgpu::getMemDescInterval(Value memdesc) {
  llvm::DenseSet<Value> visiting;
  IntervalLattice result = resolve(memdesc, visiting);
  if (result.kind != IntervalLattice::Known)
    return std::nullopt;
  return result.interval;
}

//===----------------------------------------------------------------------===//
// Allocation
//===----------------------------------------------------------------------===//

namespace {

struct Allocation {
  Operation *op;
  bool isScratch;
  int64_t size;
  int64_t alignment;
  int64_t firstUse; // program-order numbers, inclusive
  int64_t lastUse;
  int64_t offset = -1;

  bool livesWith(const Allocation &other) const {
    return firstUse <= other.lastUse && other.firstUse <= lastUse;
  }
};

/// Program-order numbers: `first` of an op, `last` of its subtree.
struct Numbering {
  llvm::DenseMap<Operation *, int64_t> first, last;
  int64_t next = 0;

  void number(Operation *op) {
    first[op] = next++;
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Operation &nested : block)
          number(&nested);
    last[op] = next - 1;
  }
};

} // namespace

static int64_t getBufferAlignment(MemDescType type, int64_t size) {
  // wgmma operand tiles: the hardware swizzle repeats every 8 rows.
  if (auto nvmma = dyn_cast<NvmmaSharedEncodingAttr>(type.getEncoding()))
    return nvmma.getRequiredAlignment();
  return size >= 128 ? 128 : 16;
}

int64_t tkgpu::allocateSharedMemory(Operation *func, bool recordOffsets) {
  Numbering numbering;
  numbering.number(func);

  SmallVector<Allocation> allocations;
  func->walk([&](Operation *op) {
    if (auto alloc = dyn_cast<LocalAllocOp>(op)) {
      int64_t size = getSizeInBytes(alloc.getType());
      Allocation a{op, false, size, getBufferAlignment(alloc.getType(), size),
                   numbering.first[op], numbering.last[op]};
      for (Value alias : getBufferAliases(alloc.getResult()))
        for (Operation *user : alias.getUsers()) {
          // The outermost loop around the use that the buffer is not
          // allocated in: live for all of it.
          Operation *span = user;
          if (isa<AsyncTmaCopyLocalToGlobalOp>(user))
            span = &user->getBlock()->back();
          for (Operation *p = user->getParentOp(); p && p != func;
               p = p->getParentOp())
            if (isa<LoopLikeOpInterface>(p) && !p->isAncestor(op))
              span = p;
          a.lastUse = std::max(a.lastUse, numbering.last[span]);
        }
      allocations.push_back(a);
      return;
    }
    if (auto scratch = dyn_cast<ScratchOpInterface>(op)) {
      int64_t size = scratch.getScratchSizeInBytes();
      if (size > 0)
        allocations.push_back({op, true, size,
                               std::max<int64_t>(1,
                                                 scratch.getScratchAlignment()),
                               numbering.first[op], numbering.last[op]});
    }
  });

  SmallVector<Allocation *> order;
  for (Allocation &a : allocations)
    order.push_back(&a);
  llvm::stable_sort(order, [](const Allocation *a, const Allocation *b) {
    if (a->size != b->size)
      return a->size > b->size;
    return a->firstUse < b->firstUse;
  });

  int64_t total = 0;
  SmallVector<Allocation *> placed;
  for (Allocation *a : order) {
    SmallVector<Allocation *> live;
    for (Allocation *p : placed)
      if (p->livesWith(*a))
        live.push_back(p);
    SmallVector<int64_t> candidates = {0};
    for (Allocation *p : live)
      candidates.push_back(
          llvm::alignTo(p->offset + p->size, static_cast<uint64_t>(a->alignment)));
    llvm::sort(candidates);
    for (int64_t candidate : candidates) {
      SharedInterval mine{candidate, candidate + a->size};
      if (llvm::none_of(live, [&](Allocation *p) {
            return mine.overlaps({p->offset, p->offset + p->size});
          })) {
        a->offset = candidate;
        break;
      }
    }
    placed.push_back(a);
    total = std::max(total, a->offset + a->size);
  }

  if (!recordOffsets)
    return total;
  Builder builder(func->getContext());
  for (Allocation &a : allocations)
    a.op->setAttr(a.isScratch ? kScratchOffsetAttr : kSharedOffsetAttr,
                  builder.getI64IntegerAttr(a.offset));
  return total;
}
