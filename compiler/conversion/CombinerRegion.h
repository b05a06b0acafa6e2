//===- CombinerRegion.h - inlining a reduce/scan combiner region -*- C++ -*-===//
//
// tk.reduce / tk.scan `combine` carry the user's combine function as a
// region of one block: 2N scalar arguments (left values, then right) and a
// tk.combine_return of N. The GPU lowerings call it once per pair of
// partial results by cloning the block's ops at the insertion point, the
// arguments mapped to the partials; the conversion then legalizes the
// clones like any scalar op (the block's arith/math/tk ops on scalars).
//
//===----------------------------------------------------------------------===//
#ifndef TK_COMPILER_CONVERSION_COMBINERREGION_H
#define TK_COMPILER_CONVERSION_COMBINERREGION_H

#include "dialects/tk/TkDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::tkgpu {

/// combine(lhs, rhs) with the ops of `combiner` cloned at `b`'s insertion
/// point.
inline SmallVector<Value> inlineCombiner(OpBuilder &b, Region &combiner,
                                         ValueRange lhs, ValueRange rhs) {
  Block &block = combiner.front();
  IRMapping mapping;
  for (auto [i, value] : llvm::enumerate(lhs))
    mapping.map(block.getArgument(i), value);
  for (auto [i, value] : llvm::enumerate(rhs))
    mapping.map(block.getArgument(lhs.size() + i), value);
  for (Operation &op : block.without_terminator())
    b.clone(op, mapping);
  SmallVector<Value> results;
  for (Value value :
       cast<tk::CombineReturnOp>(block.getTerminator()).getValues())
    results.push_back(mapping.lookupOrDefault(value));
  return results;
}

/// Whether the lowerings can inline `combiner`: run-time control flow in a
/// combine function becomes several blocks (scf -> cf), which they do not
/// support.
inline bool isInlinableCombiner(Region &combiner) {
  return combiner.hasOneBlock();
}

} // namespace mlir::tkgpu

#endif // TK_COMPILER_CONVERSION_COMBINERREGION_H
