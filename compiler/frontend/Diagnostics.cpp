//===- Diagnostics.cpp - source files, locations, compile errors ----------===//

#include "compiler/frontend/Diagnostics.h"

#include <algorithm>
#include <fstream>
#include <ostream>
#include <sstream>

namespace tk {

//===----------------------------------------------------------------------===//
// SourceLoc / SourceFile
//===----------------------------------------------------------------------===//

std::string SourceLoc::toString() const {
  if (!file)
    return "<unknown>";
  if (line == 0)
    return file->getName();
  return file->getName() + ":" + std::to_string(line) + ":" +
         std::to_string(col);
}

SourceFile::SourceFile(std::string name, std::string text)
    : name(std::move(name)), text(std::move(text)) {
  lineStarts.push_back(0);
  for (size_t i = 0; i < this->text.size(); ++i)
    if (this->text[i] == '\n')
      lineStarts.push_back(i + 1);
  // A trailing '\n' ends the last line rather than starting an empty one.
  if (lineStarts.size() > 1 && lineStarts.back() == this->text.size())
    lineStarts.pop_back();
}

std::unique_ptr<SourceFile>
SourceFile::readFromFile(const std::string &path, std::string &errorMessage) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    errorMessage = "cannot open '" + path + "'";
    return nullptr;
  }
  std::ostringstream contents;
  contents << in.rdbuf();
  if (in.bad()) {
    errorMessage = "cannot read '" + path + "'";
    return nullptr;
  }
  return std::make_unique<SourceFile>(path, contents.str());
}

std::string_view SourceFile::getLine(unsigned line) const {
  if (line == 0 || line > lineStarts.size())
    return {};
  size_t begin = lineStarts[line - 1];
  size_t end = line < lineStarts.size() ? lineStarts[line] : text.size();
  std::string_view result(text.data() + begin, end - begin);
  if (!result.empty() && result.back() == '\n')
    result.remove_suffix(1);
  if (!result.empty() && result.back() == '\r')
    result.remove_suffix(1);
  return result;
}

SourceLoc SourceFile::getLoc(size_t offset) const {
  offset = std::min(offset, text.size());
  // The last line start <= offset.
  auto it = std::upper_bound(lineStarts.begin(), lineStarts.end(), offset);
  size_t lineIndex = size_t(it - lineStarts.begin()) - 1;
  SourceLoc loc;
  loc.file = this;
  loc.line = unsigned(lineIndex + 1);
  loc.col = unsigned(offset - lineStarts[lineIndex] + 1);
  return loc;
}

size_t SourceFile::getOffset(SourceLoc loc) const {
  if (loc.line == 0 || loc.line > lineStarts.size())
    return text.size();
  return std::min(text.size(), lineStarts[loc.line - 1] + (loc.col - 1));
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

const char *getSeverityName(DiagSeverity severity) {
  switch (severity) {
  case DiagSeverity::Error:
    return "error";
  case DiagSeverity::Warning:
    return "warning";
  case DiagSeverity::Note:
    return "note";
  }
  return "error";
}

static void printDiagnosticImpl(std::ostream &os, SourceLoc loc,
                                std::string_view severity,
                                std::string_view message) {
  if (loc.file)
    os << loc.toString() << ": ";
  os << severity << ": " << message << '\n';
  if (!loc.isValid() || loc.line > loc.file->getNumLines())
    return;
  std::string_view line = loc.file->getLine(loc.line);
  os << line << '\n';
  // Reproduce tabs from the source line so the caret lines up whatever the
  // terminal's tab width is.
  std::string caret;
  for (unsigned i = 0; i + 1 < loc.col; ++i)
    caret += (i < line.size() && line[i] == '\t') ? '\t' : ' ';
  caret += '^';
  os << caret << '\n';
}

void printDiagnostic(std::ostream &os, SourceLoc loc, DiagSeverity severity,
                     std::string_view message) {
  printDiagnosticImpl(os, loc, getSeverityName(severity), message);
}

void printDiagnostic(std::ostream &os, SourceLoc loc,
                     std::string_view severity, std::string_view message) {
  printDiagnosticImpl(os, loc, severity, message);
}

void printCompileError(std::ostream &os, const CompileError &error) {
  printDiagnostic(os, error.loc, DiagSeverity::Error, error.message);
  for (const DiagNote &note : error.notes)
    printDiagnostic(os, note.loc, DiagSeverity::Note, note.message);
}

std::string formatDiagnostic(const CompileError &error) {
  std::ostringstream os;
  printCompileError(os, error);
  return os.str();
}

//===----------------------------------------------------------------------===//
// CompileError
//===----------------------------------------------------------------------===//

CompileError::CompileError(SourceLoc loc, std::string message)
    : loc(loc), message(std::move(message)) {
  // Render the location now: the exception may outlive its SourceFile (e.g.
  // when it escapes the scope that owned the file), and what() must not
  // touch freed memory.
  if (loc.file)
    wherePrefix = loc.toString() + ": ";
}

CompileError &CompileError::addNote(SourceLoc noteLoc,
                                    std::string noteMessage) {
  notes.push_back({noteLoc, std::move(noteMessage)});
  return *this;
}

const char *CompileError::what() const noexcept {
  try {
    whatText = wherePrefix + "error: " + message;
    return whatText.c_str();
  } catch (...) {
    return "tk compile error";
  }
}

//===----------------------------------------------------------------------===//
// Typo suggestions
//===----------------------------------------------------------------------===//

unsigned editDistance(std::string_view a, std::string_view b,
                      unsigned maxDistance) {
  size_t n = a.size(), m = b.size();
  size_t lengthDiff = n > m ? n - m : m - n;
  if (lengthDiff > maxDistance)
    return maxDistance + 1;
  // Three rolling rows suffice for the transposition rule.
  std::vector<unsigned> prev2(m + 1), prev(m + 1), cur(m + 1);
  for (size_t j = 0; j <= m; ++j)
    prev[j] = unsigned(j);
  for (size_t i = 1; i <= n; ++i) {
    cur[0] = unsigned(i);
    unsigned rowMin = cur[0];
    for (size_t j = 1; j <= m; ++j) {
      unsigned cost = a[i - 1] == b[j - 1] ? 0 : 1;
      unsigned best = std::min({prev[j] + 1, cur[j - 1] + 1,
                                prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        best = std::min(best, prev2[j - 2] + 1);
      cur[j] = best;
      rowMin = std::min(rowMin, best);
    }
    if (rowMin > maxDistance)
      return maxDistance + 1;
    std::swap(prev2, prev);
    std::swap(prev, cur);
  }
  return prev[m];
}

std::optional<std::string>
findClosestName(std::string_view name,
                const std::vector<std::string_view> &candidates) {
  // Like clang's typo correction: allow roughly one edit per three
  // characters, so short names only match very close candidates.
  unsigned limit = unsigned((name.size() + 2) / 3);
  // A candidate that differs only in case or underscores ("ncols" for
  // "n_cols", "BLOCK_m" for "BLOCK_M") is the best guess of all.
  auto normalize = [](std::string_view text) {
    std::string result;
    for (char c : text)
      if (c != '_')
        result += char(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    return result;
  };
  std::string normalizedName = normalize(name);
  for (std::string_view candidate : candidates)
    if (candidate != name && normalize(candidate) == normalizedName)
      return std::string(candidate);

  std::optional<std::string> best;
  unsigned bestDistance = limit + 1;
  for (std::string_view candidate : candidates) {
    if (candidate == name || candidate.empty())
      continue;
    unsigned distance = editDistance(name, candidate, limit);
    if (distance < bestDistance) {
      bestDistance = distance;
      best = std::string(candidate);
    }
  }
  return best;
}

std::optional<std::string>
findClosestName(std::string_view name,
                const std::vector<std::string> &candidates) {
  std::vector<std::string_view> views(candidates.begin(), candidates.end());
  return findClosestName(name, views);
}

std::string didYouMean(std::string_view name,
                       const std::vector<std::string_view> &candidates) {
  if (std::optional<std::string> closest = findClosestName(name, candidates))
    return "; did you mean '" + *closest + "'?";
  return "";
}

std::string didYouMean(std::string_view name,
                       const std::vector<std::string> &candidates) {
  std::vector<std::string_view> views(candidates.begin(), candidates.end());
  return didYouMean(name, views);
}

} // namespace tk
