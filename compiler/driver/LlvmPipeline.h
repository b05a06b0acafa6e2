//===- LlvmPipeline.h - tkgpu -> LLVM dialect pass pipeline -----*- C++ -*-===//
#ifndef TK_COMPILER_DRIVER_LLVMPIPELINE_H
#define TK_COMPILER_DRIVER_LLVMPIPELINE_H

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace tk {

/// Appends the passes that lower a tkgpu module to the LLVM and NVVM
/// dialects: convert-tkgpu-to-llvm, canonicalize, cse,
/// reconcile-unrealized-casts. `pm` must be a module pass manager. The
/// result carries tkgpu.shared_bytes and is ready for compiler/target.
/// `rebaseDescriptors`: convert-tkgpu-to-llvm's rebase-wgmma-descriptors
/// (tkc --rebase-wgmma-descriptors).
void buildLlvmPipeline(mlir::OpPassManager &pm,
                       bool rebaseDescriptors = false);

} // namespace tk

#endif // TK_COMPILER_DRIVER_LLVMPIPELINE_H
