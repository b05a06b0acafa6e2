//===- DeferRowSums.cpp - tkgpu-defer-row-sums ----------------------------===//
//
// The online softmax keeps a running row sum across its key loop:
//
//   l = l * alpha + sum(p, 1)          (p: the block's probabilities)
//
// Reducing a row of an mma accumulator takes two steps: the registers a
// thread holds of the row (16 of them for a 64-column wgmma tile), then
// the four lanes that share the row, with two shuffles and two adds. Only
// the loop's result needs the second step: the recurrence is linear, so
// each lane may carry its own part of l and the lanes meet once, after
// the loop (FlashAttention-3 does this by hand). This pass makes that
// rewrite, for an scf.for iter_arg `l` whose only use is
// `l * alpha + sum(p, 1)`, yielded back (either operand order), with `p`
// an f32 tensor in an mma layout (version 2 or 3, warps along the rows
// only) of N columns, N a multiple of 8 and at least 16:
//
//   - the loop carries `lp`, M x 8 in the same mma layout with 8-column
//     instructions (#mma8): each thread keeps its two columns of each of
//     its rows, the other lanes of the row the rest;
//   - in the body, p's N / 8 column blocks (extract_slice, a pick of
//     registers) are added into one M x 8 block f, and
//     `lp * alpha[:, None] + f` is yielded;
//   - after the loop, `sum(lp, 1)` (the in-thread pair, then the lanes)
//     replaces the loop's result;
//   - the loop starts from l0 / 8 in each of the 8 columns (l0 itself
//     when it is a constant zero): the eight copies sum back to l0
//     exactly, as scaling by a power of two is exact.
// Per row, a thread then does 14 adds and 2 multiply-adds in each
// iteration, where it did 15 adds, two shuffles, two more adds and a
// multiply-add: at HEAD_DIM 64 (four rows a thread) the loop goes from
// 463 to 449 SASS instructions, 2 to 4% faster (docs/pipeline.md).
//
// The rows' slice layout of #mma and of #mma8 is the same linear layout
// (the pass checks): alpha reaches the partial sums by a broadcast and a
// register pick, and the convert_layout ops before and after the loop
// move no data. The partial sums take the iter_arg's place, so the
// loop's other iter_args keep their positions. Loops that carry a dot
// computed afresh (attention's AHEAD order) are left alone
// (carriesFreshDot).
//
//===----------------------------------------------------------------------===//
#include "compiler/transforms/gpu/Passes.h"

#include "dialects/tk/TkDialect.h"
#include "dialects/tkgpu/TkgpuDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"

namespace mlir::tkgpu {
#define GEN_PASS_DEF_TKGPUDEFERROWSUMS
#include "compiler/transforms/gpu/Passes.h.inc"
} // namespace mlir::tkgpu

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

constexpr int64_t kPartialColumns = 8;

/// One running row sum the pass rewrites.
struct RowSum {
  unsigned index;       // of the iter_arg
  arith::MulFOp scale;  // l * alpha
  Value alpha;          // the row factor
  tk::ReduceOp reduce;  // sum(p, 1)
  arith::AddFOp update; // the yielded value
};

/// The mma layout `mma` with instructions of 8 columns.
MmaEncodingAttr getNarrowMma(MmaEncodingAttr mma) {
  SmallVector<unsigned> shape(mma.getInstrShape());
  shape[1] = kPartialColumns;
  return MmaEncodingAttr::get(mma.getContext(), mma.getVersionMajor(),
                              mma.getWarpsPerCTA(), shape);
}

RankedTensorType getRowsType(int64_t rows, MmaEncodingAttr mma) {
  return RankedTensorType::get(
      {rows}, Float32Type::get(mma.getContext()),
      SliceEncodingAttr::get(1, cast<LayoutEncodingAttrInterface>(
                                    static_cast<Attribute>(mma))));
}

/// Whether `loop` carries the result of a dot computed afresh in each
/// iteration (its accumulator a constant) to the next one: attention's
/// AHEAD order, S of the next block in flight across the back edge. Those
/// loops are at the edge of their registers, and the partial sums pushed
/// them over (144 more bytes of spills and 13% slower at HEAD_DIM 64,
/// BLOCK_N 128, twenty-third session), so the pass leaves them alone.
bool carriesFreshDot(scf::ForOp loop) {
  for (Value yielded : loop.getBody()->getTerminator()->getOperands()) {
    Operation *def = yielded.getDefiningOp();
    Value acc;
    if (auto dot = dyn_cast_or_null<WarpGroupDotOp>(def))
      acc = dot.getC();
    else if (auto dot = dyn_cast_or_null<tk::DotOp>(def))
      acc = dot.getC();
    if (acc && acc.getDefiningOp() &&
        acc.getDefiningOp()->hasTrait<OpTrait::ConstantLike>())
      return true;
  }
  return false;
}

/// The row sum carried in iter_arg `index` of `loop`, if the pass can
/// defer it.
std::optional<RowSum> matchRowSum(scf::ForOp loop, unsigned index) {
  Value l = loop.getRegionIterArg(index);
  auto type = dyn_cast<RankedTensorType>(l.getType());
  if (!type || type.getRank() != 1 || !type.getElementType().isF32() ||
      !l.hasOneUse())
    return std::nullopt;
  auto slice = dyn_cast_or_null<SliceEncodingAttr>(type.getEncoding());
  auto mma = slice ? dyn_cast<MmaEncodingAttr>(
                         static_cast<Attribute>(slice.getParent()))
                   : MmaEncodingAttr();
  if (!mma || slice.getDim() != 1 || mma.getWarpsPerCTA()[1] != 1)
    return std::nullopt;
  RowSum sum;
  sum.index = index;
  // All of it at the body's top level, so that the new ops, placed at
  // the update, see alpha and p.
  sum.scale = dyn_cast<arith::MulFOp>(*l.user_begin());
  if (!sum.scale || !sum.scale->hasOneUse() ||
      sum.scale->getBlock() != loop.getBody())
    return std::nullopt;
  sum.alpha = sum.scale.getLhs() == l ? sum.scale.getRhs() : sum.scale.getLhs();
  sum.update = dyn_cast<arith::AddFOp>(*sum.scale->user_begin());
  if (!sum.update || sum.update->getBlock() != loop.getBody() ||
      loop.getBody()->getTerminator()->getOperand(index) != sum.update)
    return std::nullopt;
  Value reduced = sum.update.getLhs() == sum.scale.getResult()
                      ? sum.update.getRhs()
                      : sum.update.getLhs();
  sum.reduce = reduced.getDefiningOp<tk::ReduceOp>();
  if (!sum.reduce || !reduced.hasOneUse() ||
      sum.reduce->getBlock() != loop.getBody() ||
      sum.reduce.getKind() != tk::ReduceKind::Sum ||
      sum.reduce.getSrcs().size() != 1 || sum.reduce.getAxis() != 1)
    return std::nullopt;
  auto srcType = cast<RankedTensorType>(sum.reduce.getSrcs()[0].getType());
  int64_t columns = srcType.getShape()[1];
  if (srcType.getEncoding() != static_cast<Attribute>(mma) ||
      columns % kPartialColumns != 0 || columns < 2 * kPartialColumns)
    return std::nullopt;
  // The rows of #mma and #mma8 must sit in the same registers and lanes,
  // so that moving between them is free.
  int64_t rows = type.getShape()[0];
  if (toLinearLayout(getRowsType(rows, getNarrowMma(mma))) !=
      toLinearLayout(type))
    return std::nullopt;
  return sum;
}

/// `rows` (M, slice of #mma) as M x 8 in #mma8: broadcast over p's
/// columns (`wideType`), then its first 8-column block picked (each
/// thread's copies of its rows; no data moves, and no convert_layout in
/// the loop).
Value rowsToPartial(OpBuilder &b, Location loc, Value rows,
                    RankedTensorType wideType, RankedTensorType partialType) {
  int64_t m = wideType.getShape()[0];
  auto column = RankedTensorType::get({m, 1}, wideType.getElementType(),
                                      wideType.getEncoding());
  Value expanded = tk::ExpandDimsOp::create(b, loc, column, rows, 1);
  Value wide = tk::BroadcastOp::create(b, loc, wideType, expanded);
  return ExtractSliceOp::create(b, loc, partialType, wide,
                                ArrayRef<int64_t>{0, 0});
}

/// The iter_arg's start as partial sums: l0 / 8 in each column (zeros
/// for a constant zero).
Value getPartialInit(OpBuilder &b, Location loc, Value init,
                     RankedTensorType wideType, RankedTensorType partialType) {
  if (matchPattern(init, m_AnyZeroFloat()))
    return arith::ConstantOp::create(
        b, loc, partialType,
        DenseElementsAttr::get(partialType, b.getF32FloatAttr(0.0f)));
  auto rowsType = cast<RankedTensorType>(init.getType());
  Value eighth = arith::ConstantOp::create(
      b, loc, rowsType,
      DenseElementsAttr::get(rowsType,
                             b.getF32FloatAttr(1.0f / kPartialColumns)));
  Value scaled = arith::MulFOp::create(b, loc, init, eighth);
  return rowsToPartial(b, loc, scaled, wideType, partialType);
}

/// p's column blocks of 8 added into one M x 8 block, in order: eight
/// independent chains per thread (one per register of the block), with
/// one running block live rather than a tree's level of them.
Value foldColumns(OpBuilder &b, Location loc, Value p,
                  RankedTensorType partialType) {
  int64_t columns = cast<RankedTensorType>(p.getType()).getShape()[1];
  auto block = [&](int64_t c) -> Value {
    return ExtractSliceOp::create(b, loc, partialType, p,
                                  ArrayRef<int64_t>{0, c});
  };
  Value folded = block(0);
  for (int64_t c = kPartialColumns; c < columns; c += kPartialColumns)
    folded = arith::AddFOp::create(b, loc, folded, block(c));
  return folded;
}

/// Rewrites `sum` of `loop` in place: iter_arg `sum.index` (and the
/// loop's result of that index) carries the partial sums; the other
/// iter_args stay as they are.
void deferRowSum(scf::ForOp loop, RowSum sum) {
  Location loc = sum.update.getLoc();
  BlockArgument arg = loop.getRegionIterArg(sum.index);
  auto rowsType = cast<RankedTensorType>(arg.getType());
  auto mma = cast<MmaEncodingAttr>(static_cast<Attribute>(
      cast<SliceEncodingAttr>(rowsType.getEncoding()).getParent()));
  MmaEncodingAttr narrow = getNarrowMma(mma);
  int64_t rows = rowsType.getShape()[0];
  auto partialType = RankedTensorType::get(
      {rows, kPartialColumns}, rowsType.getElementType(), narrow);
  RankedTensorType narrowRows = getRowsType(rows, narrow);
  auto wideType = cast<RankedTensorType>(sum.reduce.getSrcs()[0].getType());

  OpBuilder b(loop);
  OpOperand &init = loop.getInitsMutable()[sum.index];
  init.set(getPartialInit(b, loop.getLoc(), init.get(), wideType,
                          partialType));
  arg.setType(partialType);
  OpResult result = loop->getResult(sum.index);
  result.setType(partialType);

  // In the body: p's column blocks into the partial sums.
  b.setInsertionPoint(sum.update);
  Value folded = foldColumns(b, loc, sum.reduce.getSrcs()[0], partialType);
  Value scaled = arith::MulFOp::create(
      b, loc, arg, rowsToPartial(b, loc, sum.alpha, wideType, partialType));
  Value updated = arith::AddFOp::create(b, loc, scaled, folded);
  loop.getBody()->getTerminator()->setOperand(sum.index, updated);
  sum.update->erase();
  sum.scale->erase();
  sum.reduce->erase();

  // After it: the lanes' partial sums together, back in the rows' layout
  // where #mma was not 8 columns wide already (the same registers: see
  // matchRowSum).
  b.setInsertionPointAfter(loop);
  auto reduced = tk::ReduceOp::create(b, loc, narrowRows, tk::ReduceKind::Sum,
                                      result, 1u);
  Value total = reduced.getResult(0);
  if (narrowRows != rowsType)
    total = ConvertLayoutOp::create(b, loc, rowsType, total);
  result.replaceAllUsesExcept(total, reduced);
}

struct DeferRowSumsPass
    : public tkgpu::impl::TkgpuDeferRowSumsBase<DeferRowSumsPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops) {
      if (carriesFreshDot(loop))
        continue;
      // A rewritten iter_arg no longer matches, so one pass over the
      // indices does.
      for (unsigned index = 0; index < loop.getNumRegionIterArgs(); ++index)
        if (std::optional<RowSum> sum = matchRowSum(loop, index))
          deferRowSum(loop, *sum);
    }
  }
};

} // namespace
