//===- TkgpuAttrs.cpp - layout encodings and the memdesc type -------------===//
#include "dialects/tkgpu/TkgpuDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::tkgpu;

#include "dialects/tkgpu/TkgpuInterfaces.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/tkgpu/TkgpuAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/tkgpu/TkgpuTypes.cpp.inc"

void TkgpuDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/tkgpu/TkgpuAttrs.cpp.inc"
      >();
}

void TkgpuDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialects/tkgpu/TkgpuTypes.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Parsing helpers: encodings print as `<{key = value, ...}>`
//===----------------------------------------------------------------------===//

namespace {

/// Parses `<{...}>` into a dictionary.
DictionaryAttr parseDictBody(AsmParser &parser) {
  DictionaryAttr dict;
  if (parser.parseLess() || parser.parseAttribute(dict) ||
      parser.parseGreater())
    return {};
  return dict;
}

/// Reads an array of non-negative integers `key`; reports a missing or
/// malformed entry.
LogicalResult readUnsignedArray(AsmParser &parser, DictionaryAttr dict,
                                StringRef key,
                                SmallVectorImpl<unsigned> &values) {
  auto array = dyn_cast_or_null<ArrayAttr>(dict.get(key));
  if (!array)
    return parser.emitError(parser.getNameLoc())
           << "expected '" << key << "' to be an array of integers";
  for (Attribute element : array) {
    auto integer = dyn_cast<IntegerAttr>(element);
    if (!integer || integer.getInt() < 0)
      return parser.emitError(parser.getNameLoc())
             << "expected '" << key << "' to hold non-negative integers";
    values.push_back(integer.getInt());
  }
  return success();
}

LogicalResult readUnsigned(AsmParser &parser, DictionaryAttr dict,
                           StringRef key, unsigned &value) {
  auto integer = dyn_cast_or_null<IntegerAttr>(dict.get(key));
  if (!integer || integer.getInt() < 0)
    return parser.emitError(parser.getNameLoc())
           << "expected '" << key << "' to be a non-negative integer";
  value = integer.getInt();
  return success();
}

LogicalResult checkKeys(AsmParser &parser, DictionaryAttr dict,
                        ArrayRef<StringRef> allowed) {
  for (NamedAttribute entry : dict)
    if (!llvm::is_contained(allowed, entry.getName().getValue()))
      return parser.emitError(parser.getNameLoc())
             << "unknown key '" << entry.getName().getValue() << "'";
  return success();
}

void printArray(AsmPrinter &printer, ArrayRef<unsigned> values) {
  printer << "[";
  llvm::interleaveComma(values, printer);
  printer << "]";
}

/// Every entry is a power of two (and so positive).
bool allPowersOf2(ArrayRef<unsigned> values) {
  return llvm::all_of(values, [](unsigned v) { return llvm::isPowerOf2_32(v); });
}

bool isPermutation(ArrayRef<unsigned> order) {
  llvm::SmallSet<unsigned, 4> seen;
  for (unsigned d : order)
    if (d >= order.size() || !seen.insert(d).second)
      return false;
  return true;
}

unsigned product(ArrayRef<unsigned> values) {
  unsigned result = 1;
  for (unsigned v : values)
    result *= v;
  return result;
}

std::vector<unsigned> toStd(ArrayRef<unsigned> values) {
  return std::vector<unsigned>(values.begin(), values.end());
}

/// Tensor encodings need static power-of-two dimensions of their rank.
LogicalResult verifyTensorShape(ArrayRef<int64_t> shape, unsigned rank,
                                Attribute encoding,
                                function_ref<InFlightDiagnostic()> emitError) {
  if (shape.size() != rank)
    return emitError() << "rank-" << shape.size()
                       << " tensor cannot have the rank-" << rank
                       << " layout " << encoding;
  for (int64_t dim : shape)
    if (dim <= 0 || !llvm::isPowerOf2_64(dim))
      return emitError() << "tensors with a layout need power-of-two "
                            "dimensions, got "
                         << dim;
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// BlockedEncodingAttr
//===----------------------------------------------------------------------===//

Attribute BlockedEncodingAttr::parse(AsmParser &parser, Type) {
  DictionaryAttr dict = parseDictBody(parser);
  if (!dict)
    return {};
  SmallVector<unsigned> sizePerThread, threadsPerWarp, warpsPerCTA, order;
  if (failed(checkKeys(parser, dict,
                       {"sizePerThread", "threadsPerWarp", "warpsPerCTA",
                        "order"})) ||
      failed(readUnsignedArray(parser, dict, "sizePerThread", sizePerThread)) ||
      failed(readUnsignedArray(parser, dict, "threadsPerWarp",
                               threadsPerWarp)) ||
      failed(readUnsignedArray(parser, dict, "warpsPerCTA", warpsPerCTA)) ||
      failed(readUnsignedArray(parser, dict, "order", order)))
    return {};
  return parser.getChecked<BlockedEncodingAttr>(
      parser.getContext(), sizePerThread, threadsPerWarp, warpsPerCTA, order);
}

void BlockedEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{sizePerThread = ";
  printArray(printer, getSizePerThread());
  printer << ", threadsPerWarp = ";
  printArray(printer, getThreadsPerWarp());
  printer << ", warpsPerCTA = ";
  printArray(printer, getWarpsPerCTA());
  printer << ", order = ";
  printArray(printer, getOrder());
  printer << "}>";
}

LogicalResult
BlockedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                            ArrayRef<unsigned> sizePerThread,
                            ArrayRef<unsigned> threadsPerWarp,
                            ArrayRef<unsigned> warpsPerCTA,
                            ArrayRef<unsigned> order) {
  size_t rank = sizePerThread.size();
  if (rank == 0)
    return emitError() << "blocked layout needs at least one dimension";
  if (threadsPerWarp.size() != rank || warpsPerCTA.size() != rank ||
      order.size() != rank)
    return emitError() << "blocked layout: sizePerThread, threadsPerWarp, "
                          "warpsPerCTA and order must have the same rank";
  if (!allPowersOf2(sizePerThread) || !allPowersOf2(threadsPerWarp) ||
      !allPowersOf2(warpsPerCTA))
    return emitError() << "blocked layout: sizes must be powers of two";
  if (!isPermutation(order))
    return emitError() << "blocked layout: order must be a permutation of "
                          "the dimensions";
  return success();
}

LogicalResult BlockedEncodingAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type,
    function_ref<InFlightDiagnostic()> emitError) const {
  return verifyTensorShape(shape, getRank(), *this, emitError);
}

unsigned BlockedEncodingAttr::getRank() const {
  return getSizePerThread().size();
}

bool BlockedEncodingAttr::isDistributed() const { return true; }

SmallVector<unsigned> BlockedEncodingAttr::getLayoutOrder() const {
  return SmallVector<unsigned>(getOrder());
}

unsigned BlockedEncodingAttr::getNumWarps() const {
  return product(getWarpsPerCTA());
}

unsigned BlockedEncodingAttr::getNumThreadsPerWarp() const {
  return product(getThreadsPerWarp());
}

SmallVector<int64_t> BlockedEncodingAttr::getShapePerCTATile() const {
  SmallVector<int64_t> shape;
  for (unsigned d = 0; d < getRank(); ++d)
    shape.push_back(int64_t(getSizePerThread()[d]) * getThreadsPerWarp()[d] *
                    getWarpsPerCTA()[d]);
  return shape;
}

LinearLayout BlockedEncodingAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  // One CTA tile: registers are the sizePerThread block, then lanes tile the
  // blocks, then warps tile the warp tiles; within each level, dimensions
  // are numbered in `order` (fastest first).
  ArrayRef<unsigned> order = getOrder();
  LinearLayout tile;
  for (unsigned d : order)
    tile *= LinearLayout::identity1D(getSizePerThread()[d], kRegister,
                                     outDimName(d));
  for (unsigned d : order)
    tile *= LinearLayout::identity1D(getThreadsPerWarp()[d], kLane,
                                     outDimName(d));
  for (unsigned d : order)
    tile *= LinearLayout::identity1D(getWarpsPerCTA()[d], kWarp,
                                     outDimName(d));
  tile = tile.transposeOuts(standardOutDimNames(getRank()));
  return fitToShape(tile, std::vector<int64_t>(shape.begin(), shape.end()),
                    toStd(order));
}

int64_t
BlockedEncodingAttr::getTotalElemsPerThread(ArrayRef<int64_t> shape) const {
  return toLinearLayout(shape).getInDimSize(kRegister);
}

//===----------------------------------------------------------------------===//
// SliceEncodingAttr
//===----------------------------------------------------------------------===//

Attribute SliceEncodingAttr::parse(AsmParser &parser, Type) {
  DictionaryAttr dict = parseDictBody(parser);
  if (!dict)
    return {};
  unsigned dim;
  if (failed(checkKeys(parser, dict, {"dim", "parent"})) ||
      failed(readUnsigned(parser, dict, "dim", dim)))
    return {};
  auto parent = dyn_cast_or_null<LayoutEncodingAttrInterface>(dict.get("parent"));
  if (!parent) {
    parser.emitError(parser.getNameLoc())
        << "expected 'parent' to be a layout encoding";
    return {};
  }
  return parser.getChecked<SliceEncodingAttr>(parser.getContext(), dim,
                                              parent);
}

void SliceEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{dim = " << getDim() << ", parent = " << getParent() << "}>";
}

LogicalResult
SliceEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          unsigned dim, LayoutEncodingAttrInterface parent) {
  if (!parent || !parent.isDistributed())
    return emitError() << "slice layout needs a distributed parent layout";
  if (dim >= parent.getRank())
    return emitError() << "slice dim " << dim
                       << " is out of range for a rank-" << parent.getRank()
                       << " parent";
  return success();
}

LogicalResult SliceEncodingAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type,
    function_ref<InFlightDiagnostic()> emitError) const {
  return verifyTensorShape(shape, getRank(), *this, emitError);
}

unsigned SliceEncodingAttr::getRank() const {
  return getParent().getRank() - 1;
}

bool SliceEncodingAttr::isDistributed() const { return true; }

SmallVector<unsigned> SliceEncodingAttr::getLayoutOrder() const {
  SmallVector<unsigned> order;
  for (unsigned d : getParent().getLayoutOrder())
    if (d != getDim())
      order.push_back(d > getDim() ? d - 1 : d);
  return order;
}

SmallVector<int64_t>
SliceEncodingAttr::getParentShape(ArrayRef<int64_t> shape) const {
  SmallVector<int64_t> parentShape(shape);
  parentShape.insert(parentShape.begin() + getDim(), 1);
  return parentShape;
}

LinearLayout SliceEncodingAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  // The parent on the shape with a unit dimension at `dim`: its lanes and
  // warps along `dim` broadcast and its registers along `dim` disappear.
  // Dropping that output dimension leaves the slice.
  LinearLayout parent = getParent().toLinearLayout(getParentShape(shape));
  LinearLayout sliced = parent.removeOutDim(outDimName(getDim()));
  std::vector<LinearLayout::OutDim> outs;
  for (unsigned d = 0; d < shape.size(); ++d)
    outs.push_back({outDimName(d), int32_t(shape[d])});
  return LinearLayout(sliced.getInDims(), outs);
}

int64_t
SliceEncodingAttr::getTotalElemsPerThread(ArrayRef<int64_t> shape) const {
  return toLinearLayout(shape).getInDimSize(kRegister);
}

//===----------------------------------------------------------------------===//
// SharedEncodingAttr
//===----------------------------------------------------------------------===//

Attribute SharedEncodingAttr::parse(AsmParser &parser, Type) {
  DictionaryAttr dict = parseDictBody(parser);
  if (!dict)
    return {};
  unsigned vec, perPhase, maxPhase;
  SmallVector<unsigned> order;
  if (failed(checkKeys(parser, dict, {"vec", "perPhase", "maxPhase", "order"})) ||
      failed(readUnsigned(parser, dict, "vec", vec)) ||
      failed(readUnsigned(parser, dict, "perPhase", perPhase)) ||
      failed(readUnsigned(parser, dict, "maxPhase", maxPhase)) ||
      failed(readUnsignedArray(parser, dict, "order", order)))
    return {};
  return parser.getChecked<SharedEncodingAttr>(parser.getContext(), vec,
                                               perPhase, maxPhase, order);
}

void SharedEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{vec = " << getVec() << ", perPhase = " << getPerPhase()
          << ", maxPhase = " << getMaxPhase() << ", order = ";
  printArray(printer, getOrder());
  printer << "}>";
}

LogicalResult
SharedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                           unsigned vec, unsigned perPhase, unsigned maxPhase,
                           ArrayRef<unsigned> order) {
  if (!allPowersOf2({vec, perPhase, maxPhase}))
    return emitError() << "shared layout: vec, perPhase and maxPhase must be "
                          "powers of two";
  if (order.empty() || !isPermutation(order))
    return emitError() << "shared layout: order must be a permutation of the "
                          "dimensions";
  return success();
}

LogicalResult SharedEncodingAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type,
    function_ref<InFlightDiagnostic()> emitError) const {
  return verifyTensorShape(shape, getRank(), *this, emitError);
}

unsigned SharedEncodingAttr::getRank() const { return getOrder().size(); }

bool SharedEncodingAttr::isDistributed() const { return false; }

SmallVector<unsigned> SharedEncodingAttr::getLayoutOrder() const {
  return SmallVector<unsigned>(getOrder());
}

LinearLayout SharedEncodingAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  // Offsets enumerate order[0] fastest, then order[1], ...; the column
  // (order[0]) of row r is XORed with ((r / perPhase) % maxPhase) * vec.
  ArrayRef<unsigned> order = getOrder();
  unsigned rank = order.size();
  std::vector<LinearLayout::OutDim> outs;
  for (unsigned d = 0; d < rank; ++d)
    outs.push_back({outDimName(d), int32_t(shape[d])});
  LinearLayout::InDim offset{kOffset, {}};
  unsigned col = order[0];
  for (unsigned k = 0; k < rank; ++k) {
    unsigned d = order[k];
    for (int32_t bit = 0; (int64_t(1) << bit) < shape[d]; ++bit) {
      LinearLayout::Basis basis(rank, 0);
      basis[d] = int32_t(1) << bit;
      if (k == 1) {
        int64_t phase = ((int64_t(1) << bit) / getPerPhase()) % getMaxPhase();
        basis[col] = int32_t((phase * getVec()) & (shape[col] - 1));
      }
      offset.bases.push_back(basis);
    }
  }
  return LinearLayout({offset}, outs);
}

int64_t
SharedEncodingAttr::getTotalElemsPerThread(ArrayRef<int64_t>) const {
  return 0;
}

//===----------------------------------------------------------------------===//
// NvmmaSharedEncodingAttr
//===----------------------------------------------------------------------===//

Attribute NvmmaSharedEncodingAttr::parse(AsmParser &parser, Type) {
  DictionaryAttr dict = parseDictBody(parser);
  if (!dict)
    return {};
  unsigned swizzle, elementBitWidth;
  SmallVector<unsigned> order;
  if (failed(checkKeys(parser, dict, {"swizzle", "elementBitWidth", "order"})) ||
      failed(readUnsigned(parser, dict, "swizzle", swizzle)) ||
      failed(readUnsigned(parser, dict, "elementBitWidth", elementBitWidth)) ||
      failed(readUnsignedArray(parser, dict, "order", order)))
    return {};
  return parser.getChecked<NvmmaSharedEncodingAttr>(
      parser.getContext(), swizzle, elementBitWidth, order);
}

void NvmmaSharedEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{swizzle = " << getSwizzle()
          << ", elementBitWidth = " << getElementBitWidth() << ", order = ";
  printArray(printer, getOrder());
  printer << "}>";
}

LogicalResult NvmmaSharedEncodingAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, unsigned swizzle,
    unsigned elementBitWidth, ArrayRef<unsigned> order) {
  if (swizzle != 32 && swizzle != 64 && swizzle != 128)
    return emitError() << "nvmma_shared layout: swizzle must be 32, 64 or 128 "
                          "bytes";
  if (elementBitWidth != 8 && elementBitWidth != 16 && elementBitWidth != 32)
    return emitError() << "nvmma_shared layout: elementBitWidth must be 8, 16 "
                          "or 32";
  if (order.size() < 2 || !isPermutation(order))
    return emitError() << "nvmma_shared layout: order must be a permutation "
                          "of at least two dimensions";
  return success();
}

LogicalResult NvmmaSharedEncodingAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type,
    function_ref<InFlightDiagnostic()> emitError) const {
  return verifyTensorShape(shape, getRank(), *this, emitError);
}

unsigned NvmmaSharedEncodingAttr::getRank() const { return getOrder().size(); }

bool NvmmaSharedEncodingAttr::isDistributed() const { return false; }

SmallVector<unsigned> NvmmaSharedEncodingAttr::getLayoutOrder() const {
  return SmallVector<unsigned>(getOrder());
}

LinearLayout
NvmmaSharedEncodingAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  // Offsets: the elements of one swizzle-byte row (order[0]), then the rows
  // (order[1]), whose low bits XOR the 16-byte piece index, then the
  // chunks of order[0], then the slower dimensions.
  ArrayRef<unsigned> order = getOrder();
  unsigned rank = order.size();
  std::vector<LinearLayout::OutDim> outs;
  for (unsigned d = 0; d < rank; ++d)
    outs.push_back({outDimName(d), int32_t(shape[d])});
  unsigned col = order[0], row = order[1];
  int64_t chunk = std::min<int64_t>(getChunkElements(), shape[col]);
  int64_t vec = 128 / getElementBitWidth();
  int64_t perPhase = 128 / getSwizzle(), maxPhase = getSwizzle() / 16;
  LinearLayout::InDim offset{kOffset, {}};
  auto push = [&](unsigned d, int32_t value, int32_t colXor) {
    LinearLayout::Basis basis(rank, 0);
    basis[d] = value;
    if (colXor)
      basis[col] = colXor;
    offset.bases.push_back(basis);
  };
  for (int64_t v = 1; v < chunk; v *= 2)
    push(col, int32_t(v), 0);
  for (int64_t v = 1; v < shape[row]; v *= 2) {
    int64_t phase = (v / perPhase) % maxPhase;
    push(row, int32_t(v), int32_t((phase * vec) & (chunk - 1)));
  }
  for (int64_t v = chunk; v < shape[col]; v *= 2)
    push(col, int32_t(v), 0);
  for (unsigned k = 2; k < rank; ++k)
    for (int64_t v = 1; v < shape[order[k]]; v *= 2)
      push(order[k], int32_t(v), 0);
  return LinearLayout({offset}, outs);
}

int64_t
NvmmaSharedEncodingAttr::getTotalElemsPerThread(ArrayRef<int64_t>) const {
  return 0;
}

//===----------------------------------------------------------------------===//
// Multi-buffers
//===----------------------------------------------------------------------===//

namespace {

/// `order` with every dimension shifted by `shift` (+1 or -1), and the new
/// leading dimension appended (when adding) or dropped (when removing).
SmallVector<unsigned> shiftOrder(ArrayRef<unsigned> order, bool add) {
  SmallVector<unsigned> result;
  for (unsigned d : order) {
    if (!add && d == 0)
      continue;
    result.push_back(add ? d + 1 : d - 1);
  }
  if (add)
    result.push_back(0);
  return result;
}

/// The order of a #tkgpu.shared or #tkgpu.nvmma_shared layout; empty for
/// any other.
SmallVector<unsigned> getSharedOrder(Attribute layout) {
  if (auto shared = dyn_cast<SharedEncodingAttr>(layout))
    return SmallVector<unsigned>(shared.getOrder());
  if (auto nvmma = dyn_cast<NvmmaSharedEncodingAttr>(layout))
    return SmallVector<unsigned>(nvmma.getOrder());
  return {};
}

/// `layout` (#tkgpu.shared or #tkgpu.nvmma_shared) with `order` in place
/// of its own.
Attribute withSharedOrder(Attribute layout, ArrayRef<unsigned> order) {
  MLIRContext *ctx = layout.getContext();
  if (auto shared = dyn_cast<SharedEncodingAttr>(layout))
    return SharedEncodingAttr::get(ctx, shared.getVec(), shared.getPerPhase(),
                                   shared.getMaxPhase(), order);
  auto nvmma = cast<NvmmaSharedEncodingAttr>(layout);
  return NvmmaSharedEncodingAttr::get(ctx, nvmma.getSwizzle(),
                                      nvmma.getElementBitWidth(), order);
}

} // namespace

Attribute mlir::tkgpu::addLeadingBufferDim(Attribute tile) {
  SmallVector<unsigned> order = getSharedOrder(tile);
  return order.empty() ? Attribute()
                       : withSharedOrder(tile, shiftOrder(order, true));
}

Attribute mlir::tkgpu::dropLeadingBufferDim(Attribute multiBuffer) {
  SmallVector<unsigned> order = getSharedOrder(multiBuffer);
  return order.empty() ? Attribute()
                       : withSharedOrder(multiBuffer, shiftOrder(order, false));
}

MemDescType mlir::tkgpu::getMultiBufferType(MemDescType tile,
                                            int64_t count) {
  SmallVector<int64_t> shape{count};
  llvm::append_range(shape, tile.getShape());
  return MemDescType::get(tile.getContext(), shape, tile.getElementType(),
                          addLeadingBufferDim(tile.getEncoding()));
}

SmallVector<int32_t> mlir::tkgpu::invertPermutation(ArrayRef<int32_t> order) {
  SmallVector<int32_t> inverse(order.size());
  for (auto [i, d] : llvm::enumerate(order))
    inverse[d] = int32_t(i);
  return inverse;
}

MemDescType mlir::tkgpu::getTransposeSourceType(MemDescType view,
                                               ArrayRef<int32_t> order) {
  SmallVector<int32_t> back = invertPermutation(order);
  Attribute layout = permuteLayout(view.getEncoding(), back);
  if (!layout)
    return {};
  SmallVector<int64_t> shape;
  for (int32_t d : back)
    shape.push_back(view.getShape()[d]);
  return MemDescType::get(view.getContext(), shape, view.getElementType(),
                          layout);
}

Attribute mlir::tkgpu::permuteLayout(Attribute layout,
                                    ArrayRef<int32_t> order) {
  unsigned rank = order.size();
  SmallVector<unsigned> inverse(rank, 0);
  for (unsigned i = 0; i < rank; ++i)
    inverse[order[i]] = i;
  auto renamed = [&](ArrayRef<unsigned> dims) {
    SmallVector<unsigned> result;
    for (unsigned d : dims)
      result.push_back(inverse[d]);
    return result;
  };
  auto permuted = [&](ArrayRef<unsigned> perDim) {
    SmallVector<unsigned> result;
    for (unsigned i = 0; i < rank; ++i)
      result.push_back(perDim[order[i]]);
    return result;
  };
  MLIRContext *ctx = layout.getContext();
  if (auto blocked = dyn_cast<BlockedEncodingAttr>(layout)) {
    if (blocked.getOrder().size() != rank)
      return {};
    return BlockedEncodingAttr::get(ctx, permuted(blocked.getSizePerThread()),
                                    permuted(blocked.getThreadsPerWarp()),
                                    permuted(blocked.getWarpsPerCTA()),
                                    renamed(blocked.getOrder()));
  }
  SmallVector<unsigned> sharedOrder = getSharedOrder(layout);
  if (sharedOrder.size() != rank)
    return {};
  return withSharedOrder(layout, renamed(sharedOrder));
}

//===----------------------------------------------------------------------===//
// MemDescType
//===----------------------------------------------------------------------===//

Type MemDescType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  Attribute encoding;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false) ||
      parser.parseType(elementType) || parser.parseComma() ||
      parser.parseAttribute(encoding) || parser.parseGreater())
    return {};
  return parser.getChecked<MemDescType>(parser.getContext(), shape,
                                        elementType, encoding);
}

void MemDescType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t dim : getShape())
    printer << dim << "x";
  printer << getElementType() << ", " << getEncoding() << ">";
}

LogicalResult MemDescType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<int64_t> shape, Type elementType,
                                  Attribute encoding) {
  auto layout = dyn_cast<LayoutEncodingAttrInterface>(encoding);
  if (!layout || layout.isDistributed())
    return emitError() << "memdesc needs a shared-memory layout, got "
                       << encoding;
  if (!elementType.isIntOrFloat())
    return emitError() << "memdesc elements must be integers or floats";
  if (auto nvmma = dyn_cast<NvmmaSharedEncodingAttr>(encoding)) {
    // The hardware swizzle needs whole chunks and 8-row groups.
    ArrayRef<unsigned> order = nvmma.getOrder();
    if (nvmma.getElementBitWidth() != elementType.getIntOrFloatBitWidth())
      return emitError() << "nvmma_shared layout of " << nvmma.getElementBitWidth()
                         << "-bit elements on " << elementType;
    if (shape.size() == order.size() &&
        (shape[order[0]] % nvmma.getChunkElements() != 0 ||
         shape[order[1]] % 8 != 0))
      return emitError() << "nvmma_shared layout needs the contiguous "
                            "dimension to be a multiple of "
                         << nvmma.getChunkElements()
                         << " elements and the rows a multiple of 8";
  }
  // The leading dimension of a multi-buffer (num_stages copies of a tile,
  // one more dimension than a tile has) counts buffers: any number of them,
  // each a tile of power-of-two dimensions.
  if (shape.size() >= 3 && shape.size() == layout.getRank() && shape[0] > 0) {
    SmallVector<unsigned> order = layout.getLayoutOrder();
    if (!order.empty() && order.back() == 0)
      return verifyTensorShape(shape.drop_front(), layout.getRank() - 1,
                               encoding, emitError);
  }
  return verifyTensorShape(shape, layout.getRank(), encoding, emitError);
}

int64_t MemDescType::getNumElements() const {
  int64_t count = 1;
  for (int64_t dim : getShape())
    count *= dim;
  return count;
}

//===----------------------------------------------------------------------===//
// MmaEncodingAttr
//===----------------------------------------------------------------------===//

Attribute MmaEncodingAttr::parse(AsmParser &parser, Type) {
  DictionaryAttr dict = parseDictBody(parser);
  if (!dict)
    return {};
  unsigned version;
  SmallVector<unsigned> warpsPerCTA, instrShape;
  if (failed(checkKeys(parser, dict,
                       {"versionMajor", "warpsPerCTA", "instrShape"})) ||
      failed(readUnsigned(parser, dict, "versionMajor", version)) ||
      failed(readUnsignedArray(parser, dict, "warpsPerCTA", warpsPerCTA)) ||
      failed(readUnsignedArray(parser, dict, "instrShape", instrShape)))
    return {};
  return parser.getChecked<MmaEncodingAttr>(parser.getContext(), version,
                                            warpsPerCTA, instrShape);
}

void MmaEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{versionMajor = " << getVersionMajor() << ", warpsPerCTA = ";
  printArray(printer, getWarpsPerCTA());
  printer << ", instrShape = ";
  printArray(printer, getInstrShape());
  printer << "}>";
}

LogicalResult
MmaEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        unsigned versionMajor, ArrayRef<unsigned> warpsPerCTA,
                        ArrayRef<unsigned> instrShape) {
  if (versionMajor != 2 && versionMajor != 3)
    return emitError() << "mma layout: versionMajor must be 2 (mma.sync) or "
                          "3 (wgmma), got "
                       << versionMajor;
  if (warpsPerCTA.size() != 2 || !allPowersOf2(warpsPerCTA))
    return emitError() << "mma layout: warpsPerCTA must be two powers of two";
  if (versionMajor == 2) {
    if (instrShape.size() != 2 || instrShape[0] != 16 || instrShape[1] != 8)
      return emitError() << "mma layout: version 2 has instrShape = [16, 8]";
    return success();
  }
  if (warpsPerCTA[0] % 4 != 0)
    return emitError() << "mma layout: version 3 needs warpsPerCTA[0] to be "
                          "a multiple of 4 (warp groups along M)";
  if (instrShape.size() != 3 || instrShape[0] != 16 || instrShape[1] < 8 ||
      instrShape[1] > 256 || !llvm::isPowerOf2_32(instrShape[1]) ||
      !llvm::is_contained({8u, 16u, 32u}, instrShape[2]))
    return emitError() << "mma layout: version 3 has instrShape = [16, N, K] "
                          "with N a power of two from 8 to 256 and K 8, 16 "
                          "or 32";
  return success();
}

LogicalResult MmaEncodingAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type,
    function_ref<InFlightDiagnostic()> emitError) const {
  return verifyTensorShape(shape, getRank(), *this, emitError);
}

unsigned MmaEncodingAttr::getRank() const { return 2; }

bool MmaEncodingAttr::isDistributed() const { return true; }

SmallVector<unsigned> MmaEncodingAttr::getLayoutOrder() const {
  return {1, 0};
}

unsigned MmaEncodingAttr::getNumWarps() const {
  return product(getWarpsPerCTA());
}

SmallVector<int64_t> MmaEncodingAttr::getShapePerCTATile() const {
  return {int64_t(getInstrShape()[0]) * getWarpsPerCTA()[0],
          int64_t(getInstrShape()[1]) * getWarpsPerCTA()[1]};
}

namespace {

/// Bases (dim0, dim1) of the warp bits of an mma tile: warps along M
/// first (each moving `mStep` rows, or nothing when mStep is 0), then
/// along N (`nStep` columns, or nothing).
std::vector<LinearLayout::Basis> mmaWarpBases(ArrayRef<unsigned> warpsPerCTA,
                                              int32_t mStep, int32_t nStep) {
  std::vector<LinearLayout::Basis> bases;
  for (unsigned i = 0; (1u << i) < warpsPerCTA[0]; ++i)
    bases.push_back({mStep << i, 0});
  for (unsigned i = 0; (1u << i) < warpsPerCTA[1]; ++i)
    bases.push_back({0, nStep << i});
  return bases;
}

LinearLayout makeTile(std::vector<LinearLayout::Basis> reg,
                      std::vector<LinearLayout::Basis> lane,
                      std::vector<LinearLayout::Basis> warp, int32_t rows,
                      int32_t cols) {
  return LinearLayout({{kRegister, std::move(reg)},
                       {kLane, std::move(lane)},
                       {kWarp, std::move(warp)}},
                      {{outDimName(0), rows}, {outDimName(1), cols}});
}

} // namespace

LinearLayout MmaEncodingAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  ArrayRef<unsigned> warps = getWarpsPerCTA();
  if (isHopper()) {
    // PTX ISA, wgmma.mma_async.m64nNk*: fragment layout of D. Warp w of a
    // warp group holds rows 16w .. 16w + 15; within them, d[4i..4i+3] are
    // the mma.sync m16n8 pattern at columns 8i .. 8i + 7. Warp groups tile
    // M first (64 rows each), then N (one instruction's N each).
    int32_t n = getInstrShape()[1];
    std::vector<LinearLayout::Basis> reg = {{0, 1}, {8, 0}};
    for (int32_t col = 8; col < n; col *= 2)
      reg.push_back({0, col});
    std::vector<LinearLayout::Basis> warp = {{16, 0}, {32, 0}};
    for (unsigned i = 0; (4u << i) < warps[0]; ++i)
      warp.push_back({64 << i, 0});
    for (unsigned i = 0; (1u << i) < warps[1]; ++i)
      warp.push_back({0, n << i});
    LinearLayout tile = makeTile(
        reg, /*lane=*/{{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}, warp,
        16 * warps[0], n * warps[1]);
    return fitToShape(tile, std::vector<int64_t>(shape.begin(), shape.end()),
                      {1, 0});
  }
  // One warp's 16x8 accumulator tile (PTX ISA, mma.m16n8k*: fragment
  // layout of C/D): c0,c1 at row t/4, columns 2*(t%4) + {0,1}; c2,c3 the
  // same 8 rows further down.
  LinearLayout tile = makeTile(
      /*reg=*/{{0, 1}, {8, 0}},
      /*lane=*/{{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}},
      /*warp=*/mmaWarpBases(warps, 16, 8), 16 * warps[0], 8 * warps[1]);
  return fitToShape(tile, std::vector<int64_t>(shape.begin(), shape.end()),
                    {1, 0});
}

int64_t MmaEncodingAttr::getTotalElemsPerThread(ArrayRef<int64_t> shape) const {
  return toLinearLayout(shape).getInDimSize(kRegister);
}

//===----------------------------------------------------------------------===//
// DotOperandEncodingAttr
//===----------------------------------------------------------------------===//

Attribute DotOperandEncodingAttr::parse(AsmParser &parser, Type) {
  DictionaryAttr dict = parseDictBody(parser);
  if (!dict)
    return {};
  unsigned opIdx, kWidth;
  if (failed(checkKeys(parser, dict, {"opIdx", "parent", "kWidth"})) ||
      failed(readUnsigned(parser, dict, "opIdx", opIdx)) ||
      failed(readUnsigned(parser, dict, "kWidth", kWidth)))
    return {};
  auto parent =
      dyn_cast_or_null<LayoutEncodingAttrInterface>(dict.get("parent"));
  if (!parent) {
    parser.emitError(parser.getNameLoc())
        << "expected 'parent' to be a layout encoding";
    return {};
  }
  return parser.getChecked<DotOperandEncodingAttr>(parser.getContext(), opIdx,
                                                   parent, kWidth);
}

void DotOperandEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{opIdx = " << getOpIdx() << ", parent = " << getParent()
          << ", kWidth = " << getKWidth() << "}>";
}

LogicalResult DotOperandEncodingAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, unsigned opIdx,
    LayoutEncodingAttrInterface parent, unsigned kWidth) {
  if (opIdx > 1)
    return emitError() << "dot_operand layout: opIdx must be 0 (A) or 1 (B)";
  auto mma = dyn_cast_or_null<MmaEncodingAttr>(parent);
  if (!mma)
    return emitError() << "dot_operand layout needs an mma parent layout";
  if (mma.isHopper() && opIdx != 0)
    return emitError() << "dot_operand layout: wgmma (mma version 3) reads B "
                          "from shared memory only; opIdx must be 0";
  if (kWidth != 1 && kWidth != 2 && kWidth != 4)
    return emitError() << "dot_operand layout: kWidth must be 1, 2 or 4";
  return success();
}

LogicalResult DotOperandEncodingAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type elementType,
    function_ref<InFlightDiagnostic()> emitError) const {
  if (failed(verifyTensorShape(shape, getRank(), *this, emitError)))
    return failure();
  unsigned bits = elementType.getIntOrFloatBitWidth();
  if (bits * getKWidth() != 32)
    return emitError() << "dot_operand layout: kWidth " << getKWidth()
                       << " does not fill 32-bit registers with "
                       << elementType << " elements";
  return success();
}

unsigned DotOperandEncodingAttr::getRank() const { return 2; }

bool DotOperandEncodingAttr::isDistributed() const { return true; }

SmallVector<unsigned> DotOperandEncodingAttr::getLayoutOrder() const {
  // K fastest.
  if (getOpIdx() == 0)
    return {1, 0};
  return {0, 1};
}

MmaEncodingAttr DotOperandEncodingAttr::getMmaParent() const {
  return cast<MmaEncodingAttr>(getParent());
}

SmallVector<int64_t> DotOperandEncodingAttr::getInstrShape() const {
  int64_t k = 8 * int64_t(getKWidth());
  if (getOpIdx() == 0)
    return {16, k};
  return {k, 8};
}

LinearLayout
DotOperandEncodingAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  // PTX ISA, mma.m16n8k{8,16,32} fragments for A and B, written for any
  // kWidth (K elements per 32-bit register): thread t holds kWidth
  // consecutive K elements starting at kWidth * (t % 4) in each register;
  // A's rows are t / 4 (+8 in the second register), B's columns t / 4;
  // the next register group covers K + 4 * kWidth.
  int32_t kw = getKWidth();
  std::vector<LinearLayout::Basis> reg, lane;
  ArrayRef<unsigned> warps = getMmaParent().getWarpsPerCTA();
  bool isA = getOpIdx() == 0;
  auto k = [&](int32_t v) {
    return isA ? LinearLayout::Basis{0, v} : LinearLayout::Basis{v, 0};
  };
  auto mn = [&](int32_t v) {
    return isA ? LinearLayout::Basis{v, 0} : LinearLayout::Basis{0, v};
  };
  for (int32_t b = 1; b < kw; b *= 2)
    reg.push_back(k(b));
  lane = {k(kw), k(2 * kw), mn(1), mn(2), mn(4)};
  if (isA)
    reg.push_back(mn(8));
  reg.push_back(k(4 * kw));
  LinearLayout tile =
      isA ? makeTile(reg, lane, mmaWarpBases(warps, 16, 0), 16 * warps[0],
                     8 * kw)
          : makeTile(reg, lane, mmaWarpBases(warps, 0, 8), 8 * kw,
                     8 * warps[1]);
  return fitToShape(tile, std::vector<int64_t>(shape.begin(), shape.end()),
                    toStd(getLayoutOrder()));
}

int64_t
DotOperandEncodingAttr::getTotalElemsPerThread(ArrayRef<int64_t> shape) const {
  return toLinearLayout(shape).getInDimSize(kRegister);
}
