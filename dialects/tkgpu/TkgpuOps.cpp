//===- TkgpuOps.cpp - tkgpu operation verifiers and folders ---------------===//
#include "dialects/tkgpu/TkgpuDialect.h"

#include "mlir/IR/Builders.h"
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
  return verifySameData(*this, getType(), getBuffer().getType());
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
