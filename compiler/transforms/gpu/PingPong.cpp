//===- PingPong.cpp - tkgpu-pingpong --------------------------------------===//
//
// Two consumer warp groups of a warp-specialized kernel (8 compute warps,
// each group owning its own rows of every tile) run the same loop: issue
// the scores' wgmma (QK^T), wait for it, softmax, issue P @ V. Left alone
// they drift into step, both in their softmax at once while the tensor
// cores idle, then both queueing wgmmas. FlashAttention-3's "ping-pong"
// schedule makes them take turns instead: one group's dots are issued
// while the other runs its softmax, so the tensor cores see a steady
// stream of work and the exp/FMA units are busy in between.
//
// The turn is a window in each group's instruction stream: from just
// before the last dot issued by an iteration (P @ V) round the back edge
// to just after the first dot of the next (QK^T). Two named barriers,
// T0 and T1 (ids 3 and 4; 0 is bar.sync 0, 1 the consumers' CTA barrier,
// 2 the producer warp's), each count both groups' 256 threads: group g
// waits at its own (bar.sync T_g), the other group releases it
// (bar.arrive T_g, which does not wait). With g = warp_group_id and
// o = 1 - g, the consumer region becomes
//
//   if g == 1: bar.arrive T0          (group 0 takes the first turn)
//   for each loop L with two or more top-level warp_group_dots:
//     bar.sync T_g                    (open: the first QK^T is inside)
//     scf.for ... {
//       ... first dot ...; bar.arrive T_o      (close)
//       ...
//       bar.sync T_g; ... last dot ...         (open)
//     }
//     bar.arrive T_o                  (close the window the last P @ V
//                                      opened; after the last loop only
//                                      group 0's, below)
//   if g == 0: bar.arrive T1          (group 0 closes its last window)
//   bar.sync T0                       (both groups: group 1's last close
//                                      of group 0's window is this wait)
//
// Why it cannot deadlock or miscount: per loop each group opens 1 + trip
// count windows and closes as many, and the groups' windows alternate
// strictly: group 1's first open needs group 0's first close, and each
// close of one group comes after the open the other's previous close
// released, so neither group arrives twice at a barrier the other has not
// yet passed (a named barrier completes on its count, whoever arrives).
// Trip counts are the same for both groups (loop bounds are scalars,
// uniform over the program). The one extra arrive, group 1's first, is
// balanced by the last barrier, at which both groups wait.
//
// Why group 1 waits at the end instead of only arriving there: so that
// every thread of both groups waits at the same number of barriers.
// compute-sanitizer's racecheck orders the two groups' shared-memory
// accesses after the loops (the epilogue's exchanges through scratch,
// each behind `bar.sync 1, 256` over all compute threads) only when they
// have; with group 1 one wait short it reported RAW and WAR hazards there
// in every ping-pong kernel (forward and backward) and none without the
// pass; with the counts equal it reports none (twelfth session). The
// wait costs little: the epilogue's first barrier makes group 1 wait for
// group 0 anyway.
//
// The producer: a group inside its turn may wait for the fill of the
// next slot, which needs both groups to have freed the slot S iterations
// back; the other group freed it at the latest in a turn it took before
// this one (with S >= 2 slots), so that fill never waits for the turn
// being held.
//
// Not rewritten: a consumer region of other than two warp groups; a loop
// whose first dot is carried to the next iteration (attention's AHEAD
// order: the group's own softmax already runs beside that dot, and turns
// take that away: with them those kernels were the slowest of their rows,
// eleventh session); a loop whose body may wait for every compute warp (a
// CTA barrier, or an op whose lowering exchanges data through scratch
// memory, which has one inside): a group waiting for the other inside its
// window while the other waits for its turn would never return. Such a
// loop would also keep the groups in step, the opposite of what the
// schedule is for. The other loops of the region still take turns: a
// loop left alone runs between two windows, where neither group waits.
//
//===----------------------------------------------------------------------===//
#include "compiler/transforms/gpu/Passes.h"

#include "dialects/tk/TkDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

#include <tuple>

namespace mlir::tkgpu {
#define GEN_PASS_DEF_TKGPUPINGPONG
#include "compiler/transforms/gpu/Passes.h.inc"
} // namespace mlir::tkgpu

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

constexpr unsigned kWarpGroupThreads = 128;
constexpr unsigned kGroups = 2;

/// Whether lowering `op` (or an op inside it) may wait for every compute
/// warp.
bool mayWaitForAllWarps(Operation *op) {
  WalkResult result = op->walk([](Operation *inner) {
    if (isa<BarrierOp, tk::DebugBarrierOp>(inner))
      return WalkResult::interrupt();
    if (auto scratch = dyn_cast<ScratchOpInterface>(inner))
      if (scratch.getScratchSizeInBytes() > 0)
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

/// Whether `dot`'s result is carried to the next iteration (directly or
/// through its wait): the loop then overlaps that dot with its own
/// softmax (attention's AHEAD order, S of the next block issued before
/// this block's softmax), and turns would only take that overlap away.
bool isCarried(scf::ForOp loop, WarpGroupDotOp dot) {
  Operation *yield = loop.getBody()->getTerminator();
  for (Operation *user : dot->getUsers()) {
    if (user == yield)
      return true;
    if (isa<WarpGroupDotWaitOp>(user) &&
        llvm::is_contained(user->getUsers(), yield))
      return true;
  }
  return false;
}

/// The warp_group_dots directly in `loop`'s body, in order.
SmallVector<WarpGroupDotOp> getTopLevelDots(scf::ForOp loop) {
  SmallVector<WarpGroupDotOp> dots;
  for (Operation &op : *loop.getBody())
    if (auto dot = dyn_cast<WarpGroupDotOp>(op))
      dots.push_back(dot);
  return dots;
}

struct PingPongPass : public tkgpu::impl::TkgpuPingPongBase<PingPongPass> {
  void runOnOperation() override {
    getOperation().walk([&](WarpSpecializeOp split) { schedule(split); });
  }

  void schedule(WarpSpecializeOp split) {
    if (getNumWarps(split) * 32 != kGroups * kWarpGroupThreads)
      return;
    Block &consumer = split.getConsumer().front();
    // Each loop that takes turns, with its first and last dot.
    SmallVector<std::tuple<scf::ForOp, WarpGroupDotOp, WarpGroupDotOp>> loops;
    for (Operation &op : consumer) {
      auto loop = dyn_cast<scf::ForOp>(op);
      if (!loop)
        continue;
      SmallVector<WarpGroupDotOp> dots = getTopLevelDots(loop);
      if (dots.size() < 2)
        continue;
      // Both cases are silent: the schedule is the compiler's choice, not
      // something the kernel asked for.
      if (isCarried(loop, dots.front()) || mayWaitForAllWarps(loop))
        continue;
      loops.emplace_back(loop, dots.front(), dots.back());
    }
    if (loops.empty())
      return;

    Location loc = split.getLoc();
    OpBuilder b(&consumer, consumer.begin());
    auto i32 = [&](int64_t v) {
      return arith::ConstantIntOp::create(b, loc, v, 32).getResult();
    };
    unsigned threads = kGroups * kWarpGroupThreads;
    Value group = WarpGroupIdOp::create(b, loc);
    Value first = i32(kFirstSchedulingBarrierId);
    Value mine = arith::AddIOp::create(b, loc, first, group);
    Value other = arith::SubIOp::create(
        b, loc, i32(kFirstSchedulingBarrierId + 1), group);
    Value zero = i32(0);
    auto ifGroup = [&](arith::CmpIPredicate predicate, auto body) {
      Value cond = arith::CmpIOp::create(b, loc, predicate, group, zero);
      auto branch = scf::IfOp::create(b, loc, cond, /*withElse=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(branch.thenBlock());
      body();
    };
    // Group 1 (group != 0) gives group 0 the first turn.
    ifGroup(arith::CmpIPredicate::ne,
            [&] { NamedBarrierArriveOp::create(b, loc, first, threads); });

    for (auto [index, entry] : llvm::enumerate(loops)) {
      auto [loop, firstDot, lastDot] = entry;
      b.setInsertionPoint(loop);
      NamedBarrierSyncOp::create(b, loc, mine, threads);
      b.setInsertionPointAfter(firstDot);
      NamedBarrierArriveOp::create(b, firstDot.getLoc(), other, threads);
      b.setInsertionPoint(lastDot);
      NamedBarrierSyncOp::create(b, lastDot.getLoc(), mine, threads);
      b.setInsertionPointAfter(loop);
      if (index + 1 < loops.size())
        NamedBarrierArriveOp::create(b, loc, other, threads);
    }
    // The end: group 0 releases group 1's last turn, then both wait at
    // T0 (group 1's last release of group 0 is that wait), so that each
    // thread has waited at as many barriers as the other group's.
    ifGroup(arith::CmpIPredicate::eq,
            [&] { NamedBarrierArriveOp::create(b, loc, other, threads); });
    NamedBarrierSyncOp::create(b, loc, first, threads);
  }
};

} // namespace
