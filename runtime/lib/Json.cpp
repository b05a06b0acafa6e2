//===- Json.cpp - A small, strict JSON reader -----------------------------===//
//
// A recursive-descent parser over a string_view. Every read is bounds-checked
// against the end of the input and recursion is capped at json::kMaxDepth, so
// arbitrary bytes produce either a Value or a tk::Error, never a crash.
//
//===----------------------------------------------------------------------===//

#include "tk/Json.h"
#include "tk/Error.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

using namespace tk;
using namespace tk::json;

//===----------------------------------------------------------------------===//
// Value
//===----------------------------------------------------------------------===//

Value Value::boolean(bool b) {
  Value v;
  v.valueKind = Kind::Bool;
  v.boolValue = b;
  return v;
}

Value Value::number(double d) {
  Value v;
  v.valueKind = Kind::Number;
  v.numberValue = d;
  return v;
}

Value Value::integer(int64_t i) {
  Value v;
  v.valueKind = Kind::Number;
  v.integral = true;
  v.integerValue = i;
  v.numberValue = static_cast<double>(i);
  return v;
}

Value Value::string(std::string s) {
  Value v;
  v.valueKind = Kind::String;
  v.stringValue = std::move(s);
  return v;
}

Value Value::array(std::vector<Value> elements) {
  Value v;
  v.valueKind = Kind::Array;
  v.arrayValue = std::move(elements);
  return v;
}

Value Value::object(std::vector<std::pair<std::string, Value>> members) {
  Value v;
  v.valueKind = Kind::Object;
  v.objectValue = std::move(members);
  return v;
}

static void requireKind(const Value &v, Value::Kind expected) {
  if (v.kind() != expected)
    throw Error(std::string("JSON value is ") + kindName(v.kind()) +
                ", expected " + kindName(expected));
}

bool Value::getBool() const {
  requireKind(*this, Kind::Bool);
  return boolValue;
}

double Value::getNumber() const {
  requireKind(*this, Kind::Number);
  return numberValue;
}

int64_t Value::getInteger() const {
  requireKind(*this, Kind::Number);
  if (!integral)
    throw Error("JSON number is not an integer");
  return integerValue;
}

const std::string &Value::getString() const {
  requireKind(*this, Kind::String);
  return stringValue;
}

const std::vector<Value> &Value::getArray() const {
  requireKind(*this, Kind::Array);
  return arrayValue;
}

const std::vector<std::pair<std::string, Value>> &Value::getObject() const {
  requireKind(*this, Kind::Object);
  return objectValue;
}

const Value *Value::find(std::string_view key) const {
  if (valueKind != Kind::Object)
    return nullptr;
  for (const auto &member : objectValue)
    if (member.first == key)
      return &member.second;
  return nullptr;
}

const char *json::kindName(Value::Kind kind) {
  switch (kind) {
  case Value::Kind::Null:
    return "null";
  case Value::Kind::Bool:
    return "boolean";
  case Value::Kind::Number:
    return "number";
  case Value::Kind::String:
    return "string";
  case Value::Kind::Array:
    return "array";
  case Value::Kind::Object:
    return "object";
  }
  return "?";
}

//===----------------------------------------------------------------------===//
// Parser
//===----------------------------------------------------------------------===//

namespace {

class Parser {
public:
  Parser(std::string_view text, const std::string &origin)
      : text(text), origin(origin) {}

  Value parseDocument() {
    skipWhitespace();
    if (atEnd())
      fail("empty document, expected a JSON value");
    Value v = parseValue(0);
    skipWhitespace();
    if (!atEnd())
      fail("unexpected " + describeCurrent() + " after the JSON value");
    return v;
  }

private:
  std::string_view text;
  const std::string &origin;
  size_t pos = 0;

  bool atEnd() const { return pos >= text.size(); }
  unsigned char peek() const {
    return atEnd() ? 0 : static_cast<unsigned char>(text[pos]);
  }

  [[noreturn]] void failAt(size_t offset, const std::string &message) const {
    size_t line = 1, column = 1;
    for (size_t i = 0; i < offset && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    throw Error(origin + ":" + std::to_string(line) + ":" +
                std::to_string(column) + " (byte " + std::to_string(offset) +
                "): " + message);
  }
  [[noreturn]] void fail(const std::string &message) const {
    failAt(pos, message);
  }

  /// Names the byte at `pos` for an error message.
  std::string describeCurrent() const {
    if (atEnd())
      return "end of input";
    unsigned char c = peek();
    if (c >= 0x20 && c < 0x7f)
      return std::string("character '") + static_cast<char>(c) + "'";
    char buf[16];
    std::snprintf(buf, sizeof(buf), "byte 0x%02x", c);
    return buf;
  }

  void skipWhitespace() {
    while (!atEnd()) {
      char c = text[pos];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
        return;
      ++pos;
    }
  }

  void expectLiteral(std::string_view word) {
    if (text.substr(pos, word.size()) != word)
      fail("invalid literal, expected '" + std::string(word) + "'");
    pos += word.size();
  }

  Value parseValue(int depth) {
    switch (peek()) {
    case '{':
      return parseObject(depth + 1);
    case '[':
      return parseArray(depth + 1);
    case '"':
      return Value::string(parseString());
    case 't':
      expectLiteral("true");
      return Value::boolean(true);
    case 'f':
      expectLiteral("false");
      return Value::boolean(false);
    case 'n':
      expectLiteral("null");
      return Value::null();
    default:
      if (peek() == '-' || (peek() >= '0' && peek() <= '9'))
        return parseNumber();
      fail("unexpected " + describeCurrent() + ", expected a JSON value");
    }
  }

  void checkDepth(int depth) const {
    if (depth > kMaxDepth)
      fail("arrays/objects nested deeper than " + std::to_string(kMaxDepth) +
           " levels");
  }

  Value parseObject(int depth) {
    checkDepth(depth);
    ++pos; // '{'
    std::vector<std::pair<std::string, Value>> members;
    skipWhitespace();
    if (peek() == '}') {
      ++pos;
      return Value::object(std::move(members));
    }
    while (true) {
      skipWhitespace();
      if (peek() != '"')
        fail("unexpected " + describeCurrent() +
             ", expected a string as object key");
      size_t keyOffset = pos;
      std::string key = parseString();
      for (const auto &member : members)
        if (member.first == key)
          failAt(keyOffset, "duplicate object key " + quote(key));
      skipWhitespace();
      if (peek() != ':')
        fail("unexpected " + describeCurrent() + ", expected ':' after key");
      ++pos;
      skipWhitespace();
      Value v = parseValue(depth);
      members.emplace_back(std::move(key), std::move(v));
      skipWhitespace();
      if (peek() == ',') {
        ++pos;
        continue;
      }
      if (peek() == '}') {
        ++pos;
        return Value::object(std::move(members));
      }
      fail("unexpected " + describeCurrent() +
           ", expected ',' or '}' in object");
    }
  }

  Value parseArray(int depth) {
    checkDepth(depth);
    ++pos; // '['
    std::vector<Value> elements;
    skipWhitespace();
    if (peek() == ']') {
      ++pos;
      return Value::array(std::move(elements));
    }
    while (true) {
      skipWhitespace();
      elements.push_back(parseValue(depth));
      skipWhitespace();
      if (peek() == ',') {
        ++pos;
        continue;
      }
      if (peek() == ']') {
        ++pos;
        return Value::array(std::move(elements));
      }
      fail("unexpected " + describeCurrent() +
           ", expected ',' or ']' in array");
    }
  }

  static bool isDigit(unsigned char c) { return c >= '0' && c <= '9'; }

  Value parseNumber() {
    size_t start = pos;
    bool integral = true;
    if (peek() == '-')
      ++pos;
    if (peek() == '0') {
      ++pos;
      if (isDigit(peek()))
        fail("leading zeros are not allowed in JSON numbers");
    } else if (isDigit(peek())) {
      while (isDigit(peek()))
        ++pos;
    } else {
      fail("expected a digit in number");
    }
    if (peek() == '.') {
      integral = false;
      ++pos;
      if (!isDigit(peek()))
        fail("expected a digit after '.' in number");
      while (isDigit(peek()))
        ++pos;
    }
    if (peek() == 'e' || peek() == 'E') {
      integral = false;
      ++pos;
      if (peek() == '+' || peek() == '-')
        ++pos;
      if (!isDigit(peek()))
        fail("expected a digit in number exponent");
      while (isDigit(peek()))
        ++pos;
    }
    const char *first = text.data() + start;
    const char *last = text.data() + pos;
    if (integral) {
      int64_t i = 0;
      auto [ptr, ec] = std::from_chars(first, last, i);
      if (ec == std::errc() && ptr == last)
        return Value::integer(i);
      // Too large for int64_t: fall through and keep it as a double.
    }
    double d = 0;
    auto [ptr, ec] = std::from_chars(first, last, d);
    if (ec == std::errc::result_out_of_range && !overflows(first, last))
      return Value::number(0.0); // Underflow: as close to zero as a double.
    if (ec != std::errc() || ptr != last || !std::isfinite(d))
      failAt(start, "number " + std::string(first, last) +
                        " is out of the range of a double");
    return Value::number(d);
  }

  /// For a well-formed number that from_chars found out of range (which
  /// leaves the value unset): whether its magnitude is huge rather than
  /// tiny, from the position of its first significant digit.
  static bool overflows(const char *first, const char *last) {
    const char *p = first;
    if (*p == '-')
      ++p;
    long magnitude = 0; // Decimal exponent of the first significant digit.
    bool seenSignificant = false, afterPoint = false;
    for (; p != last && *p != 'e' && *p != 'E'; ++p) {
      if (*p == '.') {
        afterPoint = true;
        continue;
      }
      if (!seenSignificant && *p != '0') {
        seenSignificant = true;
        if (afterPoint)
          --magnitude;
      } else if (seenSignificant && !afterPoint) {
        ++magnitude;
      } else if (!seenSignificant && afterPoint) {
        --magnitude;
      }
    }
    long exponent = 0;
    bool negative = false;
    if (p != last) {
      ++p; // 'e'
      if (*p == '+' || *p == '-')
        negative = *p++ == '-';
      for (; p != last; ++p)
        exponent = std::min(exponent * 10 + (*p - '0'), 100000000L);
    }
    return magnitude + (negative ? -exponent : exponent) > 0;
  }

  unsigned parseHex4() {
    if (text.size() - pos < 4)
      fail("truncated \\u escape");
    unsigned code = 0;
    for (int i = 0; i < 4; ++i) {
      unsigned char c = peek();
      code <<= 4;
      if (c >= '0' && c <= '9')
        code |= c - '0';
      else if (c >= 'a' && c <= 'f')
        code |= c - 'a' + 10;
      else if (c >= 'A' && c <= 'F')
        code |= c - 'A' + 10;
      else
        fail("invalid hex digit in \\u escape");
      ++pos;
    }
    return code;
  }

  static void appendUtf8(std::string &out, unsigned code) {
    if (code < 0x80) {
      out += static_cast<char>(code);
    } else if (code < 0x800) {
      out += static_cast<char>(0xC0 | (code >> 6));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
      out += static_cast<char>(0xE0 | (code >> 12));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (code >> 18));
      out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    }
  }

  /// Copies one well-formed UTF-8 sequence starting at `pos` into `out`.
  void copyUtf8Sequence(std::string &out) {
    size_t start = pos;
    unsigned char lead = peek();
    int length;
    unsigned code;
    if (lead >= 0xC2 && lead <= 0xDF) {
      length = 2;
      code = lead & 0x1F;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      length = 3;
      code = lead & 0x0F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      length = 4;
      code = lead & 0x07;
    } else {
      fail("invalid UTF-8 byte in string");
    }
    if (text.size() - pos < static_cast<size_t>(length))
      fail("truncated UTF-8 sequence in string");
    for (int i = 1; i < length; ++i) {
      unsigned char c = static_cast<unsigned char>(text[pos + i]);
      if ((c & 0xC0) != 0x80)
        fail("invalid UTF-8 sequence in string");
      code = (code << 6) | (c & 0x3F);
    }
    bool overlong = (length == 3 && code < 0x800) ||
                    (length == 4 && code < 0x10000);
    if (overlong || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF))
      fail("invalid UTF-8 sequence in string");
    out.append(text.substr(start, length));
    pos += length;
  }

  std::string parseString() {
    ++pos; // opening quote
    std::string out;
    while (true) {
      if (atEnd())
        fail("unterminated string");
      unsigned char c = peek();
      if (c == '"') {
        ++pos;
        return out;
      }
      if (c < 0x20)
        fail("unescaped control character in string");
      if (c >= 0x80) {
        copyUtf8Sequence(out);
        continue;
      }
      if (c != '\\') {
        out += static_cast<char>(c);
        ++pos;
        continue;
      }
      ++pos; // backslash
      if (atEnd())
        fail("unterminated escape in string");
      char e = static_cast<char>(peek());
      ++pos;
      switch (e) {
      case '"':
        out += '"';
        break;
      case '\\':
        out += '\\';
        break;
      case '/':
        out += '/';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        unsigned code = parseHex4();
        if (code >= 0xDC00 && code <= 0xDFFF)
          fail("unpaired low surrogate in \\u escape");
        if (code >= 0xD800 && code <= 0xDBFF) {
          if (text.substr(pos, 2) != "\\u")
            fail("high surrogate not followed by a \\u low surrogate");
          pos += 2;
          unsigned low = parseHex4();
          if (low < 0xDC00 || low > 0xDFFF)
            fail("high surrogate not followed by a low surrogate");
          code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
        }
        appendUtf8(out, code);
        break;
      }
      default:
        pos -= 2; // Point at the backslash.
        fail("invalid escape '\\" + std::string(1, e) + "' in string");
      }
    }
  }
};

} // namespace

Value json::parse(std::string_view text, const std::string &origin) {
  return Parser(text, origin).parseDocument();
}

std::string json::quote(std::string_view s) {
  std::string out = "\"";
  for (char ch : s) {
    unsigned char c = static_cast<unsigned char>(ch);
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      if (c < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof(buf), "\\u%04x", c);
        out += buf;
      } else {
        out += ch;
      }
    }
  }
  out += '"';
  return out;
}
