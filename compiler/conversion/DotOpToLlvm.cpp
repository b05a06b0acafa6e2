//===- DotOpToLlvm.cpp - tk.dot, the slow FMA path ------------------------===//
//
// SLOW PATH, for correctness only: to be replaced by mma.sync (sm_80) and
// wgmma (sm_90a) once accelerate-matmul gives dot operands MMA layouts.
//
// A (M x K) is stored to shared memory k-major (A^T) and B (K x N)
// row-major, so that at a fixed k the threads of a warp read consecutive
// addresses; then each thread runs a loop over k doing one FMA per
// accumulator element it owns in C's layout (f16/bf16 operands are
// extended to f32; f64 runs f64 FMAs; i8 accumulates in i32; tf32 is
// computed as full f32).
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

struct DotConversion : public OpConversionPattern<tk::DotOp> {
  DotConversion(TkgpuToLlvmTypeConverter &converter, LoweringState &state)
      : OpConversionPattern(converter, &converter.getContext()),
        state(state) {}

  LogicalResult
  matchAndRewrite(tk::DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto aType = cast<RankedTensorType>(op.getA().getType());
    auto bType = cast<RankedTensorType>(op.getB().getType());
    auto cType = cast<RankedTensorType>(op.getC().getType());
    if (aType.getRank() != 2)
      return rewriter.notifyMatchFailure(op, "only 2-D dot is lowered");
    int64_t m = aType.getShape()[0], k = aType.getShape()[1],
            n = bType.getShape()[1];
    Type aElement = aType.getElementType(), bElement = bType.getElementType();
    Type cElement = cType.getElementType();
    bool isInt = isa<IntegerType>(cElement);
    // The accumulation type: the integer type, f64 for f64 (the FMAs run in
    // f64), f32 for the other floats.
    Type accType = isInt || cElement.isF64() ? cElement
                                             : rewriter.getF32Type();

    auto [lane, warp] = getLaneAndWarp(rewriter, loc, state.threadsPerWarp);
    SharedView aView; // A^T: element (i, kk) at kk * m + i
    aView.strides = {1, m};
    SharedView bView; // B row-major: (kk, j) at kk * n + j
    bView.strides = {n, 1};
    unsigned aBytes = getMemoryBitWidth(aElement) / 8;
    unsigned bBytes = getMemoryBitWidth(bElement) / 8;
    aView.byteOffset = getAllocatedOffset(op, kScratchOffsetAttr);
    bView.byteOffset =
        aView.byteOffset + getDotFmaScratch(aType.getShape(), bType.getShape(),
                                            aBytes, bBytes)
                               .bOffset;

    storeDistributed(rewriter, loc, state,
                     unpackValues(rewriter, loc, adaptor.getA()),
                     getDistributedLayout(aType), aType.getShape(), aView,
                     aElement, lane, warp);
    storeDistributed(rewriter, loc, state,
                     unpackValues(rewriter, loc, adaptor.getB()),
                     getDistributedLayout(bType), bType.getShape(), bView,
                     bElement, lane, warp);
    createBarrier(rewriter, loc);

    // Row and column of each accumulator; rows/columns shared by several
    // registers are loaded once per k.
    LinearLayout cLayout = getDistributedLayout(cType);
    SmallVector<SmallVector<Value>> cIndices =
        emitIndices(rewriter, loc, cLayout, lane, warp);
    std::map<int32_t, unsigned> rowSlot, colSlot;
    SmallVector<Value> rows, cols;
    SmallVector<unsigned> rowOf, colOf;
    for (int32_t r = 0; r < static_cast<int32_t>(cIndices.size()); ++r) {
      SmallVector<int32_t> regIndex = getRegisterIndex(cLayout, r);
      auto [ri, newRow] = rowSlot.emplace(regIndex[0], rows.size());
      if (newRow)
        rows.push_back(cIndices[r][0]);
      rowOf.push_back(ri->second);
      auto [ci, newCol] = colSlot.emplace(regIndex[1], cols.size());
      if (newCol)
        cols.push_back(cIndices[r][1]);
      colOf.push_back(ci->second);
    }

    SmallVector<Value> accs;
    for (Value c : unpackValues(rewriter, loc, adaptor.getC()))
      accs.push_back(c.getType() == accType
                         ? c
                         : LLVM::FPExtOp::create(rewriter, loc, accType, c)
                               .getResult());

    auto ptrType = LLVM::LLVMPointerType::get(getContext(), 3);
    Value base = getSharedMemoryBase(rewriter, loc, state.module);
    if (aView.byteOffset != 0)
      base = LLVM::GEPOp::create(
          rewriter, loc, ptrType, rewriter.getI8Type(), base,
          ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(aView.byteOffset)});
    Value bBase = LLVM::GEPOp::create(
        rewriter, loc, ptrType, rewriter.getI8Type(), base,
        ArrayRef<LLVM::GEPArg>{
            static_cast<int32_t>(bView.byteOffset - aView.byteOffset)});
    auto loadOperand = [&](OpBuilder &b, Value regionBase, Type element,
                           Value offset) -> Value {
      Value ptr = LLVM::GEPOp::create(b, loc, ptrType, element, regionBase,
                                      ArrayRef<LLVM::GEPArg>{offset});
      Value v = LLVM::LoadOp::create(b, loc, element, ptr,
                                     element.getIntOrFloatBitWidth() / 8);
      if (v.getType() == accType)
        return v;
      if (isInt)
        return LLVM::SExtOp::create(b, loc, accType, v);
      return LLVM::FPExtOp::create(b, loc, accType, v);
    };

    // for (kk = 0; kk < k; ++kk) as LLVM blocks: the loop header's
    // arguments are the accumulators, and it dominates the exit.
    Type i32 = rewriter.getI32Type();
    Block *entry = rewriter.getInsertionBlock();
    Block *exit = rewriter.splitBlock(entry, rewriter.getInsertionPoint());
    SmallVector<Type> headerTypes = {i32};
    SmallVector<Location> headerLocs = {loc};
    for (Value acc : accs) {
      headerTypes.push_back(acc.getType());
      headerLocs.push_back(loc);
    }
    Block *header = rewriter.createBlock(exit, headerTypes, headerLocs);
    Block *body = rewriter.createBlock(exit);

    rewriter.setInsertionPointToEnd(entry);
    SmallVector<Value> initial = {createI32(rewriter, loc, 0)};
    initial.append(accs.begin(), accs.end());
    LLVM::BrOp::create(rewriter, loc, initial, header);

    rewriter.setInsertionPointToEnd(header);
    Value kk = header->getArgument(0);
    Value more = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::slt,
                                      kk, createI32(rewriter, loc, k));
    LLVM::CondBrOp::create(rewriter, loc, more, body, exit);

    rewriter.setInsertionPointToEnd(body);
    {
      OpBuilder &b = rewriter;
      Value aRowBase = LLVM::MulOp::create(b, loc, kk, createI32(b, loc, m));
      Value bRowBase = LLVM::MulOp::create(b, loc, kk, createI32(b, loc, n));
      SmallVector<Value> aValues, bValues;
      for (Value row : rows)
        aValues.push_back(loadOperand(
            b, base, aElement, LLVM::AddOp::create(b, loc, aRowBase, row)));
      for (Value col : cols)
        bValues.push_back(loadOperand(
            b, bBase, bElement, LLVM::AddOp::create(b, loc, bRowBase, col)));
      SmallVector<Value> next = {
          LLVM::AddOp::create(b, loc, kk, createI32(b, loc, 1))};
      for (unsigned r = 0; r < accs.size(); ++r) {
        Value acc = header->getArgument(r + 1);
        Value x = aValues[rowOf[r]], y = bValues[colOf[r]];
        if (isInt)
          next.push_back(LLVM::AddOp::create(b, loc, acc,
                                             LLVM::MulOp::create(b, loc, x, y)));
        else
          next.push_back(LLVM::FMAOp::create(b, loc, x, y, acc));
      }
      LLVM::BrOp::create(b, loc, next, header);
    }
    rewriter.setInsertionPointToStart(exit);

    SmallVector<Value> results;
    for (Value v : header->getArguments().drop_front())
      results.push_back(v.getType() == cElement
                            ? v
                            : LLVM::FPTruncOp::create(rewriter, loc, cElement, v)
                                  .getResult());
    rewriter.replaceOp(op, packValues(rewriter, loc,
                                      getTypeConverter()->convertType(
                                          op.getType()),
                                      results));
    return success();
  }

  LoweringState &state;
};

} // namespace

void tkgpu::populateDotOpToLlvmPatterns(TkgpuToLlvmTypeConverter &converter,
                                        LoweringState &state,
                                        RewritePatternSet &patterns) {
  patterns.add<DotConversion>(converter, state);
}
