//===- PipelineTma.h - TMA loads in tkgpu-pipeline --------------*- C++ -*-===//
//
// The TMA half of tkgpu-pipeline (PipelineTma.cpp): loops whose operand
// tiles arrive through tkgpu-lower-tma's single-use mbarrier loads.
// Pipeline.cpp tries it on the loops its cp.async planner leaves alone.
//
//===----------------------------------------------------------------------===//
#ifndef TK_COMPILER_TRANSFORMS_GPU_PIPELINETMA_H
#define TK_COMPILER_TRANSFORMS_GPU_PIPELINETMA_H

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::tkgpu {

/// Whether every warp_group_dot of `loop` may still run when an iteration
/// ends: its result only feeds its own accumulator in the next iteration
/// (and the code after the loop, where a wait follows). Pipeline.cpp.
bool canKeepDotsInFlight(scf::ForOp loop);

/// Multi-buffers the TMA loads of `loop` over `numStages` slots, one
/// mbarrier per slot, when the loop has tkgpu-lower-tma's form and the
/// loaded tiles only feed warp_group_dots; returns false (the loop
/// untouched) otherwise.
bool pipelineTmaLoop(scf::ForOp loop, unsigned numStages);

} // namespace mlir::tkgpu

#endif // TK_COMPILER_TRANSFORMS_GPU_PIPELINETMA_H
