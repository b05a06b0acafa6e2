//===- ReduceOpToLlvm.cpp - tk.reduce -------------------------------------===//
//
// A reduction along `axis` runs in three steps, read off the source's
// LinearLayout: the bits of register, lane and warp whose basis moves along
// the axis are the ones to combine over.
//   1. In-thread: registers that differ only in axis bits are combined.
//   2. Lanes: one butterfly shuffle (shfl.sync.bfly) per lane bit along the
//      axis; afterwards every lane of the group holds the warp's result.
//   3. Warps: if warp bits move along the axis, one lane per warp writes its
//      partial to the op's scratch (slot [warp-along-axis][slice element]),
//      barrier, and every thread combines the partials of its elements.
// The values then sit in the source layout with the axis dropped (the
// "sliced" layout); if the result type's layout differs, a layout
// conversion follows. argmax/argmin carry (value, index) pairs; ties keep
// the smaller index, and NaN is larger than everything (numpy).
//
//===----------------------------------------------------------------------===//
#include "compiler/conversion/PatternSets.h"

#include "dialects/tk/TkDialect.h"
#include "dialects/tkgpu/TkgpuDialect.h"

#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/MathExtras.h"

#include <map>

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

/// A partial result: the value, and its index along the axis for argmax /
/// argmin.
struct Partial {
  Value value;
  Value index;
};

class Combiner {
public:
  Combiner(tk::ReduceKind kind) : kind(kind) {}

  bool isArg() const {
    return kind == tk::ReduceKind::ArgMax || kind == tk::ReduceKind::ArgMin;
  }

  Partial combine(OpBuilder &b, Location loc, Partial lhs, Partial rhs) const {
    if (!isArg())
      return {emitCombine(b, loc, getCombineKind(), lhs.value, rhs.value), {}};
    // Take rhs when it is better, or equal with a smaller index.
    bool isMax = kind == tk::ReduceKind::ArgMax;
    Value better, equal;
    if (isa<FloatType>(lhs.value.getType())) {
      auto cmp = [&](LLVM::FCmpPredicate p, Value x, Value y) {
        return LLVM::FCmpOp::create(b, loc, p, x, y).getResult();
      };
      Value lhsNan = cmp(LLVM::FCmpPredicate::uno, lhs.value, lhs.value);
      Value rhsNan = cmp(LLVM::FCmpPredicate::uno, rhs.value, rhs.value);
      Value rhsOnlyNan = LLVM::AndOp::create(
          b, loc, rhsNan,
          LLVM::XOrOp::create(b, loc, lhsNan, createI1(b, loc, true)));
      Value ordered = cmp(isMax ? LLVM::FCmpPredicate::ogt
                                : LLVM::FCmpPredicate::olt,
                          rhs.value, lhs.value);
      better = LLVM::OrOp::create(b, loc, ordered, rhsOnlyNan);
      equal = LLVM::OrOp::create(
          b, loc, cmp(LLVM::FCmpPredicate::oeq, rhs.value, lhs.value),
          LLVM::AndOp::create(b, loc, lhsNan, rhsNan));
    } else {
      better = LLVM::ICmpOp::create(
          b, loc, isMax ? LLVM::ICmpPredicate::sgt : LLVM::ICmpPredicate::slt,
          rhs.value, lhs.value);
      equal = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, rhs.value,
                                   lhs.value);
    }
    Value smaller = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::slt,
                                         rhs.index, lhs.index);
    Value takeRhs = LLVM::OrOp::create(
        b, loc, better, LLVM::AndOp::create(b, loc, equal, smaller));
    return {LLVM::SelectOp::create(b, loc, takeRhs, rhs.value, lhs.value),
            LLVM::SelectOp::create(b, loc, takeRhs, rhs.index, lhs.index)};
  }

  /// Combines `parts` pairwise in a tree: log2 depth instead of a chain,
  /// so independent combines overlap.
  Partial combineTree(OpBuilder &b, Location loc,
                      SmallVector<Partial> parts) const {
    assert(!parts.empty());
    while (parts.size() > 1) {
      SmallVector<Partial> next;
      for (size_t i = 0; i + 1 < parts.size(); i += 2)
        next.push_back(combine(b, loc, parts[i], parts[i + 1]));
      if (parts.size() % 2)
        next.push_back(parts.back());
      parts = std::move(next);
    }
    return parts[0];
  }

private:
  CombineKind getCombineKind() const {
    switch (kind) {
    case tk::ReduceKind::Sum:
      return CombineKind::Sum;
    case tk::ReduceKind::Max:
      return CombineKind::Max;
    case tk::ReduceKind::Min:
      return CombineKind::Min;
    case tk::ReduceKind::UMax:
      return CombineKind::UMax;
    case tk::ReduceKind::UMin:
      return CombineKind::UMin;
    case tk::ReduceKind::And:
      return CombineKind::And;
    case tk::ReduceKind::Or:
      return CombineKind::Or;
    case tk::ReduceKind::Xor:
      return CombineKind::Xor;
    default:
      llvm_unreachable("arg reductions combine pairs");
    }
  }

  tk::ReduceKind kind;
};

// sliceLayout: compiler/analysis/ScratchSize.h.

/// Whether every basis moving along `axis` moves along it alone.
static bool isAxisSeparable(const LinearLayout &layout, unsigned axis) {
  for (const char *inDim : {kRegister, kLane, kWarp})
    for (int32_t bit = 0, e = getInBits(layout, inDim); bit < e; ++bit) {
      SmallVector<int32_t> basis = getBasisOrZero(layout, inDim, bit);
      if (basis[axis] == 0)
        continue;
      for (unsigned d = 0; d < basis.size(); ++d)
        if (d != axis && basis[d] != 0)
          return false;
    }
  return true;
}

struct ReduceConversion : public OpConversionPattern<tk::ReduceOp> {
  ReduceConversion(TkgpuToLlvmTypeConverter &converter, LoweringState &state)
      : OpConversionPattern(converter, &converter.getContext()),
        state(state) {}

  LogicalResult
  matchAndRewrite(tk::ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    unsigned axis = op.getAxis();
    LinearLayout layout = getDistributedLayout(srcType);
    if (!isAxisSeparable(layout, axis))
      return rewriter.notifyMatchFailure(
          op, "layout mixes the reduced axis with other dimensions");
    Combiner combiner(op.getKind());
    Type elementType = getTypeConverter()->convertType(srcType.getElementType());

    // Which partial (register of the sliced layout) each register feeds.
    SmallVector<int64_t> resultShape(srcType.getShape());
    resultShape.erase(resultShape.begin() + axis);
    SmallVector<int64_t> slicedShape(resultShape);
    if (slicedShape.empty())
      slicedShape.push_back(1);
    LinearLayout sliced = sliceLayout(layout, axis, slicedShape);
    std::map<SmallVector<int32_t>, unsigned> partialOf;
    for (int32_t g = 0, e = sliced.getInDimSize(kRegister); g < e; ++g)
      partialOf.emplace(getRegisterIndex(sliced, g), g);
    SmallVector<unsigned> partialOfRegister;
    for (int32_t r = 0, e = layout.getInDimSize(kRegister); r < e; ++r) {
      SmallVector<int32_t> key = getRegisterIndex(layout, r);
      key.erase(key.begin() + axis);
      if (key.empty())
        key.push_back(0); // the size-1 dimension of a full reduction
      auto it = partialOf.find(key);
      if (it == partialOf.end())
        return rewriter.notifyMatchFailure(
            op, "registers do not map onto the sliced layout");
      partialOfRegister.push_back(it->second);
    }

    SmallVector<Value> values = unpackValues(rewriter, loc, adaptor.getSrc());
    auto [lane, warp] = getLaneAndWarp(rewriter, loc, state.threadsPerWarp);
    Value threadAxis;
    if (combiner.isArg())
      threadAxis = emitThreadIndex(rewriter, loc, layout, lane, warp)[axis];

    // 1. Within the thread: one partial per slice element.
    SmallVector<SmallVector<Partial>> members(sliced.getInDimSize(kRegister));
    for (unsigned r = 0; r < values.size(); ++r) {
      Partial p{values[r], {}};
      if (combiner.isArg())
        p.index = combineIndex(rewriter, loc, layout, axis,
                               getRegisterIndex(layout, r)[axis], threadAxis);
      members[partialOfRegister[r]].push_back(p);
    }
    SmallVector<Partial> partials;
    for (auto &group : members)
      partials.push_back(combiner.combineTree(rewriter, loc, group));

    // 2. Across the lanes along the axis.
    for (int32_t bit = 0, e = getInBits(layout, kLane); bit < e; ++bit) {
      if (getBasisOrZero(layout, kLane, bit)[axis] == 0)
        continue;
      for (Partial &p : partials) {
        Partial other{shuffleXor(rewriter, loc, p.value, 1u << bit), {}};
        if (p.index)
          other.index = shuffleXor(rewriter, loc, p.index, 1u << bit);
        p = combiner.combine(rewriter, loc, p, other);
      }
    }

    // 3. Across the warps along the axis.
    SmallVector<int32_t> warpAxisBits;
    for (int32_t bit = 0, e = getInBits(layout, kWarp); bit < e; ++bit)
      if (getBasisOrZero(layout, kWarp, bit)[axis] != 0)
        warpAxisBits.push_back(bit);
    if (!warpAxisBits.empty())
      combineAcrossWarps(rewriter, loc, combiner, layout, sliced, slicedShape,
                         axis, warpAxisBits, elementType, lane, warp,
                         getAllocatedOffset(op, kScratchOffsetAttr),
                         partials);

    SmallVector<Value> results;
    for (Partial &p : partials)
      results.push_back(combiner.isArg() ? p.index : p.value);
    auto resultType = dyn_cast<RankedTensorType>(op.getType());
    if (!resultType) {
      assert(results.size() == 1 && "a full reduction has one partial");
      rewriter.replaceOp(op, results[0]);
      return success();
    }
    LinearLayout resultLayout = getDistributedLayout(resultType);
    // The conversion reuses the scratch the warps' partials were read from.
    if (!warpAxisBits.empty() &&
        getConversionScratchBytes(
            sliced, resultLayout, resultShape,
            getMemoryBitWidth(resultType.getElementType()) / 8) != 0)
      createBarrier(rewriter, loc);
    results = convertDistributed(rewriter, loc, state, results, sliced,
                                 resultLayout, resultShape,
                                 resultType.getElementType(),
                                 getAllocatedOffset(op, kScratchOffsetAttr));
    rewriter.replaceOp(op, packValues(rewriter, loc,
                                      getTypeConverter()->convertType(
                                          resultType),
                                      results));
    return success();
  }

  /// Step 3: partials of the warps along the axis meet in shared memory at
  /// slot (k, e) = k * numSliceElements + e for the k-th warp along the axis
  /// and slice element e (row-major); a warp's writes are consecutive.
  void combineAcrossWarps(ConversionPatternRewriter &rewriter, Location loc,
                          const Combiner &combiner, const LinearLayout &layout,
                          const LinearLayout &sliced,
                          ArrayRef<int64_t> resultShape,
                          unsigned axis, ArrayRef<int32_t> warpAxisBits,
                          Type elementType, Value lane, Value warp,
                          int64_t scratchOffset,
                          SmallVectorImpl<Partial> &partials) const {
    int64_t numWarpsAlongAxis = int64_t(1) << warpAxisBits.size();
    int64_t numSliceElements = 1;
    for (int64_t s : resultShape)
      numSliceElements *= s;
    bool isBool = elementType.isInteger(1);
    Type memoryType = isBool ? rewriter.getI8Type() : elementType;
    unsigned elementBytes = getMemoryBitWidth(elementType) / 8;
    ReduceWarpScratch scratch = getReduceWarpScratch(
        numWarpsAlongAxis, numSliceElements, elementBytes, combiner.isArg());
    int64_t indexOffset = scratch.indexOffset; // from the scratch base
    state.requireSharedBytes(scratchOffset + scratch.bytes);

    // This warp's position along the axis.
    Value warpAlongAxis = createI32(rewriter, loc, 0);
    for (auto [k, bit] : llvm::enumerate(warpAxisBits)) {
      Value masked = LLVM::AndOp::create(rewriter, loc, warp,
                                         createI32(rewriter, loc, 1 << bit));
      int shift = static_cast<int>(k) - bit;
      Value term =
          shift >= 0
              ? LLVM::ShlOp::create(rewriter, loc, masked,
                                    createI32(rewriter, loc, shift))
                    .getResult()
              : LLVM::LShrOp::create(rewriter, loc, masked,
                                     createI32(rewriter, loc, -shift))
                    .getResult();
      warpAlongAxis = LLVM::OrOp::create(rewriter, loc, warpAlongAxis, term);
    }

    // One writer per warp and slice element: lanes along the axis hold the
    // same partial now, and lanes/warps with zero bases replicate data.
    auto isZero = [](ArrayRef<int32_t> basis) {
      return llvm::all_of(basis, [](int32_t c) { return c == 0; });
    };
    int32_t laneSkip = 0, warpSkip = 0;
    for (int32_t bit = 0, e = getInBits(layout, kLane); bit < e; ++bit) {
      SmallVector<int32_t> basis = getBasisOrZero(layout, kLane, bit);
      if (basis[axis] != 0 || isZero(basis))
        laneSkip |= 1 << bit;
    }
    for (int32_t bit = 0, e = getInBits(layout, kWarp); bit < e; ++bit)
      if (isZero(getBasisOrZero(layout, kWarp, bit)))
        warpSkip |= 1 << bit;
    Value writer;
    for (auto [value, skip] : {std::pair<Value, int32_t>{lane, laneSkip},
                               {warp, warpSkip}}) {
      if (!skip)
        continue;
      Value bits = LLVM::AndOp::create(rewriter, loc, value,
                                       createI32(rewriter, loc, skip));
      writer = createAnd(rewriter, loc, writer,
                         LLVM::ICmpOp::create(rewriter, loc,
                                              LLVM::ICmpPredicate::eq, bits,
                                              createI32(rewriter, loc, 0)));
    }

    // Row-major position of each partial's slice element.
    SmallVector<Value> sliceThread =
        emitThreadIndex(rewriter, loc, sliced, lane, warp);
    SharedView rowMajor = SharedView::rowMajor(resultShape);
    SmallVector<Value> positions;
    for (unsigned g = 0; g < partials.size(); ++g) {
      SmallVector<int32_t> regIndex = getRegisterIndex(sliced, g);
      Value position = createI32(rewriter, loc, 0);
      for (unsigned d = 0; d < regIndex.size(); ++d) {
        Value index =
            combineIndex(rewriter, loc, sliced, d, regIndex[d], sliceThread[d]);
        position = LLVM::AddOp::create(
            rewriter, loc, position,
            LLVM::MulOp::create(rewriter, loc, index,
                                createI32(rewriter, loc, rowMajor.strides[d])));
      }
      positions.push_back(position);
    }

    auto ptrType = LLVM::LLVMPointerType::get(rewriter.getContext(), 3);
    Value base = getSharedMemoryBase(rewriter, loc, state.module);
    if (scratchOffset != 0)
      base = LLVM::GEPOp::create(
          rewriter, loc, ptrType, rewriter.getI8Type(), base,
          ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(scratchOffset)});
    Value indexBase = LLVM::GEPOp::create(
        rewriter, loc, ptrType, rewriter.getI8Type(), base,
        ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(indexOffset)});
    Type i32 = rewriter.getI32Type();
    auto slotPtr = [&](Value regionBase, Type type, Value slot) {
      return LLVM::GEPOp::create(rewriter, loc, ptrType, type, regionBase,
                                 ArrayRef<LLVM::GEPArg>{slot})
          .getResult();
    };
    Value warpOffset =
        LLVM::MulOp::create(rewriter, loc, warpAlongAxis,
                            createI32(rewriter, loc, numSliceElements));

    for (unsigned g = 0; g < partials.size(); ++g) {
      Value slot = LLVM::AddOp::create(rewriter, loc, warpOffset, positions[g]);
      Value v = partials[g].value;
      if (isBool)
        v = LLVM::ZExtOp::create(rewriter, loc, memoryType, v);
      auto store = [&](Value ptr, Value value, unsigned bytes) {
        if (writer)
          storeSharedPredicated(rewriter, loc, ptr, {value}, writer);
        else
          LLVM::StoreOp::create(rewriter, loc, value, ptr, bytes);
      };
      store(slotPtr(base, memoryType, slot), v, elementBytes);
      if (combiner.isArg())
        store(slotPtr(indexBase, i32, slot), partials[g].index, 4);
    }
    createBarrier(rewriter, loc);

    for (unsigned g = 0; g < partials.size(); ++g) {
      SmallVector<Partial> perWarp;
      for (int64_t k = 0; k < numWarpsAlongAxis; ++k) {
        Value slot = LLVM::AddOp::create(
            rewriter, loc, positions[g],
            createI32(rewriter, loc, k * numSliceElements));
        Partial p;
        p.value = LLVM::LoadOp::create(rewriter, loc, memoryType,
                                       slotPtr(base, memoryType, slot),
                                       elementBytes);
        if (isBool)
          p.value = LLVM::ICmpOp::create(
              rewriter, loc, LLVM::ICmpPredicate::ne, p.value,
              createIntConstant(rewriter, loc, memoryType, 0));
        if (combiner.isArg())
          p.index = LLVM::LoadOp::create(rewriter, loc, i32,
                                         slotPtr(indexBase, i32, slot), 4);
        perWarp.push_back(p);
      }
      partials[g] = combiner.combineTree(rewriter, loc, perWarp);
    }
  }

  LoweringState &state;
};

} // namespace

void tkgpu::populateReduceOpToLlvmPatterns(TkgpuToLlvmTypeConverter &converter,
                                           LoweringState &state,
                                           RewritePatternSet &patterns) {
  patterns.add<ReduceConversion>(converter, state);
}
