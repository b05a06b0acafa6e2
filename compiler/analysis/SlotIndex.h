//===- SlotIndex.h - telling the slots of a multi-buffer apart --*- C++ -*-===//
//
// tkgpu-pipeline keeps num_stages copies of an operand tile in one
// allocation and walks them with a loop-carried index %s, advanced at the
// end of each iteration as
//
//   %t = arith.addi %s, %c1 ; %w = arith.cmpi eq, %t, %cN
//   %next = arith.select %w, %c0, %t          (N = the number of slots)
//
// An iteration reads slot %next (the prefetched first k-slice of the next
// stage) while its cp.async copies fill slot %s. The byte intervals of
// both are the whole multi-buffer (the index is dynamic), so an analysis
// of intervals alone sees them overlap. These queries prove that two
// indices of one buffer always differ, so that tkgpu-membar and
// tkgpu-prefetch may treat the two slots as disjoint.
//
// An index and its advance by c (0 < c < N) always differ: if %s + c != N
// the advance is %s + c != %s; if %s + c == N it is 0, and %s = N - c is
// not 0. This holds for every value of %s, in range or not, so nothing
// about %s itself needs to be known. Two different constants differ too.
//
//===----------------------------------------------------------------------===//
#ifndef TK_COMPILER_ANALYSIS_SLOTINDEX_H
#define TK_COMPILER_ANALYSIS_SLOTINDEX_H

#include "mlir/IR/Value.h"

#include <optional>

namespace mlir::tkgpu {

/// A memdesc seen as one slot of a multi-buffer: `memdesc_index
/// %buffer[%index]` of a buffer with `numSlots` slots.
struct SlotRef {
  Value buffer;
  Value index;
  int64_t numSlots = 0;
};

/// `memdesc` as a slot of a multi-buffer, when it is a memdesc_index.
std::optional<SlotRef> getSlotRef(Value memdesc);

/// Whether indices `a` and `b` of a multi-buffer of `numSlots` slots
/// differ in every execution (see the banner).
bool areDistinctSlots(Value a, Value b, int64_t numSlots);

/// Whether `a` and `b` designate slots of one multi-buffer that differ in
/// every execution.
bool areDistinctSlots(const SlotRef &a, const SlotRef &b);

} // namespace mlir::tkgpu

#endif // TK_COMPILER_ANALYSIS_SLOTINDEX_H
