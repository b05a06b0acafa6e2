//===- IRGenBuiltins.cpp - the builtin functions --------------------------===//
//
// The argument helpers shared by the builtin files, shapes, math,
// reductions and scans, dot, the Python builtins on compile-time values,
// and callBuiltin, which binds a call's arguments and dispatches to every
// builtin (load/store/atomics/hints are in IRGenMemoryBuiltins.cpp, the
// other families in the files IRGenImpl.h lists). Signatures and keyword
// names are Triton's (Builtins.cpp). Notes on the emitted IR:
//  * math on f16/bf16 computes in f32 and rounds back (extf/truncf), as
//    Triton does; integer arguments to exp, log, ... are an error.
//  * sum of i1/i8/i16 (and u8/u16) accumulates in i32 (u32), and sum and
//    cumsum of f16/bf16 in f32 rounding the result back, unless sum is given
//    dtype=, which it accumulates in (and wraps in), as Triton.
//  * axis=None reduces over every dimension (reshape to 1-D first).
//  * dot: f16/bf16 inputs accumulate in f32 (f16 with out_dtype=f16), f32
//    inputs use tf32 unless input_precision="ieee", i8 accumulates in i32.
//  * maximum/minimum propagate NaN (arith.maximumf) unless
//    propagate_nan=False (arith.maxnumf).
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/IRGenImpl.h"

#include "dialects/tk/TkDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>

namespace tk::irgen {

using ast::BinaryOpKind;
using sema::DType;
using sema::Shape;
using sema::ValueType;

//===----------------------------------------------------------------------===//
// Argument helpers
//===----------------------------------------------------------------------===//

int64_t IRGen::requireInt(const Value &value, SourceLoc loc,
                          const std::string &what) {
  if (value.is(Value::Kind::Int) || value.is(Value::Kind::Bool))
    return value.getIntLike();
  error(loc, what + " must be a compile-time integer, got " +
                 (value.isIR() ? value.getType().toString()
                               : value.describe()));
}

Shape IRGen::requireShape(const Value &value, SourceLoc loc,
                          const std::string &what) {
  Shape shape;
  if (value.is(Value::Kind::Int)) {
    shape.push_back(value.getInt());
  } else if (value.is(Value::Kind::Tuple)) {
    for (const Value &element : value.getElements())
      shape.push_back(requireInt(element, loc, "each dimension of " + what));
  } else {
    error(loc, what + " must be a tuple of compile-time integers, got " +
                   (value.isIR() ? value.getType().toString()
                                 : value.describe()));
  }
  std::string message;
  if (!sema::checkBlockShape(shape, message))
    error(loc, message);
  return shape;
}

Shape IRGen::requireVariadicShape(const BoundArgs &args,
                                  const std::string &param,
                                  const std::string &what, SourceLoc loc) {
  const std::vector<Value> &values = args.varargs();
  if (values.empty())
    error(loc, what + " is missing");
  if (values.size() == 1 && values.front().is(Value::Kind::Tuple))
    return requireShape(values.front(), args.varargLocs().front(), what);
  std::vector<Value> elements = values;
  return requireShape(Value::tuple(elements), args.varargLocs().front(), what);
}

DType IRGen::requireDType(const Value &value, SourceLoc loc,
                          const std::string &what) {
  if (value.is(Value::Kind::Type))
    return value.getType().dtype;
  error(loc, what + " must be a type such as f16 or i32, got " +
                 (value.isIR() ? value.getType().toString()
                               : value.describe()));
}

Value IRGen::requireBlock(const Value &value, SourceLoc loc,
                          const std::string &what) {
  if (value.isBlock())
    return value;
  error(loc, what + " must be a block, got " +
                 (value.isIR() ? value.getType().toString()
                               : value.describe()));
}

/// A compile-time bool keyword (`keep_dims=True`); `fallback` when absent.
bool getFlag(IRGen &gen, const BoundArgs &args, const std::string &name,
             bool fallback) {
  if (!args.has(name))
    return fallback;
  const Value &value = args.get(name);
  if (!value.is(Value::Kind::Bool) && !value.is(Value::Kind::Int))
    gen.error(args.loc(name), "'" + name +
                                  "' must be a compile-time bool, got " +
                                  value.describe());
  return value.getIntLike() != 0;
}

std::string getStringArg(IRGen &gen, const BoundArgs &args,
                         const std::string &name) {
  if (!args.has(name))
    return "";
  const Value &value = args.get(name);
  if (!value.is(Value::Kind::String))
    gen.error(args.loc(name), "'" + name + "' must be a string, got " +
                                  value.describe());
  return value.getString();
}

int64_t IRGen::normalizeAxis(int64_t axis, int64_t rank, SourceLoc loc,
                             const std::string &what) {
  if (axis < -rank || axis >= rank)
    error(loc, what + " " + std::to_string(axis) +
                   " is out of range for a block of rank " +
                   std::to_string(rank) + " (valid: " +
                   std::to_string(-rank) + " to " + std::to_string(rank - 1) +
                   ")");
  return axis < 0 ? axis + rank : axis;
}

std::string describeValue(const Value &value) {
  return value.isIR() ? value.getType().toString() : value.describe();
}

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

Value IRGen::expandDims(const Value &input, int64_t axis, SourceLoc loc) {
  Value value = toIR(input, loc, "the operand of expand_dims");
  Shape shape = value.getShape();
  if (axis < 0 || axis > int64_t(shape.size()))
    error(loc, "cannot insert a dimension at " + std::to_string(axis) +
                   " in " + value.getType().toString());
  shape.insert(shape.begin() + axis, 1);
  if (value.getType().isScalar())
    return broadcastTo(value, shape, loc);
  ValueType type = value.getType().withShape(shape);
  return Value::ir(mlir::tk::ExpandDimsOp::create(
                       builder, getMLIRType(type), value.getIR(),
                       builder.getI32IntegerAttr(int32_t(axis))),
                   type);
}

Value IRGen::reshape(const Value &input, const Shape &shape, SourceLoc loc) {
  Value value = toIR(input, loc, "the operand of reshape");
  ValueType type = value.getType().withShape(shape);
  if (type.getNumElements() != value.getType().getNumElements())
    error(loc, "cannot reshape " + value.getType().toString() + " (" +
                   std::to_string(value.getType().getNumElements()) +
                   " elements) to " + sema::shapeToString(shape));
  if (value.getShape() == shape)
    return value;
  if (value.getType().isScalar())
    return broadcastTo(value, shape, loc);
  return Value::ir(mlir::tk::ReshapeOp::create(builder, getMLIRType(type),
                                               value.getIR()),
                   type);
}

Value IRGen::trans(const Value &input, std::vector<int64_t> order,
                   SourceLoc loc) {
  Value value = requireBlock(input, loc, "the operand of trans");
  int64_t rank = value.getType().getRank();
  if (order.empty()) {
    if (rank == 1)
      return value;
    if (rank != 2)
      error(loc, "trans() of a rank-" + std::to_string(rank) +
                     " block needs the order of the dimensions");
    order = {1, 0};
  }
  std::vector<int64_t> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  bool isPermutation = int64_t(order.size()) == rank;
  for (int64_t i = 0; isPermutation && i < rank; ++i)
    isPermutation = sorted[i] == i;
  if (!isPermutation)
    error(loc, "the dimensions " + sema::shapeToString(order) +
                   " are not a permutation of 0.." +
                   std::to_string(rank - 1));
  Shape shape;
  std::vector<int32_t> order32;
  for (int64_t d : order) {
    shape.push_back(value.getShape()[d]);
    order32.push_back(int32_t(d));
  }
  ValueType type = value.getType().withShape(shape);
  return Value::ir(mlir::tk::TransOp::create(builder, getMLIRType(type),
                                             value.getIR(), order32),
                   type);
}

//===----------------------------------------------------------------------===//
// Math
//===----------------------------------------------------------------------===//

Value IRGen::emitMath(BuiltinId id, const Value &input, SourceLoc loc) {
  const char *name = getBuiltinName(id);
  if (id == BuiltinId::Abs && input.isNumericConstant()) {
    if (input.is(Value::Kind::Float))
      return Value::floating(std::fabs(input.getFloat()));
    if (input.getIntLike() == std::numeric_limits<int64_t>::min())
      error(loc, "integer overflow in a compile-time abs()");
    return Value::integer(std::llabs(input.getIntLike()));
  }
  Value x = input;
  if (x.isNumericConstant())
    x = materialize(x, x.is(Value::Kind::Float) ? getLiteralType(x)
                                                : DType(ScalarType::F32),
                    loc);
  if (!x.isIR())
    error(loc, std::string(name) + "() needs a number or a block, got " +
                   x.describe());
  DType type = x.getDType();
  if (type.isPointer())
    error(loc, std::string(name) + "() needs numbers, got " +
                   x.getType().toString());
  if (id == BuiltinId::Abs && type.isInt()) {
    if (!type.isSigned())
      return x;
    return Value::ir(mlir::math::AbsIOp::create(builder, x.getIR()),
                     x.getType());
  }
  if (!type.isFloat())
    error(loc, std::string(name) + "() needs floating-point values, got " +
                   x.getType().toString() + "; convert with .to(f32)");
  // f16/bf16: compute in f32 and round back.
  bool isHalf = type.getBitWidth() < 32; // f16, bf16 and fp8
  Value wide = isHalf ? cast(x, ScalarType::F32, loc) : x;
  mlir::Value v = wide.getIR(), result;
  namespace math = mlir::math;
  switch (id) {
  case BuiltinId::Exp: result = math::ExpOp::create(builder, v); break;
  case BuiltinId::Exp2: result = math::Exp2Op::create(builder, v); break;
  case BuiltinId::Log: result = math::LogOp::create(builder, v); break;
  case BuiltinId::Log2: result = math::Log2Op::create(builder, v); break;
  case BuiltinId::Sqrt: result = math::SqrtOp::create(builder, v); break;
  case BuiltinId::Rsqrt: result = math::RsqrtOp::create(builder, v); break;
  case BuiltinId::Sin: result = math::SinOp::create(builder, v); break;
  case BuiltinId::Cos: result = math::CosOp::create(builder, v); break;
  case BuiltinId::Abs: result = math::AbsFOp::create(builder, v); break;
  case BuiltinId::Tanh: result = math::TanhOp::create(builder, v); break;
  case BuiltinId::Erf: result = math::ErfOp::create(builder, v); break;
  case BuiltinId::Floor: result = math::FloorOp::create(builder, v); break;
  case BuiltinId::Ceil: result = math::CeilOp::create(builder, v); break;
  case BuiltinId::Sigmoid: {
    // 1 / (1 + exp(-x))
    mlir::Value negated = mlir::arith::NegFOp::create(builder, v);
    mlir::Value e = math::ExpOp::create(builder, negated);
    mlir::Value one = constantFloat(1.0, wide.getDType(), wide.getShape())
                          .getIR();
    mlir::Value denominator = mlir::arith::AddFOp::create(builder, one, e);
    result = mlir::arith::DivFOp::create(builder, one, denominator,
                                         approximateDivision(wide.getDType()));
    break;
  }
  default:
    error(loc, std::string("unsupported math function ") + name);
  }
  Value out = Value::ir(result, wide.getType());
  return isHalf ? cast(out, type, loc) : out;
}

//===----------------------------------------------------------------------===//
// Reductions and scans
//===----------------------------------------------------------------------===//

Value IRGen::reduceAlong(BuiltinId id, const Value &input, int64_t axis,
                         SourceLoc loc) {
  DType type = input.getDType();
  mlir::tk::ReduceKind kind;
  bool isIndex = false;
  switch (id) {
  case BuiltinId::Sum:
    kind = mlir::tk::ReduceKind::Sum;
    break;
  case BuiltinId::Max:
    kind = type.isFloat() || type.isSigned() ? mlir::tk::ReduceKind::Max
                                             : mlir::tk::ReduceKind::UMax;
    break;
  case BuiltinId::Min:
    kind = type.isFloat() || type.isSigned() ? mlir::tk::ReduceKind::Min
                                             : mlir::tk::ReduceKind::UMin;
    break;
  case BuiltinId::ArgMax:
    kind = mlir::tk::ReduceKind::ArgMax;
    isIndex = true;
    break;
  default:
    kind = mlir::tk::ReduceKind::ArgMin;
    isIndex = true;
    break;
  }
  if (isIndex && (type.isUnsigned() || type.isBool())) {
    // Unsigned order is signed order with the top bit flipped: the index
    // of the extreme is the same (i1 counts as unsigned).
    DType asSigned = sema::getIntType(std::max(8u, type.getBitWidth()),
                                      /*isUnsigned=*/false);
    Value wide = type.isBool() ? cast(input, ScalarType::U8, loc) : input;
    Value flipped = binaryOp(ast::BinaryOpKind::BitXor, wide,
                             constantInt(int64_t(1) << (asSigned.getBitWidth() - 1),
                                         wide.getDType(), wide.getShape()),
                             loc);
    return reduceAlong(id, bitcast(flipped, asSigned, loc), axis, loc);
  }
  if (isIndex && !type.isFloat() && !type.isSigned())
    error(loc, std::string(getBuiltinName(id)) +
                   "() supports floats and integers, got " +
                   input.getType().toString());
  Shape shape = input.getShape();
  shape.erase(shape.begin() + axis);
  ValueType resultType(isIndex ? DType(ScalarType::I32) : type, shape);
  return Value::ir(mlir::tk::ReduceOp::create(builder, getMLIRType(resultType),
                                              kind, input.getIR(),
                                              uint32_t(axis))
                       .getResult(0),
                   resultType);
}

/// The type a sum/cumsum accumulates in: i32/u32 for narrow integers, f32
/// for f16/bf16.
static DType getAccumulationType(DType type) {
  if (type.isInt() && type.getBitWidth() < 32)
    return type.isUnsigned() ? DType(ScalarType::U32) : DType(ScalarType::I32);
  if (type.isFloat() && type.getBitWidth() < 32)
    return ScalarType::F32;
  return type;
}

Value IRGen::emitReduce(BuiltinId id, const BoundArgs &args, SourceLoc loc) {
  const char *name = getBuiltinName(id);
  Value input = requireBlock(args.get("input"), args.loc("input"),
                             std::string("the input of ") + name + "()");
  if (input.getDType().isPointer())
    error(args.loc("input"), std::string(name) + "() cannot reduce pointers");
  bool keepDims = getFlag(*this, args, "keep_dims", false);
  int64_t axis = 0;
  Shape keptShape;
  if (!args.has("axis")) {
    keptShape.assign(input.getShape().size(), 1);
    if (input.getType().getRank() > 1)
      input = reshape(input, {input.getType().getNumElements()}, loc);
  } else {
    axis = normalizeAxis(requireInt(args.get("axis"), args.loc("axis"),
                                    "the axis"),
                         input.getType().getRank(), args.loc("axis"),
                         "axis");
    keptShape = input.getShape();
    keptShape[axis] = 1;
  }
  auto keep = [&](const Value &result) {
    return keepDims ? reshape(result, keptShape, loc) : result;
  };

  if (id == BuiltinId::Sum) {
    // With dtype=, Triton accumulates in exactly that type (an i8 sum wraps
    // in i8); without it, narrow types widen (getAccumulationType).
    bool explicitType = args.has("dtype") && !args.get("dtype").is(Value::Kind::None);
    if (explicitType)
      input = cast(input, requireDType(args.get("dtype"), args.loc("dtype"),
                                       "dtype"),
                   loc);
    DType type = input.getDType();
    DType accumulate = explicitType ? type : getAccumulationType(type);
    Value result = reduceAlong(id, cast(input, accumulate, loc), axis, loc);
    // Narrow floats round back to their type; narrow integers stay i32.
    if (type.isFloat() && accumulate != type)
      result = cast(result, type, loc);
    return keep(result);
  }
  if (id == BuiltinId::ArgMax || id == BuiltinId::ArgMin) {
    if (!getFlag(*this, args, "tie_break_left", true))
      error(args.loc("tie_break_left"), "only tie_break_left=True is "
                                        "supported");
    return keep(reduceAlong(id, input, axis, loc));
  }
  // max / min, optionally with the index.
  Value value = keep(reduceAlong(id, input, axis, loc));
  if (!getFlag(*this, args, "return_indices", false))
    return value;
  if (!getFlag(*this, args, "return_indices_tie_break_left", true))
    error(args.loc("return_indices_tie_break_left"),
          "only return_indices_tie_break_left=True is supported");
  Value index = keep(reduceAlong(
      id == BuiltinId::Max ? BuiltinId::ArgMax : BuiltinId::ArgMin, input,
      axis, loc));
  return Value::tuple({value, index});
}

Value IRGen::emitScan(BuiltinId id, const BoundArgs &args, SourceLoc loc) {
  const char *name = getBuiltinName(id);
  Value input = requireBlock(args.get("input"), args.loc("input"),
                             std::string("the input of ") + name + "()");
  if (input.getDType().isPointer())
    error(args.loc("input"), std::string(name) + "() cannot scan pointers");
  int64_t axis = 0;
  if (args.has("axis"))
    axis = requireInt(args.get("axis"), args.loc("axis"), "the axis");
  axis = normalizeAxis(axis, input.getType().getRank(),
                       args.has("axis") ? args.loc("axis") : loc, "axis");
  bool reverse = getFlag(*this, args, "reverse", false);
  if (args.has("dtype"))
    input = cast(input,
                 requireDType(args.get("dtype"), args.loc("dtype"), "dtype"),
                 loc);
  DType type = input.getDType();
  DType accumulate = getAccumulationType(type);
  Value wide = cast(input, accumulate, loc);
  auto kind = id == BuiltinId::CumSum ? mlir::tk::ScanKind::Sum
                                      : mlir::tk::ScanKind::Prod;
  Value result = Value::ir(
      mlir::tk::ScanOp::create(builder, getMLIRType(wide.getType()), kind,
                               wide.getIR(), uint32_t(axis), reverse)
          .getResult(0),
      wide.getType());
  if (type.isFloat() && accumulate != type)
    result = cast(result, type, loc);
  return result;
}

//===----------------------------------------------------------------------===//
// dot
//===----------------------------------------------------------------------===//

Value IRGen::dot(const Value &aIn, const Value &bIn, std::optional<Value> acc,
                 std::optional<std::string> precision,
                 std::optional<DType> outType, SourceLoc loc) {
  Value a = requireBlock(aIn, loc, "the first operand of dot");
  Value b = requireBlock(bIn, loc, "the second operand of dot");
  if (a.getType().getRank() != 2 || b.getType().getRank() != 2)
    error(loc, "dot() needs 2-D blocks, got " + a.getType().toString() +
                   " and " + b.getType().toString());
  int64_t m = a.getShape()[0], k = a.getShape()[1], n = b.getShape()[1];
  if (b.getShape()[0] != k)
    error(loc, "dot(): the inner dimensions differ: " +
                   a.getType().toString() + " @ " + b.getType().toString() +
                   " (" + std::to_string(k) + " vs " +
                   std::to_string(b.getShape()[0]) + ")");
  if (m < 16 || n < 16 || k < 16)
    error(loc, "dot() needs M, N and K of at least 16, got M=" +
                   std::to_string(m) + ", N=" + std::to_string(n) +
                   ", K=" + std::to_string(k));
  // fp8 operands (e4m3 and e5m2, also mixed) widen to f16, which holds
  // every fp8 value exactly, and take its tensor-core path: the products
  // and the f32 accumulation are those of an fp8 dot. (A native fp8 wgmma
  // would run at twice the rate.)
  if (a.getDType().isFp8() && b.getDType().isFp8()) {
    a = cast(a, ScalarType::F16, loc);
    b = cast(b, ScalarType::F16, loc);
  }
  DType type = a.getDType();
  if (type != b.getDType())
    error(loc, "dot() operands must have the same element type, got " +
                   type.toString() + " and " + b.getDType().toString());
  bool isF16 = type.getScalar() == ScalarType::F16;
  DType result;
  switch (type.getScalar()) {
  case ScalarType::F16:
  case ScalarType::BF16:
  case ScalarType::F32:
    result = ScalarType::F32;
    break;
  case ScalarType::F64:
    result = ScalarType::F64;
    break;
  case ScalarType::I8:
    result = ScalarType::I32;
    break;
  default:
    error(loc, "dot() supports f16, bf16, fp8, f32, f64 and i8 operands, got " +
                   type.toString());
  }
  if (outType) {
    bool ok = *outType == result ||
              (isF16 && outType->getScalar() == ScalarType::F16);
    if (!ok)
      error(loc, "dot() of " + type.toString() +
                     " operands cannot produce " + outType->toString());
    result = *outType;
  }
  Value c;
  if (acc) {
    c = requireBlock(*acc, loc, "the accumulator of dot");
    if (c.getShape() != Shape{m, n})
      error(loc, "dot(): the accumulator is " + c.getType().toString() +
                     " but the product is " +
                     sema::shapeToString(Shape{m, n}));
    DType accType = c.getDType();
    bool ok = accType == result ||
              (isF16 && !outType && accType.getScalar() == ScalarType::F16);
    if (!ok)
      error(loc, "dot(): a " + accType.toString() +
                     " accumulator does not go with " + type.toString() +
                     " operands (expected " + result.toString() + ")");
  } else {
    c = zeroOf(ValueType(result, {m, n}));
  }
  auto mode = mlir::tk::DotPrecision::TF32;
  if (precision) {
    if (auto parsed = mlir::tk::symbolizeDotPrecision(*precision))
      mode = *parsed;
    else
      error(loc, "input_precision must be \"tf32\", \"tf32x3\" or "
                 "\"ieee\", got \"" +
                     *precision + "\"");
  }
  return Value::ir(mlir::tk::DotOp::create(builder, c.getIR().getType(),
                                           a.getIR(), b.getIR(), c.getIR(),
                                           mode),
                   c.getType());
}

Value IRGen::emitDot(const BoundArgs &args, SourceLoc loc) {
  std::optional<Value> acc;
  if (args.has("acc"))
    acc = args.get("acc");
  std::optional<std::string> precision;
  if (args.has("input_precision"))
    precision = getStringArg(*this, args, "input_precision");
  if (args.has("allow_tf32") && !getFlag(*this, args, "allow_tf32", true))
    precision = "ieee";
  std::optional<DType> outType;
  if (args.has("out_dtype"))
    outType = requireDType(args.get("out_dtype"), args.loc("out_dtype"),
                           "out_dtype");
  if (args.has("max_num_imprecise_acc"))
    error(args.loc("max_num_imprecise_acc"),
          "max_num_imprecise_acc is not supported");
  return dot(args.get("input"), args.get("other"), acc, precision, outType,
             loc);
}

//===----------------------------------------------------------------------===//
// Python builtins on compile-time values
//===----------------------------------------------------------------------===//

Value IRGen::emitPythonBuiltin(BuiltinId id, const BoundArgs &args,
                               SourceLoc loc) {
  std::string name = getBuiltinName(id);
  const Value &x = args.get("x");
  if (x.isIR())
    error(args.loc("x"), name + "() needs a compile-time value, got " +
                             x.getType().toString() +
                             (id == BuiltinId::PyLen
                                  ? std::string("; use x.shape")
                                  : "; use x.to(...) to convert"));
  switch (id) {
  case BuiltinId::PyFloat:
    if (!args.has("x"))
      return Value::floating(0.0);
    if (x.is(Value::Kind::String)) {
      std::string text = x.getString();
      std::string lower;
      for (char c : text)
        lower += char(std::tolower(static_cast<unsigned char>(c)));
      if (lower == "inf" || lower == "+inf" || lower == "infinity")
        return Value::floating(std::numeric_limits<double>::infinity());
      if (lower == "-inf" || lower == "-infinity")
        return Value::floating(-std::numeric_limits<double>::infinity());
      if (lower == "nan" || lower == "+nan" || lower == "-nan")
        return Value::floating(std::numeric_limits<double>::quiet_NaN());
      char *end = nullptr;
      double value = std::strtod(text.c_str(), &end);
      if (text.empty() || *end != '\0')
        error(args.loc("x"), "could not convert string to float: '" + text +
                                 "'");
      return Value::floating(value);
    }
    if (!x.isNumericConstant())
      error(args.loc("x"), "float() needs a number, got " + x.describe());
    return Value::floating(x.getAsDouble());
  case BuiltinId::PyInt:
    if (x.is(Value::Kind::Float)) {
      double value = std::trunc(x.getFloat());
      if (!std::isfinite(value) || std::fabs(value) >= 9.2e18)
        error(args.loc("x"), "cannot convert " + x.describe() +
                                 " to an integer");
      return Value::integer(int64_t(value));
    }
    if (!x.isNumericConstant())
      error(args.loc("x"), "int() needs a number, got " + x.describe());
    return Value::integer(x.getIntLike());
  case BuiltinId::PyBool:
    return Value::boolean(isTruthy(x, args.loc("x")));
  default: // len
    if (!x.is(Value::Kind::Tuple))
      error(args.loc("x"), "len() needs a tuple, got " + x.describe());
    return Value::integer(int64_t(x.getElements().size()));
  }
}

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

Value IRGen::callBuiltin(BuiltinId id, const CallArgs &callArgs,
                         SourceLoc loc) {
  std::string name = getBuiltinName(id);
  if (id == BuiltinId::Config)
    error(loc, "Config(...) is only valid in @autotune(configs=[...])");
  if (id == BuiltinId::Range || id == BuiltinId::StaticRange)
    error(loc, name + "() can only be the iterable of a 'for' loop");
  BoundArgs args = bindArgs(name, getBuiltinSignature(id), callArgs);

  switch (id) {
  case BuiltinId::ProgramId:
  case BuiltinId::NumPrograms: {
    int64_t axis = requireInt(args.get("axis"), args.loc("axis"), "the axis");
    if (axis < 0 || axis > 2)
      error(args.loc("axis"), name + "() axis must be 0, 1 or 2, got " +
                                  std::to_string(axis));
    mlir::Value result =
        id == BuiltinId::ProgramId
            ? mlir::tk::ProgramIdOp::create(builder, uint32_t(axis))
                  .getResult()
            : mlir::tk::NumProgramsOp::create(builder, uint32_t(axis))
                  .getResult();
    return Value::ir(result, DType(ScalarType::I32));
  }

  case BuiltinId::ClusterRank: {
    // The CTAs of a cluster are consecutive along x (cluster_size=), so
    // the rank is program_id(0) mod the size: %cluster_ctarank on sm_90a,
    // and the same number where programs run unclustered (sm_80, the
    // interpreter).
    if (clusterSize == 1)
      return Value::ir(mlir::arith::ConstantIntOp::create(builder, 0, 32),
                       DType(ScalarType::I32));
    mlir::Value pid = mlir::tk::ProgramIdOp::create(builder, 0u);
    mlir::Value size =
        mlir::arith::ConstantIntOp::create(builder, clusterSize, 32);
    return Value::ir(mlir::arith::RemSIOp::create(builder, pid, size),
                     DType(ScalarType::I32));
  }

  case BuiltinId::Arange: {
    int64_t start = requireInt(args.get("start"), args.loc("start"),
                               "the start of arange()");
    int64_t end =
        requireInt(args.get("end"), args.loc("end"), "the end of arange()");
    auto fits = [](int64_t v) {
      return v >= std::numeric_limits<int32_t>::min() &&
             v <= std::numeric_limits<int32_t>::max();
    };
    if (!fits(start) || !fits(end))
      error(loc, "arange() bounds must fit in i32");
    if (end <= start)
      error(loc, "arange(" + std::to_string(start) + ", " +
                     std::to_string(end) +
                     "): the end must be greater than the start");
    int64_t length = end - start;
    if (!sema::isPowerOfTwo(length))
      error(loc, "arange(" + std::to_string(start) + ", " +
                     std::to_string(end) + ") has " + std::to_string(length) +
                     " elements; the length must be a power of two");
    if (length > sema::kMaxBlockElements)
      error(loc, "arange() of " + std::to_string(length) +
                     " elements is too large");
    ValueType type(ScalarType::I32, {length});
    return Value::ir(mlir::tk::MakeRangeOp::create(
                         builder, getMLIRType(type), uint32_t(start),
                         uint32_t(end)),
                     type);
  }

  case BuiltinId::Zeros:
  case BuiltinId::Full: {
    Shape shape = requireShape(args.get("shape"), args.loc("shape"),
                               "the shape");
    DType dtype =
        requireDType(args.get("dtype"), args.loc("dtype"), "the dtype");
    if (dtype.isPointer())
      error(args.loc("dtype"), name + "() cannot create pointers");
    if (id == BuiltinId::Zeros)
      return zeroOf(ValueType(dtype, shape));
    const Value &value = args.get("value");
    if (value.isBlock())
      error(args.loc("value"), "the value of full() must be a scalar, got " +
                                   value.getType().toString());
    return broadcastTo(cast(value, dtype, args.loc("value")), shape,
                       args.loc("value"));
  }
  case BuiltinId::ZerosLike:
  case BuiltinId::FullLike: {
    Value input = requireBlock(args.get("input"), args.loc("input"),
                               "the input");
    DType dtype = args.has("dtype") ? requireDType(args.get("dtype"),
                                                   args.loc("dtype"),
                                                   "the dtype")
                                    : input.getDType();
    if (id == BuiltinId::ZerosLike)
      return zeroOf(ValueType(dtype, input.getShape()));
    const Value &value = args.get("value");
    if (value.isBlock())
      error(args.loc("value"), "the value of full_like() must be a scalar");
    return broadcastTo(cast(value, dtype, args.loc("value")),
                       input.getShape(), args.loc("value"));
  }

  case BuiltinId::Load:
    return emitLoad(args, loc);
  case BuiltinId::Store:
    return emitStore(args, loc);
  case BuiltinId::AtomicAdd:
  case BuiltinId::AtomicMax:
  case BuiltinId::AtomicMin:
  case BuiltinId::AtomicXchg:
  case BuiltinId::AtomicAnd:
  case BuiltinId::AtomicOr:
  case BuiltinId::AtomicXor:
  case BuiltinId::AtomicCas:
    return emitAtomic(id, args, loc);

  case BuiltinId::Dot:
    return emitDot(args, loc);
  case BuiltinId::DotScaled:
    return emitDotScaled(args, loc);
  case BuiltinId::Sum:
  case BuiltinId::Max:
  case BuiltinId::Min:
  case BuiltinId::ArgMax:
  case BuiltinId::ArgMin:
    return emitReduce(id, args, loc);
  case BuiltinId::CumSum:
  case BuiltinId::CumProd:
    return emitScan(id, args, loc);

  case BuiltinId::Exp:
  case BuiltinId::Exp2:
  case BuiltinId::Log:
  case BuiltinId::Log2:
  case BuiltinId::Sqrt:
  case BuiltinId::Rsqrt:
  case BuiltinId::Sin:
  case BuiltinId::Cos:
  case BuiltinId::Abs:
  case BuiltinId::Sigmoid:
  case BuiltinId::Tanh:
  case BuiltinId::Erf:
  case BuiltinId::Floor:
  case BuiltinId::Ceil:
    return emitMath(id, args.get("x"), loc);

  case BuiltinId::Maximum:
  case BuiltinId::Minimum:
    return maximumOrMinimum(id == BuiltinId::Maximum, args.get("x"),
                            args.get("y"),
                            getFlag(*this, args, "propagate_nan", true), loc);
  case BuiltinId::Clamp: {
    bool propagate = getFlag(*this, args, "propagate_nan", true);
    Value low = maximumOrMinimum(true, args.get("x"), args.get("min"),
                                 propagate, loc);
    return maximumOrMinimum(false, low, args.get("max"), propagate, loc);
  }
  case BuiltinId::Where:
    return select(args.get("condition"), args.get("x"), args.get("y"), loc);
  case BuiltinId::Cdiv: {
    // (x + div - 1) // div
    const Value &x = args.get("x"), &div = args.get("div");
    Value sum = binaryOp(BinaryOpKind::Add, x, div, loc);
    Value minusOne = binaryOp(BinaryOpKind::Sub, sum, Value::integer(1), loc);
    return binaryOp(BinaryOpKind::FloorDiv, minusOne, div, loc);
  }
  case BuiltinId::DivRn:
    return ieeeDivide(args.get("x"), args.get("y"), "div_rn", loc);
  case BuiltinId::Fma: {
    Value x = args.get("x"), y = args.get("y"), z = args.get("z");
    promoteOperands(x, y, false, "fma", loc);
    promoteOperands(x, z, false, "fma", loc);
    if (x.getDType() != y.getDType() || x.getShape() != y.getShape()) {
      y = cast(y, x.getDType(), loc);
      y = broadcastTo(y, x.getShape(), loc);
    }
    if (!x.getDType().isFloat())
      error(loc, "fma() needs floating-point values, got " +
                     x.getType().toString());
    return Value::ir(
        mlir::math::FmaOp::create(builder, x.getIR(), y.getIR(), z.getIR()),
        x.getType());
  }

  case BuiltinId::MultipleOf:
  case BuiltinId::MaxContiguous:
  case BuiltinId::MaxConstancy:
    return emitHint(id, args, loc);

  case BuiltinId::Reshape:
  case BuiltinId::View:
    return reshape(requireBlock(args.get("input"), args.loc("input"),
                                "the input of " + name + "()"),
                   requireVariadicShape(args, "shape", "the new shape", loc),
                   loc);
  case BuiltinId::Trans:
  case BuiltinId::Permute: {
    std::vector<int64_t> order;
    const std::vector<Value> &dims = args.varargs();
    std::vector<Value> items =
        dims.size() == 1 && dims.front().is(Value::Kind::Tuple)
            ? dims.front().getElements()
            : dims;
    for (const Value &item : items)
      order.push_back(requireInt(item, loc, "each dimension"));
    if (id == BuiltinId::Permute && order.empty())
      error(loc, "permute() needs the order of the dimensions");
    return trans(args.get("input"), order, loc);
  }
  case BuiltinId::BroadcastTo: {
    Shape shape = requireVariadicShape(args, "shape", "the shape", loc);
    Value input = toIR(args.get("input"), args.loc("input"), "the input");
    if (!sema::canBroadcastTo(input.getShape(), shape))
      error(loc, "cannot broadcast " + input.getType().toString() +
                     " to shape " + sema::shapeToString(shape));
    return broadcastTo(input, shape, loc);
  }
  case BuiltinId::ExpandDims: {
    Value input = toIR(args.get("input"), args.loc("input"), "the input");
    const Value &axisValue = args.get("axis");
    std::vector<Value> items = axisValue.is(Value::Kind::Tuple)
                                   ? axisValue.getElements()
                                   : std::vector<Value>{axisValue};
    int64_t newRank = input.getType().getRank() + int64_t(items.size());
    std::vector<int64_t> axes;
    for (const Value &item : items)
      axes.push_back(normalizeAxis(
          requireInt(item, args.loc("axis"), "the axis"), newRank,
          args.loc("axis"), "axis"));
    std::sort(axes.begin(), axes.end());
    for (int64_t axis : axes)
      input = expandDims(input, axis, args.loc("axis"));
    return input;
  }

  case BuiltinId::To:
  case BuiltinId::Cast: {
    DType dtype =
        requireDType(args.get("dtype"), args.loc("dtype"), "the target type");
    std::string rounding = getStringArg(*this, args, "fp_downcast_rounding");
    if (!rounding.empty() && rounding != "rtne")
      error(args.loc("fp_downcast_rounding"),
            "only fp_downcast_rounding=\"rtne\" is supported");
    if (getFlag(*this, args, "bitcast", false))
      return bitcast(args.get("input"), dtype, loc);
    return cast(args.get("input"), dtype, loc);
  }

  case BuiltinId::DevicePrint: {
    const Value &prefixValue = args.get("prefix");
    if (!prefixValue.is(Value::Kind::String))
      error(args.loc("prefix"), "the first argument of device_print() must "
                                "be a string, got " +
                                    describeValue(prefixValue));
    std::vector<mlir::Value> values;
    for (size_t i = 0; i < args.varargs().size(); ++i)
      values.push_back(toIR(args.varargs()[i], args.varargLocs()[i],
                            "each value printed")
                           .getIR());
    // Triton's spelling: " prefix: " before the values.
    std::string prefix = prefixValue.getString();
    if (!values.empty()) {
      if (prefix.empty() || prefix.back() != ' ')
        prefix += " ";
      if (prefix.size() < 2 || prefix.substr(prefix.size() - 2) != ": ")
        prefix = prefix.substr(0, prefix.size() - 1) + ": ";
      if (prefix.size() > 2 && prefix.front() != ' ')
        prefix = " " + prefix;
    }
    mlir::tk::PrintOp::create(builder, prefix, values,
                              getFlag(*this, args, "hex", false));
    return Value::none();
  }
  case BuiltinId::DeviceAssert: {
    Value cond = args.get("cond");
    std::string message = getStringArg(*this, args, "msg");
    if (cond.isConstant()) {
      if (isTruthy(cond, args.loc("cond")))
        return Value::none();
      cond = constantBool(false, {});
    }
    if (!cond.getDType().isBool())
      cond = cond.isBlock()
                 ? compare(BinaryOpKind::Ne, cond,
                           cond.getDType().isFloat() ? Value::floating(0)
                                                     : Value::integer(0),
                           args.loc("cond"))
                 : toCondition(cond, args.loc("cond"),
                               "the condition of device_assert()");
    if (args.has("mask")) {
      Value mask = requireMask(*this, args.get("mask"), args.loc("mask"));
      Value notMask = unaryOp(ast::UnaryOpKind::Not, mask, args.loc("mask"));
      cond = binaryOp(BinaryOpKind::BitOr, cond, notMask, args.loc("mask"));
    }
    mlir::tk::AssertOp::create(builder, cond.getIR(), message);
    return Value::none();
  }
  case BuiltinId::StaticAssert: {
    const Value &cond = args.get("cond");
    if (cond.isIR())
      error(args.loc("cond"), "static_assert() needs a compile-time "
                              "condition, got " +
                                  cond.getType().toString() +
                                  "; use device_assert() for run-time "
                                  "checks");
    if (!isTruthy(cond, args.loc("cond"))) {
      std::string message = getStringArg(*this, args, "msg");
      error(loc, "static_assert failed" +
                     (message.empty() ? std::string() : ": " + message));
    }
    return Value::none();
  }
  case BuiltinId::StaticPrint:
  case BuiltinId::PyPrint: {
    std::string text;
    for (const Value &value : args.varargs()) {
      if (!text.empty())
        text += " ";
      text += value.is(Value::Kind::String) ? value.getString()
                                            : value.constantToString();
    }
    std::cerr << text << "\n";
    return Value::none();
  }

  case BuiltinId::PyFloat:
  case BuiltinId::PyInt:
  case BuiltinId::PyBool:
  case BuiltinId::PyLen:
    return emitPythonBuiltin(id, args, loc);

  case BuiltinId::DebugBarrier:
    mlir::tk::DebugBarrierOp::create(builder);
    return Value::none();
  case BuiltinId::Umulhi:
  case BuiltinId::Fdiv:
  case BuiltinId::SqrtRn:
  case BuiltinId::Swizzle2d:
    return emitMathBuiltin(id, args, loc);
  case BuiltinId::Sort:
  case BuiltinId::Flip:
  case BuiltinId::Join:
  case BuiltinId::Split:
  case BuiltinId::Interleave:
  case BuiltinId::Cat:
  case BuiltinId::Histogram:
  case BuiltinId::Ravel:
  case BuiltinId::Broadcast:
  case BuiltinId::XorSum:
    return emitBlockBuiltin(id, args, loc);
  case BuiltinId::MakeBlockPtr:
  case BuiltinId::Advance:
    return emitBlockPointerBuiltin(id, args, loc);
  case BuiltinId::MakeTensorDescriptor:
  case BuiltinId::LoadTensorDescriptor:
  case BuiltinId::StoreTensorDescriptor:
    return emitTensorDescriptorBuiltin(id, args, loc);
  case BuiltinId::Reduce:
  case BuiltinId::AssociativeScan:
    return emitCombineBuiltin(id, args, loc);
  case BuiltinId::Philox:
  case BuiltinId::PhiloxImpl:
  case BuiltinId::Randint:
  case BuiltinId::Randint4x:
  case BuiltinId::Rand:
  case BuiltinId::Rand4x:
  case BuiltinId::Randn:
  case BuiltinId::Randn4x:
  case BuiltinId::UintToUniformFloat:
  case BuiltinId::PairUniformToNormal:
    return emitRandomBuiltin(id, args, loc);

  default:
    error(loc, name + "() is not supported here");
  }
}

} // namespace tk::irgen
