//===- WarpSpecialize.cpp - tkgpu-warp-specialize -------------------------===//
//
// A loop marked `range(..., warp_specialize=True)` (tk.warp_specialize)
// whose operand tiles arrive by TMA (tkgpu-lower-tma's single-use loads,
// the form tkgpu-pipeline multi-buffers, PipelineTma.h) is split between
// two partitions of one program instead of being software-pipelined:
//
//   %bufs = local_alloc : memdesc<S x tile> (per load)
//   %full = S mbarriers, count 1          (the producer's expect-tx)
//   %empty = S mbarriers, count num_warps (one arrival per consumer warp)
//   tkgpu.warp_specialize producer(registers = R_p) {
//     scf.for i iter_args(slot = 0, phase = 0)
//       wait_barrier %empty[slot], phase ^ 1
//       <coordinates of iteration i>
//       barrier_expect %full[slot], bytes; one copy per load into slot
//       yield slot + 1 mod S, phase ^ (slot + 1 == S)
//   } consumer(registers = R_c) {
//     <the code before the loop that the producer does not need>
//     scf.for i iter_args(..., slot = 0, phase = 0)
//       wait_barrier %full[slot], phase
//       %d = warp_group_dot %bufs[slot] ... {isAsync}
//       warp_group_dot_wait %d {pendings = P}
//       arrive_barrier %empty[P ? slot - 1 : slot], P ? i > lb : true
//       yield ..., slot + 1 mod S, phase ^ (slot + 1 == S)
//     [warp_group_dot_wait {0}]
//     <the code after the loop: the epilogue>
//   }
//
// The producer warp group (tkgpu.total_num_warps = num_warps + 4) runs
// ahead by up to S tiles, limited only by the slots the consumers free;
// the consumer warps (every tensor's layout) only wait, multiply and
// release. No CTA barrier is left in the loop: the full barriers order
// the TMA writes before the wgmma reads, the empty ones the retired reads
// before the next copy into the slot.
//
// Phases: the k-th use of a slot (iterations s, s + S, ...) waits on its
// full barrier's phase k (parity (i / S) & 1, carried as `phase`); the
// producer's k-th fill waits for the consumers' release of use k - 1,
// parity phase ^ 1, which for k = 0 is the phase before the barrier's
// first and counts as complete. With P = 1 (dot results only feed their
// own accumulator: canKeepDotsInFlight) a dot stays in flight across the
// iteration and the slot released is the previous iteration's, whose dot
// the wait retired; in a kernel of one loop the last slot is never
// released (no fill waits for it). Every fill the producer waits for is
// released before the consumers' loop ends, so neither partition waits
// for the other at the end.
//
// What the producer needs from the code before the loop (the bounds, the
// descriptors, the values the coordinates use) stays before the op, run
// by every warp, and must not touch memory; the rest moves into the
// consumer region. Registers: the program starts with
// getEntryRegisters(threads) per thread; the producer keeps 24 and the
// consumers take what it gives back, a multiple of 8.
//
// Persistent kernels: when the marked loop sits in a loop of the kernel's
// body (the tile loop), both partitions get a copy of that loop. The
// producer's recomputes what the fetches need of the tile loop's body (no
// memory effects, nothing the tile loop carries); the consumers' runs the
// whole body. Slot and phase are carried through the tile loops too, and
// with P = 1 the consumers free each tile's last slot after its final
// wgmma wait (when the tile ran any iteration), before the epilogue: the
// producer's next fill of that slot belongs to the next tile.
//
// Several loops: marked loops one after another in the kernel's body
// (attention's unmasked and masked key loops) become one
// tkgpu.warp_specialize. Both partitions run them in order over one set
// of slots, carrying slot and phase from each loop into the next, so
// their TMA tiles must be the same (types and order; the first loop's
// num_stages holds for all). What the producer needs from between the
// loops (the next loop's bounds) moves before the op, as for the code
// before the first; with P = 1 the consumers free each loop's last slot
// after it (when it ran an iteration), since the next loop's fills wrap
// round to it.
//
// Multicast: in a kernel of cluster_size R > 1 whose loads promised
// `multicast=True` (tk.multicast on the copy, tkgpu-lower-tma), those
// copies become multicast ones (each CTA issues its share of the boxes to
// every CTA of the cluster), so a slot is written by every CTA: the empty
// barriers count R times the consumer warps and every release arrives on
// the slot's barrier in each CTA (arrive_barrier {cluster}). The cluster
// meets (cluster_barrier) after the barriers are initialized, before any
// copy, and after the partitions, before any CTA exits. docs/tma.md.
//
// Not rewritten (a warning, and the loop is pipelined as usual): a loop
// nested deeper or under an if, loads that are not TMA loads feeding
// warp_group_dots, coordinates that are carried, a producer input that
// touches memory, or, next to an earlier marked loop of the kernel, a
// persistent kernel's loop or tiles unlike that loop's.
//
//===----------------------------------------------------------------------===//
#include "compiler/transforms/gpu/Passes.h"
#include "compiler/transforms/gpu/PipelineTma.h"

#include "dialects/tk/TkDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::tkgpu {
#define GEN_PASS_DEF_TKGPUWARPSPECIALIZE
#include "compiler/transforms/gpu/Passes.h.inc"
} // namespace mlir::tkgpu

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

constexpr StringLiteral kWarpSpecializeAttr = "tk.warp_specialize";
constexpr StringLiteral kLoopNumStagesAttr = "tk.num_stages";
constexpr unsigned kProducerWarps = 4;
constexpr unsigned kProducerRegisters = 24;

/// The marked loop and, in a persistent kernel, the tile loop around it.
struct Nest {
  scf::ForOp loop;
  scf::ForOp tiles; // null when `loop` is in the kernel's body
  Operation *outermost() { return tiles ? tiles : loop; }
};

/// What the producer needs from outside the marked loop.
struct ProducerInputs {
  /// Ops of the kernel's body before the nest: they stay before the op.
  llvm::SetVector<Operation *> shared;
  /// Ops of the tile loop's body before the marked loop: the producer's
  /// tile loop recomputes them.
  llvm::SetVector<Operation *> perTile;
};

/// The values outside `plan.loop` the producer reads.
SmallVector<Value> getProducerRoots(Nest &nest, TmaLoopPlan &plan) {
  scf::ForOp loop = plan.loop;
  SmallVector<Value> roots{loop.getLowerBound(), loop.getUpperBound(),
                           loop.getStep()};
  if (nest.tiles)
    llvm::append_range(roots, ValueRange{nest.tiles.getLowerBound(),
                                         nest.tiles.getUpperBound(),
                                         nest.tiles.getStep()});
  auto outside = [&](Value v) {
    return !loop->isAncestor(v.getParentBlock()->getParentOp());
  };
  for (TmaLoad &load : plan.loads) {
    roots.push_back(load.copy.getDesc());
    for (Value coord : load.copy.getCoords())
      if (outside(coord))
        roots.push_back(coord);
  }
  for (Operation *op : plan.fetchOps)
    for (Value operand : op->getOperands())
      if (outside(operand))
        roots.push_back(operand);
  return roots;
}

/// The ops before the nest (and before the marked loop in the tile loop)
/// that compute `roots`; fails naming the first that touches memory or a
/// value the tile loop carries.
FailureOr<ProducerInputs> collectProducerInputs(Nest &nest,
                                                ArrayRef<Value> roots,
                                                std::string &why) {
  Block *kernelBody = nest.outermost()->getBlock();
  Block *tileBody = nest.tiles ? nest.tiles.getBody() : nullptr;
  llvm::DenseSet<Operation *> members;
  SmallVector<Value> worklist(roots);
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (arg.getOwner() == tileBody &&
          arg != nest.tiles.getInductionVar()) {
        why = "the TMA coordinates depend on a value the tile loop carries";
        return failure();
      }
      continue;
    }
    Operation *op = value.getDefiningOp();
    if ((op->getBlock() != kernelBody && op->getBlock() != tileBody) ||
        !members.insert(op).second)
      continue;
    // Run by every warp (the consumers' result is the same), so an op
    // without memory effects will do; it need not be speculatable.
    if (!isMemoryEffectFree(op) || op->getNumRegions() != 0) {
      why = "the TMA coordinates, bounds or descriptors depend on '" +
            op->getName().getStringRef().str() + "', which touches memory";
      return failure();
    }
    llvm::append_range(worklist, op->getOperands());
  }
  ProducerInputs inputs;
  for (Operation &op : *kernelBody)
    if (members.contains(&op))
      inputs.shared.insert(&op);
  if (tileBody)
    for (Operation &op : *tileBody)
      if (members.contains(&op))
        inputs.perTile.insert(&op);
  return inputs;
}

/// The consumers' register count: what the program holds, less the
/// producer's, shared by the consumer threads.
unsigned getConsumerRegisters(ModuleOp module, unsigned numWarps) {
  unsigned threads = (numWarps + kProducerWarps) * 32;
  unsigned pool = getEntryRegisters(module, threads) * threads;
  unsigned share = (pool - kProducerRegisters * kProducerWarps * 32) /
                   (numWarps * 32);
  return std::min(256u, share / 8 * 8);
}

/// `loop`'s bounds through `map`.
std::array<Value, 3> getBounds(scf::ForOp loop, IRMapping &map) {
  return {map.lookupOrDefault(loop.getLowerBound()),
          map.lookupOrDefault(loop.getUpperBound()),
          map.lookupOrDefault(loop.getStep())};
}

/// The producer's fill loop from slot `slot` at parity `phase`; returns
/// the slot and phase after it.
std::pair<Value, Value> emitProducerLoop(OpBuilder &b, TmaLoopPlan &plan,
                                         Value full, Value empty,
                                         IRMapping &outer, Value slot,
                                         Value phase) {
  scf::ForOp loop = plan.loop;
  Location loc = loop.getLoc();
  Type i32 = b.getI32Type();
  auto [lb, ub, step] = getBounds(loop, outer);
  auto fill =
      createEmptyLoop(b, loc, loop, lb, ub, step, ValueRange{slot, phase});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(fill.getBody());
  Value fillSlot = fill.getRegionIterArg(0);
  Value fillPhase = fill.getRegionIterArg(1);
  Value previousPhase = arith::XOrIOp::create(
      b, loc, fillPhase, arithIntConstant(b, loc, i32, 1));
  WaitBarrierOp::create(b, loc,
                        emitSlotBarrier(b, loc, plan, empty, fillSlot),
                        previousPhase);
  emitTmaFetch(b, plan, full, fill.getInductionVar(), fillSlot,
               arith::ConstantOp::create(b, loc, b.getBoolAttr(true)),
               &outer);
  Value nextSlot = emitNextSlot(b, loc, fillSlot, plan.numStages);
  scf::YieldOp::create(
      b, loc,
      ValueRange{nextSlot, emitNextPhase(b, loc, nextSlot, fillPhase)});
  return {fill.getResult(0), fill.getResult(1)};
}

/// Whether the consumers free an iteration's slot in the next iteration
/// (its dots still run when it ends), and a loop's last slot after it.
bool releasesPreviousSlot(const TmaLoopPlan &plan) {
  return plan.dotPendings > 0 || plan.deferCarriedWaits;
}

/// `slot - 1` wrapped to numStages - 1.
Value emitPreviousSlot(OpBuilder &b, Location loc, Value slot,
                       unsigned numStages) {
  Type i32 = b.getI32Type();
  Value isFirst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        slot, arithIntConstant(b, loc, i32, 0));
  Value before =
      arith::SubIOp::create(b, loc, slot, arithIntConstant(b, loc, i32, 1));
  return arith::SelectOp::create(
      b, loc, isFirst, arithIntConstant(b, loc, i32, numStages - 1), before);
}

/// The consumers' loop from slot `slot` at parity `phase`; returns the
/// marked loop's results as the code after it may use them, then the slot
/// and phase after it.
SmallVector<Value> emitConsumerLoop(OpBuilder &b, TmaLoopPlan &plan,
                                    Value full, Value empty, IRMapping &outer,
                                    Value slot, Value phase) {
  scf::ForOp loop = plan.loop;
  Location loc = loop.getLoc();
  unsigned numStages = plan.numStages;
  auto [lb, ub, step] = getBounds(loop, outer);
  SmallVector<Value> inits;
  for (Value init : loop.getInitArgs())
    inits.push_back(outer.lookupOrDefault(init));
  inits.push_back(slot);
  inits.push_back(phase);
  auto consume = createEmptyLoop(b, loc, loop, lb, ub, step, inits);
  Block *body = consume.getBody();
  unsigned numIterArgs = loop.getNumRegionIterArgs();
  Value consumeSlot = consume.getRegionIterArg(numIterArgs);
  Value consumePhase = consume.getRegionIterArg(numIterArgs + 1);

  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(body);
  IRMapping map = outer;
  map.map(loop.getInductionVar(), consume.getInductionVar());
  for (unsigned number = 0; number < numIterArgs; ++number)
    map.map(loop.getRegionIterArg(number), consume.getRegionIterArg(number));
  SmallVector<Value> yields =
      emitConsumeStage(b, plan, map, full, consumeSlot, consumePhase);

  // Free the slot whose dots have retired: this iteration's, or the
  // previous one's (none in the first).
  Value first = lb; // a structured binding: C++17 lambdas cannot see it
  auto emitRelease = [&] {
    Value released = consumeSlot, release;
    if (releasesPreviousSlot(plan)) {
      released = emitPreviousSlot(b, loc, consumeSlot, numStages);
      release = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                      consume.getInductionVar(), first);
    } else {
      release = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
    }
    auto arrive = ArriveBarrierOp::create(
        b, loc, emitSlotBarrier(b, loc, plan, empty, released), release);
    arrive.setCluster(plan.multicast);
  };
  if (!plan.deferCarriedWaits)
    emitRelease();
  Value nextSlot = emitNextSlot(b, loc, consumeSlot, numStages);
  yields.push_back(nextSlot);
  yields.push_back(emitNextPhase(b, loc, nextSlot, consumePhase));
  auto yield = scf::YieldOp::create(
      b, loop.getBody()->getTerminator()->getLoc(), yields);
  // Deferred waits: each carried dot is waited for before its first
  // reader in the next iteration. The body's first wait leaves pending
  // only dots issued before it in the same iteration, so it retires every
  // dot of the previous one: the previous slot is free from there.
  if (plan.deferCarriedWaits) {
    waitForCarriedDots(b, consume,
                       ArrayRef<Value>(yields).take_front(numIterArgs));
    auto waits = body->getOps<WarpGroupDotWaitOp>();
    if (waits.empty())
      b.setInsertionPoint(yield);
    else
      b.setInsertionPointAfter(*waits.begin());
    emitRelease();
  }
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*body)))
    if (isOpTriviallyDead(&op))
      op.erase();

  b.setInsertionPointAfter(consume);
  SmallVector<Value> results = retireDotsAfterLoop(
      b, loc, consume.getResults().take_front(numIterArgs),
      ArrayRef<Value>(yields).take_front(numIterArgs));
  results.push_back(consume.getResult(numIterArgs));
  results.push_back(consume.getResult(numIterArgs + 1));
  return results;
}

/// After a consumer loop that kept one dot in flight (P = 1): the release
/// of its last slot, whose dot retired after the loop, when the loop ran
/// an iteration, so that the producer's next fill of that slot (the next
/// tile's or the next loop's) can go ahead.
void releaseLastSlot(OpBuilder &b, TmaLoopPlan &plan, Value empty,
                     IRMapping &map, Value slot) {
  scf::ForOp loop = plan.loop;
  Location loc = loop.getLoc();
  auto [lb, ub, step] = getBounds(loop, map);
  Value ran = arith::CmpIOp::create(b, loc,
                                    loop.getUnsignedCmp()
                                        ? arith::CmpIPredicate::ult
                                        : arith::CmpIPredicate::slt,
                                    lb, ub);
  auto arrive = ArriveBarrierOp::create(
      b, loc,
      emitSlotBarrier(b, loc, plan, empty,
                      emitPreviousSlot(b, loc, slot, plan.numStages)),
      ran);
  arrive.setCluster(plan.multicast);
}

/// Whether `plan` can run on `first`'s slots: the same tiles, in order.
bool canShareSlots(TmaLoopPlan &first, TmaLoopPlan &plan) {
  if (first.loads.size() != plan.loads.size())
    return false;
  for (auto [a, b] : llvm::zip(first.loads, plan.loads))
    if (a.buffer.getType() != b.buffer.getType() ||
        a.barrier.getType() != b.barrier.getType())
      return false;
  return true;
}

/// Why `loop` cannot be warp-specialized, or success with its plan.
FailureOr<TmaLoopPlan> planWarpSpecialization(Nest &nest, unsigned numStages,
                                              unsigned numWarps,
                                              std::string &why) {
  scf::ForOp loop = nest.loop;
  auto tiles = dyn_cast<scf::ForOp>(loop->getParentOp());
  if (tiles && isa<FunctionOpInterface>(tiles->getParentOp()))
    nest.tiles = tiles;
  auto func = dyn_cast<FunctionOpInterface>(nest.outermost()->getParentOp());
  if (!func || !func.getFunctionBody().hasOneBlock()) {
    why = "the loop must be in the kernel's body, or in a loop there (a "
          "persistent kernel's tile loop)";
    return failure();
  }
  if (numWarps % 4 != 0 || numWarps + kProducerWarps > 32) {
    why = "num_warps must be a multiple of 4, at most 28";
    return failure();
  }
  std::optional<TmaLoopPlan> plan = planTmaLoop(loop, std::max(numStages, 2u));
  if (!plan) {
    why = "its loads must be tensor-descriptor (TMA) loads that only feed "
          "tensor-core dots, at coordinates computed from the loop "
          "variable";
    return failure();
  }
  // The consumers release a slot once the dots of its iteration retired:
  // in the iteration itself, or, with a dot left in flight (P = 1) or a
  // carried dot's wait deferred to its first reader in the next
  // iteration, in the next one.
  plan->dotPendings = canKeepDotsInFlight(loop) ? 1 : 0;
  plan->deferCarriedWaits = !plan->dotPendings && canDeferCarriedWaits(loop);
  return *plan;
}

/// Rewrites the kernel's marked loops (`nests`, in block order; a tile
/// loop only when there is one) into one tkgpu.warp_specialize.
void warpSpecialize(MutableArrayRef<Nest> nests,
                    MutableArrayRef<TmaLoopPlan> plans,
                    ProducerInputs &inputs, unsigned numWarps,
                    ModuleOp module) {
  scf::ForOp tiles = nests.front().tiles;
  Operation *first = nests.front().outermost();
  Location loc = nests.front().loop.getLoc();
  Block *block = first->getBlock();
  // The producer's inputs from between the loops go before the op too.
  for (Operation *op : inputs.shared)
    if (first->isBeforeInBlock(op))
      op->moveBefore(first);
  llvm::DenseMap<Operation *, unsigned> loopNumber;
  for (auto [number, nest] : llvm::enumerate(nests))
    loopNumber[nest.outermost()] = number;
  SmallVector<Operation *> before, after;
  bool seen = false;
  for (Operation &op : *block) {
    if (&op == first)
      seen = true;
    if (inputs.shared.contains(&op) || &op == block->getTerminator())
      continue;
    (seen ? after : before).push_back(&op);
  }

  OpBuilder b(first);
  Type i32 = b.getI32Type();
  TmaLoopPlan &plan = plans.front();
  allocateTmaBuffers(b, plan);
  for (TmaLoopPlan &other : plans.drop_front())
    for (auto [load, shared] : llvm::zip(other.loads, plan.loads))
      load.buffers = shared.buffers;
  // Multicast (a promised load in a clustered kernel): every CTA's copies
  // fill the slots of all R CTAs, so a slot is free once the consumers of
  // all of them released it, each arriving on every CTA's barrier.
  unsigned cluster = getClusterSize(module);
  bool multicast =
      cluster > 1 && llvm::any_of(plans, [](TmaLoopPlan &p) {
        return llvm::any_of(p.loads, [](TmaLoad &load) {
          return load.copy->hasAttr(kMulticastPromiseAttr);
        });
      });
  for (TmaLoopPlan &each : plans)
    each.multicast = multicast;
  Value full = allocateSlotBarriers(b, plan, 1);
  Value empty =
      allocateSlotBarriers(b, plan, multicast ? numWarps * cluster : numWarps);
  // No copy before every CTA's barriers are initialized.
  if (multicast)
    ClusterBarrierOp::create(b, loc, /*after_barrier_init=*/true);
  auto split = WarpSpecializeOp::create(b, loc, kProducerRegisters,
                                        getConsumerRegisters(module, numWarps));
  // No CTA leaves while a peer may still write its slots or arrive on its
  // barriers.
  if (multicast) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointAfter(split);
    ClusterBarrierOp::create(b, loc, /*after_barrier_init=*/false);
  }

  // The producer: the fills of every iteration (of every tile, of every
  // loop).
  b.createBlock(&split.getProducer());
  Value zero = arithIntConstant(b, loc, i32, 0);
  if (tiles) {
    IRMapping map;
    auto walk = createEmptyLoop(b, tiles.getLoc(), tiles,
                                tiles.getLowerBound(), tiles.getUpperBound(),
                                tiles.getStep(), ValueRange{zero, zero});
    b.setInsertionPointToStart(walk.getBody());
    map.map(tiles.getInductionVar(), walk.getInductionVar());
    for (Operation *op : inputs.perTile)
      b.clone(*op, map);
    auto [slot, phase] =
        emitProducerLoop(b, plan, full, empty, map, walk.getRegionIterArg(0),
                         walk.getRegionIterArg(1));
    scf::YieldOp::create(b, tiles.getLoc(), ValueRange{slot, phase});
    b.setInsertionPointAfter(walk);
  } else {
    IRMapping map;
    Value slot = zero, phase = zero;
    for (TmaLoopPlan &loopPlan : plans)
      std::tie(slot, phase) =
          emitProducerLoop(b, loopPlan, full, empty, map, slot, phase);
  }
  WarpYieldOp::create(b, loc);

  // The consumers: everything else.
  Block *consumer = b.createBlock(&split.getConsumer());
  for (Operation *op : before)
    op->moveBefore(consumer, consumer->end());
  b.setInsertionPointToEnd(consumer);
  zero = arithIntConstant(b, loc, i32, 0);
  if (tiles) {
    scf::ForOp loop = plan.loop;
    unsigned numResults = loop.getNumResults();
    SmallVector<Value> inits(tiles.getInitArgs());
    inits.append({zero, zero});
    auto walk = createEmptyLoop(b, tiles.getLoc(), tiles,
                                tiles.getLowerBound(), tiles.getUpperBound(),
                                tiles.getStep(), inits);
    b.setInsertionPointToStart(walk.getBody());
    IRMapping map;
    map.map(tiles.getInductionVar(), walk.getInductionVar());
    unsigned numTileArgs = tiles.getNumRegionIterArgs();
    for (unsigned number = 0; number < numTileArgs; ++number)
      map.map(tiles.getRegionIterArg(number), walk.getRegionIterArg(number));
    Block *tileBody = tiles.getBody();
    auto loopIt = Block::iterator(loop.getOperation());
    for (Operation &op : llvm::make_range(tileBody->begin(), loopIt))
      b.clone(op, map);
    SmallVector<Value> results = emitConsumerLoop(
        b, plan, full, empty, map, walk.getRegionIterArg(numTileArgs),
        walk.getRegionIterArg(numTileArgs + 1));
    Value slot = results[numResults], phase = results[numResults + 1];
    for (unsigned number = 0; number < numResults; ++number)
      map.map(loop.getResult(number), results[number]);
    // The tile's last slot: the next tile's fill of it waits for it.
    if (releasesPreviousSlot(plan))
      releaseLastSlot(b, plan, empty, map, slot);
    for (Operation &op :
         llvm::make_range(std::next(loopIt), Block::iterator(
                                                 tileBody->getTerminator())))
      b.clone(op, map);
    SmallVector<Value> yields;
    for (Value operand : tileBody->getTerminator()->getOperands())
      yields.push_back(map.lookupOrDefault(operand));
    yields.append({slot, phase});
    scf::YieldOp::create(b, tiles.getLoc(), yields);
    for (auto [old, now] : llvm::zip(tiles.getResults(), walk.getResults()))
      old.replaceAllUsesWith(now);
    for (Operation *op : after)
      if (op != tiles)
        op->moveBefore(consumer, consumer->end());
    b.setInsertionPointToEnd(consumer);
    WarpYieldOp::create(b, loc);
    tiles.erase();
    return;
  }
  Value slot = zero, phase = zero;
  for (Operation *op : after) {
    auto number = loopNumber.find(op);
    if (number == loopNumber.end()) {
      op->moveBefore(consumer, consumer->end());
      continue;
    }
    TmaLoopPlan &loopPlan = plans[number->second];
    scf::ForOp loop = loopPlan.loop;
    unsigned numResults = loop.getNumResults();
    b.setInsertionPointToEnd(consumer);
    IRMapping map;
    SmallVector<Value> results =
        emitConsumerLoop(b, loopPlan, full, empty, map, slot, phase);
    slot = results[numResults];
    phase = results[numResults + 1];
    // A later loop's fills wrap round to this loop's last slot.
    if (releasesPreviousSlot(loopPlan) && number->second + 1 < plans.size())
      releaseLastSlot(b, loopPlan, empty, map, slot);
    for (unsigned result = 0; result < numResults; ++result)
      loop.getResult(result).replaceAllUsesWith(results[result]);
    loop.erase();
  }
  b.setInsertionPointToEnd(consumer);
  WarpYieldOp::create(b, loc);
}

struct WarpSpecializePass
    : public tkgpu::impl::TkgpuWarpSpecializeBase<WarpSpecializePass> {
  using TkgpuWarpSpecializeBase::TkgpuWarpSpecializeBase;

  /// Warns that the marked `loop` is left to tkgpu-pipeline, and why.
  static void ignore(scf::ForOp loop, const std::string &why) {
    loop.emitWarning("warp_specialize=True ignored: ") << why;
    loop->removeAttr(kWarpSpecializeAttr);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    unsigned numWarps = getNumWarps(module);
    bool specialized = false;
    // The marked loops of each kernel, in program order.
    llvm::MapVector<Operation *, SmallVector<scf::ForOp>> kernels;
    module.walk([&](scf::ForOp loop) {
      if (loop->hasAttr(kWarpSpecializeAttr))
        kernels[loop->getParentOfType<FunctionOpInterface>().getOperation()]
            .push_back(loop);
    });
    for (auto &[func, loops] : kernels) {
      SmallVector<Nest> nests;
      SmallVector<TmaLoopPlan> plans;
      for (scf::ForOp loop : loops) {
        unsigned stages = numStages;
        if (auto attr = loop->getAttrOfType<IntegerAttr>(kLoopNumStagesAttr))
          stages = std::max<int64_t>(attr.getInt(), 1);
        // Later loops run on the first one's slots.
        if (!plans.empty())
          stages = plans.front().numStages;
        std::string why;
        Nest nest{loop, nullptr};
        FailureOr<TmaLoopPlan> plan =
            planWarpSpecialization(nest, stages, numWarps, why);
        if (succeeded(plan) && !nests.empty()) {
          if (nest.tiles || nests.front().tiles)
            why = "the kernel already has a warp-specialized loop, and one "
                  "of the two is in a tile loop";
          else if (!canShareSlots(plans.front(), *plan))
            why = "its TMA tiles differ from those of the kernel's first "
                  "warp-specialized loop, whose slots it would share";
          if (!why.empty())
            plan = failure();
        }
        if (failed(plan)) {
          ignore(loop, why);
          continue;
        }
        nests.push_back(nest);
        plans.push_back(std::move(*plan));
      }
      if (nests.empty())
        continue;
      SmallVector<Value> roots;
      for (auto [nest, plan] : llvm::zip(nests, plans))
        llvm::append_range(roots, getProducerRoots(nest, plan));
      std::string why;
      FailureOr<ProducerInputs> inputs =
          collectProducerInputs(nests.front(), roots, why);
      if (failed(inputs)) {
        for (Nest &nest : nests)
          ignore(nest.loop, why);
        continue;
      }
      warpSpecialize(nests, plans, *inputs, numWarps, module);
      specialized = true;
    }
    if (specialized)
      module->setAttr(TkgpuDialect::getTotalNumWarpsAttrName(),
                      IntegerAttr::get(IntegerType::get(&getContext(), 32),
                                       numWarps + kProducerWarps));
  }
};

} // namespace
