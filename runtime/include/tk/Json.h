//===- Json.h - A small, strict JSON reader ---------------------*- C++ -*-===//
//
// Reads RFC 8259 JSON: objects, arrays, strings (all escapes, surrogate
// pairs, UTF-8 validated), numbers, true/false/null. Nothing else: no
// comments, no trailing commas, no NaN, no duplicate object keys, no bytes
// after the document. Errors are tk::Error naming the origin (usually a file
// name), line, column and byte offset. Nesting is limited (kMaxDepth) so that
// hostile input cannot exhaust the stack; the reader never crashes.
//
//===----------------------------------------------------------------------===//

#ifndef TK_JSON_H
#define TK_JSON_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tk {
namespace json {

/// Containers nested deeper than this are rejected.
constexpr int kMaxDepth = 256;

class Value {
public:
  enum class Kind { Null, Bool, Number, String, Array, Object };

  Value() = default;
  static Value null() { return Value(); }
  static Value boolean(bool b);
  /// A number; `isInteger` is set when the literal had no fraction or
  /// exponent and fits in int64_t.
  static Value number(double d);
  static Value integer(int64_t i);
  static Value string(std::string s);
  static Value array(std::vector<Value> elements);
  static Value object(std::vector<std::pair<std::string, Value>> members);

  Kind kind() const { return valueKind; }
  bool isNull() const { return valueKind == Kind::Null; }
  bool isBool() const { return valueKind == Kind::Bool; }
  bool isNumber() const { return valueKind == Kind::Number; }
  bool isInteger() const { return valueKind == Kind::Number && integral; }
  bool isString() const { return valueKind == Kind::String; }
  bool isArray() const { return valueKind == Kind::Array; }
  bool isObject() const { return valueKind == Kind::Object; }

  // Accessors; each requires the matching kind (checked with an Error).
  bool getBool() const;
  double getNumber() const;
  int64_t getInteger() const;
  const std::string &getString() const;
  const std::vector<Value> &getArray() const;
  const std::vector<std::pair<std::string, Value>> &getObject() const;

  /// For objects: the member named `key`, or nullptr.
  const Value *find(std::string_view key) const;

private:
  Kind valueKind = Kind::Null;
  bool boolValue = false;
  bool integral = false;
  double numberValue = 0;
  int64_t integerValue = 0;
  std::string stringValue;
  std::vector<Value> arrayValue;
  std::vector<std::pair<std::string, Value>> objectValue;
};

/// "null", "boolean", "number", "string", "array", "object".
const char *kindName(Value::Kind kind);

/// Parses one JSON document. `origin` (a file name, or e.g. "<memory>")
/// prefixes every error: "softmax.json:3:14 (byte 40): expected ':' ...".
Value parse(std::string_view text, const std::string &origin);

/// Serializes `s` as a JSON string literal, quotes included.
std::string quote(std::string_view s);

} // namespace json
} // namespace tk

#endif // TK_JSON_H
