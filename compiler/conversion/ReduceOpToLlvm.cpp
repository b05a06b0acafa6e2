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
// the smaller index, and NaN is larger than everything (numpy). `combine`
// carries one value per operand and calls the combiner region (its ops
// cloned, CombinerRegion.h) wherever a named kind emits its one combine:
// the fixed kinds keep their own code because argmax's hidden index and
// the NaN rules have no user-visible region, and stay as fast as before.
//
//===----------------------------------------------------------------------===//
#include "compiler/conversion/CombinerRegion.h"
#include "compiler/conversion/PatternSets.h"

#include "dialects/tk/TkDialect.h"
#include "dialects/tkgpu/TkgpuDialect.h"

#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/MathExtras.h"

#include <map>

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

/// A partial result: the carried values (the value, plus its index along
/// the axis for argmax / argmin; one value per operand for `combine`).
using Partial = SmallVector<Value, 2>;

class Combiner {
public:
  explicit Combiner(tk::ReduceOp op)
      : kind(op.getKind()),
        combiner(kind == tk::ReduceKind::Combine ? &op.getCombiner()
                                                 : nullptr) {}

  bool isArg() const {
    return kind == tk::ReduceKind::ArgMax || kind == tk::ReduceKind::ArgMin;
  }

  Partial combine(OpBuilder &b, Location loc, const Partial &lhs,
                  const Partial &rhs) const {
    if (combiner)
      return Partial(inlineCombiner(b, *combiner, lhs, rhs));
    if (!isArg())
      return {emitCombine(b, loc, getCombineKind(), lhs[0], rhs[0])};
    // Take rhs when it is better, or equal with a smaller index.
    bool isMax = kind == tk::ReduceKind::ArgMax;
    Value better, equal;
    if (isa<FloatType>(lhs[0].getType())) {
      auto cmp = [&](LLVM::FCmpPredicate p, Value x, Value y) {
        return LLVM::FCmpOp::create(b, loc, p, x, y).getResult();
      };
      Value lhsNan = cmp(LLVM::FCmpPredicate::uno, lhs[0], lhs[0]);
      Value rhsNan = cmp(LLVM::FCmpPredicate::uno, rhs[0], rhs[0]);
      Value rhsOnlyNan = LLVM::AndOp::create(
          b, loc, rhsNan,
          LLVM::XOrOp::create(b, loc, lhsNan, createI1(b, loc, true)));
      Value ordered = cmp(isMax ? LLVM::FCmpPredicate::ogt
                                : LLVM::FCmpPredicate::olt,
                          rhs[0], lhs[0]);
      better = LLVM::OrOp::create(b, loc, ordered, rhsOnlyNan);
      equal = LLVM::OrOp::create(
          b, loc, cmp(LLVM::FCmpPredicate::oeq, rhs[0], lhs[0]),
          LLVM::AndOp::create(b, loc, lhsNan, rhsNan));
    } else {
      better = LLVM::ICmpOp::create(
          b, loc, isMax ? LLVM::ICmpPredicate::sgt : LLVM::ICmpPredicate::slt,
          rhs[0], lhs[0]);
      equal = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, rhs[0],
                                   lhs[0]);
    }
    Value smaller = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::slt,
                                         rhs[1], lhs[1]);
    Value takeRhs = LLVM::OrOp::create(
        b, loc, better, LLVM::AndOp::create(b, loc, equal, smaller));
    return {LLVM::SelectOp::create(b, loc, takeRhs, rhs[0], lhs[0]),
            LLVM::SelectOp::create(b, loc, takeRhs, rhs[1], lhs[1])};
  }

  /// Combines `parts` pairwise in a tree: log2 depth instead of a chain,
  /// so independent combines overlap. Neighbours meet in order (the lower
  /// index on the left).
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

  /// The op's results from a final partial.
  SmallVector<Value> getResults(const Partial &p) const {
    if (isArg())
      return {p[1]};
    return SmallVector<Value>(p.begin(), p.end());
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
      llvm_unreachable("arg reductions and combine regions carry tuples");
    }
  }

  tk::ReduceKind kind;
  Region *combiner;
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
    auto srcType = cast<RankedTensorType>(op.getSrcs()[0].getType());
    unsigned axis = op.getAxis();
    LinearLayout layout = getDistributedLayout(srcType);
    for (Value src : op.getSrcs())
      if (getDistributedLayout(src.getType()) != layout)
        return op.emitOpError("operands in different layouts are not "
                              "supported by the GPU lowering");
    if (!isAxisSeparable(layout, axis))
      return rewriter.notifyMatchFailure(
          op, "layout mixes the reduced axis with other dimensions");
    if (op.getKind() == tk::ReduceKind::Combine &&
        !isInlinableCombiner(op.getCombiner()))
      return op.emitOpError("a combine function with run-time control flow "
                            "is not supported by the GPU lowering; use "
                            "where() instead of `if`");
    Combiner combiner(op);
    // The element types of the carried values, as the lowering sees them.
    SmallVector<Type> carriedTypes;
    for (Type type : getReduceCarriedTypes(op))
      carriedTypes.push_back(getTypeConverter()->convertType(type));

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

    SmallVector<SmallVector<Value>> values;
    for (Value src : adaptor.getSrcs())
      values.push_back(unpackValues(rewriter, loc, src));
    auto [lane, warp] = getLaneAndWarp(rewriter, loc, state.threadsPerWarp);
    Value threadAxis;
    if (combiner.isArg())
      threadAxis = emitThreadIndex(rewriter, loc, layout, lane, warp)[axis];

    // 1. Within the thread: one partial per slice element.
    SmallVector<SmallVector<Partial>> members(sliced.getInDimSize(kRegister));
    for (unsigned r = 0; r < values[0].size(); ++r) {
      Partial p;
      for (auto &operand : values)
        p.push_back(operand[r]);
      if (combiner.isArg())
        p.push_back(combineIndex(rewriter, loc, layout, axis,
                                 getRegisterIndex(layout, r)[axis],
                                 threadAxis));
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
        Partial other;
        for (Value v : p)
          other.push_back(shuffleXor(rewriter, loc, v, 1u << bit));
        p = combiner.combine(rewriter, loc, p, other);
      }
    }

    // 3. Across the warps along the axis.
    SmallVector<int32_t> warpAxisBits;
    for (int32_t bit = 0, e = getInBits(layout, kWarp); bit < e; ++bit)
      if (getBasisOrZero(layout, kWarp, bit)[axis] != 0)
        warpAxisBits.push_back(bit);
    int64_t scratchOffset = getAllocatedOffset(op, kScratchOffsetAttr);
    if (!warpAxisBits.empty())
      combineAcrossWarps(rewriter, loc, combiner, layout, sliced, slicedShape,
                         axis, warpAxisBits, carriedTypes, lane, warp,
                         scratchOffset, partials);

    // Result k of every slice element, then each result in its layout.
    SmallVector<SmallVector<Value>> results(op.getNumResults());
    for (Partial &p : partials)
      for (auto [k, value] : llvm::enumerate(combiner.getResults(p)))
        results[k].push_back(value);
    ScratchPlanes planes =
        getResultConversionScratch(op, sliced, resultShape);
    // The conversions reuse the scratch the warps' partials were read from.
    if (!warpAxisBits.empty() && planes.bytes != 0)
      createBarrier(rewriter, loc);
    SmallVector<Value> replacements;
    for (auto [k, result] : llvm::enumerate(op.getResults())) {
      auto resultType = dyn_cast<RankedTensorType>(result.getType());
      if (!resultType) {
        assert(results[k].size() == 1 && "a full reduction has one partial");
        replacements.push_back(results[k][0]);
        continue;
      }
      SmallVector<Value> converted = convertDistributed(
          rewriter, loc, state, results[k], sliced,
          getDistributedLayout(resultType), resultShape,
          resultType.getElementType(), scratchOffset + planes.offsets[k]);
      replacements.push_back(packValues(
          rewriter, loc, getTypeConverter()->convertType(resultType),
          converted));
    }
    rewriter.replaceOp(op, replacements);
    return success();
  }

  /// Step 3: partials of the warps along the axis meet in shared memory at
  /// slot (k, e) = k * numSliceElements + e for the k-th warp along the axis
  /// and slice element e (row-major); a warp's writes are consecutive. Each
  /// carried value has a plane of its own (getReduceWarpScratch).
  void combineAcrossWarps(ConversionPatternRewriter &rewriter, Location loc,
                          const Combiner &combiner, const LinearLayout &layout,
                          const LinearLayout &sliced,
                          ArrayRef<int64_t> resultShape,
                          unsigned axis, ArrayRef<int32_t> warpAxisBits,
                          ArrayRef<Type> carriedTypes, Value lane, Value warp,
                          int64_t scratchOffset,
                          SmallVectorImpl<Partial> &partials) const {
    int64_t numWarpsAlongAxis = int64_t(1) << warpAxisBits.size();
    int64_t numSliceElements = 1;
    for (int64_t s : resultShape)
      numSliceElements *= s;
    SmallVector<unsigned> elementBytes;
    SmallVector<Type> memoryTypes;
    for (Type type : carriedTypes) {
      elementBytes.push_back(getMemoryBitWidth(type) / 8);
      memoryTypes.push_back(type.isInteger(1) ? rewriter.getI8Type() : type);
    }
    ScratchPlanes scratch = getReduceWarpScratch(
        numWarpsAlongAxis, numSliceElements, elementBytes);
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
    SmallVector<Value> planeBases;
    for (int64_t offset : scratch.offsets)
      planeBases.push_back(
          offset == 0 ? base
                      : LLVM::GEPOp::create(
                            rewriter, loc, ptrType, rewriter.getI8Type(),
                            base,
                            ArrayRef<LLVM::GEPArg>{
                                static_cast<int32_t>(offset)})
                            .getResult());
    auto slotPtr = [&](unsigned plane, Value slot) {
      return LLVM::GEPOp::create(rewriter, loc, ptrType, memoryTypes[plane],
                                 planeBases[plane],
                                 ArrayRef<LLVM::GEPArg>{slot})
          .getResult();
    };
    Value warpOffset =
        LLVM::MulOp::create(rewriter, loc, warpAlongAxis,
                            createI32(rewriter, loc, numSliceElements));

    for (unsigned g = 0; g < partials.size(); ++g) {
      Value slot = LLVM::AddOp::create(rewriter, loc, warpOffset, positions[g]);
      for (unsigned plane = 0; plane < partials[g].size(); ++plane) {
        Value v = partials[g][plane];
        if (carriedTypes[plane].isInteger(1))
          v = LLVM::ZExtOp::create(rewriter, loc, memoryTypes[plane], v);
        Value ptr = slotPtr(plane, slot);
        if (writer)
          storeSharedPredicated(rewriter, loc, ptr, {v}, writer);
        else
          LLVM::StoreOp::create(rewriter, loc, v, ptr, elementBytes[plane]);
      }
    }
    createBarrier(rewriter, loc);

    for (unsigned g = 0; g < partials.size(); ++g) {
      SmallVector<Partial> perWarp;
      for (int64_t k = 0; k < numWarpsAlongAxis; ++k) {
        Value slot = LLVM::AddOp::create(
            rewriter, loc, positions[g],
            createI32(rewriter, loc, k * numSliceElements));
        Partial p;
        for (unsigned plane = 0; plane < carriedTypes.size(); ++plane) {
          Value v = LLVM::LoadOp::create(rewriter, loc, memoryTypes[plane],
                                         slotPtr(plane, slot),
                                         elementBytes[plane]);
          if (carriedTypes[plane].isInteger(1))
            v = LLVM::ICmpOp::create(
                rewriter, loc, LLVM::ICmpPredicate::ne, v,
                createIntConstant(rewriter, loc, memoryTypes[plane], 0));
          p.push_back(v);
        }
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
