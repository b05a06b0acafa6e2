//===- RemoveLayoutConversions.cpp - propagate layouts, drop converts -----===//
//
// After convert-tk-to-tkgpu and coalescing, memory ops (the anchors) sit in
// their chosen layouts behind convert_layout ops, and everything else is in
// default layouts. Three rewrites make the computation adopt the anchors'
// layouts instead:
//
// - Folding (ConvertLayoutOp::fold): convert(convert(x)) -> convert(x),
//   convert to the same type -> x, convert of a constant splat -> splat.
// - Backward rematerialization: for convert(x : A -> B), if x is computed
//   from cheap producers (constants, splat, make_range) and values that
//   already exist in the needed layout, through elementwise ops, broadcast
//   and expand_dims, compute it directly in B (clones are placed next to
//   the originals, so nothing moves into loops). Small loads (vectors of
//   no more elements than the program has threads) count as cheap: they
//   are loaded again in B, which is cheaper than a conversion through
//   scratch.
// - Forward sinking: an elementwise op, reduction, broadcast or expand_dims
//   whose operand is convert(x : A -> B) runs in A instead (its other
//   operands rematerialized in A, or, if they are conversions too,
//   converted from their sources to A), and the conversion moves after it;
//   repeated, conversions travel down to a user in B where they cancel
//   (typically the store, whose pointer and mask were rematerialized in B).
//   An operand that reaches the op through a broadcast from a smaller
//   conversion (attention's backward: the row statistics M and delta,
//   loaded in each iteration, against the scores in the dot's layout) is
//   converted from that conversion's source instead: the conversion of a
//   vector replaces the conversion of the whole tile.
// - A local_alloc of convert(x) (x distributed, the conversion used only
//   there) stores x: the store moves any distributed layout into the
//   shared layout, so the conversion's scratch round trip is not needed
//   (a dot operand computed in registers, the backward's P^T and dS^T).
//   A tk.trans of convert(x : A -> B) with A blocked runs in A permuted
//   (sizePerThread, threadsPerWarp, warpsPerCTA and order follow the
//   dimensions), where it only renames registers: attention's backward
//   transposes loaded tiles (dO^T, Q^T) on their way into a dot, and the
//   conversion then lands on the dot operand's shared-memory store.
//
// - Loop-carried values of a dot's layout: an scf.for iter_arg whose next
//   value is computed (through rematerializable ops) from data the body
//   converts out of the layout L of a dot result in the loop (tk.dot, or
//   warp_group_dot on Hopper), or of a
//   slice of L (a row reduction of it), is carried in L (the init converted
//   before the loop, the result after it). Attention's m_i, l_i (slices)
//   and acc (the P @ V accumulator, rescaled each iteration) then live in
//   the #mma registers that the dot and the reductions of its result
//   produce, and sinking removes the body's conversions.
// - Results of an scf.if in such a loop: a result that one branch computes
//   from a conversion out of a dot layout L (or a slice of it) is returned
//   in L, the other branch's value converted to L inside that branch
//   (where the rewrites above remove the conversion). A rescale done only
//   when a condition holds (`if ...: acc = acc * alpha[:, None]`) then
//   keeps acc in the dot's registers on both paths.
//
// The phases run one after the other (rematerialize, sink, rematerialize)
// so that the two directions never undo each other's work.
//
//===----------------------------------------------------------------------===//
#include "compiler/transforms/gpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::tkgpu {
#define GEN_PASS_DEF_TKGPUREMOVELAYOUTCONVERSIONS
#include "compiler/transforms/gpu/Passes.h.inc"
} // namespace mlir::tkgpu

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

/// Ops computing each element from the same-index elements of their
/// operands, so any layout works as long as all tensors share it.
bool isElementwise(Operation *op) {
  if (op->getNumResults() != 1 || op->getNumRegions() != 0)
    return false;
  return op->hasTrait<OpTrait::Elementwise>() ||
         isa<tk::AddPtrOp, tk::BitcastOp, tk::IntToPtrOp, tk::PtrToIntOp,
             tk::HintOp>(op);
}

/// Ops with no tensor inputs whose result is cheap to build in any layout.
bool isCheapProducer(Operation *op) {
  if (isa<tk::SplatOp, tk::MakeRangeOp>(op))
    return true;
  if (auto constant = dyn_cast<arith::ConstantOp>(op))
    return isa<SplatElementsAttr>(constant.getValue());
  return false;
}

/// A load of a vector (rank 1) of at most one element per thread of the
/// program: loading it again in another layout (its pointers rebuilt
/// there, the clone right after it, so it reads the same memory) costs a
/// few more requests to the same lines, while converting it goes through
/// scratch memory and a CTA barrier. Attention's backward loads the row statistics M and delta
/// of each block of queries in the loop and reads them in the layout of
/// the dot result (a slice of it): they are then loaded in that layout.
bool isSmallLoad(Operation *op) {
  auto load = dyn_cast<tk::LoadOp>(op);
  if (!load)
    return false;
  auto type = dyn_cast<RankedTensorType>(load.getType());
  unsigned threads = getNumWarps(op) * 32;
  return type && type.getRank() == 1 && threads > 0 &&
         type.getNumElements() <= threads;
}

Attribute encodingOf(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  return type ? type.getEncoding() : Attribute();
}

/// Rebuilds values in another layout.
class Rematerializer {
public:
  /// Largest number of ops cloned for one value.
  static constexpr unsigned kBudget = 64;

  /// `reconvertBelow` > 0: a conversion of fewer elements whose source
  /// cannot be rebuilt is rebuilt as a conversion from that source (one
  /// small conversion for another).
  explicit Rematerializer(int64_t reconvertBelow = 0)
      : reconvertBelow(reconvertBelow) {}

  /// Treat `value` as available in `layout` (it is about to be retyped).
  void assumeAvailable(Value value, Attribute layout) {
    assumed.insert({value, layout});
  }

  /// Whether `value` can be produced in `layout` without any conversion.
  bool canRematerialize(Value value, Attribute layout) {
    unsigned budget = kBudget;
    llvm::DenseSet<std::pair<Value, Attribute>> visited;
    return canRematerialize(value, layout, budget, visited);
  }

  /// `value` in `layout` (canRematerialize must hold). Clones go right
  /// after the op they copy.
  Value rematerialize(Value value, Attribute layout, RewriterBase &rewriter) {
    if (encodingOf(value) == layout)
      return value;
    auto key = std::make_pair(value, layout);
    if (Value done = cache.lookup(key))
      return done;
    Operation *def = value.getDefiningOp();
    Value result;
    if (auto convert = dyn_cast<ConvertLayoutOp>(def);
        convert && reconverted.contains(key)) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointAfter(def);
      result = ConvertLayoutOp::create(rewriter, def->getLoc(),
                                       withEncoding(value.getType(), layout),
                                       convert.getSrc());
    } else if (convert) {
      result = rematerialize(convert.getSrc(), layout, rewriter);
    } else {
      IRMapping mapping;
      for (auto [index, operand] : llvm::enumerate(def->getOperands()))
        if (Attribute needed = operandLayout(def, index, layout))
          mapping.map(operand, rematerialize(operand, needed, rewriter));
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointAfter(def);
      Operation *clone = rewriter.clone(*def, mapping);
      retype(clone, layout);
      result = clone->getResult(0);
    }
    cache[key] = result;
    return result;
  }

  /// The layout `op`'s tensor operand `index` needs when its result is in
  /// `resultLayout`; null for scalar operands.
  static Attribute operandLayout(Operation *op, unsigned index,
                                 Attribute resultLayout) {
    Value operand = op->getOperand(index);
    if (!isa<RankedTensorType>(operand.getType()))
      return {};
    if (auto expand = dyn_cast<tk::ExpandDimsOp>(op))
      return SliceEncodingAttr::get(
          expand.getAxis(), cast<LayoutEncodingAttrInterface>(resultLayout));
    return resultLayout;
  }

  /// Gives `op`'s tensor result (and a constant's value) `layout`.
  static void retype(Operation *op, Attribute layout) {
    for (OpResult result : op->getResults())
      if (auto type = dyn_cast<RankedTensorType>(result.getType()))
        result.setType(withEncoding(type, layout));
    if (auto constant = dyn_cast<arith::ConstantOp>(op))
      if (auto splat = dyn_cast<SplatElementsAttr>(constant.getValue()))
        constant.setValueAttr(SplatElementsAttr::get(
            cast<ShapedType>(constant.getType()),
            splat.getSplatValue<Attribute>()));
  }

private:
  bool canRematerialize(Value value, Attribute layout, unsigned &budget,
                        llvm::DenseSet<std::pair<Value, Attribute>> &visited) {
    if (encodingOf(value) == layout || assumed.contains({value, layout}))
      return true;
    if (!visited.insert({value, layout}).second)
      return true;
    Operation *def = value.getDefiningOp();
    if (!def || budget == 0)
      return false;
    --budget;
    if (auto convert = dyn_cast<ConvertLayoutOp>(def)) {
      if (canRematerialize(convert.getSrc(), layout, budget, visited))
        return true;
      if (convert.getType().getNumElements() >= reconvertBelow ||
          !cast<LayoutEncodingAttrInterface>(layout).isDistributed())
        return false;
      reconverted.insert({value, layout});
      return true;
    }
    if (isCheapProducer(def))
      return true;
    // Expand_dims needs the result layout's slice, which only distributed
    // layouts have.
    if (isa<tk::ExpandDimsOp>(def) &&
        !cast<LayoutEncodingAttrInterface>(layout).isDistributed())
      return false;
    // A small load is rebuilt like an elementwise op: its pointers (and
    // mask, other) in the same layout.
    if (!isElementwise(def) && !isSmallLoad(def) &&
        !isa<tk::BroadcastOp, tk::ExpandDimsOp>(def))
      return false;
    for (unsigned i = 0; i < def->getNumOperands(); ++i)
      if (Attribute needed = operandLayout(def, i, layout))
        if (!canRematerialize(def->getOperand(i), needed, budget, visited))
          return false;
    return true;
  }

  int64_t reconvertBelow;
  llvm::DenseMap<std::pair<Value, Attribute>, Value> cache;
  llvm::DenseSet<std::pair<Value, Attribute>> assumed;
  /// Conversions to rebuild as conversions from their sources.
  llvm::DenseSet<std::pair<Value, Attribute>> reconverted;
};

/// convert(x : A -> B) where x can be computed in B directly.
struct RematerializeConvertSource : public OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConvertLayoutOp convert,
                                PatternRewriter &rewriter) const override {
    Attribute target = convert.getType().getEncoding();
    Operation *def = convert.getSrc().getDefiningOp();
    // Conversions of memory results are the anchors' business (sinking).
    if (!def || isa<ConvertLayoutOp>(def))
      return failure();
    Rematerializer remat;
    if (!remat.canRematerialize(convert.getSrc(), target))
      return failure();
    rewriter.replaceOp(convert, remat.rematerialize(convert.getSrc(), target,
                                                    rewriter));
    return success();
  }
};

/// user(convert(x : A -> B), ...) -> convert(user'(x, ...) : A' -> B').
struct SinkConvertIntoUser : public RewritePattern {
  SinkConvertIntoUser(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    bool isReduce = isa<tk::ReduceOp>(op);
    auto trans = dyn_cast<tk::TransOp>(op);
    if (!isElementwise(op) && !isReduce && !trans &&
        !isa<tk::BroadcastOp, tk::ExpandDimsOp>(op))
      return failure();
    // The layout the converted operand had before conversion.
    ConvertLayoutOp convert;
    for (Value operand : op->getOperands())
      if (auto def = operand.getDefiningOp<ConvertLayoutOp>()) {
        convert = def;
        break;
      }
    if (!convert)
      return failure();
    Attribute sourceLayout = convert.getSrc().getType().getEncoding();
    // The op's result layout when its operands are in sourceLayout.
    Attribute resultLayout = sourceLayout;
    if (auto expand = dyn_cast<tk::ExpandDimsOp>(op)) {
      auto slice = dyn_cast<SliceEncodingAttr>(sourceLayout);
      if (!slice || slice.getDim() != expand.getAxis())
        return failure();
      resultLayout = slice.getParent();
    } else if (auto reduce = dyn_cast<tk::ReduceOp>(op)) {
      resultLayout = SliceEncodingAttr::get(
          reduce.getAxis(), cast<LayoutEncodingAttrInterface>(sourceLayout));
    } else if (trans) {
      auto blocked = dyn_cast<BlockedEncodingAttr>(sourceLayout);
      if (!blocked)
        return failure();
      resultLayout = permuteLayout(blocked, trans.getOrder());
    }
    // Every other tensor operand must be rebuilt in the new layout or be a
    // conversion itself (which then converts from its source to the new
    // layout instead: still one conversion), or be broadcast from a smaller
    // conversion (converted from its source: a smaller one). Anything else
    // would add one.
    auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    Rematerializer remat(resultType && !isReduce ? resultType.getNumElements()
                                                 : 0);
    SmallVector<Attribute> needed;
    for (unsigned i = 0; i < op->getNumOperands(); ++i) {
      needed.push_back(isReduce || trans
                           ? sourceLayout
                           : Rematerializer::operandLayout(op, i,
                                                           resultLayout));
      Value operand = op->getOperand(i);
      if (needed.back() && !operand.getDefiningOp<ConvertLayoutOp>() &&
          !remat.canRematerialize(operand, needed.back()))
        return failure();
    }

    IRMapping mapping;
    rewriter.setInsertionPoint(op);
    for (unsigned i = 0; i < op->getNumOperands(); ++i) {
      Value operand = op->getOperand(i);
      if (!needed[i] || mapping.contains(operand))
        continue;
      if (remat.canRematerialize(operand, needed[i])) {
        mapping.map(operand, remat.rematerialize(operand, needed[i], rewriter));
        continue;
      }
      auto reconvert = operand.getDefiningOp<ConvertLayoutOp>();
      mapping.map(operand,
                  ConvertLayoutOp::create(
                      rewriter, op->getLoc(),
                      withEncoding(operand.getType(), needed[i]),
                      reconvert.getSrc()));
    }
    rewriter.setInsertionPoint(op);
    Operation *moved = rewriter.clone(*op, mapping);
    SmallVector<Value> replacements;
    for (auto [oldResult, newResult] :
         llvm::zip(op->getResults(), moved->getResults())) {
      auto type = dyn_cast<RankedTensorType>(oldResult.getType());
      if (!type) {
        replacements.push_back(newResult); // a scalar reduction
        continue;
      }
      newResult.setType(withEncoding(type, resultLayout));
      replacements.push_back(
          ConvertLayoutOp::create(rewriter, op->getLoc(), type, newResult));
    }
    rewriter.replaceOp(op, replacements);
    return success();
  }
};

/// local_alloc(convert(x)) -> local_alloc(x) (see the banner).
struct StoreConvertSourceInLocalAlloc : public OpRewritePattern<LocalAllocOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(LocalAllocOp alloc,
                                PatternRewriter &rewriter) const override {
    Value src = alloc.getSrc();
    auto convert = src ? src.getDefiningOp<ConvertLayoutOp>() : nullptr;
    if (!convert || !convert->hasOneUse())
      return failure();
    auto layout = dyn_cast_or_null<LayoutEncodingAttrInterface>(
        convert.getSrc().getType().getEncoding());
    if (!layout || !layout.isDistributed())
      return failure();
    rewriter.modifyOpInPlace(
        alloc, [&] { alloc.getSrcMutable().assign(convert.getSrc()); });
    rewriter.eraseOp(convert);
    return success();
  }
};

/// A loop-carried tensor that the body converts to layout L, and whose next
/// value can be computed in L from itself in L (e.g. pointers advanced by a
/// splat each iteration), is carried in L instead: the per-iteration
/// conversion disappears; conversions remain only at the loop's entry and
/// exit, and for body uses that need the old layout.
struct CarryLoopValueInUserLayout : public OpRewritePattern<scf::ForOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(scf::ForOp loop,
                                PatternRewriter &rewriter) const override {
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (auto [index, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
      auto type = dyn_cast<RankedTensorType>(arg.getType());
      if (!type || !type.getEncoding())
        continue;
      // Only a memory op's layout (chosen by coalescing) is worth carrying:
      // this also keeps the rewrite from undoing itself through the
      // conversion it leaves for the body's other uses.
      Attribute target;
      for (Operation *user : arg.getUsers())
        if (auto convert = dyn_cast<ConvertLayoutOp>(user))
          if (llvm::any_of(convert->getUsers(), [](Operation *op) {
                return isa<tk::LoadOp, tk::StoreOp, tk::AtomicRMWOp,
                           tk::AtomicCASOp>(op);
              })) {
            target = convert.getType().getEncoding();
            break;
          }
      if (!target)
        continue;
      Value next = yield.getOperand(index);
      Rematerializer remat;
      remat.assumeAvailable(arg, target);
      if (!remat.canRematerialize(next, target))
        continue;
      rewriteCarriedValue(loop, index, type, target, rewriter);
      return success();
    }
    return failure();
  }

  static void rewriteCarriedValue(scf::ForOp loop, unsigned index,
                                  RankedTensorType oldType, Attribute target,
                                  PatternRewriter &rewriter) {
    RankedTensorType newType = withEncoding(oldType, target);
    BlockArgument arg = loop.getRegionIterArgs()[index];
    Value result = loop.getResult(index);
    OpOperand &init = loop.getInitsMutable()[index];
    Location loc = loop.getLoc();
    rewriter.modifyOpInPlace(loop, [&] {
      rewriter.setInsertionPoint(loop);
      init.set(ConvertLayoutOp::create(rewriter, loc, newType, init.get()));
      arg.setType(newType);
      result.setType(newType);
    });
    // Body uses see the old layout through one conversion (folded away
    // where they convert to `target` anyway).
    rewriter.setInsertionPointToStart(loop.getBody());
    auto oldView = ConvertLayoutOp::create(rewriter, loc, oldType, arg);
    rewriter.replaceAllUsesExcept(arg, oldView, oldView);
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    Rematerializer remat;
    Value next =
        remat.rematerialize(yield.getOperand(index), target, rewriter);
    rewriter.modifyOpInPlace(yield, [&] { yield.setOperand(index, next); });
    // Users after the loop keep the old layout.
    rewriter.setInsertionPointAfter(loop);
    auto exitView = ConvertLayoutOp::create(rewriter, loc, oldType, result);
    rewriter.replaceAllUsesExcept(result, exitView, exitView);
  }
};

/// See the banner: carry an iter_arg in the layout of a dot in the loop
/// (or a slice of it) when its next value is derived from data in that
/// layout.
struct CarryLoopValueInDotLayout : public OpRewritePattern<scf::ForOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(scf::ForOp loop,
                                PatternRewriter &rewriter) const override {
    SmallVector<Attribute> candidates = dotLayouts(loop);
    if (candidates.empty())
      return failure();
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (auto [index, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
      auto type = dyn_cast<RankedTensorType>(arg.getType());
      if (!type || !type.getEncoding() ||
          llvm::is_contained(candidates, type.getEncoding()))
        continue;
      Value next = yield.getOperand(index);
      for (Attribute target : candidates) {
        if (cast<LayoutEncodingAttrInterface>(target).getRank() !=
                type.getRank() ||
            !derivesFrom(next, target, loop))
          continue;
        Rematerializer remat;
        remat.assumeAvailable(arg, target);
        if (!remat.canRematerialize(next, target))
          continue;
        CarryLoopValueInUserLayout::rewriteCarriedValue(loop, index, type,
                                                        target, rewriter);
        return success();
      }
    }
    return failure();
  }

  /// The result layouts of the dots (mma.sync tk.dots and wgmma
  /// warp_group_dots) directly in `loop`'s body and their slices.
  static SmallVector<Attribute> dotLayouts(scf::ForOp loop) {
    SmallVector<Attribute> layouts;
    for (Operation &op : loop.getBody()->getOperations()) {
      if (!isa<tk::DotOp, WarpGroupDotOp>(op))
        continue;
      auto layout = dyn_cast_or_null<LayoutEncodingAttrInterface>(
          cast<RankedTensorType>(op.getResult(0).getType()).getEncoding());
      if (!layout || !layout.isDistributed() ||
          llvm::is_contained(layouts, layout))
        continue;
      layouts.push_back(layout);
      for (unsigned dim = 0; dim < layout.getRank(); ++dim)
        layouts.push_back(SliceEncodingAttr::get(dim, layout));
    }
    return layouts;
  }

  /// Whether `value` is computed in `loop`'s body from a conversion out of
  /// `layout` (or from a value in `layout`), looking back through the body's
  /// ops: a value built only from the iter_arg and cheap producers (pointer
  /// increments) has no reason to change layout.
  static bool derivesFrom(Value value, Attribute layout, scf::ForOp loop) {
    SmallVector<Value> work{value};
    llvm::DenseSet<Value> seen;
    while (!work.empty()) {
      Value v = work.pop_back_val();
      if (!seen.insert(v).second || seen.size() > Rematerializer::kBudget)
        continue;
      Operation *def = v.getDefiningOp();
      if (!def || def->getBlock() != loop.getBody())
        continue;
      if (encodingOf(v) == layout)
        return true;
      if (auto convert = dyn_cast<ConvertLayoutOp>(def)) {
        if (convert.getSrc().getType().getEncoding() == layout)
          return true;
      }
      llvm::append_range(work, def->getOperands());
    }
    return false;
  }
};

/// See the banner: an scf.if result in a loop that a branch computes from
/// a conversion out of a layout of one of the loop's dots (or a slice of
/// it) is returned in that layout, when the other branch's value comes from
/// it too or is an iter_arg (attention's l_i and acc when not rescaled) or
/// cheap to rebuild there. That value is converted inside its branch, where
/// sinking and the loop carry remove the conversion, and users after the if
/// see the old layout through one conversion.
/// Only dot layouts are targets, and a result already in one is left
/// alone, so the rewrite cannot undo itself.
struct ReturnIfResultInDotLayout : public OpRewritePattern<scf::IfOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(scf::IfOp ifOp,
                                PatternRewriter &rewriter) const override {
    auto loop = ifOp->getParentOfType<scf::ForOp>();
    if (!loop || ifOp.getNumResults() == 0 || !ifOp.elseBlock())
      return failure();
    SmallVector<Attribute> candidates =
        CarryLoopValueInDotLayout::dotLayouts(loop);
    scf::YieldOp yields[2] = {ifOp.thenYield(), ifOp.elseYield()};
    for (OpResult result : ifOp->getResults()) {
      auto type = dyn_cast<RankedTensorType>(result.getType());
      if (!type || !type.getEncoding() ||
          llvm::is_contained(candidates, type.getEncoding()))
        continue;
      unsigned index = result.getResultNumber();
      Attribute nearest[2];
      for (auto [yield, layout] : llvm::zip_equal(yields, nearest))
        layout = nearestDotLayout(yield.getOperand(index), type.getRank(),
                                  candidates, loop);
      Attribute target = nearest[0] ? nearest[0] : nearest[1];
      // Each branch's value must come from `target` too, or be one the
      // loop can carry there (an iter_arg) or rebuild there: otherwise a
      // conversion would only move into the other branch.
      auto reachable = [&](Value value, Attribute layout) {
        auto arg = dyn_cast<BlockArgument>(value);
        if (arg && arg.getOwner() == loop.getBody())
          return true;
        return layout == target ||
               Rematerializer().canRematerialize(value, target);
      };
      if (!target ||
          !llvm::all_of(llvm::zip_equal(yields, nearest), [&](auto pair) {
            auto [yield, layout] = pair;
            return reachable(yield.getOperand(index), layout);
          }))
        continue;
      RankedTensorType newType = withEncoding(type, target);
      for (scf::YieldOp yield : yields) {
        rewriter.setInsertionPoint(yield);
        Value value = yield.getOperand(index);
        auto converted = ConvertLayoutOp::create(rewriter, yield.getLoc(),
                                                 newType, value);
        rewriter.modifyOpInPlace(
            yield, [&] { yield.setOperand(index, converted); });
      }
      rewriter.modifyOpInPlace(ifOp, [&] { result.setType(newType); });
      rewriter.setInsertionPointAfter(ifOp);
      auto view =
          ConvertLayoutOp::create(rewriter, ifOp.getLoc(), type, result);
      rewriter.replaceAllUsesExcept(result, view, view);
      return success();
    }
    return failure();
  }

  /// The layout among `candidates` (of rank `rank`) that `value` is
  /// computed from most directly inside `loop`: a breadth-first walk back
  /// through its operands stops at the first value in such a layout or
  /// converted out of one. Nearest first, since a row vector (l_i) also
  /// depends, further back, on column vectors of the same rank (the
  /// masked loop's key offsets) in the other slice of the dot's layout.
  static Attribute nearestDotLayout(Value value, int64_t rank,
                                    ArrayRef<Attribute> candidates,
                                    scf::ForOp loop) {
    auto isTarget = [&](Attribute layout) {
      auto typed = dyn_cast_or_null<LayoutEncodingAttrInterface>(layout);
      return typed && typed.getRank() == rank &&
             llvm::is_contained(candidates, layout);
    };
    SmallVector<Value> queue{value};
    llvm::DenseSet<Value> seen{value};
    for (size_t next = 0;
         next < queue.size() && next < Rematerializer::kBudget; ++next) {
      Value v = queue[next];
      Operation *def = v.getDefiningOp();
      if (!def || !loop->isProperAncestor(def))
        continue;
      if (isTarget(encodingOf(v)))
        return encodingOf(v);
      if (auto convert = dyn_cast<ConvertLayoutOp>(def))
        if (isTarget(convert.getSrc().getType().getEncoding()))
          return convert.getSrc().getType().getEncoding();
      for (Value operand : def->getOperands())
        if (seen.insert(operand).second)
          queue.push_back(operand);
    }
    return {};
  }
};

struct RemoveLayoutConversionsPass
    : public tkgpu::impl::TkgpuRemoveLayoutConversionsBase<
          RemoveLayoutConversionsPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet rematerialize(ctx);
    rematerialize.add<RematerializeConvertSource>(ctx);
    FrozenRewritePatternSet rematerializePatterns(std::move(rematerialize));

    RewritePatternSet sink(ctx);
    sink.add<SinkConvertIntoUser, CarryLoopValueInUserLayout,
             CarryLoopValueInDotLayout, ReturnIfResultInDotLayout,
             StoreConvertSourceInLocalAlloc>(ctx);
    FrozenRewritePatternSet sinkPatterns(std::move(sink));

    GreedyRewriteConfig config;
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    // Not converging within the iteration limit leaves correct IR with some
    // conversions in place, so it is not an error.
    for (const FrozenRewritePatternSet *patterns :
         {&rematerializePatterns, &sinkPatterns, &rematerializePatterns})
      (void)applyPatternsGreedily(getOperation(), *patterns, config);
  }
};

} // namespace
