//===- ScalarType.cpp - The tk language's argument types ------------------===//

#include "tk/ScalarType.h"

using namespace tk;

namespace {
struct ScalarInfo {
  ScalarKind kind;
  const char *name;
  size_t bytes;
};
} // namespace

static constexpr ScalarInfo kScalars[] = {
    {ScalarKind::I1, "i1", 1},    {ScalarKind::I8, "i8", 1},
    {ScalarKind::I16, "i16", 2},  {ScalarKind::I32, "i32", 4},
    {ScalarKind::I64, "i64", 8},  {ScalarKind::U8, "u8", 1},
    {ScalarKind::U16, "u16", 2},  {ScalarKind::U32, "u32", 4},
    {ScalarKind::U64, "u64", 8},  {ScalarKind::F16, "f16", 2},
    {ScalarKind::BF16, "bf16", 2}, {ScalarKind::F32, "f32", 4},
    {ScalarKind::F64, "f64", 8},  {ScalarKind::F8E4M3, "f8e4m3", 1},
    {ScalarKind::F8E5M2, "f8e5m2", 1},
};

static const ScalarInfo &info(ScalarKind kind) {
  for (const ScalarInfo &s : kScalars)
    if (s.kind == kind)
      return s;
  return kScalars[0]; // Unreachable for valid enumerators.
}

const char *tk::scalarName(ScalarKind kind) { return info(kind).name; }

std::optional<ScalarKind> tk::parseScalarKind(std::string_view name) {
  for (const ScalarInfo &s : kScalars)
    if (name == s.name)
      return s.kind;
  return std::nullopt;
}

size_t tk::scalarByteSize(ScalarKind kind) { return info(kind).bytes; }

bool tk::isIntegerKind(ScalarKind kind) { return !isFloatKind(kind); }

bool tk::isSignedIntegerKind(ScalarKind kind) {
  return kind == ScalarKind::I8 || kind == ScalarKind::I16 ||
         kind == ScalarKind::I32 || kind == ScalarKind::I64;
}

bool tk::isFloatKind(ScalarKind kind) {
  return kind == ScalarKind::F16 || kind == ScalarKind::BF16 ||
         kind == ScalarKind::F32 || kind == ScalarKind::F64 ||
         kind == ScalarKind::F8E4M3 || kind == ScalarKind::F8E5M2;
}

std::string tk::toString(ArgType type) {
  std::string name = scalarName(type.scalar);
  return type.isPointer ? "*" + name : name;
}

std::optional<ArgType> tk::parseArgType(std::string_view text) {
  bool isPointer = !text.empty() && text.front() == '*';
  if (isPointer)
    text.remove_prefix(1);
  std::optional<ScalarKind> kind = parseScalarKind(text);
  if (!kind)
    return std::nullopt;
  return ArgType{*kind, isPointer};
}

const char *tk::specName(ArgSpec spec) {
  switch (spec) {
  case ArgSpec::None:
    return "none";
  case ArgSpec::Div16:
    return "div16";
  case ArgSpec::One:
    return "one";
  }
  return "?";
}

std::optional<ArgSpec> tk::parseArgSpec(std::string_view text) {
  if (text == "none")
    return ArgSpec::None;
  if (text == "div16")
    return ArgSpec::Div16;
  if (text == "one")
    return ArgSpec::One;
  return std::nullopt;
}
