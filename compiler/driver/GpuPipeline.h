//===- GpuPipeline.h - tk -> tkgpu pass pipeline ----------------*- C++ -*-===//
#ifndef TK_COMPILER_DRIVER_GPUPIPELINE_H
#define TK_COMPILER_DRIVER_GPUPIPELINE_H

#include "llvm/ADT/StringRef.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace tk {

/// Where tkgpu-invariant-operands-in-registers loads a loop-invariant
/// wgmma A operand into registers before its loop: nowhere, where the
/// registers fit and B has three or more slots (the default), or
/// everywhere.
enum class InvariantARegisters { Never, Automatic, Always };

/// Appends the passes that take a module of tk kernels to optimized tkgpu:
/// convert-tk-to-tkgpu, tkgpu-coalesce, tkgpu-remove-layout-conversions,
/// canonicalize, cse. `pm` must be a module pass manager; `numStages` is
/// the software-pipelining depth of loops feeding a dot (1: none); `arch`
/// is e.g. "sm_90a" or "sm_80"; `mmaVersion` 2 keeps mma.sync on sm_90a
/// (0: wgmma where the shapes allow); `pingPong` false leaves out
/// tkgpu-pingpong (an ablation switch: tkc --no-pingpong);
/// `invariantA` says where tkgpu-invariant-operands-in-registers loads
/// (tkc --invariant-a-in-registers / --no-invariant-a-in-registers).
void buildTkgpuPipeline(
    mlir::OpPassManager &pm, int numWarps, int numStages, llvm::StringRef arch,
    unsigned mmaVersion = 0, bool pingPong = true,
    InvariantARegisters invariantA = InvariantARegisters::Automatic);

} // namespace tk

#endif // TK_COMPILER_DRIVER_GPUPIPELINE_H
