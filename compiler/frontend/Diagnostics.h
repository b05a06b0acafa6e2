//===- Diagnostics.h - source files, locations, compile errors --*- C++ -*-===//
//
// The frontend reports every problem in the user's program as a CompileError
// thrown at the point of detection. The driver catches it and prints it in
// clang style:
//
//   softmax.tk:7:34: error: unknown name 'maks'; did you mean 'mask'?
//       x = load(in_ptr + cols, mask=maks)
//                                    ^
//
// This header is pure C++17 (no LLVM), so it can be shared by the lexer,
// parser, semantic analysis and the driver alike. Note that the library is
// compiled with exceptions on, while LLVM code is compiled without: code that
// throws or catches CompileError must live in a TU compiled with -fexceptions.
//
//===----------------------------------------------------------------------===//

#ifndef TK_COMPILER_FRONTEND_DIAGNOSTICS_H
#define TK_COMPILER_FRONTEND_DIAGNOSTICS_H

#include <cstddef>
#include <exception>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tk {

class SourceFile;

/// A position in a source file. Line and column are 1-based; the column
/// counts bytes from the start of the line (a tab is one column). A
/// default-constructed SourceLoc is "unknown" and prints without a position.
/// SourceLocs point at their SourceFile, which must outlive them.
struct SourceLoc {
  const SourceFile *file = nullptr;
  unsigned line = 0;
  unsigned col = 0;

  bool isValid() const { return file != nullptr && line != 0; }
  /// "name:line:col", or "name" / "<unknown>" when parts are missing.
  std::string toString() const;

  friend bool operator==(const SourceLoc &a, const SourceLoc &b) {
    return a.file == b.file && a.line == b.line && a.col == b.col;
  }
  friend bool operator!=(const SourceLoc &a, const SourceLoc &b) {
    return !(a == b);
  }
};

/// The text of one .tk file plus a line table. Not copyable or movable:
/// SourceLocs and tokens hold pointers to it and into its text.
class SourceFile {
public:
  SourceFile(std::string name, std::string text);
  SourceFile(const SourceFile &) = delete;
  SourceFile &operator=(const SourceFile &) = delete;

  /// Reads `path`; on failure returns null and sets `errorMessage`.
  static std::unique_ptr<SourceFile> readFromFile(const std::string &path,
                                                  std::string &errorMessage);

  const std::string &getName() const { return name; }
  const std::string &getText() const { return text; }

  /// Number of lines (a final line without '\n' counts; an empty file has 1).
  unsigned getNumLines() const { return unsigned(lineStarts.size()); }
  /// The text of 1-based line `line` without its line terminator ("\n" or
  /// "\r\n"); empty for out-of-range lines.
  std::string_view getLine(unsigned line) const;
  /// The location of byte `offset` in the text (offset == size is allowed
  /// and maps to the end of the last line).
  SourceLoc getLoc(size_t offset) const;
  /// Byte offset of `loc` (which must belong to this file) in the text.
  size_t getOffset(SourceLoc loc) const;

private:
  std::string name;
  std::string text;
  std::vector<size_t> lineStarts; // byte offset where each line begins
};

enum class DiagSeverity { Error, Warning, Note };
const char *getSeverityName(DiagSeverity severity); // "error", ...

/// An extra message attached to an error, e.g. "called from here".
struct DiagNote {
  SourceLoc loc;
  std::string message;
};

/// A diagnosed error in the user's program. Thrown by the lexer, the parser
/// and semantic analysis at the point where the problem is found.
struct CompileError : std::exception {
  SourceLoc loc;
  std::string message;
  std::vector<DiagNote> notes;

  CompileError(SourceLoc loc, std::string message);

  /// Appends a note; returns *this so that `throw err.addNote(...)` works.
  CompileError &addNote(SourceLoc noteLoc, std::string noteMessage);

  /// "file:line:col: error: message" (one line, without notes or caret).
  /// The location part is rendered when the error is constructed, so what()
  /// stays safe even after the SourceFile is gone.
  const char *what() const noexcept override;

private:
  std::string wherePrefix;
  mutable std::string whatText;
};

/// Prints one diagnostic in clang style: the header line, then (when the
/// location is valid) the source line and a caret under the column.
void printDiagnostic(std::ostream &os, SourceLoc loc, DiagSeverity severity,
                     std::string_view message);
/// Same, with the severity given as "error", "warning" or "note".
void printDiagnostic(std::ostream &os, SourceLoc loc,
                     std::string_view severity, std::string_view message);

/// Prints the error followed by its notes.
void printCompileError(std::ostream &os, const CompileError &error);
/// The text printCompileError would print.
std::string formatDiagnostic(const CompileError &error);

//===----------------------------------------------------------------------===//
// Typo suggestions
//===----------------------------------------------------------------------===//

/// Optimal-string-alignment edit distance (insertions, deletions,
/// substitutions and transpositions of adjacent characters all cost 1).
/// Stops early and returns a value > maxDistance once the distance is known
/// to exceed it.
unsigned editDistance(std::string_view a, std::string_view b,
                      unsigned maxDistance = ~0u);

/// The candidate closest to `name`, if one is close enough to be a likely
/// typo (distance at most about a third of the name's length, and never the
/// name itself). A candidate equal to `name` up to case and underscores wins
/// outright; other ties are broken by the order of `candidates`.
std::optional<std::string>
findClosestName(std::string_view name,
                const std::vector<std::string_view> &candidates);
std::optional<std::string>
findClosestName(std::string_view name,
                const std::vector<std::string> &candidates);

/// "; did you mean 'mask'?" when findClosestName finds something, else "".
/// Meant to be appended to a message: "unknown name 'maks'" + didYouMean(...).
std::string didYouMean(std::string_view name,
                       const std::vector<std::string_view> &candidates);
std::string didYouMean(std::string_view name,
                       const std::vector<std::string> &candidates);

} // namespace tk

#endif // TK_COMPILER_FRONTEND_DIAGNOSTICS_H
