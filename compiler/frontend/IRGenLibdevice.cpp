//===- IRGenLibdevice.cpp - libdevice functions without a tk builtin ------===//
//
// `libdevice.NAME(...)` and `tl.extra.cuda.libdevice.NAME(...)` reach tk's
// math builtins first (exp, sqrt, tanh, fma, ...; IRGenBuiltins.cpp). The
// libdevice functions that have no tk builtin but an op in MLIR's math or
// arith dialect are emitted here as that op, so that every path runs them:
// the interpreter with its C library implementations, the GPU path as a
// call of CUDA's libdevice (`__nv_powf`, `__nv_atan2`, ...), which
// LlvmToPtx.cpp links into the module when a kernel calls it.
//
// Types follow Triton's libdevice wrappers: the operands of a binary
// function are promoted to a common float type and broadcast; f16/bf16
// compute in f32 and round back (Triton has no f16 overloads; tk's math
// builtins do the same); integers are refused for the float functions.
// isnan/isinf/isfinited/finitef/signbit return i1 blocks (Triton 3.6 casts
// libdevice's i32 to int1); popc/clz count bits of an integer into i32.
//
// The libdevice functions with no math op are called by their symbol
// (IRGenLibdeviceExtern.cpp).
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/IRGenImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/TypeUtilities.h"

#include <limits>

namespace tk::irgen {

using sema::DType;
using sema::ValueType;

namespace {

enum class LibdeviceKind {
  Unary,     // f(x) on floats, the result in x's type
  Binary,    // f(x, y) on floats, promoted to one type
  Predicate, // test(x) on floats -> i1
  BitCount   // count(x) on integers -> i32
};

using UnaryOpFn = mlir::Value (*)(mlir::ImplicitLocOpBuilder &, mlir::Value);
using BinaryOpFn = mlir::Value (*)(mlir::ImplicitLocOpBuilder &, mlir::Value,
                                   mlir::Value);

struct LibdeviceFunction {
  const char *name;
  LibdeviceKind kind;
  UnaryOpFn unary = nullptr;
  BinaryOpFn binary = nullptr;
};

template <typename Op>
mlir::Value createUnary(mlir::ImplicitLocOpBuilder &b, mlir::Value x) {
  return Op::create(b, x);
}
template <typename Op>
mlir::Value createBinary(mlir::ImplicitLocOpBuilder &b, mlir::Value x,
                         mlir::Value y) {
  return Op::create(b, x, y);
}

mlir::Value isNan(mlir::ImplicitLocOpBuilder &b, mlir::Value x) {
  return mlir::arith::CmpFOp::create(b, mlir::arith::CmpFPredicate::UNO, x, x);
}
/// |x| == inf, or |x| < inf (ordered: NaN is not finite).
mlir::Value compareAbsWithInf(mlir::ImplicitLocOpBuilder &b, mlir::Value x,
                              mlir::arith::CmpFPredicate predicate) {
  mlir::Type type = x.getType();
  auto elementType =
      mlir::cast<mlir::FloatType>(mlir::getElementTypeOrSelf(type));
  mlir::TypedAttr inf = b.getFloatAttr(
      elementType, std::numeric_limits<double>::infinity());
  if (auto shaped = mlir::dyn_cast<mlir::ShapedType>(type))
    inf = mlir::DenseElementsAttr::get(shaped, inf);
  mlir::Value infValue = mlir::arith::ConstantOp::create(b, inf);
  return mlir::arith::CmpFOp::create(
      b, predicate, mlir::math::AbsFOp::create(b, x), infValue);
}
mlir::Value isInf(mlir::ImplicitLocOpBuilder &b, mlir::Value x) {
  return compareAbsWithInf(b, x, mlir::arith::CmpFPredicate::OEQ);
}
mlir::Value isFinite(mlir::ImplicitLocOpBuilder &b, mlir::Value x) {
  return compareAbsWithInf(b, x, mlir::arith::CmpFPredicate::OLT);
}

constexpr LibdeviceKind U = LibdeviceKind::Unary, B = LibdeviceKind::Binary;

// clang-format off
const LibdeviceFunction kLibdeviceFunctions[] = {
    {"acos", U, createUnary<mlir::math::AcosOp>},
    {"acosh", U, createUnary<mlir::math::AcoshOp>},
    {"asin", U, createUnary<mlir::math::AsinOp>},
    {"asinh", U, createUnary<mlir::math::AsinhOp>},
    {"atan", U, createUnary<mlir::math::AtanOp>},
    {"atanh", U, createUnary<mlir::math::AtanhOp>},
    {"cbrt", U, createUnary<mlir::math::CbrtOp>},
    {"cosh", U, createUnary<mlir::math::CoshOp>},
    {"sinh", U, createUnary<mlir::math::SinhOp>},
    {"tan", U, createUnary<mlir::math::TanOp>},
    {"erfc", U, createUnary<mlir::math::ErfcOp>},
    {"expm1", U, createUnary<mlir::math::ExpM1Op>},
    {"log10", U, createUnary<mlir::math::Log10Op>},
    {"log1p", U, createUnary<mlir::math::Log1pOp>},
    {"fabs", U, createUnary<mlir::math::AbsFOp>},
    {"trunc", U, createUnary<mlir::math::TruncOp>},
    // C's round: halves away from zero; rint/nearbyint: to even.
    {"round", U, createUnary<mlir::math::RoundOp>},
    {"rint", U, createUnary<mlir::math::RoundEvenOp>},
    {"nearbyint", U, createUnary<mlir::math::RoundEvenOp>},
    {"pow", B, nullptr, createBinary<mlir::math::PowFOp>},
    {"atan2", B, nullptr, createBinary<mlir::math::Atan2Op>},
    {"copysign", B, nullptr, createBinary<mlir::math::CopySignOp>},
    // C's fmod (the remainder has the dividend's sign), as arith.remf.
    {"fmod", B, nullptr, createBinary<mlir::arith::RemFOp>},
    // C's fmax/fmin: a NaN operand yields the other one.
    {"fmax", B, nullptr, createBinary<mlir::arith::MaxNumFOp>},
    {"fmin", B, nullptr, createBinary<mlir::arith::MinNumFOp>},
    {"isnan", LibdeviceKind::Predicate, isNan},
    {"isinf", LibdeviceKind::Predicate, isInf},
    {"isfinited", LibdeviceKind::Predicate, isFinite},
    {"finitef", LibdeviceKind::Predicate, isFinite},
    {"signbit", LibdeviceKind::Predicate, nullptr},
    {"popc", LibdeviceKind::BitCount, createUnary<mlir::math::CtPopOp>},
    {"popcll", LibdeviceKind::BitCount, createUnary<mlir::math::CtPopOp>},
    {"clz", LibdeviceKind::BitCount,
     createUnary<mlir::math::CountLeadingZerosOp>},
    {"clzll", LibdeviceKind::BitCount,
     createUnary<mlir::math::CountLeadingZerosOp>},
};
// clang-format on

const LibdeviceFunction *findLibdeviceFunction(const std::string &name) {
  for (const LibdeviceFunction &fn : kLibdeviceFunctions)
    if (name == fn.name)
      return &fn;
  return nullptr;
}

} // namespace

bool isLibdeviceFunction(const std::string &name) {
  return findLibdeviceFunction(name) != nullptr ||
         isLibdeviceExternFunction(name);
}

std::vector<std::string> getLibdeviceFunctionNames() {
  std::vector<std::string> names = getLibdeviceExternFunctionNames();
  for (const LibdeviceFunction &fn : kLibdeviceFunctions)
    names.push_back(fn.name);
  return names;
}

void IRGen::checkLibdeviceArguments(const std::string &spelling,
                                    const CallArgs &args, size_t arity,
                                    SourceLoc loc) {
  if (!args.keywords.empty())
    error(args.keywordNameLocs.front(),
          spelling + "() takes positional arguments only");
  if (args.positional.size() != arity)
    error(loc, spelling + "() takes " + std::to_string(arity) +
                   " argument" + (arity == 1 ? "" : "s") + ", got " +
                   std::to_string(args.positional.size()));
}

Value IRGen::callLibdevice(const std::string &name, const CallArgs &args,
                           SourceLoc loc) {
  const LibdeviceFunction *fn = findLibdeviceFunction(name);
  if (!fn)
    return callLibdeviceExtern(name, args, loc);
  std::string spelling = "libdevice." + name;
  size_t arity = fn->kind == LibdeviceKind::Binary ? 2 : 1;
  checkLibdeviceArguments(spelling, args, arity, loc);

  // The operands as run-time values (a constant is f32, or i32 for popc).
  std::vector<Value> operands = args.positional;
  if (arity == 2) {
    promoteOperands(operands[0], operands[1], /*divOrMod=*/false, spelling,
                    loc);
  } else if (operands[0].isNumericConstant()) {
    DType type = fn->kind == LibdeviceKind::BitCount
                     ? getLiteralType(operands[0])
                     : operands[0].is(Value::Kind::Float)
                           ? getLiteralType(operands[0])
                           : DType(ScalarType::F32);
    operands[0] = materialize(operands[0], type, args.positionalLocs[0]);
  }
  for (size_t i = 0; i < arity; ++i)
    if (!operands[i].isIR() || operands[i].getDType().isPointer())
      error(args.positionalLocs[i], spelling + "() needs numbers, got " +
                                        operands[i].describe());
  DType type = operands[0].getDType();
  ValueType valueType = operands[0].getType();

  if (fn->kind == LibdeviceKind::BitCount) {
    if (!type.isInt() || type.isBool())
      error(args.positionalLocs[0], spelling + "() needs an integer, got " +
                                        valueType.toString());
    Value count = Value::ir(fn->unary(builder, operands[0].getIR()),
                            valueType);
    // Counts of every width fit in i32; reinterpret, then resize.
    DType unsignedType =
        sema::getIntType(type.getBitWidth(), /*isUnsigned=*/true);
    return cast(bitcast(count, unsignedType, loc), ScalarType::I32, loc);
  }

  if (!type.isFloat())
    error(args.positionalLocs[0],
          spelling + "() needs floating-point values, got " +
              valueType.toString() + "; convert with .to(f32)");
  // f16, bf16 and fp8 compute in f32.
  bool isNarrow = type.getBitWidth() < 32;
  for (Value &operand : operands)
    if (isNarrow)
      operand = cast(operand, ScalarType::F32, loc);
  mlir::Value x = operands[0].getIR();
  ValueType wideType = operands[0].getType();

  switch (fn->kind) {
  case LibdeviceKind::Predicate: {
    ValueType boolType = wideType.withDType(ScalarType::I1);
    if (fn->unary)
      return Value::ir(fn->unary(builder, x), boolType);
    // signbit: the sign bit of the IEEE encoding (set for -0.0 and -nan).
    unsigned bits = wideType.dtype.getBitWidth();
    Value asInt = bitcast(operands[0], sema::getIntType(bits, false), loc);
    return compare(ast::BinaryOpKind::Lt, asInt, Value::integer(0), loc);
  }
  case LibdeviceKind::Unary: {
    Value result = Value::ir(fn->unary(builder, x), wideType);
    return isNarrow ? cast(result, type, loc) : result;
  }
  case LibdeviceKind::Binary: {
    Value result =
        Value::ir(fn->binary(builder, x, operands[1].getIR()), wideType);
    return isNarrow ? cast(result, type, loc) : result;
  }
  case LibdeviceKind::BitCount:
    break;
  }
  error(loc, spelling + "() is not supported here");
}

} // namespace tk::irgen
