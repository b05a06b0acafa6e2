//===- Compilation.h - the state of one compilation -------------*- C++ -*-===//
//
// A Compilation owns what every stage shares: the options, the MLIR context
// (all tk dialects registered, single-threaded), the .tk source and the
// error reporting. While it lives, MLIR diagnostics print in clang style
// (DiagnosticPrinter.h) to its error stream.
//
// The stages are free functions taking a Compilation (one per file):
//   Frontend.h    loadSource, parseSource, emitTk
//   TkPipeline.h  buildTkPipeline, runTkPipeline
//   PassRunner.h  runPipeline (any pass pipeline, with IR printing options)
//   Compiler.h    runCompilation (all stages up to --emit), output writing
// Later stages (tkgpu, LLVM, PTX, cubin) add their own files and a case in
// runCompilation.
//
//===----------------------------------------------------------------------===//

#ifndef TK_COMPILER_DRIVER_COMPILATION_H
#define TK_COMPILER_DRIVER_COMPILATION_H

#include "compiler/driver/CompileOptions.h"
#include "compiler/frontend/Diagnostics.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/Timing.h"
#include "llvm/ADT/Twine.h"

#include <memory>
#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace tk {

class Compilation {
public:
  /// `errs` receives every diagnostic (llvm::errs() by default).
  explicit Compilation(CompileOptions options,
                       llvm::raw_ostream *errs = nullptr);
  ~Compilation();
  Compilation(const Compilation &) = delete;
  Compilation &operator=(const Compilation &) = delete;

  mlir::MLIRContext &getContext() { return context; }
  const CompileOptions &getOptions() const { return options; }
  llvm::raw_ostream &getErrorStream() { return *errs; }

  /// The .tk source; null until loadSource (Frontend.h) succeeded.
  const SourceFile *getSource() const { return source.get(); }
  void setSource(std::unique_ptr<SourceFile> file);

  /// "tkc: error: <message>".
  void reportError(const llvm::Twine &message);
  /// A frontend error in clang style, with its notes; errors without a
  /// location print as "tkc: error: ...".
  void reportCompileError(const CompileError &error);
  /// Prefixes MLIR error diagnostics (e.g. "internal compiler error: ")
  /// until reset with an empty string.
  void setMLIRErrorPrefix(std::string prefix) {
    mlirErrorPrefix = std::move(prefix);
  }
  /// Number of errors reported so far (frontend and MLIR).
  unsigned getNumErrors() const { return numErrors; }

  /// With --timing, a timer named `name` under the compilation's root
  /// (stopped when the scope ends; the report prints when the Compilation
  /// is destroyed); otherwise a scope that does nothing.
  mlir::TimingScope time(llvm::StringRef name) {
    return rootTiming.nest(name);
  }
  bool isTiming() const { return options.timing; }

private:
  CompileOptions options;
  mlir::MLIRContext context;
  llvm::raw_ostream *errs;
  std::unique_ptr<SourceFile> source;
  std::unique_ptr<mlir::ScopedDiagnosticHandler> diagnosticHandler;
  std::string mlirErrorPrefix;
  unsigned numErrors = 0;
  // Declared last: the root scope stops before the manager prints.
  mlir::DefaultTimingManager timingManager;
  mlir::TimingScope rootTiming;
};

} // namespace tk

#endif // TK_COMPILER_DRIVER_COMPILATION_H
