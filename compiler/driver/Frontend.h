//===- Frontend.h - source file to verified tk IR ---------------*- C++ -*-===//
//
// The first stages of a compilation. Each reports its own errors through
// the Compilation (clang style) and returns null/failure after an error.
//
//===----------------------------------------------------------------------===//

#ifndef TK_COMPILER_DRIVER_FRONTEND_H
#define TK_COMPILER_DRIVER_FRONTEND_H

#include "compiler/frontend/AST.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace tk {

class Compilation;

/// Reads options.inputPath into the compilation ("tkc: error: cannot open
/// 'x.tk': No such file or directory" on failure).
mlir::LogicalResult loadSource(Compilation &compilation);

/// Parses the loaded source.
std::unique_ptr<ast::Module> parseSource(Compilation &compilation);

/// Parses `text` (named `name` in diagnostics) on its own, for readers of
/// a kernel's signature or decorators that compile nothing, and calls `use`
/// with the module while its source is alive. A parse error comes back as
/// the error's message: the diagnostics (`toolName: error: ...`), without
/// the final newline.
llvm::Error withParsedSource(
    const std::string &name, const std::string &text,
    const std::string &toolName,
    llvm::function_ref<llvm::Error(const ast::Module &)> use);

/// Emits the selected kernel of `module` as tk IR (func/arith/math/scf +
/// tk) and verifies it; a verifier failure is reported as an internal
/// compiler error at the offending op's source location.
mlir::OwningOpRef<mlir::ModuleOp> emitTk(Compilation &compilation,
                                         const ast::Module &module);

/// loadSource + parseSource + emitTk.
mlir::OwningOpRef<mlir::ModuleOp> runFrontend(Compilation &compilation);

/// The launch settings in force for a module the frontend emitted (its
/// tk.num_warps / tk.num_stages attributes: command line, @autotune config
/// or @kernel(...) values), or 4 / 3 when absent.
unsigned getNumWarps(mlir::ModuleOp module);
unsigned getNumStages(mlir::ModuleOp module);

} // namespace tk

#endif // TK_COMPILER_DRIVER_FRONTEND_H
