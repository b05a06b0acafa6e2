//===- ScanOpToLlvm.cpp - tk.scan (inclusive prefix scans) ----------------===//
//
// A Hillis-Steele scan over the bits of the axis index, lowest bit first.
// After level j every element holds the scan of its aligned block of 2^(j+1)
// elements: elements whose bit j is set add the total of the lower half,
// which the element (bit j clear, lower bits all set) holds. Where that
// partner lives follows from the LinearLayout: each axis bit is owned by a
// register, lane or warp bit, so the partner is another register of the
// same thread, a register of another lane (shfl.sync.idx), or, when warp
// bits are involved, an element in shared memory. Reverse scans mirror the
// roles (bit j clear takes from bit j set, lower bits clear).
//
// `combine` scans N operands together: every step moves N values (one
// shared-memory plane each when warps are involved) and calls the combiner
// region (CombinerRegion.h) with the partner on the left going forward, and
// on the left going backward too (the partner holds the later elements:
// Triton's reverse scan is flip, scan, flip). Associativity is enough; the
// order of the operands is kept.
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

/// The input bit owning one bit of the axis index.
struct AxisBitOwner {
  const char *inDim;
  int32_t bit;
};

static CombineKind getCombineKind(tk::ScanKind kind) {
  switch (kind) {
  case tk::ScanKind::Sum:
    return CombineKind::Sum;
  case tk::ScanKind::Prod:
    return CombineKind::Prod;
  case tk::ScanKind::Max:
    return CombineKind::Max;
  case tk::ScanKind::Min:
    return CombineKind::Min;
  case tk::ScanKind::Combine:
    break;
  }
  llvm_unreachable("unknown scan kind");
}

struct ScanConversion : public OpConversionPattern<tk::ScanOp> {
  ScanConversion(TkgpuToLlvmTypeConverter &converter, LoweringState &state)
      : OpConversionPattern(converter, &converter.getContext()),
        state(state) {}

  LogicalResult
  matchAndRewrite(tk::ScanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getSrcs()[0].getType());
    unsigned axis = op.getAxis();
    bool reverse = op.getReverse();
    Region *combiner = op.getKind() == tk::ScanKind::Combine
                           ? &op.getCombiner()
                           : nullptr;
    if (combiner && !isInlinableCombiner(*combiner))
      return op.emitOpError("a combine function with run-time control flow "
                            "is not supported by the GPU lowering; use "
                            "where() instead of `if`");
    LinearLayout layout = getDistributedLayout(type);
    for (Value src : op.getSrcs())
      if (getDistributedLayout(src.getType()) != layout)
        return op.emitOpError("operands in different layouts are not "
                              "supported by the GPU lowering");
    // combine(earlier, later) for the named kinds (all commutative).
    auto combine = [&](ArrayRef<Value> partner,
                       ArrayRef<Value> own) -> SmallVector<Value> {
      if (combiner)
        return inlineCombiner(rewriter, *combiner, partner, own);
      CombineKind kind = getCombineKind(op.getKind());
      return {reverse ? emitCombine(rewriter, loc, kind, own[0], partner[0])
                      : emitCombine(rewriter, loc, kind, partner[0], own[0])};
    };
    int32_t axisBits = llvm::Log2_64(type.getShape()[axis]);

    // Each axis bit must be owned by exactly one input bit moving along the
    // axis alone.
    SmallVector<AxisBitOwner> owners(axisBits, {nullptr, 0});
    for (const char *inDim : {kRegister, kLane, kWarp})
      for (int32_t bit = 0, e = getInBits(layout, inDim); bit < e; ++bit) {
        SmallVector<int32_t> basis = getBasisOrZero(layout, inDim, bit);
        if (basis[axis] == 0)
          continue;
        for (unsigned d = 0; d < basis.size(); ++d)
          if (d != axis && basis[d] != 0)
            return rewriter.notifyMatchFailure(
                op, "layout mixes the scanned axis with other dimensions");
        if (!llvm::isPowerOf2_32(basis[axis]))
          return rewriter.notifyMatchFailure(op, "unsupported scan layout");
        owners[llvm::Log2_32(basis[axis])] = {inDim, bit};
      }
    for (const AxisBitOwner &owner : owners)
      if (!owner.inDim)
        return rewriter.notifyMatchFailure(op, "axis not covered by layout");

    // values[i][r]: register r of operand i.
    unsigned numOperands = op.getNumOperands();
    SmallVector<SmallVector<Value>> values;
    SmallVector<Type> tensorElements, elementTypes;
    for (Value src : adaptor.getSrcs())
      values.push_back(unpackValues(rewriter, loc, src));
    for (Value src : op.getSrcs()) {
      tensorElements.push_back(getElementTypeOrSelf(src.getType()));
      elementTypes.push_back(
          getTypeConverter()->convertType(tensorElements.back()));
    }
    auto [lane, warp] = getLaneAndWarp(rewriter, loc, state.threadsPerWarp);
    SmallVector<SmallVector<Value>> indices;
    int64_t scratchOffset = getAllocatedOffset(op, kScratchOffsetAttr);
    // One row-major plane per operand (getScanScratchBytes).
    SmallVector<int64_t> planeSizes;
    for (Type element : tensorElements)
      planeSizes.push_back(getRowMajorBytes(type.getShape(), 0,
                                            getScratchElementBytes(element)));
    ScratchPlanes planes = getScratchPlanes(planeSizes);
    SmallVector<SharedView> views;
    for (unsigned i = 0; i < numOperands; ++i) {
      views.push_back(SharedView::rowMajor(type.getShape()));
      views.back().byteOffset = scratchOffset + planes.offsets[i];
    }
    // Whether a level already used the scratch: the next write must wait
    // for its reads (the first one is tkgpu-membar's).
    bool usedScratch = false;

    for (int32_t j = 0; j < axisBits; ++j) {
      AxisBitOwner owner = owners[j];
      // Input bits owning the axis bits below j, per input dimension.
      int32_t lowerReg = 0, lowerLane = 0, lowerWarp = 0;
      for (int32_t k = 0; k < j; ++k) {
        int32_t mask = 1 << owners[k].bit;
        if (owners[k].inDim == kRegister)
          lowerReg |= mask;
        else if (owners[k].inDim == kLane)
          lowerLane |= mask;
        else
          lowerWarp |= mask;
      }
      int32_t ownerMask = 1 << owner.bit;
      bool ownerIsReg = owner.inDim == kRegister;
      bool ownerIsLane = owner.inDim == kLane;
      bool ownerIsWarp = owner.inDim == kWarp;
      // Forward: partner has bit j clear and lower bits set; reverse: bit j
      // set and lower bits clear.
      auto partnerBits = [&](int32_t bits, int32_t lower, bool owns) {
        if (!reverse)
          return (bits | lower) & ~(owns ? ownerMask : 0);
        return (bits & ~lower) | (owns ? ownerMask : 0);
      };

      SmallVector<SmallVector<Value>> old = values;
      bool viaWarps = lowerWarp != 0 || ownerIsWarp;
      bool viaLanes = lowerLane != 0 || ownerIsLane;

      Value partnerLane;
      if (!viaWarps && viaLanes) {
        Value bits = lane;
        if (int32_t set = reverse ? (ownerIsLane ? ownerMask : 0)
                                  : lowerLane)
          bits = LLVM::OrOp::create(rewriter, loc, bits,
                                    createI32(rewriter, loc, set));
        if (int32_t clear = reverse ? lowerLane : (ownerIsLane ? ownerMask : 0))
          bits = LLVM::AndOp::create(rewriter, loc, bits,
                                     createI32(rewriter, loc, ~clear));
        partnerLane = bits;
      }
      if (viaWarps) {
        if (indices.empty())
          indices = emitIndices(rewriter, loc, layout, lane, warp);
        if (usedScratch)
          createBarrier(rewriter, loc);
        usedScratch = true;
        for (unsigned i = 0; i < numOperands; ++i)
          storeDistributed(rewriter, loc, state, old[i], layout,
                           type.getShape(), views[i], tensorElements[i], lane,
                           warp);
        createBarrier(rewriter, loc);
      }

      // Whether this thread's element of register r has bit j set: known
      // for register-owned bits, tested at run time otherwise.
      Value ownerBitSet;
      if (!ownerIsReg) {
        Value bits = LLVM::AndOp::create(rewriter, loc,
                                         ownerIsLane ? lane : warp,
                                         createI32(rewriter, loc, ownerMask));
        ownerBitSet = LLVM::ICmpOp::create(rewriter, loc,
                                           LLVM::ICmpPredicate::ne, bits,
                                           createI32(rewriter, loc, 0));
      }

      std::map<std::pair<unsigned, int32_t>, Value> shuffled;
      for (int32_t r = 0; r < static_cast<int32_t>(old[0].size()); ++r) {
        bool regBitSet = ownerIsReg && (r & ownerMask);
        if (ownerIsReg && regBitSet == reverse)
          continue; // not a target: keeps its value
        int32_t partnerReg = partnerBits(r, lowerReg, ownerIsReg);
        SmallVector<Value> partner, own;
        for (unsigned i = 0; i < numOperands; ++i)
          own.push_back(old[i][r]);
        if (viaWarps) {
          // Partner index: this element's with the axis coordinate moved.
          int32_t lowMask = (1 << j) - 1;
          Value a = indices[r][axis];
          if (!reverse) {
            a = LLVM::OrOp::create(rewriter, loc, a,
                                   createI32(rewriter, loc, lowMask));
            a = LLVM::AndOp::create(rewriter, loc, a,
                                    createI32(rewriter, loc, ~(1 << j)));
          } else {
            a = LLVM::AndOp::create(rewriter, loc, a,
                                    createI32(rewriter, loc, ~lowMask));
            a = LLVM::OrOp::create(rewriter, loc, a,
                                   createI32(rewriter, loc, 1 << j));
          }
          Value offset = createI32(rewriter, loc, 0);
          for (unsigned d = 0; d < indices[r].size(); ++d) {
            Value index = d == axis ? a : indices[r][d];
            offset = LLVM::AddOp::create(
                rewriter, loc, offset,
                LLVM::MulOp::create(rewriter, loc, index,
                                    createI32(rewriter, loc,
                                              views[0].strides[d])));
          }
          for (unsigned i = 0; i < numOperands; ++i)
            partner.push_back(loadElement(rewriter, loc, views[i].byteOffset,
                                          offset, tensorElements[i],
                                          elementTypes[i]));
        } else if (viaLanes) {
          for (unsigned i = 0; i < numOperands; ++i) {
            Value &cached = shuffled[{i, partnerReg}];
            if (!cached)
              cached =
                  shuffleIdx(rewriter, loc, old[i][partnerReg], partnerLane);
            partner.push_back(cached);
          }
        } else {
          for (unsigned i = 0; i < numOperands; ++i)
            partner.push_back(old[i][partnerReg]);
        }
        SmallVector<Value> combined = combine(partner, own);
        Value isTarget;
        if (!ownerIsReg) {
          isTarget = ownerBitSet;
          if (reverse)
            isTarget = LLVM::XOrOp::create(rewriter, loc, ownerBitSet,
                                           createI1(rewriter, loc, true));
        }
        for (unsigned i = 0; i < numOperands; ++i)
          values[i][r] = ownerIsReg
                             ? combined[i]
                             : LLVM::SelectOp::create(rewriter, loc, isTarget,
                                                      combined[i], own[i])
                                   .getResult();
      }
    }

    ScratchPlanes conversions =
        getResultConversionScratch(op, layout, type.getShape());
    if (usedScratch && conversions.bytes != 0)
      createBarrier(rewriter, loc);
    SmallVector<Value> replacements;
    for (auto [i, result] : llvm::enumerate(op.getResults())) {
      auto resultType = cast<RankedTensorType>(result.getType());
      SmallVector<Value> converted = convertDistributed(
          rewriter, loc, state, values[i], layout,
          getDistributedLayout(resultType), resultType.getShape(),
          resultType.getElementType(),
          scratchOffset + conversions.offsets[i]);
      replacements.push_back(packValues(
          rewriter, loc, getTypeConverter()->convertType(resultType),
          converted));
    }
    rewriter.replaceOp(op, replacements);
    return success();
  }

  /// One element of the row-major scratch tensor.
  Value loadElement(OpBuilder &b, Location loc, int64_t scratchOffset,
                    Value offset, Type tensorElement, Type llvmElement) const {
    Type memoryType = getMemoryElementType(llvmElement);
    unsigned bytes = getMemoryBitWidth(tensorElement) / 8;
    auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), 3);
    Value base = getSharedMemoryBase(b, loc, state.module);
    if (scratchOffset != 0)
      base = LLVM::GEPOp::create(
          b, loc, ptrType, b.getI8Type(), base,
          ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(scratchOffset)});
    Value ptr = LLVM::GEPOp::create(b, loc, ptrType, memoryType, base,
                                    ArrayRef<LLVM::GEPArg>{offset});
    Value v = LLVM::LoadOp::create(b, loc, memoryType, ptr, bytes);
    if (llvmElement.isInteger(1))
      v = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, v,
                               createIntConstant(b, loc, memoryType, 0));
    return v;
  }

  LoweringState &state;
};

} // namespace

void tkgpu::populateScanOpToLlvmPatterns(TkgpuToLlvmTypeConverter &converter,
                                         LoweringState &state,
                                         RewritePatternSet &patterns) {
  patterns.add<ScanConversion>(converter, state);
}
