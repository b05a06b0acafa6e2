//===- DiagnosticCheck.h - The frontend's error contract --------*- C++ -*-===//
//
// Whatever the input, the frontend either succeeds or throws a CompileError
// whose location is inside the file it was given (a column may be one past
// the end of its line: "expected ':'"), and which renders with its source
// line and caret. Anything else is a finding.
//
//===----------------------------------------------------------------------===//

#ifndef TK_TEST_FUZZ_DIAGNOSTICCHECK_H
#define TK_TEST_FUZZ_DIAGNOSTICCHECK_H

#include "FuzzCommon.h"

#include "compiler/frontend/Diagnostics.h"

#include <string>

namespace tk {
namespace fuzz {

inline void checkLocationInFile(SourceLoc loc, const SourceFile &file,
                                const std::string &what) {
  require(loc.file == &file, "diagnostic points into another file: " + what);
  require(loc.line >= 1 && loc.line <= file.getNumLines(),
          "diagnostic line out of range: " + what);
  require(loc.col >= 1 && loc.col <= file.getLine(loc.line).size() + 1,
          "diagnostic column out of range: " + what);
}

/// `needsLocation`: errors in the program always have one; errors in the
/// options given with it (a bad -D value, an unknown kernel name) may not.
inline void checkDiagnostic(const CompileError &error, const SourceFile &file,
                            bool needsLocation = true) {
  std::string what = error.what();
  require(!error.message.empty(), "diagnostic without a message");
  if (error.loc.isValid())
    checkLocationInFile(error.loc, file, what);
  else
    require(!needsLocation, "diagnostic without a location: " + what);
  // Notes ("called from here") may point into the file or nowhere.
  for (const DiagNote &note : error.notes)
    if (note.loc.isValid())
      checkLocationInFile(note.loc, file, "note of " + what);
  // Rendering with the source line and caret must work too.
  (void)formatDiagnostic(error);
}

} // namespace fuzz
} // namespace tk

#endif // TK_TEST_FUZZ_DIAGNOSTICCHECK_H
