//===- DiagnosticPrinter.h - MLIR diagnostics in clang style ----*- C++ -*-===//
//
// Every stage after the frontend reports through MLIR diagnostics. tk ops
// carry FileLineColLoc(s) into the .tk file (CallSiteLoc through inlined
// helpers), so a diagnostic prints like a frontend error:
//
//   softmax.tk:9:9: error: shared memory use 300000 exceeds the limit
//       x = load(in_ptr + row * in_stride + cols, mask=mask, other=-inf)
//           ^
//   helpers.tk:3:5: note: called from here
//
// and never as an IR dump.
//
//===----------------------------------------------------------------------===//

#ifndef TK_COMPILER_DRIVER_DIAGNOSTICPRINTER_H
#define TK_COMPILER_DRIVER_DIAGNOSTICPRINTER_H

#include "llvm/ADT/StringRef.h"

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir {
class Diagnostic;
class Location;
} // namespace mlir

namespace tk {

class SourceFile;

/// Prints `diagnostic` (and its notes) to `os`. Locations inside `source`
/// get the source line and a caret; other file locations print as
/// `file:line:col:`; unknown ones as `toolName: `. `prefix` is prepended to
/// the message of errors (e.g. "internal compiler error: ").
void printMLIRDiagnostic(const mlir::Diagnostic &diagnostic,
                         const SourceFile *source, llvm::raw_ostream &os,
                         llvm::StringRef toolName, llvm::StringRef prefix = "");

/// The first file position inside `loc` (through CallSiteLoc, NameLoc,
/// FusedLoc, OpaqueLoc), as (file, line, col); false if there is none.
bool getFileLineCol(mlir::Location loc, llvm::StringRef &file, unsigned &line,
                    unsigned &col);

} // namespace tk

#endif // TK_COMPILER_DRIVER_DIAGNOSTICPRINTER_H
