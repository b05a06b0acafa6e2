//===- WarpGroupDotOpToLlvm.cpp - warp_group_dot on wgmma -----------------===//
//
// tkgpu.warp_group_dot, warp_group_dot_wait and fence_async_shared.
//
// warp_group_dot: the result is in #mma version 3, so each warp group (4
// consecutive warps, the low two warp bits of the layout moving 16 and 32
// rows) owns 64 x N blocks of d, each the accumulator of one
// wgmma.mma_async m64nNkK: the layout's lowest log2(N / 2) register bits
// are that fragment (checked against the one-warp-group layout), so
// registers [t * N/2, (t + 1) * N/2) are instruction tile t, and the
// element its first register holds on lane 0 of warp 0 names the tile
// (m, n). For every tile and every K step k (K / instrK of them, in
// increasing k) one nvvm.wgmma.mma_async reads A (m.., k..) and B (k..,
// n..) through matrix descriptors (dialects/tkgpu/OperandLayouts.h):
//   descriptor = (LBO, SBO, swizzle bits of the nvmma_shared layout)
//              + (((buffer address + offset of the warp group's block)
//                  >> 4) & 0x3FFF)
//              + (offset of the tile's first element) >> 4
// The warp group's offset is computed once per thread from the warp
// bits above the first two (their bases move whole 64-row or N-column
// blocks, which start 8-row groups, so offsets add); the tile offsets are
// constants. With rebase-wgmma-descriptors the buffer address is taken
// from a fresh `mov` of tk_smem's address plus the buffer's offset
// (rebaseOnSharedMemory says why). The sequence is wgmma.fence (the
// accumulator registers were written by ordinary instructions), the
// mma_asyncs, wgmma.commit_group, and, unless the op is async,
// wgmma.wait_group 0.
//
// warp_group_dot_wait: nvvm.wgmma.wait.group.sync.aligned pendings, then
// its operands pass through an empty inline asm with tied registers, so
// that LLVM cannot read the accumulators (results of the mma_async inline
// asm, which wgmma writes asynchronously) before the wait.
//
// fence_async_shared: nvvm.fence.proxy async.shared::cta.
//
// A in registers (a #dot_operand tensor of the result's layout, what
// attention's second dot needs): the low three register bits of A's
// layout are one m64k16 fragment per warp (four f16x2 words, as for
// mma.sync), named by its (m, k) like the accumulator tiles; the
// instruction is inline PTX, since nvvm.wgmma.mma_async takes A through a
// descriptor only.
//
// Operand types: f16, bf16, tf32 (f32 operands) and fp8, where A may be
// e4m3 and B e5m2 (m64nNk32); 8-bit and 32-bit operands are K-major, as
// AccelerateMatmul.cpp makes sure.
//
// The NVVM wgmma.mma_async op becomes PTX in convert-nvvm-to-llvm, which
// tk::buildLlvmPipeline runs after this conversion.
//
//===----------------------------------------------------------------------===//
#include "compiler/conversion/InstructionTiles.h"
#include "compiler/conversion/PatternSets.h"

#include "dialects/tkgpu/OperandLayouts.h"
#include "dialects/tkgpu/TkgpuDialect.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/MathExtras.h"

#include <map>

using namespace mlir;
using namespace mlir::tkgpu;

namespace {


std::optional<NVVM::WGMMATypes> getWgmmaType(Type element) {
  if (element.isF16())
    return NVVM::WGMMATypes::f16;
  if (element.isBF16())
    return NVVM::WGMMATypes::bf16;
  if (element.isF32())
    return NVVM::WGMMATypes::tf32;
  if (isa<Float8E4M3FNType>(element))
    return NVVM::WGMMATypes::e4m3;
  if (isa<Float8E5M2Type>(element))
    return NVVM::WGMMATypes::e5m2;
  return std::nullopt;
}

/// `bytes` (a shared address, i64) as the address of tk_smem taken here,
/// by a `mov` of its own, plus the offset of `bytes` from tk_smem.
/// LLVM keeps one tk_smem address for the whole kernel; a descriptor built
/// from it depends on a value live across every loop, which ptxas keeps in
/// ordinary registers, so each wgmma's descriptor is computed there and
/// moved into uniform registers (R2UR). With a fresh address per
/// descriptor the whole computation is short-lived and uniform, and ptxas
/// does it in the uniform datapath. The `mov` takes the offset as an
/// (unused) operand, so that LLVM does not hoist it out of the loop the
/// offset changes in.
static Value rebaseOnSharedMemory(OpBuilder &b, Location loc, Value bytes,
                                  ModuleOp module) {
  Type i64 = b.getI64Type();
  Value base = LLVM::PtrToIntOp::create(b, loc, i64,
                                        getSharedMemoryBase(b, loc, module));
  Value offset = LLVM::SubOp::create(b, loc, bytes, base);
  PtxAsm mov;
  unsigned out = mov.addOutput(i64, "l");
  mov.addInput(offset, "l");
  Value fresh = mov.emit(b, loc,
                         "mov.u64 " + PtxAsm::operand(out) + ", " +
                             kSharedMemoryName.str() + ";",
                         /*hasSideEffects=*/false)[0];
  return LLVM::AddOp::create(b, loc, fresh, offset);
}

/// One shared operand: the descriptor of its first element for the calling
/// warp group, and how to find instruction tiles in it.
struct SharedOperand {
  NvmmaSharedEncodingAttr layout;
  SmallVector<int64_t> shape;
  WgmmaOperandAccess access;
  Value descriptor; // i64, this warp group's block start

  /// The descriptor of the instruction operand starting at (row, col).
  Value at(OpBuilder &b, Location loc, int64_t row, int64_t col) const {
    int64_t bytes = getWgmmaTileByteOffset(layout, shape, row, col);
    if (bytes == 0)
      return descriptor;
    return LLVM::AddOp::create(
        b, loc, descriptor,
        createIntConstant(b, loc, b.getI64Type(), bytes >> 4));
  }
};

/// The four f16x2 words of one m64k16 A fragment (`aRegs`, 8 halves).
SmallVector<Value> packRegisterA(OpBuilder &b, Location loc,
                                 ArrayRef<Value> aRegs) {
  auto pair = VectorType::get({2}, aRegs[0].getType());
  SmallVector<Value> words;
  for (int32_t w = 0; w < 4; ++w) {
    Value vec = LLVM::UndefOp::create(b, loc, pair);
    for (int32_t e = 0; e < 2; ++e)
      vec = LLVM::InsertElementOp::create(b, loc, vec, aRegs[2 * w + e],
                                          createI32(b, loc, e));
    words.push_back(LLVM::BitcastOp::create(b, loc, b.getI32Type(), vec));
  }
  return words;
}

/// `values` (32- or 64-bit scalars) through one empty asm with side
/// effects, each output tied to its input: the returned values are defined there, so
/// whatever computes them (the f16x2 packing of A, the scaling of the
/// accumulator) is emitted before it, whatever order LLVM's scheduler
/// would pick.
SmallVector<Value> pinRegisters(OpBuilder &b, Location loc,
                                ArrayRef<Value> values) {
  if (values.empty())
    return {};
  PtxAsm pin;
  for (Value v : values)
    pin.addOutput(v.getType(), v.getType().isF32()     ? "f"
                               : v.getType().isInteger(64) ? "l"
                                                           : "r");
  for (auto [i, v] : llvm::enumerate(values))
    pin.addInput(v, std::to_string(i));
  return pin.emit(b, loc, "", /*hasSideEffects=*/true);
}

/// wgmma.mma_async with A in registers (inline PTX: nvvm.wgmma.mma_async
/// takes A through a descriptor only): `fragment` (N/2 f32) accumulates
/// the four f16x2 words `aWords` times the B operand at `bDescriptor`.
Value emitRegisterAMma(OpBuilder &b, Location loc, Value fragment,
                       Type fragmentType, int32_t perTile,
                       ArrayRef<Value> aWords, Value bDescriptor,
                       int32_t instrN, Type element, bool transposeB,
                       Value accumulate) {
  PtxAsm mma;
  for (int32_t i = 0; i < perTile; ++i)
    mma.addOutput(b.getF32Type(), "f");
  for (int32_t i = 0; i < perTile; ++i)
    mma.addInput(LLVM::ExtractValueOp::create(b, loc, fragment, i),
                 std::to_string(i));
  unsigned firstA = 0;
  for (int32_t w = 0; w < 4; ++w) {
    unsigned n = mma.addInput(aWords[w], "r");
    if (w == 0)
      firstA = n;
  }
  unsigned desc = mma.addInput(bDescriptor, "l");
  // scale-d is a predicate: accumulate (d = a * b + d) unless it is 0
  // (the first K step on a zero accumulator, or a persistent kernel's
  // first step of a tile, useC false). A constant is an immediate operand,
  // so that no register is written between wgmma.fence and the
  // instruction; a run-time value was computed before the fence.
  unsigned scaleD = mma.addInput(
      accumulate, matchPattern(accumulate, m_Constant()) ? "n" : "r");
  std::string text = "{\n.reg .pred p;\nsetp.ne.b32 p, " +
                     PtxAsm::operand(scaleD) +
                     ", 0;\nwgmma.mma_async.sync.aligned.m64n" +
                     std::to_string(instrN) + "k16.f32." +
                     (element.isF16() ? "f16.f16" : "bf16.bf16") + " {";
  for (int32_t i = 0; i < perTile; ++i)
    text += (i ? ", " : "") + PtxAsm::operand(i);
  text += "}, {";
  for (unsigned w = 0; w < 4; ++w)
    text += (w ? ", " : "") + PtxAsm::operand(firstA + w);
  text += "}, " + PtxAsm::operand(desc) + ", p, 1, 1, " +
          (transposeB ? "1" : "0") + ";\n}";
  SmallVector<Value> results = mma.emit(b, loc, text);
  Value result = LLVM::UndefOp::create(b, loc, fragmentType);
  for (int32_t i = 0; i < perTile; ++i)
    result = LLVM::InsertValueOp::create(b, loc, result, results[i], i);
  return result;
}

/// One wgmma with A and B in shared memory whose scale-d is the run-time
/// i32 `accumulate` (d = a * b when it is 0): inline PTX, since
/// nvvm.wgmma.mma_async takes scale-d as an attribute only. `trans` gives
/// imm-trans-a/b (16-bit types only; none for the others).
Value emitSharedAMmaScaled(OpBuilder &b, Location loc, Value fragment,
                           Type fragmentType, int32_t perTile,
                           Value aDescriptor, Value bDescriptor,
                           int32_t instrN, int32_t instrK,
                           NVVM::WGMMATypes aType, NVVM::WGMMATypes bType,
                           std::optional<std::pair<bool, bool>> trans,
                           Value accumulate) {
  PtxAsm mma;
  for (int32_t i = 0; i < perTile; ++i)
    mma.addOutput(b.getF32Type(), "f");
  for (int32_t i = 0; i < perTile; ++i)
    mma.addInput(LLVM::ExtractValueOp::create(b, loc, fragment, i),
                 std::to_string(i));
  unsigned descA = mma.addInput(aDescriptor, "l");
  unsigned descB = mma.addInput(bDescriptor, "l");
  unsigned scaleD = mma.addInput(accumulate, "r");
  std::string text = "{\n.reg .pred p;\nsetp.ne.b32 p, " +
                     PtxAsm::operand(scaleD) +
                     ", 0;\nwgmma.mma_async.sync.aligned.m64n" +
                     std::to_string(instrN) + "k" + std::to_string(instrK) +
                     ".f32." + NVVM::stringifyWGMMATypes(aType).str() + "." +
                     NVVM::stringifyWGMMATypes(bType).str() + " {";
  for (int32_t i = 0; i < perTile; ++i)
    text += (i ? ", " : "") + PtxAsm::operand(i);
  text += "}, " + PtxAsm::operand(descA) + ", " + PtxAsm::operand(descB) +
          ", p, 1, 1";
  if (trans)
    text += std::string(", ") + (trans->first ? "1" : "0") + ", " +
            (trans->second ? "1" : "0");
  text += ";\n}";
  SmallVector<Value> results = mma.emit(b, loc, text);
  Value result = LLVM::UndefOp::create(b, loc, fragmentType);
  for (int32_t i = 0; i < perTile; ++i)
    result = LLVM::InsertValueOp::create(b, loc, result, results[i], i);
  return result;
}

struct WarpGroupDotConversion : public OpConversionPattern<WarpGroupDotOp> {
  WarpGroupDotConversion(TkgpuToLlvmTypeConverter &converter,
                         LoweringState &state)
      : OpConversionPattern(converter, &converter.getContext()),
        state(state) {}

  LogicalResult
  matchAndRewrite(WarpGroupDotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (state.computeCapability != 90)
      return op.emitError("wgmma needs sm_90a");
    Location loc = op.getLoc();
    MLIRContext *ctx = getContext();
    auto dType = cast<RankedTensorType>(op.getD().getType());
    auto mma = cast<MmaEncodingAttr>(dType.getEncoding());
    auto aMem = dyn_cast<MemDescType>(op.getA().getType());
    auto aTensor = dyn_cast<RankedTensorType>(op.getA().getType());
    auto bMem = cast<MemDescType>(op.getB().getType());
    Type element = bMem.getElementType();
    if (aTensor && !element.isF16() && !element.isBF16())
      return op.emitError("warp_group_dot: A in registers needs f16 or bf16, "
                          "got ")
             << element;
    // A's type differs from B's only for fp8 (e4m3 times e5m2).
    Type aElement = aMem ? aMem.getElementType() : element;
    std::optional<NVVM::WGMMATypes> operandType = getWgmmaType(element);
    std::optional<NVVM::WGMMATypes> aOperandType = getWgmmaType(aElement);
    if (!operandType || !aOperandType || !dType.getElementType().isF32())
      return op.emitError("warp_group_dot: unsupported operand types ")
             << aElement << " and " << element << " with a "
             << dType.getElementType()
             << " accumulator (f16/bf16/f32/fp8 operands, f32 accumulator)";
    int32_t instrN = mma.getInstrShape()[1];
    int32_t instrK = 256 / element.getIntOrFloatBitWidth();
    int32_t perTile = instrN / 2;
    int64_t k = bMem.getShape()[0];
    if (k % instrK != 0)
      return op.emitError("warp_group_dot: K = ")
             << k << " is not a multiple of the instruction's " << instrK;

    // The fragment of one instruction is the low register bits, and the
    // first two warp bits are the warps of a group.
    LinearLayout cLayout = getDistributedLayout(dType);
    auto oneGroup = MmaEncodingAttr::get(ctx, 3, {4, 1}, mma.getInstrShape());
    LinearLayout tile = oneGroup.toLinearLayout({64, instrN});
    for (int32_t bit = 0, e = llvm::Log2_32(perTile); bit < e; ++bit)
      if (getBasisOrZero(cLayout, kRegister, bit) !=
          getBasisOrZero(tile, kRegister, bit))
        return op.emitError("warp_group_dot: the block ")
               << dType.getShape()[0] << "x" << dType.getShape()[1]
               << " does not hold whole m64n" << instrN << " tiles";
    if (getInBits(cLayout, kWarp) < 2 ||
        getBasisOrZero(cLayout, kWarp, 0) != getBasisOrZero(tile, kWarp, 0) ||
        getBasisOrZero(cLayout, kWarp, 1) != getBasisOrZero(tile, kWarp, 1))
      return op.emitError("warp_group_dot: warps 0-3 must form a warp group "
                          "along M");

    SharedOperand a, b{cast<NvmmaSharedEncodingAttr>(bMem.getEncoding()),
                       SmallVector<int64_t>(bMem.getShape()),
                       {},
                       {}};
    std::optional<WgmmaOperandAccess> aAccess = WgmmaOperandAccess();
    if (aMem) {
      a.layout = cast<NvmmaSharedEncodingAttr>(aMem.getEncoding());
      a.shape = SmallVector<int64_t>(aMem.getShape());
      aAccess = getWgmmaOperandAccess(a.layout, a.shape, 0);
    }
    std::optional<WgmmaOperandAccess> bAccess =
        getWgmmaOperandAccess(b.layout, b.shape, 1);
    if (!aAccess || !bAccess)
      return op.emitError("warp_group_dot: wgmma reads 32-bit operands "
                          "K-major only");
    a.access = *aAccess;
    b.access = *bAccess;

    // A in registers: 8 registers (four f16x2 words) per m64k16 block, the
    // low register bits of the layout, named like the accumulator tiles.
    std::map<std::pair<int32_t, int32_t>, int32_t> aTiles;
    SmallVector<Value> aRegs;
    if (aTensor) {
      LinearLayout aLayout = getDistributedLayout(aTensor);
      LinearLayout aTile =
          DotOperandEncodingAttr::get(ctx, 0, oneGroup, 2).toLinearLayout(
              {64, 16});
      for (int32_t bit = 0; bit < 3; ++bit)
        if (getBasisOrZero(aLayout, kRegister, bit) !=
            getBasisOrZero(aTile, kRegister, bit))
          return op.emitError("warp_group_dot: A does not hold whole m64k16 "
                              "register fragments");
      aTiles = getInstructionTiles(aLayout, 8);
      aRegs = unpackValues(rewriter, loc, adaptor.getA());
    }

    // The warp group's block: warp bits 2.. move whole 64-row (A) or
    // N-column (B) blocks.
    Type i64 = rewriter.getI64Type();
    auto [lane, warp] = getLaneAndWarp(rewriter, loc, state.threadsPerWarp);
    (void)lane;
    Value aBytes = aMem ? LLVM::PtrToIntOp::create(rewriter, loc, i64,
                                                   adaptor.getA())
                        : Value();
    Value bBytes = LLVM::PtrToIntOp::create(rewriter, loc, i64, adaptor.getB());
    Value warp64 = LLVM::ZExtOp::create(rewriter, loc, i64, warp);
    for (int32_t bit = 2; bit < getInBits(cLayout, kWarp); ++bit) {
      SmallVector<int32_t> basis = getBasisOrZero(cLayout, kWarp, bit);
      Value set = LLVM::AndOp::create(
          rewriter, loc,
          LLVM::LShrOp::create(rewriter, loc, warp64,
                               createIntConstant(rewriter, loc, i64, bit)),
          createIntConstant(rewriter, loc, i64, 1));
      int64_t aStep = basis[0] && aMem ? getWgmmaTileByteOffset(
                                             a.layout, a.shape, basis[0], 0)
                                       : 0;
      int64_t bStep = basis[1] ? getWgmmaTileByteOffset(b.layout, b.shape, 0,
                                                        basis[1])
                               : 0;
      if (aStep && aMem)
        aBytes = LLVM::AddOp::create(
            rewriter, loc, aBytes,
            LLVM::MulOp::create(rewriter, loc, set,
                                createIntConstant(rewriter, loc, i64, aStep)));
      if (bStep)
        bBytes = LLVM::AddOp::create(
            rewriter, loc, bBytes,
            LLVM::MulOp::create(rewriter, loc, set,
                                createIntConstant(rewriter, loc, i64, bStep)));
    }
    // The start field holds bits 4..17 of the address. The higher bits
    // must not reach the fields above it: in a thread-block cluster,
    // rank 1's shared addresses have bits above 17 set, and unmasked,
    // they landed in LBO, so rank 1 read B's 64-column chunks past the
    // first from the wrong place (found on the H100).
    auto descriptorOf = [&](Value bytes, const WgmmaOperandAccess &access) {
      if (state.rebaseDescriptors)
        bytes = rebaseOnSharedMemory(rewriter, loc, bytes, state.module);
      Value start = LLVM::AndOp::create(
          rewriter, loc,
          LLVM::LShrOp::create(rewriter, loc, bytes,
                               createIntConstant(rewriter, loc, i64, 4)),
          createIntConstant(rewriter, loc, i64, 0x3FFF));
      return LLVM::OrOp::create(
          rewriter, loc, start,
          createIntConstant(rewriter, loc, i64,
                            int64_t(access.getDescriptorBase())));
    };
    if (aMem)
      a.descriptor = descriptorOf(aBytes, a.access);
    b.descriptor = descriptorOf(bBytes, b.access);
    // Each instruction's descriptor is the base plus a constant. Without
    // the pin, LLVM hoists those sums out of the loop when the buffer is
    // loop-invariant (attention's Q; the backward's K and V), and every
    // one stays live across the loop in two registers: 16 to 32 registers
    // of a kernel at the edge of its budget. Pinned, only the base is
    // live and the sums are recomputed next to their wgmma.
    SmallVector<Value> bases{b.descriptor};
    if (aMem)
      bases.push_back(a.descriptor);
    bases = pinRegisters(rewriter, loc, bases);
    b.descriptor = bases[0];
    if (aMem)
      a.descriptor = bases[1];

    // A zero accumulator (attention's S = QK^T) is not materialized: the
    // first K step of each tile runs with scale-d = 0 (d = a * b) on
    // undefined registers, as Triton does.
    bool zeroC = matchPattern(op.getC(), m_AnyZeroFloat());
    SmallVector<Value> acc = unpackValues(rewriter, loc, adaptor.getC());
    if (zeroC)
      for (Value &v : acc)
        v = LLVM::UndefOp::create(rewriter, loc, v.getType());
    Type f32 = rewriter.getF32Type();
    Type fragmentType = LLVM::LLVMStructType::getLiteral(
        ctx, SmallVector<Type>(perTile, f32));
    auto shape = NVVM::MMAShapeAttr::get(ctx, 64, instrN, instrK);
    auto typeAttr = [&](NVVM::WGMMATypes type) {
      return NVVM::WGMMATypesAttr::get(ctx, type);
    };
    auto scaleIn = NVVM::WGMMAScaleInAttr::get(ctx, NVVM::WGMMAScaleIn::one);
    // K-major A is "row", K-major B is "col"; transposed the other way.
    auto layoutA = NVVM::MMALayoutAttr::get(
        ctx, a.access.transposed ? NVVM::MMALayout::col : NVVM::MMALayout::row);
    auto layoutB = NVVM::MMALayoutAttr::get(
        ctx, b.access.transposed ? NVVM::MMALayout::row : NVVM::MMALayout::col);

    // Every register wgmma reads (the accumulators, A's f16x2 words) must
    // be final before wgmma.fence: ptxas otherwise injects a
    // warpgroup.arrive before each instruction whose registers were
    // written after the fence (warning C7519), which serializes the
    // wgmmas. So A is packed and both are pinned before the fence.
    std::map<std::pair<int32_t, int32_t>, int32_t> cTiles =
        getInstructionTiles(cLayout, perTile);
    SmallVector<Value> aWords;
    if (aTensor) {
      for (auto &[mn, tileIndex] : cTiles)
        for (int64_t kk = 0; kk < k; kk += instrK)
          if (!aTiles.count({mn.first, int32_t(kk)}))
            return op.emitError("warp_group_dot: A's registers do not cover "
                                "rows ")
                   << mn.first << ", k = " << kk;
      for (int32_t fragment = 0, e = aRegs.size() / 8; fragment < e;
           ++fragment)
        llvm::append_range(
            aWords, packRegisterA(rewriter, loc,
                                  ArrayRef<Value>(aRegs).slice(fragment * 8,
                                                               8)));
    }
    SmallVector<Value> pinned = zeroC ? SmallVector<Value>() : acc;
    llvm::append_range(pinned, aWords);
    pinned = pinRegisters(rewriter, loc, pinned);
    size_t numAcc = zeroC ? 0 : acc.size();
    std::copy(pinned.begin(), pinned.begin() + numAcc, acc.begin());
    std::copy(pinned.begin() + numAcc, pinned.end(), aWords.begin());
    // scale-d of each tile's first instruction: 1, or useC (d = a * b
    // when it is false, the accumulator's registers not read).
    Value useC = adaptor.getUseC()
                     ? LLVM::ZExtOp::create(rewriter, loc,
                                            rewriter.getI32Type(),
                                            adaptor.getUseC())
                     : Value();
    bool sixteenBit = element.getIntOrFloatBitWidth() == 16;
    NVVM::WgmmaFenceAlignedOp::create(rewriter, loc);
    for (auto &[mn, tileIndex] : cTiles) {
      Value fragment = LLVM::UndefOp::create(rewriter, loc, fragmentType);
      for (int32_t i = 0; i < perTile; ++i)
        fragment = LLVM::InsertValueOp::create(
            rewriter, loc, fragment, acc[tileIndex * perTile + i], i);
      for (int64_t kk = 0; kk < k; kk += instrK) {
        if (aTensor) {
          int32_t aFragment = aTiles.at({mn.first, int32_t(kk)});
          fragment = emitRegisterAMma(
              rewriter, loc, fragment, fragmentType, perTile,
              ArrayRef<Value>(aWords).slice(aFragment * 4, 4),
              b.at(rewriter, loc, kk, mn.second), instrN, element,
              b.access.transposed,
              useC && kk == 0
                  ? useC
                  : createI32(rewriter, loc, !(zeroC && kk == 0)));
          continue;
        }
        // Two statements: the order of the descriptor arithmetic in the
        // output must not depend on the compiler's argument order.
        Value aDescriptor = a.at(rewriter, loc, mn.first, kk);
        Value bDescriptor = b.at(rewriter, loc, kk, mn.second);
        if (useC && kk == 0) {
          std::optional<std::pair<bool, bool>> trans;
          if (sixteenBit)
            trans = {a.access.transposed, b.access.transposed};
          fragment = emitSharedAMmaScaled(
              rewriter, loc, fragment, fragmentType, perTile, aDescriptor,
              bDescriptor, instrN, instrK, *aOperandType, *operandType,
              trans, useC);
          continue;
        }
        fragment = NVVM::WgmmaMmaAsyncOp::create(
            rewriter, loc, fragmentType, fragment, aDescriptor, bDescriptor,
            shape,
            typeAttr(*aOperandType), typeAttr(*operandType),
            typeAttr(NVVM::WGMMATypes::f32),
            NVVM::WGMMAScaleOutAttr::get(ctx, zeroC && kk == 0
                                                  ? NVVM::WGMMAScaleOut::zero
                                                  : NVVM::WGMMAScaleOut::one),
            scaleIn, scaleIn, layoutA, layoutB, NVVM::MMAIntOverflowAttr());
      }
      for (int32_t i = 0; i < perTile; ++i)
        acc[tileIndex * perTile + i] =
            LLVM::ExtractValueOp::create(rewriter, loc, fragment, i);
    }
    NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, loc);
    if (!op.getIsAsync())
      NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, 0);
    rewriter.replaceOp(
        op, packValues(rewriter, loc, getTypeConverter()->convertType(dType),
                       acc));
    return success();
  }

  LoweringState &state;
};

struct WarpGroupDotWaitConversion
    : public OpConversionPattern<WarpGroupDotWaitOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(WarpGroupDotWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, op.getPendings());
    // Every 32-bit register of the operands through one empty asm, each
    // output tied to its input.
    SmallVector<SmallVector<Value>> values;
    PtxAsm pass;
    int64_t count = 0;
    for (Value input : adaptor.getInputs()) {
      values.push_back(unpackValues(rewriter, loc, input));
      for (Value v : values.back()) {
        if (v.getType().getIntOrFloatBitWidth() != 32)
          return op.emitError("warp_group_dot_wait: 32-bit accumulators "
                              "expected");
        pass.addOutput(v.getType(), v.getType().isF32() ? "f" : "r");
        ++count;
      }
    }
    int64_t tie = 0;
    for (SmallVector<Value> &elements : values)
      for (Value v : elements)
        pass.addInput(v, std::to_string(tie++));
    SmallVector<Value> passed =
        count ? pass.emit(rewriter, loc, "", /*hasSideEffects=*/true)
              : SmallVector<Value>();
    SmallVector<Value> results;
    int64_t next = 0;
    for (auto [input, elements] : llvm::zip_equal(op.getInputs(), values)) {
      SmallVector<Value> mine(passed.begin() + next,
                              passed.begin() + next + elements.size());
      next += elements.size();
      results.push_back(packValues(
          rewriter, loc, getTypeConverter()->convertType(input.getType()),
          mine));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct FenceAsyncSharedConversion
    : public OpConversionPattern<FenceAsyncSharedOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(FenceAsyncSharedOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::FenceProxyOp>(
        op, NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(getContext(), NVVM::SharedSpace::shared_cta));
    return success();
  }
};

} // namespace

void tkgpu::populateWarpGroupDotOpToLlvmPatterns(
    TkgpuToLlvmTypeConverter &converter, LoweringState &state,
    RewritePatternSet &patterns) {
  patterns.add<WarpGroupDotConversion>(converter, state);
  patterns.add<WarpGroupDotWaitConversion, FenceAsyncSharedConversion>(
      converter, &converter.getContext());
}
