//===- ScalarType.h - The tk language's argument types ---------*- C++ -*-===//
//
// The types a kernel parameter can have: the scalar types i1 i8 i16 i32 i64
// u8 u16 u32 u64 f16 bf16 f32 f64 and pointers to them (`*f32`), plus the
// specialization hint ("spec") the compiler assumed for the parameter.
//
//===----------------------------------------------------------------------===//

#ifndef TK_SCALARTYPE_H
#define TK_SCALARTYPE_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tk {

enum class ScalarKind : uint8_t {
  I1,
  I8,
  I16,
  I32,
  I64,
  U8,
  U16,
  U32,
  U64,
  F16,
  BF16,
  F32,
  F64,
  F8E4M3, // fp8 e4m3 (Triton's float8e4nv), one byte
  F8E5M2, // fp8 e5m2 (float8e5), one byte
};

/// The language's name: "i1", "bf16", ...
const char *scalarName(ScalarKind kind);
/// Inverse of scalarName; std::nullopt for anything else.
std::optional<ScalarKind> parseScalarKind(std::string_view name);
/// Size of the value in memory and as a kernel parameter (i1 is one byte).
size_t scalarByteSize(ScalarKind kind);
bool isIntegerKind(ScalarKind kind); // i1 included
bool isSignedIntegerKind(ScalarKind kind);
bool isFloatKind(ScalarKind kind);

/// The type of a kernel parameter: a scalar, or a pointer to a scalar.
struct ArgType {
  ScalarKind scalar = ScalarKind::I32; // the pointee for pointers
  bool isPointer = false;

  static ArgType value(ScalarKind kind) { return {kind, false}; }
  static ArgType pointerTo(ScalarKind kind) { return {kind, true}; }

  /// Bytes the parameter occupies in the kernel's parameter list.
  size_t paramByteSize() const {
    return isPointer ? 8 : scalarByteSize(scalar);
  }
  bool operator==(const ArgType &other) const {
    return scalar == other.scalar && isPointer == other.isPointer;
  }
  bool operator!=(const ArgType &other) const { return !(*this == other); }
};

/// "f32", "*f16".
std::string toString(ArgType type);
/// Parses "i32", "*f32" (whitespace around '*' is not allowed).
std::optional<ArgType> parseArgType(std::string_view text);

/// What the compiler assumed about a parameter's value.
enum class ArgSpec : uint8_t {
  None,  // nothing
  Div16, // integer divisible by 16; pointer 16-byte aligned
  One,   // integer equal to 1 (the argument is still passed)
};

/// "none", "div16", "one".
const char *specName(ArgSpec spec);
std::optional<ArgSpec> parseArgSpec(std::string_view text);

} // namespace tk

#endif // TK_SCALARTYPE_H
