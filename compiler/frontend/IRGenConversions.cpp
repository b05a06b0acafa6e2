//===- IRGenConversions.cpp - types, constants, casts, broadcasting -------===//
//
// Making a run-time value of a given type and shape: the MLIR type of a tk
// type, constants (splat for blocks), compile-time constants materialized
// in a type, casts between dtypes (Triton's semantic.cast: int <-> float,
// widening, truncation, fp8 through f32, bitcasts of equal width), and
// numpy broadcasting of shapes. The operators (IRGenArith.cpp) build on
// these.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/IRGenImpl.h"

#include "dialects/tk/TkDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

#include <cmath>
#include <limits>

namespace tk::irgen {

using ast::BinaryOpKind;
using sema::DType;
using sema::Shape;
using sema::ValueType;

//===----------------------------------------------------------------------===//
// Types and constants
//===----------------------------------------------------------------------===//

mlir::Type IRGen::getMLIRType(DType type) {
  mlir::Type scalar;
  switch (type.getScalar()) {
  case ScalarType::I1:
    scalar = builder.getI1Type();
    break;
  case ScalarType::I8:
  case ScalarType::U8:
    scalar = builder.getI8Type();
    break;
  case ScalarType::I16:
  case ScalarType::U16:
    scalar = builder.getI16Type();
    break;
  case ScalarType::I32:
  case ScalarType::U32:
    scalar = builder.getI32Type();
    break;
  case ScalarType::I64:
  case ScalarType::U64:
    scalar = builder.getI64Type();
    break;
  case ScalarType::F16:
    scalar = builder.getF16Type();
    break;
  case ScalarType::BF16:
    scalar = builder.getBF16Type();
    break;
  case ScalarType::F32:
    scalar = builder.getF32Type();
    break;
  case ScalarType::F64:
    scalar = builder.getF64Type();
    break;
  case ScalarType::F8E4M3:
    scalar = builder.getType<mlir::Float8E4M3FNType>();
    break;
  case ScalarType::F8E5M2:
    scalar = builder.getType<mlir::Float8E5M2Type>();
    break;
  case ScalarType::F8E4M3B15:
  case ScalarType::F8E4M3FNUZ:
  case ScalarType::F8E5M2FNUZ:
    // As Triton on NVIDIA GPUs from sm_90 on: the names exist (a branch
    // that tests for them folds away), values of these types do not.
    error(currentSourceLoc,
          "values of type " + type.toString() +
              " are not supported on NVIDIA GPUs (as in Triton for sm_90 "
              "and later); the supported fp8 types are f8e4m3 "
              "(tl.float8e4nv) and f8e5m2 (tl.float8e5)");
  }
  if (type.isPointer())
    return mlir::tk::PtrType::get(scalar);
  return scalar;
}

mlir::Type IRGen::getMLIRType(const ValueType &type) {
  mlir::Type element = getMLIRType(type.dtype);
  if (type.isScalar())
    return element;
  return mlir::RankedTensorType::get(type.shape, element);
}

DType IRGen::getLiteralType(const Value &constant) const {
  switch (constant.getKind()) {
  case Value::Kind::Bool:
    return ScalarType::I1;
  case Value::Kind::Int:
    return sema::getLiteralIntType(constant.getInt());
  case Value::Kind::Float:
    return sema::getLiteralFloatType(constant.getFloat());
  default:
    return ScalarType::I32;
  }
}

/// The attribute of one element of `type` holding `value`.
static mlir::TypedAttr getIntAttr(mlir::Type type, int64_t value) {
  unsigned width = type.getIntOrFloatBitWidth();
  llvm::APInt bits(width, uint64_t(value), /*isSigned=*/value < 0,
                   /*implicitTrunc=*/true);
  return mlir::IntegerAttr::get(type, bits);
}

static mlir::TypedAttr splatAttr(mlir::TypedAttr scalar, mlir::Type type) {
  if (auto tensor = mlir::dyn_cast<mlir::RankedTensorType>(type))
    return mlir::DenseElementsAttr::get(tensor, mlir::Attribute(scalar));
  return scalar;
}

Value IRGen::constantInt(int64_t value, DType type, const Shape &shape) {
  ValueType valueType(type, shape);
  mlir::Type element = getMLIRType(type);
  mlir::TypedAttr attr =
      splatAttr(getIntAttr(element, value), getMLIRType(valueType));
  return Value::ir(mlir::arith::ConstantOp::create(builder, attr), valueType);
}

Value IRGen::constantFloat(double value, DType type, const Shape &shape) {
  ValueType valueType(type, shape);
  mlir::Type element = getMLIRType(type);
  mlir::TypedAttr attr = splatAttr(builder.getFloatAttr(element, value),
                                   getMLIRType(valueType));
  return Value::ir(mlir::arith::ConstantOp::create(builder, attr), valueType);
}

Value IRGen::constantBool(bool value, const Shape &shape) {
  return constantInt(value ? 1 : 0, ScalarType::I1, shape);
}

Value IRGen::zeroOf(const ValueType &type) {
  if (type.dtype.isFloat())
    return constantFloat(0.0, type.dtype, type.shape);
  return constantInt(0, type.dtype, type.shape);
}

Value IRGen::materialize(const Value &constant, DType type, SourceLoc loc,
                         const Shape &shape) {
  if (!constant.isNumericConstant())
    error(loc, "expected a number, got " + constant.describe());
  if (type.isPointer())
    error(loc, "cannot use " + constant.describe() + " as a pointer");
  if (type.isFloat())
    return constantFloat(constant.getAsDouble(), type, shape);
  // An integer type.
  if (constant.is(Value::Kind::Float))
    error(loc, "cannot use " + constant.describe() + " as " +
                   type.toString() + " without an explicit cast");
  int64_t value = constant.getIntLike();
  if (!sema::fitsInIntType(value, type)) {
    if (value < 0 && type.isUnsigned())
      error(loc, "cannot combine the negative constant " +
                     std::to_string(value) + " with unsigned type " +
                     type.toString() + "; cast one of them explicitly");
    error(loc, "constant " + std::to_string(value) + " does not fit in " +
                   type.toString());
  }
  return constantInt(value, type, shape);
}

Value IRGen::toIR(const Value &value, SourceLoc loc, const char *what) {
  if (value.isIR())
    return value;
  if (!value.isNumericConstant())
    error(loc, std::string(what) + " must be a number or a block, got " +
                   value.describe());
  return materialize(value, getLiteralType(value), loc);
}

//===----------------------------------------------------------------------===//
// Casts
//===----------------------------------------------------------------------===//

Value IRGen::cast(const Value &value, DType to, SourceLoc loc) {
  if (value.isNumericConstant()) {
    // Direct when the constant is exact in the target type.
    if (to.isFloat() || (to.isInt() && !value.is(Value::Kind::Float) &&
                         sema::fitsInIntType(value.getIntLike(), to)))
      return materialize(value, to, loc);
    return cast(materialize(value, getLiteralType(value), loc), to, loc);
  }
  if (!value.isIR())
    error(loc, "cannot convert " + value.describe() + " to " +
                   to.toString());
  DType from = value.getDType();
  if (from == to)
    return value;
  ValueType resultType = value.getType().withDType(to);
  mlir::Type result = getMLIRType(resultType);
  mlir::Value v = value.getIR();
  auto make = [&](mlir::Value ir) { return Value::ir(ir, resultType); };

  if (from.isPointer() || to.isPointer()) {
    if (from.isPointer() && to.isPointer())
      return make(mlir::tk::BitcastOp::create(builder, result, v));
    if (from.isPointer() && to.isInt()) {
      if (to.getBitWidth() == 64)
        return make(mlir::tk::PtrToIntOp::create(builder, result, v));
      if (to.isBool()) {
        Value asInt = cast(value, ScalarType::I64, loc);
        return compare(BinaryOpKind::Ne, asInt, Value::integer(0), loc);
      }
    }
    if (from.isInt() && !from.isBool() && to.isPointer()) {
      Value wide = cast(value, from.isUnsigned() ? ScalarType::U64
                                                 : ScalarType::I64,
                        loc);
      return make(mlir::tk::IntToPtrOp::create(builder, result, wide.getIR()));
    }
    error(loc, "cannot convert " + value.getType().toString() + " to " +
                   to.toString());
  }

  // fp8 converts only to and from f32 in the IR (the GPU lowering and the
  // interpreter implement those two, rounding to nearest even and
  // saturating to the largest finite value, as cvt.rn.satfinite does);
  // other types go through f32, which is exact for f16/bf16/integers up to
  // 2^24.
  if ((from.isFp8() || to.isFp8()) && from.getScalar() != ScalarType::F32 &&
      to.getScalar() != ScalarType::F32)
    return cast(cast(value, ScalarType::F32, loc), to, loc);
  if (from.isFloat() && to.isFloat()) {
    unsigned fromBits = from.getBitWidth(), toBits = to.getBitWidth();
    if (fromBits == toBits) // f16 <-> bf16 goes through f32
      return cast(cast(value, ScalarType::F32, loc), to, loc);
    if (fromBits > toBits)
      return make(mlir::arith::TruncFOp::create(builder, result, v));
    return make(mlir::arith::ExtFOp::create(builder, result, v));
  }
  if (from.isInt() && to.isInt()) {
    if (to.isBool())
      return compare(BinaryOpKind::Ne, value, Value::integer(0), loc);
    unsigned fromBits = from.getBitWidth(), toBits = to.getBitWidth();
    if (fromBits == toBits) // only the signedness changes
      return Value::ir(v, resultType);
    if (fromBits > toBits)
      return make(mlir::arith::TruncIOp::create(builder, result, v));
    if (from.isSigned())
      return make(mlir::arith::ExtSIOp::create(builder, result, v));
    return make(mlir::arith::ExtUIOp::create(builder, result, v));
  }
  if (from.isFloat() && to.isInt()) {
    if (to.isBool())
      return compare(BinaryOpKind::Ne, value, Value::floating(0.0), loc);
    if (to.isSigned())
      return make(mlir::arith::FPToSIOp::create(builder, result, v));
    return make(mlir::arith::FPToUIOp::create(builder, result, v));
  }
  // Integer to float.
  if (from.isSigned())
    return make(mlir::arith::SIToFPOp::create(builder, result, v));
  return make(mlir::arith::UIToFPOp::create(builder, result, v));
}

Value IRGen::bitcast(const Value &input, DType to, SourceLoc loc) {
  Value value = toIR(input, loc, "the value of a bitcast");
  DType from = value.getDType();
  if (from == to)
    return value;
  if (from.isPointer() || to.isPointer())
    return cast(value, to, loc);
  if (from.getBitWidth() != to.getBitWidth())
    error(loc, "cannot bitcast " + from.toString() + " (" +
                   std::to_string(from.getBitWidth()) + " bits) to " +
                   to.toString() + " (" + std::to_string(to.getBitWidth()) +
                   " bits)");
  ValueType resultType = value.getType().withDType(to);
  mlir::Type result = getMLIRType(resultType);
  if (result == value.getIR().getType())
    return Value::ir(value.getIR(), resultType);
  return Value::ir(
      mlir::arith::BitcastOp::create(builder, result, value.getIR()),
      resultType);
}

//===----------------------------------------------------------------------===//
// Broadcasting
//===----------------------------------------------------------------------===//

Value IRGen::broadcastTo(const Value &input, const Shape &shape,
                         SourceLoc loc) {
  Value value = toIR(input, loc, "the operand");
  const Shape &from = value.getShape();
  if (from == shape)
    return value;
  ValueType resultType = value.getType().withShape(shape);
  if (value.getType().isScalar()) {
    if (auto constant =
            value.getIR().getDefiningOp<mlir::arith::ConstantOp>()) {
      mlir::TypedAttr attr =
          splatAttr(constant.getValue(), getMLIRType(resultType));
      return Value::ir(mlir::arith::ConstantOp::create(builder, attr),
                       resultType);
    }
    return Value::ir(mlir::tk::SplatOp::create(builder,
                                               getMLIRType(resultType),
                                               value.getIR()),
                     resultType);
  }
  if (!sema::canBroadcastTo(from, shape))
    error(loc, "cannot broadcast " + value.getType().toString() +
                   " to shape " + sema::shapeToString(shape));
  // Missing leading dimensions first, then the size-1 ones.
  while (value.getShape().size() < shape.size()) {
    Shape expanded = value.getShape();
    expanded.insert(expanded.begin(), 1);
    ValueType expandedType = value.getType().withShape(expanded);
    value = Value::ir(mlir::tk::ExpandDimsOp::create(
                          builder, getMLIRType(expandedType), value.getIR(),
                          builder.getI32IntegerAttr(0)),
                      expandedType);
  }
  if (value.getShape() == shape)
    return value;
  return Value::ir(mlir::tk::BroadcastOp::create(
                       builder, getMLIRType(resultType), value.getIR()),
                   resultType);
}

void IRGen::broadcastPair(Value &a, Value &b, SourceLoc loc) {
  if (a.getShape() == b.getShape())
    return;
  std::string message;
  std::optional<Shape> shape =
      sema::broadcastShapes(a.getShape(), b.getShape(), message);
  if (!shape)
    error(loc, "cannot broadcast " + a.getType().toString() + " and " +
                   b.getType().toString() + " together: " + message);
  a = broadcastTo(a, *shape, loc);
  b = broadcastTo(b, *shape, loc);
}

} // namespace tk::irgen
