//===- TkgpuTmaOps.cpp - mbarrier and TMA op verifiers --------------------===//
#include "dialects/tkgpu/TkgpuTmaOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::tkgpu;

#define GET_OP_CLASSES
#include "dialects/tkgpu/TkgpuTmaOps.cpp.inc"

/// An mbarrier is one 64-bit word in shared memory.
static LogicalResult verifyBarrier(Operation *op, MemDescType barrier) {
  if (barrier.getNumElements() != 1 ||
      !barrier.getElementType().isInteger(64))
    return op->emitOpError("the barrier must be a memdesc of one i64, got ")
           << barrier;
  return success();
}

/// A TMA box: 1 to 5 dimensions of at most 256 elements, one coordinate
/// per dimension, the innermost a multiple of 16 bytes.
static LogicalResult verifyBox(Operation *op, size_t numCoords,
                               MemDescType buffer) {
  ArrayRef<int64_t> shape = buffer.getShape();
  if (shape.empty() || shape.size() > 5)
    return op->emitOpError("a TMA box has 1 to 5 dimensions, got ") << buffer;
  if (numCoords != shape.size())
    return op->emitOpError("needs ")
           << shape.size() << " coordinates (one per dimension), got "
           << numCoords;
  for (int64_t dim : shape)
    if (dim < 1 || dim > 256)
      return op->emitOpError("TMA box dimensions are 1 to 256, got ")
             << buffer;
  unsigned bits = buffer.getElementType().getIntOrFloatBitWidth();
  if ((shape.back() * bits / 8) % 16 != 0)
    return op->emitOpError("the innermost box dimension must be a multiple "
                           "of 16 bytes, got ")
           << buffer;
  return success();
}

LogicalResult InitBarrierOp::verify() {
  return verifyBarrier(*this, getBarrier().getType());
}

LogicalResult BarrierExpectOp::verify() {
  return verifyBarrier(*this, getBarrier().getType());
}

LogicalResult WaitBarrierOp::verify() {
  return verifyBarrier(*this, getBarrier().getType());
}

LogicalResult AsyncTmaCopyGlobalToLocalOp::verify() {
  if (failed(verifyBarrier(*this, getBarrier().getType())))
    return failure();
  return verifyBox(*this, getCoords().size(), getResult().getType());
}

LogicalResult AsyncTmaCopyLocalToGlobalOp::verify() {
  return verifyBox(*this, getCoords().size(), getSrc().getType());
}
