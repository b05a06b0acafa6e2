//===- AccessExplain.h - why a global access is narrow ----------*- C++ -*-===//
//
// The words of the remarks that say why a load fell off the fast path
// (tkgpu-pipeline: no cp.async copies under 4 bytes; the lowering: vectors
// narrower than 16 bytes). The vector width of an access is the minimum of
// the layout's consecutive registers, the pointers' contiguity, their
// alignment and the mask's constancy (AccessWidth.h); these functions name
// the terms that limit it and, for contiguity, the op of the kernel where
// it was lost, by walking the address computation back to the first op
// whose result has fewer consecutive elements than one of its operands:
//
//   contiguity 1 along dim 1 (lost at k.tk:40:16 in `%`: the divisor is
//   known to be a multiple of 1 only)
//
//===----------------------------------------------------------------------===//
#ifndef TK_COMPILER_ANALYSIS_ACCESSEXPLAIN_H
#define TK_COMPILER_ANALYSIS_ACCESSEXPLAIN_H

#include "mlir/IR/Value.h"

#include <string>

namespace mlir::tk {

class AxisInfoAnalysis;

/// Why one access of `ptr` (with `mask`, may be null) moves no more than
/// getAccessVectorWidth's elements: the limiting terms, comma-separated.
std::string explainAccessWidth(const AxisInfoAnalysis &axisInfo, Value ptr,
                               Value mask);

/// Where the contiguity of `value` along `dim` was lost: "lost at FILE:L:C
/// in `OP`: REASON", or empty when no op of its computation had more.
std::string explainContiguityLoss(const AxisInfoAnalysis &axisInfo,
                                  Value value, unsigned dim);

} // namespace mlir::tk

#endif // TK_COMPILER_ANALYSIS_ACCESSEXPLAIN_H
