//===- TkgpuTmaOps.cpp - mbarrier and TMA op verifiers --------------------===//
#include "dialects/tkgpu/TkgpuTmaOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

#include <algorithm>

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

SmallVector<int64_t> tkgpu::getTmaBoxShape(MemDescType buffer) {
  auto layout = dyn_cast<NvmmaSharedEncodingAttr>(buffer.getEncoding());
  ArrayRef<int64_t> shape = buffer.getShape();
  int64_t rank = shape.size();
  if (!layout || rank < 1 || layout.getOrder().empty() ||
      layout.getOrder()[0] != rank - 1)
    return {};
  int64_t chunk = layout.getChunkElements();
  SmallVector<int64_t> box(shape);
  box.back() = std::min<int64_t>(shape.back(), chunk);
  bool chunked = shape.back() > chunk;
  for (int64_t d = 0; d + 1 < rank; ++d)
    box[d] = (chunked && d + 2 < rank) ? 1 : std::min<int64_t>(shape[d], 256);
  return box;
}

/// A TMA buffer: 1 to 5 dimensions, one coordinate per dimension, an
/// nvmma_shared layout contiguous along the last dimension. (Its
/// power-of-two dimensions are then whole numbers of boxes, and a chunk,
/// at least 16 elements wide, is a multiple of 16 bytes, as TMA needs.)
static LogicalResult verifyBox(Operation *op, size_t numCoords,
                               MemDescType buffer) {
  ArrayRef<int64_t> shape = buffer.getShape();
  if (shape.empty() || shape.size() > 5)
    return op->emitOpError("a TMA box has 1 to 5 dimensions, got ") << buffer;
  // A tensor map of higher rank moves the buffer as a box whose leading
  // extra dimensions have extent 1 (one head of a (Z, H, N, D) tensor):
  // one coordinate per tensor dimension, the buffer's dimensions last.
  if (numCoords < shape.size() || numCoords > 5)
    return op->emitOpError("needs ")
           << shape.size()
           << " to 5 coordinates (one per tensor dimension, the buffer's "
              "last), got "
           << numCoords;
  SmallVector<int64_t> box = getTmaBoxShape(buffer);
  if (box.empty())
    return op->emitOpError("a TMA buffer needs an nvmma_shared layout "
                           "contiguous along its last dimension, got ")
           << buffer;
  return success();
}

LogicalResult InitBarrierOp::verify() {
  return verifyBarrier(*this, getBarrier().getType());
}

LogicalResult BarrierExpectOp::verify() {
  return verifyBarrier(*this, getBarrier().getType());
}

LogicalResult ArriveBarrierOp::verify() {
  return verifyBarrier(*this, getBarrier().getType());
}

LogicalResult WaitBarrierOp::verify() {
  return verifyBarrier(*this, getBarrier().getType());
}

LogicalResult InvalBarrierOp::verify() {
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
