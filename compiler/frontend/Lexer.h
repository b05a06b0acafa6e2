//===- Lexer.h - tokens of the tk language ----------------------*- C++ -*-===//
//
// Python-style tokenization: the lexer turns leading whitespace into
// INDENT/DEDENT tokens and ends each logical line with NEWLINE. Inside
// (), [] and {} newlines and indentation are ignored (implicit line
// joining), and a backslash at the end of a line joins it with the next.
// Blank and comment-only lines produce no tokens at all.
//
// Indentation: a tab advances to the next multiple of 8; as in CPython, the
// indentation is also measured with tabs counted as 1 and an error is
// reported when the two measures disagree about the block structure
// ("inconsistent use of tabs and spaces in indentation").
//
// Lexical errors throw CompileError at the exact offending character.
//
//===----------------------------------------------------------------------===//

#ifndef TK_COMPILER_FRONTEND_LEXER_H
#define TK_COMPILER_FRONTEND_LEXER_H

#include "compiler/frontend/Diagnostics.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tk {

enum class TokenKind {
  EndOfFile,
  Newline, // end of a logical line
  Indent,
  Dedent,

  Identifier,
  IntLiteral,
  FloatLiteral,
  StringLiteral,

  // keywords
  KwDef, KwIf, KwElif, KwElse, KwFor, KwIn, KwWhile, KwReturn, KwPass, KwAnd,
  KwOr, KwNot, KwTrue, KwFalse, KwNone, KwBreak, KwContinue,

  // operators and punctuation
  Plus, Minus, Star, Slash, DoubleSlash, Percent, DoubleStar, LessLess,
  GreaterGreater, Amp, Pipe, Caret, Tilde, Less, Greater, LessEqual,
  GreaterEqual, EqualEqual, NotEqual, Equal,
  PlusEqual, MinusEqual, StarEqual, SlashEqual, DoubleSlashEqual,
  PercentEqual, DoubleStarEqual, AmpEqual, PipeEqual, CaretEqual,
  LessLessEqual, GreaterGreaterEqual, AtEqual,
  Arrow, Colon, Comma, Dot, Semicolon, LParen, RParen, LBracket, RBracket,
  LBrace, RBrace, At
};

/// How a token kind is named in messages: "'('", "'def'", "end of line",
/// "identifier", "integer literal", ...
const char *getTokenKindName(TokenKind kind);

struct Token {
  TokenKind kind = TokenKind::EndOfFile;
  /// First character; for Newline the end of the line's last token (so that
  /// "expected ':'" points right after the code), for Dedent/EndOfFile the
  /// start of the next line / end of file.
  SourceLoc loc;
  /// One past the last character (same line as loc except for
  /// triple-quoted strings).
  SourceLoc endLoc;
  /// The source text of the token (empty for Newline/Indent/Dedent/EOF);
  /// it points into the SourceFile, which must outlive the token.
  std::string_view spelling;

  uint64_t intValue = 0;    // IntLiteral
  double floatValue = 0.0;  // FloatLiteral
  std::string stringValue;  // StringLiteral (escapes decoded)

  bool is(TokenKind k) const { return kind == k; }
};

/// A token for messages: "identifier 'foo'", "integer literal '42'",
/// "'('", "end of line".
std::string describeToken(const Token &token);

class Lexer {
public:
  explicit Lexer(const SourceFile &file);

  /// The next token; after EndOfFile, keeps returning EndOfFile.
  Token next();

private:
  void scanLineStart();
  void finishInput();
  Token lexToken();
  Token lexNumber(size_t start);
  Token lexString(size_t start);
  Token lexIdentifierOrKeyword(size_t start);
  Token lexOperator(size_t start);
  Token makeToken(TokenKind kind, size_t start, size_t end) const;
  [[noreturn]] void error(size_t offset, std::string message) const;
  char peek(size_t ahead = 0) const;

  const SourceFile &file;
  std::string_view text;
  size_t pos = 0;
  bool atLineStart = true;
  bool reachedEnd = false;
  /// Tokens already decided but not yet returned (INDENT/DEDENTs, the final
  /// NEWLINE), consumed front to back.
  std::vector<Token> pending;
  size_t pendingIndex = 0;
  /// Indentation stack: columns with tabs to multiples of 8, and with tabs
  /// counted as 1 (for the tab consistency check).
  std::vector<unsigned> indents{0};
  std::vector<unsigned> altIndents{0};
  /// Open brackets (offset and character), for implicit line joining and
  /// for "'(' was never closed".
  std::vector<std::pair<size_t, char>> brackets;
  /// Whether the current logical line has produced a token yet.
  bool lineHasTokens = false;
  /// End offset of the last real token, for the location of NEWLINE.
  size_t lastTokenEnd = 0;
};

/// Lexes all of `file`, ending with EndOfFile.
std::vector<Token> tokenize(const SourceFile &file);

/// Open brackets nested deeper than this are an error.
constexpr unsigned kMaxBracketDepth = 200;
/// Indentation levels deeper than this are an error.
constexpr unsigned kMaxIndentDepth = 100;

} // namespace tk

#endif // TK_COMPILER_FRONTEND_LEXER_H
