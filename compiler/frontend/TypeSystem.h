//===- TypeSystem.h - types of tk values, promotion, broadcasting -*- C++ -*-===//
//
// The semantic types of the language, independent of MLIR so that the rules
// can be unit-tested alone:
//
//   DType      the type of one element: a number (i1 .. u64, f16, bf16, f32,
//              f64) or a pointer to a number (`*f32`).
//   ValueType  a DType plus a block shape; an empty shape is a scalar.
//
// The IR is signless: signedness lives only here, and IR emission picks the
// signed or unsigned arith op from it.
//
// Promotion follows Triton's semantic.py (computation_type_impl):
//   * A compile-time constant (a "literal": Python-like int/float/bool) of a
//     kind lower than or equal to the other operand's kind (bool < unsigned
//     < signed < float) adopts the other operand's type; otherwise it takes
//     part in promotion with its literal type (i32/u32/i64/u64, f32/f64, i1).
//     (IR emission also lets a non-negative int literal adapt to an unsigned
//     operand, so that `u // 3` is u32 where Triton would refuse the mix.)
//   * f64 wins, then f32, then f16 (f16 with bf16 or an int is f16); bf16
//     stays bf16 only with bf16 (bf16 with an int is f32); two fp8 values
//     of one type keep it, of two types meet in f16. `/` and `%` on
//     f16/bf16 compute in f32.
//   * int with f64/f32/f16 gives the float type.
//   * Two integers follow C's usual arithmetic conversions: same signedness
//     -> the wider; mixed -> the unsigned type if it is at least as wide as
//     the signed one, else the signed type (u8 + i32 -> i32, u32 + i32 ->
//     u32, u32 + i64 -> i64). `/`, `//` and `%` refuse mixed signedness.
//
// Broadcasting is numpy's: shapes are aligned on the right, missing leading
// dimensions count as 1, and each pair of dimensions must be equal or one of
// them 1.
//
//===----------------------------------------------------------------------===//

#ifndef TK_COMPILER_FRONTEND_TYPESYSTEM_H
#define TK_COMPILER_FRONTEND_TYPESYSTEM_H

#include "compiler/frontend/AST.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tk::sema {

using ast::ScalarType;

/// The element type of a value: a number, or a pointer to a number.
class DType {
public:
  DType() = default;
  /*implicit*/ DType(ScalarType scalar) : scalar(scalar) {}
  static DType getPointer(ScalarType pointee) {
    DType type(pointee);
    type.pointer = true;
    return type;
  }

  bool isPointer() const { return pointer; }
  /// The number type itself, or for a pointer the pointee.
  ScalarType getScalar() const { return scalar; }
  ScalarType getPointee() const { return scalar; }

  bool isInt() const; // any integer, including i1 and unsigned
  bool isBool() const { return !pointer && scalar == ScalarType::I1; }
  bool isSigned() const;   // i8 .. i64 (i1 counts as neither)
  bool isUnsigned() const; // u8 .. u64
  bool isFloat() const; // fp8 types included
  bool isFp8() const;
  bool isNumber() const { return !pointer; }
  /// Bits of the number (1 for i1, 64 for pointers).
  unsigned getBitWidth() const;
  /// Mantissa bits of a float type (10 for f16, 7 for bf16, ...).
  unsigned getMantissaWidth() const;

  /// "f32", "u8", "*bf16".
  std::string toString() const;

  friend bool operator==(DType a, DType b) {
    return a.pointer == b.pointer && a.scalar == b.scalar;
  }
  friend bool operator!=(DType a, DType b) { return !(a == b); }

private:
  ScalarType scalar = ScalarType::I32;
  bool pointer = false;
};

/// Kinds ordered for the literal rule: bool < unsigned < signed < float.
enum class DTypeKind { Bool = 0, Unsigned = 1, Signed = 2, Float = 3 };
DTypeKind getKind(DType type);

/// The integer type with `bits` bits and the given signedness (bits 1 gives
/// i1 whatever the signedness).
DType getIntType(unsigned bits, bool isUnsigned);

/// A block shape; empty for scalars.
using Shape = std::vector<int64_t>;

/// "[128, 64]".
std::string shapeToString(const Shape &shape);

/// The type of a value: element type and block shape.
struct ValueType {
  DType dtype;
  Shape shape;

  ValueType() = default;
  ValueType(DType dtype, Shape shape = {})
      : dtype(dtype), shape(std::move(shape)) {}

  bool isScalar() const { return shape.empty(); }
  bool isBlock() const { return !shape.empty(); }
  int64_t getRank() const { return int64_t(shape.size()); }
  int64_t getNumElements() const;
  ValueType withDType(DType other) const { return {other, shape}; }
  ValueType withShape(Shape other) const { return {dtype, std::move(other)}; }

  /// "f32" for a scalar, "f32[128, 64]" for a block.
  std::string toString() const;

  friend bool operator==(const ValueType &a, const ValueType &b) {
    return a.dtype == b.dtype && a.shape == b.shape;
  }
  friend bool operator!=(const ValueType &a, const ValueType &b) {
    return !(a == b);
  }
};

//===----------------------------------------------------------------------===//
// Literal types
//===----------------------------------------------------------------------===//

/// The type a compile-time integer takes when it becomes a value (Triton's
/// to_tensor_type): i32 when it fits, else u32, else i64.
DType getLiteralIntType(int64_t value);
/// f32 when the magnitude is representable as a normal f32 (or is 0, inf or
/// nan), else f64.
DType getLiteralFloatType(double value);

/// Whether the integer constant fits `type` (an integer type; i1 takes 0
/// and 1).
bool fitsInIntType(int64_t value, DType type);

//===----------------------------------------------------------------------===//
// Promotion
//===----------------------------------------------------------------------===//

/// C's usual arithmetic conversions on two integer types (see the header
/// comment).
DType promoteIntegers(DType a, DType b);

/// One operand of a binary operation, for promotion: its element type and
/// whether it is a compile-time literal.
struct PromotionOperand {
  DType dtype;
  bool isLiteral = false;
};

/// The type both operands of an arithmetic operation are converted to, or
/// nullopt with `error` set ("cannot use '/' with i32 and u32 ...").
/// `divOrMod` is set for `/`, `//` and `%`; `opSpelling` names the operator
/// in messages. Pointer operands are the caller's business.
std::optional<DType> computeCommonType(PromotionOperand a, PromotionOperand b,
                                       bool divOrMod,
                                       const std::string &opSpelling,
                                       std::string &error);

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

/// The numpy broadcast of two shapes, or nullopt with `error` saying
/// where they differ ("dimension 1 is 64 vs 32", dimensions counted in the
/// broadcast result).
std::optional<Shape> broadcastShapes(const Shape &a, const Shape &b,
                                     std::string &error);

/// Whether `from` can be broadcast to exactly `to` (numpy rules, `from` may
/// have fewer dimensions).
bool canBroadcastTo(const Shape &from, const Shape &to);

bool isPowerOfTwo(int64_t value);

/// Largest number of elements a block may hold (as Triton: 2^20).
constexpr int64_t kMaxBlockElements = int64_t(1) << 20;

/// Checks that every dimension is a positive power of two and the block is
/// not too large; on failure returns false with `error` set.
bool checkBlockShape(const Shape &shape, std::string &error);

} // namespace tk::sema

#endif // TK_COMPILER_FRONTEND_TYPESYSTEM_H
