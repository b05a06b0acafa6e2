//===- FuncOpToLlvm.cpp - func ops to llvm.func ---------------------------===//
//
// Kernels become `llvm.func` with `nvvm.kernel` (a .entry) and
// `nvvm.reqntid` = [num_warps * 32, 1, 1]: every layout assumes exactly that
// many threads, the runtime launches exactly that many, and ptxas budgets
// registers and barriers for it. A warp-specialized kernel launches
// tkgpu.total_num_warps (the producer warp group on top) and gets
// `nvvm.maxnreg`, the registers its partitions redistribute. The
// frontend's tk.* attributes ride along for the metadata writer. Pointer
// arguments declared 16-byte divisible get `llvm.align`, so LLVM may also
// use the alignment. A `!tkgpu.tensor_map`
// argument (a CUtensorMap the runtime encodes at launch) becomes a 128-byte
// byval parameter, 64-byte aligned, with `nvvm.grid_constant`: PTX
// `.param .align 64 .b8 NAME[128]`, read in place (cvta.param), as TMA
// requires of a descriptor in parameter space.
//
//===----------------------------------------------------------------------===//
#include "compiler/conversion/PatternSets.h"

#include "dialects/tk/TkDialect.h"
#include "dialects/tkgpu/TkgpuDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

/// The LLVM result type of a function with `results`: void, the one type,
/// or a struct of them.
static Type convertResultTypes(const TypeConverter &converter,
                               TypeRange results, MLIRContext *ctx) {
  if (results.empty())
    return LLVM::LLVMVoidType::get(ctx);
  SmallVector<Type> converted;
  for (Type t : results) {
    Type c = converter.convertType(t);
    if (!c)
      return nullptr;
    converted.push_back(c);
  }
  if (converted.size() == 1)
    return converted[0];
  return LLVM::LLVMStructType::getLiteral(ctx, converted);
}

struct FuncOpConversion : public OpConversionPattern<func::FuncOp> {
  FuncOpConversion(TkgpuToLlvmTypeConverter &converter, LoweringState &state)
      : OpConversionPattern(converter, &converter.getContext()),
        state(state) {}

  LogicalResult
  matchAndRewrite(func::FuncOp func, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MLIRContext *ctx = func.getContext();
    FunctionType type = func.getFunctionType();
    TypeConverter::SignatureConversion signature(type.getNumInputs());
    for (auto [i, input] : llvm::enumerate(type.getInputs())) {
      Type converted = getTypeConverter()->convertType(input);
      if (!converted)
        return rewriter.notifyMatchFailure(func, "argument type not lowered");
      signature.addInputs(i, converted);
    }
    Type resultType =
        convertResultTypes(*getTypeConverter(), type.getResults(), ctx);
    if (!resultType)
      return rewriter.notifyMatchFailure(func, "result type not lowered");
    auto llvmType = LLVM::LLVMFunctionType::get(
        resultType, signature.getConvertedTypes());

    auto llvmFunc = LLVM::LLVMFuncOp::create(rewriter, func.getLoc(),
                                             func.getName(), llvmType);
    // Discardable attributes (tk.kernel, tk.arg_names, ...) carry over.
    for (NamedAttribute attr : func->getDiscardableAttrs())
      llvmFunc->setAttr(attr.getName(), attr.getValue());

    bool kernel = tk::isKernel(func);
    if (kernel) {
      llvmFunc->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(),
                        rewriter.getUnitAttr());
      unsigned totalWarps = getTotalNumWarps(state.module);
      int32_t threads = totalWarps * state.threadsPerWarp;
      llvmFunc->setAttr(NVVM::NVVMDialect::getReqntidAttrName(),
                        rewriter.getDenseI32ArrayAttr({threads, 1, 1}));
      // setmaxnreg moves registers within what the program holds at
      // entry; ptxas must give it exactly that many. A kernel's maxnreg=
      // caps it.
      if (totalWarps != state.numWarps || getMaxRegisters(state.module))
        llvmFunc->setAttr(NVVM::NVVMDialect::getMaxnregAttrName(),
                          rewriter.getI32IntegerAttr(
                              getEntryRegisters(state.module, threads)));
      // cluster_size=: PTX .explicitcluster and .reqnctapercluster, which
      // make a plain launch run the grid in clusters of that many CTAs.
      // sm_80 has no clusters; there the programs run unclustered (the
      // cluster is a matter of speed, never of results).
      if (unsigned cluster = getClusterSize(state.module);
          cluster > 1 && getComputeCapability(getTarget(state.module)) >= 90)
        llvmFunc->setAttr(NVVM::NVVMDialect::getClusterDimAttrName(),
                          rewriter.getDenseI32ArrayAttr(
                              {int32_t(cluster), 1, 1}));
    } else {
      llvmFunc.setLinkage(LLVM::Linkage::Internal);
    }
    for (unsigned i = 0; i < type.getNumInputs(); ++i) {
      auto divisibility =
          func.getArgAttrOfType<IntegerAttr>(i, "tk.divisibility");
      if (!divisibility || !isa<tk::PtrType>(type.getInput(i)))
        continue;
      int64_t align = divisibility.getInt();
      if (align > 1 && llvm::isPowerOf2_64(align))
        llvmFunc.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                            rewriter.getI64IntegerAttr(align));
    }

    for (unsigned i = 0; i < type.getNumInputs(); ++i) {
      if (!isa<TensorMapType>(type.getInput(i)))
        continue;
      llvmFunc.setArgAttr(
          i, LLVM::LLVMDialect::getByValAttrName(),
          TypeAttr::get(LLVM::LLVMArrayType::get(rewriter.getI8Type(), 128)));
      llvmFunc.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                          rewriter.getI64IntegerAttr(64));
      llvmFunc.setArgAttr(i, NVVM::NVVMDialect::getGridConstantAttrName(),
                          rewriter.getUnitAttr());
    }

    rewriter.inlineRegionBefore(func.getBody(), llvmFunc.getBody(),
                                llvmFunc.end());
    if (failed(rewriter.convertRegionTypes(&llvmFunc.getBody(),
                                           *getTypeConverter(), &signature)))
      return failure();
    rewriter.eraseOp(func);
    return success();
  }

  LoweringState &state;
};

struct ReturnOpConversion : public OpConversionPattern<func::ReturnOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(func::ReturnOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ValueRange operands = adaptor.getOperands();
    if (operands.size() <= 1) {
      rewriter.replaceOpWithNewOp<LLVM::ReturnOp>(op, operands);
      return success();
    }
    auto parent = op->getParentOfType<LLVM::LLVMFuncOp>();
    Type resultType = parent.getFunctionType().getReturnType();
    Value packed = packValues(rewriter, op.getLoc(), resultType, operands);
    rewriter.replaceOpWithNewOp<LLVM::ReturnOp>(op, packed);
    return success();
  }
};

struct CallOpConversion : public OpConversionPattern<func::CallOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(func::CallOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type resultType = convertResultTypes(*getTypeConverter(),
                                         op.getResultTypes(), getContext());
    if (!resultType)
      return rewriter.notifyMatchFailure(op, "result type not lowered");
    bool isVoid = isa<LLVM::LLVMVoidType>(resultType);
    auto call = LLVM::CallOp::create(
        rewriter, op.getLoc(), isVoid ? TypeRange() : TypeRange(resultType),
        op.getCallee(), adaptor.getOperands());
    if (op.getNumResults() <= 1) {
      rewriter.replaceOp(op, call.getResults());
      return success();
    }
    SmallVector<Value> results;
    for (unsigned i = 0; i < op.getNumResults(); ++i)
      results.push_back(LLVM::ExtractValueOp::create(
          rewriter, op.getLoc(), call.getResult(), i));
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void tkgpu::populateFuncOpToLlvmPatterns(TkgpuToLlvmTypeConverter &converter,
                                         LoweringState &state,
                                         RewritePatternSet &patterns) {
  patterns.add<FuncOpConversion>(converter, state);
  patterns.add<ReturnOpConversion, CallOpConversion>(converter,
                                                     &converter.getContext());
}
