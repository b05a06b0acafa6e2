//===- Membar.cpp - tkgpu-membar ------------------------------------------===//
//
// Threads of a CTA share the dynamic shared memory; an access by one
// thread is ordered with another thread's only through a barrier. This
// pass inserts `tkgpu.barrier` before each op whose shared-memory access
// conflicts with an access made since the last barrier: the intervals
// overlap and one of the two writes (RAW, WAR, WAW).
//
// Accesses of an op:
//   - its MemoryEffectOpInterface effects on the SharedMemory resource
//     (reads and writes; allocation and freeing touch no bytes), applying
//     to the effect's value or else to the op's memdesc operands;
//     local_alloc with a value writes its buffer;
//   - ScratchOpInterface ops with a nonzero size: a read and a write of
//     their scratch interval (tkgpu.scratch_offset);
//   - calls: a write of everything.
// The bytes of a memdesc come from getMemDescInterval (the allocation's
// attributes; a dynamic memdesc_index designates the whole multi-buffer);
// an unknown interval counts as all of shared memory. An access of a slot
// (memdesc_index with a dynamic index) also keeps its buffer and index:
// two slots of one buffer whose indices provably differ
// (compiler/analysis/SlotIndex.h: %s and the pipeliner's advance of %s) do
// not conflict. That lets tkgpu-prefetch read the next stage's slot before
// the copies into the current one are issued with no barrier between them.
// An index names one slot only within one iteration, so the slots are
// forgotten on the state that flows around a loop's back edge.
// async_commit_group touches nothing; async_wait completes the thread's
// outstanding copies, whose writes count from there on as a pending write
// of all shared memory, so that the next read waits for every thread's
// copies. An async copy is checked where it is issued (it must not
// overwrite what other threads may still read or write: WAR, WAW), but its
// write is not pending from there: its bytes land at an async_wait, so
// what orders them before a read is the wait plus a barrier after it; a
// barrier between the copy and the read would order nothing. (This is what
// lets the pipeliner's loop run with one barrier per iteration.)
//
// wgmma reads shared memory asynchronously: the reads of an async
// warp_group_dot are in flight (one wgmma group per dot) from its issue
// until a `warp_group_dot_wait {pendings = n}` retires it (all groups but
// the n most recent), and only then become ordinary pending reads that a
// barrier orders. A barrier neither ends an in-flight read nor orders a
// write after it, so writes are not checked against in-flight reads: the
// producer of the IR must retire the dot first (the pipeliner refills a
// slot only after the wait that retires its reader; membar sees a
// dynamically indexed multi-buffer as one interval, so it could not tell
// the slots apart anyway). A synchronous warp_group_dot reads like
// local_load.
// fence_async_shared touches nothing.
//
// TMA and mbarriers (TkgpuTmaOps.td). The mbarrier operations synchronise
// among themselves (arrive/expect_tx, try_wait and a copy's complete_tx
// are atomic on the barrier word), so barrier_expect, arrive_barrier,
// wait_barrier and a TMA load count as reads of the barrier: ordered
// after its init_barrier (a write, by thread 0) and before its
// inval_barrier, but not against each other. A TMA load's write of its
// buffer is checked where it is issued (WAR, WAW) and is never pending:
// it completes at the mbarrier wait, which makes it visible to each
// waiting thread, so no bar.sync orders it (a barrier between the wait
// and the reads would order nothing). A TMA store reads its buffer from
// its issue on (pending like any read, so that later writes wait for the
// barrier after its async_tma_store_wait); async_tma_store_wait itself
// touches nothing.
//
// TMA store waits. A TMA store's read of its buffer runs from its issue
// until an `async_tma_store_wait {pendings = N}` (cp.async.bulk.wait_group
// .read N, by the issuing thread) that leaves fewer than N younger store
// groups in flight (each store is one bulk group); no CTA barrier ends it.
// tkgpu-lower-tma issues the store without a wait, and this pass places
// the wait where it is first needed: right before the first access that
// writes bytes a store in flight still reads (the next tile's staging of
// the same buffer in a persistent kernel, another allocation reusing its
// bytes, the next block of a subtiled store's ring), with N the number of
// store groups issued after the most recent one it conflicts with, and at
// the end of the function or partition, N = 0, since the CTA's shared
// memory must outlive the copy. The groups are tracked by age as the
// wgmma groups are. Until then the store drains while the warps run
// on (the next tile's K loop). After the wait the read is an ordinary
// pending read, so the barrier that orders the other threads' write
// follows the wait: `async_tma_store_wait; barrier; write`. The stores in
// flight flow through loops and branches with the rest of the state, so
// a store at the bottom of a loop body is waited for before the staging
// write of the next iteration and after the loop.
//
// Proxies. TMA reads and writes shared memory through the async proxy,
// ordinary loads and stores (local_alloc/local_store, scratch, cp.async's
// landed copies) through the generic proxy. A generic write followed by a
// TMA access of the same bytes needs `fence.proxy.async` by the writing
// threads before the barrier that orders them: the set of generic writes
// since the last fence_async_shared flows with the pending set, and a TMA
// op overlapping one gets a fence_async_shared and a barrier right before
// it (a barrier of its own even where an earlier one ordered the write,
// since the fence must come before the barrier). wgmma also reads through
// the async proxy; its fences are placed explicitly by accelerate-matmul
// and the pipeliner, so warp_group_dot is not checked here.
//
// Warp specialization. A tkgpu.warp_specialize starts after a barrier when
// anything is pending; its consumer and producer regions are analysed
// separately from that state (their only synchronisation is through
// mbarriers, which the rewrite that made them placed).
//
// Clusters. A tkgpu.cluster_barrier (barrier.cluster, every thread of
// every CTA of the cluster) clears the pending set as a barrier does, and
// is no access; in a kernel without clusters it lowers to nothing and is
// skipped.
//
// The pending set (accesses since the last barrier on some path) flows
// forward through the structured control flow: an scf.if joins (unions)
// both branches; scf.for and scf.while iterate their body from the entry
// state joined with the state at the back edge until it no longer grows,
// then place barriers with that fixed point, so that an access at the top
// of a loop sees the accesses at the bottom of the previous iteration. A
// barrier (an existing tkgpu.barrier or one inserted) clears the set.
// Where the accesses pending at a loop would put a barrier into its body
// that a barrier before the loop would make unnecessary (a buffer written
// before the loop and read in it: attention's Q tile), the barrier goes
// before the loop, to run once instead of every iteration; a dry run of
// the loop with and without the pending accesses counts the barriers.
//
//===----------------------------------------------------------------------===//
#include "compiler/analysis/Allocation.h"
#include "compiler/analysis/SlotIndex.h"
#include "compiler/transforms/gpu/Passes.h"
#include "dialects/tkgpu/TkgpuTmaOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <limits>
#include <set>
#include <tuple>
#include <utility>

namespace mlir::tkgpu {
#define GEN_PASS_DEF_TKGPUMEMBAR
#include "compiler/transforms/gpu/Passes.h.inc"
} // namespace mlir::tkgpu

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

constexpr SharedInterval kAllSharedMemory{
    0, std::numeric_limits<int64_t>::max()};

/// One access: bytes [start, end), whether it writes, and, for a slot of
/// a multi-buffer at a dynamic index, the buffer and the index (null
/// otherwise): two slots that SlotIndex.h proves different do not conflict
/// although their intervals (the whole multi-buffer) overlap.
struct Access {
  int64_t start;
  int64_t end;
  bool isWrite;
  SlotRef slot = {}; // slot.buffer null: not a slot

  auto key() const {
    return std::make_tuple(start, end, isWrite,
                           slot.buffer.getAsOpaquePointer(),
                           slot.index.getAsOpaquePointer());
  }
  bool operator<(const Access &other) const { return key() < other.key(); }
  bool operator==(const Access &other) const { return key() == other.key(); }

  /// The same access with its slot forgotten.
  Access withoutSlot() const { return {start, end, isWrite}; }
};
using Pending = std::set<Access>;

/// Wgmma groups in flight tracked separately; older ones are merged.
constexpr size_t kMaxTrackedGroups = 8;

/// What flows through the program: the accesses since the last barrier,
/// the reads of wgmma groups in flight, the most recent first, the
/// generic-proxy writes since the last proxy fence, and the reads of TMA
/// store groups not yet waited for, the most recent first.
struct State {
  Pending pending;
  std::vector<Pending> inFlight;
  Pending unfenced;
  std::vector<Pending> storesInFlight;

  bool operator==(const State &other) const {
    return pending == other.pending && inFlight == other.inFlight &&
           unfenced == other.unfenced &&
           storesInFlight == other.storesInFlight;
  }
};

bool conflicts(const Access &a, const Access &b) {
  if (!(a.isWrite || b.isWrite) ||
      !SharedInterval{a.start, a.end}.overlaps({b.start, b.end}))
    return false;
  return !(a.slot.buffer && b.slot.buffer &&
           areDistinctSlots(a.slot, b.slot));
}

Access makeAccess(std::optional<SharedInterval> interval, bool isWrite) {
  SharedInterval bytes = interval.value_or(kAllSharedMemory);
  return {bytes.start, bytes.end, isWrite};
}

/// The access of `memdesc`'s bytes, with its slot when it is one.
Access makeAccess(Value memdesc, bool isWrite) {
  Access access = makeAccess(getMemDescInterval(memdesc), isWrite);
  if (std::optional<SlotRef> slot = getSlotRef(memdesc))
    access.slot = *slot;
  return access;
}

/// `set` with every slot forgotten: what flows around a loop's back edge,
/// where an index value of one iteration names another slot in the next.
Pending withoutSlots(const Pending &set) {
  Pending result;
  for (const Access &access : set)
    result.insert(access.withoutSlot());
  return result;
}

/// Whether `op` accesses shared memory through the async proxy (TMA).
bool isTmaCopy(Operation *op) {
  return isa<AsyncTmaCopyGlobalToLocalOp, AsyncTmaCopyLocalToGlobalOp>(op);
}

/// Whether `op` is an mbarrier operation (its accesses are the barrier
/// word, not data another proxy reads).
bool isMBarrierOp(Operation *op) {
  return isa<InitBarrierOp, BarrierExpectOp, ArriveBarrierOp, WaitBarrierOp,
             InvalBarrierOp>(op);
}

SmallVector<Access> getAccesses(Operation *op) {
  SmallVector<Access> accesses;
  if (isa<AsyncCommitGroupOp, AsyncWaitOp, FenceAsyncSharedOp,
          WarpGroupDotWaitOp, AsyncTmaStoreWaitOp>(op))
    return accesses; // see the banner
  // mbarrier operations other than init/inval read the barrier word.
  if (isa<BarrierExpectOp, ArriveBarrierOp, WaitBarrierOp>(op)) {
    accesses.push_back(
        makeAccess(getMemDescInterval(op->getOperand(0)), false));
    return accesses;
  }
  if (auto load = dyn_cast<AsyncTmaCopyGlobalToLocalOp>(op)) {
    accesses.push_back(makeAccess(getMemDescInterval(load.getResult()), true));
    accesses.push_back(
        makeAccess(getMemDescInterval(load.getBarrier()), false));
    return accesses;
  }
  if (auto scratch = dyn_cast<ScratchOpInterface>(op)) {
    int64_t size = scratch.getScratchSizeInBytes();
    if (size > 0) {
      std::optional<SharedInterval> interval;
      if (auto offset = op->getAttrOfType<IntegerAttr>(kScratchOffsetAttr))
        interval = SharedInterval{offset.getInt(), offset.getInt() + size};
      // A write conflicts with whatever a read would.
      accesses.push_back(makeAccess(interval, /*isWrite=*/true));
    }
  }
  if (auto alloc = dyn_cast<LocalAllocOp>(op)) {
    if (alloc.getSrc())
      accesses.push_back(
          makeAccess(getMemDescInterval(alloc.getResult()), true));
    return accesses;
  }
  if (isa<CallOpInterface>(op)) {
    accesses.push_back(makeAccess(std::nullopt, true));
    return accesses;
  }
  auto effectOp = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effectOp)
    return accesses;
  SmallVector<MemoryEffects::EffectInstance> effects;
  effectOp.getEffects(effects);
  for (const MemoryEffects::EffectInstance &effect : effects) {
    if (!isa<SharedMemory>(effect.getResource()))
      continue;
    bool isWrite = isa<MemoryEffects::Write>(effect.getEffect());
    if (!isWrite && !isa<MemoryEffects::Read>(effect.getEffect()))
      continue;
    if (Value value = effect.getValue()) {
      accesses.push_back(makeAccess(value, isWrite));
      continue;
    }
    bool any = false;
    for (Value operand : op->getOperands())
      if (isa<MemDescType>(operand.getType())) {
        accesses.push_back(makeAccess(operand, isWrite));
        any = true;
      }
    if (!any)
      accesses.push_back(makeAccess(std::nullopt, isWrite));
  }
  return accesses;
}

Pending join(Pending a, const Pending &b) {
  a.insert(b.begin(), b.end());
  return a;
}

/// Groups in flight (most recent first) joined by age: the i-th most
/// recent group of either path. A wait that keeps the k most recent groups
/// of each path retires positions k and later of the join.
std::vector<Pending> joinByAge(std::vector<Pending> a,
                               const std::vector<Pending> &b) {
  if (a.size() < b.size())
    a.resize(b.size());
  for (size_t i = 0; i < b.size(); ++i)
    a[i] = join(std::move(a[i]), b[i]);
  return a;
}

/// `groups` with a new most recent group; beyond kMaxTrackedGroups the two
/// oldest merge (a wait that retires the younger retires both).
void pushGroup(std::vector<Pending> &groups, Pending group) {
  groups.insert(groups.begin(), std::move(group));
  if (groups.size() > kMaxTrackedGroups) {
    Pending oldest = std::move(groups.back());
    groups.pop_back();
    groups.back() = join(std::move(groups.back()), oldest);
  }
}

/// Pending sets joined; in-flight groups joined by age.
State join(State a, const State &b) {
  a.pending = join(std::move(a.pending), b.pending);
  a.unfenced = join(std::move(a.unfenced), b.unfenced);
  a.storesInFlight = joinByAge(std::move(a.storesInFlight), b.storesInFlight);
  a.inFlight = joinByAge(std::move(a.inFlight), b.inFlight);
  return a;
}

/// `state` as it flows around a back edge (withoutSlots on every set).
State withoutSlots(State state) {
  state.pending = withoutSlots(state.pending);
  for (Pending &group : state.inFlight)
    group = withoutSlots(group);
  state.unfenced = withoutSlots(state.unfenced);
  for (Pending &group : state.storesInFlight)
    group = withoutSlots(group);
  return state;
}

bool conflictsWithAny(ArrayRef<Access> accesses, const Pending &set) {
  return llvm::any_of(accesses, [&](const Access &a) {
    return llvm::any_of(set, [&](const Access &p) { return conflicts(a, p); });
  });
}

/// Forward transfer over one block; inserts barriers when `insert`.
class BarrierPlacer {
public:
  State transferBlock(Block &block, State state, bool insert) {
    for (Operation &op : llvm::make_early_inc_range(block))
      state = transferOp(&op, std::move(state), insert);
    return state;
  }

  /// At the end of a function or partition (`block`'s terminator leaves
  /// it): the TMA stores still in flight are waited for, since the
  /// shared memory they read goes with the CTA.
  State drainStores(Block &block, State state, bool insert) {
    if (state.storesInFlight.empty())
      return state;
    if (insert) {
      OpBuilder builder(block.getTerminator());
      AsyncTmaStoreWaitOp::create(builder, block.getTerminator()->getLoc(),
                                  0);
    }
    retireStores(state, 0);
    return state;
  }

private:
  /// The store groups older than the `keep` most recent have read their
  /// buffers: their reads become ordinary pending reads.
  static void retireStores(State &state, size_t keep) {
    while (state.storesInFlight.size() > keep) {
      state.pending =
          join(std::move(state.pending), state.storesInFlight.back());
      state.storesInFlight.pop_back();
    }
  }

  /// The most recent store group whose reads `accesses` conflict with.
  static std::optional<size_t>
  findConflictingStore(ArrayRef<Access> accesses, const State &state) {
    for (size_t i = 0; i < state.storesInFlight.size(); ++i)
      if (conflictsWithAny(accesses, state.storesInFlight[i]))
        return i;
    return std::nullopt;
  }

  State transferOp(Operation *op, State state, bool insert) {
    if (isa<BarrierOp>(op)) {
      state.pending.clear();
      return state;
    }
    // A cluster barrier is met by every thread of every CTA, so it orders
    // this CTA's accesses as a barrier does (it fences no proxy). It
    // accesses nothing itself; taken as touching all of shared memory, it
    // drew a barrier on each side and, as an unfenced write, a proxy
    // fence and barrier before every TMA copy of the producer's loop.
    // Without clusters it lowers to nothing.
    if (isa<ClusterBarrierOp>(op)) {
      if (getClusterSize(op) > 1)
        state.pending.clear();
      return state;
    }
    if (auto forOp = dyn_cast<scf::ForOp>(op)) {
      if (insert && !state.pending.empty() && hoistsBarrier(forOp, state)) {
        OpBuilder builder(op);
        BarrierOp::create(builder, op->getLoc());
        state.pending.clear();
      }
      return transferLoop(*forOp.getBody(), std::move(state), insert);
    }
    if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      State thenOut = transferBlock(*ifOp.thenBlock(), state, insert);
      State elseOut = ifOp.getElseRegion().empty()
                          ? state
                          : transferBlock(*ifOp.elseBlock(), state, insert);
      return join(std::move(thenOut), elseOut);
    }
    if (auto whileOp = dyn_cast<scf::WhileOp>(op))
      return transferWhile(whileOp, std::move(state), insert);
    if (auto split = dyn_cast<WarpSpecializeOp>(op))
      return transferPartitions(split, std::move(state), insert);
    if (auto wait = dyn_cast<WarpGroupDotWaitOp>(op)) {
      // Groups older than the `pendings` most recent ones completed.
      size_t keep = wait.getPendings();
      while (state.inFlight.size() > keep) {
        state.pending = join(std::move(state.pending), state.inFlight.back());
        state.inFlight.pop_back();
      }
      return state;
    }

    if (auto wait = dyn_cast<AsyncTmaStoreWaitOp>(op)) {
      retireStores(state, wait.getPendings());
      return state;
    }

    if (isa<FenceAsyncSharedOp>(op))
      state.unfenced.clear();

    // In-flight wgmma reads are not checked: no barrier orders them (see
    // the banner).
    SmallVector<Access> accesses = getAccesses(op);
    // A write of bytes that a TMA store still reads: the wait for that
    // store's group (the younger groups may stay in flight) first, and then
    // (the read now pending) the barrier below.
    if (std::optional<size_t> group = findConflictingStore(accesses, state)) {
      if (insert) {
        OpBuilder builder(op);
        AsyncTmaStoreWaitOp::create(builder, op->getLoc(), *group);
      }
      retireStores(state, *group);
    }
    bool conflict = conflictsWithAny(accesses, state.pending);
    // A TMA access after generic writes of its bytes: fence, then barrier.
    bool fence = isTmaCopy(op) && conflictsWithAny(accesses, state.unfenced);
    if (fence) {
      if (insert) {
        OpBuilder builder(op);
        FenceAsyncSharedOp::create(builder, op->getLoc());
      }
      state.unfenced.clear();
    }
    if (conflict || fence) {
      if (insert) {
        OpBuilder builder(op);
        BarrierOp::create(builder, op->getLoc());
      } else if (counting) {
        ++numCounted;
      }
      state.pending.clear();
    }
    if (!isTmaCopy(op) && !isMBarrierOp(op))
      for (const Access &access : accesses)
        if (access.isWrite)
          state.unfenced.insert(access);
    auto dot = dyn_cast<WarpGroupDotOp>(op);
    if (dot && dot.getIsAsync()) {
      pushGroup(state.inFlight, Pending(accesses.begin(), accesses.end()));
    } else if (isa<AsyncTmaCopyGlobalToLocalOp>(op)) {
      // Only the barrier read: the buffer's bytes land at the mbarrier
      // wait.
      state.pending.insert(accesses.back());
    } else if (isa<AsyncTmaCopyLocalToGlobalOp>(op)) {
      // One bulk group, in flight until an async_tma_store_wait.
      pushGroup(state.storesInFlight, Pending(accesses.begin(), accesses.end()));
    } else if (!isa<AsyncCopyGlobalToLocalOp>(op)) {
      state.pending.insert(accesses.begin(), accesses.end());
    }
    if (isa<AsyncWaitOp>(op)) {
      // cp.async's copies land here, written through the generic proxy.
      Access landed = makeAccess(std::nullopt, /*isWrite=*/true);
      state.pending.insert(landed);
      state.unfenced.insert(landed);
    }
    return state;
  }

  /// The body runs zero or more times: its entry state is the fixed point
  /// of in ∪ out(entry).
  State transferLoop(Block &body, State in, bool insert) {
    State entry = std::move(in);
    bool wasCounting = std::exchange(counting, false);
    while (true) {
      State next =
          join(entry, withoutSlots(transferBlock(body, entry, false)));
      if (next == entry)
        break;
      entry = std::move(next);
    }
    counting = wasCounting;
    if (insert || counting)
      transferBlock(body, entry, insert);
    return entry;
  }

  /// The barriers `loop`'s body would get from entry state `in`.
  unsigned countBarriers(scf::ForOp loop, const State &in) {
    bool wasCounting = std::exchange(counting, true);
    unsigned before = std::exchange(numCounted, 0);
    transferLoop(*loop.getBody(), in, /*insert=*/false);
    unsigned count = std::exchange(numCounted, before);
    counting = wasCounting;
    return count;
  }

  /// Whether a barrier before `loop` saves barriers in its body: when
  /// what is pending at the loop conflicts with a first access in the
  /// body (a buffer written just before the loop and read in it), the
  /// barrier that orders them runs once there instead of every
  /// iteration, where the analysis, which joins the entry state into
  /// every iteration's, would put it.
  bool hoistsBarrier(scf::ForOp loop, const State &in) {
    State cleared = in;
    cleared.pending.clear();
    return countBarriers(loop, cleared) < countBarriers(loop, in);
  }

  /// In a dry run (insert false) whose barriers are counted: how many.
  bool counting = false;
  unsigned numCounted = 0;

  /// The partitions start after a CTA barrier when anything is pending
  /// (every warp is still there to take it), then each goes its own way:
  /// they synchronise through mbarriers only, so neither's accesses are
  /// checked against the other's, and a barrier placed inside one orders
  /// that partition's threads (the lowering makes it a named barrier).
  State transferPartitions(WarpSpecializeOp split, State in, bool insert) {
    if (!in.pending.empty()) {
      if (insert) {
        OpBuilder builder(split);
        BarrierOp::create(builder, split.getLoc());
      }
      in.pending.clear();
    }
    State producer = transferRegion(split.getProducer(), in, insert);
    State consumer = transferRegion(split.getConsumer(), in, insert);
    return join(std::move(producer), consumer);
  }

  State transferRegion(Region &region, State in, bool insert) {
    State out;
    for (Block &block : region)
      out = join(std::move(out),
                 drainStores(block, transferBlock(block, in, insert), insert));
    return out;
  }

  /// before; (after; before)*: the exit is the state after `before`.
  State transferWhile(scf::WhileOp whileOp, State in, bool insert) {
    Block &before = *whileOp.getBeforeBody();
    Block &after = *whileOp.getAfterBody();
    State entry = std::move(in);
    while (true) {
      State afterOut =
          transferBlock(after, transferBlock(before, entry, false), false);
      State next = join(entry, withoutSlots(std::move(afterOut)));
      if (next == entry)
        break;
      entry = std::move(next);
    }
    State exit = transferBlock(before, entry, insert);
    if (insert)
      transferBlock(after, exit, true);
    return exit;
  }
};

struct MembarPass : public tkgpu::impl::TkgpuMembarBase<MembarPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<FunctionOpInterface>()) {
      Region &body = func.getFunctionBody();
      BarrierPlacer placer;
      for (Block &block : body) {
        // Blocks other than the entry (unstructured control flow) may
        // follow any access.
        State in;
        if (!block.isEntryBlock())
          in.pending.insert(makeAccess(std::nullopt, true));
        State out = placer.transferBlock(block, std::move(in), true);
        if (block.mightHaveTerminator() &&
            block.getTerminator()->hasTrait<OpTrait::ReturnLike>())
          placer.drainStores(block, std::move(out), /*insert=*/true);
      }
    }
  }
};

} // namespace
