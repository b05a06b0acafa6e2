//===- PassRunner.h - run a pass pipeline of a compilation ------*- C++ -*-===//
//
// Every stage runs its passes through runPipeline, so that the options
// --print-ir-after-all / --print-ir-after=PASS and the clang-style
// diagnostics work the same for all of them.
//
//===----------------------------------------------------------------------===//

#ifndef TK_COMPILER_DRIVER_PASSRUNNER_H
#define TK_COMPILER_DRIVER_PASSRUNNER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

namespace mlir {
class OpPassManager;
class OpPrintingFlags;
class PassManager;
} // namespace mlir

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace tk {

class Compilation;

/// Runs `pm` on `module` and verifies the result once, at the end, instead
/// of after every pass (the pass manager's default, about a fifth of the
/// LLVM-dialect stage of a matmul; the IR between passes is the same
/// either way). TK_VERIFY_EACH_PASS=1 verifies after every pass again, to
/// find the pass that broke the IR. tk-opt (the lit tests) verifies after
/// every pass regardless.
mlir::LogicalResult runAndVerify(mlir::PassManager &pm, mlir::ModuleOp module);

/// Builds a module pass manager with `buildPipeline`, runs it on `module`
/// with runAndVerify, printing the IR after passes as the options ask
/// (to stderr, with source locations). A failure is reported (the pass's
/// own diagnostics, or "tkc: error: the <stageName> pipeline failed").
mlir::LogicalResult
runPipeline(Compilation &compilation, mlir::ModuleOp module,
            llvm::StringRef stageName,
            llvm::function_ref<void(mlir::OpPassManager &)> buildPipeline);

/// How tk prints IR for people: source locations inline
/// (`loc("softmax.tk":9:9)`), no aliases.
mlir::OpPrintingFlags getIRPrintingFlags();

/// Prints `module` with getIRPrintingFlags().
void printModule(mlir::ModuleOp module, llvm::raw_ostream &os);

} // namespace tk

#endif // TK_COMPILER_DRIVER_PASSRUNNER_H
