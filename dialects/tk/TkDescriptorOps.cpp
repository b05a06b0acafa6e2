//===- TkDescriptorOps.cpp - tensor descriptor op verifiers ---------------===//
#include "dialects/tk/TkDescriptorOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tk;

#define GET_OP_CLASSES
#include "dialects/tk/TkDescriptorOps.cpp.inc"

/// One shape, stride and index per dimension of the block (1 to 5), whose
/// elements are what `base` points to; the block's dimensions are powers of
/// two (any layout encoding).
static LogicalResult verifyAccess(Operation *op, PtrType base,
                                  size_t numShape, size_t numStrides,
                                  size_t numIndices, Type block) {
  auto tensor = cast<RankedTensorType>(block);
  int64_t rank = tensor.getRank();
  if (rank < 1 || rank > 5)
    return op->emitOpError("blocks have 1 to 5 dimensions, got ") << block;
  if (numShape != size_t(rank) || numStrides != size_t(rank) ||
      numIndices != size_t(rank))
    return op->emitOpError("needs ")
           << rank << " shape, stride and index operands (one per "
           << "dimension), got " << numShape << ", " << numStrides << " and "
           << numIndices;
  if (base.getPointeeType() != tensor.getElementType())
    return op->emitOpError("base points to ")
           << base.getPointeeType() << " but the block holds "
           << tensor.getElementType();
  for (int64_t dim : tensor.getShape())
    if (dim <= 0 || !llvm::isPowerOf2_64(dim))
      return op->emitOpError("block dimensions must be positive powers of "
                             "two, got ")
             << block;
  return success();
}

LogicalResult DescriptorLoadOp::verify() {
  return verifyAccess(*this, getBase().getType(), getShape().size(),
                      getStrides().size(), getIndices().size(), getType());
}

LogicalResult DescriptorStoreOp::verify() {
  return verifyAccess(*this, getBase().getType(), getShape().size(),
                      getStrides().size(), getIndices().size(),
                      getValue().getType());
}
