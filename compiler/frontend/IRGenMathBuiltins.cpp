//===- IRGenMathBuiltins.cpp - umulhi, fdiv, sqrt_rn, swizzle2d -----------===//
//
// Builtins that are short compositions of arithmetic, emitted with the
// operators' own promotion and broadcasting (IRGenArith.cpp):
//  * umulhi(x, y): the high N bits of the 2N-bit unsigned product, as
//    Triton's tt.mulhiui. Up to 32 bits the operands are zero-extended to
//    64 bits, multiplied and shifted (LLVM's NVPTX backend turns this into
//    mul.hi.u32); 64-bit operands are split into 32-bit halves and the
//    partial products summed with their carries.
//  * fdiv(x, y, ieee_rounding): `/` (the fast division on f32), or
//    div_rn's IEEE division when ieee_rounding is true.
//  * sqrt_rn(x): IEEE square root. tk's sqrt already rounds to nearest on
//    every path, so the two are the same op; sqrt_rn refuses integers.
//  * swizzle2d(i, j, size_i, size_j, size_g): Triton's standard.py formula
//    (group-major reordering of a row-major grid of tiles).
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/IRGenImpl.h"

#include "dialects/tk/TkDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace tk::irgen {

using ast::BinaryOpKind;
using sema::DType;

Value IRGen::umulhi(const Value &xIn, const Value &yIn, SourceLoc loc) {
  Value x = xIn, y = yIn;
  promoteOperands(x, y, /*divOrMod=*/false, "umulhi", loc);
  DType type = x.getDType();
  if (!type.isInt() || type.isBool())
    error(loc, "umulhi() needs integers, got " + x.getType().toString());
  unsigned bits = type.getBitWidth();
  DType unsignedType = sema::getIntType(bits, /*isUnsigned=*/true);
  // Zero-extension: reinterpret as unsigned first.
  Value ux = bitcast(x, unsignedType, loc), uy = bitcast(y, unsignedType, loc);
  auto u64 = [&](const Value &v) { return cast(v, ScalarType::U64, loc); };
  auto op = [&](BinaryOpKind kind, const Value &a, const Value &b) {
    return binaryOp(kind, a, b, loc);
  };
  Value high;
  if (bits <= 32) {
    Value product = op(BinaryOpKind::Mul, u64(ux), u64(uy));
    high = cast(op(BinaryOpKind::RShift, product, Value::integer(bits)),
                unsignedType, loc);
  } else {
    // a = ah 2^32 + al, b = bh 2^32 + bl; every partial fits in 64 bits.
    Value mask = Value::integer(0xffffffff), shift = Value::integer(32);
    Value al = op(BinaryOpKind::BitAnd, ux, mask);
    Value ah = op(BinaryOpKind::RShift, ux, shift);
    Value bl = op(BinaryOpKind::BitAnd, uy, mask);
    Value bh = op(BinaryOpKind::RShift, uy, shift);
    Value low = op(BinaryOpKind::Mul, al, bl);
    Value cross1 = op(BinaryOpKind::Add, op(BinaryOpKind::Mul, ah, bl),
                      op(BinaryOpKind::RShift, low, shift));
    Value cross2 = op(BinaryOpKind::Add, op(BinaryOpKind::Mul, al, bh),
                      op(BinaryOpKind::BitAnd, cross1, mask));
    high = op(BinaryOpKind::Add,
              op(BinaryOpKind::Add, op(BinaryOpKind::Mul, ah, bh),
                 op(BinaryOpKind::RShift, cross1, shift)),
              op(BinaryOpKind::RShift, cross2, shift));
  }
  return bitcast(high, type, loc);
}

/// A compile-time bool keyword; `fallback` when absent.
static bool getBoolArg(IRGen &gen, const BoundArgs &args,
                       const std::string &name, bool fallback) {
  if (!args.has(name))
    return fallback;
  const Value &value = args.get(name);
  if (!value.is(Value::Kind::Bool) && !value.is(Value::Kind::Int))
    gen.error(args.loc(name), "'" + name +
                                  "' must be a compile-time bool, got " +
                                  value.describe());
  return value.getIntLike() != 0;
}

Value IRGen::ieeeDivide(Value x, Value y, const std::string &name,
                        SourceLoc loc) {
  promoteOperands(x, y, /*divOrMod=*/true, name, loc);
  if (!x.getDType().isFloat())
    error(loc, name + "() needs floating-point values, got " +
                   x.getType().toString());
  // No fast-math flags: arith.divf lowers to the IEEE div.rn.
  return Value::ir(mlir::arith::DivFOp::create(builder, x.getIR(), y.getIR()),
                   x.getType());
}

Value IRGen::emitMathBuiltin(BuiltinId id, const BoundArgs &args,
                             SourceLoc loc) {
  auto op = [&](BinaryOpKind kind, const Value &a, const Value &b) {
    return binaryOp(kind, a, b, loc);
  };
  switch (id) {
  case BuiltinId::Umulhi:
    return umulhi(toIR(args.get("x"), args.loc("x"), "the operand of umulhi"),
                  args.get("y"), loc);
  case BuiltinId::Fdiv: {
    Value x = args.get("x"), y = args.get("y");
    if (!getBoolArg(*this, args, "ieee_rounding", false))
      return op(BinaryOpKind::Div, x, y);
    return ieeeDivide(toIR(x, args.loc("x"), "the dividend of fdiv"), y,
                      "fdiv", loc);
  }
  case BuiltinId::SqrtRn: {
    const Value &x = args.get("x");
    if (x.isIR() && !x.getDType().isFloat())
      error(args.loc("x"), "sqrt_rn() needs floating-point values, got " +
                               x.getType().toString());
    return emitMath(BuiltinId::Sqrt, x, loc);
  }
  case BuiltinId::Swizzle2d: {
    const Value &i = args.get("i"), &j = args.get("j");
    const Value &sizeI = args.get("size_i"), &sizeJ = args.get("size_j");
    Value sizeG = args.get("size_g");
    Value ij = op(BinaryOpKind::Add, op(BinaryOpKind::Mul, i, sizeJ), j);
    Value sizeGJ = op(BinaryOpKind::Mul, sizeG, sizeJ);
    Value groupId = op(BinaryOpKind::FloorDiv, ij, sizeGJ);
    Value offI = op(BinaryOpKind::Mul, groupId, sizeG);
    // The last group may have fewer rows.
    sizeG = maximumOrMinimum(/*isMax=*/false, op(BinaryOpKind::Sub, sizeI, offI),
                             sizeG, /*propagateNan=*/true, loc);
    Value newI = op(BinaryOpKind::Add, offI, op(BinaryOpKind::Mod, ij, sizeG));
    Value newJ = op(BinaryOpKind::FloorDiv, op(BinaryOpKind::Mod, ij, sizeGJ),
                    sizeG);
    return Value::tuple({newI, newJ});
  }
  default:
    error(loc, std::string(getBuiltinName(id)) + "() is not supported here");
  }
}

} // namespace tk::irgen
