//===- IRGenDotScaled.cpp - dot_scaled: microscaled (MX) operands ---------===//
//
// Triton's block-scaled dot:
//
//   dot_scaled(lhs, lhs_scale, lhs_format, rhs, rhs_scale, rhs_format,
//              acc=None, fast_math=False, lhs_k_pack=True, rhs_k_pack=True,
//              out_dtype=f32)
//
// Formats: "e4m3", "e5m2" (fp8; the operand holds the fp8 dtype or its
// bits as u8/i8), "e2m1" (fp4, two values per u8/i8, the low nibble
// first: along K by default, lhs M x K/2 and rhs K/2 x N; with
// lhs_k_pack=False along M, lhs M/2 x K, and with rhs_k_pack=False along
// N, rhs K x N/2), "bf16", "fp16". A scale is
// u8/i8 in e8m0 (2^(s - 127); 255 is NaN) for each 32 elements along K:
// lhs_scale M x K/32, rhs_scale N x K/32; None means 1.
//
// No target of tk has a block-scaled tensor-core instruction, so the dot is
// emulated as Triton does on Hopper: each operand is decoded and scaled in
// f32, rounded to bf16 (exact: an fp8 or fp4 value times a power of two
// fits bf16's mantissa, barring overflow and underflow; two fp16 operands
// stay fp16), and multiplied by an ordinary dot with an f32 accumulator
// (mma/wgmma where the shapes allow). fast_math is accepted: it only lets
// Triton skip the NaN of scale 255, which costs a select here.
//
// Decoding e2m1 (sign s, exponent e, mantissa m, bias 1): e = 0 gives
// m * 0.5, else (1 + m / 2) * 2^(e - 1): 0, 0.5, 1, 1.5, 2, 3, 4, 6.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/IRGenImpl.h"

#include <cmath>
#include <limits>

namespace tk::irgen {

using ast::BinaryOpKind;
using sema::DType;
using sema::Shape;

namespace {

enum class ScaledFormat { E4M3, E5M2, E2M1, BF16, FP16 };

std::optional<ScaledFormat> parseFormat(const std::string &text) {
  if (text == "e4m3")
    return ScaledFormat::E4M3;
  if (text == "e5m2")
    return ScaledFormat::E5M2;
  if (text == "e2m1")
    return ScaledFormat::E2M1;
  if (text == "bf16")
    return ScaledFormat::BF16;
  if (text == "fp16")
    return ScaledFormat::FP16;
  return std::nullopt;
}

bool isByte(DType type) {
  return !type.isPointer() && (type.getScalar() == ScalarType::U8 ||
                               type.getScalar() == ScalarType::I8);
}

} // namespace

/// One operand decoded to f32 at its logical M x K (or K x N) shape; e2m1
/// bytes hold two consecutive rows when `packedAlongRows`, else two
/// consecutive columns.
static Value decodeOperand(IRGen &gen, const Value &operand,
                           ScaledFormat format, bool packedAlongRows,
                           SourceLoc loc, const std::string &what) {
  DType type = operand.getDType();
  DType f32(ScalarType::F32);
  auto constant = [&](int64_t v, const Value &like) {
    return gen.constantInt(v, like.getDType(), like.getShape());
  };
  switch (format) {
  case ScaledFormat::E4M3:
  case ScaledFormat::E5M2: {
    ScalarType fp8 = format == ScaledFormat::E4M3 ? ScalarType::F8E4M3
                                                  : ScalarType::F8E5M2;
    if (isByte(type))
      return gen.cast(gen.bitcast(operand, DType(fp8), loc), f32, loc);
    if (type != DType(fp8))
      gen.error(loc, what + " in format '" +
                         std::string(format == ScaledFormat::E4M3 ? "e4m3"
                                                                  : "e5m2") +
                         "' must be " + DType(fp8).toString() +
                         " or its bits as u8/i8, got " +
                         operand.getType().toString());
    return gen.cast(operand, f32, loc);
  }
  case ScaledFormat::BF16:
  case ScaledFormat::FP16: {
    DType expected(format == ScaledFormat::BF16 ? ScalarType::BF16
                                                : ScalarType::F16);
    if (type != expected)
      gen.error(loc, what + " in format '" +
                         std::string(format == ScaledFormat::BF16 ? "bf16"
                                                                  : "fp16") +
                         "' must be " + expected.toString() + ", got " +
                         operand.getType().toString());
    return gen.cast(operand, f32, loc);
  }
  case ScaledFormat::E2M1:
    break;
  }
  if (!isByte(type))
    gen.error(loc, what + " in format 'e2m1' must be u8 or i8 (two fp4 "
                          "values per byte), got " +
                       operand.getType().toString());
  // The nibbles as i32: low (element 2i along K) and high (2i + 1).
  Value bytes = gen.bitcast(operand, DType(ScalarType::U8), loc);
  bytes = gen.cast(bytes, DType(ScalarType::I32), loc);
  Value low = gen.binaryOp(BinaryOpKind::BitAnd, bytes, constant(15, bytes),
                           loc);
  Value high = gen.binaryOp(BinaryOpKind::RShift, bytes, constant(4, bytes), loc);
  auto decode = [&](const Value &nibble) {
    Value mantissa = gen.cast(
        gen.binaryOp(BinaryOpKind::BitAnd, nibble, constant(1, nibble), loc),
        f32, loc);
    Value exponent = gen.binaryOp(
        BinaryOpKind::BitAnd,
        gen.binaryOp(BinaryOpKind::RShift, nibble, constant(1, nibble), loc),
        constant(3, nibble), loc);
    Value sign = gen.binaryOp(
        BinaryOpKind::BitAnd,
        gen.binaryOp(BinaryOpKind::RShift, nibble, constant(3, nibble), loc),
        constant(1, nibble), loc);
    Shape shape = nibble.getShape();
    Value half = gen.constantFloat(0.5, f32, shape);
    Value one = gen.constantFloat(1.0, f32, shape);
    // (1 << e) / 2 = 2^(e - 1)
    Value power = gen.binaryOp(
        BinaryOpKind::Mul,
        gen.cast(gen.binaryOp(BinaryOpKind::LShift, constant(1, exponent),
                              exponent, loc),
                 f32, loc),
        half, loc);
    Value normal = gen.binaryOp(
        BinaryOpKind::Mul,
        gen.binaryOp(BinaryOpKind::Add, one,
                     gen.binaryOp(BinaryOpKind::Mul, mantissa, half, loc),
                     loc),
        power, loc);
    Value subnormal = gen.binaryOp(BinaryOpKind::Mul, mantissa, half, loc);
    Value isZeroExponent =
        gen.compare(BinaryOpKind::Eq, exponent, constant(0, exponent), loc);
    Value magnitude = gen.select(isZeroExponent, subnormal, normal, loc);
    Value negative =
        gen.compare(BinaryOpKind::Ne, sign, constant(0, sign), loc);
    return gen.select(negative, gen.unaryOp(ast::UnaryOpKind::Neg, magnitude,
                                            loc),
                      magnitude, loc);
  };
  CallArgs pair;
  pair.loc = loc;
  pair.positional = {decode(low), decode(high)};
  pair.positionalLocs = {loc, loc};
  Value joined = gen.callBuiltin(BuiltinId::Join, pair, loc); // [R, C, 2]
  Shape packed = operand.getShape();
  if (!packedAlongRows) // R x C x 2 -> R x 2C
    return gen.reshape(joined, {packed[0], packed[1] * 2}, loc);
  // R x C x 2 -> R x 2 x C -> 2R x C
  Value rowMajor = gen.trans(joined, {0, 2, 1}, loc);
  return gen.reshape(rowMajor, {packed[0] * 2, packed[1]}, loc);
}

/// The e8m0 scale `scale` (rows x K/32) as f32 factors at rows x K.
static Value expandScale(IRGen &gen, const Value &scale, int64_t rows,
                         int64_t k, SourceLoc loc, const std::string &what) {
  if (!scale.isBlock() || !isByte(scale.getDType()) ||
      scale.getShape() != Shape{rows, k / 32})
    gen.error(loc, what + " must be a u8/i8 block of shape [" +
                       std::to_string(rows) + ", " + std::to_string(k / 32) +
                       "] (one e8m0 exponent per 32 elements along K), got " +
                       scale.describe());
  Value bits = gen.cast(gen.bitcast(scale, DType(ScalarType::U8), loc),
                        DType(ScalarType::I32), loc);
  Shape shape = bits.getShape();
  DType i32(ScalarType::I32), f32(ScalarType::F32);
  // 2^(s - 127): s in the f32 exponent field; s = 0 is the subnormal
  // 2^-127 (bit 22), s = 255 is NaN.
  Value factor = gen.bitcast(
      gen.binaryOp(BinaryOpKind::LShift, bits, gen.constantInt(23, i32, shape),
                   loc),
      f32, loc);
  Value smallest = gen.bitcast(gen.constantInt(1 << 22, i32, shape), f32, loc);
  factor = gen.select(
      gen.compare(BinaryOpKind::Eq, bits, gen.constantInt(0, i32, shape), loc),
      smallest, factor, loc);
  factor = gen.select(
      gen.compare(BinaryOpKind::Eq, bits, gen.constantInt(255, i32, shape),
                  loc),
      gen.constantFloat(std::numeric_limits<double>::quiet_NaN(), f32, shape),
      factor, loc);
  // rows x K/32 -> rows x K/32 x 32 -> rows x K
  Value expanded = gen.broadcastTo(gen.expandDims(factor, 2, loc),
                                   {rows, k / 32, 32}, loc);
  return gen.reshape(expanded, {rows, k}, loc);
}

Value IRGen::emitDotScaled(const BoundArgs &args, SourceLoc loc) {
  auto formatOf = [&](const char *name) {
    const Value &value = args.get(name);
    if (!value.is(Value::Kind::String))
      error(args.loc(name), std::string(name) +
                                " must be a string: \"e4m3\", \"e5m2\", "
                                "\"e2m1\", \"bf16\" or \"fp16\"");
    std::optional<ScaledFormat> format = parseFormat(value.getString());
    if (!format)
      error(args.loc(name), "unknown " + std::string(name) + " '" +
                                value.getString() +
                                "'; expected \"e4m3\", \"e5m2\", \"e2m1\", "
                                "\"bf16\" or \"fp16\"");
    return *format;
  };
  ScaledFormat lhsFormat = formatOf("lhs_format");
  ScaledFormat rhsFormat = formatOf("rhs_format");
  Value lhs = requireBlock(args.get("lhs"), args.loc("lhs"), "lhs");
  Value rhs = requireBlock(args.get("rhs"), args.loc("rhs"), "rhs");
  if (lhs.getShape().size() != 2 || rhs.getShape().size() != 2)
    error(loc, "dot_scaled takes 2-D operands, got " +
                   lhs.getType().toString() + " and " +
                   rhs.getType().toString());
  if (args.has("out_dtype") &&
      requireDType(args.get("out_dtype"), args.loc("out_dtype"),
                   "out_dtype") != DType(ScalarType::F32))
    error(args.loc("out_dtype"), "dot_scaled accumulates in f32 only");
  // k_pack: whether e2m1 bytes pair values along K (Triton's default), or
  // along M (lhs) / N (rhs).
  auto kPackOf = [&](const char *name) {
    if (!args.has(name))
      return true;
    const Value &value = args.get(name);
    if (!value.is(Value::Kind::Bool) && !value.is(Value::Kind::Int))
      error(args.loc(name), std::string(name) +
                                " must be a compile-time bool, got " +
                                value.describe());
    return value.getIntLike() != 0;
  };
  bool lhsKPack = kPackOf("lhs_k_pack"), rhsKPack = kPackOf("rhs_k_pack");

  Value a = decodeOperand(*this, lhs, lhsFormat,
                          /*packedAlongRows=*/!lhsKPack, args.loc("lhs"),
                          "lhs");
  Value b = decodeOperand(*this, rhs, rhsFormat,
                          /*packedAlongRows=*/rhsKPack, args.loc("rhs"),
                          "rhs");
  int64_t m = a.getShape()[0], k = a.getShape()[1], n = b.getShape()[1];
  if (b.getShape()[0] != k)
    error(loc, "dot_scaled: lhs has K = " + std::to_string(k) +
                   " and rhs K = " + std::to_string(b.getShape()[0]) +
                   " (e2m1 operands hold two values per byte, along K "
                   "unless lhs_k_pack / rhs_k_pack is False)");
  bool scaled = args.has("lhs_scale") || args.has("rhs_scale");
  if (scaled && k % 32 != 0)
    error(loc, "dot_scaled: K = " + std::to_string(k) +
                   " is not a multiple of 32, the scale block");
  if (args.has("lhs_scale"))
    a = binaryOp(BinaryOpKind::Mul, a,
                 expandScale(*this, args.get("lhs_scale"), m, k,
                             args.loc("lhs_scale"), "lhs_scale"),
                 loc);
  if (args.has("rhs_scale"))
    b = binaryOp(BinaryOpKind::Mul, b,
                 trans(expandScale(*this, args.get("rhs_scale"), n, k,
                                   args.loc("rhs_scale"), "rhs_scale"),
                       {1, 0}, loc),
                 loc);
  DType operandType(lhsFormat == ScaledFormat::FP16 &&
                            rhsFormat == ScaledFormat::FP16
                        ? ScalarType::F16
                        : ScalarType::BF16);
  a = cast(a, operandType, loc);
  b = cast(b, operandType, loc);
  std::optional<Value> acc;
  if (args.has("acc"))
    acc = args.get("acc");
  return dot(a, b, acc, std::nullopt, DType(ScalarType::F32), loc);
}

} // namespace tk::irgen
