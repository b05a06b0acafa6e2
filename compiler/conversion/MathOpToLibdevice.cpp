//===- MathOpToLibdevice.cpp - scalar math as calls of CUDA's libdevice ---===//
//
// The math ops that NVPTX cannot select and our PTX approximations
// (MathOpToLlvm.cpp) do not cover become calls of libdevice's functions:
// f32 `math.powf` is `llvm.call @__nv_powf`, f64 `math.exp` is
// `@__nv_exp`, and so on; f16/bf16 are extended to f32 around the f32
// function. The callee is declared in the module once; LlvmToPtx.cpp links
// libdevice.10.bc into the LLVM module when such a declaration exists, and
// internalizes and inlines what the kernel uses, so a kernel without these
// calls never pays for the link.
//
// The patterns have a benefit above the upstream math patterns (which
// would produce llvm.pow & co.) and below the fast f32 ones, which leave
// f64 to these.
//
// `tk.extern_elementwise "SYMBOL"` (the libdevice functions without a math
// op) is the same call, declared with the op's own operand and result
// types, once per element the thread holds.
//
//===----------------------------------------------------------------------===//
#include "compiler/conversion/MathOpToLibdevice.h"

#include "compiler/conversion/LoweringUtils.h"
#include "dialects/tk/TkDialect.h"

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

/// `llvm.func @name(params...) -> result`, declared once in the module.
LLVM::LLVMFuncOp declareLibdeviceFunction(OpBuilder &b, Operation *op,
                                          StringRef name, Type result,
                                          TypeRange params) {
  return getOrDeclareFunction(
      b, op->getParentOfType<ModuleOp>(), name,
      LLVM::LLVMFunctionType::get(result, SmallVector<Type>(params)));
}

/// `op` on f32 or f64 scalars (f16/bf16 through f32) as a call of
/// `f32Name` / `f64Name`.
template <typename MathOp>
struct LibdeviceCallConversion : public OpConversionPattern<MathOp> {
  LibdeviceCallConversion(LLVMTypeConverter &converter,
                          StringRef f32Name, StringRef f64Name)
      : OpConversionPattern<MathOp>(converter, &converter.getContext(),
                                    /*benefit=*/3),
        f32Name(f32Name), f64Name(f64Name) {}

  LogicalResult
  matchAndRewrite(MathOp op, typename MathOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<FloatType>(op.getType());
    if (!type)
      return failure(); // tensors: the elementwise pattern splits them
    if (!type.isF16() && !type.isBF16() && !type.isF32() && !type.isF64())
      return rewriter.notifyMatchFailure(op, "no libdevice function");
    Location loc = op.getLoc();
    Type callType = type.isF64() ? Type(type) : rewriter.getF32Type();
    StringRef name = type.isF64() ? f64Name : f32Name;

    SmallVector<Value> operands;
    for (Value operand : adaptor.getOperands())
      operands.push_back(operand.getType() == callType
                             ? operand
                             : LLVM::FPExtOp::create(rewriter, loc, callType,
                                                     operand)
                                   .getResult());
    auto function =
        declareLibdeviceFunction(rewriter, op, name, callType,
                                 SmallVector<Type>(operands.size(), callType));
    Value result =
        LLVM::CallOp::create(rewriter, loc, function, operands).getResult();
    if (callType != type)
      result = LLVM::FPTruncOp::create(rewriter, loc, type, result);
    rewriter.replaceOp(op, result);
    return success();
  }

  std::string f32Name, f64Name;
};

/// tk.extern_elementwise on scalars or on the elements a thread holds
/// (all operands share the result's layout).
struct ExternElementwiseConversion
    : public OpConversionPattern<tk::ExternElementwiseOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tk::ExternElementwiseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    const TypeConverter &converter = *getTypeConverter();
    Type result = converter.convertType(getElementTypeOrSelf(op.getType()));
    SmallVector<Type> params;
    for (Value operand : op.getSrcs())
      params.push_back(
          converter.convertType(getElementTypeOrSelf(operand.getType())));
    if (!result || llvm::is_contained(params, Type()))
      return rewriter.notifyMatchFailure(op, "element type not lowered");
    auto function =
        declareLibdeviceFunction(rewriter, op, op.getSymbol(), result, params);

    rewriter.replaceOp(
        op, mapElements(rewriter, loc, op.getType(), converter,
                        adaptor.getSrcs(), [&](ArrayRef<Value> args) -> Value {
                          return LLVM::CallOp::create(rewriter, loc, function,
                                                      args)
                              .getResult();
                        }));
    return success();
  }
};

template <typename MathOp>
void add(LLVMTypeConverter &converter, RewritePatternSet &patterns,
         StringRef f32Name, StringRef f64Name) {
  patterns.add<LibdeviceCallConversion<MathOp>>(converter, f32Name, f64Name);
}

} // namespace

void tkgpu::populateMathOpToLibdevicePatterns(
    LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ExternElementwiseConversion>(converter, &converter.getContext());
  // Covered by the fast patterns in f32: f64 only reaches these.
  add<math::ExpOp>(converter, patterns, "__nv_expf", "__nv_exp");
  add<math::Exp2Op>(converter, patterns, "__nv_exp2f", "__nv_exp2");
  add<math::LogOp>(converter, patterns, "__nv_logf", "__nv_log");
  add<math::Log2Op>(converter, patterns, "__nv_log2f", "__nv_log2");
  add<math::SinOp>(converter, patterns, "__nv_sinf", "__nv_sin");
  add<math::CosOp>(converter, patterns, "__nv_cosf", "__nv_cos");
  add<math::RsqrtOp>(converter, patterns, "__nv_rsqrtf", "__nv_rsqrt");
  add<math::TanhOp>(converter, patterns, "__nv_tanhf", "__nv_tanh");
  add<math::ErfOp>(converter, patterns, "__nv_erff", "__nv_erf");
  // No PTX instruction or approximation of ours: libdevice in every type.
  add<math::TanOp>(converter, patterns, "__nv_tanf", "__nv_tan");
  add<math::AsinOp>(converter, patterns, "__nv_asinf", "__nv_asin");
  add<math::AcosOp>(converter, patterns, "__nv_acosf", "__nv_acos");
  add<math::AtanOp>(converter, patterns, "__nv_atanf", "__nv_atan");
  add<math::SinhOp>(converter, patterns, "__nv_sinhf", "__nv_sinh");
  add<math::CoshOp>(converter, patterns, "__nv_coshf", "__nv_cosh");
  add<math::AsinhOp>(converter, patterns, "__nv_asinhf", "__nv_asinh");
  add<math::AcoshOp>(converter, patterns, "__nv_acoshf", "__nv_acosh");
  add<math::AtanhOp>(converter, patterns, "__nv_atanhf", "__nv_atanh");
  add<math::CbrtOp>(converter, patterns, "__nv_cbrtf", "__nv_cbrt");
  add<math::ErfcOp>(converter, patterns, "__nv_erfcf", "__nv_erfc");
  add<math::ExpM1Op>(converter, patterns, "__nv_expm1f", "__nv_expm1");
  add<math::Log10Op>(converter, patterns, "__nv_log10f", "__nv_log10");
  add<math::Log1pOp>(converter, patterns, "__nv_log1pf", "__nv_log1p");
  add<math::PowFOp>(converter, patterns, "__nv_powf", "__nv_pow");
  add<math::Atan2Op>(converter, patterns, "__nv_atan2f", "__nv_atan2");
}
