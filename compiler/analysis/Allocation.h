//===- Allocation.h - shared-memory intervals of buffers and scratch -*- C++ -*-===//
//
// tkgpu-allocate-shared-memory's algorithm (allocateSharedMemory) and the
// query tkgpu-membar asks of its result (getMemDescInterval): which bytes
// of the dynamic shared memory a memdesc value designates.
//
//===----------------------------------------------------------------------===//
#ifndef TK_COMPILER_ANALYSIS_ALLOCATION_H
#define TK_COMPILER_ANALYSIS_ALLOCATION_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir::tkgpu {

/// Bytes [start, end) of the dynamic shared memory.
struct SharedInterval {
  int64_t start = 0;
  int64_t end = 0;

  bool overlaps(const SharedInterval &other) const {
    return start < other.end && other.start < end;
  }
  /// The smallest interval holding both.
  SharedInterval hull(const SharedInterval &other) const {
    return {std::min(start, other.start), std::max(end, other.end)};
  }
  bool operator==(const SharedInterval &other) const {
    return start == other.start && end == other.end;
  }
};

/// The values that designate (part of) the buffer of `allocResult`, itself
/// included: memdesc_index results, scf.for iter_args and results,
/// scf.if results, scf.while arguments and results.
SmallVector<Value> getBufferAliases(Value allocResult);

/// The bytes `memdesc` designates according to the allocation attributes:
/// the local_alloc it derives from (tkgpu.offset), narrowed by a
/// memdesc_index with a constant index (a dynamic index designates the
/// whole multi-buffer), the hull over the values that reach a loop-carried
/// or if result. None when unknown (no allocation attribute, a function
/// argument, ...): callers then assume all of shared memory.
std::optional<SharedInterval> getMemDescInterval(Value memdesc);

/// Gives every local_alloc in `func` a tkgpu.offset and every
/// ScratchOpInterface op with a nonzero size a tkgpu.scratch_offset (i64),
/// reusing bytes between allocations whose lifetimes do not overlap.
/// Returns the bytes the function needs. Without `recordOffsets`, only
/// the bytes (what a pass deciding between forms asks).
int64_t allocateSharedMemory(Operation *func, bool recordOffsets = true);

} // namespace mlir::tkgpu

#endif // TK_COMPILER_ANALYSIS_ALLOCATION_H
