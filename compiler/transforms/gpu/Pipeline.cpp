//===- Pipeline.cpp - multi-buffered cp.async software pipelining ---------===//
//
// A K loop of a matmul spends most of its time waiting for the global loads
// of its operand tiles. This pass overlaps them with the tensor-core work:
// the tiles of iteration i + S - 1 are copied (cp.async, no registers on the
// way) into shared memory while iteration i multiplies, with S = num_stages
// buffers per operand.
//
// What is pipelined. In an scf.for, a `tk.load` whose value goes (maybe
// through one convert_layout, or through a tk.trans with a convert_layout
// on either side, for wgmma readers) into a `tkgpu.local_alloc` read only by
// `tkgpu.local_load`s that feed `tk.dot`s (accelerate-matmul's form). The
// load's `other` must be absent or zero (cp.async zero-fills masked lanes),
// and each thread's part must move in pieces of at least 4 bytes (the
// smallest cp.async). A loop with one such load that does not qualify is
// left alone, as are loops with num_stages <= 1 (the option num-stages, or
// the loop's own `tk.num_stages`). A transposed tile is copied into its
// slot as loaded (the alloc's layout with the dimensions permuted back:
// the same bytes) and the dots read the slot through a memdesc_trans view.
//
// Schedule: two stages. The fetch stage of iteration j is the address
// computation of the loads (their pointer and mask operands, followed back
// through memory-effect-free ops of the body and, for loop-carried
// pointers, through the ops that compute their next value) plus the copies; the consume stage is
// everything else. The fetch stage runs S iterations ahead, issued at the
// end of the body:
//
//   %buf = local_alloc : memdesc<S x tile>           (one per load)
//   prologue, j = 0 .. S-2:  fetch(lb + j*step) into slot j; commit
//   async_wait {num = S-2}                           // iteration 0 landed
//   fetch(lb + (S-1)*step) into slot S-1; commit
//   for i (iter_args ..., ptrs of iteration i+S, slot = 0):
//     local_load %buf[slot] ...; tk.dot ...          // the old body
//     async_wait {num = S-2}   // iteration i+1 landed
//     fetch(i + S*step) into slot; commit            // the slot just read
//     yield ..., next ptrs, (slot+1) % S
//   async_wait {num = 0}; local_dealloc %buf
//
// Each fetch ANDs the load's mask with `iteration < ub`, so fetches of
// iterations past the end (the last S of the loop, or part of the prologue
// when the trip count is small) copy nothing but zeros: any trip count,
// also run-time ones, works without peeling. Wait count: at the wait of
// iteration i, S + i groups were committed (one per fetch, all loads of a
// fetch in one group); group i+1 must be complete, the S-2 after it may be
// pending. The barrier that tkgpu-membar places after that wait (before
// the copies) orders this iteration's reads of the slot before its
// overwrite, and every thread's landed copies of the next slot before the
// next iteration's reads: one barrier per iteration. The consume stage
// opens the body with nothing to wait for, so tkgpu-prefetch can move the
// first k-slice of its shared-memory reads to the end of the previous
// iteration, after the wait.
//
// Loop-carried pointers are not duplicated: the loop carries the pointers
// of the iteration being fetched instead of the current one, so the
// consume stage must not use them (or anything computed from them), nor
// may the code after the loop; otherwise the loop is left alone. Address
// computations that depend only on the induction variable are computed
// twice (for i in the consume stage when it uses them, and for the fetched
// iteration).
//
// wgmma (warp_group_dot readers, accelerate-matmul's Hopper form). The
// dots read the slots themselves, asynchronously: a slot may be refilled
// only after the wgmma reading it completed in every warp group. The dots
// become async, each followed by `warp_group_dot_wait {pendings = P}`:
// with S >= 3 and dot results that only feed their own accumulator in the
// next iteration, P = 1 (the dot of iteration i runs on while iteration i
// waits for the next tile and issues its copies) and the fetch at the end
// of iteration i is of i + S - 1, into slot (i - 1) % S, read by the dot
// of i - 1, which the dot wait of iteration i retired before the barrier;
// otherwise P = 0 and the fetch is of i + S as above. With D the distance
// (S or S - 1), the prologue fetches D - 1 iterations and the waits leave
// D - 2 groups pending. After the loop, `warp_group_dot_wait {0}`
// completes the last dot before its result is used and the buffers die.
// Dots whose result is read in the iteration (attention's S = QK^T) wait
// with P = 0. When such dots exist, S >= 3, and the other dots' results
// are only carried to the next iteration and read there by more than
// their own accumulator operand (attention's P @ V, whose acc the next
// iteration scales by alpha) or only by it (the backward's dV and dK,
// retired by the next iteration's wait for P^T), the carried dots get no
// wait: the next iteration waits for the carried value right before its
// first reader, with pendings = the dots issued before that reader in the
// body (groups complete in order), so P @ V of iteration i runs on
// through the end of iteration i and the start of i + 1, and a QK^T dot
// issued one iteration ahead in the source (FA3's overlap of the softmax
// with the next QK^T) runs under the softmax. That wait is in the consume
// stage, before the fetch, so D = S - 1 as above; after the loop one wait
// {0} completes the carried dots.
// A dot result read inside an op with regions of the body (a flattened
// persistent loop's epilogue, `scf.if last`) does not force P = 0: that
// region starts with `warp_group_dot_wait {pendings = 0}` of it.
// cp.async writes through the generic proxy and wgmma reads through the
// async proxy, so a `fence_async_shared` follows each async_wait (before
// membar's barrier).
//
// TMA (tkgpu-lower-tma's loads feeding warp_group_dots): the same schedule
// with one mbarrier per slot and carried phases instead of commit groups
// and waits; PipelineTma.cpp. Those loops are rewritten first.
//
// Why not MLIR's scf::pipelineForLoop: its expansion carries every value
// that crosses stages as extra iter_args (here: a second set of pointer
// tensors, tens of registers per thread) and predicates with scf.if or
// peeled epilogues, while with two fixed stages and masked copies the
// expansion above is short, keeps one copy of the pointers, and needs no
// predication beyond the mask.
//
//===----------------------------------------------------------------------===//
#include "compiler/analysis/AccessExplain.h"
#include "compiler/analysis/AccessWidth.h"
#include "compiler/analysis/AxisInfo.h"
#include "compiler/transforms/gpu/Passes.h"
#include "compiler/transforms/gpu/PipelineTma.h"
#include "dialects/tk/TkDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Remarks.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::tkgpu {
#define GEN_PASS_DEF_TKGPUPIPELINE
#include "compiler/transforms/gpu/Passes.h.inc"
} // namespace mlir::tkgpu

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

constexpr StringLiteral kLoopNumStagesAttr = "tk.num_stages";

/// One load that becomes multi-buffered cp.async copies.
struct PipelinedLoad {
  tk::LoadOp load;
  /// Between load and alloc, may be null: a convert_layout before and
  /// after a transpose.
  ConvertLayoutOp convert, convertAfterTrans;
  /// A register transpose of the tile before its alloc (K^T of attention
  /// written `tl.trans(k)` or `.T`): the slots hold the tile as loaded and
  /// the readers see them through a memdesc_trans view.
  tk::TransOp trans;
  LocalAllocOp alloc;
  /// One slot: the alloc's type, or with `trans` the loaded tile's shape
  /// in the alloc's layout permuted back.
  MemDescType slotType;
  Value buffers; // the multi-buffer, once created
};

/// What the rewrite of one loop needs.
struct LoopPlan {
  scf::ForOp loop;
  unsigned numStages = 1;
  /// The tiles feed warp_group_dots (wgmma reads the slots itself).
  bool wgmma = false;
  /// wgmma groups left in flight at the end of an iteration (0 or 1).
  unsigned dotPendings = 0;
  /// Dots whose result is only carried to the next iteration get no wait
  /// of their own: the next iteration waits for the carried value right
  /// before its first use (attention's P @ V, read by acc * alpha).
  bool deferCarriedWaits = false;
  /// Iterations the fetch at the end of the body runs ahead: S, or S - 1
  /// when a wgmma stays in flight (it still reads the slot just used).
  unsigned distance = 1;
  SmallVector<PipelinedLoad> loads;
  /// The fetch stage: ops of the body (in body order) computing the loads'
  /// pointers and masks and the next values of the fetch iter_args.
  llvm::SetVector<Operation *> fetchOps;
  /// Iter_arg numbers that carry the fetched iteration's values.
  SmallVector<unsigned> fetchArgs;
  /// Fetch ops that depend on a fetch iter_arg: only in the fetch stage.
  llvm::DenseSet<Operation *> aheadOnly;
};

/// The bytes each piece of a thread's elements of `load` moves, by the
/// vector width the lowering of the copy will use; 0 for elements narrower
/// than a byte (or not integers or floats), which cp.async cannot copy.
unsigned getPieceBytes(const tk::AxisInfoAnalysis &axisInfo,
                       tk::LoadOp load) {
  auto type = cast<RankedTensorType>(load.getPtr().getType());
  Type pointee = cast<tk::PtrType>(type.getElementType()).getPointeeType();
  if (!pointee.isIntOrFloat() || pointee.getIntOrFloatBitWidth() < 8)
    return 0;
  return tk::getAccessVectorWidth(axisInfo, load.getPtr(), load.getMask()) *
         pointee.getIntOrFloatBitWidth() / 8;
}

/// Whether the readers of `alloc` are local_loads feeding tk.dots (the
/// mma.sync form) or, with `wgmma`, warp_group_dots reading it as an
/// operand.
bool hasDotReaders(LocalAllocOp alloc, bool wgmma) {
  for (OpOperand &use : alloc->getUses()) {
    Operation *reader = use.getOwner();
    if (wgmma) {
      auto dot = dyn_cast<WarpGroupDotOp>(reader);
      if (!dot || &use == &dot.getCMutable())
        return false;
      continue;
    }
    if (!isa<LocalLoadOp>(reader) || reader->use_empty())
      return false;
    for (Operation *consumer : reader->getUsers())
      if (!isa<tk::DotOp>(consumer))
        return false;
  }
  return true;
}

/// The convert_layout/local_alloc chain of `load` if it has contract 1's
/// form (read only by local_loads that feed dots, or by warp_group_dots);
/// nullopt otherwise.
std::optional<PipelinedLoad> matchOperandLoad(tk::LoadOp load) {
  auto type = dyn_cast<RankedTensorType>(load.getPtr().getType());
  if (!type || !getLayoutEncoding(type) || !load->hasOneUse())
    return std::nullopt;
  PipelinedLoad match;
  match.load = load;
  Operation *user = *load->user_begin();
  auto skipConvert = [&](ConvertLayoutOp &slot) {
    if (auto convert = dyn_cast<ConvertLayoutOp>(user)) {
      if (!convert->hasOneUse())
        return false;
      slot = convert;
      user = *convert->user_begin();
    }
    return true;
  };
  if (!skipConvert(match.convert))
    return std::nullopt;
  if (auto trans = dyn_cast<tk::TransOp>(user)) {
    if (!trans->hasOneUse())
      return std::nullopt;
    match.trans = trans;
    user = *trans->user_begin();
    if (!skipConvert(match.convertAfterTrans))
      return std::nullopt;
  }
  match.alloc = dyn_cast<LocalAllocOp>(user);
  if (!match.alloc || match.alloc->getBlock() != load->getBlock() ||
      match.alloc->use_empty())
    return std::nullopt;
  match.slotType = match.alloc.getType();
  if (match.trans) {
    // Only wgmma reads a transposed view of a slot.
    if (!hasDotReaders(match.alloc, /*wgmma=*/true))
      return std::nullopt;
    match.slotType =
        getTransposeSourceType(match.slotType, match.trans.getOrder());
    if (!match.slotType)
      return std::nullopt;
  }
  if (!addLeadingBufferDim(match.slotType.getEncoding()))
    return std::nullopt;
  if (!hasDotReaders(match.alloc, /*wgmma=*/false) &&
      !hasDotReaders(match.alloc, /*wgmma=*/true))
    return std::nullopt;
  return match;
}

/// Collects the fetch stage of `plan` (plan.loads set). Fails, saying why
/// in `why`, when the address computation cannot run ahead: an impure op
/// or one with regions, or loop-carried values that the consume stage or
/// the code after the loop also needs.
LogicalResult collectFetchStage(LoopPlan &plan, std::string &why) {
  Block *body = plan.loop.getBody();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  unsigned numIterArgs = plan.loop.getNumRegionIterArgs();
  llvm::DenseSet<Operation *> members;
  llvm::SmallDenseSet<unsigned> args;
  SmallVector<Value> worklist;
  for (PipelinedLoad &pipelined : plan.loads) {
    worklist.push_back(pipelined.load.getPtr());
    if (pipelined.load.getMask())
      worklist.push_back(pipelined.load.getMask());
  }
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (arg.getOwner() != body || arg == plan.loop.getInductionVar())
        continue;
      unsigned number = arg.getArgNumber() - 1;
      if (args.insert(number).second)
        worklist.push_back(yield.getOperand(number));
      continue;
    }
    Operation *op = value.getDefiningOp();
    if (op->getBlock() != body || !members.insert(op).second)
      continue;
    // Memory-effect free is enough: fetches past the end compute addresses
    // they never use, and integer division does not trap on the GPU (a
    // flattened loop's tile coordinates divide by run-time values).
    if (!isMemoryEffectFree(op) || op->getNumRegions() != 0) {
      why = "the address of a load depends on `" +
            op->getName().getStringRef().str() +
            "`, which reads memory or holds a region, so it cannot run "
            "iterations ahead";
      return failure();
    }
    llvm::append_range(worklist, op->getOperands());
  }

  for (Operation &op : body->without_terminator())
    if (members.contains(&op))
      plan.fetchOps.insert(&op);
  for (unsigned number = 0; number < numIterArgs; ++number)
    if (args.contains(number))
      plan.fetchArgs.push_back(number);

  // Values that hold the fetched iteration's data (fetch iter_args and what
  // is computed from them) may only be used by the fetch stage, the loads
  // being replaced, and the yields of fetch iter_args.
  llvm::DenseSet<Operation *> replaced;
  for (PipelinedLoad &pipelined : plan.loads)
    replaced.insert(pipelined.load);
  auto usesAreAhead = [&](Value value) {
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (user == yield.getOperation()) {
        if (!args.contains(use.getOperandNumber()))
          return false;
      } else if (!plan.fetchOps.contains(user) && !replaced.contains(user)) {
        return false;
      }
    }
    return true;
  };
  const char *carriedWhy =
      "a loop-carried value of the loads' addresses (a pointer advanced "
      "each iteration) is also used by the rest of the body or after the "
      "loop, which would see it iterations ahead";
  for (unsigned number : plan.fetchArgs) {
    if (!plan.loop.getResult(number).use_empty() ||
        !usesAreAhead(plan.loop.getRegionIterArg(number))) {
      why = carriedWhy;
      return failure();
    }
  }
  for (Operation *op : plan.fetchOps) {
    bool ahead = llvm::any_of(op->getOperands(), [&](Value operand) {
      if (auto arg = dyn_cast<BlockArgument>(operand))
        return arg.getOwner() == body && args.contains(arg.getArgNumber() - 1) &&
               arg != plan.loop.getInductionVar();
      return plan.aheadOnly.contains(operand.getDefiningOp());
    });
    if (!ahead)
      continue;
    plan.aheadOnly.insert(op);
    for (Value result : op->getResults())
      if (!usesAreAhead(result)) {
        why = carriedWhy;
        return failure();
      }
  }
  return success();
}

/// Whether every warp_group_dot of the body may still run when the
/// iteration ends: its result only goes back, through the yield, into the
/// accumulator of the same dot in the next iteration (and out of the loop,
/// where a wait follows), or is read inside an op with regions after it
/// (a flattened loop's epilogue, `scf.if last`), which then waits for it
/// (waitInEpilogues). Anything else reading it would need it complete.
/// (The TMA pipeliner, which places no epilogue waits, uses the stricter
/// tkgpu::canKeepDotsInFlight below.)
bool canKeepDotsInFlightOrInEpilogues(scf::ForOp loop) {
  Block *body = loop.getBody();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  for (auto dot : body->getOps<WarpGroupDotOp>()) {
    OpOperand *yielded = nullptr;
    for (OpOperand &use : dot->getUses()) {
      Operation *user = use.getOwner();
      if (user == yield.getOperation() && !yielded) {
        yielded = &use;
        continue;
      }
      Operation *top = body->findAncestorOpInBlock(*user);
      if (top == user || top->getNumRegions() == 0)
        return false;
    }
    if (!yielded)
      return false;
    Value iterArg = loop.getRegionIterArg(yielded->getOperandNumber());
    if (!iterArg.hasOneUse() || dot.getC() != iterArg)
      return false;
  }
  return true;
}

} // namespace

/// The result of `dot` only goes to the yield of `loop`'s body (carried
/// to the next iteration or out of the loop): nothing in the iteration
/// needs it complete.
bool tkgpu::isOnlyCarried(scf::ForOp loop, WarpGroupDotOp dot) {
  return dot->hasOneUse() &&
         *dot->user_begin() == loop.getBody()->getTerminator();
}

/// Whether the waits of the carried dots of `loop` may move into the next
/// iteration: every dot is at the top level of the body, at least one is
/// only carried, and each carried dot is retired in the next iteration
/// before the end of it (so the slots it read may be refilled there):
/// either its iter_arg is read in the body by something other than its
/// own accumulator operand (that reader gets the wait), or a dot of the
/// body is read in the iteration, whose wait {0} retires every group
/// issued before it (attention's backward: dV and dK only accumulate,
/// while P^T and dP^T are read at once).
bool tkgpu::canDeferCarriedWaits(scf::ForOp loop) {
  unsigned nested = 0;
  loop.getBody()->walk([&](WarpGroupDotOp) { ++nested; });
  auto dots = loop.getBody()->getOps<WarpGroupDotOp>();
  if (nested != size_t(std::distance(dots.begin(), dots.end())))
    return false;
  bool anyCarried = false, anyReadAtOnce = false, anyOnlyAccumulated = false;
  for (WarpGroupDotOp dot : dots) {
    if (!isOnlyCarried(loop, dot)) {
      anyReadAtOnce = true;
      continue;
    }
    anyCarried = true;
    Value iterArg = loop.getRegionIterArg(dot->use_begin()->getOperandNumber());
    if (llvm::none_of(iterArg.getUses(), [&](OpOperand &use) {
          return use.getOwner() != loop.getBody()->getTerminator() &&
                 &use != &dot.getCMutable();
        }))
      anyOnlyAccumulated = true;
  }
  return anyCarried && (anyReadAtOnce || !anyOnlyAccumulated);
}

/// In the rewritten body, a `warp_group_dot_wait` for the iter_arg `arg`
/// (carried from a dot of the previous iteration) before its first reader;
/// the readers take the wait's result. wgmma groups complete in order, so
/// leaving pending the dots this iteration issued before that point
/// retires the carried one.
static void waitBeforeFirstUse(OpBuilder &b, Block *body, Value arg,
                               bool retireAll) {
  Operation *first = nullptr;
  for (Operation *user : arg.getUsers()) {
    Operation *top = body->findAncestorOpInBlock(*user);
    if (top && (!first || top->isBeforeInBlock(first)))
      first = top;
  }
  if (!first)
    return;
  int32_t issuedBefore = 0;
  for (Operation &op : *body) {
    if (&op == first || retireAll)
      break;
    issuedBefore += isa<WarpGroupDotOp>(op);
  }
  b.setInsertionPoint(first);
  auto wait = WarpGroupDotWaitOp::create(b, arg.getLoc(),
                                         TypeRange{arg.getType()},
                                         ValueRange{arg},
                                         b.getI32IntegerAttr(issuedBefore));
  arg.replaceAllUsesExcept(wait.getResult(0), wait);
}

/// Whether `arg` is read after `dot` in `body` (other than by the yield):
/// the value the dot replaces is still live when the dot is issued.
static bool isReadAfter(Block *body, Value arg, WarpGroupDotOp dot) {
  return llvm::any_of(arg.getUsers(), [&](Operation *user) {
    Operation *top = body->findAncestorOpInBlock(*user);
    return top && top != body->getTerminator() && dot->isBeforeInBlock(top);
  });
}

/// At the end of `body`, a `warp_group_dot_wait` for `dot`, whose result
/// the yield takes as its operand `number`, leaving pending the dots
/// issued after it.
static void waitAtEnd(OpBuilder &b, Block *body, WarpGroupDotOp dot,
                      unsigned number) {
  int32_t issuedAfter = 0;
  for (Operation *op = dot->getNextNode(); op; op = op->getNextNode())
    issuedAfter += isa<WarpGroupDotOp>(op);
  Operation *yield = body->getTerminator();
  b.setInsertionPoint(yield);
  auto wait = WarpGroupDotWaitOp::create(b, dot.getLoc(),
                                         TypeRange{dot.getType()},
                                         ValueRange{dot.getD()},
                                         b.getI32IntegerAttr(issuedAfter));
  yield->setOperand(number, wait.getResult(0));
}

void tkgpu::waitForCarriedDots(OpBuilder &b, scf::ForOp loop,
                               ArrayRef<Value> yields) {
  Block *body = loop.getBody();
  // A dot issued while the value it replaces is still read (AHEAD's S of
  // the next block, issued before this block's softmax) has registers of
  // its own, which the back edge copies into the iter_arg's; a copy that
  // reads them before the dot's wait makes ptxas serialize every wgmma
  // (C7514). So such a dot is waited for at the end of the iteration,
  // leaving the dots issued after it in flight. The other carried dots'
  // waits then retire everything: ptxas does not follow which group a
  // `wgmma.wait_group 1` retires when two such waits alternate around the
  // loop (C7514 again), and the dot issued before the reader (S of the
  // next block) has run under the softmax by then.
  struct Carried {
    unsigned number;
    WarpGroupDotOp dot;
    bool atEnd;
  };
  SmallVector<Carried> carried;
  bool anyAtEnd = false;
  for (auto [number, value] : llvm::enumerate(yields)) {
    auto dot = value.getDefiningOp<WarpGroupDotOp>();
    if (!dot || dot->getBlock() != body)
      continue;
    bool atEnd = isReadAfter(body, loop.getRegionIterArg(number), dot);
    carried.push_back({unsigned(number), dot, atEnd});
    anyAtEnd |= atEnd;
  }
  for (const Carried &entry : carried) {
    if (entry.atEnd)
      waitAtEnd(b, body, entry.dot, entry.number);
    else
      waitBeforeFirstUse(b, body, loop.getRegionIterArg(entry.number),
                         /*retireAll=*/anyAtEnd);
  }
}

namespace {

/// Where `inFlight` (a dot result that may still be running) is read in a
/// region of an op of `body`, that region first waits for it:
/// `warp_group_dot_wait {pendings = 0}` at its start.
void waitInEpilogues(Block *body, Value inFlight) {
  for (Operation &op : *body) {
    for (Region &region : op.getRegions()) {
      if (region.empty() ||
          llvm::none_of(inFlight.getUses(), [&](OpOperand &use) {
            return region.isAncestor(use.getOwner()->getParentRegion());
          }))
        continue;
      OpBuilder b = OpBuilder::atBlockBegin(&region.front());
      auto wait = WarpGroupDotWaitOp::create(
          b, op.getLoc(), TypeRange{inFlight.getType()}, ValueRange{inFlight},
          b.getI32IntegerAttr(0));
      inFlight.replaceUsesWithIf(wait.getResult(0), [&](OpOperand &use) {
        return use.getOwner() != wait &&
               region.isAncestor(use.getOwner()->getParentRegion());
      });
    }
  }
}

constexpr StringLiteral kRemarkCategory = "pipeline";

/// A missed-optimization remark of this pass at `loc`.
mlir::remark::detail::InFlightRemark missedRemark(Location loc,
                                                  StringRef name) {
  return mlir::remark::missed(
      loc, mlir::remark::RemarkOpts::name(name).category(kRemarkCategory));
}

/// Whether `load`'s value reaches a dot through the ops accelerate-matmul
/// puts between them (convert_layout, local_alloc, local_load).
bool feedsDot(tk::LoadOp load) {
  SmallVector<Operation *> worklist(load->getUsers().begin(),
                                    load->getUsers().end());
  llvm::SmallPtrSet<Operation *, 8> seen;
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!seen.insert(op).second)
      continue;
    if (isa<tk::DotOp, WarpGroupDotOp>(op))
      return true;
    if (isa<ConvertLayoutOp, tk::TransOp, LocalAllocOp, LocalLoadOp,
            MemDescTransOp>(op))
      llvm::append_range(worklist, op->getUsers());
  }
  return false;
}

/// Why `load` (an operand load of the dot form) cannot become cp.async
/// copies, or empty when it can.
std::string whyNotCopied(const tk::AxisInfoAnalysis &axisInfo,
                         tk::LoadOp load) {
  if (!isZeroFill(load.getOther()))
    return "its `other` is not zero (cp.async fills masked lanes with "
           "zeros)";
  if (load.getIsVolatile())
    return "it is volatile";
  Value mask = load.getMask();
  auto maskType =
      mask ? dyn_cast<RankedTensorType>(mask.getType()) : RankedTensorType();
  if (mask && (!maskType ||
               maskType.getEncoding() !=
                   cast<RankedTensorType>(load.getPtr().getType())
                       .getEncoding()))
    return "its mask has another layout than its pointers";
  // No cp.async moves less than 4 bytes.
  if (unsigned bytes = getPieceBytes(axisInfo, load); bytes < 4)
    return llvm::formatv("each thread's piece is {0} bytes, and cp.async "
                         "moves 4, 8 or 16: {1}",
                         bytes,
                         tk::explainAccessWidth(axisInfo, load.getPtr(),
                                                load.getMask()))
        .str();
  return "";
}

/// The plan for `loop`, or nullopt when it is left alone. Loops with dot
/// operand loads say why in a missed remark, and what was done in a
/// passed remark once planned.
std::optional<LoopPlan> planLoop(scf::ForOp loop, unsigned numStages,
                                 const tk::AxisInfoAnalysis &axisInfo) {
  if (auto attr = loop->getAttrOfType<IntegerAttr>(kLoopNumStagesAttr))
    numStages = attr.getInt() < 1 ? 1 : attr.getInt();
  if (numStages <= 1)
    return std::nullopt;
  LoopPlan plan;
  plan.loop = loop;
  plan.numStages = numStages;
  for (auto load : loop.getBody()->getOps<tk::LoadOp>()) {
    std::optional<PipelinedLoad> match = matchOperandLoad(load);
    if (!match) {
      if (feedsDot(load))
        missedRemark(load.getLoc(), "LoadNotPipelined")
            << "load not pipelined: its value goes to a dot and elsewhere "
               "(only loads that only a dot reads are copied ahead)";
      continue;
    }
    // Zero-filling copies cannot produce another `other`, and no cp.async
    // moves less than 4 bytes or is volatile: such a loop keeps its loads.
    if (std::string why = whyNotCopied(axisInfo, load); !why.empty()) {
      missedRemark(load.getLoc(), "LoadNotPipelined")
          << "load not pipelined: " << why
          << "; the loop keeps all its loads";
      return std::nullopt;
    }
    plan.loads.push_back(*match);
  }
  if (plan.loads.empty())
    return std::nullopt;
  std::string why;
  if (failed(collectFetchStage(plan, why))) {
    missedRemark(loop.getLoc(), "LoopNotPipelined")
        << "loop not pipelined: " << why;
    return std::nullopt;
  }
  plan.wgmma = hasDotReaders(plan.loads.front().alloc, /*wgmma=*/true);
  for (PipelinedLoad &pipelined : plan.loads)
    if (hasDotReaders(pipelined.alloc, /*wgmma=*/true) != plan.wgmma) {
      missedRemark(loop.getLoc(), "LoopNotPipelined")
          << "loop not pipelined: its loads feed both wgmma and mma.sync "
             "dots";
      return std::nullopt;
    }
  plan.distance = numStages;
  if (plan.wgmma && numStages >= 3 &&
      canKeepDotsInFlightOrInEpilogues(loop)) {
    plan.dotPendings = 1;
    plan.distance = numStages - 1;
  } else if (plan.wgmma && numStages >= 3 && canDeferCarriedWaits(loop)) {
    // A carried dot still reads its slot when the iteration ends; the
    // next iteration's wait retires it before the refill.
    plan.deferCarriedWaits = true;
    plan.distance = numStages - 1;
  }
  SmallVector<unsigned> pieceBytes;
  for (PipelinedLoad &pipelined : plan.loads)
    pieceBytes.push_back(getPieceBytes(axisInfo, pipelined.load));
  unsigned narrowest = *llvm::min_element(pieceBytes);
  mlir::remark::passed(loop.getLoc(),
                       mlir::remark::RemarkOpts::name("LoopPipelined")
                           .category(kRemarkCategory))
      << llvm::formatv("loop pipelined: {0} stages, {1} load(s) copied ahead "
                       "with cp.async (pieces of {2} bytes or more){3}",
                       numStages, plan.loads.size(), narrowest,
                       plan.wgmma ? ", read by wgmma" : "")
             .str();
  for (auto [pipelined, bytes] : llvm::zip_equal(plan.loads, pieceBytes))
    if (bytes < 16)
      missedRemark(pipelined.load.getLoc(), "LoadNotVectorized")
          << llvm::formatv("load copied in {0}-byte pieces, not 16: {1}",
                           bytes,
                           tk::explainAccessWidth(axisInfo,
                                                  pipelined.load.getPtr(),
                                                  pipelined.load.getMask()))
                 .str();
  return plan;
}

Value createIntConstant(OpBuilder &b, Location loc, Type type, int64_t v) {
  return arith::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, v));
}

/// Emits the fetch stage of iteration `iv` (the fetch iter_args holding
/// `argValues`): the address computation, one masked copy per load into
/// slot `slot`, and one commit. Returns the fetch iter_args' next values.
SmallVector<Value> emitFetch(OpBuilder &b, const LoopPlan &plan, Value iv,
                             ArrayRef<Value> argValues, Value slot) {
  scf::ForOp loop = plan.loop;
  Location loc = loop.getLoc();
  IRMapping map;
  map.map(loop.getInductionVar(), iv);
  for (auto [number, value] : llvm::zip_equal(plan.fetchArgs, argValues))
    map.map(loop.getRegionIterArg(number), value);
  for (Operation *op : plan.fetchOps)
    b.clone(*op, map);

  // Iterations at or past the upper bound copy nothing (zeros).
  Value exists = arith::CmpIOp::create(
      b, loc,
      loop.getUnsignedCmp() ? arith::CmpIPredicate::ult
                            : arith::CmpIPredicate::slt,
      iv, loop.getUpperBound());
  for (PipelinedLoad pipelined : plan.loads) {
    tk::LoadOp load = pipelined.load;
    Value ptr = map.lookupOrDefault(load.getPtr());
    auto ptrType = cast<RankedTensorType>(ptr.getType());
    auto maskType = RankedTensorType::get(ptrType.getShape(), b.getI1Type(),
                                          ptrType.getEncoding());
    Value mask = tk::SplatOp::create(b, load.getLoc(), maskType, exists);
    if (load.getMask())
      mask = arith::AndIOp::create(b, load.getLoc(),
                                   map.lookupOrDefault(load.getMask()), mask);
    Value dst = MemDescIndexOp::create(b, load.getLoc(), pipelined.slotType,
                                       pipelined.buffers, slot);
    AsyncCopyGlobalToLocalOp::create(b, load.getLoc(), ptr, dst, mask,
                                     Value());
  }
  AsyncCommitGroupOp::create(b, loc);

  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  SmallVector<Value> next;
  for (unsigned number : plan.fetchArgs)
    next.push_back(map.lookupOrDefault(yield.getOperand(number)));
  return next;
}

/// `index + 1` wrapped to 0 at `numStages`.
Value emitNextSlot(OpBuilder &b, Location loc, Value index,
                   unsigned numStages) {
  Type i32 = b.getI32Type();
  Value next = arith::AddIOp::create(b, loc, index,
                                     createIntConstant(b, loc, i32, 1));
  Value wraps = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq, next,
      createIntConstant(b, loc, i32, numStages));
  return arith::SelectOp::create(b, loc, wraps,
                                 createIntConstant(b, loc, i32, 0), next);
}

/// Waits until this iteration's landed copies may be read: at most
/// `pending` groups in flight, and for wgmma (which reads through the
/// async proxy) a fence of this thread's landed copies, before the barrier
/// membar places ahead of the next copies.
void emitLandedWait(OpBuilder &b, Location loc, const LoopPlan &plan,
                    unsigned pending) {
  AsyncWaitOp::create(b, loc, b.getI32IntegerAttr(pending));
  if (plan.wgmma)
    FenceAsyncSharedOp::create(b, loc);
}

void rewriteLoop(LoopPlan &plan) {
  scf::ForOp loop = plan.loop;
  unsigned numStages = plan.numStages;
  unsigned distance = plan.distance;
  Location loc = loop.getLoc();
  Type ivType = loop.getInductionVar().getType();
  Type i32 = IntegerType::get(loop.getContext(), 32);
  OpBuilder b(loop);

  for (PipelinedLoad &pipelined : plan.loads)
    pipelined.buffers = LocalAllocOp::create(
        b, pipelined.load.getLoc(),
        getMultiBufferType(pipelined.slotType, numStages), Value());

  // Prologue: iterations 0 .. D-2 into slots 0 .. D-2 (D = distance).
  SmallVector<Value> fetchValues;
  for (unsigned number : plan.fetchArgs)
    fetchValues.push_back(loop.getInitArgs()[number]);
  auto emitPrologueFetch = [&](unsigned stage) {
    Value iv = loop.getLowerBound();
    if (stage > 0)
      iv = arith::AddIOp::create(
          b, loc, iv,
          arith::MulIOp::create(b, loc, loop.getStep(),
                                createIntConstant(b, loc, ivType, stage)));
    fetchValues = emitFetch(b, plan, iv, fetchValues,
                            createIntConstant(b, loc, i32, stage));
  };
  for (unsigned stage = 0; stage + 1 < distance; ++stage)
    emitPrologueFetch(stage);
  // Iteration 0's tiles have landed (for this thread; membar adds the
  // barrier for the others); then the fetch of iteration D-1.
  emitLandedWait(b, loc, plan, distance - 2);
  emitPrologueFetch(distance - 1);

  // The loop carries the fetched iteration's pointers and the slot read,
  // plus the slot written when that is another one (a wgmma in flight).
  bool ownInsertSlot = distance % numStages != 0;
  SmallVector<Value> inits(loop.getInitArgs());
  for (auto [number, value] : llvm::zip_equal(plan.fetchArgs, fetchValues))
    inits[number] = value;
  inits.push_back(createIntConstant(b, loc, i32, 0)); // slot read
  if (ownInsertSlot)
    inits.push_back(createIntConstant(b, loc, i32, distance % numStages));
  auto newLoop = scf::ForOp::create(
      b, loc, loop.getLowerBound(), loop.getUpperBound(), loop.getStep(),
      inits, nullptr, loop.getUnsignedCmp());
  for (NamedAttribute attr : loop->getDiscardableAttrs())
    if (attr.getName() != kLoopNumStagesAttr)
      newLoop->setAttr(attr.getName(), attr.getValue());
  Block *newBody = newLoop.getBody();
  if (!newBody->empty())
    newBody->back().erase();
  unsigned numIterArgs = loop.getNumRegionIterArgs();
  Value slot = newLoop.getRegionIterArg(numIterArgs);
  Value insertSlot =
      ownInsertSlot ? newLoop.getRegionIterArg(numIterArgs + 1) : slot;

  b.setInsertionPointToStart(newBody);
  IRMapping map;
  map.map(loop.getInductionVar(), newLoop.getInductionVar());
  for (unsigned number = 0; number < numIterArgs; ++number)
    map.map(loop.getRegionIterArg(number), newLoop.getRegionIterArg(number));

  // Consume stage: the old body reads this iteration's slot.
  llvm::DenseSet<Operation *> removed;
  for (PipelinedLoad &pipelined : plan.loads) {
    Value tile = MemDescIndexOp::create(b, pipelined.alloc.getLoc(),
                                        pipelined.slotType,
                                        pipelined.buffers, slot);
    if (pipelined.trans)
      tile = MemDescTransOp::create(b, pipelined.alloc.getLoc(), tile,
                                    pipelined.trans.getOrder());
    map.map(pipelined.alloc.getResult(), tile);
    removed.insert(pipelined.load);
    removed.insert(pipelined.alloc);
    for (Operation *op : {pipelined.convert.getOperation(),
                          pipelined.trans.getOperation(),
                          pipelined.convertAfterTrans.getOperation()})
      if (op)
        removed.insert(op);
  }
  Block *body = loop.getBody();
  // A fence that only ordered the stores of replaced local_allocs before
  // the wgmma is covered by the fence after the wait.
  bool storesSinceFence = false;
  for (Operation &op : body->without_terminator()) {
    if (removed.contains(&op) || plan.aheadOnly.contains(&op))
      continue;
    if (isa<FenceAsyncSharedOp>(op) && plan.wgmma && !storesSinceFence)
      continue;
    if (auto alloc = dyn_cast<LocalAllocOp>(op))
      storesSinceFence |= bool(alloc.getSrc());
    if (isa<LocalStoreOp>(op))
      storesSinceFence = true;
    if (isa<FenceAsyncSharedOp>(op))
      storesSinceFence = false;
    Operation *clone = b.clone(op, map);
    // The dots run asynchronously; a wait right after each keeps at most
    // dotPendings of them in flight when the iteration ends.
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

  if (plan.dotPendings > 0)
    for (auto wait : llvm::to_vector(newBody->getOps<WarpGroupDotWaitOp>()))
      waitInEpilogues(newBody, wait.getResult(0));

  // Then the wait for the next iteration's tiles and the fetch of
  // iteration i + D into the slot no dot reads any more (the one just read,
  // or with a wgmma in flight the one before). The barrier membar puts
  // after the wait orders the reads of that slot before its overwrite and
  // the landed copies before the next iteration's reads: one per
  // iteration. At the wait, D + i groups are committed and group i + 1
  // must be complete: D - 2 may stay pending.
  emitLandedWait(b, loc, plan, distance - 2);
  Value aheadIv = arith::AddIOp::create(
      b, loc, newLoop.getInductionVar(),
      arith::MulIOp::create(b, loc, loop.getStep(),
                            createIntConstant(b, loc, ivType, distance)));
  SmallVector<Value> carried;
  for (unsigned number : plan.fetchArgs)
    carried.push_back(newLoop.getRegionIterArg(number));
  SmallVector<Value> fetched =
      emitFetch(b, plan, aheadIv, carried, insertSlot);

  auto yield = cast<scf::YieldOp>(body->getTerminator());
  SmallVector<Value> yields;
  for (unsigned number = 0; number < numIterArgs; ++number)
    yields.push_back(map.lookupOrDefault(yield.getOperand(number)));
  for (auto [number, value] : llvm::zip_equal(plan.fetchArgs, fetched))
    yields[number] = value;
  yields.push_back(emitNextSlot(b, loc, slot, numStages));
  if (ownInsertSlot)
    yields.push_back(emitNextSlot(b, loc, insertSlot, numStages));
  scf::YieldOp::create(b, yield.getLoc(), yields);

  // The next iteration waits for the dots carried without a wait.
  if (plan.deferCarriedWaits)
    waitForCarriedDots(b, newLoop,
                       ArrayRef<Value>(yields).take_front(numIterArgs));

  // Address computations of the consume stage that only fed the loads.
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*newBody)))
    if (isOpTriviallyDead(&op))
      op.erase();

  // Epilogue: no copy (and no wgmma reading a slot) may be in flight when
  // the buffers die; the dots still running complete before their results
  // are used.
  b.setInsertionPointAfter(newLoop);
  SmallVector<Value> results(newLoop.getResults().take_front(numIterArgs));
  if (plan.dotPendings > 0 || plan.deferCarriedWaits) {
    SmallVector<Value> inFlight;
    SmallVector<unsigned> numbers;
    for (unsigned number = 0; number < numIterArgs; ++number)
      if (yields[number].getDefiningOp<WarpGroupDotWaitOp>() ||
          yields[number].getDefiningOp<WarpGroupDotOp>()) {
        inFlight.push_back(results[number]);
        numbers.push_back(number);
      }
    auto wait = WarpGroupDotWaitOp::create(
        b, loc, ValueRange(inFlight).getTypes(), inFlight,
        b.getI32IntegerAttr(0));
    for (auto [i, number] : llvm::enumerate(numbers))
      results[number] = wait.getResult(i);
  }
  AsyncWaitOp::create(b, loc, b.getI32IntegerAttr(0));
  for (PipelinedLoad &pipelined : plan.loads)
    LocalDeallocOp::create(b, loc, pipelined.buffers);

  for (unsigned number = 0; number < numIterArgs; ++number)
    loop.getResult(number).replaceAllUsesWith(results[number]);
  loop.erase();
}

struct PipelinePass : public tkgpu::impl::TkgpuPipelineBase<PipelinePass> {
  using TkgpuPipelineBase::TkgpuPipelineBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    tk::AxisInfoAnalysis axisInfo(module);
    // Plans first (the analysis knows only the original values), inner
    // loops before the loops around them.
    SmallVector<LoopPlan> plans;
    SmallVector<scf::ForOp> others;
    module.walk([&](scf::ForOp loop) {
      if (std::optional<LoopPlan> plan = planLoop(loop, numStages, axisInfo))
        plans.push_back(std::move(*plan));
      else
        others.push_back(loop);
    });
    // TMA loops (no cp.async plan touches them), then the cp.async ones.
    for (scf::ForOp loop : others) {
      unsigned stages = numStages;
      if (auto attr = loop->getAttrOfType<IntegerAttr>(kLoopNumStagesAttr))
        stages = attr.getInt() < 1 ? 1 : attr.getInt();
      pipelineTmaLoop(loop, stages);
    }
    for (LoopPlan &plan : plans)
      rewriteLoop(plan);
  }
};

} // namespace

/// Whether every warp_group_dot of the body may still run when the
/// iteration ends: its result only goes back, through the yield, into the
/// accumulator of the same dot in the next iteration (and out of the loop,
/// where a wait follows). Anything else reading it would need it complete.
bool tkgpu::canKeepDotsInFlight(scf::ForOp loop) {
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  for (auto dot : loop.getBody()->getOps<WarpGroupDotOp>()) {
    if (!dot->hasOneUse() || *dot->user_begin() != yield.getOperation())
      return false;
    unsigned index = dot->use_begin()->getOperandNumber();
    Value iterArg = loop.getRegionIterArg(index);
    if (!iterArg.hasOneUse() || dot.getC() != iterArg)
      return false;
  }
  return true;
}
