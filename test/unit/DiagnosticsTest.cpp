//===- DiagnosticsTest.cpp - source files, diagnostics, typo suggestions --===//

#include "compiler/frontend/Diagnostics.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace tk;

namespace {

TEST(SourceFileTest, LineTable) {
  SourceFile file("a.tk", "ab\ncd\r\n\nlast");
  EXPECT_EQ(file.getNumLines(), 4u);
  EXPECT_EQ(file.getLine(1), "ab");
  EXPECT_EQ(file.getLine(2), "cd");
  EXPECT_EQ(file.getLine(3), "");
  EXPECT_EQ(file.getLine(4), "last");
  EXPECT_EQ(file.getLine(0), "");
  EXPECT_EQ(file.getLine(5), "");

  SourceLoc loc = file.getLoc(4); // 'd'
  EXPECT_EQ(loc.file, &file);
  EXPECT_EQ(loc.line, 2u);
  EXPECT_EQ(loc.col, 2u);
  EXPECT_EQ(file.getOffset(loc), 4u);
  EXPECT_EQ(loc.toString(), "a.tk:2:2");

  // The end of the text is a valid location (end of the last line).
  SourceLoc end = file.getLoc(file.getText().size());
  EXPECT_EQ(end.line, 4u);
  EXPECT_EQ(end.col, 5u);
  // Offsets past the end are clamped rather than read out of bounds.
  EXPECT_EQ(file.getLoc(1000).col, 5u);
}

TEST(SourceFileTest, TrailingNewlineDoesNotAddALine) {
  SourceFile file("a.tk", "x\ny\n");
  EXPECT_EQ(file.getNumLines(), 2u);
  SourceFile empty("e.tk", "");
  EXPECT_EQ(empty.getNumLines(), 1u);
  EXPECT_EQ(empty.getLine(1), "");
}

TEST(SourceFileTest, ReadFromMissingFileFails) {
  std::string error;
  EXPECT_EQ(SourceFile::readFromFile("/nonexistent/x.tk", error), nullptr);
  EXPECT_EQ(error, "cannot open '/nonexistent/x.tk'");
}

TEST(DiagnosticTest, FormatsSourceLineAndCaret) {
  SourceFile file("softmax.tk",
                  "def f():\n"
                  "    x = load(in_ptr + cols, mask=maks)\n");
  SourceLoc loc{&file, 2, 34};
  CompileError error(loc, "unknown name 'maks'; did you mean 'mask'?");
  EXPECT_EQ(formatDiagnostic(error),
            "softmax.tk:2:34: error: unknown name 'maks'; did you mean "
            "'mask'?\n"
            "    x = load(in_ptr + cols, mask=maks)\n"
            "                                 ^\n");
  EXPECT_STREQ(error.what(), "softmax.tk:2:34: error: unknown name 'maks'; "
                             "did you mean 'mask'?");
}

TEST(DiagnosticTest, NotesFollowTheError) {
  SourceFile file("k.tk", "def h(x):\n"
                          "    return x + y\n"
                          "def k():\n"
                          "    h(1)\n");
  CompileError error({&file, 2, 16}, "unknown name 'y'");
  error.addNote({&file, 4, 5}, "called from here");
  EXPECT_EQ(formatDiagnostic(error), "k.tk:2:16: error: unknown name 'y'\n"
                                     "    return x + y\n"
                                     "               ^\n"
                                     "k.tk:4:5: note: called from here\n"
                                     "    h(1)\n"
                                     "    ^\n");
}

TEST(DiagnosticTest, CaretKeepsTabsOfTheSourceLine) {
  SourceFile file("t.tk", "\tx = $\n");
  std::ostringstream os;
  printDiagnostic(os, {&file, 1, 6}, DiagSeverity::Error, "bad");
  EXPECT_EQ(os.str(), "t.tk:1:6: error: bad\n"
                      "\tx = $\n"
                      "\t    ^\n");
}

TEST(DiagnosticTest, WhatOutlivesTheSourceFile) {
  std::optional<CompileError> saved;
  {
    SourceFile file("gone.tk", "x\n");
    saved.emplace(SourceLoc{&file, 1, 1}, "oops");
  }
  EXPECT_STREQ(saved->what(), "gone.tk:1:1: error: oops");
}

TEST(DiagnosticTest, SeverityAsString) {
  SourceFile file("w.tk", "abc\n");
  std::ostringstream os;
  printDiagnostic(os, {&file, 1, 2}, "warning", "careful");
  EXPECT_EQ(os.str(), "w.tk:1:2: warning: careful\nabc\n ^\n");
}

TEST(DiagnosticTest, UnknownLocationPrintsOnlyTheMessage) {
  CompileError error(SourceLoc{}, "no kernel named 'foo'");
  EXPECT_EQ(formatDiagnostic(error), "error: no kernel named 'foo'\n");
  SourceFile file("x.tk", "");
  CompileError fileOnly({&file, 0, 0}, "empty file");
  EXPECT_EQ(formatDiagnostic(fileOnly), "x.tk: error: empty file\n");
}

TEST(EditDistanceTest, Basics) {
  EXPECT_EQ(editDistance("mask", "mask"), 0u);
  EXPECT_EQ(editDistance("maks", "mask"), 1u); // transposition
  EXPECT_EQ(editDistance("", "abc"), 3u);
  EXPECT_EQ(editDistance("kitten", "sitting"), 3u);
  EXPECT_EQ(editDistance("load", "store"), 4u);
  // Early exit reports "more than the limit".
  EXPECT_GT(editDistance("abcdefgh", "zyxwvuts", 2), 2u);
}

TEST(EditDistanceTest, SuggestsCloseNamesOnly) {
  std::vector<std::string> names = {"mask", "other", "cols", "n_cols"};
  EXPECT_EQ(findClosestName("maks", names), std::optional<std::string>("mask"));
  EXPECT_EQ(didYouMean("maks", names), "; did you mean 'mask'?");
  EXPECT_EQ(didYouMean("ncols", names), "; did you mean 'n_cols'?");
  EXPECT_EQ(didYouMean("zzz", names), "");
  EXPECT_EQ(didYouMean("BLOCK_m", std::vector<std::string>{"BLOCK_K",
                                                           "BLOCK_M"}),
            "; did you mean 'BLOCK_M'?");
  // A name is never suggested for itself.
  EXPECT_EQ(didYouMean("mask", names), "");
  // Short names need a very close match.
  EXPECT_EQ(didYouMean("ab", std::vector<std::string>{"xy"}), "");
  std::vector<std::string_view> builtins = {"arange", "program_id", "load"};
  EXPECT_EQ(didYouMean("program_di", builtins), "; did you mean 'program_id'?");
}

} // namespace
