//===- AST.cpp - helpers on the abstract syntax tree ----------------------===//

#include "compiler/frontend/AST.h"

namespace tk::ast {

static const std::vector<std::string_view> &scalarTypeNames() {
  // Indexed by ScalarType.
  static const std::vector<std::string_view> names = {
      "i1",     "i8",     "i16",     "i32",    "i64",    "u8",
      "u16",    "u32",    "u64",     "f16",    "bf16",   "f32",
      "f64",    "f8e4m3", "f8e5m2",  "f8e4b15", "f8e4b8", "f8e5b16"};
  return names;
}

const char *getScalarTypeName(ScalarType type) {
  return scalarTypeNames()[size_t(type)].data();
}

std::optional<ScalarType> parseScalarTypeName(std::string_view name) {
  const auto &names = scalarTypeNames();
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == name)
      return ScalarType(i);
  return std::nullopt;
}

const std::vector<std::string_view> &getAllScalarTypeNames() {
  return scalarTypeNames();
}

std::string TypeExpr::toString() const {
  switch (kind) {
  case Kind::Scalar:
    return getScalarTypeName(scalar);
  case Kind::Constexpr:
    return "constexpr";
  case Kind::Pointer:
    return "*" + (pointee ? pointee->toString() : std::string("?"));
  case Kind::Named:
    return name;
  }
  return "?";
}

const TypeExpr *TypeExpr::findNamed() const {
  if (kind == Kind::Named)
    return this;
  return pointee ? pointee->findNamed() : nullptr;
}

const char *getOperatorSpelling(UnaryOpKind op) {
  switch (op) {
  case UnaryOpKind::Neg: return "-";
  case UnaryOpKind::Pos: return "+";
  case UnaryOpKind::Invert: return "~";
  case UnaryOpKind::Not: return "not";
  }
  return "?";
}

const char *getOperatorSpelling(BinaryOpKind op) {
  switch (op) {
  case BinaryOpKind::Add: return "+";
  case BinaryOpKind::Sub: return "-";
  case BinaryOpKind::Mul: return "*";
  case BinaryOpKind::Div: return "/";
  case BinaryOpKind::FloorDiv: return "//";
  case BinaryOpKind::Mod: return "%";
  case BinaryOpKind::Pow: return "**";
  case BinaryOpKind::MatMul: return "@";
  case BinaryOpKind::LShift: return "<<";
  case BinaryOpKind::RShift: return ">>";
  case BinaryOpKind::BitAnd: return "&";
  case BinaryOpKind::BitOr: return "|";
  case BinaryOpKind::BitXor: return "^";
  case BinaryOpKind::And: return "and";
  case BinaryOpKind::Or: return "or";
  case BinaryOpKind::Lt: return "<";
  case BinaryOpKind::Gt: return ">";
  case BinaryOpKind::Le: return "<=";
  case BinaryOpKind::Ge: return ">=";
  case BinaryOpKind::Eq: return "==";
  case BinaryOpKind::Ne: return "!=";
  case BinaryOpKind::Is: return "is";
  case BinaryOpKind::IsNot: return "is not";
  }
  return "?";
}

bool isComparison(BinaryOpKind op) {
  switch (op) {
  case BinaryOpKind::Lt:
  case BinaryOpKind::Gt:
  case BinaryOpKind::Le:
  case BinaryOpKind::Ge:
  case BinaryOpKind::Eq:
  case BinaryOpKind::Ne:
  case BinaryOpKind::Is:
  case BinaryOpKind::IsNot:
    return true;
  default:
    return false;
  }
}

bool isLogical(BinaryOpKind op) {
  return op == BinaryOpKind::And || op == BinaryOpKind::Or;
}

const KeywordArg *CallExpr::findKeyword(std::string_view name) const {
  for (const KeywordArg &keyword : keywords)
    if (keyword.name == name)
      return &keyword;
  return nullptr;
}

std::optional<std::string> getDottedName(const Expr &expr) {
  if (auto *name = expr.getAs<NameExpr>())
    return name->name;
  // Collect attribute names from the outside in, iteratively (no recursion
  // on user-controlled depth).
  std::vector<const std::string *> parts;
  const Expr *current = &expr;
  while (auto *attribute = current->getAs<AttributeExpr>()) {
    parts.push_back(&attribute->attr);
    current = attribute->value.get();
  }
  auto *base = current->getAs<NameExpr>();
  if (!base)
    return std::nullopt;
  std::string result = base->name;
  for (auto it = parts.rbegin(); it != parts.rend(); ++it)
    result += "." + **it;
  return result;
}

const KeywordArg *Decorator::findKeyword(std::string_view key) const {
  for (const KeywordArg &keyword : keywords)
    if (keyword.name == key)
      return &keyword;
  return nullptr;
}

const Decorator *FunctionDef::findDecorator(std::string_view wanted) const {
  for (const Decorator &decorator : decorators) {
    std::string_view name = decorator.name;
    if (name == wanted)
      return &decorator;
    if (name.size() > wanted.size() &&
        name.substr(name.size() - wanted.size()) == wanted &&
        name[name.size() - wanted.size() - 1] == '.')
      return &decorator;
  }
  return nullptr;
}

const FunctionDef *Module::findFunction(std::string_view name) const {
  for (const auto &function : functions)
    if (function->name == name)
      return function.get();
  return nullptr;
}

} // namespace tk::ast
