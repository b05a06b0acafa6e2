//===- ElementwiseOpToLlvm.cpp - arith/math on tensors --------------------===//
//
// One generic pattern covers every elementwise arith and math op on tensors:
// it creates the same op on scalars once per element the thread owns, and
// the upstream arith/math patterns (or our fast-math patterns) lower those.
// All operands of an elementwise op have the result's layout, so element i
// of every operand struct is the same tensor element.
//
//===----------------------------------------------------------------------===//
#include "compiler/conversion/PatternSets.h"

#include "dialects/tkgpu/TkgpuDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

struct ElementwiseOpConversion : public ConversionPattern {
  ElementwiseOpConversion(TkgpuToLlvmTypeConverter &converter)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/10,
                          &converter.getContext()) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
        isa<arith::ConstantOp>(op) || op->getNumResults() != 1 ||
        op->getNumRegions() != 0)
      return failure();
    auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!resultType || !getLayoutEncoding(resultType))
      return failure();
    Type structType = getTypeConverter()->convertType(resultType);
    if (!structType)
      return rewriter.notifyMatchFailure(op, "result type not lowered");

    Location loc = op->getLoc();
    int64_t count = getTotalElemsPerThread(resultType);
    // Scalar operands (arith.select's condition) apply to every element.
    SmallVector<SmallVector<Value>> elements;
    for (auto [operand, original] : llvm::zip(operands, op->getOperands())) {
      if (!isa<RankedTensorType>(original.getType())) {
        elements.emplace_back(count, operand);
        continue;
      }
      if (getTotalElemsPerThread(original.getType()) != count)
        return rewriter.notifyMatchFailure(
            op, "operand layout differs from the result layout");
      elements.push_back(unpackValues(rewriter, loc, operand));
    }

    // Element types that LLVM holds differently (fp8 as i8) are cast back
    // to the source type around the scalar op, whose own pattern (e.g.
    // Fp8OpToLlvm.cpp) then sees the types it expects.
    auto castTo = [&](Value value, Type type) -> Value {
      if (!type || value.getType() == type)
        return value;
      return UnrealizedConversionCastOp::create(rewriter, loc, type, value)
          .getResult(0);
    };
    SmallVector<Type> operandElementTypes;
    for (Value original : op->getOperands())
      operandElementTypes.push_back(getElementTypeOrSelf(original.getType()));
    Type resultElement = resultType.getElementType();
    Type convertedResultElement =
        getTypeConverter()->convertType(resultElement);
    SmallVector<Value> results;
    results.reserve(count);
    for (int64_t i = 0; i < count; ++i) {
      OperationState state(loc, op->getName());
      for (auto [operand, type] : llvm::zip(elements, operandElementTypes))
        state.addOperands(castTo(operand[i], type));
      state.addTypes(resultElement);
      state.addAttributes(op->getAttrs());
      results.push_back(
          castTo(rewriter.create(state)->getResult(0), convertedResultElement));
    }
    rewriter.replaceOp(op, packValues(rewriter, loc, structType, results));
    return success();
  }
};

/// Splat tensor constants: the scalar once per owned element.
struct TensorConstantConversion
    : public OpConversionPattern<arith::ConstantOp> {
  TensorConstantConversion(TkgpuToLlvmTypeConverter &converter)
      : OpConversionPattern(converter, &converter.getContext(),
                            /*benefit=*/10) {}

  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type || !getLayoutEncoding(type))
      return failure();
    auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
    if (!dense || !dense.isSplat())
      return rewriter.notifyMatchFailure(
          op, "only splat tensor constants are lowered");
    Type elementType = getTypeConverter()->convertType(type.getElementType());
    Type structType = getTypeConverter()->convertType(type);
    if (!elementType || !structType)
      return rewriter.notifyMatchFailure(op, "type not lowered");
    Attribute scalar = dense.getSplatValue<Attribute>();
    Value value =
        LLVM::ConstantOp::create(rewriter, op.getLoc(), elementType, scalar);
    SmallVector<Value> elements(getTotalElemsPerThread(type), value);
    rewriter.replaceOp(op,
                       packValues(rewriter, op.getLoc(), structType, elements));
    return success();
  }
};

} // namespace

void tkgpu::populateElementwiseOpToLlvmPatterns(
    TkgpuToLlvmTypeConverter &converter, LoweringState &state,
    RewritePatternSet &patterns) {
  patterns.add<ElementwiseOpConversion, TensorConstantConversion>(converter);
}
