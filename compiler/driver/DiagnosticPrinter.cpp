//===- DiagnosticPrinter.cpp - MLIR diagnostics in clang style ------------===//

#include "compiler/driver/DiagnosticPrinter.h"

#include "compiler/frontend/Diagnostics.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "llvm/Support/raw_ostream.h"

#include <sstream>

namespace tk {

bool getFileLineCol(mlir::Location loc, llvm::StringRef &file, unsigned &line,
                    unsigned &col) {
  if (auto fileLoc = mlir::dyn_cast<mlir::FileLineColLoc>(loc)) {
    file = fileLoc.getFilename().getValue();
    line = fileLoc.getLine();
    col = fileLoc.getColumn();
    return true;
  }
  if (auto callSite = mlir::dyn_cast<mlir::CallSiteLoc>(loc))
    return getFileLineCol(callSite.getCallee(), file, line, col) ||
           getFileLineCol(callSite.getCaller(), file, line, col);
  if (auto name = mlir::dyn_cast<mlir::NameLoc>(loc))
    return getFileLineCol(name.getChildLoc(), file, line, col);
  if (auto fused = mlir::dyn_cast<mlir::FusedLoc>(loc)) {
    for (mlir::Location inner : fused.getLocations())
      if (getFileLineCol(inner, file, line, col))
        return true;
    return false;
  }
  if (auto opaque = mlir::dyn_cast<mlir::OpaqueLoc>(loc))
    return getFileLineCol(opaque.getFallbackLocation(), file, line, col);
  return false;
}

static const char *getSeverityText(mlir::DiagnosticSeverity severity) {
  switch (severity) {
  case mlir::DiagnosticSeverity::Error:
    return "error";
  case mlir::DiagnosticSeverity::Warning:
    return "warning";
  case mlir::DiagnosticSeverity::Note:
    return "note";
  case mlir::DiagnosticSeverity::Remark:
    return "remark";
  }
  return "error";
}

/// One line of diagnostic (plus source line and caret when possible).
static void printOne(mlir::Location loc, llvm::StringRef severity,
                     const std::string &message, const SourceFile *source,
                     llvm::raw_ostream &os, llvm::StringRef toolName) {
  llvm::StringRef file;
  unsigned line = 0, col = 0;
  if (!getFileLineCol(loc, file, line, col)) {
    os << toolName << ": " << severity << ": " << message << "\n";
    return;
  }
  if (source && file == source->getName() && line >= 1) {
    SourceLoc sourceLoc;
    sourceLoc.file = source;
    sourceLoc.line = line;
    sourceLoc.col = col == 0 ? 1 : col;
    std::ostringstream text;
    printDiagnostic(text, sourceLoc, std::string_view(severity.data(),
                                                      severity.size()),
                    message);
    os << text.str();
    return;
  }
  os << file << ":" << line << ":" << col << ": " << severity << ": "
     << message << "\n";
}

/// The chain of call sites of an inlined helper's location, innermost
/// first: CallSiteLoc(callee, caller) where the caller is itself a
/// CallSiteLoc when the call is inside another helper.
static void collectCallerChain(mlir::Location caller,
                               std::vector<mlir::Location> &chain) {
  if (auto callSite = mlir::dyn_cast<mlir::CallSiteLoc>(caller)) {
    chain.push_back(callSite.getCallee());
    collectCallerChain(callSite.getCaller(), chain);
    return;
  }
  chain.push_back(caller);
}

static void collectCallers(mlir::Location loc,
                           std::vector<mlir::Location> &callers) {
  if (auto callSite = mlir::dyn_cast<mlir::CallSiteLoc>(loc))
    collectCallerChain(callSite.getCaller(), callers);
}

void printMLIRDiagnostic(const mlir::Diagnostic &diagnostic,
                         const SourceFile *source, llvm::raw_ostream &os,
                         llvm::StringRef toolName, llvm::StringRef prefix) {
  std::string message = diagnostic.str();
  if (diagnostic.getSeverity() == mlir::DiagnosticSeverity::Error)
    message = prefix.str() + message;
  printOne(diagnostic.getLocation(),
           getSeverityText(diagnostic.getSeverity()), message, source, os,
           toolName);
  std::vector<mlir::Location> callers;
  collectCallers(diagnostic.getLocation(), callers);
  for (mlir::Location caller : callers)
    printOne(caller, "note", "called from here", source, os, toolName);
  for (const mlir::Diagnostic &note : diagnostic.getNotes())
    printOne(note.getLocation(), "note", note.str(), source, os, toolName);
  os.flush();
}

} // namespace tk
