//===- ElementKind.h - How the interpreter stores tensor elements -*- C++ -*-===//
//
// Every interpreter value is a dense array of one element kind. Integers are
// signless (as in the IR) and stored in their width (i1 in a byte, 0 or 1);
// f16 and bf16 are stored as their 16-bit patterns and computed in float,
// fp8 as bytes that only casts to and from f32 read and write;
// pointers are 64-bit addresses.
//
//===----------------------------------------------------------------------===//

#ifndef TK_COMPILER_INTERPRETER_ELEMENTKIND_H
#define TK_COMPILER_INTERPRETER_ELEMENTKIND_H

#include <cstdint>

namespace tk::interp {

enum class ElementKind : uint8_t {
  I1, I8, I16, I32, I64, F16, BF16, F32, F64, Ptr,
  F8E4M3, F8E5M2 // fp8 (Float8.h): only converted, to and from f32
};

/// Bytes one element occupies in the interpreter and in memory.
constexpr unsigned storageBytes(ElementKind kind) {
  switch (kind) {
  case ElementKind::I1:
  case ElementKind::I8:
  case ElementKind::F8E4M3:
  case ElementKind::F8E5M2:
    return 1;
  case ElementKind::I16:
  case ElementKind::F16:
  case ElementKind::BF16:
    return 2;
  case ElementKind::I32:
  case ElementKind::F32:
    return 4;
  case ElementKind::I64:
  case ElementKind::F64:
  case ElementKind::Ptr:
    return 8;
  }
  return 0;
}

constexpr bool isIntegerKind(ElementKind kind) {
  return kind == ElementKind::I1 || kind == ElementKind::I8 ||
         kind == ElementKind::I16 || kind == ElementKind::I32 ||
         kind == ElementKind::I64;
}

constexpr bool isFloatKind(ElementKind kind) {
  return kind == ElementKind::F8E4M3 || kind == ElementKind::F8E5M2 ||
         kind == ElementKind::F16 || kind == ElementKind::BF16 ||
         kind == ElementKind::F32 || kind == ElementKind::F64;
}

/// "i1", ..., "f64", "ptr".
const char *elementKindName(ElementKind kind);

} // namespace tk::interp

#endif // TK_COMPILER_INTERPRETER_ELEMENTKIND_H
