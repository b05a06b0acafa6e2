//===- IRGenArith.cpp - promotion and operators ---------------------------===//
//
// The equivalent of Triton's semantic.py for operators: promotion of the
// operands to a common type (TypeSystem.h), broadcast and cast through
// IRGenConversions.cpp, and the choice of the signed, unsigned or float
// arith op. Operators on two compile-time constants are folded with
// Python's semantics (floor division and modulo round towards -inf); on
// run-time integers they follow C and Triton (division truncates, overflow
// wraps).
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
using ast::UnaryOpKind;
using sema::DType;
using sema::Shape;
using sema::ValueType;

//===----------------------------------------------------------------------===//
// Promotion
//===----------------------------------------------------------------------===//

static std::string describeOperand(const Value &value) {
  return value.isIR() ? value.getType().toString() : value.describe();
}

void IRGen::promoteOperands(Value &a, Value &b, bool divOrMod,
                            const std::string &opSpelling, SourceLoc loc) {
  for (const Value *v : {&a, &b})
    if (!v->isIR() && !v->isNumericConstant())
      error(loc, "unsupported operand types for '" + opSpelling + "': " +
                     describeOperand(a) + " and " + describeOperand(b));
  DType aType = a.isIR() ? a.getDType() : getLiteralType(a);
  DType bType = b.isIR() ? b.getDType() : getLiteralType(b);
  // A non-negative integer literal next to an unsigned value counts as
  // unsigned, so that `u // 3` stays u32 (Triton would refuse the mix).
  auto adaptToUnsigned = [](const Value &literal, DType &type, DType other) {
    if (literal.is(Value::Kind::Int) && literal.getInt() >= 0 &&
        other.isUnsigned())
      type = sema::getIntType(type.getBitWidth(), /*isUnsigned=*/true);
  };
  if (!a.isIR())
    adaptToUnsigned(a, aType, bType);
  if (!b.isIR())
    adaptToUnsigned(b, bType, aType);
  if (aType.isPointer() || bType.isPointer())
    error(loc, "unsupported operand types for '" + opSpelling + "': " +
                   describeOperand(a) + " and " + describeOperand(b));
  std::string message;
  std::optional<DType> common =
      sema::computeCommonType({aType, !a.isIR()}, {bType, !b.isIR()},
                              divOrMod, opSpelling, message);
  if (!common)
    error(loc, message);
  // A literal becomes a constant of the other operand's shape directly.
  const sema::Shape &shape = a.isIR() ? a.getShape() : b.getShape();
  a = a.isIR() ? cast(a, *common, loc) : materialize(a, *common, loc, shape);
  b = b.isIR() ? cast(b, *common, loc) : materialize(b, *common, loc, shape);
  broadcastPair(a, b, loc);
}

//===----------------------------------------------------------------------===//
// Compile-time folding (Python semantics)
//===----------------------------------------------------------------------===//

static bool isIntLike(const Value &v) {
  return v.is(Value::Kind::Int) || v.is(Value::Kind::Bool);
}

static int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0)))
    --q;
  return q;
}

static int64_t floorMod(int64_t a, int64_t b) {
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0)))
    r += b;
  return r;
}

Value IRGen::foldBinary(BinaryOpKind op, const Value &lhs, const Value &rhs,
                        SourceLoc loc) {
  std::string spelling = ast::getOperatorSpelling(op);
  if (!lhs.isNumericConstant() || !rhs.isNumericConstant()) {
    // Equality of any constants (strings, types, None, tuples).
    if (op == BinaryOpKind::Eq || op == BinaryOpKind::Ne) {
      bool same = lhs.isSameConstant(rhs);
      return Value::boolean(op == BinaryOpKind::Eq ? same : !same);
    }
    if (op == BinaryOpKind::Add && lhs.is(Value::Kind::String) &&
        rhs.is(Value::Kind::String))
      return Value::string(lhs.getString() + rhs.getString());
    if (op == BinaryOpKind::Add && lhs.is(Value::Kind::Tuple) &&
        rhs.is(Value::Kind::Tuple)) {
      std::vector<Value> elements = lhs.getElements();
      for (const Value &e : rhs.getElements())
        elements.push_back(e);
      return Value::tuple(std::move(elements));
    }
    error(loc, "unsupported operand types for '" + spelling + "': " +
                   lhs.describe() + " and " + rhs.describe());
  }

  if (ast::isComparison(op)) {
    bool result = false;
    if (isIntLike(lhs) && isIntLike(rhs)) {
      int64_t a = lhs.getIntLike(), b = rhs.getIntLike();
      switch (op) {
      case BinaryOpKind::Lt: result = a < b; break;
      case BinaryOpKind::Gt: result = a > b; break;
      case BinaryOpKind::Le: result = a <= b; break;
      case BinaryOpKind::Ge: result = a >= b; break;
      case BinaryOpKind::Eq: result = a == b; break;
      default: result = a != b; break;
      }
    } else {
      double a = lhs.getAsDouble(), b = rhs.getAsDouble();
      switch (op) {
      case BinaryOpKind::Lt: result = a < b; break;
      case BinaryOpKind::Gt: result = a > b; break;
      case BinaryOpKind::Le: result = a <= b; break;
      case BinaryOpKind::Ge: result = a >= b; break;
      case BinaryOpKind::Eq: result = a == b; break;
      default: result = a != b; break;
      }
    }
    return Value::boolean(result);
  }

  auto overflow = [&]() -> Value {
    error(loc, "integer overflow in a compile-time '" + spelling + "'");
  };
  auto divisionByZero = [&]() -> Value {
    error(loc, "division by zero in a compile-time '" + spelling + "'");
  };

  if (isIntLike(lhs) && isIntLike(rhs)) {
    int64_t a = lhs.getIntLike(), b = rhs.getIntLike(), r = 0;
    bool bothBool = lhs.is(Value::Kind::Bool) && rhs.is(Value::Kind::Bool);
    switch (op) {
    case BinaryOpKind::Add:
      if (__builtin_add_overflow(a, b, &r))
        return overflow();
      return Value::integer(r);
    case BinaryOpKind::Sub:
      if (__builtin_sub_overflow(a, b, &r))
        return overflow();
      return Value::integer(r);
    case BinaryOpKind::Mul:
      if (__builtin_mul_overflow(a, b, &r))
        return overflow();
      return Value::integer(r);
    case BinaryOpKind::Div:
      if (b == 0)
        return divisionByZero();
      return Value::floating(double(a) / double(b));
    case BinaryOpKind::FloorDiv:
      if (b == 0)
        return divisionByZero();
      if (a == std::numeric_limits<int64_t>::min() && b == -1)
        return overflow();
      return Value::integer(floorDiv(a, b));
    case BinaryOpKind::Mod:
      if (b == 0)
        return divisionByZero();
      if (b == -1)
        return Value::integer(0);
      return Value::integer(floorMod(a, b));
    case BinaryOpKind::Pow: {
      if (b < 0)
        return Value::floating(std::pow(double(a), double(b)));
      // Bases 0, 1 and -1 never overflow; any other base overflows within
      // 63 multiplications, so the loop is short.
      if (a == 0)
        return Value::integer(b == 0 ? 1 : 0);
      if (a == 1)
        return Value::integer(1);
      if (a == -1)
        return Value::integer(b % 2 == 0 ? 1 : -1);
      int64_t result = 1;
      for (int64_t i = 0; i < b; ++i)
        if (__builtin_mul_overflow(result, a, &result))
          return overflow();
      return Value::integer(result);
    }
    case BinaryOpKind::LShift:
      if (b < 0)
        error(loc, "negative shift count");
      if (b >= 63 || (a != 0 && (a > (std::numeric_limits<int64_t>::max() >> b) ||
                                 a < (std::numeric_limits<int64_t>::min() >> b))))
        return a == 0 ? Value::integer(0) : overflow();
      return Value::integer(int64_t(uint64_t(a) << b));
    case BinaryOpKind::RShift:
      if (b < 0)
        error(loc, "negative shift count");
      return Value::integer(b >= 63 ? (a < 0 ? -1 : 0) : a >> b);
    case BinaryOpKind::BitAnd:
      return bothBool ? Value::boolean(a & b) : Value::integer(a & b);
    case BinaryOpKind::BitOr:
      return bothBool ? Value::boolean(a | b) : Value::integer(a | b);
    case BinaryOpKind::BitXor:
      return bothBool ? Value::boolean(a ^ b) : Value::integer(a ^ b);
    default:
      break;
    }
  } else {
    double a = lhs.getAsDouble(), b = rhs.getAsDouble();
    switch (op) {
    case BinaryOpKind::Add:
      return Value::floating(a + b);
    case BinaryOpKind::Sub:
      return Value::floating(a - b);
    case BinaryOpKind::Mul:
      return Value::floating(a * b);
    case BinaryOpKind::Div:
      if (b == 0)
        return divisionByZero();
      return Value::floating(a / b);
    case BinaryOpKind::FloorDiv:
      if (b == 0)
        return divisionByZero();
      return Value::floating(std::floor(a / b));
    case BinaryOpKind::Mod: {
      if (b == 0)
        return divisionByZero();
      double r = std::fmod(a, b);
      if (r != 0 && ((r < 0) != (b < 0)))
        r += b;
      return Value::floating(r);
    }
    case BinaryOpKind::Pow:
      return Value::floating(std::pow(a, b));
    default:
      error(loc, "'" + spelling + "' needs integer operands, got " +
                     lhs.describe() + " and " + rhs.describe());
    }
  }
  error(loc, "unsupported operand types for '" + spelling + "': " +
                 lhs.describe() + " and " + rhs.describe());
}

//===----------------------------------------------------------------------===//
// Operators on run-time values
//===----------------------------------------------------------------------===//

Value IRGen::addPointer(const Value &ptr, const Value &offsetIn, bool negate,
                        SourceLoc loc) {
  Value offset = offsetIn;
  bool isInteger = offset.isIR() ? offset.getDType().isInt()
                                 : isIntLike(offset);
  if (!isInteger)
    error(loc, "pointer offsets must be integers, got " +
                   describeOperand(offset));
  if (!offset.isIR()) {
    int64_t value = offset.getIntLike();
    if (negate) {
      if (value == std::numeric_limits<int64_t>::min())
        error(loc, "pointer offset out of range");
      value = -value;
    }
    offset = materialize(Value::integer(value),
                         sema::getLiteralIntType(value).isUnsigned()
                             ? DType(ScalarType::I64)
                             : sema::getLiteralIntType(value),
                         loc, ptr.getShape());
  } else {
    // addptr reads offsets as signed: widen unsigned ones first, as Triton
    // does.
    DType type = offset.getDType();
    if (type.isBool())
      offset = cast(offset, ScalarType::I32, loc);
    else if (type.isUnsigned())
      offset = cast(offset, type.getBitWidth() < 64 ? DType(ScalarType::I64)
                                                    : DType(ScalarType::U64),
                    loc);
    if (negate) {
      Value zero = zeroOf(offset.getType());
      offset = Value::ir(mlir::arith::SubIOp::create(builder, zero.getIR(),
                                                     offset.getIR()),
                         offset.getType());
    }
  }
  Value base = ptr;
  broadcastPair(base, offset, loc);
  return Value::ir(
      mlir::tk::AddPtrOp::create(builder, base.getIR(), offset.getIR()),
      base.getType());
}

Value IRGen::compare(BinaryOpKind op, const Value &lhs, const Value &rhs,
                     SourceLoc loc) {
  if (lhs.isConstant() && rhs.isConstant())
    return foldBinary(op, lhs, rhs, loc);
  std::string spelling = ast::getOperatorSpelling(op);
  Value a = lhs, b = rhs;
  promoteOperands(a, b, /*divOrMod=*/false, spelling, loc);
  DType type = a.getDType();
  if (type.isFp8()) // compared in f32 (exact)
    return compare(op, cast(a, ScalarType::F32, loc),
                   cast(b, ScalarType::F32, loc), loc);
  ValueType resultType = a.getType().withDType(ScalarType::I1);
  mlir::Value result;
  if (type.isFloat()) {
    mlir::arith::CmpFPredicate predicate;
    switch (op) {
    case BinaryOpKind::Lt: predicate = mlir::arith::CmpFPredicate::OLT; break;
    case BinaryOpKind::Gt: predicate = mlir::arith::CmpFPredicate::OGT; break;
    case BinaryOpKind::Le: predicate = mlir::arith::CmpFPredicate::OLE; break;
    case BinaryOpKind::Ge: predicate = mlir::arith::CmpFPredicate::OGE; break;
    case BinaryOpKind::Eq: predicate = mlir::arith::CmpFPredicate::OEQ; break;
    default: predicate = mlir::arith::CmpFPredicate::UNE; break;
    }
    result = mlir::arith::CmpFOp::create(builder, predicate, a.getIR(),
                                         b.getIR());
  } else {
    bool isSigned = type.isSigned();
    mlir::arith::CmpIPredicate predicate;
    switch (op) {
    case BinaryOpKind::Lt:
      predicate = isSigned ? mlir::arith::CmpIPredicate::slt
                           : mlir::arith::CmpIPredicate::ult;
      break;
    case BinaryOpKind::Gt:
      predicate = isSigned ? mlir::arith::CmpIPredicate::sgt
                           : mlir::arith::CmpIPredicate::ugt;
      break;
    case BinaryOpKind::Le:
      predicate = isSigned ? mlir::arith::CmpIPredicate::sle
                           : mlir::arith::CmpIPredicate::ule;
      break;
    case BinaryOpKind::Ge:
      predicate = isSigned ? mlir::arith::CmpIPredicate::sge
                           : mlir::arith::CmpIPredicate::uge;
      break;
    case BinaryOpKind::Eq:
      predicate = mlir::arith::CmpIPredicate::eq;
      break;
    default:
      predicate = mlir::arith::CmpIPredicate::ne;
      break;
    }
    result = mlir::arith::CmpIOp::create(builder, predicate, a.getIR(),
                                         b.getIR());
  }
  return Value::ir(result, resultType);
}

Value IRGen::binaryOp(BinaryOpKind op, const Value &lhs, const Value &rhs,
                      SourceLoc loc) {
  std::string spelling = ast::getOperatorSpelling(op);
  if (op == BinaryOpKind::Is || op == BinaryOpKind::IsNot) {
    // Identity of compile-time values (`x is None`, `dtype is tl.float16`);
    // a run-time value is never a constant.
    if (lhs.isIR() && rhs.isIR())
      error(loc, "'" + spelling + "' compares compile-time values (such as "
                 "None); use '==' or '!=' on run-time values");
    bool same = lhs.isConstant() && rhs.isConstant() &&
                lhs.getKind() == rhs.getKind() && lhs.isSameConstant(rhs);
    return Value::boolean(op == BinaryOpKind::Is ? same : !same);
  }
  if (lhs.isConstant() && rhs.isConstant())
    return foldBinary(op, lhs, rhs, loc);
  if (ast::isComparison(op))
    return compare(op, lhs, rhs, loc);
  for (const Value *v : {&lhs, &rhs})
    if (!v->isIR() && !v->isNumericConstant())
      error(loc, "unsupported operand types for '" + spelling + "': " +
                     describeOperand(lhs) + " and " + describeOperand(rhs));

  bool lhsPtr = lhs.isIR() && lhs.getDType().isPointer();
  bool rhsPtr = rhs.isIR() && rhs.getDType().isPointer();
  if (lhsPtr || rhsPtr) {
    if (op == BinaryOpKind::Add && !(lhsPtr && rhsPtr))
      return lhsPtr ? addPointer(lhs, rhs, false, loc)
                    : addPointer(rhs, lhs, false, loc);
    if (op == BinaryOpKind::Sub && lhsPtr && !rhsPtr)
      return addPointer(lhs, rhs, true, loc);
    error(loc, "unsupported operand types for '" + spelling + "': " +
                   describeOperand(lhs) + " and " + describeOperand(rhs) +
                   (op == BinaryOpKind::Add || op == BinaryOpKind::Sub
                        ? "; pointers take integer offsets"
                        : ""));
  }
  if (op == BinaryOpKind::MatMul)
    return dot(lhs, rhs, std::nullopt, std::nullopt, std::nullopt, loc);
  if (op == BinaryOpKind::Pow)
    error(loc, "'**' is only supported on compile-time constants; for "
               "run-time values multiply, or use exp2/log2");

  auto isFloatOperand = [](const Value &v) {
    return v.isIR() ? v.getDType().isFloat() : v.is(Value::Kind::Float);
  };
  bool isBitwise = op == BinaryOpKind::BitAnd || op == BinaryOpKind::BitOr ||
                   op == BinaryOpKind::BitXor ||
                   op == BinaryOpKind::LShift || op == BinaryOpKind::RShift;
  if ((isBitwise || op == BinaryOpKind::FloorDiv) &&
      (isFloatOperand(lhs) || isFloatOperand(rhs)))
    error(loc, "'" + spelling + "' needs integer operands, got " +
                   describeOperand(lhs) + " and " + describeOperand(rhs));

  bool divOrMod = op == BinaryOpKind::Div || op == BinaryOpKind::FloorDiv ||
                  op == BinaryOpKind::Mod;
  // As Triton's tensor.__rshift__, `>>` is arithmetic when the left operand
  // is signed before promotion (i32 >> u32 shifts in sign bits into a u32
  // result); for a constant left operand, __rrshift__ asks the right one.
  bool arithmeticShift = false;
  if (op == BinaryOpKind::RShift)
    arithmeticShift = lhs.isIR() ? lhs.getDType().isSigned()
                                 : (rhs.isIR() && rhs.getDType().isSigned());
  Value a = lhs, b = rhs;
  promoteOperands(a, b, divOrMod, spelling, loc);
  if (op == BinaryOpKind::Div && !a.getDType().isFloat()) {
    a = cast(a, ScalarType::F32, loc);
    b = cast(b, ScalarType::F32, loc);
  }
  DType type = a.getDType();
  if (type.isFp8()) {
    // GPUs have no fp8 arithmetic: compute in f32 and round once, to the
    // fp8 type that Triton's promotion gives.
    Value wide = binaryOp(op, cast(a, ScalarType::F32, loc),
                          cast(b, ScalarType::F32, loc), loc);
    return cast(wide, type, loc);
  }
  bool isFloat = type.isFloat();
  bool isSigned = type.isSigned();
  mlir::Value x = a.getIR(), y = b.getIR();
  mlir::Value result;
  namespace arith = mlir::arith;
  switch (op) {
  case BinaryOpKind::Add:
    result = isFloat ? arith::AddFOp::create(builder, x, y).getResult()
                     : arith::AddIOp::create(builder, x, y).getResult();
    break;
  case BinaryOpKind::Sub:
    result = isFloat ? arith::SubFOp::create(builder, x, y).getResult()
                     : arith::SubIOp::create(builder, x, y).getResult();
    break;
  case BinaryOpKind::Mul:
    result = isFloat ? arith::MulFOp::create(builder, x, y).getResult()
                     : arith::MulIOp::create(builder, x, y).getResult();
    break;
  case BinaryOpKind::Div:
    // As in Triton, `/` on f32 is the fast, 2-ulp division (div.full.f32);
    // div_rn() is the IEEE-rounded one. f64 division is always IEEE.
    result = arith::DivFOp::create(builder, x, y, approximateDivision(type));
    break;
  case BinaryOpKind::FloorDiv:
    result = isSigned ? arith::DivSIOp::create(builder, x, y).getResult()
                      : arith::DivUIOp::create(builder, x, y).getResult();
    break;
  case BinaryOpKind::Mod:
    if (isFloat)
      result = arith::RemFOp::create(builder, x, y);
    else
      result = isSigned ? arith::RemSIOp::create(builder, x, y).getResult()
                        : arith::RemUIOp::create(builder, x, y).getResult();
    break;
  case BinaryOpKind::BitAnd:
    result = arith::AndIOp::create(builder, x, y);
    break;
  case BinaryOpKind::BitOr:
    result = arith::OrIOp::create(builder, x, y);
    break;
  case BinaryOpKind::BitXor:
    result = arith::XOrIOp::create(builder, x, y);
    break;
  case BinaryOpKind::LShift:
    result = arith::ShLIOp::create(builder, x, y);
    break;
  case BinaryOpKind::RShift:
    result = arithmeticShift
                 ? arith::ShRSIOp::create(builder, x, y).getResult()
                 : arith::ShRUIOp::create(builder, x, y).getResult();
    break;
  default:
    error(loc, "unsupported operator '" + spelling + "'");
  }
  return Value::ir(result, a.getType());
}

Value IRGen::unaryOp(UnaryOpKind op, const Value &operand, SourceLoc loc) {
  std::string spelling = ast::getOperatorSpelling(op);
  if (operand.isConstant()) {
    if (op == UnaryOpKind::Not)
      return Value::boolean(!isTruthy(operand, loc));
    if (!operand.isNumericConstant())
      error(loc, "bad operand type for unary '" + spelling + "': " +
                     operand.describe());
    switch (op) {
    case UnaryOpKind::Neg:
      if (operand.is(Value::Kind::Float))
        return Value::floating(-operand.getFloat());
      if (operand.getIntLike() == std::numeric_limits<int64_t>::min())
        error(loc, "integer overflow in a compile-time '-'");
      return Value::integer(-operand.getIntLike());
    case UnaryOpKind::Pos:
      if (operand.is(Value::Kind::Float))
        return operand;
      return Value::integer(operand.getIntLike());
    case UnaryOpKind::Invert:
      if (operand.is(Value::Kind::Float))
        error(loc, "bad operand type for unary '~': " + operand.describe());
      return Value::integer(~operand.getIntLike());
    default:
      break;
    }
  }
  if (!operand.isIR())
    error(loc, "bad operand type for unary '" + spelling + "': " +
                   operand.describe());
  DType type = operand.getDType();
  if (type.isPointer())
    error(loc, "bad operand type for unary '" + spelling + "': " +
                   operand.getType().toString());
  if (type.isFp8() && op != UnaryOpKind::Pos) {
    Value wide = unaryOp(op, cast(operand, ScalarType::F32, loc), loc);
    return wide.getDType().isBool() ? wide : cast(wide, type, loc);
  }
  switch (op) {
  case UnaryOpKind::Pos:
    return operand;
  case UnaryOpKind::Neg:
    if (type.isFloat())
      return Value::ir(mlir::arith::NegFOp::create(builder, operand.getIR()),
                       operand.getType());
    return Value::ir(mlir::arith::SubIOp::create(
                         builder, zeroOf(operand.getType()).getIR(),
                         operand.getIR()),
                     operand.getType());
  case UnaryOpKind::Invert: {
    if (type.isFloat())
      error(loc, "bad operand type for unary '~': " +
                     operand.getType().toString());
    Value ones = constantInt(-1, type, operand.getShape());
    return Value::ir(
        mlir::arith::XOrIOp::create(builder, operand.getIR(), ones.getIR()),
        operand.getType());
  }
  case UnaryOpKind::Not: {
    if (type.isBool()) {
      Value ones = constantBool(true, operand.getShape());
      return Value::ir(
          mlir::arith::XOrIOp::create(builder, operand.getIR(), ones.getIR()),
          operand.getType());
    }
    return compare(BinaryOpKind::Eq, operand,
                   type.isFloat() ? Value::floating(0.0) : Value::integer(0),
                   loc);
  }
  }
  error(loc, "unsupported unary operator '" + spelling + "'");
}

bool IRGen::isTruthy(const Value &constant, SourceLoc loc) {
  switch (constant.getKind()) {
  case Value::Kind::None:
    return false;
  case Value::Kind::Bool:
    return constant.getBool();
  case Value::Kind::Int:
    return constant.getInt() != 0;
  case Value::Kind::Float:
    return constant.getFloat() != 0.0;
  case Value::Kind::String:
    return !constant.getString().empty();
  case Value::Kind::Tuple:
    return !constant.getElements().empty();
  case Value::Kind::IR:
    error(loc, "a run-time value has no compile-time truth value");
  default:
    return true;
  }
}

Value IRGen::toCondition(const Value &value, SourceLoc loc, const char *what) {
  if (value.isConstant())
    return constantBool(isTruthy(value, loc), {});
  if (value.isBlock())
    error(loc, std::string(what) + " must be a scalar, got " +
                   value.getType().toString() +
                   "; use where() or a mask for a block condition");
  DType type = value.getDType();
  if (type.isBool())
    return value;
  if (type.isPointer())
    error(loc, std::string(what) + " must be a number, got " +
                   value.getType().toString());
  return compare(BinaryOpKind::Ne, value,
                 type.isFloat() ? Value::floating(0.0) : Value::integer(0),
                 loc);
}

Value IRGen::select(const Value &condIn, const Value &a, const Value &b,
                    SourceLoc loc) {
  Value cond = condIn;
  if (cond.isConstant() && a.isConstant() && b.isConstant())
    return isTruthy(cond, loc) ? a : b;
  if (cond.isConstant())
    cond = constantBool(isTruthy(cond, loc), {});
  if (!cond.isIR() || cond.getDType().isPointer())
    error(loc, "the condition must be a boolean (i1) or a number, got " +
                   describeOperand(cond));
  // A number is true where nonzero (Triton converts the condition to i1).
  if (!cond.getDType().isBool())
    cond = compare(BinaryOpKind::Ne, cond,
                   cond.getDType().isFloat() ? Value::floating(0.0)
                                             : Value::integer(0),
                   loc);
  Value x = a, y = b;
  bool xPtr = x.isIR() && x.getDType().isPointer();
  bool yPtr = y.isIR() && y.getDType().isPointer();
  if (xPtr || yPtr) {
    if (!(xPtr && yPtr) || x.getDType() != y.getDType())
      error(loc, "cannot select between " + describeOperand(x) + " and " +
                     describeOperand(y));
    broadcastPair(x, y, loc);
  } else {
    promoteOperands(x, y, /*divOrMod=*/false, "where", loc);
  }
  std::string message;
  std::optional<Shape> shape =
      sema::broadcastShapes(cond.getShape(), x.getShape(), message);
  if (!shape)
    error(loc, "the condition " + cond.getType().toString() +
                   " does not broadcast with the values " +
                   x.getType().toString() + ": " + message);
  cond = broadcastTo(cond, *shape, loc);
  x = broadcastTo(x, *shape, loc);
  y = broadcastTo(y, *shape, loc);
  return Value::ir(mlir::arith::SelectOp::create(builder, cond.getIR(),
                                                 x.getIR(), y.getIR()),
                   x.getType());
}

Value IRGen::maximumOrMinimum(bool isMax, const Value &lhs, const Value &rhs,
                              bool propagateNan, SourceLoc loc) {
  const char *name = isMax ? "maximum" : "minimum";
  if (lhs.isConstant() && rhs.isConstant()) {
    if (!lhs.isNumericConstant() || !rhs.isNumericConstant())
      error(loc, std::string(name) + "() needs numbers, got " +
                     lhs.describe() + " and " + rhs.describe());
    bool lhsWins = isMax ? foldBinary(ast::BinaryOpKind::Ge, lhs, rhs, loc)
                               .getBool()
                         : foldBinary(ast::BinaryOpKind::Le, lhs, rhs, loc)
                               .getBool();
    return lhsWins ? lhs : rhs;
  }
  Value a = lhs, b = rhs;
  promoteOperands(a, b, /*divOrMod=*/false, name, loc);
  DType type = a.getDType();
  if (type.isFp8())
    return cast(maximumOrMinimum(isMax, cast(a, ScalarType::F32, loc),
                                 cast(b, ScalarType::F32, loc), propagateNan,
                                 loc),
                type, loc);
  mlir::Value x = a.getIR(), y = b.getIR(), result;
  namespace arith = mlir::arith;
  if (type.isFloat()) {
    if (propagateNan)
      result = isMax ? arith::MaximumFOp::create(builder, x, y).getResult()
                     : arith::MinimumFOp::create(builder, x, y).getResult();
    else
      result = isMax ? arith::MaxNumFOp::create(builder, x, y).getResult()
                     : arith::MinNumFOp::create(builder, x, y).getResult();
  } else if (type.isSigned()) {
    result = isMax ? arith::MaxSIOp::create(builder, x, y).getResult()
                   : arith::MinSIOp::create(builder, x, y).getResult();
  } else {
    result = isMax ? arith::MaxUIOp::create(builder, x, y).getResult()
                   : arith::MinUIOp::create(builder, x, y).getResult();
  }
  return Value::ir(result, a.getType());
}

mlir::arith::FastMathFlagsAttr IRGen::approximateDivision(sema::DType type) {
  if (type.isPointer() || type.getScalar() != ScalarType::F32)
    return mlir::arith::FastMathFlagsAttr::get(builder.getContext(),
                                               mlir::arith::FastMathFlags::none);
  return mlir::arith::FastMathFlagsAttr::get(builder.getContext(),
                                             mlir::arith::FastMathFlags::afn);
}

} // namespace tk::irgen
