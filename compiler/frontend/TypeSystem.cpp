//===- TypeSystem.cpp - types of tk values, promotion, broadcasting -------===//

#include "compiler/frontend/TypeSystem.h"

#include <cmath>
#include <limits>

namespace tk::sema {

//===----------------------------------------------------------------------===//
// DType
//===----------------------------------------------------------------------===//

bool DType::isInt() const {
  if (pointer)
    return false;
  switch (scalar) {
  case ScalarType::I1:
  case ScalarType::I8:
  case ScalarType::I16:
  case ScalarType::I32:
  case ScalarType::I64:
  case ScalarType::U8:
  case ScalarType::U16:
  case ScalarType::U32:
  case ScalarType::U64:
    return true;
  default:
    return false;
  }
}

bool DType::isSigned() const {
  if (pointer)
    return false;
  switch (scalar) {
  case ScalarType::I8:
  case ScalarType::I16:
  case ScalarType::I32:
  case ScalarType::I64:
    return true;
  default:
    return false;
  }
}

bool DType::isUnsigned() const {
  if (pointer)
    return false;
  switch (scalar) {
  case ScalarType::U8:
  case ScalarType::U16:
  case ScalarType::U32:
  case ScalarType::U64:
    return true;
  default:
    return false;
  }
}

bool DType::isFloat() const {
  if (pointer)
    return false;
  switch (scalar) {
  case ScalarType::F16:
  case ScalarType::BF16:
  case ScalarType::F32:
  case ScalarType::F64:
    return true;
  default:
    return isFp8();
  }
}

bool DType::isFp8() const {
  if (pointer)
    return false;
  switch (scalar) {
  case ScalarType::F8E4M3:
  case ScalarType::F8E5M2:
  case ScalarType::F8E4M3B15:
  case ScalarType::F8E4M3FNUZ:
  case ScalarType::F8E5M2FNUZ:
    return true;
  default:
    return false;
  }
}

unsigned DType::getBitWidth() const {
  if (pointer)
    return 64;
  switch (scalar) {
  case ScalarType::I1:
    return 1;
  case ScalarType::I8:
  case ScalarType::U8:
    return 8;
  case ScalarType::I16:
  case ScalarType::U16:
  case ScalarType::F16:
  case ScalarType::BF16:
    return 16;
  case ScalarType::I32:
  case ScalarType::U32:
  case ScalarType::F32:
    return 32;
  case ScalarType::I64:
  case ScalarType::U64:
  case ScalarType::F64:
    return 64;
  case ScalarType::F8E4M3:
  case ScalarType::F8E5M2:
  case ScalarType::F8E4M3B15:
  case ScalarType::F8E4M3FNUZ:
  case ScalarType::F8E5M2FNUZ:
    return 8;
  }
  return 32;
}

unsigned DType::getMantissaWidth() const {
  switch (scalar) {
  case ScalarType::F16:
    return 10;
  case ScalarType::BF16:
    return 7;
  case ScalarType::F32:
    return 23;
  case ScalarType::F64:
    return 52;
  case ScalarType::F8E4M3:
  case ScalarType::F8E4M3B15:
  case ScalarType::F8E4M3FNUZ:
    return 3;
  case ScalarType::F8E5M2:
  case ScalarType::F8E5M2FNUZ:
    return 2;
  default:
    return 0;
  }
}

std::string DType::toString() const {
  std::string name = ast::getScalarTypeName(scalar);
  return pointer ? "*" + name : name;
}

DTypeKind getKind(DType type) {
  if (type.isFloat())
    return DTypeKind::Float;
  if (type.isBool())
    return DTypeKind::Bool;
  if (type.isUnsigned())
    return DTypeKind::Unsigned;
  return DTypeKind::Signed;
}

DType getIntType(unsigned bits, bool isUnsigned) {
  switch (bits) {
  case 1:
    return ScalarType::I1;
  case 8:
    return isUnsigned ? ScalarType::U8 : ScalarType::I8;
  case 16:
    return isUnsigned ? ScalarType::U16 : ScalarType::I16;
  case 32:
    return isUnsigned ? ScalarType::U32 : ScalarType::I32;
  default:
    return isUnsigned ? ScalarType::U64 : ScalarType::I64;
  }
}

//===----------------------------------------------------------------------===//
// ValueType
//===----------------------------------------------------------------------===//

std::string shapeToString(const Shape &shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      text += ", ";
    text += std::to_string(shape[i]);
  }
  return text + "]";
}

int64_t ValueType::getNumElements() const {
  int64_t count = 1;
  for (int64_t dim : shape)
    count *= dim;
  return count;
}

std::string ValueType::toString() const {
  if (shape.empty())
    return dtype.toString();
  return dtype.toString() + shapeToString(shape);
}

//===----------------------------------------------------------------------===//
// Literals
//===----------------------------------------------------------------------===//

DType getLiteralIntType(int64_t value) {
  if (value >= std::numeric_limits<int32_t>::min() &&
      value <= std::numeric_limits<int32_t>::max())
    return ScalarType::I32;
  if (value > 0 && value <= int64_t(std::numeric_limits<uint32_t>::max()))
    return ScalarType::U32;
  return ScalarType::I64;
}

DType getLiteralFloatType(double value) {
  double magnitude = std::fabs(value);
  if (std::isnan(value) || std::isinf(value) || magnitude == 0.0 ||
      (magnitude >= double(std::numeric_limits<float>::min()) &&
       magnitude <= double(std::numeric_limits<float>::max())))
    return ScalarType::F32;
  return ScalarType::F64;
}

bool fitsInIntType(int64_t value, DType type) {
  unsigned bits = type.getBitWidth();
  if (type.isBool())
    return value == 0 || value == 1;
  if (type.isUnsigned()) {
    if (value < 0)
      return false;
    return bits >= 64 || value <= int64_t((uint64_t(1) << bits) - 1);
  }
  if (bits >= 64)
    return true;
  int64_t limit = int64_t(1) << (bits - 1);
  return value >= -limit && value < limit;
}

//===----------------------------------------------------------------------===//
// Promotion
//===----------------------------------------------------------------------===//

DType promoteIntegers(DType a, DType b) {
  unsigned aBits = a.getBitWidth(), bBits = b.getBitWidth();
  bool aUnsigned = a.isUnsigned(), bUnsigned = b.isUnsigned();
  if (aUnsigned == bUnsigned)
    return aBits >= bBits ? a : b;
  if (aUnsigned)
    return aBits >= bBits ? a : b;
  return bBits >= aBits ? b : a;
}

std::optional<DType> computeCommonType(PromotionOperand a, PromotionOperand b,
                                       bool divOrMod,
                                       const std::string &opSpelling,
                                       std::string &error) {
  DType at = a.dtype, bt = b.dtype;
  auto isHalf = [](DType t) {
    return t.getScalar() == ScalarType::F16 ||
           t.getScalar() == ScalarType::BF16;
  };

  // A literal of a kind no higher than the other operand's does not take
  // part in promotion.
  if (a.isLiteral != b.isLiteral) {
    DType literal = a.isLiteral ? at : bt;
    DType other = a.isLiteral ? bt : at;
    if (getKind(literal) <= getKind(other)) {
      if (divOrMod && isHalf(other))
        return DType(ScalarType::F32);
      return other;
    }
  }

  auto is = [](DType t, ScalarType s) { return t.getScalar() == s; };
  if (is(at, ScalarType::F64) || is(bt, ScalarType::F64))
    return DType(ScalarType::F64);
  if (is(at, ScalarType::F32) || is(bt, ScalarType::F32))
    return DType(ScalarType::F32);
  // f16 wins over everything narrower (bf16 included), as in Triton 3.6.
  if (is(at, ScalarType::F16) || is(bt, ScalarType::F16))
    return DType(divOrMod ? ScalarType::F32 : ScalarType::F16);
  // bf16 survives only with bf16; with anything else it computes in f32.
  if (is(at, ScalarType::BF16) || is(bt, ScalarType::BF16)) {
    if (!divOrMod && at == bt)
      return at;
    return DType(ScalarType::F32);
  }
  if (at.isFloat() || bt.isFloat()) {
    // Only fp8 types are left among the floats: the same one stays, two
    // different ones meet in f16. An fp8 with an integer is an error.
    if (at.isFloat() && bt.isFloat())
      return at == bt ? at : DType(ScalarType::F16);
    error = "cannot use '" + opSpelling + "' with " + at.toString() +
            " and " + bt.toString() + "; convert the integer with .to(...)";
    return std::nullopt;
  }
  // Two integers.
  if (divOrMod && !at.isBool() && !bt.isBool() &&
      at.isUnsigned() != bt.isUnsigned()) {
    error = "cannot use '" + opSpelling + "' with " + at.toString() +
            " and " + bt.toString() +
            " because they have different signedness; cast one of them "
            "with .to(...)";
    return std::nullopt;
  }
  return promoteIntegers(at, bt);
}

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

std::optional<Shape> broadcastShapes(const Shape &a, const Shape &b,
                                     std::string &error) {
  size_t rank = std::max(a.size(), b.size());
  Shape result(rank);
  for (size_t i = 0; i < rank; ++i) {
    // Align on the right.
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da == db || db == 1) {
      result[i] = da;
    } else if (da == 1) {
      result[i] = db;
    } else {
      error = "dimension " + std::to_string(i) + " is " +
              std::to_string(da) + " vs " + std::to_string(db);
      return std::nullopt;
    }
  }
  return result;
}

bool canBroadcastTo(const Shape &from, const Shape &to) {
  if (from.size() > to.size())
    return false;
  size_t offset = to.size() - from.size();
  for (size_t i = 0; i < from.size(); ++i)
    if (from[i] != to[i + offset] && from[i] != 1)
      return false;
  return true;
}

bool isPowerOfTwo(int64_t value) {
  return value > 0 && (value & (value - 1)) == 0;
}

bool checkBlockShape(const Shape &shape, std::string &error) {
  int64_t count = 1;
  for (int64_t dim : shape) {
    if (!isPowerOfTwo(dim)) {
      error = "block dimensions must be powers of two, got " +
              shapeToString(shape);
      return false;
    }
    count *= dim;
    if (count > kMaxBlockElements) {
      error = "block " + shapeToString(shape) + " has more than " +
              std::to_string(kMaxBlockElements) + " elements";
      return false;
    }
  }
  return true;
}

} // namespace tk::sema
