//===- Fp8OpToLlvm.cpp - fp8 conversions and constants --------------------===//
//
// fp8 values (f8E4M3FN = Triton's float8e4nv, f8E5M2 = float8e5) are bytes
// in LLVM (the type converter maps them to i8); the frontend only converts
// them to and from f32 (arith.extf / arith.truncf), and creates constants,
// but the canonicalizer folds an extf to f32 and a truncf to fp8 into one
// truncf from f16 or bf16 (and may do the converse), so those come here
// too, through f32 (exact for both).
//
//  * f32 -> fp8 rounds to nearest even and saturates to the largest finite
//    value (NaN gives 0x7f): on sm_89 and later the hardware instruction
//    cvt.rn.satfinite.{e4m3,e5m2}x2.f32 (nvvm.convert.f32x2.to.f8x2, the
//    value in the upper byte of the pair); before, the same function in
//    integer arithmetic: normal results round the f32 bits at the fp8
//    mantissa width (adding half an ulp minus one plus the kept lsb) and
//    rebias the exponent; subnormal results are roundeven(|x| * 2^(bias - 1
//    + m)) (exact scaling, cvt.rni); anything above the largest finite
//    encoding saturates. The interpreter implements the same function
//    (compiler/interpreter/Float8.h).
//  * fp8 -> f32 is exact, by placing the bits in an f16: e5m2 is the upper
//    byte of the f16 with the same value; e4m3's exponent and mantissa
//    shifted into f16 position give the value times 2^-8 (the biases are 7
//    and 15), subnormals included, so the f16 is extended and multiplied by
//    256; S.1111.111 is NaN.
//
//===----------------------------------------------------------------------===//
#include "compiler/conversion/PatternSets.h"

#include "dialects/tkgpu/TkgpuDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

/// The layout of one of the two fp8 types.
struct Fp8Layout {
  int mantissaBits;
  int bias;
  int maxFinite; // bits of the largest finite magnitude
};

std::optional<Fp8Layout> getFp8Layout(Type type) {
  if (isa<Float8E4M3FNType>(type))
    return Fp8Layout{3, 7, 0x7e};
  if (isa<Float8E5M2Type>(type))
    return Fp8Layout{2, 15, 0x7b};
  return std::nullopt;
}

Value i32Const(OpBuilder &b, Location loc, int64_t v) {
  return createI32(b, loc, v);
}

/// f32 -> fp8 byte in integer arithmetic (see the header).
Value emulateTruncToFp8(OpBuilder &b, Location loc, Value x,
                        const Fp8Layout &f) {
  Type i32 = b.getI32Type(), f32 = b.getF32Type();
  int shift = 23 - f.mantissaBits;
  Value bits = LLVM::BitcastOp::create(b, loc, i32, x);
  Value sign = LLVM::AndOp::create(
      b, loc, LLVM::LShrOp::create(b, loc, bits, i32Const(b, loc, 24)),
      i32Const(b, loc, 0x80));
  Value abs = LLVM::AndOp::create(b, loc, bits, i32Const(b, loc, 0x7fffffff));
  // Normal results.
  Value lsb = LLVM::AndOp::create(
      b, loc, LLVM::LShrOp::create(b, loc, abs, i32Const(b, loc, shift)),
      i32Const(b, loc, 1));
  Value rounded = LLVM::AddOp::create(
      b, loc,
      LLVM::AddOp::create(b, loc, abs,
                          i32Const(b, loc, (1 << (shift - 1)) - 1)),
      lsb);
  Value normal = LLVM::SubOp::create(
      b, loc, LLVM::LShrOp::create(b, loc, rounded, i32Const(b, loc, shift)),
      i32Const(b, loc, int64_t(127 - f.bias) << f.mantissaBits));
  // Subnormal results (|x| below the smallest normal fp8).
  Value magnitude = LLVM::BitcastOp::create(b, loc, f32, abs);
  Value scale = LLVM::ConstantOp::create(
      b, loc, f32,
      b.getF32FloatAttr(std::ldexp(1.0f, f.bias - 1 + f.mantissaBits)));
  Value scaled = LLVM::FMulOp::create(b, loc, magnitude, scale);
  Value subnormal = LLVM::FPToUIOp::create(
      b, loc, i32, LLVM::RoundEvenOp::create(b, loc, scaled));
  Value isSubnormal = LLVM::ICmpOp::create(
      b, loc, LLVM::ICmpPredicate::ult, abs,
      i32Const(b, loc, int64_t(127 + 1 - f.bias) << 23));
  Value result = LLVM::SelectOp::create(b, loc, isSubnormal, subnormal, normal);
  // Saturate (the normal path of a large |x| or inf gives a larger code).
  Value tooLarge = LLVM::OrOp::create(
      b, loc,
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ugt, result,
                           i32Const(b, loc, f.maxFinite)),
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::uge, abs,
                           i32Const(b, loc, 0x7f800000)));
  result = LLVM::SelectOp::create(b, loc, tooLarge,
                                  i32Const(b, loc, f.maxFinite), result);
  result = LLVM::OrOp::create(b, loc, result, sign);
  Value isNan = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ugt, abs,
                                     i32Const(b, loc, 0x7f800000));
  result = LLVM::SelectOp::create(b, loc, isNan, i32Const(b, loc, 0x7f),
                                  result);
  return LLVM::TruncOp::create(b, loc, b.getI8Type(), result);
}

struct TruncToFp8Conversion : public OpConversionPattern<arith::TruncFOp> {
  TruncToFp8Conversion(TkgpuToLlvmTypeConverter &converter,
                       LoweringState &state)
      : OpConversionPattern(converter, &converter.getContext(),
                            /*benefit=*/2),
        state(state) {}

  LogicalResult
  matchAndRewrite(arith::TruncFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<Fp8Layout> layout = getFp8Layout(op.getType());
    if (!layout || isa<ShapedType>(op.getType()))
      return failure();
    Type source = op.getIn().getType();
    if (!source.isF32() && !source.isF16() && !source.isBF16())
      return rewriter.notifyMatchFailure(op, "fp8 converts from f32, f16 "
                                             "and bf16 only");
    Location loc = op.getLoc();
    Value x = adaptor.getIn();
    // From f16/bf16 (the canonicalizer folds the frontend's extf to f32
    // into the truncf): exact in f32.
    if (!source.isF32())
      x = LLVM::FPExtOp::create(rewriter, loc, rewriter.getF32Type(), x);
    if (state.computeCapability >= 89) {
      Value zero =
          LLVM::ConstantOp::create(rewriter, loc, rewriter.getF32Type(),
                                   rewriter.getF32FloatAttr(0.0f));
      Value pair = NVVM::ConvertF32x2ToF8x2Op::create(
          rewriter, loc, rewriter.getI16Type(), x, zero,
          NVVM::FPRoundingMode::RN, NVVM::SaturationMode::SATFINITE,
          /*relu=*/false, op.getType());
      Value high = LLVM::LShrOp::create(
          rewriter, loc, pair,
          LLVM::ConstantOp::create(rewriter, loc, rewriter.getI16Type(),
                                   rewriter.getI16IntegerAttr(8)));
      rewriter.replaceOp(op, LLVM::TruncOp::create(
                                 rewriter, loc, rewriter.getI8Type(), high));
      return success();
    }
    rewriter.replaceOp(op, emulateTruncToFp8(rewriter, loc, x, *layout));
    return success();
  }

  LoweringState &state;
};

struct ExtFromFp8Conversion : public OpConversionPattern<arith::ExtFOp> {
  ExtFromFp8Conversion(TkgpuToLlvmTypeConverter &converter)
      : OpConversionPattern(converter, &converter.getContext(),
                            /*benefit=*/2) {}

  LogicalResult
  matchAndRewrite(arith::ExtFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type source = op.getIn().getType();
    std::optional<Fp8Layout> layout = getFp8Layout(source);
    if (!layout || isa<ShapedType>(source))
      return failure();
    Type target = op.getType();
    if (!target.isF32() && !target.isF16() && !target.isBF16())
      return rewriter.notifyMatchFailure(op, "fp8 converts to f32, f16 "
                                             "and bf16 only");
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    Type i16 = b.getI16Type(), f16 = b.getF16Type(), f32 = b.getF32Type();
    Value byte = LLVM::ZExtOp::create(b, loc, i16, adaptor.getIn());
    auto i16Const = [&](int64_t v) {
      return LLVM::ConstantOp::create(b, loc, i16, b.getI16IntegerAttr(v));
    };
    Value result;
    if (isa<Float8E5M2Type>(source)) {
      Value half = LLVM::BitcastOp::create(
          b, loc, f16, LLVM::ShlOp::create(b, loc, byte, i16Const(8)));
      result = LLVM::FPExtOp::create(b, loc, f32, half);
    } else {
      Value magnitudeBits = LLVM::AndOp::create(b, loc, byte, i16Const(0x7f));
      Value half = LLVM::BitcastOp::create(
          b, loc, f16, LLVM::ShlOp::create(b, loc, magnitudeBits, i16Const(7)));
      Value magnitude = LLVM::FMulOp::create(
          b, loc, LLVM::FPExtOp::create(b, loc, f32, half),
          LLVM::ConstantOp::create(b, loc, f32, b.getF32FloatAttr(256.0f)));
      Value isNan = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq,
                                         magnitudeBits, i16Const(0x7f));
      magnitude = LLVM::SelectOp::create(
          b, loc, isNan,
          LLVM::ConstantOp::create(b, loc, f32,
                                   b.getF32FloatAttr(std::nanf(""))),
          magnitude);
      Value negative = LLVM::ICmpOp::create(
          b, loc, LLVM::ICmpPredicate::ne,
          LLVM::AndOp::create(b, loc, byte, i16Const(0x80)), i16Const(0));
      result = LLVM::SelectOp::create(
          b, loc, negative, LLVM::FNegOp::create(b, loc, magnitude),
          magnitude);
    }
    // To f16/bf16: every fp8 value is exact there.
    if (!target.isF32())
      result = LLVM::FPTruncOp::create(rewriter, loc, target, result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// The byte of an fp8 constant.
IntegerAttr getFp8Bits(OpBuilder &b, Attribute value) {
  auto floatAttr = dyn_cast<FloatAttr>(value);
  if (!floatAttr)
    return {};
  return b.getI8IntegerAttr(
      int8_t(floatAttr.getValue().bitcastToAPInt().getZExtValue()));
}

/// Scalar fp8 constants and splat tensors of them.
struct Fp8ConstantConversion : public OpConversionPattern<arith::ConstantOp> {
  Fp8ConstantConversion(TkgpuToLlvmTypeConverter &converter)
      : OpConversionPattern(converter, &converter.getContext(),
                            /*benefit=*/11) {}

  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = op.getType();
    auto tensor = dyn_cast<RankedTensorType>(type);
    Type element = tensor ? tensor.getElementType() : type;
    if (!getFp8Layout(element))
      return failure();
    Attribute scalar = op.getValue();
    if (tensor) {
      auto dense = dyn_cast<DenseElementsAttr>(scalar);
      if (!dense || !dense.isSplat() || !getLayoutEncoding(tensor))
        return rewriter.notifyMatchFailure(op, "only splat fp8 tensors");
      scalar = dense.getSplatValue<Attribute>();
    }
    IntegerAttr bits = getFp8Bits(rewriter, scalar);
    if (!bits)
      return failure();
    Value value = LLVM::ConstantOp::create(rewriter, op.getLoc(),
                                           rewriter.getI8Type(), bits);
    if (!tensor) {
      rewriter.replaceOp(op, value);
      return success();
    }
    Type structType = getTypeConverter()->convertType(tensor);
    if (!structType)
      return failure();
    SmallVector<Value> elements(getTotalElemsPerThread(tensor), value);
    rewriter.replaceOp(op, packValues(rewriter, op.getLoc(), structType,
                                      elements));
    return success();
  }
};

} // namespace

void tkgpu::populateFp8OpToLlvmPatterns(TkgpuToLlvmTypeConverter &converter,
                                        LoweringState &state,
                                        RewritePatternSet &patterns) {
  patterns.add<TruncToFp8Conversion>(converter, state);
  patterns.add<ExtFromFp8Conversion, Fp8ConstantConversion>(converter);
}
