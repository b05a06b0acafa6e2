//===- Compilation.cpp - the state of one compilation ---------------------===//

#include "compiler/driver/Compilation.h"

#include "compiler/driver/DiagnosticPrinter.h"
#include "compiler/driver/RemarkPrinter.h"
#include "compiler/driver/Registration.h"

#include "mlir/IR/DialectRegistry.h"
#include "llvm/Support/raw_ostream.h"

#include <sstream>

namespace tk {

static mlir::DialectRegistry makeRegistry() {
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  return registry;
}

Compilation::Compilation(CompileOptions options, llvm::raw_ostream *errs)
    : options(std::move(options)),
      context(makeRegistry(), mlir::MLIRContext::Threading::DISABLED),
      errs(errs ? errs : &llvm::errs()) {
  if (this->options.timing) {
    timingManager.setEnabled(true);
    timingManager.setOutput(mlir::createOutputStrategy(
        mlir::DefaultTimingManager::OutputFormat::Text, *this->errs));
    rootTiming = timingManager.getRootScope();
  }
  mlir::TimingScope loading = time("context and dialects");
  context.loadAllAvailableDialects();
  loading.stop();
  // Diagnostics name the source position; an op dump or a stack trace
  // would only confuse the kernel author.
  context.printOpOnDiagnostic(false);
  context.printStackTraceOnDiagnostic(false);
  diagnosticHandler = std::make_unique<mlir::ScopedDiagnosticHandler>(
      &context, [this](mlir::Diagnostic &diagnostic) {
        bool isError =
            diagnostic.getSeverity() == mlir::DiagnosticSeverity::Error;
        // A lowering pattern that cannot convert an op says why at the op;
        // the conversion driver's "failed to legalize" after it adds
        // nothing for the kernel's author.
        if (isError && numErrors > 0 &&
            llvm::StringRef(diagnostic.str())
                .starts_with("failed to legalize operation"))
          return mlir::success();
        if (isError)
          ++numErrors;
        printMLIRDiagnostic(diagnostic, source.get(), *this->errs,
                            this->options.toolName, mlirErrorPrefix);
        return mlir::success();
      });
  if (this->options.remarks)
    enableRemarkPrinting(
        context, [this] { return source.get(); }, *this->errs,
        this->options.toolName);
}

Compilation::~Compilation() = default;

void Compilation::setSource(std::unique_ptr<SourceFile> file) {
  source = std::move(file);
}

void Compilation::reportError(const llvm::Twine &message) {
  ++numErrors;
  *errs << options.toolName << ": error: " << message << "\n";
  errs->flush();
}

void Compilation::reportCompileError(const CompileError &error) {
  ++numErrors;
  if (!error.loc.isValid()) {
    *errs << options.toolName << ": error: " << error.message << "\n";
    for (const DiagNote &note : error.notes) {
      if (note.loc.isValid()) {
        std::ostringstream text;
        printDiagnostic(text, note.loc, DiagSeverity::Note, note.message);
        *errs << text.str();
      } else {
        *errs << options.toolName << ": note: " << note.message << "\n";
      }
    }
  } else {
    *errs << formatDiagnostic(error);
  }
  errs->flush();
}

} // namespace tk
