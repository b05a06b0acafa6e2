//===- SharedMemoryAccess.cpp - distributed tensors through shared memory -===//
//
// The shared-memory half of the lowering helpers (declared in
// LoweringUtils.h): the offset layout of a shared buffer (element offset as
// a linear function of the logical index, swizzle included), the vector
// width a thread can use against it, the per-thread offsets of a
// distributed layout's registers, and the stores, loads and layout
// conversions through a buffer built on them. LoweringUtils.cpp keeps the
// general builders (constants, shuffles, combining, inline PTX, indices).
//
//===----------------------------------------------------------------------===//
#include "compiler/conversion/LoweringUtils.h"

#include "dialects/tkgpu/TkgpuDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tkgpu;

//===----------------------------------------------------------------------===//
// Shared offset layouts
//===----------------------------------------------------------------------===//

int32_t tkgpu::getNumContiguousAlignedRegisters(const LinearLayout &layout,
                                                const std::string &outDim) {
  int32_t vec = layout.getNumContiguousRegisters(outDim);
  if (vec == 1)
    return 1;
  unsigned target = layout.getOutDimIndex(outDim);
  // The lowest bit any other basis moves `outDim` by bounds the vector.
  int32_t moved = 0;
  for (const LinearLayout::InDim &in : layout.getInDims()) {
    size_t first = in.name == kRegister ? size_t(llvm::Log2_32(vec)) : 0;
    for (size_t bit = first; bit < in.bases.size(); ++bit)
      moved |= in.bases[bit][target];
  }
  while (vec > 1 && (moved & (vec - 1)) != 0)
    vec /= 2;
  return vec;
}

std::optional<LinearLayout> tkgpu::getStridedLayout(ArrayRef<int64_t> shape,
                                                    ArrayRef<int64_t> strides) {
  assert(shape.size() == strides.size() && "one stride per dimension");
  std::vector<LinearLayout::InDim> ins;
  int64_t used = 0; // offset bits reached so far
  for (size_t d = 0; d < shape.size(); ++d) {
    LinearLayout::InDim in{outDimName(d), {}};
    int64_t stride = strides[d];
    if (stride < 0 || !(stride == 0 || llvm::isPowerOf2_64(stride)) ||
        !llvm::isPowerOf2_64(shape[d]))
      return std::nullopt;
    for (int32_t bit = 0; (int64_t(1) << bit) < shape[d]; ++bit) {
      int64_t image = stride << bit;
      if ((image & used) || image >= (int64_t(1) << 30))
        return std::nullopt;
      used |= image;
      in.bases.push_back({int32_t(image)});
    }
    ins.push_back(std::move(in));
  }
  int32_t size = 1;
  while (size <= used)
    size *= 2;
  return LinearLayout(std::move(ins), {{kOffset, size}});
}

/// Identity on the bits of dimension `dim` of a tensor of `shape`, into
/// kOffset; the other dimensions map to 0.
static LinearLayout getDimensionTerm(ArrayRef<int64_t> shape, unsigned dim) {
  std::vector<LinearLayout::InDim> ins;
  for (unsigned d = 0; d < shape.size(); ++d) {
    LinearLayout::InDim in{outDimName(d), {}};
    for (int32_t bit = 0; (int64_t(1) << bit) < shape[d]; ++bit)
      in.bases.push_back({d == dim ? int32_t(1) << bit : 0});
    ins.push_back(std::move(in));
  }
  int32_t size = static_cast<int32_t>(llvm::PowerOf2Ceil(shape[dim]));
  return LinearLayout(std::move(ins), {{kOffset, std::max(size, 1)}});
}

SharedOffsetLayout SharedOffsetLayout::get(const LinearLayout &shared) {
  // offset -> index inverted, flattened into the one output kOffset.
  LinearLayout inverse = shared.invert();
  return SharedOffsetLayout{{{inverse, 1}}};
}

SharedOffsetLayout SharedOffsetLayout::get(ArrayRef<int64_t> shape,
                                           const SharedView &view) {
  if (std::optional<LinearLayout> strided =
          getStridedLayout(shape, view.strides))
    return SharedOffsetLayout{{{*strided, 1}}};
  // Not linear over GF(2) (padded rows): one exact affine term per
  // dimension.
  SharedOffsetLayout result;
  for (unsigned d = 0; d < shape.size(); ++d)
    if (view.strides[d] != 0 && shape[d] > 1)
      result.terms.push_back({getDimensionTerm(shape, d), view.strides[d]});
  return result;
}

SharedOffsetLayout tkgpu::getSharedOffsetLayout(Type memDescType) {
  return SharedOffsetLayout::get(toLinearLayout(memDescType));
}

SharedOffsetLayout tkgpu::getSharedOffsetLayout(Type memDescType,
                                                ArrayRef<int64_t> origin) {
  SharedOffsetLayout result = getSharedOffsetLayout(memDescType);
  std::vector<std::pair<std::string, int32_t>> index;
  for (auto [d, offset] : llvm::enumerate(origin))
    index.push_back({outDimName(d), int32_t(offset)});
  for (SharedOffsetLayout::Term &term : result.terms)
    term.window = term.layout.apply(index)[0];
  return result;
}

LinearLayout tkgpu::widenToBuffer(const LinearLayout &layout,
                                  ArrayRef<int64_t> bufferShape) {
  LinearLayout widened = layout;
  for (auto [d, size] : llvm::enumerate(bufferShape))
    widened = widened.resizeOutDim(outDimName(d), int32_t(size));
  return widened;
}

namespace {
/// One term of a shared offset layout seen from a distributed layout:
/// (register, lane, warp) -> kOffset.
struct ThreadTerm {
  LinearLayout layout;
  int64_t scale;
  int32_t window;
  /// Offset bits the lane/warp part may set.
  int32_t threadBits = 0;
};
} // namespace

static SmallVector<ThreadTerm>
composeTerms(const LinearLayout &layout, const SharedOffsetLayout &offsets) {
  SmallVector<ThreadTerm> terms;
  for (const SharedOffsetLayout::Term &term : offsets.terms) {
    ThreadTerm composed{layout.compose(term.layout), term.scale,
                        term.window};
    for (const char *inDim : {kLane, kWarp})
      for (int32_t bit = 0, e = getInBits(composed.layout, inDim); bit < e;
           ++bit)
        composed.threadBits |= getBasisOrZero(composed.layout, inDim, bit)[0];
    terms.push_back(std::move(composed));
  }
  return terms;
}

static int32_t getSharedVectorWidth(ArrayRef<ThreadTerm> terms,
                                    unsigned elementBytes,
                                    unsigned baseAlignment) {
  int32_t best = 1;
  int32_t limit = static_cast<int32_t>(
      std::max<unsigned>(1, std::min<unsigned>(16, baseAlignment) /
                                elementBytes));
  for (size_t i = 0; i < terms.size(); ++i) {
    if (terms[i].scale != 1)
      continue;
    int32_t vec = std::min(
        getNumContiguousAlignedRegisters(terms[i].layout, kOffset), limit);
    // The other terms must not move inside a vector, and must keep its
    // start aligned; so must every window origin.
    auto keepsVectors = [&](int32_t v) {
      for (size_t j = 0; j < terms.size(); ++j) {
        const ThreadTerm &term = terms[j];
        if ((term.scale * term.window) % v != 0)
          return false;
        if (j == i)
          continue;
        for (const char *inDim : {kRegister, kLane, kWarp})
          for (int32_t bit = 0, e = getInBits(term.layout, inDim); bit < e;
               ++bit) {
            int64_t moved =
                term.scale * getBasisOrZero(term.layout, inDim, bit)[0];
            if (moved % v != 0)
              return false;
          }
      }
      return true;
    };
    while (vec > 1 && !keepsVectors(vec))
      vec /= 2;
    best = std::max(best, vec);
  }
  return best;
}

int32_t tkgpu::getSharedVectorWidth(const LinearLayout &layout,
                                    const SharedOffsetLayout &offsets,
                                    unsigned elementBytes,
                                    unsigned baseAlignment) {
  if (getInBits(layout, kRegister) == 0)
    return 1;
  return ::getSharedVectorWidth(composeTerms(layout, offsets), elementBytes,
                                baseAlignment);
}

static Value scaleOffset(OpBuilder &b, Location loc, Value value,
                         int64_t scale) {
  if (scale == 1)
    return value;
  if (llvm::isPowerOf2_64(scale))
    return LLVM::ShlOp::create(b, loc, value,
                               createI32(b, loc, llvm::Log2_64(scale)));
  return LLVM::MulOp::create(b, loc, value, createI32(b, loc, scale));
}

/// Per term t the offset of register `reg` is scale_t * (R ^ T), R the
/// register part (a constant) and T the lane/warp part. The bits of R that
/// T never sets add instead of xor; only R & threadBits needs an xor, and
/// registers with the same such bits share one thread value (then every
/// register's address is that value plus an immediate).
static SmallVector<Value> emitSharedOffsets(OpBuilder &b, Location loc,
                                            ArrayRef<ThreadTerm> terms,
                                            int32_t numRegs, int32_t vec,
                                            Value lane, Value warp) {
  SmallVector<Value> threadParts;
  for (const ThreadTerm &term : terms)
    threadParts.push_back(
        term.threadBits == 0
            ? Value()
            : emitThreadIndex(b, loc, term.layout, lane, warp)[0]);
  std::map<SmallVector<int32_t>, Value> combined;
  SmallVector<Value> offsets;
  for (int32_t reg = 0; reg < numRegs; reg += vec) {
    SmallVector<int32_t> xorBits;
    int64_t constant = 0;
    for (const ThreadTerm &term : terms) {
      int32_t part = getRegisterIndex(term.layout, reg)[0] ^ term.window;
      xorBits.push_back(part & term.threadBits);
      constant += term.scale * (part & ~term.threadBits);
    }
    Value &thread = combined[xorBits];
    if (!thread) {
      for (auto [term, part, bits] : llvm::zip(terms, threadParts, xorBits)) {
        if (!part)
          continue;
        Value value =
            bits ? LLVM::XOrOp::create(b, loc, part, createI32(b, loc, bits))
                       .getResult()
                 : part;
        value = scaleOffset(b, loc, value, term.scale);
        thread = thread ? LLVM::AddOp::create(b, loc, thread, value).getResult()
                        : value;
      }
      if (!thread)
        thread = createI32(b, loc, 0);
    }
    offsets.push_back(constant == 0 ? thread
                                    : LLVM::AddOp::create(
                                          b, loc, thread,
                                          createI32(b, loc, constant))
                                          .getResult());
  }
  return offsets;
}

SmallVector<Value> tkgpu::emitSharedOffsets(OpBuilder &b, Location loc,
                                            const LinearLayout &layout,
                                            const SharedOffsetLayout &offsets,
                                            int32_t vec, Value lane,
                                            Value warp) {
  return ::emitSharedOffsets(b, loc, composeTerms(layout, offsets),
                             layout.getInDimSize(kRegister), vec, lane, warp);
}

//===----------------------------------------------------------------------===//
// Distributed tensors through shared memory
//===----------------------------------------------------------------------===//

SharedView SharedView::rowMajor(ArrayRef<int64_t> shape, int64_t padding) {
  SharedView view;
  view.strides.assign(shape.size(), 1);
  int64_t stride = 1;
  for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
    view.strides[d] = stride;
    stride *= shape[d];
    if (d == static_cast<int>(shape.size()) - 1)
      stride += padding;
  }
  return view;
}

int64_t SharedView::getSizeInBytes(ArrayRef<int64_t> shape,
                                   unsigned elementBytes) const {
  int64_t last = 0;
  for (auto [size, stride] : llvm::zip(shape, strides))
    last += (size - 1) * stride;
  return byteOffset + (last + 1) * elementBytes;
}

/// Values to their shared-memory representation and back (i1 as i8).
static Value toMemory(OpBuilder &b, Location loc, Value value) {
  if (value.getType().isInteger(1))
    return LLVM::ZExtOp::create(b, loc, b.getI8Type(), value);
  return value;
}

static Value fromMemory(OpBuilder &b, Location loc, Value value,
                        Type elementType) {
  if (elementType.isInteger(1))
    return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, value,
                                createIntConstant(b, loc, value.getType(), 0));
  return value;
}

static Value getElementPointer(OpBuilder &b, Location loc, Value base,
                               Type memoryType, Value offset) {
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), 3);
  return LLVM::GEPOp::create(b, loc, ptrType, memoryType, base,
                             ArrayRef<LLVM::GEPArg>{offset});
}

void tkgpu::storeToShared(RewriterBase &b, Location loc, Value base,
                          ArrayRef<Value> values, const LinearLayout &layout,
                          const SharedOffsetLayout &offsets, Type elementType,
                          Value lane, Value warp, Value predicate,
                          unsigned baseAlignment) {
  Type memoryType =
      getMemoryElementType(values.empty() ? elementType : values[0].getType());
  unsigned elementBytes = getMemoryBitWidth(elementType) / 8;
  SmallVector<ThreadTerm> terms = composeTerms(layout, offsets);
  int32_t vec = getInBits(layout, kRegister) == 0
                    ? 1
                    : ::getSharedVectorWidth(terms, elementBytes,
                                             baseAlignment);
  SmallVector<Value> regOffsets = ::emitSharedOffsets(
      b, loc, terms, static_cast<int32_t>(values.size()), vec, lane, warp);

  for (int32_t reg = 0; reg < static_cast<int32_t>(values.size()); reg += vec) {
    if (isDuplicateRegister(layout, reg))
      continue;
    Value ptr =
        getElementPointer(b, loc, base, memoryType, regOffsets[reg / vec]);
    SmallVector<Value> elements;
    for (int32_t i = 0; i < vec; ++i)
      elements.push_back(toMemory(b, loc, values[reg + i]));
    if (predicate) {
      storeSharedPredicated(b, loc, ptr, elements, predicate);
      continue;
    }
    if (vec == 1) {
      LLVM::StoreOp::create(b, loc, elements[0], ptr, elementBytes);
      continue;
    }
    auto vecType = VectorType::get({vec}, memoryType);
    Value vector = LLVM::UndefOp::create(b, loc, vecType);
    for (int32_t i = 0; i < vec; ++i)
      vector = LLVM::InsertElementOp::create(b, loc, vector, elements[i],
                                             createI32(b, loc, i));
    LLVM::StoreOp::create(b, loc, vector, ptr, vec * elementBytes);
  }
}

SmallVector<Value> tkgpu::loadFromShared(OpBuilder &b, Location loc,
                                         Value base, const LinearLayout &layout,
                                         const SharedOffsetLayout &offsets,
                                         Type elementType, Value lane,
                                         Value warp, unsigned baseAlignment) {
  Type memoryType = getMemoryElementType(elementType);
  unsigned elementBytes = getMemoryBitWidth(elementType) / 8;
  SmallVector<ThreadTerm> terms = composeTerms(layout, offsets);
  int32_t numRegs = layout.getInDimSize(kRegister);
  int32_t vec = getInBits(layout, kRegister) == 0
                    ? 1
                    : ::getSharedVectorWidth(terms, elementBytes,
                                             baseAlignment);
  SmallVector<Value> regOffsets =
      ::emitSharedOffsets(b, loc, terms, numRegs, vec, lane, warp);
  // A register that repeats another (free register bits) takes its value
  // from the first register holding the same element.
  std::map<SmallVector<int32_t>, int32_t> firstHolder;
  SmallVector<Value> values(numRegs);
  for (int32_t reg = 0; reg < numRegs; reg += vec) {
    if (isDuplicateRegister(layout, reg))
      continue;
    for (int32_t i = 0; i < vec; ++i)
      firstHolder.emplace(getRegisterIndex(layout, reg + i), reg + i);
    Value ptr =
        getElementPointer(b, loc, base, memoryType, regOffsets[reg / vec]);
    if (vec == 1) {
      Value loaded = LLVM::LoadOp::create(b, loc, memoryType, ptr, elementBytes);
      values[reg] = fromMemory(b, loc, loaded, elementType);
      continue;
    }
    auto vecType = VectorType::get({vec}, memoryType);
    Value vector = LLVM::LoadOp::create(b, loc, vecType, ptr,
                                        vec * elementBytes);
    for (int32_t i = 0; i < vec; ++i) {
      Value element = LLVM::ExtractElementOp::create(b, loc, vector,
                                                     createI32(b, loc, i));
      values[reg + i] = fromMemory(b, loc, element, elementType);
    }
  }
  for (int32_t reg = 0; reg < numRegs; ++reg)
    if (!values[reg])
      values[reg] = values[firstHolder.at(getRegisterIndex(layout, reg))];
  return values;
}

/// The largest power of two (at most 16) dividing `byteOffset`.
static unsigned getAlignment(int64_t byteOffset) {
  if (byteOffset == 0)
    return 16;
  return std::min<unsigned>(16, 1u << llvm::countr_zero<uint64_t>(byteOffset));
}

unsigned tkgpu::getBufferAlignment(Value buffer) {
  Operation *def = buffer.getDefiningOp();
  if (auto alloc = dyn_cast_if_present<LocalAllocOp>(def))
    return getAlignment(getAllocatedOffset(alloc, kSharedOffsetAttr));
  if (auto index = dyn_cast_if_present<MemDescIndexOp>(def))
    return std::min(getBufferAlignment(index.getSrc()),
                    getAlignment(getSizeInBytes(index.getType())));
  // Any other view (memdesc_trans) starts where its source does.
  if (auto view = dyn_cast_if_present<ViewLikeOpInterface>(def))
    return getBufferAlignment(view.getViewSource());
  // A block argument (a loop-carried or branch-merged buffer): allocations
  // start at multiples of 16 bytes.
  return 16;
}

static Value getViewBase(OpBuilder &b, Location loc, LoweringState &state,
                         const SharedView &view) {
  Value base = getSharedMemoryBase(b, loc, state.module);
  if (view.byteOffset == 0)
    return base;
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), 3);
  return LLVM::GEPOp::create(
      b, loc, ptrType, b.getI8Type(), base,
      ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(view.byteOffset)});
}

void tkgpu::storeDistributed(RewriterBase &b, Location loc, LoweringState &state,
                             ArrayRef<Value> values, const LinearLayout &layout,
                             ArrayRef<int64_t> shape, const SharedView &view,
                             Type elementType, Value lane, Value warp,
                             Value predicate) {
  unsigned elementBytes = getMemoryBitWidth(elementType) / 8;
  state.requireSharedBytes(view.getSizeInBytes(shape, elementBytes));
  storeToShared(b, loc, getViewBase(b, loc, state, view), values, layout,
                SharedOffsetLayout::get(shape, view), elementType, lane, warp,
                predicate, getAlignment(view.byteOffset));
}

SmallVector<Value> tkgpu::loadDistributed(OpBuilder &b, Location loc,
                                          LoweringState &state,
                                          const LinearLayout &layout,
                                          ArrayRef<int64_t> shape,
                                          const SharedView &view,
                                          Type elementType, Value lane,
                                          Value warp) {
  unsigned elementBytes = getMemoryBitWidth(elementType) / 8;
  state.requireSharedBytes(view.getSizeInBytes(shape, elementBytes));
  return loadFromShared(b, loc, getViewBase(b, loc, state, view), layout,
                        SharedOffsetLayout::get(shape, view), elementType,
                        lane, warp, getAlignment(view.byteOffset));
}

SmallVector<Value> tkgpu::convertDistributed(
    RewriterBase &b, Location loc, LoweringState &state, ArrayRef<Value> values,
    const LinearLayout &from, const LinearLayout &to, ArrayRef<int64_t> shape,
    Type elementType, int64_t scratchOffset) {
  if (from == to)
    return SmallVector<Value>(values.begin(), values.end());
  SmallVector<int32_t> permutation;
  if (getRegisterPermutation(from, to, permutation)) {
    SmallVector<Value> result;
    for (int32_t src : permutation)
      result.push_back(values[src]);
    return result;
  }
  // Through shared memory at `scratchOffset` (the size is
  // getConversionScratchBytes). Rows are padded by one 16-byte vector (or
  // one element) so that threads walking a column hit different banks.
  // tkgpu-membar puts the barrier before the store where an earlier access
  // needs one.
  unsigned elementBytes = getMemoryBitWidth(elementType) / 8;
  SharedView view = SharedView::rowMajor(
      shape, getConversionRowPadding(shape, elementBytes));
  view.byteOffset = scratchOffset;
  auto [lane, warp] = getLaneAndWarp(b, loc, state.threadsPerWarp);
  storeDistributed(b, loc, state, values, from, shape, view, elementType, lane,
                   warp);
  createBarrier(b, loc);
  return loadDistributed(b, loc, state, to, shape, view, elementType, lane,
                         warp);
}
