//===- PipelineTma.h - TMA loads in tkgpu-pipeline --------------*- C++ -*-===//
//
// The TMA half of tkgpu-pipeline (PipelineTma.cpp): loops whose operand
// tiles arrive through tkgpu-lower-tma's single-use mbarrier loads.
// Pipeline.cpp tries it on the loops its cp.async planner leaves alone.
// The plan and its building blocks (multi-buffers, slot barriers, the
// fetch of one iteration, the consume stage) are shared with
// tkgpu-warp-specialize (WarpSpecialize.cpp), which runs the same fetches
// on a producer warp group instead.
//
//===----------------------------------------------------------------------===//
#ifndef TK_COMPILER_TRANSFORMS_GPU_PIPELINETMA_H
#define TK_COMPILER_TRANSFORMS_GPU_PIPELINETMA_H

#include "dialects/tkgpu/TkgpuDialect.h"
#include "dialects/tkgpu/TkgpuTmaOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

#include <optional>

namespace mlir::tkgpu {

/// One single-use TMA load of tkgpu-lower-tma.
struct TmaLoad {
  LocalAllocOp barrier, buffer;
  InitBarrierOp init;
  BarrierExpectOp expect;
  AsyncTmaCopyGlobalToLocalOp copy;
  WaitBarrierOp wait;
  InvalBarrierOp inval;
  Value buffers; // the multi-buffer, once created
};

/// A loop whose TMA loads can be multi-buffered.
struct TmaLoopPlan {
  scf::ForOp loop;
  /// The copies with kMulticastPromiseAttr are multicast across the
  /// cluster (tkgpu-warp-specialize sets this).
  bool multicast = false;
  unsigned numStages = 1;
  /// The wgmma groups each dot wait leaves in flight (0 or 1).
  unsigned dotPendings = 0;
  /// Dots whose result is only carried get no wait of their own: the next
  /// iteration waits right before the carried value's first reader.
  bool deferCarriedWaits = false;
  /// How many iterations ahead the fetches run.
  unsigned distance = 1;
  int64_t bytes = 0; // per iteration, all loads
  SmallVector<TmaLoad> loads;
  /// The ops of the body computing the coordinates, in body order.
  llvm::SetVector<Operation *> fetchOps;
};

/// The plan for `loop` over `numStages` (>= 2) slots, when its loads have
/// tkgpu-lower-tma's form and their tiles only feed warp_group_dots, and
/// the coordinates are pure functions of the induction variable.
std::optional<TmaLoopPlan> planTmaLoop(scf::ForOp loop, unsigned numStages,
                                       std::string *why = nullptr);

/// A loop like `like` (its comparison's signedness) over [lb, ub) by
/// `step` carrying `inits`, with an empty body: no terminator yet.
scf::ForOp createEmptyLoop(OpBuilder &b, Location loc, scf::ForOp like,
                           Value lb, Value ub, Value step, ValueRange inits);

/// An i32 (or other integer `type`) constant.
Value arithIntConstant(OpBuilder &b, Location loc, Type type, int64_t v);

/// `index + 1` wrapped to 0 at `numStages`.
Value emitNextSlot(OpBuilder &b, Location loc, Value index,
                   unsigned numStages);

/// `phase` flipped when `nextSlot` wrapped to 0.
Value emitNextPhase(OpBuilder &b, Location loc, Value nextSlot, Value phase);

/// Allocates the plan's multi-buffers (numStages slots per load, into
/// `TmaLoad::buffers`).
void allocateTmaBuffers(OpBuilder &b, TmaLoopPlan &plan);

/// numStages mbarriers, each initialized with `count` arrivals.
Value allocateSlotBarriers(OpBuilder &b, TmaLoopPlan &plan, unsigned count);

/// The barrier of slot `slot` in `bars`.
Value emitSlotBarrier(OpBuilder &b, Location loc, TmaLoopPlan &plan,
                      Value bars, Value slot);

/// The fetch of iteration `iv` into slot `slot`: the coordinates (their
/// computation cloned from the body, its values from outside the loop
/// through `outer` when given), then, when `exists` (by default `iv` < the
/// upper bound), the slot's barrier in `bars` armed with all bytes and one
/// copy per load.
void emitTmaFetch(OpBuilder &b, TmaLoopPlan &plan, Value bars, Value iv,
                  Value slot, Value exists = Value(),
                  const IRMapping *outer = nullptr);

/// The consume stage of one iteration, into the builder's block: the wait
/// for slot `slot` of `bars` at parity `phase`, then the old body without
/// its loads (the tiles mapped to the slot's buffers), each dot
/// asynchronous with a warp_group_dot_wait {dotPendings} after it. `map`
/// holds the induction variable and iter_args; returns the old body's
/// yielded values mapped.
SmallVector<Value> emitConsumeStage(OpBuilder &b, TmaLoopPlan &plan,
                                    IRMapping &map, Value bars, Value slot,
                                    Value phase);

/// After the rewritten loop: the loop's first `numResults` results, with a
/// warp_group_dot_wait {0} over those still in flight (`yields`, the
/// values the body yields, tell which).
SmallVector<Value> retireDotsAfterLoop(OpBuilder &b, Location loc,
                                       ValueRange results, ValueRange yields);

/// Whether every warp_group_dot of `loop` may still run when an iteration
/// ends: its result only feeds its own accumulator in the next iteration
/// (and the code after the loop, where a wait follows). Pipeline.cpp.
bool canKeepDotsInFlight(scf::ForOp loop);

/// The result of `dot` only goes to the yield of `loop`'s body (carried
/// to the next iteration or out of the loop). Pipeline.cpp.
bool isOnlyCarried(scf::ForOp loop, WarpGroupDotOp dot);

/// Whether the waits of the carried dots of `loop` may move into the next
/// iteration, before the first reader of the carried value other than
/// the dot's own accumulator (attention's P @ V, read by acc * alpha).
/// Pipeline.cpp.
bool canDeferCarriedWaits(scf::ForOp loop);

/// In the rewritten `loop`, whose body yields `yields` for its first
/// iter_args: for each one yielded straight from a dot of the body (a
/// carried dot left without a wait), a warp_group_dot_wait for its
/// iter_arg before the first reader, leaving pending the dots issued
/// before that point; or, when the iter_arg is still read after the dot
/// (the dot cannot take its registers), a wait for the dot at the end of
/// the body, leaving pending the dots issued after it. Pipeline.cpp.
void waitForCarriedDots(OpBuilder &b, scf::ForOp loop, ArrayRef<Value> yields);

/// Multi-buffers the TMA loads of `loop` over `numStages` slots, one
/// mbarrier per slot, when the loop has tkgpu-lower-tma's form and the
/// loaded tiles only feed warp_group_dots; returns false (the loop
/// untouched) otherwise.
bool pipelineTmaLoop(scf::ForOp loop, unsigned numStages);

} // namespace mlir::tkgpu

#endif // TK_COMPILER_TRANSFORMS_GPU_PIPELINETMA_H
