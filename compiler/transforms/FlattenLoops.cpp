//===- FlattenLoops.cpp - range(..., flatten=True) ------------------------===//
//
// A persistent matmul walks its tiles in an outer loop and each tile's K
// blocks in an inner one. Pipelined as a nest, every tile starts with an
// empty pipeline: the prologue of tile i + 1 waits for the epilogue of tile
// i. The frontend records `range(..., flatten=True)` as `tk.flatten` on the
// outer scf.for; this pass turns such a two-level nest into one loop over
// all (tile, K block) pairs, so that the pipeliner's fetches run ahead
// across tile boundaries and the next tile's loads overlap this tile's
// epilogue.
//
//   for i in [lo, uo, so) iter_args(o):          // tk.flatten
//     P(i, o)                                     // memory-effect free
//     r = for j in [li, ui, si) iter_args(x = init(i, o)): B(j, x)
//     E(i, o, r); yield Y
//
// becomes, with To / Ti the trip counts (Ti invariant: its bounds are
// defined above the nest):
//
//   if Ti > 0:
//     for t in [0, To * Ti) iter_args(o, x):
//       i = lo + (t / Ti) * so;  j = li + (t % Ti) * si
//       P(i, o)                                   // recomputed each time
//       x' = select(t % Ti == 0, init(i, o), x)   // a tile starts
//       x'' = B(j, x')
//       o' = if t % Ti == Ti - 1: E(i, o, x''); yield Y   else: o
//       yield o', x''
//   else: the outer loop with P and E only (r = init)
//
// P is recomputed in every iteration instead of being carried: its values
// (tile coordinates, row offsets) are then functions of the induction
// variable, which is what the pipeliner needs to compute the addresses of
// iteration t + D ahead, tile boundary or not. So P must be free of memory
// effects and regions; E (the epilogue: stores, any control flow) runs
// under the predicate. The outer iter_args change only in E, so P and
// init see the current tile's values. The first iteration's carried x is
// never read (the select takes init): its initial value is `init` where
// that is defined above the nest, else zero.
//
// Left alone: nests whose outer loop holds no scf.for or more than one,
// whose inner bounds depend on the outer loop, whose P has side effects or
// regions, loops over unsigned bounds or of different induction types, and
// inner iter_args of types without a zero (neither numbers nor pointers).
// The attribute is dropped either way; the flattened loop keeps the outer
// loop's other attributes, the inner loop's (num_stages) taking
// precedence.
//
//===----------------------------------------------------------------------===//
#include "compiler/transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tk {
#define GEN_PASS_DEF_TKFLATTENLOOPS
#include "compiler/transforms/Passes.h.inc"
} // namespace mlir::tk

using namespace mlir;

namespace {

constexpr StringLiteral kFlattenAttr = "tk.flatten";

/// Whether `value` is usable before `loop`: defined above it, or a
/// constant (cloned there).
bool isAvailableBefore(Value value, scf::ForOp loop) {
  if (!loop->isAncestor(value.getParentRegion()->getParentOp()))
    return true;
  return matchPattern(value, m_Constant());
}

/// `value`, or a clone of its constant defining op before `loop`.
Value materializeBefore(OpBuilder &b, Value value, scf::ForOp loop) {
  if (!loop->isAncestor(value.getParentRegion()->getParentOp()))
    return value;
  return b.clone(*value.getDefiningOp())->getResult(0);
}

/// Whether a zero of `type` can be built (numbers, pointers, tensors of
/// them).
bool hasZero(Type type) {
  Type element = getElementTypeOrSelf(type);
  return isa<IntegerType, FloatType, tk::PtrType>(element);
}

/// A zero of `type` (hasZero): the never-read initial value of a carried
/// inner iter_arg.
Value createZero(OpBuilder &b, Location loc, Type type) {
  Type element = getElementTypeOrSelf(type);
  auto shaped = dyn_cast<RankedTensorType>(type);
  if (isa<tk::PtrType>(element)) {
    Type i64 = b.getI64Type();
    Type intType = shaped ? Type(shaped.clone(i64)) : i64;
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(intType));
    return tk::IntToPtrOp::create(b, loc, type, zero);
  }
  return arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
}

/// The trip count of [lb, ub) by a positive step, signed: 0 when ub <= lb.
Value createTripCount(OpBuilder &b, Location loc, Value lb, Value ub,
                      Value step) {
  // Folded as built, so that constant bounds give a constant count.
  Type type = lb.getType();
  Value one = arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, 1));
  Value zero = arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, 0));
  Value span = b.createOrFold<arith::SubIOp>(loc, ub, lb);
  Value rounded = b.createOrFold<arith::AddIOp>(
      loc, span, b.createOrFold<arith::SubIOp>(loc, step, one));
  Value count = b.createOrFold<arith::DivSIOp>(loc, rounded, step);
  Value empty =
      b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::sle, ub, lb);
  return b.createOrFold<arith::SelectOp>(loc, empty, zero, count);
}

/// The inner loop of a flattenable nest around it, or null.
scf::ForOp matchNest(scf::ForOp outer) {
  if (outer.getUnsignedCmp())
    return nullptr;
  scf::ForOp inner;
  for (Operation &op : outer.getBody()->without_terminator()) {
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      if (inner)
        return nullptr;
      inner = loop;
      continue;
    }
    // The prologue runs in every iteration of the flattened loop.
    if (!inner && (op.getNumRegions() != 0 || !isMemoryEffectFree(&op)))
      return nullptr;
  }
  if (!inner || inner.getUnsignedCmp() ||
      inner.getInductionVar().getType() != outer.getInductionVar().getType())
    return nullptr;
  for (Value bound :
       {inner.getLowerBound(), inner.getUpperBound(), inner.getStep()})
    if (!isAvailableBefore(bound, outer))
      return nullptr;
  for (Value init : inner.getInitArgs())
    if (!isAvailableBefore(init, outer) && !hasZero(init.getType()))
      return nullptr;
  return inner;
}

/// The attributes of the flattened loop: the outer loop's but tk.flatten,
/// overridden by the inner loop's.
void copyLoopAttrs(scf::ForOp outer, scf::ForOp inner, scf::ForOp flat) {
  for (NamedAttribute attr : outer->getDiscardableAttrs())
    if (attr.getName() != kFlattenAttr)
      flat->setAttr(attr.getName(), attr.getValue());
  for (NamedAttribute attr : inner->getDiscardableAttrs())
    flat->setAttr(attr.getName(), attr.getValue());
}

/// The flattened loop (see the banner), built at `b`; returns its outer
/// results.
SmallVector<Value> buildFlatLoop(OpBuilder &b, scf::ForOp outer,
                                 scf::ForOp inner, Value outerCount,
                                 Value innerCount) {
  Location loc = outer.getLoc();
  Type ivType = outer.getInductionVar().getType();
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(ivType, v));
  };
  Value total = arith::MulIOp::create(b, loc, outerCount, innerCount);
  Value lastInner = arith::SubIOp::create(b, loc, innerCount, constant(1));
  Value innerLb = materializeBefore(b, inner.getLowerBound(), outer);
  Value innerStep = materializeBefore(b, inner.getStep(), outer);

  unsigned numOuter = outer.getNumRegionIterArgs();
  SmallVector<Value> inits(outer.getInitArgs());
  for (Value init : inner.getInitArgs())
    inits.push_back(isAvailableBefore(init, outer)
                        ? materializeBefore(b, init, outer)
                        : createZero(b, loc, init.getType()));
  auto flat = scf::ForOp::create(b, loc, constant(0), total, constant(1),
                                 inits);
  copyLoopAttrs(outer, inner, flat);
  Block *body = flat.getBody();
  if (!body->empty())
    body->back().erase();
  b.setInsertionPointToStart(body);

  // Which tile and which K block.
  Value t = flat.getInductionVar();
  Value tile = arith::DivUIOp::create(b, loc, t, innerCount);
  Value step = arith::RemUIOp::create(b, loc, t, innerCount);
  Value outerIv = arith::AddIOp::create(
      b, loc, outer.getLowerBound(),
      arith::MulIOp::create(b, loc, tile, outer.getStep()));
  Value innerIv = arith::AddIOp::create(
      b, loc, innerLb, arith::MulIOp::create(b, loc, step, innerStep));

  IRMapping map;
  map.map(outer.getInductionVar(), outerIv);
  for (unsigned n = 0; n < numOuter; ++n)
    map.map(outer.getRegionIterArg(n), flat.getRegionIterArg(n));
  Block *outerBody = outer.getBody();
  auto innerPos = inner->getIterator();
  for (Operation &op : llvm::make_range(outerBody->begin(), innerPos))
    b.clone(op, map);

  // A tile's first K block starts from the inner loop's initial values.
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, step,
                                      constant(0));
  map.map(inner.getInductionVar(), innerIv);
  for (auto [n, init] : llvm::enumerate(inner.getInitArgs())) {
    Value carried = flat.getRegionIterArg(numOuter + n);
    map.map(inner.getRegionIterArg(n),
            arith::SelectOp::create(b, loc, first,
                                    map.lookupOrDefault(init), carried));
  }
  for (Operation &op : inner.getBody()->without_terminator())
    b.clone(op, map);
  SmallVector<Value> innerNext;
  for (Value v : inner.getBody()->getTerminator()->getOperands())
    innerNext.push_back(map.lookupOrDefault(v));

  // Its last one runs the epilogue.
  Value last = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, step,
                                     lastInner);
  for (auto [result, next] : llvm::zip_equal(inner.getResults(), innerNext))
    map.map(result, next);
  auto outerYield = cast<scf::YieldOp>(outerBody->getTerminator());
  auto epilogue = scf::IfOp::create(
      b, loc, outer.getResultTypes(), last,
      /*addThenBlock=*/true, /*addElseBlock=*/numOuter > 0);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(epilogue.thenBlock());
    for (Operation &op : llvm::make_range(std::next(innerPos),
                                          outerYield->getIterator()))
      b.clone(op, map);
    SmallVector<Value> yields;
    for (Value v : outerYield.getOperands())
      yields.push_back(map.lookupOrDefault(v));
    scf::YieldOp::create(b, loc, yields);
    if (numOuter > 0) {
      b.setInsertionPointToStart(epilogue.elseBlock());
      scf::YieldOp::create(b, loc,
                           flat.getRegionIterArgs().take_front(numOuter));
    }
  }
  SmallVector<Value> yields(epilogue.getResults());
  llvm::append_range(yields, innerNext);
  scf::YieldOp::create(b, loc, yields);
  return SmallVector<Value>(flat.getResults().take_front(numOuter));
}

/// The nest when the inner loop runs no iteration: its results are its
/// initial values.
SmallVector<Value> buildEmptyInnerLoop(OpBuilder &b, scf::ForOp outer,
                                       scf::ForOp inner) {
  IRMapping map;
  auto copy = cast<scf::ForOp>(b.clone(*outer, map));
  copy->removeAttr(kFlattenAttr);
  auto innerCopy = cast<scf::ForOp>(map.lookup(inner.getOperation()));
  innerCopy->replaceAllUsesWith(innerCopy.getInitArgs());
  innerCopy.erase();
  return SmallVector<Value>(copy.getResults());
}

void flattenNest(scf::ForOp outer, scf::ForOp inner) {
  Location loc = outer.getLoc();
  OpBuilder b(outer);
  Value outerCount = createTripCount(b, loc, outer.getLowerBound(),
                                     outer.getUpperBound(), outer.getStep());
  Value innerCount = createTripCount(
      b, loc, materializeBefore(b, inner.getLowerBound(), outer),
      materializeBefore(b, inner.getUpperBound(), outer),
      materializeBefore(b, inner.getStep(), outer));

  // A constant inner trip count needs no guard.
  SmallVector<Value> results;
  APInt count;
  if (matchPattern(innerCount, m_ConstantInt(&count))) {
    results = count.isStrictlyPositive()
                  ? buildFlatLoop(b, outer, inner, outerCount, innerCount)
                  : buildEmptyInnerLoop(b, outer, inner);
  } else {
    Value zero = arith::ConstantOp::create(
        b, loc, b.getIntegerAttr(innerCount.getType(), 0));
    Value nonEmpty = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt,
                                           innerCount, zero);
    auto guard = scf::IfOp::create(b, loc, outer.getResultTypes(), nonEmpty,
                                   /*addThenBlock=*/true,
                                   /*addElseBlock=*/true);
    for (bool nonEmptyBranch : {true, false}) {
      Block *block = nonEmptyBranch ? guard.thenBlock() : guard.elseBlock();
      if (!block->empty())
        block->back().erase();
      OpBuilder branch = OpBuilder::atBlockEnd(block);
      SmallVector<Value> values =
          nonEmptyBranch
              ? buildFlatLoop(branch, outer, inner, outerCount, innerCount)
              : buildEmptyInnerLoop(branch, outer, inner);
      branch.setInsertionPointToEnd(block);
      scf::YieldOp::create(branch, loc, values);
    }
    results = guard.getResults();
  }
  outer.replaceAllUsesWith(results);
  outer.erase();
}

struct TkFlattenLoopsPass
    : public tk::impl::TkFlattenLoopsBase<TkFlattenLoopsPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) {
      if (loop->hasAttr(kFlattenAttr))
        loops.push_back(loop);
    });
    // Post-order: a flattened inner nest is no longer a loop directly in
    // its outer loop, which is then left alone.
    for (scf::ForOp loop : loops) {
      loop->removeAttr(kFlattenAttr);
      if (scf::ForOp inner = matchNest(loop))
        flattenNest(loop, inner);
    }
  }
};

} // namespace
