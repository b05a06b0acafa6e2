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
// and one mbarrier per slot, shared by all tiles of an iteration (it
// expects the sum of their bytes):
//
//   %bufs = local_alloc : memdesc<S x tile> (per load), %bars : <S x 1xi64>
//   init_barrier %bars[s], 1 for every slot s
//   fetch(j) into slot j for j = 0 .. D-1
//   scf.for i iter_args(..., slot = 0, phase = 0[, insert = D mod S])
//     wait_barrier %bars[slot], phase            (iteration i has landed)
//     %d = warp_group_dot %bufs[slot] ... {isAsync}
//     warp_group_dot_wait %d {pendings = P}
//     fetch(i + D) into slot insert
//     yield ..., slot + 1 mod S, phase ^ (slot + 1 == S), insert + 1 mod S
//   [warp_group_dot_wait {0}]; inval_barrier %bars[s]; local_dealloc
//
//   fetch(j) = the coordinates for iteration j (their computation cloned
//   from the body), then, predicated on `lb + j*step < ub`:
//   barrier_expect %bars[slot], sum of bytes; one copy per load.
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
#include "mlir/IR/Remarks.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/Support/FormatVariadic.h"

#include <functional>
#include <string>

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
    // Memory-effect free is enough, as for cp.async: integer division does
    // not trap on the GPU, and a flattened persistent loop computes its
    // tile coordinates by dividing by run-time values.
    if (!isMemoryEffectFree(op) || op->getNumRegions() != 0)
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
                                              unsigned numStages,
                                              std::string *why) {
  auto fail = [&](const char *reason) -> std::optional<TmaLoopPlan> {
    if (why)
      *why = reason;
    return std::nullopt;
  };
  if (numStages <= 1)
    return std::nullopt;
  TmaLoopPlan plan;
  plan.loop = loop;
  plan.numStages = numStages;
  for (auto copy : loop.getBody()->getOps<AsyncTmaCopyGlobalToLocalOp>()) {
    std::optional<TmaLoad> load = matchTmaLoad(copy, loop.getBody());
    if (!load)
      return fail("a TMA load of the body does not have the form tkgpu-lower-"
                  "tma gives a tile that only wgmma dots read (its buffer "
                  "is read by something else, or its barrier is shared)");
    plan.bytes += load->expect.getBytes();
    plan.loads.push_back(*load);
  }
  if (plan.loads.empty())
    return std::nullopt;
  if (failed(collectFetchOps(plan)))
    return fail("the coordinates of its TMA loads are carried by the loop "
                "or computed by ops that read memory or hold regions, so "
                "they cannot be computed iterations ahead");
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
  for (TmaLoad &load : plan.loads)
    load.buffers = LocalAllocOp::create(
        b, load.buffer.getLoc(),
        getMultiBufferType(load.buffer.getType(), plan.numStages), Value());
}

Value tkgpu::allocateSlotBarriers(OpBuilder &b, TmaLoopPlan &plan,
                                  unsigned count) {
  Location loc = plan.loop.getLoc();
  MemDescType barrierType = plan.loads.front().barrier.getType();
  Value bars = LocalAllocOp::create(
      b, loc, getMultiBufferType(barrierType, plan.numStages), Value());
  for (unsigned s = 0; s < plan.numStages; ++s)
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
  Value barrier = emitSlotBarrier(b, loc, plan, bars, slot);
  BarrierExpectOp::create(b, loc, barrier, plan.bytes, exists);
  for (TmaLoad load : plan.loads) {
    SmallVector<Value> coords;
    for (Value coord : load.copy.getCoords())
      coords.push_back(map.lookupOrDefault(coord));
    Value dst = MemDescIndexOp::create(b, load.copy.getLoc(),
                                       load.buffer.getType(), load.buffers,
                                       slot);
    auto copy = AsyncTmaCopyGlobalToLocalOp::create(
        b, load.copy.getLoc(), map.lookupOrDefault(load.copy.getDesc()),
        coords, dst, barrier, exists);
    if (plan.multicast && load.copy->hasAttr(kMulticastPromiseAttr))
      copy.setMulticast(true);
  }
}

SmallVector<Value> tkgpu::emitConsumeStage(OpBuilder &b, TmaLoopPlan &plan,
                                           IRMapping &map, Value bars,
                                           Value slot, Value phase) {
  scf::ForOp loop = plan.loop;
  Location loc = loop.getLoc();
  // This iteration's tiles have landed.
  WaitBarrierOp::create(b, loc, emitSlotBarrier(b, loc, plan, bars, slot),
                        phase);
  llvm::DenseSet<Operation *> removed;
  for (TmaLoad &load : plan.loads) {
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
    Operation *clone = b.clone(op, map);
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
  Value bars = allocateSlotBarriers(b, plan, 1);

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
  for (unsigned s = 0; s < numStages; ++s)
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
  std::string why;
  std::optional<TmaLoopPlan> plan = planTmaLoop(loop, numStages, &why);
  auto opts = mlir::remark::RemarkOpts::name("TmaLoopPipelined")
                  .category("pipeline");
  if (!plan) {
    // A loop around a pipelined one holds that loop's prologue copies;
    // the inner loop has its own remark.
    bool nested = false;
    loop.getBody()->walk([&](scf::ForOp) { nested = true; });
    if (!why.empty() && !nested)
      mlir::remark::missed(loop.getLoc(), opts)
          << "loop not pipelined: " << why
          << "; each TMA load waits for its own tile";
    return false;
  }
  mlir::remark::passed(loop.getLoc(), opts)
      << llvm::formatv("loop pipelined: {0} stages, {1} TMA load(s) copied "
                       "ahead into {0} slots each",
                       plan->numStages, plan->loads.size())
             .str();
  rewriteTmaLoop(*plan);
  return true;
}
