//===- DotOperandLoadToLlvm.cpp - local_load into dot_operand: ldmatrix ---===//
//
// A tkgpu.local_load whose result has a #dot_operand layout becomes
// nvvm.ldmatrix (m8n8, b16, .x4 where there are 4 registers to fill). One
// 8x8 matrix of ldmatrix is 8 rows of 16 contiguous bytes; lane 8q + i
// gives the address of row i of matrix q, and each lane receives one 32-bit
// word of each matrix:
//   row layout (no .trans): lane t gets row t / 4, bytes 4 * (t % 4) .. +3;
//   col layout (.trans, 16-bit elements only): lane t gets the two
//     elements of column t / 4 in rows 2 * (t % 4) and 2 * (t % 4) + 1.
// Everything comes from the LinearLayouts: L = dot_operand layout composed
// with the inverse of the shared layout maps (register, lane, warp) to the
// element offset in the buffer. ldmatrix applies when, for row layout,
// the register bits inside a 32-bit word and lane bits 0-1 (the K elements
// of one word, then of the 4 lanes) are offsets 1, 2, 4, ... (one 16-byte
// piece, in order), lane bits 2-4 pick the rows; for .trans the lane bits
// 2-4 are the 16-byte piece and register bit 0, lane bits 0-1 the rows. All
// other bits (the other register bits = the 32-bit words, and warps) must
// move by whole 16-byte pieces (the swizzle of OperandLayouts.h keeps
// pieces whole). Then ldmatrix lane l's address is the linear image of
// (row bits = l % 8, word bits = l / 8), plus the warp part, plus the words
// of the group: matrix q of one ldmatrix fills word w + q of the result.
// Where ldmatrix does not apply (e.g. 8- or 32-bit elements with K not
// contiguous in shared memory, which would need .trans) the pattern fails
// and the generic local_load lowering takes the op. A window (local_load
// with offsets) reads from the buffer's layout with the origin's offset
// xored in; the origin must keep 16-byte pieces whole.
//
//===----------------------------------------------------------------------===//
#include "compiler/conversion/PatternSets.h"

#include "dialects/tkgpu/TkgpuDialect.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

/// How one local_load maps onto ldmatrix.
struct LdmatrixPlan {
  bool trans = false;
  /// Element offsets of the 3 row bits of an ldmatrix lane (l % 8).
  SmallVector<int32_t> rowBases;
  /// Element offsets of the word bits (register bits above one 32-bit
  /// word), lowest first.
  SmallVector<int32_t> wordBases;
  /// Element offsets of the warp bits.
  SmallVector<int32_t> warpBases;
  int32_t elementsPerWord = 1;
  int32_t totalOffsets = 1;
  /// Offset of the window's origin (xored into every address).
  int32_t window = 0;
};

/// L(register, lane, warp) -> offset: where each register's element lives
/// (relative to the window's origin, which `window` receives).
std::optional<LinearLayout>
getRegisterToOffset(RankedTensorType tensor, MemDescType buffer,
                    std::optional<ArrayRef<int64_t>> origin,
                    int32_t &window) {
  LinearLayout shared = toLinearLayout(buffer);
  if (!shared.isInvertible())
    return std::nullopt;
  LinearLayout inverse = shared.invert();
  window = 0;
  if (!origin)
    return toLinearLayout(tensor).compose(inverse);
  std::vector<std::pair<std::string, int32_t>> index;
  for (auto [d, offset] : llvm::enumerate(*origin))
    index.push_back({outDimName(d), int32_t(offset)});
  window = inverse.apply(index)[0];
  return widenToBuffer(toLinearLayout(tensor), buffer.getShape())
      .compose(inverse);
}

std::optional<LdmatrixPlan>
planLdmatrix(RankedTensorType tensor, MemDescType buffer,
             std::optional<ArrayRef<int64_t>> origin) {
  unsigned bits = getMemoryBitWidth(tensor.getElementType());
  if (bits != 8 && bits != 16 && bits != 32)
    return std::nullopt;
  int32_t window = 0;
  std::optional<LinearLayout> layout =
      getRegisterToOffset(tensor, buffer, origin, window);
  if (!layout || getInBits(*layout, kLane) != 5 ||
      window % (128 / int32_t(bits)) != 0)
    return std::nullopt;
  auto offsetOf = [&](const char *inDim, int32_t bit) {
    return getBasisOrZero(*layout, inDim, bit)[0];
  };
  int32_t regBits = getInBits(*layout, kRegister);
  int32_t wordBits = llvm::Log2_32(32 / bits); // register bits in a word
  int32_t pieceElements = 128 / bits;          // one 16-byte piece

  // Candidate bit assignments: (in-dim, bit) lists for the piece and rows.
  using Bit = std::pair<const char *, int32_t>;
  SmallVector<Bit> piece, rows;
  int32_t firstWordBit;
  auto tryLayout = [&](bool trans) {
    piece.clear();
    rows.clear();
    if (!trans) {
      for (int32_t b = 0; b < wordBits; ++b)
        piece.push_back({kRegister, b});
      piece.append({{kLane, 0}, {kLane, 1}});
      rows = {{kLane, 2}, {kLane, 3}, {kLane, 4}};
      firstWordBit = wordBits;
    } else {
      if (bits != 16)
        return false;
      piece = {{kLane, 2}, {kLane, 3}, {kLane, 4}};
      rows = {{kRegister, 0}, {kLane, 0}, {kLane, 1}};
      firstWordBit = 1;
    }
    if (regBits < firstWordBit)
      return false;
    for (auto [i, bit] : llvm::enumerate(piece))
      if (offsetOf(bit.first, bit.second) != (int32_t(1) << i))
        return false;
    auto wholePieces = [&](int32_t offset) {
      return offset % pieceElements == 0;
    };
    for (Bit bit : rows)
      if (!wholePieces(offsetOf(bit.first, bit.second)))
        return false;
    for (int32_t b = firstWordBit; b < regBits; ++b)
      if (!wholePieces(offsetOf(kRegister, b)))
        return false;
    for (int32_t b = 0, e = getInBits(*layout, kWarp); b < e; ++b)
      if (!wholePieces(offsetOf(kWarp, b)))
        return false;
    return true;
  };
  LdmatrixPlan plan;
  if (tryLayout(false))
    plan.trans = false;
  else if (tryLayout(true))
    plan.trans = true;
  else
    return std::nullopt;
  for (Bit bit : rows)
    plan.rowBases.push_back(offsetOf(bit.first, bit.second));
  for (int32_t b = firstWordBit; b < regBits; ++b)
    plan.wordBases.push_back(offsetOf(kRegister, b));
  for (int32_t b = 0, e = getInBits(*layout, kWarp); b < e; ++b)
    plan.warpBases.push_back(offsetOf(kWarp, b));
  plan.elementsPerWord = 32 / bits;
  plan.totalOffsets = int32_t(layout->getOutDimSize(kOffset));
  plan.window = window;
  return plan;
}

struct DotOperandLoadConversion
    : public OpConversionPattern<LocalLoadOp> {
  DotOperandLoadConversion(TkgpuToLlvmTypeConverter &converter,
                           LoweringState &state)
      : OpConversionPattern(converter, &converter.getContext(),
                            /*benefit=*/2),
        state(state) {}

  LogicalResult
  matchAndRewrite(LocalLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = op.getType();
    if (!isa_and_nonnull<DotOperandEncodingAttr>(type.getEncoding()))
      return rewriter.notifyMatchFailure(op, "not a dot operand");
    std::optional<LdmatrixPlan> plan =
        planLdmatrix(type, op.getBuffer().getType(), op.getOffsets());
    if (!plan)
      return rewriter.notifyMatchFailure(op, "ldmatrix does not apply");

    Location loc = op.getLoc();
    MLIRContext *ctx = getContext();
    Type i32 = rewriter.getI32Type();
    Type element = getTypeConverter()->convertType(type.getElementType());
    int32_t numWords = int32_t(1) << plan->wordBases.size();
    int32_t perLoad = std::min<int32_t>(4, numWords);
    int32_t loadWordBits = llvm::Log2_32(perLoad);

    // ldmatrix lane l: rows from l % 8, matrices (words) from l / 8; the
    // remaining word bits select the group, a constant per instruction.
    LinearLayout::InDim lanes{kLane, {}}, warps{kWarp, {}}, groups{kRegister,
                                                                   {}};
    for (int32_t base : plan->rowBases)
      lanes.bases.push_back({base});
    for (int32_t b = 0; b < 2; ++b)
      lanes.bases.push_back({b < loadWordBits ? plan->wordBases[b] : 0});
    for (int32_t base : plan->warpBases)
      warps.bases.push_back({base});
    for (size_t b = loadWordBits; b < plan->wordBases.size(); ++b)
      groups.bases.push_back({plan->wordBases[b]});
    LinearLayout address({groups, lanes, warps},
                         {{outDimName(0), plan->totalOffsets}});

    auto [lane, warp] = getLaneAndWarp(rewriter, loc, state.threadsPerWarp);
    Value threadOffset = emitThreadIndex(rewriter, loc, address, lane, warp)[0];
    Value base = adaptor.getBuffer();
    auto ptrType = LLVM::LLVMPointerType::get(ctx, 3);
    auto wordVector = VectorType::get({plan->elementsPerWord}, element);
    SmallVector<Type> wordTypes(perLoad, i32);
    Type resultType = perLoad == 1
                          ? i32
                          : LLVM::LLVMStructType::getLiteral(ctx, wordTypes);
    int64_t numRegisters = getTotalElemsPerThread(type);
    SmallVector<Value> registers(numRegisters);
    for (int32_t group = 0; group < numWords / perLoad; ++group) {
      int32_t groupOffset = getRegisterIndex(address, group)[0] ^ plan->window;
      Value offset =
          combineIndex(rewriter, loc, address, 0, groupOffset, threadOffset);
      Value ptr = LLVM::GEPOp::create(rewriter, loc, ptrType, element, base,
                                      ArrayRef<LLVM::GEPArg>{offset});
      Value loaded = NVVM::LdMatrixOp::create(
          rewriter, loc, resultType, ptr, perLoad,
          plan->trans ? NVVM::MMALayout::col : NVVM::MMALayout::row,
          NVVM::LdStMatrixShapeAttr::get(ctx, 8, 8),
          NVVM::LdStMatrixEltType::B16);
      for (int32_t q = 0; q < perLoad; ++q) {
        Value word = perLoad == 1 ? loaded
                                  : LLVM::ExtractValueOp::create(
                                        rewriter, loc, loaded, q)
                                        .getResult();
        int32_t firstRegister = (group * perLoad + q) * plan->elementsPerWord;
        if (plan->elementsPerWord == 1) {
          registers[firstRegister] =
              LLVM::BitcastOp::create(rewriter, loc, element, word);
          continue;
        }
        Value vec = LLVM::BitcastOp::create(rewriter, loc, wordVector, word);
        for (int32_t e = 0; e < plan->elementsPerWord; ++e)
          registers[firstRegister + e] = LLVM::ExtractElementOp::create(
              rewriter, loc, vec, createI32(rewriter, loc, e));
      }
    }
    Type structType = getTypeConverter()->convertType(type);
    rewriter.replaceOp(op, packValues(rewriter, loc, structType, registers));
    return success();
  }

  LoweringState &state;
};

} // namespace

void tkgpu::populateDotOperandLoadToLlvmPatterns(
    TkgpuToLlvmTypeConverter &converter, LoweringState &state,
    RewritePatternSet &patterns) {
  patterns.add<DotOperandLoadConversion>(converter, state);
}
