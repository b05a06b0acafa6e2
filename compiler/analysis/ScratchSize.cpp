//===- ScratchSize.cpp - scratch shared memory of op lowerings ------------===//
//
// Every size mirrors one lowering pattern of compiler/conversion (named at
// each function); the patterns call these functions for their offsets and
// sizes, so a change to a lowering's use of shared memory is made here.
// The ScratchOpInterface models at the end return the whole-op sizes.
//
//===----------------------------------------------------------------------===//
#include "compiler/analysis/ScratchSize.h"

#include "dialects/tk/TkDialect.h"
#include "dialects/tkgpu/TkgpuDialect.h"

#include "mlir/IR/DialectRegistry.h"
#include "llvm/Support/MathExtras.h"

#include <map>

using namespace mlir;
using namespace mlir::tkgpu;

//===----------------------------------------------------------------------===//
// Linear layout queries
//===----------------------------------------------------------------------===//

int32_t tkgpu::getInBits(const LinearLayout &layout, const char *inDim) {
  return layout.hasInDim(inDim) ? layout.getInDimSizeLog2(inDim) : 0;
}

SmallVector<int32_t> tkgpu::getBasisOrZero(const LinearLayout &layout,
                                           const char *inDim, int32_t bit) {
  if (!layout.hasInDim(inDim) || bit >= layout.getInDimSizeLog2(inDim))
    return SmallVector<int32_t>(layout.getNumOutDims(), 0);
  const LinearLayout::Basis &basis = layout.getBasis(inDim, bit);
  return SmallVector<int32_t>(basis.begin(), basis.end());
}

SmallVector<int32_t> tkgpu::getRegisterIndex(const LinearLayout &layout,
                                             int32_t reg) {
  SmallVector<int32_t> index(layout.getNumOutDims(), 0);
  for (int32_t bit = 0, e = getInBits(layout, kRegister); bit < e; ++bit) {
    if (!(reg & (1 << bit)))
      continue;
    SmallVector<int32_t> basis = getBasisOrZero(layout, kRegister, bit);
    for (unsigned d = 0; d < index.size(); ++d)
      index[d] ^= basis[d];
  }
  return index;
}

bool tkgpu::getRegisterPermutation(const LinearLayout &from,
                                   const LinearLayout &to,
                                   SmallVectorImpl<int32_t> &permutation) {
  return mapRegisters(
      from, to,
      [](ArrayRef<int32_t> index) {
        return SmallVector<int32_t>(index.begin(), index.end());
      },
      permutation);
}

bool tkgpu::mapRegisters(const LinearLayout &src, const LinearLayout &dst,
                         const IndexMap &map,
                         SmallVectorImpl<int32_t> &mapping) {
  // Lanes and warps must hold the same data: equal thread bases.
  for (const char *inDim : {kLane, kWarp}) {
    int32_t bits = std::max(getInBits(src, inDim), getInBits(dst, inDim));
    for (int32_t bit = 0; bit < bits; ++bit)
      if (map(getBasisOrZero(dst, inDim, bit)) !=
          getBasisOrZero(src, inDim, bit))
        return false;
  }
  std::map<SmallVector<int32_t>, int32_t> sourceRegister;
  for (int32_t reg = 0, e = src.getInDimSize(kRegister); reg < e; ++reg)
    sourceRegister.emplace(getRegisterIndex(src, reg), reg);
  mapping.clear();
  for (int32_t reg = 0, e = dst.getInDimSize(kRegister); reg < e; ++reg) {
    auto it = sourceRegister.find(map(getRegisterIndex(dst, reg)));
    if (it == sourceRegister.end())
      return false;
    mapping.push_back(it->second);
  }
  return true;
}

bool tkgpu::mapWindowRegisters(const LinearLayout &src,
                               const LinearLayout &window,
                               ArrayRef<int64_t> offsets,
                               SmallVectorImpl<int32_t> &mapping) {
  // Equal thread bases: then, the offsets being aligned (their bits above
  // every bit a window index sets), element w of the window at a thread is
  // element w + offsets of the source at the same thread.
  for (const char *inDim : {kLane, kWarp}) {
    int32_t bits = std::max(getInBits(src, inDim), getInBits(window, inDim));
    for (int32_t bit = 0; bit < bits; ++bit)
      if (getBasisOrZero(window, inDim, bit) != getBasisOrZero(src, inDim, bit))
        return false;
  }
  std::map<SmallVector<int32_t>, int32_t> sourceRegister;
  for (int32_t reg = 0, e = src.getInDimSize(kRegister); reg < e; ++reg)
    sourceRegister.emplace(getRegisterIndex(src, reg), reg);
  mapping.clear();
  for (int32_t reg = 0, e = window.getInDimSize(kRegister); reg < e; ++reg) {
    SmallVector<int32_t> index = getRegisterIndex(window, reg);
    for (unsigned d = 0; d < index.size(); ++d)
      index[d] += offsets[d];
    auto it = sourceRegister.find(index);
    if (it == sourceRegister.end())
      return false;
    mapping.push_back(it->second);
  }
  return true;
}

IndexMap tkgpu::getShapeOpIndexMap(Operation *op) {
  if (auto broadcastOp = dyn_cast<tk::BroadcastOp>(op)) {
    auto srcType = cast<RankedTensorType>(broadcastOp.getSrc().getType());
    auto dstType = cast<RankedTensorType>(broadcastOp.getType());
    SmallVector<bool> broadcast;
    for (auto [s, d] : llvm::zip(srcType.getShape(), dstType.getShape()))
      broadcast.push_back(s == 1 && d != 1);
    return [broadcast](ArrayRef<int32_t> index) {
      SmallVector<int32_t> src(index.begin(), index.end());
      for (unsigned d = 0; d < src.size(); ++d)
        if (broadcast[d])
          src[d] = 0;
      return src;
    };
  }
  if (auto expand = dyn_cast<tk::ExpandDimsOp>(op)) {
    unsigned axis = expand.getAxis();
    return [axis](ArrayRef<int32_t> index) {
      SmallVector<int32_t> src(index.begin(), index.end());
      src.erase(src.begin() + axis);
      return src;
    };
  }
  if (auto reshape = dyn_cast<tk::ReshapeOp>(op)) {
    SmallVector<int64_t> srcShape(
        cast<RankedTensorType>(reshape.getSrc().getType()).getShape());
    SmallVector<int64_t> dstShape(
        cast<RankedTensorType>(reshape.getType()).getShape());
    // Row-major linear index of the result, unflattened into the source.
    return [srcShape, dstShape](ArrayRef<int32_t> index) {
      int64_t linear = 0;
      for (unsigned d = 0; d < dstShape.size(); ++d)
        linear = linear * dstShape[d] + index[d];
      SmallVector<int32_t> src(srcShape.size(), 0);
      for (int d = static_cast<int>(srcShape.size()) - 1; d >= 0; --d) {
        src[d] = linear % srcShape[d];
        linear /= srcShape[d];
      }
      return src;
    };
  }
  if (auto trans = dyn_cast<tk::TransOp>(op)) {
    SmallVector<int32_t> order(trans.getOrder());
    // Result dimension i is source dimension order[i].
    return [order](ArrayRef<int32_t> index) {
      SmallVector<int32_t> src(index.size(), 0);
      for (unsigned i = 0; i < order.size(); ++i)
        src[order[i]] = index[i];
      return src;
    };
  }
  return nullptr;
}

LinearLayout tkgpu::sliceLayout(const LinearLayout &layout, unsigned axis,
                                ArrayRef<int64_t> resultShape) {
  std::vector<LinearLayout::InDim> ins;
  for (const char *inDim : {kRegister, kLane, kWarp}) {
    LinearLayout::InDim sliced{inDim, {}};
    for (int32_t bit = 0, e = getInBits(layout, inDim); bit < e; ++bit) {
      SmallVector<int32_t> basis = getBasisOrZero(layout, inDim, bit);
      basis.erase(basis.begin() + axis);
      if (basis.empty())
        basis.push_back(0); // a full reduction: one dimension of size 1
      if (inDim == kRegister && llvm::all_of(basis, [](int32_t c) {
            return c == 0;
          }))
        continue;
      sliced.bases.emplace_back(basis.begin(), basis.end());
    }
    ins.push_back(std::move(sliced));
  }
  std::vector<LinearLayout::OutDim> outs;
  for (unsigned d = 0; d < resultShape.size(); ++d)
    outs.push_back({outDimName(d), static_cast<int32_t>(resultShape[d])});
  return LinearLayout(std::move(ins), std::move(outs));
}

//===----------------------------------------------------------------------===//
// Scratch sizes
//===----------------------------------------------------------------------===//

unsigned tkgpu::getScratchElementBytes(Type elementType) {
  if (isa<tk::PtrType>(elementType))
    return 8;
  if (elementType.isInteger(1))
    return 1;
  return elementType.getIntOrFloatBitWidth() / 8;
}

int64_t tkgpu::getRowMajorBytes(ArrayRef<int64_t> shape, int64_t padding,
                                unsigned elementBytes) {
  // The last element's offset + 1, with the strides of SharedView::rowMajor.
  int64_t last = 0, stride = 1;
  for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
    last += (shape[d] - 1) * stride;
    stride *= shape[d];
    if (d == static_cast<int>(shape.size()) - 1)
      stride += padding;
  }
  return (last + 1) * elementBytes;
}

int64_t tkgpu::getConversionRowPadding(ArrayRef<int64_t> shape,
                                       unsigned elementBytes) {
  return shape.size() >= 2 ? std::max<int64_t>(1, 16 / elementBytes) : 0;
}

int64_t tkgpu::getTransRowPadding(unsigned elementBytes) {
  return std::max<int64_t>(1, 16 / elementBytes);
}

// convertDistributed (LoweringUtils.cpp).
int64_t tkgpu::getConversionScratchBytes(const LinearLayout &from,
                                         const LinearLayout &to,
                                         ArrayRef<int64_t> shape,
                                         unsigned elementBytes) {
  SmallVector<int32_t> permutation;
  if (from == to || getRegisterPermutation(from, to, permutation))
    return 0;
  return getRowMajorBytes(shape, getConversionRowPadding(shape, elementBytes),
                          elementBytes);
}

ScratchPlanes tkgpu::getScratchPlanes(ArrayRef<int64_t> sizes) {
  ScratchPlanes planes;
  for (int64_t size : sizes) {
    planes.offsets.push_back(planes.bytes);
    planes.bytes = llvm::alignTo(planes.bytes + size, 16);
  }
  // The last plane needs no padding after it.
  if (!sizes.empty())
    planes.bytes = planes.offsets.back() + sizes.back();
  return planes;
}

// ReduceConversion::combineAcrossWarps (ReduceOpToLlvm.cpp).
ScratchPlanes tkgpu::getReduceWarpScratch(int64_t numWarpsAlongAxis,
                                          int64_t numSliceElements,
                                          ArrayRef<unsigned> elementBytes) {
  SmallVector<int64_t> sizes;
  for (unsigned bytes : elementBytes)
    sizes.push_back(numWarpsAlongAxis * numSliceElements * bytes);
  return getScratchPlanes(sizes);
}

SmallVector<Type> tkgpu::getReduceCarriedTypes(Operation *op) {
  auto reduce = cast<tk::ReduceOp>(op);
  SmallVector<Type> types;
  for (Value src : reduce.getSrcs())
    types.push_back(getElementTypeOrSelf(src.getType()));
  if (reduce.getKind() == tk::ReduceKind::ArgMax ||
      reduce.getKind() == tk::ReduceKind::ArgMin)
    types.push_back(IntegerType::get(op->getContext(), 32));
  return types;
}

// ReduceConversion / ScanConversion: the results' conversions.
ScratchPlanes
tkgpu::getResultConversionScratch(Operation *op, const LinearLayout &computed,
                                  ArrayRef<int64_t> computedShape) {
  SmallVector<int64_t> sizes;
  for (Value result : op->getResults()) {
    auto type = dyn_cast<RankedTensorType>(result.getType());
    if (!type || !getLayoutEncoding(type) ||
        !getLayoutEncoding(type).isDistributed()) {
      sizes.push_back(0);
      continue;
    }
    sizes.push_back(getConversionScratchBytes(
        computed, toLinearLayout(type), computedShape,
        getScratchElementBytes(type.getElementType())));
  }
  return getScratchPlanes(sizes);
}

// DotConversion (DotOpToLlvm.cpp): A^T then B, both dense.
DotFmaScratch tkgpu::getDotFmaScratch(ArrayRef<int64_t> aShape,
                                      ArrayRef<int64_t> bShape,
                                      unsigned aBytes, unsigned bBytes) {
  DotFmaScratch scratch;
  scratch.bOffset = llvm::alignTo(aShape[0] * aShape[1] * aBytes, 16);
  scratch.bytes = scratch.bOffset + bShape[0] * bShape[1] * bBytes;
  return scratch;
}

static bool hasDistributedLayout(Type type) {
  auto encoding = getLayoutEncoding(type);
  return encoding && encoding.isDistributed();
}

int64_t tkgpu::getConvertLayoutScratchBytes(Operation *op) {
  auto convert = cast<ConvertLayoutOp>(op);
  auto srcType = cast<RankedTensorType>(convert.getSrc().getType());
  auto dstType = cast<RankedTensorType>(convert.getType());
  if (!hasDistributedLayout(srcType) || !hasDistributedLayout(dstType))
    return 0;
  return getConversionScratchBytes(
      toLinearLayout(srcType), toLinearLayout(dstType), srcType.getShape(),
      getScratchElementBytes(srcType.getElementType()));
}

int64_t tkgpu::getReduceScratchBytes(Operation *op) {
  auto reduce = cast<tk::ReduceOp>(op);
  auto srcType = cast<RankedTensorType>(reduce.getSrcs()[0].getType());
  if (!hasDistributedLayout(srcType))
    return 0;
  unsigned axis = reduce.getAxis();
  LinearLayout layout = toLinearLayout(srcType);
  SmallVector<int64_t> resultShape(srcType.getShape());
  resultShape.erase(resultShape.begin() + axis);
  SmallVector<int64_t> slicedShape(resultShape);
  if (slicedShape.empty())
    slicedShape.push_back(1);

  int64_t bytes = 0;
  int64_t numWarpAxisBits = 0;
  for (int32_t bit = 0, e = getInBits(layout, kWarp); bit < e; ++bit)
    if (getBasisOrZero(layout, kWarp, bit)[axis] != 0)
      ++numWarpAxisBits;
  if (numWarpAxisBits != 0) {
    int64_t numSliceElements = 1;
    for (int64_t s : slicedShape)
      numSliceElements *= s;
    SmallVector<unsigned> elementBytes;
    for (Type type : getReduceCarriedTypes(op))
      elementBytes.push_back(getScratchElementBytes(type));
    bytes = getReduceWarpScratch(int64_t(1) << numWarpAxisBits,
                                 numSliceElements, elementBytes)
                .bytes;
  }
  return std::max(bytes, getResultConversionScratch(
                             op, sliceLayout(layout, axis, slicedShape),
                             resultShape)
                             .bytes);
}

int64_t tkgpu::getScanScratchBytes(Operation *op) {
  auto scan = cast<tk::ScanOp>(op);
  auto type = cast<RankedTensorType>(scan.getSrcs()[0].getType());
  if (!hasDistributedLayout(type))
    return 0;
  unsigned axis = scan.getAxis();
  LinearLayout layout = toLinearLayout(type);
  int64_t bytes = 0;
  // A level whose partner lives in another warp goes through a row-major
  // copy of each operand, one plane each.
  for (int32_t bit = 0, e = getInBits(layout, kWarp); bit < e; ++bit)
    if (getBasisOrZero(layout, kWarp, bit)[axis] != 0) {
      SmallVector<int64_t> sizes;
      for (Value src : scan.getSrcs())
        sizes.push_back(getRowMajorBytes(
            type.getShape(), 0,
            getScratchElementBytes(getElementTypeOrSelf(src.getType()))));
      bytes = getScratchPlanes(sizes).bytes;
    }
  return std::max(
      bytes, getResultConversionScratch(op, layout, type.getShape()).bytes);
}

// broadcastAtomicResults (LoadStoreOpToLlvm.cpp): the writer threads
// publish the old values when several threads hold each element.
int64_t tkgpu::getAtomicScratchBytes(Operation *op) {
  if (op->getNumResults() == 0 || op->getResult(0).use_empty())
    return 0;
  unsigned elementBytes =
      getScratchElementBytes(getElementTypeOrSelf(op->getResult(0).getType()));
  auto ptrType = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  if (!ptrType)
    return elementBytes; // thread 0 holds a scalar's old value
  if (!hasDistributedLayout(ptrType))
    return 0;
  std::map<std::string, int32_t> free =
      toLinearLayout(ptrType).getFreeVariableMasks();
  bool replicated = false;
  for (const char *inDim : {kLane, kWarp}) {
    auto it = free.find(inDim);
    replicated |= it != free.end() && it->second != 0;
  }
  if (!replicated)
    return 0;
  return getRowMajorBytes(ptrType.getShape(), 0, elementBytes);
}

// lowerIndexMap (ViewOpToLlvm.cpp): the source row-major (tk.trans: rows
// padded); the result reads the same span through its view.
int64_t tkgpu::getShapeOpScratchBytes(Operation *op) {
  auto srcType = cast<RankedTensorType>(op->getOperand(0).getType());
  auto dstType = cast<RankedTensorType>(op->getResult(0).getType());
  if (!hasDistributedLayout(srcType) || !hasDistributedLayout(dstType))
    return 0;
  SmallVector<int32_t> mapping;
  if (mapRegisters(toLinearLayout(srcType), toLinearLayout(dstType),
                   getShapeOpIndexMap(op), mapping))
    return 0;
  unsigned elementBytes = getScratchElementBytes(srcType.getElementType());
  int64_t padding = isa<tk::TransOp>(op) ? getTransRowPadding(elementBytes) : 0;
  return getRowMajorBytes(srcType.getShape(), padding, elementBytes);
}

// DotConversion (DotOpToLlvm.cpp), the FMA path; a dot with an mma result
// computes in registers.
int64_t tkgpu::getDotScratchBytes(Operation *op) {
  auto dot = cast<tk::DotOp>(op);
  auto aType = cast<RankedTensorType>(dot.getA().getType());
  auto bType = cast<RankedTensorType>(dot.getB().getType());
  auto dType = cast<RankedTensorType>(dot.getType());
  if (aType.getRank() != 2 || isa_and_nonnull<MmaEncodingAttr>(
                                  dType.getEncoding()))
    return 0;
  return getDotFmaScratch(aType.getShape(), bType.getShape(),
                          getScratchElementBytes(aType.getElementType()),
                          getScratchElementBytes(bType.getElementType()))
      .bytes;
}

//===----------------------------------------------------------------------===//
// ScratchOpInterface models
//===----------------------------------------------------------------------===//

namespace {

template <typename OpT, int64_t (*SizeFn)(Operation *)>
struct ScratchModel
    : public ScratchOpInterface::ExternalModel<ScratchModel<OpT, SizeFn>,
                                               OpT> {
  int64_t getScratchSizeInBytes(Operation *op) const { return SizeFn(op); }
};

} // namespace

void tkgpu::registerScratchModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, TkgpuDialect *) {
    ConvertLayoutOp::attachInterface<
        ScratchModel<ConvertLayoutOp, getConvertLayoutScratchBytes>>(*ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, tk::TkDialect *) {
    tk::ReduceOp::attachInterface<
        ScratchModel<tk::ReduceOp, getReduceScratchBytes>>(*ctx);
    tk::ScanOp::attachInterface<ScratchModel<tk::ScanOp, getScanScratchBytes>>(
        *ctx);
    tk::AtomicRMWOp::attachInterface<
        ScratchModel<tk::AtomicRMWOp, getAtomicScratchBytes>>(*ctx);
    tk::AtomicCASOp::attachInterface<
        ScratchModel<tk::AtomicCASOp, getAtomicScratchBytes>>(*ctx);
    tk::BroadcastOp::attachInterface<
        ScratchModel<tk::BroadcastOp, getShapeOpScratchBytes>>(*ctx);
    tk::ExpandDimsOp::attachInterface<
        ScratchModel<tk::ExpandDimsOp, getShapeOpScratchBytes>>(*ctx);
    tk::ReshapeOp::attachInterface<
        ScratchModel<tk::ReshapeOp, getShapeOpScratchBytes>>(*ctx);
    tk::TransOp::attachInterface<
        ScratchModel<tk::TransOp, getShapeOpScratchBytes>>(*ctx);
    tk::DotOp::attachInterface<ScratchModel<tk::DotOp, getDotScratchBytes>>(
        *ctx);
  });
}
