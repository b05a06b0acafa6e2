//===- GpuStages.h - tkc's stages after the tk pipeline ---------*- C++ -*-===//
#ifndef TK_COMPILER_DRIVER_GPUSTAGES_H
#define TK_COMPILER_DRIVER_GPUSTAGES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LogicalResult.h"

namespace tk {

class Compilation;

/// The two halves of the GPU pipeline on `module` (after the tk
/// pipeline), with the compilation's arch and switches and the module's
/// num_warps and num_stages: buildTkgpuPipeline, then buildLlvmPipeline
/// (GpuPipeline.h, LlvmPipeline.h), each through runPipeline (IR printing
/// and timing options apply). tkc and the JIT both lower through these, so
/// they compile alike.
mlir::LogicalResult lowerToTkgpu(Compilation &compilation,
                                 mlir::ModuleOp module);
mlir::LogicalResult lowerTkgpuToLlvm(Compilation &compilation,
                                     mlir::ModuleOp module);

/// From a tk module (after the tk pipeline) to what --emit asks for:
///   tkgpu       buildTkgpuPipeline, print
///   llvm-mlir   + buildLlvmPipeline, print
///   llvm        + LLVM IR after O3
///   ptx         + PTX
///   cubin       + ptxas: writes NAME.cubin (-o, default <kernel>.cubin) and
///               NAME.json beside it; --stats prints ptxas' resource use
///   sass-report + what ptxas -v says about the cubin
/// Errors are reported through the compilation.
mlir::LogicalResult runGpuStages(Compilation &compilation,
                                 mlir::ModuleOp module);

} // namespace tk

#endif // TK_COMPILER_DRIVER_GPUSTAGES_H
