//===- AccessWidth.h - vector width of a global memory access ---*- C++ -*-===//
//
// How many consecutive elements one access of a pointer tensor may move:
// the question the load/store/cp.async lowering asks to pick its vector
// width, and the one tkgpu-pipeline asks to decide whether a load can
// become cp.async (4 bytes at least). One function answers both, so that
// the pipeliner never builds a copy the lowering then refuses. Also which
// atomics have a vector form, which coalescing and the lowering both ask.
//
//===----------------------------------------------------------------------===//
#ifndef TK_COMPILER_ANALYSIS_ACCESSWIDTH_H
#define TK_COMPILER_ANALYSIS_ACCESSWIDTH_H

#include "mlir/IR/Value.h"

namespace mlir::tk {

class AxisInfoAnalysis;

/// Consecutive elements one access of `ptr` (a pointer tensor with a layout
/// encoding) may move: registers contiguous along the dimension register
/// bit 0 moves along, within a run of contiguous addresses, aligned, under
/// one mask bit (`mask` may be null), at most 128 bits, every vector
/// starting at a multiple of its width. 1 when nothing wider is known.
unsigned getAccessVectorWidth(const AxisInfoAnalysis &axisInfo, Value ptr,
                              Value mask);

/// Whether `op` is an atomic that PTX has in vector form on a GPU of
/// `computeCapability`: a float add of f32, f16 or bf16 on sm_90 and later
/// (`atom.global.add.v4.f32`, `atom.global.add.noftz.v8.f16`, up to 16
/// bytes). Coalescing gives such an atomic several elements per thread
/// and the lowering moves them in one instruction; other atomics stay one
/// element each.
bool hasVectorAtomicForm(Operation *op, unsigned computeCapability);

} // namespace mlir::tk

#endif // TK_COMPILER_ANALYSIS_ACCESSWIDTH_H
