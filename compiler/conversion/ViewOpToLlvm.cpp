//===- ViewOpToLlvm.cpp - index, shape and pointer ops --------------------===//
//
// Shape ops (broadcast, expand_dims, reshape, trans) are index maps that
// are linear over GF(2) for power-of-two shapes. When every thread already
// holds the elements its result registers name (the common case: the
// result layout is the source layout seen through the map), the lowering
// only picks registers. Otherwise the source goes to shared memory and the
// result reads it through a strided view (stride 0 broadcasts).
//
//===----------------------------------------------------------------------===//
#include "compiler/conversion/PatternSets.h"

#include "dialects/tk/TkDialect.h"
#include "dialects/tkgpu/TkgpuDialect.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

#include <map>

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

// IndexMap, getShapeOpIndexMap and mapRegisters:
// compiler/analysis/ScratchSize.h (the scratch size needs them too).

/// The result of shape op `op`: registers picked when possible, else
/// through the op's scratch (source stored with `srcView`, read with
/// `dstView`; getShapeOpScratchBytes).
static Value lowerIndexMap(ConversionPatternRewriter &rewriter, Location loc,
                           LoweringState &state,
                           const TypeConverter &converter, Value source,
                           RankedTensorType srcType, RankedTensorType dstType,
                           Operation *op, SharedView srcView,
                           SharedView dstView) {
  IndexMap map = getShapeOpIndexMap(op);
  LinearLayout src = getDistributedLayout(srcType);
  LinearLayout dst = getDistributedLayout(dstType);
  SmallVector<Value> values = unpackValues(rewriter, loc, source);
  Type structType = converter.convertType(dstType);
  SmallVector<int32_t> mapping;
  SmallVector<Value> results;
  if (mapRegisters(src, dst, map, mapping)) {
    for (int32_t reg : mapping)
      results.push_back(values[reg]);
  } else {
    auto [lane, warp] = getLaneAndWarp(rewriter, loc, state.threadsPerWarp);
    Type elementType = srcType.getElementType();
    if (isa<tk::PtrType>(elementType)) {
      // Pointers travel as i64.
      for (Value &v : values)
        v = LLVM::PtrToIntOp::create(rewriter, loc, rewriter.getI64Type(), v);
      elementType = rewriter.getI64Type();
    }
    srcView.byteOffset = getAllocatedOffset(op, kScratchOffsetAttr);
    dstView.byteOffset = srcView.byteOffset;
    storeDistributed(rewriter, loc, state, values, src, srcType.getShape(),
                     srcView, elementType, lane, warp);
    createBarrier(rewriter, loc);
    results = loadDistributed(rewriter, loc, state, dst, dstType.getShape(),
                              dstView, elementType, lane, warp);
    if (isa<tk::PtrType>(srcType.getElementType())) {
      auto ptrType = LLVM::LLVMPointerType::get(rewriter.getContext(), 1);
      for (Value &v : results)
        v = LLVM::IntToPtrOp::create(rewriter, loc, ptrType, v);
    }
  }
  return packValues(rewriter, loc, structType, results);
}

//===----------------------------------------------------------------------===//
// Program ids
//===----------------------------------------------------------------------===//

struct ProgramIdConversion : public OpConversionPattern<tk::ProgramIdOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tk::ProgramIdOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type i32 = rewriter.getI32Type();
    Location loc = op.getLoc();
    Value id;
    switch (op.getAxis()) {
    case 0:
      id = NVVM::BlockIdXOp::create(rewriter, loc, i32);
      break;
    case 1:
      id = NVVM::BlockIdYOp::create(rewriter, loc, i32);
      break;
    default:
      id = NVVM::BlockIdZOp::create(rewriter, loc, i32);
      break;
    }
    rewriter.replaceOp(op, id);
    return success();
  }
};

struct NumProgramsConversion : public OpConversionPattern<tk::NumProgramsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tk::NumProgramsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type i32 = rewriter.getI32Type();
    Location loc = op.getLoc();
    Value n;
    switch (op.getAxis()) {
    case 0:
      n = NVVM::GridDimXOp::create(rewriter, loc, i32);
      break;
    case 1:
      n = NVVM::GridDimYOp::create(rewriter, loc, i32);
      break;
    default:
      n = NVVM::GridDimZOp::create(rewriter, loc, i32);
      break;
    }
    rewriter.replaceOp(op, n);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Building tensors
//===----------------------------------------------------------------------===//

struct MakeRangeConversion : public OpConversionPattern<tk::MakeRangeOp> {
  MakeRangeConversion(TkgpuToLlvmTypeConverter &converter,
                      LoweringState &state)
      : OpConversionPattern(converter, &converter.getContext()),
        state(state) {}

  LogicalResult
  matchAndRewrite(tk::MakeRangeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = op.getType();
    LinearLayout layout = getDistributedLayout(type);
    auto [lane, warp] = getLaneAndWarp(rewriter, loc, state.threadsPerWarp);
    SmallVector<SmallVector<Value>> indices =
        emitIndices(rewriter, loc, layout, lane, warp);
    int32_t start = op.getStart();
    SmallVector<Value> values;
    for (auto &index : indices)
      values.push_back(start == 0 ? index[0]
                                  : LLVM::AddOp::create(
                                        rewriter, loc, index[0],
                                        createI32(rewriter, loc, start))
                                        .getResult());
    rewriter.replaceOp(op, packValues(rewriter, loc,
                                      getTypeConverter()->convertType(type),
                                      values));
    return success();
  }

  LoweringState &state;
};

struct SplatConversion : public OpConversionPattern<tk::SplatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tk::SplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    SmallVector<Value> values(getTotalElemsPerThread(type), adaptor.getSrc());
    rewriter.replaceOp(op, packValues(rewriter, op.getLoc(),
                                      getTypeConverter()->convertType(type),
                                      values));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

struct BroadcastConversion : public OpConversionPattern<tk::BroadcastOp> {
  BroadcastConversion(TkgpuToLlvmTypeConverter &converter,
                      LoweringState &state)
      : OpConversionPattern(converter, &converter.getContext()),
        state(state) {}

  LogicalResult
  matchAndRewrite(tk::BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    ArrayRef<int64_t> srcShape = srcType.getShape();
    SmallVector<bool> broadcast;
    for (auto [s, d] : llvm::zip(srcShape, dstType.getShape()))
      broadcast.push_back(s == 1 && d != 1);
    SharedView srcView = SharedView::rowMajor(srcShape);
    SharedView dstView = srcView;
    for (unsigned d = 0; d < broadcast.size(); ++d)
      if (broadcast[d])
        dstView.strides[d] = 0;
    rewriter.replaceOp(op, lowerIndexMap(rewriter, op.getLoc(), state,
                                         *getTypeConverter(), adaptor.getSrc(),
                                         srcType, dstType, op, srcView,
                                         dstView));
    return success();
  }

  LoweringState &state;
};

struct ExpandDimsConversion : public OpConversionPattern<tk::ExpandDimsOp> {
  ExpandDimsConversion(TkgpuToLlvmTypeConverter &converter,
                       LoweringState &state)
      : OpConversionPattern(converter, &converter.getContext()),
        state(state) {}

  LogicalResult
  matchAndRewrite(tk::ExpandDimsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    unsigned axis = op.getAxis();
    SharedView srcView = SharedView::rowMajor(srcType.getShape());
    SharedView dstView = srcView;
    dstView.strides.insert(dstView.strides.begin() + axis, 0);
    rewriter.replaceOp(op, lowerIndexMap(rewriter, op.getLoc(), state,
                                         *getTypeConverter(), adaptor.getSrc(),
                                         srcType, dstType, op, srcView,
                                         dstView));
    return success();
  }

  LoweringState &state;
};

struct ReshapeConversion : public OpConversionPattern<tk::ReshapeOp> {
  ReshapeConversion(TkgpuToLlvmTypeConverter &converter, LoweringState &state)
      : OpConversionPattern(converter, &converter.getContext()),
        state(state) {}

  LogicalResult
  matchAndRewrite(tk::ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    SmallVector<int64_t> srcShape(srcType.getShape());
    SmallVector<int64_t> dstShape(dstType.getShape());
    rewriter.replaceOp(
        op, lowerIndexMap(rewriter, op.getLoc(), state, *getTypeConverter(),
                          adaptor.getSrc(), srcType, dstType, op,
                          SharedView::rowMajor(srcShape),
                          SharedView::rowMajor(dstShape)));
    return success();
  }

  LoweringState &state;
};

struct TransConversion : public OpConversionPattern<tk::TransOp> {
  TransConversion(TkgpuToLlvmTypeConverter &converter, LoweringState &state)
      : OpConversionPattern(converter, &converter.getContext()),
        state(state) {}

  LogicalResult
  matchAndRewrite(tk::TransOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    SmallVector<int32_t> order(op.getOrder());
    // Pad source rows: a transposed read walks a column.
    unsigned elementBytes = getMemoryBitWidth(srcType.getElementType()) / 8;
    SharedView srcView = SharedView::rowMajor(
        srcType.getShape(), getTransRowPadding(elementBytes));
    SharedView dstView = srcView;
    for (unsigned i = 0; i < order.size(); ++i)
      dstView.strides[i] = srcView.strides[order[i]];
    rewriter.replaceOp(op, lowerIndexMap(rewriter, op.getLoc(), state,
                                         *getTypeConverter(), adaptor.getSrc(),
                                         srcType, dstType, op, srcView,
                                         dstView));
    return success();
  }

  LoweringState &state;
};

//===----------------------------------------------------------------------===//
// Pointers and casts
//===----------------------------------------------------------------------===//

/// tkgpu.extract_slice: the window's registers, picked (see
/// mapWindowRegisters).
struct ExtractSliceConversion : public OpConversionPattern<ExtractSliceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ExtractSliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<int32_t> mapping;
    if (!mapWindowRegisters(getDistributedLayout(op.getSrc().getType()),
                            getDistributedLayout(op.getType()),
                            op.getOffsets(), mapping))
      return op.emitOpError("unsupported: a window whose elements are held "
                            "by other threads than in the source layout");
    SmallVector<Value> values =
        unpackValues(rewriter, op.getLoc(), adaptor.getSrc());
    SmallVector<Value> picked;
    for (int32_t src : mapping)
      picked.push_back(values[src]);
    rewriter.replaceOp(op, packValues(rewriter, op.getLoc(),
                                      getTypeConverter()->convertType(
                                          op.getType()),
                                      picked));
    return success();
  }
};

struct AddPtrConversion : public OpConversionPattern<tk::AddPtrOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tk::AddPtrOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type pointee = getTypeConverter()->convertType(getMemoryElementType(
        cast<tk::PtrType>(getElementTypeOrSelf(op.getType()))
            .getPointeeType()));
    auto ptrType = LLVM::LLVMPointerType::get(getContext(), 1);
    Value result = mapElements(
        rewriter, loc, op.getType(), *getTypeConverter(),
        {adaptor.getPtr(), adaptor.getOffset()}, [&](ArrayRef<Value> args) {
          return LLVM::GEPOp::create(rewriter, loc, ptrType, pointee, args[0],
                                     ArrayRef<LLVM::GEPArg>{args[1]})
              .getResult();
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct HintConversion : public OpConversionPattern<tk::HintOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tk::HintOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

struct IntToPtrConversion : public OpConversionPattern<tk::IntToPtrOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tk::IntToPtrOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto ptrType = LLVM::LLVMPointerType::get(getContext(), 1);
    rewriter.replaceOp(
        op, mapElements(rewriter, op.getLoc(), op.getType(),
                        *getTypeConverter(), {adaptor.getSrc()},
                        [&](ArrayRef<Value> args) {
                          return LLVM::IntToPtrOp::create(rewriter, op.getLoc(),
                                                          ptrType, args[0])
                              .getResult();
                        }));
    return success();
  }
};

struct PtrToIntConversion : public OpConversionPattern<tk::PtrToIntOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tk::PtrToIntOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type i64 = rewriter.getI64Type();
    rewriter.replaceOp(
        op, mapElements(rewriter, op.getLoc(), op.getType(),
                        *getTypeConverter(), {adaptor.getSrc()},
                        [&](ArrayRef<Value> args) {
                          return LLVM::PtrToIntOp::create(rewriter, op.getLoc(),
                                                          i64, args[0])
                              .getResult();
                        }));
    return success();
  }
};

struct BitcastConversion : public OpConversionPattern<tk::BitcastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tk::BitcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type element =
        getTypeConverter()->convertType(getElementTypeOrSelf(op.getType()));
    rewriter.replaceOp(
        op, mapElements(rewriter, op.getLoc(), op.getType(),
                        *getTypeConverter(), {adaptor.getSrc()},
                        [&](ArrayRef<Value> args) -> Value {
                          Location loc = op.getLoc();
                          Value v = args[0];
                          bool fromPtr =
                              isa<LLVM::LLVMPointerType>(v.getType());
                          bool toPtr = isa<LLVM::LLVMPointerType>(element);
                          if (fromPtr && toPtr)
                            return v;
                          if (fromPtr)
                            v = LLVM::PtrToIntOp::create(
                                rewriter, loc, rewriter.getI64Type(), v);
                          if (toPtr)
                            return LLVM::IntToPtrOp::create(
                                rewriter, loc, element,
                                LLVM::BitcastOp::create(
                                    rewriter, loc, rewriter.getI64Type(), v)
                                    .getResult());
                          return LLVM::BitcastOp::create(rewriter, loc,
                                                         element, v);
                        }));
    return success();
  }
};

} // namespace

void tkgpu::populateViewOpToLlvmPatterns(TkgpuToLlvmTypeConverter &converter,
                                         LoweringState &state,
                                         RewritePatternSet &patterns) {
  MLIRContext *ctx = &converter.getContext();
  patterns.add<ProgramIdConversion, NumProgramsConversion, SplatConversion,
               AddPtrConversion, HintConversion, IntToPtrConversion,
               PtrToIntConversion, BitcastConversion, ExtractSliceConversion>(
      converter, ctx);
  patterns.add<MakeRangeConversion, BroadcastConversion, ExpandDimsConversion,
               ReshapeConversion, TransConversion>(converter, state);
}
