//===- TkOps.cpp - tk operation verifiers and folders ---------------------===//
#include "dialects/tk/TkDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tk;

#define GET_OP_CLASSES
#include "dialects/tk/TkOps.cpp.inc"

namespace {

ArrayRef<int64_t> shapeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getShape();
  return {};
}

bool isTensor(Type type) { return isa<RankedTensorType>(type); }

/// Two types have the same shape: both scalars, or tensors of equal shape.
bool sameShape(Type a, Type b) {
  return isTensor(a) == isTensor(b) && shapeOf(a) == shapeOf(b);
}

/// A tk tensor shape is static and made of powers of two.
LogicalResult verifyBlockShape(Operation *op, Type type) {
  for (int64_t dim : shapeOf(type))
    if (dim <= 0 || !llvm::isPowerOf2_64(dim))
      return op->emitOpError("block dimensions must be positive powers of "
                             "two, got ")
             << type;
  return success();
}

/// The mask of a memory op has the pointer's shape.
LogicalResult verifyMask(Operation *op, Type ptrType, Value mask) {
  if (mask && !sameShape(ptrType, mask.getType()))
    return op->emitOpError("mask type ")
           << mask.getType() << " does not match the shape of pointer type "
           << ptrType;
  return success();
}

} // namespace

LogicalResult MakeRangeOp::verify() {
  auto type = getType();
  int64_t start = getStart(), end = getEnd();
  if (type.getRank() != 1)
    return emitOpError("result must be a 1-D tensor");
  if (end <= start)
    return emitOpError("end (") << end << ") must be greater than start ("
                                << start << ")";
  if (type.getDimSize(0) != end - start)
    return emitOpError("result has ")
           << type.getDimSize(0) << " elements but the range has "
           << end - start;
  return verifyBlockShape(*this, type);
}

LogicalResult SplatOp::verify() {
  if (getType().getElementType() != getSrc().getType())
    return emitOpError("result element type ")
           << getType().getElementType() << " differs from the scalar type "
           << getSrc().getType();
  return verifyBlockShape(*this, getType());
}

LogicalResult BroadcastOp::verify() {
  auto src = getSrc().getType(), dst = getType();
  if (src.getElementType() != dst.getElementType())
    return emitOpError("element types differ: ") << src << " vs " << dst;
  if (src.getRank() != dst.getRank())
    return emitOpError("source rank ")
           << src.getRank() << " differs from result rank " << dst.getRank();
  for (auto [i, from, to] : llvm::enumerate(src.getShape(), dst.getShape()))
    if (from != to && from != 1)
      return emitOpError("dimension ")
             << i << " of size " << from << " cannot broadcast to " << to;
  return verifyBlockShape(*this, dst);
}

OpFoldResult BroadcastOp::fold(FoldAdaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  return {};
}

LogicalResult ExpandDimsOp::verify() {
  auto src = getSrc().getType(), dst = getType();
  int64_t axis = getAxis();
  if (axis < 0 || axis > src.getRank())
    return emitOpError("axis ") << axis << " is out of range for rank "
                                << src.getRank();
  SmallVector<int64_t> expected(src.getShape());
  expected.insert(expected.begin() + axis, 1);
  if (dst.getShape() != ArrayRef<int64_t>(expected) ||
      src.getElementType() != dst.getElementType())
    return emitOpError("result type ")
           << dst << " is not " << src << " with a unit dimension at "
           << axis;
  return success();
}

LogicalResult ReshapeOp::verify() {
  auto src = getSrc().getType(), dst = getType();
  if (src.getElementType() != dst.getElementType())
    return emitOpError("element types differ: ") << src << " vs " << dst;
  if (src.getNumElements() != dst.getNumElements())
    return emitOpError("cannot reshape ")
           << src.getNumElements() << " elements into " << dst;
  return verifyBlockShape(*this, dst);
}

OpFoldResult ReshapeOp::fold(FoldAdaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  return {};
}

LogicalResult TransOp::verify() {
  auto src = getSrc().getType(), dst = getType();
  ArrayRef<int32_t> order = getOrder();
  if ((int64_t)order.size() != src.getRank())
    return emitOpError("order has ")
           << order.size() << " entries for a rank-" << src.getRank()
           << " tensor";
  llvm::SmallSet<int32_t, 4> seen;
  for (int32_t d : order)
    if (d < 0 || d >= src.getRank() || !seen.insert(d).second)
      return emitOpError("order is not a permutation of the dimensions");
  if (src.getElementType() != dst.getElementType() ||
      dst.getRank() != src.getRank())
    return emitOpError("result type ") << dst << " does not match source";
  for (auto [i, d] : llvm::enumerate(order))
    if (dst.getDimSize(i) != src.getDimSize(d))
      return emitOpError("result dimension ")
             << i << " must be source dimension " << d;
  return success();
}

void LoadOp::build(OpBuilder &builder, OperationState &state, Value ptr,
                   Value mask, Value other) {
  build(builder, state, getPointeeType(ptr.getType()), ptr, mask, other,
        /*isVolatile=*/false);
}

void LoadOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getPtrMutable(),
                       SideEffects::DefaultResource::get());
  if (getIsVolatile())
    effects.emplace_back(MemoryEffects::Write::get(),
                         SideEffects::DefaultResource::get());
}

LogicalResult AddPtrOp::verify() {
  if (getType() != getPtr().getType())
    return emitOpError("result type must equal the pointer type");
  if (!sameShape(getPtr().getType(), getOffset().getType()))
    return emitOpError("offset type ")
           << getOffset().getType() << " does not match the shape of "
           << getPtr().getType();
  return success();
}

OpFoldResult AddPtrOp::fold(FoldAdaptor adaptor) {
  // ptr + 0 is ptr.
  if (matchPattern(getOffset(), m_Zero()))
    return getPtr();
  return {};
}

LogicalResult LoadOp::verify() {
  Type expected = getPointeeType(getPtr().getType());
  if (getType() != expected)
    return emitOpError("result type ")
           << getType() << " must be the pointee type " << expected;
  if (getOther() && getOther().getType() != getType())
    return emitOpError("'other' type ")
           << getOther().getType() << " must equal the result type "
           << getType();
  return verifyMask(*this, getPtr().getType(), getMask());
}

LogicalResult StoreOp::verify() {
  Type expected = getPointeeType(getPtr().getType());
  if (getValue().getType() != expected)
    return emitOpError("stored value type ")
           << getValue().getType() << " must be the pointee type "
           << expected;
  return verifyMask(*this, getPtr().getType(), getMask());
}

LogicalResult AtomicRMWOp::verify() {
  Type expected = getPointeeType(getPtr().getType());
  if (getValue().getType() != expected || getType() != expected)
    return emitOpError("value and result types must be the pointee type ")
           << expected;
  Type elt = getElementTypeOrSelf(expected);
  switch (getKind()) {
  case AtomicKind::Add:
  case AtomicKind::Xchg:
  case AtomicKind::Max:
  case AtomicKind::Min:
    // bf16 only adds (sm_90's atom.add.noftz.bf16).
    if (!elt.isIntOrFloat() || elt.isInteger(1) || elt.isInteger(8) ||
        elt.isInteger(16) ||
        (elt.isBF16() && getKind() != AtomicKind::Add))
      return emitOpError("atomic ")
             << stringifyAtomicKind(getKind()) << " does not support " << elt;
    break;
  default:
    if (!elt.isInteger(32) && !elt.isInteger(64))
      return emitOpError("atomic ")
             << stringifyAtomicKind(getKind())
             << " needs 32- or 64-bit integers, got " << elt;
  }
  return verifyMask(*this, getPtr().getType(), getMask());
}

LogicalResult AtomicCASOp::verify() {
  Type expected = getPointeeType(getPtr().getType());
  if (getCmp().getType() != expected || getValue().getType() != expected ||
      getType() != expected)
    return emitOpError("compare, value and result types must be the pointee "
                       "type ")
           << expected;
  unsigned width = getElementTypeOrSelf(expected).getIntOrFloatBitWidth();
  if (width != 16 && width != 32 && width != 64)
    return emitOpError("atomic_cas needs 16-, 32- or 64-bit elements");
  return success();
}

LogicalResult IntToPtrOp::verify() {
  if (!sameShape(getSrc().getType(), getType()))
    return emitOpError("source and result shapes differ");
  return success();
}

LogicalResult PtrToIntOp::verify() {
  if (!sameShape(getSrc().getType(), getType()))
    return emitOpError("source and result shapes differ");
  return success();
}

LogicalResult BitcastOp::verify() {
  Type from = getElementTypeOrSelf(getSrc().getType());
  Type to = getElementTypeOrSelf(getType());
  if (!sameShape(getSrc().getType(), getType()))
    return emitOpError("source and result shapes differ");
  if (isa<PtrType>(from) != isa<PtrType>(to))
    return emitOpError("cannot bitcast between pointers and numbers; use "
                       "int_to_ptr or ptr_to_int");
  if (!isa<PtrType>(from) &&
      from.getIntOrFloatBitWidth() != to.getIntOrFloatBitWidth())
    return emitOpError("bit widths differ: ") << from << " vs " << to;
  return success();
}

LogicalResult ExternElementwiseOp::verify() {
  if (getSymbol().empty())
    return emitOpError("needs a function symbol");
  if (getSrcs().empty())
    return emitOpError("needs at least one operand");
  for (Type type : getOperandTypes())
    if (isa<PtrType>(getElementTypeOrSelf(type)))
      return emitOpError("operands must be numbers, not pointers");
  if (isa<PtrType>(getElementTypeOrSelf(getType())))
    return emitOpError("the result must be a number, not a pointer");
  return success();
}

LogicalResult DotOp::verify() {
  auto a = getA().getType(), b = getB().getType(), c = getC().getType();
  auto d = getD().getType();
  if (a.getRank() != 2 || b.getRank() != 2 || c.getRank() != 2)
    return emitOpError("operands must be 2-D");
  if (a.getDimSize(1) != b.getDimSize(0))
    return emitOpError("inner dimensions differ: ")
           << a << " * " << b;
  if (c.getDimSize(0) != a.getDimSize(0) || c.getDimSize(1) != b.getDimSize(1))
    return emitOpError("accumulator shape ")
           << c << " must be " << a.getDimSize(0) << "x" << b.getDimSize(1);
  if (c != d)
    return emitOpError("result type must equal the accumulator type");
  Type ea = a.getElementType(), eb = b.getElementType(),
       ec = c.getElementType();
  if (ea != eb)
    return emitOpError("operand element types differ: ")
           << ea << " vs " << eb;
  bool ok = false;
  if (ea.isF16())
    ok = ec.isF32() || ec.isF16();
  else if (ea.isBF16() || ea.isF32())
    ok = ec.isF32();
  else if (ea.isF64())
    ok = ec.isF64();
  else if (ea.isInteger(8))
    ok = ec.isInteger(32);
  if (!ok)
    return emitOpError("unsupported dot: ")
           << ea << " inputs with an " << ec << " accumulator";
  return success();
}

/// The shape reducing `type` along `axis` leaves.
static SmallVector<int64_t> reducedShape(RankedTensorType type,
                                         int64_t axis) {
  SmallVector<int64_t> shape(type.getShape());
  shape.erase(shape.begin() + axis);
  return shape;
}

/// Checks the operands of a reduce or scan: an axis in range, tensors of
/// one shape, no pointers, and exactly one for a named kind.
static LogicalResult verifyCombineOperands(Operation *op, ValueRange srcs,
                                           int64_t axis, bool isCombine,
                                           const char *verb) {
  if (srcs.empty())
    return op->emitOpError("needs at least one operand");
  if (!isCombine && srcs.size() != 1)
    return op->emitOpError("a named kind takes one operand, got ")
           << srcs.size() << "; use `combine` with a region";
  auto first = cast<RankedTensorType>(srcs[0].getType());
  if (axis < 0 || axis >= first.getRank())
    return op->emitOpError("axis ") << axis << " is out of range for rank "
                                    << first.getRank();
  for (Value src : srcs) {
    auto type = cast<RankedTensorType>(src.getType());
    if (type.getShape() != first.getShape())
      return op->emitOpError("operand shapes differ: ")
             << first << " vs " << type;
    if (isa<PtrType>(type.getElementType()))
      return op->emitOpError("cannot ") << verb << " pointers";
  }
  return success();
}

/// A named kind has no region; `combine` has one block taking the
/// operands' element types twice and returning them once.
static LogicalResult verifyCombiner(Operation *op, Region &combiner,
                                    ValueRange srcs, bool isCombine) {
  if (!isCombine) {
    if (!combiner.empty())
      return op->emitOpError("only the `combine` kind has a region");
    return success();
  }
  if (!combiner.hasOneBlock())
    return op->emitOpError("`combine` needs a region of one block");
  SmallVector<Type> elementTypes;
  for (Value src : srcs)
    elementTypes.push_back(getElementTypeOrSelf(src.getType()));
  Block &block = combiner.front();
  SmallVector<Type> expected(elementTypes);
  expected.append(elementTypes);
  if (TypeRange(block.getArgumentTypes()) != TypeRange(expected))
    return op->emitOpError("combiner arguments must be the element types "
                           "twice (")
           << expected.size() << " scalars), got "
           << block.getNumArguments();
  // The op is Pure: so must its combiner be.
  for (Operation &inner : block)
    if (!isMemoryEffectFree(&inner))
      return op->emitOpError("the combiner must not have side effects, but "
                             "contains '")
             << inner.getName() << "'";
  auto ret = dyn_cast<CombineReturnOp>(block.getTerminator());
  if (!ret)
    return op->emitOpError("combiner must end in tk.combine_return");
  if (TypeRange(ret.getValues().getTypes()) != TypeRange(elementTypes))
    return ret.emitOpError("must return the operands' element types");
  return success();
}

LogicalResult ReduceOp::verify() {
  bool isCombine = getKind() == ReduceKind::Combine;
  if (failed(verifyCombineOperands(*this, getSrcs(), getAxis(), isCombine,
                                   "reduce")))
    return failure();
  if (getResults().size() != getSrcs().size())
    return emitOpError("has ") << getSrcs().size() << " operands but "
                               << getResults().size() << " results";
  int64_t axis = getAxis();
  ReduceKind kind = getKind();
  bool isArg = kind == ReduceKind::ArgMax || kind == ReduceKind::ArgMin;
  bool isBitwise = kind == ReduceKind::And || kind == ReduceKind::Or ||
                   kind == ReduceKind::Xor || kind == ReduceKind::UMax ||
                   kind == ReduceKind::UMin;
  for (auto [src, result] : llvm::zip(getSrcs(), getResults())) {
    auto srcType = cast<RankedTensorType>(src.getType());
    Type elt = srcType.getElementType();
    if (isBitwise && !elt.isInteger())
      return emitOpError("reduction ")
             << stringifyReduceKind(kind) << " needs integers, got " << elt;
    Type resultElt = isArg ? IntegerType::get(getContext(), 32) : elt;
    SmallVector<int64_t> shape = reducedShape(srcType, axis);
    // Compare shape and element type only: after layout assignment the
    // result carries a slice encoding of the source's.
    Type type = result.getType();
    if (getElementTypeOrSelf(type) != resultElt ||
        shapeOf(type) != ArrayRef<int64_t>(shape) ||
        isTensor(type) == shape.empty())
      return emitOpError("result type ")
             << type << " must have shape [" << shape
             << "] and element type " << resultElt;
  }
  return success();
}

LogicalResult ReduceOp::verifyRegions() {
  return verifyCombiner(*this, getCombiner(), getSrcs(),
                        getKind() == ReduceKind::Combine);
}

LogicalResult ScanOp::verify() {
  if (failed(verifyCombineOperands(*this, getSrcs(), getAxis(),
                                   getKind() == ScanKind::Combine, "scan")))
    return failure();
  if (getResults().size() != getSrcs().size())
    return emitOpError("has ") << getSrcs().size() << " operands but "
                               << getResults().size() << " results";
  for (auto [src, result] : llvm::zip(getSrcs(), getResults()))
    if (result.getType() != src.getType())
      return emitOpError("result type must equal the source type");
  return success();
}

LogicalResult ScanOp::verifyRegions() {
  return verifyCombiner(*this, getCombiner(), getSrcs(),
                        getKind() == ScanKind::Combine);
}

LogicalResult HintOp::verify() {
  size_t rank = std::max<size_t>(1, shapeOf(getSrc().getType()).size());
  for (auto attr : {getDivisibilityAttr(), getContiguityAttr(),
                    getConstancyAttr()}) {
    if (!attr)
      continue;
    if (attr.size() != (int64_t)rank)
      return emitOpError("hint needs ") << rank << " entries, got "
                                        << attr.size();
    for (int32_t v : attr.asArrayRef())
      if (v <= 0 || !llvm::isPowerOf2_32(v))
        return emitOpError("hint values must be positive powers of two");
  }
  return success();
}
