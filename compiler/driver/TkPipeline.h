//===- TkPipeline.h - the passes on the tk dialect --------------*- C++ -*-===//
#ifndef TK_COMPILER_DRIVER_TKPIPELINE_H
#define TK_COMPILER_DRIVER_TKPIPELINE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LogicalResult.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace tk {

class Compilation;

/// The tk-level clean-up after the frontend: inline, canonicalize,
/// tk-combine, cse, symbol-dce (only the kernel remains). `pm` must be a
/// module pass manager.
void buildTkPipeline(mlir::OpPassManager &pm);

/// Runs buildTkPipeline on `module` through runPipeline.
mlir::LogicalResult runTkPipeline(Compilation &compilation,
                                  mlir::ModuleOp module);

} // namespace tk

#endif // TK_COMPILER_DRIVER_TKPIPELINE_H
