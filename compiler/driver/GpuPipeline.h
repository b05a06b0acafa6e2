//===- GpuPipeline.h - tk -> tkgpu pass pipeline ----------------*- C++ -*-===//
#ifndef TK_COMPILER_DRIVER_GPUPIPELINE_H
#define TK_COMPILER_DRIVER_GPUPIPELINE_H

#include "llvm/ADT/StringRef.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace tk {

/// Appends the passes that take a module of tk kernels to optimized tkgpu:
/// convert-tk-to-tkgpu, tkgpu-coalesce, tkgpu-remove-layout-conversions,
/// canonicalize, cse. `pm` must be a module pass manager; `numStages` is
/// the software-pipelining depth of loops feeding a dot (1: none); `arch`
/// is e.g. "sm_90a" or "sm_80"; `mmaVersion` 2 keeps mma.sync on sm_90a
/// (0: wgmma where the shapes allow); `pingPong` false leaves out
/// tkgpu-pingpong (an ablation switch: tkc --no-pingpong);
/// `invariantAInRegisters` enables tkgpu-invariant-operands-in-registers
/// (tkc --invariant-a-in-registers).
void buildTkgpuPipeline(mlir::OpPassManager &pm, int numWarps, int numStages,
                        llvm::StringRef arch, unsigned mmaVersion = 0,
                        bool pingPong = true,
                        bool invariantAInRegisters = false);

} // namespace tk

#endif // TK_COMPILER_DRIVER_GPUPIPELINE_H
