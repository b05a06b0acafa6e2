//===- Lexer.cpp - tokens of the tk language ------------------------------===//

#include "compiler/frontend/Lexer.h"

#include <charconv>
#include <cstdio>

namespace tk {

//===----------------------------------------------------------------------===//
// Token names
//===----------------------------------------------------------------------===//

const char *getTokenKindName(TokenKind kind) {
  switch (kind) {
  case TokenKind::EndOfFile: return "end of file";
  case TokenKind::Newline: return "end of line";
  case TokenKind::Indent: return "indent";
  case TokenKind::Dedent: return "dedent";
  case TokenKind::Identifier: return "identifier";
  case TokenKind::IntLiteral: return "integer literal";
  case TokenKind::FloatLiteral: return "floating-point literal";
  case TokenKind::StringLiteral: return "string literal";
  case TokenKind::KwDef: return "'def'";
  case TokenKind::KwIf: return "'if'";
  case TokenKind::KwElif: return "'elif'";
  case TokenKind::KwElse: return "'else'";
  case TokenKind::KwFor: return "'for'";
  case TokenKind::KwIn: return "'in'";
  case TokenKind::KwWhile: return "'while'";
  case TokenKind::KwReturn: return "'return'";
  case TokenKind::KwPass: return "'pass'";
  case TokenKind::KwAnd: return "'and'";
  case TokenKind::KwOr: return "'or'";
  case TokenKind::KwNot: return "'not'";
  case TokenKind::KwTrue: return "'True'";
  case TokenKind::KwFalse: return "'False'";
  case TokenKind::KwNone: return "'None'";
  case TokenKind::KwBreak: return "'break'";
  case TokenKind::KwContinue: return "'continue'";
  case TokenKind::Plus: return "'+'";
  case TokenKind::Minus: return "'-'";
  case TokenKind::Star: return "'*'";
  case TokenKind::Slash: return "'/'";
  case TokenKind::DoubleSlash: return "'//'";
  case TokenKind::Percent: return "'%'";
  case TokenKind::DoubleStar: return "'**'";
  case TokenKind::LessLess: return "'<<'";
  case TokenKind::GreaterGreater: return "'>>'";
  case TokenKind::Amp: return "'&'";
  case TokenKind::Pipe: return "'|'";
  case TokenKind::Caret: return "'^'";
  case TokenKind::Tilde: return "'~'";
  case TokenKind::Less: return "'<'";
  case TokenKind::Greater: return "'>'";
  case TokenKind::LessEqual: return "'<='";
  case TokenKind::GreaterEqual: return "'>='";
  case TokenKind::EqualEqual: return "'=='";
  case TokenKind::NotEqual: return "'!='";
  case TokenKind::Equal: return "'='";
  case TokenKind::PlusEqual: return "'+='";
  case TokenKind::MinusEqual: return "'-='";
  case TokenKind::StarEqual: return "'*='";
  case TokenKind::SlashEqual: return "'/='";
  case TokenKind::DoubleSlashEqual: return "'//='";
  case TokenKind::PercentEqual: return "'%='";
  case TokenKind::DoubleStarEqual: return "'**='";
  case TokenKind::AmpEqual: return "'&='";
  case TokenKind::PipeEqual: return "'|='";
  case TokenKind::CaretEqual: return "'^='";
  case TokenKind::LessLessEqual: return "'<<='";
  case TokenKind::GreaterGreaterEqual: return "'>>='";
  case TokenKind::AtEqual: return "'@='";
  case TokenKind::Arrow: return "'->'";
  case TokenKind::Colon: return "':'";
  case TokenKind::Comma: return "','";
  case TokenKind::Dot: return "'.'";
  case TokenKind::Semicolon: return "';'";
  case TokenKind::LParen: return "'('";
  case TokenKind::RParen: return "')'";
  case TokenKind::LBracket: return "'['";
  case TokenKind::RBracket: return "']'";
  case TokenKind::LBrace: return "'{'";
  case TokenKind::RBrace: return "'}'";
  case TokenKind::At: return "'@'";
  }
  return "token";
}

std::string describeToken(const Token &token) {
  switch (token.kind) {
  case TokenKind::Identifier:
  case TokenKind::IntLiteral:
  case TokenKind::FloatLiteral:
    return std::string(getTokenKindName(token.kind)) + " '" +
           std::string(token.spelling) + "'";
  default:
    return getTokenKindName(token.kind);
  }
}

//===----------------------------------------------------------------------===//
// Character helpers
//===----------------------------------------------------------------------===//

static bool isIdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static bool isDigit(char c) { return c >= '0' && c <= '9'; }
static bool isIdentChar(char c) { return isIdentStart(c) || isDigit(c); }

/// The value of `c` as a digit in `radix`, or -1.
static int digitValue(char c, unsigned radix) {
  int value = -1;
  if (c >= '0' && c <= '9')
    value = c - '0';
  else if (c >= 'a' && c <= 'z')
    value = c - 'a' + 10;
  else if (c >= 'A' && c <= 'Z')
    value = c - 'A' + 10;
  return value >= 0 && unsigned(value) < radix ? value : -1;
}

/// Describes the (possibly multi-byte UTF-8) character at text[pos] for an
/// "invalid character" message: "'$'" or "'é' (U+00E9)" or "U+0001".
static std::string describeCharAt(std::string_view text, size_t pos) {
  unsigned char c = static_cast<unsigned char>(text[pos]);
  char buffer[16];
  if (c >= 0x20 && c < 0x7f)
    return std::string("'") + char(c) + "'";
  if (c < 0x80) {
    std::snprintf(buffer, sizeof(buffer), "U+%04X", unsigned(c));
    return buffer;
  }
  // Decode a UTF-8 sequence, if it is a valid one.
  unsigned length = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 0;
  if (length == 0 || pos + length > text.size()) {
    std::snprintf(buffer, sizeof(buffer), "byte 0x%02X", unsigned(c));
    return buffer;
  }
  uint32_t codePoint = c & (0xff >> (length + 1));
  for (unsigned i = 1; i < length; ++i) {
    unsigned char next = static_cast<unsigned char>(text[pos + i]);
    if ((next & 0xc0) != 0x80) {
      std::snprintf(buffer, sizeof(buffer), "byte 0x%02X", unsigned(c));
      return buffer;
    }
    codePoint = (codePoint << 6) | (next & 0x3f);
  }
  std::snprintf(buffer, sizeof(buffer), "U+%04X", unsigned(codePoint));
  return "'" + std::string(text.substr(pos, length)) + "' (" + buffer + ")";
}

//===----------------------------------------------------------------------===//
// Lexer
//===----------------------------------------------------------------------===//

Lexer::Lexer(const SourceFile &file) : file(file), text(file.getText()) {}

char Lexer::peek(size_t ahead) const {
  return pos + ahead < text.size() ? text[pos + ahead] : '\0';
}

void Lexer::error(size_t offset, std::string message) const {
  throw CompileError(file.getLoc(offset), std::move(message));
}

Token Lexer::makeToken(TokenKind kind, size_t start, size_t end) const {
  Token token;
  token.kind = kind;
  token.loc = file.getLoc(start);
  token.endLoc = file.getLoc(end);
  token.spelling = text.substr(start, end - start);
  return token;
}

Token Lexer::next() {
  while (pendingIndex >= pending.size()) {
    pending.clear();
    pendingIndex = 0;
    if (reachedEnd)
      return makeToken(TokenKind::EndOfFile, lastTokenEnd, lastTokenEnd);

    if (atLineStart) {
      atLineStart = false;
      scanLineStart();
      continue;
    }

    // Skip whitespace between tokens.
    while (pos < text.size() &&
           (text[pos] == ' ' || text[pos] == '\t' || text[pos] == '\f' ||
            (text[pos] == '\r' && peek(1) == '\n')))
      ++pos;

    if (pos >= text.size()) {
      finishInput();
      continue;
    }

    char c = text[pos];
    if (c == '#') {
      while (pos < text.size() && text[pos] != '\n')
        ++pos;
      continue;
    }
    if (c == '\n') {
      ++pos;
      if (!brackets.empty())
        continue; // implicit line joining
      if (lineHasTokens)
        pending.push_back(
            makeToken(TokenKind::Newline, lastTokenEnd, lastTokenEnd));
      lineHasTokens = false;
      atLineStart = true;
      continue;
    }
    if (c == '\\') {
      if (peek(1) == '\n') {
        pos += 2;
        continue;
      }
      if (peek(1) == '\r' && peek(2) == '\n') {
        pos += 3;
        continue;
      }
      if (pos + 1 >= text.size())
        error(pos, "unexpected end of file after line continuation "
                   "character");
      error(pos, "unexpected character after line continuation character");
    }

    Token token = lexToken();
    lineHasTokens = true;
    lastTokenEnd = pos;
    pending.push_back(std::move(token));
  }
  return std::move(pending[pendingIndex++]);
}

void Lexer::scanLineStart() {
  while (true) {
    unsigned col = 0, altCol = 0;
    while (pos < text.size()) {
      char c = text[pos];
      if (c == ' ') {
        ++col;
        ++altCol;
      } else if (c == '\t') {
        col = (col / 8 + 1) * 8;
        ++altCol;
      } else if (c == '\f') {
        col = altCol = 0;
      } else {
        break;
      }
      ++pos;
    }
    if (pos >= text.size())
      return; // the main loop finishes the input

    char c = text[pos];
    if (c == '#') {
      while (pos < text.size() && text[pos] != '\n')
        ++pos;
      if (pos < text.size())
        ++pos;
      continue; // comment-only line
    }
    if (c == '\n') {
      ++pos;
      continue; // blank line
    }
    if (c == '\r' && peek(1) == '\n') {
      pos += 2;
      continue;
    }

    // A line with code: compare its indentation with the enclosing blocks.
    const char *tabError = "inconsistent use of tabs and spaces in "
                           "indentation";
    if (col == indents.back()) {
      if (altCol != altIndents.back())
        error(pos, tabError);
    } else if (col > indents.back()) {
      if (altCol <= altIndents.back())
        error(pos, tabError);
      if (indents.size() > kMaxIndentDepth)
        error(pos, "too many levels of indentation");
      indents.push_back(col);
      altIndents.push_back(altCol);
      pending.push_back(makeToken(TokenKind::Indent, pos, pos));
    } else {
      while (col < indents.back()) {
        indents.pop_back();
        altIndents.pop_back();
        pending.push_back(makeToken(TokenKind::Dedent, pos, pos));
      }
      if (col != indents.back())
        error(pos, "unindent does not match any outer indentation level");
      if (altCol != altIndents.back())
        error(pos, tabError);
    }
    return;
  }
}

void Lexer::finishInput() {
  if (!brackets.empty()) {
    auto [offset, bracket] = brackets.back();
    error(offset, std::string("'") + bracket + "' was never closed");
  }
  if (lineHasTokens)
    pending.push_back(
        makeToken(TokenKind::Newline, lastTokenEnd, lastTokenEnd));
  lineHasTokens = false;
  while (indents.size() > 1) {
    indents.pop_back();
    altIndents.pop_back();
    pending.push_back(makeToken(TokenKind::Dedent, lastTokenEnd, lastTokenEnd));
  }
  pending.push_back(
      makeToken(TokenKind::EndOfFile, lastTokenEnd, lastTokenEnd));
  reachedEnd = true;
}

Token Lexer::lexToken() {
  size_t start = pos;
  char c = text[pos];
  if (isIdentStart(c))
    return lexIdentifierOrKeyword(start);
  if (isDigit(c) || (c == '.' && isDigit(peek(1))))
    return lexNumber(start);
  if (c == '"' || c == '\'')
    return lexString(start);
  return lexOperator(start);
}

Token Lexer::lexIdentifierOrKeyword(size_t start) {
  while (pos < text.size() && isIdentChar(text[pos]))
    ++pos;
  if (pos < text.size() && static_cast<unsigned char>(text[pos]) >= 0x80)
    error(pos, "invalid character " + describeCharAt(text, pos) +
                   " in identifier");
  static const std::pair<std::string_view, TokenKind> keywords[] = {
      {"def", TokenKind::KwDef},       {"if", TokenKind::KwIf},
      {"elif", TokenKind::KwElif},     {"else", TokenKind::KwElse},
      {"for", TokenKind::KwFor},       {"in", TokenKind::KwIn},
      {"while", TokenKind::KwWhile},   {"return", TokenKind::KwReturn},
      {"pass", TokenKind::KwPass},     {"and", TokenKind::KwAnd},
      {"or", TokenKind::KwOr},         {"not", TokenKind::KwNot},
      {"True", TokenKind::KwTrue},     {"False", TokenKind::KwFalse},
      {"None", TokenKind::KwNone},     {"break", TokenKind::KwBreak},
      {"continue", TokenKind::KwContinue},
  };
  std::string_view word = text.substr(start, pos - start);
  TokenKind kind = TokenKind::Identifier;
  for (const auto &[spelling, keywordKind] : keywords)
    if (word == spelling)
      kind = keywordKind;
  return makeToken(kind, start, pos);
}

Token Lexer::lexNumber(size_t start) {
  // Integers with a radix prefix: 0x1f, 0o17, 0b101 (underscores allowed
  // between digits and right after the prefix, as in Python).
  if (text[pos] == '0' &&
      (peek(1) == 'x' || peek(1) == 'X' || peek(1) == 'o' || peek(1) == 'O' ||
       peek(1) == 'b' || peek(1) == 'B')) {
    char prefix = char(peek(1) | 0x20);
    unsigned radix = prefix == 'x' ? 16 : prefix == 'o' ? 8 : 2;
    const char *what = radix == 16  ? "hexadecimal"
                       : radix == 8 ? "octal"
                                    : "binary";
    pos += 2;
    uint64_t value = 0;
    bool overflow = false, sawDigit = false;
    while (pos < text.size() && isIdentChar(text[pos])) {
      char c = text[pos];
      if (c == '_') {
        if (!isIdentChar(peek(1)) || peek(1) == '_')
          error(pos, std::string("invalid ") + what + " literal");
        ++pos;
        continue;
      }
      int digit = digitValue(c, radix);
      if (digit < 0)
        error(pos, std::string("invalid digit '") + c + "' in " + what +
                       " literal");
      if (value > (UINT64_MAX - uint64_t(digit)) / radix)
        overflow = true;
      value = value * radix + uint64_t(digit);
      sawDigit = true;
      ++pos;
    }
    if (!sawDigit)
      error(pos, std::string("invalid ") + what + " literal");
    if (overflow)
      error(start, "integer literal is too large to be represented in 64 "
                   "bits");
    Token token = makeToken(TokenKind::IntLiteral, start, pos);
    token.intValue = value;
    return token;
  }

  // Decimal: digitpart ['.' [digitpart]] [exponent] or '.' digitpart ...
  auto scanDigitPart = [&]() {
    while (pos < text.size() && isDigit(text[pos])) {
      ++pos;
      if (peek() == '_') {
        if (!isDigit(peek(1)))
          error(pos, "invalid decimal literal");
        ++pos;
      }
    }
  };
  bool isFloat = false;
  scanDigitPart();
  if (peek() == '.') {
    isFloat = true;
    ++pos;
    if (isDigit(peek()))
      scanDigitPart();
  }
  if (peek() == 'e' || peek() == 'E') {
    size_t exponentStart = pos;
    ++pos;
    if (peek() == '+' || peek() == '-')
      ++pos;
    if (!isDigit(peek()))
      error(exponentStart, "invalid decimal literal: exponent has no digits");
    scanDigitPart();
    isFloat = true;
  }
  if (pos < text.size() && isIdentChar(text[pos]))
    error(pos, "invalid decimal literal");

  std::string digits;
  for (char c : text.substr(start, pos - start))
    if (c != '_')
      digits += c;

  if (isFloat) {
    double value = 0;
    auto [end, ec] =
        std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (ec == std::errc::result_out_of_range)
      error(start, "floating-point literal is out of the range of f64");
    if (ec != std::errc() || end != digits.data() + digits.size())
      error(start, "invalid floating-point literal");
    Token token = makeToken(TokenKind::FloatLiteral, start, pos);
    token.floatValue = value;
    return token;
  }

  if (digits.size() > 1 && digits[0] == '0') {
    if (digits.find_first_not_of('0') != std::string::npos)
      error(start, "leading zeros in decimal integer literals are not "
                   "permitted; use an 0o prefix for octal integers");
  }
  uint64_t value = 0;
  auto [end, ec] =
      std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec == std::errc::result_out_of_range)
    error(start, "integer literal is too large to be represented in 64 bits");
  if (ec != std::errc() || end != digits.data() + digits.size())
    error(start, "invalid decimal literal");
  Token token = makeToken(TokenKind::IntLiteral, start, pos);
  token.intValue = value;
  return token;
}

Token Lexer::lexString(size_t start) {
  char quote = text[pos];
  bool triple = peek(1) == quote && peek(2) == quote;
  pos += triple ? 3 : 1;
  std::string value;
  while (true) {
    if (pos >= text.size())
      error(start, triple ? "unterminated triple-quoted string literal"
                          : "unterminated string literal");
    char c = text[pos];
    if (c == quote) {
      if (!triple) {
        ++pos;
        break;
      }
      if (peek(1) == quote && peek(2) == quote) {
        pos += 3;
        break;
      }
      value += c;
      ++pos;
      continue;
    }
    if (c == '\n' && !triple)
      error(start, "unterminated string literal");
    if (c == '\r' && !triple && peek(1) == '\n')
      error(start, "unterminated string literal");
    if (c != '\\') {
      value += c;
      ++pos;
      continue;
    }
    // Escape sequences.
    size_t escapeStart = pos;
    char e = peek(1);
    pos += 2;
    switch (e) {
    case 'n': value += '\n'; break;
    case 't': value += '\t'; break;
    case 'r': value += '\r'; break;
    case '0': value += '\0'; break;
    case 'a': value += '\a'; break;
    case 'b': value += '\b'; break;
    case 'f': value += '\f'; break;
    case 'v': value += '\v'; break;
    case '\\': value += '\\'; break;
    case '\'': value += '\''; break;
    case '"': value += '"'; break;
    case '\n': break; // backslash-newline continues the string
    case 'x': {
      int high = digitValue(peek(), 16), low = digitValue(peek(1), 16);
      if (high < 0 || low < 0)
        error(escapeStart, "invalid '\\x' escape: expected two hexadecimal "
                           "digits");
      value += char(high * 16 + low);
      pos += 2;
      break;
    }
    case '\0':
      if (escapeStart + 1 >= text.size())
        error(start, triple ? "unterminated triple-quoted string literal"
                            : "unterminated string literal");
      [[fallthrough]];
    default:
      if (e == '\r' && peek() == '\n') {
        ++pos; // backslash-CRLF continues the string
        break;
      }
      error(escapeStart, "invalid escape sequence '\\" +
                             (static_cast<unsigned char>(e) >= 0x20 &&
                                      static_cast<unsigned char>(e) < 0x7f
                                  ? std::string(1, e)
                                  : std::string("?")) +
                             "'");
    }
  }
  Token token = makeToken(TokenKind::StringLiteral, start, pos);
  token.stringValue = std::move(value);
  return token;
}

Token Lexer::lexOperator(size_t start) {
  struct Operator {
    std::string_view spelling;
    TokenKind kind;
  };
  // Longest first, so that the first match is the longest match.
  static const Operator operators[] = {
      {"**=", TokenKind::DoubleStarEqual},
      {"//=", TokenKind::DoubleSlashEqual},
      {"<<=", TokenKind::LessLessEqual},
      {">>=", TokenKind::GreaterGreaterEqual},
      {"**", TokenKind::DoubleStar},
      {"//", TokenKind::DoubleSlash},
      {"<<", TokenKind::LessLess},
      {">>", TokenKind::GreaterGreater},
      {"<=", TokenKind::LessEqual},
      {">=", TokenKind::GreaterEqual},
      {"==", TokenKind::EqualEqual},
      {"!=", TokenKind::NotEqual},
      {"+=", TokenKind::PlusEqual},
      {"-=", TokenKind::MinusEqual},
      {"*=", TokenKind::StarEqual},
      {"/=", TokenKind::SlashEqual},
      {"%=", TokenKind::PercentEqual},
      {"&=", TokenKind::AmpEqual},
      {"|=", TokenKind::PipeEqual},
      {"^=", TokenKind::CaretEqual},
      {"@=", TokenKind::AtEqual},
      {"->", TokenKind::Arrow},
      {"+", TokenKind::Plus},
      {"-", TokenKind::Minus},
      {"*", TokenKind::Star},
      {"/", TokenKind::Slash},
      {"%", TokenKind::Percent},
      {"&", TokenKind::Amp},
      {"|", TokenKind::Pipe},
      {"^", TokenKind::Caret},
      {"~", TokenKind::Tilde},
      {"<", TokenKind::Less},
      {">", TokenKind::Greater},
      {"=", TokenKind::Equal},
      {":", TokenKind::Colon},
      {",", TokenKind::Comma},
      {".", TokenKind::Dot},
      {";", TokenKind::Semicolon},
      {"(", TokenKind::LParen},
      {")", TokenKind::RParen},
      {"[", TokenKind::LBracket},
      {"]", TokenKind::RBracket},
      {"{", TokenKind::LBrace},
      {"}", TokenKind::RBrace},
      {"@", TokenKind::At},
  };
  std::string_view rest = text.substr(pos);
  for (const Operator &op : operators) {
    if (rest.substr(0, op.spelling.size()) != op.spelling)
      continue;
    pos += op.spelling.size();
    char c = op.spelling[0];
    if (op.spelling.size() == 1 && (c == '(' || c == '[' || c == '{')) {
      if (brackets.size() >= kMaxBracketDepth)
        error(start, "too many nested parentheses");
      brackets.push_back({start, c});
    } else if (op.spelling.size() == 1 && (c == ')' || c == ']' || c == '}')) {
      if (brackets.empty())
        error(start, std::string("unmatched '") + c + "'");
      auto [openOffset, open] = brackets.back();
      char expected = open == '(' ? ')' : open == '[' ? ']' : '}';
      if (c != expected) {
        CompileError err(file.getLoc(start),
                         std::string("closing parenthesis '") + c +
                             "' does not match opening parenthesis '" + open +
                             "'");
        err.addNote(file.getLoc(openOffset), "opening parenthesis is here");
        throw err;
      }
      brackets.pop_back();
    }
    return makeToken(op.kind, start, pos);
  }

  if (text[pos] == '!')
    error(start, "invalid character '!'; use 'not' for logical negation");
  error(start, "invalid character " + describeCharAt(text, pos));
}

std::vector<Token> tokenize(const SourceFile &file) {
  Lexer lexer(file);
  std::vector<Token> tokens;
  do
    tokens.push_back(lexer.next());
  while (!tokens.back().is(TokenKind::EndOfFile));
  return tokens;
}

} // namespace tk
