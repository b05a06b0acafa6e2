//===- LexerTest.cpp - tokens, indentation, lexical errors ----------------===//

#include "compiler/frontend/Lexer.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace tk;

namespace {

/// The tokens of `source` in a compact form: keywords and operators by
/// spelling, "ID:x", "INT:42", "FLOAT:0.5", "STR:text", "NL", "INDENT",
/// "DEDENT", "EOF".
std::string lex(const std::string &source) {
  SourceFile file("test.tk", source);
  std::ostringstream os;
  bool first = true;
  for (const Token &token : tokenize(file)) {
    if (!first)
      os << ' ';
    first = false;
    switch (token.kind) {
    case TokenKind::Identifier: os << "ID:" << token.spelling; break;
    case TokenKind::IntLiteral: os << "INT:" << token.intValue; break;
    case TokenKind::FloatLiteral: os << "FLOAT:" << token.floatValue; break;
    case TokenKind::StringLiteral: os << "STR:" << token.stringValue; break;
    case TokenKind::Newline: os << "NL"; break;
    case TokenKind::Indent: os << "INDENT"; break;
    case TokenKind::Dedent: os << "DEDENT"; break;
    case TokenKind::EndOfFile: os << "EOF"; break;
    default: os << token.spelling; break;
    }
  }
  return os.str();
}

struct LexError {
  unsigned line = 0, col = 0;
  std::string message;
};

/// Lexes `source`, which must fail; returns where and why.
LexError lexError(const std::string &source) {
  SourceFile file("test.tk", source);
  try {
    tokenize(file);
  } catch (const CompileError &error) {
    EXPECT_EQ(error.loc.file, &file);
    return {error.loc.line, error.loc.col, error.message};
  }
  ADD_FAILURE() << "expected a lexical error in:\n" << source;
  return {};
}

#define EXPECT_LEX_ERROR(source, LINE, COL, MESSAGE)                           \
  do {                                                                         \
    LexError e = lexError(source);                                             \
    EXPECT_EQ(e.line, LINE##u);                                                \
    EXPECT_EQ(e.col, COL##u);                                                  \
    EXPECT_EQ(e.message, MESSAGE);                                             \
  } while (0)

TEST(LexerTest, EmptyAndBlankInputs) {
  EXPECT_EQ(lex(""), "EOF");
  EXPECT_EQ(lex("\n\n  \n# just a comment\n   # indented comment"), "EOF");
}

TEST(LexerTest, SimpleStatement) {
  EXPECT_EQ(lex("x = a + 1"), "ID:x = ID:a + INT:1 NL EOF");
  EXPECT_EQ(lex("x = a + 1\n"), "ID:x = ID:a + INT:1 NL EOF");
}

TEST(LexerTest, IndentAndDedent) {
  EXPECT_EQ(lex("def f(x):\n"
                "    if x:\n"
                "        return 1\n"
                "\n"
                "    # comment at another indentation\n"
                "  # and another\n"
                "    return 2\n"
                "def g():\n"
                "    pass\n"),
            "def ID:f ( ID:x ) : NL INDENT if ID:x : NL INDENT return INT:1 "
            "NL DEDENT return INT:2 NL DEDENT def ID:g ( ) : NL INDENT pass NL "
            "DEDENT EOF");
}

TEST(LexerTest, DedentsAtEndOfFileWithoutNewline) {
  EXPECT_EQ(lex("if a:\n  if b:\n    c"),
            "if ID:a : NL INDENT if ID:b : NL INDENT ID:c NL DEDENT DEDENT EOF");
}

TEST(LexerTest, MultipleDedentsAtOnce) {
  EXPECT_EQ(lex("a\n b\n  c\nd\n"),
            "ID:a NL INDENT ID:b NL INDENT ID:c NL DEDENT DEDENT ID:d NL EOF");
}

TEST(LexerTest, ImplicitLineJoiningInsideBrackets) {
  EXPECT_EQ(lex("f(a,\n"
                "      b,  # comment\n"
                "\n"
                "  [c,\n"
                "   {d}])\n"
                "x"),
            "ID:f ( ID:a , ID:b , [ ID:c , { ID:d } ] ) NL ID:x NL EOF");
}

TEST(LexerTest, BackslashContinuation) {
  EXPECT_EQ(lex("x = a + \\\n        b\ny"),
            "ID:x = ID:a + ID:b NL ID:y NL EOF");
  EXPECT_EQ(lex("x = a + \\\r\n  b\r\n"), "ID:x = ID:a + ID:b NL EOF");
}

TEST(LexerTest, CrLfLineEndings) {
  EXPECT_EQ(lex("if a:\r\n    b\r\n"),
            "if ID:a : NL INDENT ID:b NL DEDENT EOF");
}

TEST(LexerTest, TabsIndentToMultiplesOfEight) {
  // A tab and eight spaces are the same indentation... but mixing them in
  // a way that depends on the tab width is an error (below).
  EXPECT_EQ(lex("if a:\n\tb\n\tc\n"),
            "if ID:a : NL INDENT ID:b NL ID:c NL DEDENT EOF");
}

TEST(LexerTest, Keywords) {
  EXPECT_EQ(lex("def if elif else for in while return pass and or not True "
                "False None break continue"),
            "def if elif else for in while return pass and or not True False "
            "None break continue NL EOF");
  // Keywords are case-sensitive and only whole words.
  EXPECT_EQ(lex("true none iff define"),
            "ID:true ID:none ID:iff ID:define NL EOF");
}

TEST(LexerTest, Operators) {
  EXPECT_EQ(lex("+ - * / // % ** << >> & | ^ ~ < > <= >= == != = += -= *= "
                "/= //= %= &= |= ^= <<= >>= **= -> : , . ( ) [ ] @ ;"),
            "+ - * / // % ** << >> & | ^ ~ < > <= >= == != = += -= *= /= //= "
            "%= &= |= ^= <<= >>= **= -> : , . ( ) [ ] @ ; NL EOF");
  // Longest match without spaces.
  EXPECT_EQ(lex("a**-b//c<<=d->e"),
            "ID:a ** - ID:b // ID:c <<= ID:d -> ID:e NL EOF");
}

TEST(LexerTest, IntegerLiterals) {
  EXPECT_EQ(lex("0 42 1_000_000 0x1F 0XfF 0b101 0B1_0 0o17 0x_ff 000"),
            "INT:0 INT:42 INT:1000000 INT:31 INT:255 INT:5 INT:2 INT:15 "
            "INT:255 INT:0 NL EOF");
  EXPECT_EQ(lex("18446744073709551615 0xffffffffffffffff"),
            "INT:18446744073709551615 INT:18446744073709551615 NL EOF");
}

TEST(LexerTest, FloatLiterals) {
  SourceFile file("f.tk", "1.0 1e-6 .5 1. 2.5E+3 1_0.2_5 0.0 1.e2 00.5");
  std::vector<Token> tokens = tokenize(file);
  std::vector<double> expected = {1.0,   1e-6, 0.5, 1.0, 2500.0,
                                  10.25, 0.0,  100, 0.5};
  ASSERT_EQ(tokens.size(), expected.size() + 2); // + NL, EOF
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(tokens[i].kind, TokenKind::FloatLiteral) << i;
    EXPECT_DOUBLE_EQ(tokens[i].floatValue, expected[i]) << i;
  }
}

TEST(LexerTest, NumbersNextToOperators) {
  EXPECT_EQ(lex("x[1:2]"), "ID:x [ INT:1 : INT:2 ] NL EOF");
  EXPECT_EQ(lex("a.b(1).c"), "ID:a . ID:b ( INT:1 ) . ID:c NL EOF");
  EXPECT_EQ(lex("1-2"), "INT:1 - INT:2 NL EOF");
}

TEST(LexerTest, StringLiterals) {
  EXPECT_EQ(lex("'abc' \"d'e\" 'x\\ty\\n' \"q\\\"\\\\\" '\\x41'"),
            "STR:abc STR:d'e STR:x\ty\n STR:q\"\\ STR:A NL EOF");
  EXPECT_EQ(lex("\"\"\"doc\nstring \"quoted\" \"\"\" x"),
            "STR:doc\nstring \"quoted\"  ID:x NL EOF");
  EXPECT_EQ(lex("''"), "STR: NL EOF");
}

TEST(LexerTest, TokenLocations) {
  SourceFile file("loc.tk", "def f():\n    x = 1  # c\n");
  std::vector<Token> tokens = tokenize(file);
  // def f ( ) : NL INDENT x = 1 NL DEDENT EOF
  ASSERT_EQ(tokens.size(), 13u);
  EXPECT_EQ(tokens[1].loc.line, 1u);
  EXPECT_EQ(tokens[1].loc.col, 5u);
  EXPECT_EQ(tokens[1].endLoc.col, 6u);
  // NEWLINE sits right after the last token of its line (for "expected
  // ':'"-style errors), not at the comment.
  EXPECT_EQ(tokens[5].kind, TokenKind::Newline);
  EXPECT_EQ(tokens[5].loc.line, 1u);
  EXPECT_EQ(tokens[5].loc.col, 9u);
  EXPECT_EQ(tokens[6].kind, TokenKind::Indent);
  EXPECT_EQ(tokens[6].loc.line, 2u);
  EXPECT_EQ(tokens[6].loc.col, 5u);
  EXPECT_EQ(tokens[9].kind, TokenKind::IntLiteral);
  EXPECT_EQ(tokens[9].loc.col, 9u);
  EXPECT_EQ(tokens[9].spelling, "1");
  EXPECT_EQ(tokens[10].kind, TokenKind::Newline);
  EXPECT_EQ(tokens[10].loc.col, 10u);
}

TEST(LexerTest, DescribeToken) {
  SourceFile file("d.tk", "foo 42 ( \"s\" )");
  std::vector<Token> tokens = tokenize(file);
  EXPECT_EQ(describeToken(tokens[0]), "identifier 'foo'");
  EXPECT_EQ(describeToken(tokens[1]), "integer literal '42'");
  EXPECT_EQ(describeToken(tokens[2]), "'('");
  EXPECT_EQ(describeToken(tokens[3]), "string literal");
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

TEST(LexerErrorTest, UnterminatedStrings) {
  EXPECT_LEX_ERROR("x = 'abc\ny = 1\n", 1, 5, "unterminated string literal");
  EXPECT_LEX_ERROR("x = \"abc", 1, 5, "unterminated string literal");
  EXPECT_LEX_ERROR("a\n  b = \"\"\"abc\n\n", 2, 7,
                   "unterminated triple-quoted string literal");
  EXPECT_LEX_ERROR("x = 'ab\\", 1, 5, "unterminated string literal");
}

TEST(LexerErrorTest, BadEscapes) {
  EXPECT_LEX_ERROR("x = 'a\\qb'", 1, 7, "invalid escape sequence '\\q'");
  EXPECT_LEX_ERROR("x = 'a\\x4'", 1, 7,
                   "invalid '\\x' escape: expected two hexadecimal digits");
}

TEST(LexerErrorTest, BadCharacters) {
  EXPECT_LEX_ERROR("x = a $ b", 1, 7, "invalid character '$'");
  EXPECT_LEX_ERROR("x = a ? b", 1, 7, "invalid character '?'");
  EXPECT_LEX_ERROR("def f():\n    y = `x`", 2, 9, "invalid character '`'");
  EXPECT_LEX_ERROR("x = !a", 1, 5,
                   "invalid character '!'; use 'not' for logical negation");
  EXPECT_LEX_ERROR("x = \xc3\xa9", 1, 5,
                   "invalid character '\xc3\xa9' (U+00E9)");
  EXPECT_LEX_ERROR("ab\xc3\xa9 = 1", 1, 3,
                   "invalid character '\xc3\xa9' (U+00E9) in identifier");
  EXPECT_LEX_ERROR(std::string("x = \x01"), 1, 5, "invalid character U+0001");
  EXPECT_LEX_ERROR(std::string("x = \xff"), 1, 5,
                   "invalid character byte 0xFF");
  EXPECT_LEX_ERROR(std::string("x = 1\0", 6), 1, 6,
                   "invalid character U+0000");
}

TEST(LexerErrorTest, BadNumbers) {
  EXPECT_LEX_ERROR("x = 12abc", 1, 7, "invalid decimal literal");
  EXPECT_LEX_ERROR("x = 1__0", 1, 6, "invalid decimal literal");
  EXPECT_LEX_ERROR("x = 10_", 1, 7, "invalid decimal literal");
  EXPECT_LEX_ERROR("x = 1e+", 1, 6,
                   "invalid decimal literal: exponent has no digits");
  EXPECT_LEX_ERROR("x = 0x", 1, 7, "invalid hexadecimal literal");
  EXPECT_LEX_ERROR("x = 0x1g", 1, 8, "invalid digit 'g' in hexadecimal literal");
  EXPECT_LEX_ERROR("x = 0b102", 1, 9, "invalid digit '2' in binary literal");
  EXPECT_LEX_ERROR("x = 0o8", 1, 7, "invalid digit '8' in octal literal");
  EXPECT_LEX_ERROR("x = 0x1__2", 1, 8, "invalid hexadecimal literal");
  EXPECT_LEX_ERROR("x = 007", 1, 5,
                   "leading zeros in decimal integer literals are not "
                   "permitted; use an 0o prefix for octal integers");
  EXPECT_LEX_ERROR("x = 18446744073709551616", 1, 5,
                   "integer literal is too large to be represented in 64 "
                   "bits");
  EXPECT_LEX_ERROR("x = 0x10000000000000000", 1, 5,
                   "integer literal is too large to be represented in 64 "
                   "bits");
  EXPECT_LEX_ERROR("x = 1e999", 1, 5,
                   "floating-point literal is out of the range of f64");
  EXPECT_LEX_ERROR("x = 1.5abc", 1, 8, "invalid decimal literal");
}

TEST(LexerErrorTest, BadIndentation) {
  EXPECT_LEX_ERROR("if a:\n    b\n  c\n", 3, 3,
                   "unindent does not match any outer indentation level");
  EXPECT_LEX_ERROR("if a:\n        b\n\tc\n", 3, 2,
                   "inconsistent use of tabs and spaces in indentation");
  EXPECT_LEX_ERROR("if a:\n    \tb\n\tc\n", 3, 2,
                   "inconsistent use of tabs and spaces in indentation");
  std::string deep;
  for (int i = 0; i <= 101; ++i)
    deep += std::string(i, ' ') + "if x:\n";
  EXPECT_LEX_ERROR(deep, 102, 102, "too many levels of indentation");
}

TEST(LexerErrorTest, Brackets) {
  EXPECT_LEX_ERROR("x = f(a,\n  b\n", 1, 6, "'(' was never closed");
  EXPECT_LEX_ERROR("x = a)", 1, 6, "unmatched ')'");
  EXPECT_LEX_ERROR("x = [a)", 1, 7,
                   "closing parenthesis ')' does not match opening "
                   "parenthesis '['");
  EXPECT_LEX_ERROR(std::string(201, '(') + std::string(201, ')'), 1, 201,
                   "too many nested parentheses");
  // 200 levels are fine.
  EXPECT_NO_THROW(lex(std::string(200, '[') + std::string(200, ']')));
}

TEST(LexerErrorTest, MismatchedBracketHasANote) {
  SourceFile file("n.tk", "x = (a,\n     b]\n");
  try {
    tokenize(file);
    FAIL() << "expected an error";
  } catch (const CompileError &error) {
    ASSERT_EQ(error.notes.size(), 1u);
    EXPECT_EQ(error.notes[0].loc.line, 1u);
    EXPECT_EQ(error.notes[0].loc.col, 5u);
    EXPECT_EQ(error.notes[0].message, "opening parenthesis is here");
  }
}

TEST(LexerErrorTest, LineContinuation) {
  EXPECT_LEX_ERROR("x = a \\ b", 1, 7,
                   "unexpected character after line continuation character");
  EXPECT_LEX_ERROR("x = a \\", 1, 7,
                   "unexpected end of file after line continuation "
                   "character");
}

} // namespace
