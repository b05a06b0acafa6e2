//===- TkgpuOps.cpp - tkgpu operation verifiers and folders ---------------===//
#include "dialects/tkgpu/TkgpuDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::tkgpu;

#include "dialects/tkgpu/TkgpuOpInterfaces.cpp.inc"

#define GET_OP_CLASSES
#include "dialects/tkgpu/TkgpuOps.cpp.inc"

namespace {

/// A tkgpu tensor operand/result must carry a distributed layout.
LogicalResult verifyDistributed(Operation *op, Type type, StringRef what) {
  LayoutEncodingAttrInterface layout = getLayoutEncoding(type);
  if (!layout || !layout.isDistributed())
    return op->emitOpError() << what << " " << type
                             << " needs a distributed layout encoding";
  return success();
}

/// A tensor and a buffer hold the same shape and element type.
LogicalResult verifySameData(Operation *op, RankedTensorType tensor,
                             MemDescType buffer) {
  if (tensor.getShape() != buffer.getShape() ||
      tensor.getElementType() != buffer.getElementType())
    return op->emitOpError("tensor ")
           << tensor << " and buffer " << buffer
           << " differ in shape or element type";
  return success();
}

} // namespace

LogicalResult ConvertLayoutOp::verify() {
  if (failed(verifyDistributed(*this, getSrc().getType(), "source")) ||
      failed(verifyDistributed(*this, getType(), "result")))
    return failure();
  return success();
}

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor adaptor) {
  // convert(x) to x's own type is x.
  if (getSrc().getType() == getType())
    return getSrc();
  // A constant splat is the same splat in any layout.
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getSrc()))
    return SplatElementsAttr::get(getType(), splat.getSplatValue<Attribute>());
  // convert(convert(x)) converts x directly.
  if (auto inner = getSrc().getDefiningOp<ConvertLayoutOp>()) {
    if (inner.getSrc().getType() == getType())
      return inner.getSrc();
    getSrcMutable().assign(inner.getSrc());
    return getResult();
  }
  return {};
}

LogicalResult ExtractSliceOp::verify() {
  if (failed(verifyDistributed(*this, getSrc().getType(), "source")) ||
      failed(verifyDistributed(*this, getType(), "result")))
    return failure();
  ArrayRef<int64_t> srcShape = getSrc().getType().getShape();
  ArrayRef<int64_t> shape = getType().getShape();
  ArrayRef<int64_t> offsets = getOffsets();
  if (srcShape.size() != shape.size() || offsets.size() != shape.size())
    return emitOpError("expects source, result and offsets of one rank");
  for (unsigned d = 0; d < shape.size(); ++d)
    if (offsets[d] < 0 || offsets[d] % shape[d] != 0 ||
        offsets[d] + shape[d] > srcShape[d])
      return emitOpError("window [")
             << offsets[d] << ", " << offsets[d] + shape[d]
             << ") of dimension " << d << " is not an aligned window of "
             << srcShape[d] << " elements";
  return success();
}

LogicalResult LocalAllocOp::verify() {
  if (!getSrc())
    return success();
  if (failed(verifyDistributed(*this, getSrc().getType(), "source")))
    return failure();
  return verifySameData(*this, getSrc().getType(), getType());
}

LogicalResult LocalLoadOp::verify() {
  if (failed(verifyDistributed(*this, getType(), "result")))
    return failure();
  std::optional<ArrayRef<int64_t>> offsets = getOffsets();
  if (!offsets)
    return verifySameData(*this, getType(), getBuffer().getType());
  MemDescType buffer = getBuffer().getType();
  RankedTensorType window = getType();
  if (window.getElementType() != buffer.getElementType() ||
      window.getRank() != buffer.getRank() ||
      offsets->size() != size_t(buffer.getRank()))
    return emitOpError("window ")
           << window << " at " << offsets->size()
           << " offsets does not match the rank and element type of "
           << buffer;
  for (int64_t d = 0; d < buffer.getRank(); ++d) {
    int64_t offset = (*offsets)[d], extent = window.getDimSize(d);
    if (offset < 0 || offset % extent != 0 ||
        offset + extent > buffer.getShape()[d])
      return emitOpError("window offset ")
             << offset << " of dimension " << d
             << " must be a multiple of the window's extent " << extent
             << " inside the buffer's " << buffer.getShape()[d];
  }
  return success();
}

LogicalResult LocalStoreOp::verify() {
  if (failed(verifyDistributed(*this, getSrc().getType(), "source")))
    return failure();
  return verifySameData(*this, getSrc().getType(), getBuffer().getType());
}

LogicalResult MemDescIndexOp::verify() {
  MemDescType src = getSrc().getType(), result = getType();
  if (src.getRank() != result.getRank() + 1 ||
      src.getShape().drop_front() != result.getShape() ||
      src.getElementType() != result.getElementType())
    return emitOpError("result ")
           << result << " is not one buffer of " << src
           << " (the source without its leading dimension)";
  auto srcLayout = dyn_cast<LayoutEncodingAttrInterface>(src.getEncoding());
  auto resultLayout =
      dyn_cast<LayoutEncodingAttrInterface>(result.getEncoding());
  if (!srcLayout || !resultLayout || srcLayout.isDistributed() ||
      resultLayout.isDistributed())
    return emitOpError("needs shared layouts");
  SmallVector<unsigned> order = srcLayout.getLayoutOrder();
  if (order.back() != 0)
    return emitOpError("the indexed (leading) dimension must be the slowest "
                       "in the source's order");
  if (dropLeadingBufferDim(srcLayout) != resultLayout)
    return emitOpError("result layout ")
           << resultLayout << " is not the source layout " << srcLayout
           << " without its leading dimension";
  return success();
}

Value MemDescIndexOp::getViewSource() { return getSrc(); }

void MemDescTransOp::build(OpBuilder &builder, OperationState &state,
                           Value src, ArrayRef<int32_t> order) {
  auto type = cast<MemDescType>(src.getType());
  SmallVector<int64_t> shape;
  for (int32_t d : order)
    shape.push_back(type.getShape()[d]);
  build(builder, state,
        MemDescType::get(builder.getContext(), shape, type.getElementType(),
                         permuteLayout(type.getEncoding(), order)),
        src, order);
}

Value MemDescTransOp::getViewSource() { return getSrc(); }

LogicalResult MemDescTransOp::verify() {
  MemDescType src = getSrc().getType(), result = getType();
  ArrayRef<int32_t> order = getOrder();
  SmallVector<bool> seen(order.size(), false);
  for (int32_t d : order) {
    if (d < 0 || d >= int32_t(order.size()) || seen[d])
      return emitOpError("order must be a permutation of the ")
             << order.size() << " dimensions";
    seen[d] = true;
  }
  if (int64_t(order.size()) != src.getRank() ||
      src.getRank() != result.getRank() ||
      src.getElementType() != result.getElementType())
    return emitOpError("result ") << result << " is not " << src
                                  << " with its dimensions permuted";
  for (auto [i, d] : llvm::enumerate(order))
    if (result.getShape()[i] != src.getShape()[d])
      return emitOpError("result dimension ")
             << i << " must be source dimension " << d;
  Attribute expected = permuteLayout(src.getEncoding(), order);
  if (!expected)
    return emitOpError("cannot permute the layout ") << src.getEncoding();
  if (expected != result.getEncoding())
    return emitOpError("result layout ")
           << result.getEncoding() << " is not the permuted source layout "
           << expected;
  return success();
}

LogicalResult AsyncCopyGlobalToLocalOp::verify() {
  auto ptrType = cast<RankedTensorType>(getPtr().getType());
  if (failed(verifyDistributed(*this, ptrType, "pointer")))
    return failure();
  auto ptrElement = dyn_cast<tk::PtrType>(ptrType.getElementType());
  if (!ptrElement)
    return emitOpError("expects a tensor of pointers, got ") << ptrType;
  MemDescType buffer = getBuffer().getType();
  if (ptrType.getShape() != buffer.getShape() ||
      ptrElement.getPointeeType() != buffer.getElementType())
    return emitOpError("pointers ")
           << ptrType << " do not match the buffer " << buffer;
  for (Value operand : {getMask(), getOther()}) {
    if (!operand)
      continue;
    auto type = cast<RankedTensorType>(operand.getType());
    if (type.getShape() != ptrType.getShape() ||
        type.getEncoding() != ptrType.getEncoding())
      return emitOpError("mask and other must have the pointers' shape and "
                         "layout");
  }
  return success();
}

bool mlir::tkgpu::isZeroFill(Value value) {
  if (!value)
    return true;
  if (auto splat = value.getDefiningOp<tk::SplatOp>())
    return isZeroFill(splat.getSrc());
  if (auto convert = value.getDefiningOp<ConvertLayoutOp>())
    return isZeroFill(convert.getSrc());
  Attribute attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return false;
  if (auto splat = dyn_cast<SplatElementsAttr>(attr))
    attr = splat.getSplatValue<Attribute>();
  if (auto f = dyn_cast<FloatAttr>(attr))
    return f.getValue().isPosZero();
  if (auto i = dyn_cast<IntegerAttr>(attr))
    return i.getValue().isZero();
  return false;
}

//===----------------------------------------------------------------------===//
// WarpGroupDotOp
//===----------------------------------------------------------------------===//

void WarpGroupDotOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (isa<MemDescType>(getA().getType()))
    effects.emplace_back(MemoryEffects::Read::get(), &getAMutable(),
                         SharedMemory::get());
  effects.emplace_back(MemoryEffects::Read::get(), &getBMutable(),
                       SharedMemory::get());
}

LogicalResult WarpGroupDotOp::verify() {
  auto dType = cast<RankedTensorType>(getD().getType());
  auto mma = dyn_cast_or_null<MmaEncodingAttr>(dType.getEncoding());
  if (!mma || !mma.isHopper())
    return emitOpError("result must have an #tkgpu.mma version 3 layout");
  auto bType = cast<MemDescType>(getB().getType());
  if (!isa<NvmmaSharedEncodingAttr>(bType.getEncoding()))
    return emitOpError("B must be in an #tkgpu.nvmma_shared buffer");
  ArrayRef<int64_t> aShape;
  Type aElement;
  if (auto aMem = dyn_cast<MemDescType>(getA().getType())) {
    if (!isa<NvmmaSharedEncodingAttr>(aMem.getEncoding()))
      return emitOpError("A in shared memory must be in an "
                         "#tkgpu.nvmma_shared buffer");
    aShape = aMem.getShape();
    aElement = aMem.getElementType();
  } else {
    auto aTensor = cast<RankedTensorType>(getA().getType());
    auto operand =
        dyn_cast_or_null<DotOperandEncodingAttr>(aTensor.getEncoding());
    if (!operand || operand.getOpIdx() != 0 || operand.getParent() != mma)
      return emitOpError("A in registers must have the #dot_operand "
                         "(opIdx 0) layout of the result's layout");
    aShape = aTensor.getShape();
    aElement = aTensor.getElementType();
  }
  ArrayRef<int64_t> bShape = bType.getShape(), dShape = dType.getShape();
  if (aShape.size() != 2 || bShape.size() != 2 || aShape[1] != bShape[0] ||
      aShape[0] != dShape[0] || bShape[1] != dShape[1])
    return emitOpError("shapes do not form (M x K) * (K x N) -> (M x N)");
  auto isFp8 = [](Type type) {
    return isa<Float8E4M3FNType, Float8E5M2Type>(type);
  };
  if (aElement != bType.getElementType() &&
      !(isFp8(aElement) && isFp8(bType.getElementType())))
    return emitOpError("A and B must have the same element type (or both "
                       "be fp8)");
  return success();
}

//===----------------------------------------------------------------------===//
// WarpSpecializeOp
//===----------------------------------------------------------------------===//

/// A named barrier's id, when constant, must be a scheduling one; its
/// count a whole number of warps.
static LogicalResult verifyNamedBarrier(Operation *op, Value id,
                                        unsigned numThreads) {
  if (numThreads % 32 != 0)
    return op->emitOpError("counts whole warps: the thread count must be a "
                           "multiple of 32, got ")
           << numThreads;
  APInt value;
  if (matchPattern(id, m_ConstantInt(&value)) &&
      (value.getZExtValue() < kFirstSchedulingBarrierId ||
       value.getZExtValue() >= kNumNamedBarriers))
    return op->emitOpError("barrier ids ")
           << kFirstSchedulingBarrierId << " to " << kNumNamedBarriers - 1
           << " are free for schedules (lower ones are the CTA's and the "
              "partitions'), got "
           << value.getZExtValue();
  return success();
}

LogicalResult NamedBarrierSyncOp::verify() {
  return verifyNamedBarrier(*this, getId(), getNumThreads());
}

LogicalResult NamedBarrierArriveOp::verify() {
  return verifyNamedBarrier(*this, getId(), getNumThreads());
}

LogicalResult WarpSpecializeOp::verify() {
  if (!isa<FunctionOpInterface>((*this)->getParentOp()))
    return emitOpError("must be in a function's body, not nested in other "
                       "ops (its partitions start and end once per program)");
  for (unsigned registers : {getConsumerRegisters(), getProducerRegisters()})
    if (registers % 8 != 0 || registers > 256)
      return emitOpError("register counts must be multiples of 8 from 24 to "
                         "256 (setmaxnreg), got ")
             << registers;
  unsigned numWarps = getNumWarps(*this);
  unsigned totalWarps = getTotalNumWarps(*this);
  if (numWarps == 0 || numWarps % 4 != 0 || totalWarps != numWarps + 4)
    return emitOpError("needs tkgpu.num_warps a multiple of 4 and "
                       "tkgpu.total_num_warps = num_warps + 4, got ")
           << numWarps << " and " << totalWarps;
  unsigned threads = totalWarps * 32;
  uint64_t pool = uint64_t(getEntryRegisters(*this, threads)) * threads;
  uint64_t asked = uint64_t(getConsumerRegisters()) * numWarps * 32 +
                   uint64_t(getProducerRegisters()) * 128;
  if (asked > pool)
    return emitOpError("the partitions ask for ")
           << asked << " registers; the program holds " << pool;
  return success();
}
