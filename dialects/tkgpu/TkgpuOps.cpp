//===- TkgpuOps.cpp - tkgpu operation verifiers and folders ---------------===//
#include "dialects/tkgpu/TkgpuDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::tkgpu;

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
