//===- MathOpToLlvm.cpp - scalar math with PTX approximations -------------===//
//
// The f16/bf16/f32 transcendentals become PTX here (the upstream math
// patterns would produce llvm.exp & co., which NVPTX cannot select, and
// libdevice's accurate versions are slower). The choices follow Triton's
// fast paths, which its kernels are measured with:
//   exp(x)   = ex2.approx.ftz.f32(x * log2(e))
//   exp2(x)  = ex2.approx.ftz.f32(x)
//   log(x)   = lg2.approx.f32(x) * ln(2),  log2(x) = lg2.approx.f32(x)
//   sin, cos = sin.approx.f32, cos.approx.f32
//   rsqrt    = rsqrt.approx.f32
// tanh and erf are our own f32 approximations accurate to about 2 ulp
// (tanh.approx.f32 is off by up to 2^-11 relative, too coarse for GELU):
//   tanh: |x| < 0.6: x * P(x^2); else 1 - 2 / (exp(2|x|) + 1); sign of x.
//   erf:  |x| < 1:   x * P(x^2); else 1 - 2^Q(|x| - 2.5), Q fitting
//         log2(erfc); 1 beyond 4; sign of x.
// Polynomials were fitted by iteratively reweighted least squares (a
// Lawson minimax fit) and checked in f32 against the C library.
// ex2 flushes subnormals: results below 2^-126 are 0 (inputs so small
// give 1 either way). Without .ftz, ptxas wraps each MUFU.EX2 in a range
// test and two multiplications to produce subnormal results; in the
// attention loop that was a quarter of all instructions (docs/pipeline.md,
// "Fast math"). Triton emits the .ftz form too.
// f16/bf16 compute in f32. sqrt stays IEEE (sqrt.rn) via the upstream
// pattern, and so does `/` unless arith.divf carries the `afn` flag
// (div.full.f32). f64 goes to libdevice (MathOpToLibdevice.cpp).
//
//===----------------------------------------------------------------------===//
#include "compiler/conversion/PatternSets.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/DialectConversion.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

constexpr double kLog2E = 1.4426950408889634;
constexpr double kLn2 = 0.6931471805599453;

// tanh(x) / x = sum kTanhSmall[i] * x^(2i) on [0, 0.6].
constexpr float kTanhSmall[] = {
    1.0f, -0.3333333134651184f, 0.1333322823047638f, -0.05395052582025528f,
    0.021725023165345192f, -0.008245485834777355f, 0.0022121286019682884f};
constexpr float kTanhSmallLimit = 0.6f;

// erf(x) / x = sum kErfSmall[i] * x^(2i) on [0, 1].
constexpr float kErfSmall[] = {
    1.1283791065216064f, -0.3761262595653534f, 0.1128358542919159f,
    -0.026853816583752632f, 0.005188334733247757f, -0.0008010244346223772f,
    7.854007708374411e-05f};
// log2(erfc(x)) = sum kErfLarge[i] * (x - 2.5)^i on [1, 4].
constexpr float kErfLarge[] = {
    -11.262853622436523f, -7.722285747528076f, -1.361750602722168f,
    -0.015665486454963684f, 0.003123552305623889f, -0.000606181682087481f,
    0.00011174380779266357f, -1.9190316379535943e-05f,
    2.308056991751073e-06f};

class MathBuilder {
public:
  MathBuilder(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  Value constant(double v) { return createFloatConstant(b, loc, f32(), v); }
  Value mul(Value x, Value y) { return LLVM::FMulOp::create(b, loc, x, y); }
  Value add(Value x, Value y) { return LLVM::FAddOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return LLVM::FSubOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return LLVM::FDivOp::create(b, loc, x, y); }
  Value fma(Value x, Value y, Value z) {
    return LLVM::FMAOp::create(b, loc, x, y, z);
  }
  Value abs(Value x) { return LLVM::FAbsOp::create(b, loc, x); }
  Value copySign(Value magnitude, Value sign) {
    return LLVM::CopySignOp::create(b, loc, magnitude, sign);
  }
  Value less(Value x, double limit) {
    return LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::olt, x,
                                constant(limit));
  }
  Value greaterEqual(Value x, double limit) {
    return LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::oge, x,
                                constant(limit));
  }
  Value select(Value c, Value x, Value y) {
    return LLVM::SelectOp::create(b, loc, c, x, y);
  }
  Value intrinsic(StringRef name, Value x) {
    return LLVM::CallIntrinsicOp::create(b, loc, f32(), b.getStringAttr(name),
                                         ValueRange{x})
        .getResult(0);
  }
  /// Horner's rule with fma.
  Value polynomial(ArrayRef<float> coefficients, Value u) {
    Value r = constant(coefficients.back());
    for (float c : llvm::reverse(coefficients.drop_back()))
      r = fma(r, u, constant(c));
    return r;
  }

  Value exp2(Value x) { return intrinsic("llvm.nvvm.ex2.approx.ftz.f", x); }
  Value log2(Value x) { return intrinsic("llvm.nvvm.lg2.approx.f", x); }

  Value tanh(Value x) {
    Value a = abs(x);
    Value small = mul(x, polynomial(kTanhSmall, mul(x, x)));
    Value e = exp2(mul(a, constant(2 * kLog2E)));
    Value large = sub(constant(1.0), div(constant(2.0), add(e, constant(1.0))));
    // NaN fails the comparison and flows through the large branch.
    return select(less(a, kTanhSmallLimit), small, copySign(large, x));
  }

  Value erf(Value x) {
    Value a = abs(x);
    Value small = mul(x, polynomial(kErfSmall, mul(x, x)));
    Value t = polynomial(kErfLarge, sub(a, constant(2.5)));
    Value large = sub(constant(1.0), exp2(t));
    large = select(greaterEqual(a, 4.0), constant(1.0), large);
    return select(less(a, 1.0), small, copySign(large, x));
  }

private:
  Type f32() { return b.getF32Type(); }
  OpBuilder &b;
  Location loc;
};

using MathFunction = Value (*)(MathBuilder &, Value);

/// Lowers a scalar unary float math op through `function` on f32; f16 and
/// bf16 are extended and the result truncated.
template <typename MathOp>
struct FastMathConversion : public OpConversionPattern<MathOp> {
  FastMathConversion(TkgpuToLlvmTypeConverter &converter,
                     MathFunction function)
      : OpConversionPattern<MathOp>(converter, &converter.getContext(),
                                    /*benefit=*/5),
        function(function) {}

  LogicalResult
  matchAndRewrite(MathOp op, typename MathOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<FloatType>(op.getType());
    if (!type)
      return failure(); // tensors: the elementwise pattern splits them
    if (type.isF64())
      return failure(); // libdevice (MathOpToLibdevice.cpp)
    Location loc = op.getLoc();
    Value x = adaptor.getOperand();
    Type f32 = rewriter.getF32Type();
    if (!type.isF32())
      x = LLVM::FPExtOp::create(rewriter, loc, f32, x);
    MathBuilder math(rewriter, loc);
    Value result = function(math, x);
    if (!type.isF32())
      result = LLVM::FPTruncOp::create(rewriter, loc, type, result);
    rewriter.replaceOp(op, result);
    return success();
  }

  MathFunction function;
};

/// `arith.divf` on f32 with the `afn` fast-math flag: div.full.f32 (2 ulp,
/// full range), what Triton uses for `/`. Without the flag division stays
/// IEEE (div.rn.f32, the upstream pattern).
struct FastDivConversion : public OpConversionPattern<arith::DivFOp> {
  FastDivConversion(TkgpuToLlvmTypeConverter &converter)
      : OpConversionPattern(converter, &converter.getContext(),
                            /*benefit=*/5) {}

  LogicalResult
  matchAndRewrite(arith::DivFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getType().isF32() ||
        !bitEnumContainsAll(op.getFastmath(), arith::FastMathFlags::afn))
      return failure();
    rewriter.replaceOp(
        op, LLVM::CallIntrinsicOp::create(
                rewriter, op.getLoc(), rewriter.getF32Type(),
                rewriter.getStringAttr("llvm.nvvm.div.full"),
                ValueRange{adaptor.getLhs(), adaptor.getRhs()})
                .getResult(0));
    return success();
  }
};

} // namespace

void tkgpu::populateMathOpToLlvmPatterns(TkgpuToLlvmTypeConverter &converter,
                                         RewritePatternSet &patterns) {
  patterns.add<FastMathConversion<math::ExpOp>>(
      converter, [](MathBuilder &m, Value x) {
        return m.exp2(m.mul(x, m.constant(kLog2E)));
      });
  patterns.add<FastMathConversion<math::Exp2Op>>(
      converter, [](MathBuilder &m, Value x) { return m.exp2(x); });
  patterns.add<FastMathConversion<math::LogOp>>(
      converter, [](MathBuilder &m, Value x) {
        return m.mul(m.log2(x), m.constant(kLn2));
      });
  patterns.add<FastMathConversion<math::Log2Op>>(
      converter, [](MathBuilder &m, Value x) { return m.log2(x); });
  patterns.add<FastMathConversion<math::SinOp>>(
      converter, [](MathBuilder &m, Value x) {
        return m.intrinsic("llvm.nvvm.sin.approx.f", x);
      });
  patterns.add<FastMathConversion<math::CosOp>>(
      converter, [](MathBuilder &m, Value x) {
        return m.intrinsic("llvm.nvvm.cos.approx.f", x);
      });
  patterns.add<FastMathConversion<math::RsqrtOp>>(
      converter, [](MathBuilder &m, Value x) {
        return m.intrinsic("llvm.nvvm.rsqrt.approx.f", x);
      });
  patterns.add<FastMathConversion<math::TanhOp>>(
      converter, [](MathBuilder &m, Value x) { return m.tanh(x); });
  patterns.add<FastMathConversion<math::ErfOp>>(
      converter, [](MathBuilder &m, Value x) { return m.erf(x); });
  patterns.add<FastDivConversion>(converter);
}
