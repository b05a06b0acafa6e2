//===- Compiler.h - run the stages a compilation asks for -------*- C++ -*-===//
#ifndef TK_COMPILER_DRIVER_COMPILER_H
#define TK_COMPILER_DRIVER_COMPILER_H

#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace tk {

class Compilation;

/// Runs every stage up to options.emit and writes its result to
/// options.outputPath (stdout when empty or "-"). Errors are reported
/// through the compilation; returns failure after any.
mlir::LogicalResult runCompilation(Compilation &compilation);

/// Writes text to the output file of the compilation (stdout when the path
/// is empty or "-"); reports "cannot write" errors.
mlir::LogicalResult
writeTextOutput(Compilation &compilation,
                llvm::function_ref<void(llvm::raw_ostream &)> write);

/// Convenience: options from `argv`-free callers, run, exit status (0/1).
int compileAndReturnStatus(Compilation &compilation);

} // namespace tk

#endif // TK_COMPILER_DRIVER_COMPILER_H
