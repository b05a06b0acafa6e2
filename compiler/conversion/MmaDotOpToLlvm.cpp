//===- MmaDotOpToLlvm.cpp - tk.dot with an #mma result: mma.sync ----------===//
//
// One nvvm.mma.sync per (M tile, N tile, K step) of the calling warp:
//   f16  m16n8k16, A/B as vector<2xf16>   bf16 m16n8k16, A/B as i32
//   tf32 m16n8k8,  A/B as i32 (f32 bits)  s8   m16n8k32, A/B as i32
// with f32 (s32 for s8, wrapping on overflow like the FMA path)
// accumulators. The registers come from the LinearLayouts, not from
// counted offsets: the dot_operand and mma layouts enumerate one
// instruction's fragment (PTX order, checked in test/unit/MmaLayoutTest.cpp)
// in their lowest register bits, so registers [i * n, (i + 1) * n) are
// instruction tile i, and the element that register i * n holds on lane 0
// of warp 0 names the tile: (m, k) for A, (k, n) for B, (m, n) for C. A
// C tile (m, n) accumulates A (m, k) * B (k, n) for every k, in increasing
// k. Each 32-bit operand word packs kWidth consecutive registers.
//
//===----------------------------------------------------------------------===//
#include "compiler/conversion/InstructionTiles.h"
#include "compiler/conversion/PatternSets.h"

#include "dialects/tkgpu/TkgpuDialect.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/MathExtras.h"

#include <map>

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

/// Whether the first `bits` register bases of `layout` and `tile` agree.
bool sameLowRegisterBases(const LinearLayout &layout, const LinearLayout &tile,
                          int32_t bits) {
  if (getInBits(layout, kRegister) < bits || getInBits(tile, kRegister) < bits)
    return false;
  for (int32_t b = 0; b < bits; ++b)
    if (getBasisOrZero(layout, kRegister, b) != getBasisOrZero(tile, kRegister, b))
      return false;
  return true;
}


struct MmaDotConversion : public OpConversionPattern<tk::DotOp> {
  MmaDotConversion(TkgpuToLlvmTypeConverter &converter, LoweringState &state)
      : OpConversionPattern(converter, &converter.getContext(),
                            /*benefit=*/2),
        state(state) {}

  LogicalResult
  matchAndRewrite(tk::DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto dType = cast<RankedTensorType>(op.getD().getType());
    auto mma = dyn_cast_or_null<MmaEncodingAttr>(dType.getEncoding());
    if (!mma)
      return rewriter.notifyMatchFailure(op, "result is not in #mma");
    auto aType = cast<RankedTensorType>(op.getA().getType());
    auto bType = cast<RankedTensorType>(op.getB().getType());
    auto aEnc = dyn_cast_or_null<DotOperandEncodingAttr>(aType.getEncoding());
    auto bEnc = dyn_cast_or_null<DotOperandEncodingAttr>(bType.getEncoding());
    if (!aEnc || !bEnc || aEnc.getOpIdx() != 0 || bEnc.getOpIdx() != 1 ||
        aEnc.getParent() != mma || bEnc.getParent() != mma)
      return op.emitError("mma dot: operands must have #dot_operand layouts "
                          "(opIdx 0 and 1) of the result's #mma layout");
    if (state.computeCapability < 80)
      return op.emitError("mma.sync m16n8k* needs sm_80 or newer");

    Location loc = op.getLoc();
    MLIRContext *ctx = getContext();
    Type element = aType.getElementType();
    Type llvmElement = getTypeConverter()->convertType(element);
    Type accElement = getTypeConverter()->convertType(dType.getElementType());
    NVVM::MMATypes ptxType;
    bool wordsAsVector = false;
    if (element.isF16()) {
      ptxType = NVVM::MMATypes::f16;
      wordsAsVector = true;
    } else if (element.isBF16()) {
      ptxType = NVVM::MMATypes::bf16;
    } else if (element.isF32()) {
      ptxType = NVVM::MMATypes::tf32;
    } else if (element.isInteger(8)) {
      ptxType = NVVM::MMATypes::s8;
    } else {
      return op.emitError("mma dot: unsupported operand type ") << element;
    }
    int32_t kWidth = aEnc.getKWidth();
    int32_t instrK = 8 * kWidth;
    int32_t aPerTile = 4 * kWidth, bPerTile = 2 * kWidth, cPerTile = 4;

    LinearLayout aLayout = getDistributedLayout(aType);
    LinearLayout bLayout = getDistributedLayout(bType);
    LinearLayout cLayout = getDistributedLayout(dType);
    // One instruction tile on one warp: its fragment order must be the
    // low register bits of the full layouts.
    auto oneWarp = MmaEncodingAttr::get(ctx, 2, {1, 1}, {16, 8});
    auto tileOf = [&](unsigned opIdx, ArrayRef<int64_t> shape) {
      return DotOperandEncodingAttr::get(ctx, opIdx, oneWarp, kWidth)
          .toLinearLayout(shape);
    };
    if (!sameLowRegisterBases(aLayout, tileOf(0, {16, instrK}),
                              llvm::Log2_32(aPerTile)) ||
        !sameLowRegisterBases(bLayout, tileOf(1, {instrK, 8}),
                              llvm::Log2_32(bPerTile)) ||
        !sameLowRegisterBases(cLayout, oneWarp.toLinearLayout({16, 8}),
                              llvm::Log2_32(cPerTile)))
      return op.emitError("mma dot: the block ")
             << aType.getShape()[0] << "x" << bType.getShape()[1] << "x"
             << aType.getShape()[1]
             << " does not hold whole m16n8k" << instrK << " tiles per warp";

    auto aTiles = getInstructionTiles(aLayout, aPerTile);
    auto bTiles = getInstructionTiles(bLayout, bPerTile);
    auto cTiles = getInstructionTiles(cLayout, cPerTile);
    SmallVector<int32_t> kSteps;
    for (auto &[key, tile] : aTiles)
      if (!llvm::is_contained(kSteps, key.second))
        kSteps.push_back(key.second);
    llvm::sort(kSteps);

    SmallVector<Value> a = unpackValues(rewriter, loc, adaptor.getA());
    SmallVector<Value> b = unpackValues(rewriter, loc, adaptor.getB());
    SmallVector<Value> acc = unpackValues(rewriter, loc, adaptor.getC());
    Type i32 = rewriter.getI32Type();
    auto wordVector = VectorType::get({kWidth}, llvmElement);
    // kWidth registers from `first` as one 32-bit operand.
    auto packWord = [&](ArrayRef<Value> regs, int32_t first) -> Value {
      if (kWidth == 1)
        return LLVM::BitcastOp::create(rewriter, loc, i32, regs[first]);
      Value vec = LLVM::UndefOp::create(rewriter, loc, wordVector);
      for (int32_t e = 0; e < kWidth; ++e)
        vec = LLVM::InsertElementOp::create(rewriter, loc, vec,
                                            regs[first + e],
                                            createI32(rewriter, loc, e));
      if (wordsAsVector)
        return vec;
      return LLVM::BitcastOp::create(rewriter, loc, i32, vec);
    };
    Type resultType = LLVM::LLVMStructType::getLiteral(
        ctx, SmallVector<Type>(cPerTile, accElement));
    std::optional<NVVM::MMAIntOverflow> overflow;
    if (ptxType == NVVM::MMATypes::s8)
      overflow = NVVM::MMAIntOverflow::wrapped;

    for (auto &[mn, cTile] : cTiles) {
      SmallVector<Value> c(acc.begin() + cTile * cPerTile,
                           acc.begin() + (cTile + 1) * cPerTile);
      for (int32_t k : kSteps) {
        auto aIt = aTiles.find({mn.first, k});
        auto bIt = bTiles.find({k, mn.second});
        if (aIt == aTiles.end() || bIt == bTiles.end())
          return op.emitError("mma dot: operand tiles do not cover the "
                              "accumulator tile at (")
                 << mn.first << ", " << mn.second << "), k = " << k;
        SmallVector<Value> aWords, bWords;
        for (int32_t w = 0; w < 4; ++w)
          aWords.push_back(packWord(a, aIt->second * aPerTile + w * kWidth));
        for (int32_t w = 0; w < 2; ++w)
          bWords.push_back(packWord(b, bIt->second * bPerTile + w * kWidth));
        Value d = NVVM::MmaOp::create(
            rewriter, loc, resultType, aWords, bWords, c,
            ArrayRef<int64_t>{16, 8, instrK}, std::nullopt, overflow,
            std::array<NVVM::MMATypes, 2>{ptxType, ptxType},
            std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                           NVVM::MMALayout::col});
        for (int32_t i = 0; i < cPerTile; ++i)
          c[i] = LLVM::ExtractValueOp::create(rewriter, loc, d, i);
      }
      std::copy(c.begin(), c.end(), acc.begin() + cTile * cPerTile);
    }
    rewriter.replaceOp(
        op, packValues(rewriter, loc, getTypeConverter()->convertType(dType),
                       acc));
    return success();
  }

  LoweringState &state;
};

} // namespace

void tkgpu::populateMmaDotOpToLlvmPatterns(TkgpuToLlvmTypeConverter &converter,
                                           LoweringState &state,
                                           RewritePatternSet &patterns) {
  patterns.add<MmaDotConversion>(converter, state);
}
