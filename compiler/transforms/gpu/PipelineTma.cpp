//===- PipelineTma.cpp - multi-buffered TMA loads in tkgpu-pipeline -------===//
//
// tkgpu-lower-tma gives every TMA load its own mbarrier for one phase:
//
//   %bar = local_alloc; init_barrier %bar, 1; %buf = local_alloc
//   barrier_expect %bar, B, true
//   async_tma_copy_global_to_local %map[coords] %buf, %bar, true
//   wait_barrier %bar, 0; inval_barrier %bar
//
// In an scf.for whose loaded tiles only feed warp_group_dots (maybe through
// a memdesc_trans view: attention's K, an N x K fp8 B; wgmma reads
// them from shared memory), this file runs the loads of later iterations
// behind the dots of the current one, with S = num_stages slots per tile
// and per slot one mbarrier for each barrier group of tiles (it expects
// the sum of their bytes). Tiles whose first reader is the same dot share
// a group (a matmul's A and B: one barrier per slot); attention's K (read
// by Q K^T) and V (read by P @ V) are two, so Q K^T waits only for K's
// bytes and V's wait comes right before P @ V:
//
//   %bufs = local_alloc : memdesc<S x tile> (per load)
//   %bars : <S*G x 1xi64> (G groups; slot s, group g is number s*G + g)
//   init_barrier %bars[n], 1 for every n
//   fetch(j) into slot j for j = 0 .. D-1
//   scf.for i iter_args(..., slot = 0, phase = 0[, insert = D mod S])
//     wait_barrier %bars[slot*G + g], phase      (group g of iteration i
//                                                 has landed; before the
//                                                 first op reading it)
//     %d = warp_group_dot %bufs[slot] ... {isAsync}
//     warp_group_dot_wait %d {pendings = P}
//     fetch(i + D) into slot insert
//     yield ..., slot + 1 mod S, phase ^ (slot + 1 == S), insert + 1 mod S
//   [warp_group_dot_wait {0}]; inval_barrier %bars[s]; local_dealloc
//
//   fetch(j) = the coordinates for iteration j (their computation cloned
//   from the body), then, predicated on `lb + j*step < ub`, per group:
//   barrier_expect %bars[slot*G + g], its bytes; one copy per load of it.
//
// Phases: slot s serves iterations s, s + S, s + 2S, ...; the k-th of them
// waits for the barrier's k-th phase, parity k & 1 = (i / S) & 1, carried
// as `phase` and flipped whenever the slot index wraps to 0. Iterations
// past the end are never armed nor copied (the predicate), so nothing is
// in flight after the loop and any trip count works without peeling.
//
// Distance and dots (as for cp.async in Pipeline.cpp): with S >= 3 and dot
// results that only feed their own accumulator, P = 1 and D = S - 1: the
// slot refilled at the end of iteration i, (i - 1) mod S, was read by the
// dot of i - 1, which the wait of iteration i retired; otherwise P = 0 and
// D = S (the slot just read), unless, with S >= 3, a dot's result is only
// carried to the next iteration and read there by more than its own
// accumulator (attention's P @ V, read by acc * alpha): that dot gets no
// wait of its own, the next iteration waits for it right before that
// reader, and D = S - 1 (the refilled slot's last reader is retired by
// then). tkgpu-membar then places one CTA barrier per
// iteration, before the copies (every warp group's retired reads of the
// slot before thread 0 overwrites it), and none before the dots: the TMA
// bytes are visible at the mbarrier wait. TMA writes and wgmma reads are
// both async-proxy accesses, so no proxy fence is needed in the loop; the
// fence accelerate-matmul put before the dots for its staging stores is
// dropped when no generic store precedes it in the body.
//
//===----------------------------------------------------------------------===//
#include "compiler/transforms/gpu/PipelineTma.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <functional>

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

/// The load group around `copy`, if it has tkgpu-lower-tma's form in the
/// loop body and its tile only feeds warp_group_dots.
std::optional<TmaLoad> matchTmaLoad(AsyncTmaCopyGlobalToLocalOp copy,
                                    Block *body) {
  TmaLoad load;
  load.copy = copy;
  load.buffer = copy.getResult().getDefiningOp<LocalAllocOp>();
  load.barrier = copy.getBarrier().getDefiningOp<LocalAllocOp>();
  if (!load.buffer || !load.barrier || load.buffer.getSrc() ||
      load.barrier.getSrc() || load.buffer->getBlock() != body ||
      load.barrier->getBlock() != body || !matchPattern(copy.getPred(), m_One()))
    return std::nullopt;
  for (Operation *user : load.barrier->getUsers()) {
    if (auto init = dyn_cast<InitBarrierOp>(user); init && !load.init)
      load.init = init;
    else if (auto expect = dyn_cast<BarrierExpectOp>(user);
             expect && !load.expect && matchPattern(expect.getPred(), m_One()))
      load.expect = expect;
    else if (auto wait = dyn_cast<WaitBarrierOp>(user); wait && !load.wait)
      load.wait = wait;
    else if (auto inval = dyn_cast<InvalBarrierOp>(user); inval && !load.inval)
      load.inval = inval;
    else if (user != copy.getOperation())
      return std::nullopt;
  }
  if (!load.init || !load.expect || !load.wait || !load.inval ||
      load.init.getCount() != 1)
    return std::nullopt;
  // Each use is a dot operand, directly or through a memdesc_trans view.
  std::function<bool(Value)> onlyFeedsDots = [&](Value buffer) {
    for (OpOperand &use : buffer.getUses()) {
      Operation *user = use.getOwner();
      if (user == copy.getOperation())
        continue;
      if (auto trans = dyn_cast<MemDescTransOp>(user)) {
        if (trans->getBlock() != body || !onlyFeedsDots(trans.getResult()))
          return false;
        continue;
      }
      auto dot = dyn_cast<WarpGroupDotOp>(user);
      if (!dot || &use == &dot.getCMutable())
        return false;
    }
    return true;
  };
  if (!onlyFeedsDots(load.buffer.getResult()))
    return std::nullopt;
  return load;
}

/// The first dot of `body` (in order) that reads `buffer`, directly or
/// through memdesc_trans views, as the op of `body` it is in.
Operation *getFirstReader(Value buffer, Block *body) {
  Operation *first = nullptr;
  std::function<void(Value)> visit = [&](Value value) {
    for (Operation *user : value.getUsers()) {
      if (auto trans = dyn_cast<MemDescTransOp>(user)) {
        visit(trans.getResult());
        continue;
      }
      if (!isa<WarpGroupDotOp>(user))
        continue;
      Operation *inBody = body->findAncestorOpInBlock(*user);
      if (inBody && (!first || inBody->isBeforeInBlock(first)))
        first = inBody;
    }
  };
  visit(buffer);
  return first;
}

/// Gives each load its barrier group: one per distinct first reader,
/// numbered in the readers' order in the body (a load no dot reads joins
/// group 0).
void assignBarrierGroups(TmaLoopPlan &plan) {
  Block *body = plan.loop.getBody();
  SmallVector<Operation *> readers;
  for (TmaLoad &load : plan.loads)
    if (Operation *reader = getFirstReader(load.buffer.getResult(), body);
        reader && !llvm::is_contained(readers, reader))
      readers.push_back(reader);
  llvm::sort(readers,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  if (readers.empty())
    readers.push_back(nullptr);
  plan.groupReaders.assign(readers.begin(), readers.end());
  plan.groupBytes.assign(readers.size(), 0);
  for (TmaLoad &load : plan.loads) {
    Operation *reader = getFirstReader(load.buffer.getResult(), body);
    auto it = llvm::find(readers, reader);
    load.group = it == readers.end() ? 0 : unsigned(it - readers.begin());
    plan.groupBytes[load.group] += load.expect.getBytes();
  }
}

/// Collects the coordinate computation of `plan`'s loads: pure ops of the
/// body on the induction variable and values from outside the loop.
LogicalResult collectFetchOps(TmaLoopPlan &plan) {
  Block *body = plan.loop.getBody();
  llvm::DenseSet<Operation *> members;
  SmallVector<Value> worklist;
  for (TmaLoad &load : plan.loads)
    llvm::append_range(worklist, load.copy.getCoords());
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (arg.getOwner() == body && arg != plan.loop.getInductionVar())
        return failure(); // a carried coordinate
      continue;
    }
    Operation *op = value.getDefiningOp();
    if (op->getBlock() != body || !members.insert(op).second)
      continue;
    if (!isPure(op) || op->getNumRegions() != 0)
      return failure();
    llvm::append_range(worklist, op->getOperands());
  }
  for (Operation &op : body->without_terminator())
    if (members.contains(&op))
      plan.fetchOps.insert(&op);
  return success();
}

} // namespace

std::optional<TmaLoopPlan> tkgpu::planTmaLoop(scf::ForOp loop,
                                              unsigned numStages) {
  if (numStages <= 1)
    return std::nullopt;
  TmaLoopPlan plan;
  plan.loop = loop;
  plan.numStages = numStages;
  for (auto copy : loop.getBody()->getOps<AsyncTmaCopyGlobalToLocalOp>()) {
    std::optional<TmaLoad> load = matchTmaLoad(copy, loop.getBody());
    if (!load)
      return std::nullopt;
    plan.loads.push_back(*load);
  }
  if (plan.loads.empty() || failed(collectFetchOps(plan)))
    return std::nullopt;
  assignBarrierGroups(plan);
  plan.distance = numStages;
  if (numStages >= 3 && canKeepDotsInFlight(loop)) {
    plan.dotPendings = 1;
    plan.distance = numStages - 1;
  } else if (numStages >= 3 && canDeferCarriedWaits(loop)) {
    // A carried dot still reads its slot when the iteration ends; the
    // next iteration's wait retires it before that slot is refilled.
    plan.deferCarriedWaits = true;
    plan.distance = numStages - 1;
  }
  return plan;
}

scf::ForOp tkgpu::createEmptyLoop(OpBuilder &b, Location loc, scf::ForOp like,
                                  Value lb, Value ub, Value step,
                                  ValueRange inits) {
  auto loop = scf::ForOp::create(b, loc, lb, ub, step, inits, nullptr,
                                 like.getUnsignedCmp());
  Block *body = loop.getBody();
  if (!body->empty())
    body->back().erase();
  return loop;
}

Value tkgpu::arithIntConstant(OpBuilder &b, Location loc, Type type,
                               int64_t v) {
  return arith::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, v));
}

Value tkgpu::emitNextSlot(OpBuilder &b, Location loc, Value index,
                          unsigned numStages) {
  Type i32 = b.getI32Type();
  Value next = arith::AddIOp::create(b, loc, index,
                                     arithIntConstant(b, loc, i32, 1));
  Value wraps = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq, next,
      arithIntConstant(b, loc, i32, numStages));
  return arith::SelectOp::create(b, loc, wraps,
                                 arithIntConstant(b, loc, i32, 0), next);
}

Value tkgpu::emitNextPhase(OpBuilder &b, Location loc, Value nextSlot,
                           Value phase) {
  Type i32 = b.getI32Type();
  Value wrapped = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        nextSlot,
                                        arithIntConstant(b, loc, i32, 0));
  Value flipped = arith::XOrIOp::create(b, loc, phase,
                                        arithIntConstant(b, loc, i32, 1));
  return arith::SelectOp::create(b, loc, wrapped, flipped, phase);
}

void tkgpu::allocateTmaBuffers(OpBuilder &b, TmaLoopPlan &plan) {
  MLIRContext *ctx = b.getContext();
  for (TmaLoad &load : plan.loads) {
    MemDescType tile = load.buffer.getType();
    SmallVector<int64_t> shape{int64_t(plan.numStages)};
    llvm::append_range(shape, tile.getShape());
    load.buffers = LocalAllocOp::create(
        b, load.buffer.getLoc(),
        MemDescType::get(ctx, shape, tile.getElementType(),
                         addLeadingBufferDim(tile.getEncoding())),
        Value());
  }
}

Value tkgpu::allocateSlotBarriers(OpBuilder &b, TmaLoopPlan &plan,
                                  unsigned count, bool perGroup) {
  Location loc = plan.loop.getLoc();
  MemDescType barrierType = plan.loads.front().barrier.getType();
  unsigned number = plan.numStages * (perGroup ? plan.getNumGroups() : 1);
  Value bars = LocalAllocOp::create(
      b, loc,
      MemDescType::get(b.getContext(), {int64_t(number), 1},
                       barrierType.getElementType(),
                       addLeadingBufferDim(barrierType.getEncoding())),
      Value());
  for (unsigned s = 0; s < number; ++s)
    InitBarrierOp::create(
        b, loc,
        emitSlotBarrier(b, loc, plan, bars,
                        arithIntConstant(b, loc, b.getI32Type(), s)),
        count);
  return bars;
}

Value tkgpu::emitSlotBarrier(OpBuilder &b, Location loc, TmaLoopPlan &plan,
                             Value bars, Value slot) {
  return MemDescIndexOp::create(b, loc,
                                plan.loads.front().barrier.getType(), bars,
                                slot);
}

Value tkgpu::emitGroupBarrier(OpBuilder &b, Location loc, TmaLoopPlan &plan,
                              Value bars, Value slot, unsigned group) {
  unsigned numGroups = plan.getNumGroups();
  if (numGroups == 1)
    return emitSlotBarrier(b, loc, plan, bars, slot);
  Type i32 = b.getI32Type();
  Value number = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, slot,
                            arithIntConstant(b, loc, i32, numGroups)),
      arithIntConstant(b, loc, i32, group));
  return emitSlotBarrier(b, loc, plan, bars, number);
}

void tkgpu::emitTmaFetch(OpBuilder &b, TmaLoopPlan &plan, Value bars,
                         Value iv, Value slot, Value exists,
                         const IRMapping *outer) {
  scf::ForOp loop = plan.loop;
  Location loc = loop.getLoc();
  IRMapping map = outer ? *outer : IRMapping();
  map.map(loop.getInductionVar(), iv);
  for (Operation *op : plan.fetchOps)
    b.clone(*op, map);
  if (!exists)
    exists = arith::CmpIOp::create(b, loc,
                                   loop.getUnsignedCmp()
                                       ? arith::CmpIPredicate::ult
                                       : arith::CmpIPredicate::slt,
                                   iv, loop.getUpperBound());
  for (unsigned group = 0; group < plan.getNumGroups(); ++group) {
    Value barrier = emitGroupBarrier(b, loc, plan, bars, slot, group);
    BarrierExpectOp::create(b, loc, barrier, plan.groupBytes[group], exists);
    for (TmaLoad &load : plan.loads) {
      if (load.group != group)
        continue;
      SmallVector<Value> coords;
      for (Value coord : load.copy.getCoords())
        coords.push_back(map.lookupOrDefault(coord));
      Value dst = MemDescIndexOp::create(b, load.copy.getLoc(),
                                         load.buffer.getType(), load.buffers,
                                         slot);
      AsyncTmaCopyGlobalToLocalOp::create(
          b, load.copy.getLoc(), map.lookupOrDefault(load.copy.getDesc()),
          coords, dst, barrier, exists);
    }
  }
}

SmallVector<Value> tkgpu::emitConsumeStage(OpBuilder &b, TmaLoopPlan &plan,
                                           IRMapping &map, Value bars,
                                           Value slot, Value phase) {
  scf::ForOp loop = plan.loop;
  Location loc = loop.getLoc();
  // This iteration's tiles have landed: with one barrier group, all of
  // them before the body. With several, group 0's before the first op
  // that reads it, and each later group's right after the first reader of
  // the group before it is issued: a dot (attention's Q K^T) starts
  // without the later tiles' bytes, and the wait for them (a spin loop,
  // which splits the code around it for ptxas' scheduler) comes where the
  // warps wait for that dot's result anyway, not between the softmax and
  // P @ V (there it cost up to a quarter of the speed at HEAD_DIM 64,
  // eleventh session).
  unsigned numGroups = plan.getNumGroups();
  SmallVector<bool> landed(numGroups, false);
  auto waitFor = [&](unsigned group) {
    if (landed[group])
      return;
    landed[group] = true;
    WaitBarrierOp::create(
        b, loc, emitGroupBarrier(b, loc, plan, bars, slot, group), phase);
  };
  if (numGroups == 1)
    waitFor(0);
  llvm::DenseMap<Value, unsigned> groupOfTile;
  llvm::DenseSet<Operation *> removed;
  for (TmaLoad &load : plan.loads) {
    groupOfTile[load.buffer.getResult()] = load.group;
    Value tile = MemDescIndexOp::create(b, load.buffer.getLoc(),
                                        load.buffer.getType(), load.buffers,
                                        slot);
    map.map(load.buffer.getResult(), tile);
    for (Operation *op :
         {load.barrier.getOperation(), load.buffer.getOperation(),
          load.init.getOperation(), load.expect.getOperation(),
          load.copy.getOperation(), load.wait.getOperation(),
          load.inval.getOperation()})
      removed.insert(op);
  }
  // The old body without the loads; its dots run asynchronously, a wait
  // after each keeps at most dotPendings in flight. A fence before the
  // dots orders generic stores for wgmma; without one in the body since
  // the last fence, it is dropped.
  Block *body = loop.getBody();
  bool storesSinceFence = false;
  for (Operation &op : body->without_terminator()) {
    if (removed.contains(&op))
      continue;
    if (isa<FenceAsyncSharedOp>(op) && !storesSinceFence)
      continue;
    if (auto alloc = dyn_cast<LocalAllocOp>(op))
      storesSinceFence |= bool(alloc.getSrc());
    if (isa<LocalStoreOp>(op))
      storesSinceFence = true;
    if (isa<FenceAsyncSharedOp>(op))
      storesSinceFence = false;
    op.walk([&](Operation *inner) {
      for (Value operand : inner->getOperands())
        if (auto it = groupOfTile.find(operand); it != groupOfTile.end())
          waitFor(it->second);
    });
    Operation *clone = b.clone(op, map);
    for (unsigned group = 1; group < numGroups; ++group)
      if (plan.groupReaders[group - 1] == &op)
        waitFor(group);
    if (auto dot = dyn_cast<WarpGroupDotOp>(clone)) {
      dot.setIsAsync(true);
      if (plan.deferCarriedWaits &&
          isOnlyCarried(loop, cast<WarpGroupDotOp>(op)))
        continue;
      auto wait = WarpGroupDotWaitOp::create(
          b, dot.getLoc(), TypeRange{dot.getType()}, ValueRange{dot.getD()},
          b.getI32IntegerAttr(plan.dotPendings));
      map.map(cast<WarpGroupDotOp>(op).getD(), wait.getResult(0));
    }
  }
  SmallVector<Value> yields;
  for (Value operand : body->getTerminator()->getOperands())
    yields.push_back(map.lookupOrDefault(operand));
  return yields;
}

SmallVector<Value> tkgpu::retireDotsAfterLoop(OpBuilder &b, Location loc,
                                              ValueRange results,
                                              ValueRange yields) {
  SmallVector<Value> retired(results);
  SmallVector<Value> inFlight;
  SmallVector<unsigned> numbers;
  for (unsigned number = 0; number < results.size(); ++number)
    if (yields[number].getDefiningOp<WarpGroupDotWaitOp>() ||
        yields[number].getDefiningOp<WarpGroupDotOp>()) {
      inFlight.push_back(results[number]);
      numbers.push_back(number);
    }
  if (inFlight.empty())
    return retired;
  auto wait = WarpGroupDotWaitOp::create(
      b, loc, ValueRange(inFlight).getTypes(), inFlight,
      b.getI32IntegerAttr(0));
  for (auto [i, number] : llvm::enumerate(numbers))
    retired[number] = wait.getResult(i);
  return retired;
}

namespace {

void rewriteTmaLoop(TmaLoopPlan &plan) {
  scf::ForOp loop = plan.loop;
  unsigned numStages = plan.numStages, distance = plan.distance;
  Location loc = loop.getLoc();
  Type ivType = loop.getInductionVar().getType();
  Type i32 = IntegerType::get(loop.getContext(), 32);
  OpBuilder b(loop);

  allocateTmaBuffers(b, plan);
  Value bars = allocateSlotBarriers(b, plan, 1, /*perGroup=*/true);

  // Prologue: iterations 0 .. D-1 into slots 0 .. D-1.
  for (unsigned stage = 0; stage < distance; ++stage) {
    Value iv = loop.getLowerBound();
    if (stage > 0)
      iv = arith::AddIOp::create(
          b, loc, iv,
          arith::MulIOp::create(b, loc, loop.getStep(),
                                arithIntConstant(b, loc, ivType, stage)));
    emitTmaFetch(b, plan, bars, iv, arithIntConstant(b, loc, i32, stage));
  }

  bool ownInsertSlot = distance % numStages != 0;
  SmallVector<Value> inits(loop.getInitArgs());
  inits.push_back(arithIntConstant(b, loc, i32, 0)); // slot read
  inits.push_back(arithIntConstant(b, loc, i32, 0)); // its phase
  if (ownInsertSlot)
    inits.push_back(arithIntConstant(b, loc, i32, distance % numStages));
  auto newLoop = createEmptyLoop(b, loc, loop, loop.getLowerBound(),
                                 loop.getUpperBound(), loop.getStep(), inits);
  for (NamedAttribute attr : loop->getDiscardableAttrs())
    if (attr.getName() != "tk.num_stages")
      newLoop->setAttr(attr.getName(), attr.getValue());
  Block *newBody = newLoop.getBody();
  unsigned numIterArgs = loop.getNumRegionIterArgs();
  Value slot = newLoop.getRegionIterArg(numIterArgs);
  Value phase = newLoop.getRegionIterArg(numIterArgs + 1);
  Value insertSlot =
      ownInsertSlot ? newLoop.getRegionIterArg(numIterArgs + 2) : slot;

  b.setInsertionPointToStart(newBody);
  IRMapping map;
  map.map(loop.getInductionVar(), newLoop.getInductionVar());
  for (unsigned number = 0; number < numIterArgs; ++number)
    map.map(loop.getRegionIterArg(number), newLoop.getRegionIterArg(number));
  SmallVector<Value> yields =
      emitConsumeStage(b, plan, map, bars, slot, phase);

  // The fetch of iteration i + D into the slot no dot reads any more.
  Value aheadIv = arith::AddIOp::create(
      b, loc, newLoop.getInductionVar(),
      arith::MulIOp::create(b, loc, loop.getStep(),
                            arithIntConstant(b, loc, ivType, distance)));
  emitTmaFetch(b, plan, bars, aheadIv, insertSlot);

  Value nextSlot = emitNextSlot(b, loc, slot, numStages);
  yields.push_back(nextSlot);
  yields.push_back(emitNextPhase(b, loc, nextSlot, phase));
  if (ownInsertSlot)
    yields.push_back(emitNextSlot(b, loc, insertSlot, numStages));
  scf::YieldOp::create(b, loop.getBody()->getTerminator()->getLoc(), yields);

  // The next iteration waits for the dots carried without a wait.
  if (plan.deferCarriedWaits)
    waitForCarriedDots(b, newLoop,
                       ArrayRef<Value>(yields).take_front(numIterArgs));

  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*newBody)))
    if (isOpTriviallyDead(&op))
      op.erase();

  // Epilogue: the dots still running complete before their results are
  // used; no copy is in flight (iterations past the end issue none).
  b.setInsertionPointAfter(newLoop);
  SmallVector<Value> results = retireDotsAfterLoop(
      b, loc, newLoop.getResults().take_front(numIterArgs),
      ArrayRef<Value>(yields).take_front(numIterArgs));
  for (unsigned s = 0; s < numStages * plan.getNumGroups(); ++s)
    InvalBarrierOp::create(
        b, loc,
        emitSlotBarrier(b, loc, plan, bars, arithIntConstant(b, loc, i32, s)));
  for (TmaLoad &load : plan.loads)
    LocalDeallocOp::create(b, loc, load.buffers);
  LocalDeallocOp::create(b, loc, bars);

  for (unsigned number = 0; number < numIterArgs; ++number)
    loop.getResult(number).replaceAllUsesWith(results[number]);
  loop.erase();
}

} // namespace

bool tkgpu::pipelineTmaLoop(scf::ForOp loop, unsigned numStages) {
  std::optional<TmaLoopPlan> plan = planTmaLoop(loop, numStages);
  if (!plan)
    return false;
  rewriteTmaLoop(*plan);
  return true;
}
