//===- PrintAssertOpToLlvm.cpp - device_print, device_assert, debug_barrier ===//
//
// tk.print calls the CUDA runtime's vprintf once per element a thread owns
// (one owner per replicated element), with the program id and the element's
// index: "pid (0, 0, 0) idx (5) x: 1.500000". tk.assert calls __assertfail
// with the message, the .tk file, line and function when any element the
// thread owns is false; the driver then reports the failing kernel.
//
//===----------------------------------------------------------------------===//
#include "compiler/conversion/PatternSets.h"

#include "dialects/tk/TkDialect.h"
#include "dialects/tkgpu/TkgpuDialect.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

/// printf conversion and the promoted vararg value of one element.
static std::pair<std::string, Value> formatElement(OpBuilder &b, Location loc,
                                                   Value v, bool hex) {
  Type type = v.getType();
  if (isa<LLVM::LLVMPointerType>(type))
    return {"%p", v};
  if (auto floatType = dyn_cast<FloatType>(type)) {
    if (hex) {
      unsigned bits = floatType.getWidth();
      Value asInt = LLVM::BitcastOp::create(b, loc, b.getIntegerType(bits), v);
      if (bits < 32)
        asInt = LLVM::ZExtOp::create(b, loc, b.getI32Type(), asInt);
      return {bits == 64 ? "0x%llx" : "0x%x", asInt};
    }
    if (!floatType.isF64())
      v = LLVM::FPExtOp::create(b, loc, b.getF64Type(), v);
    return {"%f", v};
  }
  unsigned bits = type.getIntOrFloatBitWidth();
  if (bits < 32)
    v = bits == 1 ? LLVM::ZExtOp::create(b, loc, b.getI32Type(), v).getResult()
                  : LLVM::SExtOp::create(b, loc, b.getI32Type(), v).getResult();
  if (bits == 64)
    return {hex ? "0x%llx" : "%lld", v};
  return {hex ? "0x%x" : "%d", v};
}

/// printf-safe copy of user text.
static std::string escapePercent(StringRef text) {
  std::string out;
  for (char c : text) {
    out.push_back(c);
    if (c == '%')
      out.push_back('%');
  }
  return out;
}

/// vprintf(format, args): args is a local struct of the values.
static void callVprintf(RewriterBase &b, Location loc, LoweringState &state,
                        StringRef format, ValueRange args) {
  MLIRContext *ctx = b.getContext();
  auto ptrType = LLVM::LLVMPointerType::get(ctx);
  auto vprintf = getOrDeclareFunction(
      b, state.module, "vprintf",
      LLVM::LLVMFunctionType::get(b.getI32Type(), {ptrType, ptrType}));
  Value formatPtr = getStringConstant(b, loc, state, format);
  Value buffer;
  if (args.empty()) {
    buffer = LLVM::ZeroOp::create(b, loc, ptrType);
  } else {
    SmallVector<Type> fields;
    for (Value a : args)
      fields.push_back(a.getType());
    auto structType = LLVM::LLVMStructType::getLiteral(ctx, fields);
    buffer = LLVM::AllocaOp::create(b, loc, ptrType, structType,
                                    createI32(b, loc, 1), /*alignment=*/8);
    for (auto [i, a] : llvm::enumerate(args)) {
      Value field = LLVM::GEPOp::create(
          b, loc, ptrType, structType, buffer,
          ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
      LLVM::StoreOp::create(b, loc, a, field);
    }
  }
  LLVM::CallOp::create(b, loc, vprintf, ValueRange{formatPtr, buffer});
}

struct PrintConversion : public OpConversionPattern<tk::PrintOp> {
  PrintConversion(TkgpuToLlvmTypeConverter &converter, LoweringState &state)
      : OpConversionPattern(converter, &converter.getContext()),
        state(state) {}

  LogicalResult
  matchAndRewrite(tk::PrintOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    SmallVector<Value> pid = {NVVM::BlockIdXOp::create(rewriter, loc, i32),
                              NVVM::BlockIdYOp::create(rewriter, loc, i32),
                              NVVM::BlockIdZOp::create(rewriter, loc, i32)};
    // " x: " prints as "pid (0, 0, 0) idx (5) x: 1.500000".
    std::string label = escapePercent(op.getPrefix().trim());
    bool hex = op.getHex();

    if (op.getArgs().empty()) {
      Value first = LLVM::ICmpOp::create(rewriter, loc,
                                         LLVM::ICmpPredicate::eq,
                                         getThreadId(rewriter, loc),
                                         createI32(rewriter, loc, 0));
      createIfThen(rewriter, loc, first, [&](RewriterBase &b) {
        callVprintf(b, loc, state, "pid (%u, %u, %u) " + label + "\n", pid);
      });
      rewriter.eraseOp(op);
      return success();
    }

    auto [lane, warp] = getLaneAndWarp(rewriter, loc, state.threadsPerWarp);
    unsigned numArgs = op.getArgs().size();
    for (auto [i, original, converted] :
         llvm::enumerate(op.getArgs(), adaptor.getArgs())) {
      std::string operandNote =
          numArgs > 1 ? " (operand " + std::to_string(i) + ")" : "";
      auto tensorType = dyn_cast<RankedTensorType>(original.getType());
      if (!tensorType) {
        // A scalar: every thread holds it; thread 0 prints.
        Value first = LLVM::ICmpOp::create(rewriter, loc,
                                           LLVM::ICmpPredicate::eq,
                                           getThreadId(rewriter, loc),
                                           createI32(rewriter, loc, 0));
        // `converted` is a structured binding: C++17 lambdas may not
        // capture it by name (clang rejects that; the fuzz build uses
        // clang), so it is copied into the lambda.
        createIfThen(rewriter, loc, first, [&, converted = converted](
                                               RewriterBase &b) {
          auto [conv, value] = formatElement(b, loc, converted, hex);
          SmallVector<Value> args(pid);
          args.push_back(value);
          callVprintf(b, loc, state,
                      "pid (%u, %u, %u) " + label + operandNote + " " + conv +
                          "\n",
                      args);
        });
        continue;
      }
      LinearLayout layout = getDistributedLayout(tensorType);
      SmallVector<Value> values = unpackValues(rewriter, loc, converted);
      SmallVector<SmallVector<Value>> indices =
          emitIndices(rewriter, loc, layout, lane, warp);
      Value owner = emitUniqueOwnerPredicate(rewriter, loc, layout, lane, warp);
      auto printAll = [&](RewriterBase &b) {
        for (unsigned r = 0; r < values.size(); ++r) {
          if (isDuplicateRegister(layout, r))
            continue;
          auto [conv, value] = formatElement(b, loc, values[r], hex);
          std::string format = "pid (%u, %u, %u) idx (";
          SmallVector<Value> args(pid);
          for (unsigned d = 0; d < indices[r].size(); ++d) {
            format += d ? ", %d" : "%d";
            args.push_back(indices[r][d]);
          }
          format += ") " + label + operandNote + " " + conv + "\n";
          args.push_back(value);
          callVprintf(b, loc, state, format, args);
        }
      };
      if (owner)
        createIfThen(rewriter, loc, owner, printAll);
      else
        printAll(rewriter);
    }
    rewriter.eraseOp(op);
    return success();
  }

  LoweringState &state;
};

/// The innermost file:line:col of a location.
static std::optional<FileLineColLoc> findFileLoc(Location loc) {
  std::optional<FileLineColLoc> found;
  loc->walk([&](Location l) {
    if (auto f = dyn_cast<FileLineColLoc>(l)) {
      found = f;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

struct AssertConversion : public OpConversionPattern<tk::AssertOp> {
  AssertConversion(TkgpuToLlvmTypeConverter &converter, LoweringState &state)
      : OpConversionPattern(converter, &converter.getContext()),
        state(state) {}

  LogicalResult
  matchAndRewrite(tk::AssertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // Any element false?
    Value anyFalse;
    Value trueValue = createI1(rewriter, loc, true);
    for (Value c : unpackValues(rewriter, loc, adaptor.getCondition())) {
      Value isFalse = LLVM::XOrOp::create(rewriter, loc, c, trueValue);
      anyFalse = anyFalse ? LLVM::OrOp::create(rewriter, loc, anyFalse, isFalse)
                                .getResult()
                          : isFalse;
    }

    std::string file = "unknown";
    unsigned line = 0;
    if (auto fileLoc = findFileLoc(loc)) {
      file = fileLoc->getFilename().str();
      line = fileLoc->getLine();
    }
    std::string function = "unknown";
    if (auto parent = op->getParentOfType<FunctionOpInterface>())
      function = SymbolTable::getSymbolName(parent).str();

    createIfThen(rewriter, loc, anyFalse, [&](RewriterBase &b) {
      MLIRContext *ctx = b.getContext();
      auto ptrType = LLVM::LLVMPointerType::get(ctx);
      auto assertFail = getOrDeclareFunction(
          b, state.module, "__assertfail",
          LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx),
                                      {ptrType, ptrType, b.getI32Type(),
                                       ptrType, b.getI64Type()}));
      Value args[] = {getStringConstant(b, loc, state, op.getMessage()),
                      getStringConstant(b, loc, state, file),
                      createI32(b, loc, line),
                      getStringConstant(b, loc, state, function),
                      createIntConstant(b, loc, b.getI64Type(), 1)};
      LLVM::CallOp::create(b, loc, assertFail, args);
    });
    rewriter.eraseOp(op);
    return success();
  }

  LoweringState &state;
};

/// debug_barrier: bar.sync 0 for every thread of the CTA.
struct DebugBarrierConversion
    : public OpConversionPattern<tk::DebugBarrierOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tk::DebugBarrierOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    createBarrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void tkgpu::populatePrintAssertOpToLlvmPatterns(
    TkgpuToLlvmTypeConverter &converter, LoweringState &state,
    RewritePatternSet &patterns) {
  patterns.add<PrintConversion, AssertConversion>(converter, state);
  patterns.add<DebugBarrierConversion>(converter, &converter.getContext());
}
