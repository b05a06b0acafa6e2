//===- IRGen.h - semantic analysis and tk IR emission -----------*- C++ -*-===//
//
// Turns the AST of a .tk file into an MLIR module holding one kernel as a
// `func.func` in the tk dialect (plus func/arith/math/scf), type-checking as
// it goes, the way Triton's code generator does: every expression evaluates
// either to a compile-time constant (int, float, bool, string, dtype, tuple,
// None) or to an IR value with a tk type. Helpers are inlined at their call
// sites, constexpr `if`s fold, `static_range` unrolls.
//
// Errors in the user's program are thrown as tk::CompileError with a source
// location (and "called from here" notes through helper calls). The
// exception never crosses MLIR code: the emitter builds IR with plain
// builders, no callbacks.
//
// The IR conventions (attribute names) are described in docs/frontend.md
// and at emitKernelModule's definition.
//
//===----------------------------------------------------------------------===//

#ifndef TK_COMPILER_FRONTEND_IRGEN_H
#define TK_COMPILER_FRONTEND_IRGEN_H

#include "compiler/frontend/AST.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace tk {

/// A specialization assumption about a kernel argument (`--assume NAME=16`
/// or `--assume NAME=1`).
struct ArgAssumption {
  std::string name;
  int64_t value = 16; // 16: divisible by 16 / 16-byte aligned; 1: equals 1
};

/// What to emit: which kernel, with which constexpr values and hints.
struct IRGenOptions {
  /// The kernel to emit; empty means the file's only kernel.
  std::string kernelName;
  /// `-D NAME=VALUE` in command-line order; VALUE is an expression text
  /// (`1024`, `1e-6`, `True`, `f16`). A later definition of a name wins.
  std::vector<std::pair<std::string, std::string>> defines;
  /// Overrides of the kernel's @kernel(...)/@autotune values; unset leaves
  /// those (or the defaults 4 and 3) in place.
  std::optional<unsigned> numWarps;
  std::optional<unsigned> numStages;
  /// Overrides the kernel's maxnreg= (registers per thread at most).
  std::optional<unsigned> maxRegisters;
  /// Overrides the kernel's cluster_size= (programs per thread-block
  /// cluster along x).
  std::optional<unsigned> clusterSize;
  /// Which @autotune config supplies constexpr values that -D leaves unset.
  unsigned autotuneConfig = 0;
  std::vector<ArgAssumption> assumptions;
  /// Mark every pointer argument 16-byte aligned (what Triton's launcher
  /// does after checking the actual pointers).
  bool assumeAlignedPointers = false;
};

/// The functions of `module` that can be compiled as kernels: those
/// decorated @kernel or @jit (with any `tk.`/`tl.`/`triton.` prefix).
std::vector<const ast::FunctionDef *> findKernels(const ast::Module &module);

/// Emits the selected kernel of `module` as a new MLIR module. Throws
/// CompileError for errors in the program or in the options (the latter
/// with an invalid location when no source position fits). The module is
/// not verified here.
mlir::OwningOpRef<mlir::ModuleOp>
emitKernelModule(mlir::MLIRContext &context, const ast::Module &module,
                 const IRGenOptions &options);

} // namespace tk

#endif // TK_COMPILER_FRONTEND_IRGEN_H
