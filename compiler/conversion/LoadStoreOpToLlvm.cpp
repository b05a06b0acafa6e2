//===- LoadStoreOpToLlvm.cpp - global loads, stores and atomics -----------===//
//
// Each access is one predicated inline PTX instruction moving `vec`
// consecutive elements (up to 128 bits): the vector width was chosen before
// the conversion from AxisInfo (contiguity, pointer alignment, mask
// constancy) and the layout (consecutive registers). Inline asm is what
// reliably gives `ld.global.v4.b32` under a predicate; masked-off elements
// take `other` through a predicated mov before the load.
//
// Tensors whose layout replicates data (free lane/warp bits) store and
// update memory from one owner only. Atomic results reach the other
// threads through shared memory. Atomics are one element per instruction,
// except float adds on sm_90 (f32, f16, bf16), which PTX has in vector
// form: `atom.global.add.v4.f32`, `.add.noftz.v8.f16`, with the width
// chosen as for a store. bf16 adds on sm_80, which has none, are a
// compare-and-swap loop on the 16-bit word.
//
//===----------------------------------------------------------------------===//
#include "compiler/conversion/PatternSets.h"

#include "dialects/tk/TkDialect.h"
#include "dialects/tkgpu/TkgpuDialect.h"

#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

/// How `vec` elements of `elementBits` bits travel in PTX registers.
struct WordShape {
  unsigned wordBits;     // 8, 16, 32 or 64
  unsigned numWords;     // 1, 2 or 4
  unsigned elemsPerWord; // elements packed in one word

  WordShape(unsigned vec, unsigned elementBits) {
    unsigned total = vec * elementBits;
    if (elementBits >= 32) {
      wordBits = elementBits;
      numWords = vec;
      elemsPerWord = 1;
    } else if (total >= 32) {
      wordBits = 32;
      numWords = total / 32;
      elemsPerWord = 32 / elementBits;
    } else {
      wordBits = total;
      numWords = 1;
      elemsPerWord = vec;
    }
  }

  /// PTX register width: 8-bit values live in 16-bit registers.
  unsigned registerBits() const { return wordBits == 8 ? 16 : wordBits; }
  std::string vectorSuffix() const {
    return numWords > 1 ? ".v" + std::to_string(numWords) : "";
  }
};

/// A value as it is in memory: i1 -> i8, pointers -> i64, else itself.
static Value toMemoryBits(OpBuilder &b, Location loc, Value value) {
  Type type = value.getType();
  if (type.isInteger(1))
    return LLVM::ZExtOp::create(b, loc, b.getI8Type(), value);
  if (isa<LLVM::LLVMPointerType>(type))
    return LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), value);
  return value;
}

static Value fromMemoryBits(OpBuilder &b, Location loc, Value value,
                            Type elementType) {
  if (elementType.isInteger(1))
    return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, value,
                                createIntConstant(b, loc, value.getType(), 0));
  if (isa<LLVM::LLVMPointerType>(elementType))
    return LLVM::IntToPtrOp::create(b, loc, elementType, value);
  if (value.getType() != elementType)
    return LLVM::BitcastOp::create(b, loc, elementType, value);
  return value;
}

/// Packs elements (memory representation) into one integer word.
static Value packWord(OpBuilder &b, Location loc, ArrayRef<Value> elements,
                      unsigned wordBits) {
  Type wordType = b.getIntegerType(wordBits);
  if (elements.size() == 1) {
    Value e = elements[0];
    if (e.getType() == wordType)
      return e;
    return LLVM::BitcastOp::create(b, loc, wordType, e);
  }
  auto vecType = VectorType::get({static_cast<int64_t>(elements.size())},
                                 elements[0].getType());
  Value vec = LLVM::UndefOp::create(b, loc, vecType);
  for (auto [i, e] : llvm::enumerate(elements))
    vec = LLVM::InsertElementOp::create(b, loc, vec, e, createI32(b, loc, i));
  return LLVM::BitcastOp::create(b, loc, wordType, vec);
}

/// Unpacks a word into `count` elements of `memoryType`.
static SmallVector<Value> unpackWord(OpBuilder &b, Location loc, Value word,
                                     unsigned count, Type memoryType) {
  if (count == 1) {
    if (word.getType() == memoryType)
      return {word};
    return {LLVM::BitcastOp::create(b, loc, memoryType, word)};
  }
  auto vecType = VectorType::get({static_cast<int64_t>(count)}, memoryType);
  Value vec = LLVM::BitcastOp::create(b, loc, vecType, word);
  SmallVector<Value> elements;
  for (unsigned i = 0; i < count; ++i)
    elements.push_back(
        LLVM::ExtractElementOp::create(b, loc, vec, createI32(b, loc, i)));
  return elements;
}

/// The integer type of elements in memory (f32 stays f32: bitcast later).
static Type getMemoryBitsType(OpBuilder &b, Type llvmElementType) {
  if (llvmElementType.isInteger(1))
    return b.getI8Type();
  if (isa<LLVM::LLVMPointerType>(llvmElementType))
    return b.getI64Type();
  return llvmElementType;
}

/// Whether every tensor among `values` is laid out like `reference` (so
/// that element i of each struct is the same tensor element).
static bool haveSameLayout(ValueRange values, Type reference) {
  auto referenceType = dyn_cast<RankedTensorType>(reference);
  for (Value v : values) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || !referenceType)
      continue;
    if (type.getShape() != referenceType.getShape() ||
        !areLayoutsEquivalent(type.getShape(), type.getEncoding(),
                              referenceType.getEncoding()))
      return false;
  }
  return true;
}

static unsigned getVectorWidth(const LoweringState &state, Operation *op) {
  auto it = state.vectorWidths.find(op);
  return it == state.vectorWidths.end() ? 1 : it->second;
}

//===----------------------------------------------------------------------===//
// load
//===----------------------------------------------------------------------===//

struct LoadConversion : public OpConversionPattern<tk::LoadOp> {
  LoadConversion(TkgpuToLlvmTypeConverter &converter, LoweringState &state)
      : OpConversionPattern(converter, &converter.getContext()),
        state(state) {}

  LogicalResult
  matchAndRewrite(tk::LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!haveSameLayout(op->getOperands(), op.getType()))
      return rewriter.notifyMatchFailure(
          op, "operand layouts differ from the result layout");
    Location loc = op.getLoc();
    Type elementType = getElementTypeOrSelf(op.getType());
    Type llvmElementType = getTypeConverter()->convertType(elementType);
    Type memoryType = getMemoryBitsType(rewriter, llvmElementType);
    unsigned elementBits = getMemoryBitWidth(elementType);

    SmallVector<Value> ptrs = unpackValues(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> masks, others;
    if (adaptor.getMask())
      masks = unpackValues(rewriter, loc, adaptor.getMask());
    if (adaptor.getOther())
      others = unpackValues(rewriter, loc, adaptor.getOther());
    unsigned vec = getVectorWidth(state, op);
    WordShape words(vec, elementBits);
    StringRef wordConstraint = getConstraintForBits(words.wordBits);
    Type wordType = rewriter.getIntegerType(words.wordBits);

    SmallVector<Value> results;
    for (unsigned r = 0; r < ptrs.size(); r += vec) {
      Value mask = masks.empty() ? Value() : masks[r];
      PtxAsm ptx;
      SmallVector<unsigned> outs;
      for (unsigned w = 0; w < words.numWords; ++w)
        outs.push_back(ptx.addOutput(wordType, wordConstraint));
      std::optional<unsigned> pred;
      if (mask)
        pred = ptx.addInput(mask, "b");
      unsigned addr = ptx.addInput(ptrs[r], "l");

      std::string text;
      if (mask && !others.empty()) {
        for (unsigned w = 0; w < words.numWords; ++w) {
          SmallVector<Value> elems;
          for (unsigned i = 0; i < words.elemsPerWord; ++i)
            elems.push_back(toMemoryBits(
                rewriter, loc, others[r + w * words.elemsPerWord + i]));
          unsigned in = ptx.addInput(
              packWord(rewriter, loc, elems, words.wordBits), wordConstraint);
          text += "@!" + PtxAsm::operand(*pred) + " mov.b" +
                  std::to_string(words.registerBits()) + " " +
                  PtxAsm::operand(outs[w]) + ", " + PtxAsm::operand(in) +
                  ";\n\t";
        }
      }
      if (mask)
        text += "@" + PtxAsm::operand(*pred) + " ";
      text += std::string("ld.global") +
              (op.getIsVolatile() ? ".volatile" : "") + words.vectorSuffix() +
              ".b" + std::to_string(words.wordBits) + " ";
      if (words.numWords > 1) {
        text += "{";
        for (unsigned w = 0; w < words.numWords; ++w)
          text += (w ? ", " : "") + PtxAsm::operand(outs[w]);
        text += "}";
      } else {
        text += PtxAsm::operand(outs[0]);
      }
      text += ", [ " + PtxAsm::operand(addr) + " + 0 ];";

      SmallVector<Value> loaded = ptx.emit(rewriter, loc, text);
      for (Value word : loaded)
        for (Value e : unpackWord(rewriter, loc, word, words.elemsPerWord,
                                  memoryType))
          results.push_back(fromMemoryBits(rewriter, loc, e, llvmElementType));
    }
    rewriter.replaceOp(op, packValues(rewriter, loc,
                                      getTypeConverter()->convertType(
                                          op.getType()),
                                      results));
    return success();
  }

  LoweringState &state;
};

//===----------------------------------------------------------------------===//
// store
//===----------------------------------------------------------------------===//

/// The predicate selecting the one thread that performs a side effect for
/// replicated data: unique owners for tensors, thread 0 for scalars.
static Value getWriterPredicate(OpBuilder &b, Location loc,
                                const LoweringState &state, Type ptrType) {
  if (!isa<RankedTensorType>(ptrType)) {
    Value tid = getThreadId(b, loc);
    return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, tid,
                                createI32(b, loc, 0));
  }
  LinearLayout layout = getDistributedLayout(ptrType);
  auto [lane, warp] = getLaneAndWarp(b, loc, state.threadsPerWarp);
  return emitUniqueOwnerPredicate(b, loc, layout, lane, warp);
}

struct StoreConversion : public OpConversionPattern<tk::StoreOp> {
  StoreConversion(TkgpuToLlvmTypeConverter &converter, LoweringState &state)
      : OpConversionPattern(converter, &converter.getContext()),
        state(state) {}

  LogicalResult
  matchAndRewrite(tk::StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!haveSameLayout(op->getOperands(), op.getPtr().getType()))
      return rewriter.notifyMatchFailure(
          op, "operand layouts differ from the pointer layout");
    Location loc = op.getLoc();
    Type ptrType = op.getPtr().getType();
    Type elementType = getElementTypeOrSelf(op.getValue().getType());
    unsigned elementBits = getMemoryBitWidth(elementType);

    SmallVector<Value> ptrs = unpackValues(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> values = unpackValues(rewriter, loc, adaptor.getValue());
    SmallVector<Value> masks;
    if (adaptor.getMask())
      masks = unpackValues(rewriter, loc, adaptor.getMask());
    Value writer = getWriterPredicate(rewriter, loc, state, ptrType);
    std::optional<LinearLayout> layout;
    if (isa<RankedTensorType>(ptrType))
      layout = getDistributedLayout(ptrType);

    unsigned vec = getVectorWidth(state, op);
    WordShape words(vec, elementBits);
    StringRef wordConstraint = getConstraintForBits(words.wordBits);

    for (unsigned r = 0; r < ptrs.size(); r += vec) {
      if (layout && isDuplicateRegister(*layout, r))
        continue;
      Value pred = createAnd(rewriter, loc, masks.empty() ? Value() : masks[r],
                             writer);
      PtxAsm ptx;
      std::optional<unsigned> predOperand;
      if (pred)
        predOperand = ptx.addInput(pred, "b");
      unsigned addr = ptx.addInput(ptrs[r], "l");
      SmallVector<unsigned> ins;
      for (unsigned w = 0; w < words.numWords; ++w) {
        SmallVector<Value> elems;
        for (unsigned i = 0; i < words.elemsPerWord; ++i)
          elems.push_back(toMemoryBits(rewriter, loc,
                                       values[r + w * words.elemsPerWord + i]));
        ins.push_back(ptx.addInput(
            packWord(rewriter, loc, elems, words.wordBits), wordConstraint));
      }
      std::string text;
      if (pred)
        text += "@" + PtxAsm::operand(*predOperand) + " ";
      text += "st.global" + words.vectorSuffix() + ".b" +
              std::to_string(words.wordBits) + " [ " + PtxAsm::operand(addr) +
              " + 0 ], ";
      if (words.numWords > 1) {
        text += "{";
        for (unsigned w = 0; w < words.numWords; ++w)
          text += (w ? ", " : "") + PtxAsm::operand(ins[w]);
        text += "}";
      } else {
        text += PtxAsm::operand(ins[0]);
      }
      text += ";";
      ptx.emit(rewriter, loc, text);
    }
    rewriter.eraseOp(op);
    return success();
  }

  LoweringState &state;
};

//===----------------------------------------------------------------------===//
// atomics
//===----------------------------------------------------------------------===//

static std::string getSemanticSuffix(tk::MemSemantic sem) {
  switch (sem) {
  case tk::MemSemantic::Relaxed:
    return ".relaxed";
  case tk::MemSemantic::Acquire:
    return ".acquire";
  case tk::MemSemantic::Release:
    return ".release";
  case tk::MemSemantic::AcqRel:
    return ".acq_rel";
  }
  return "";
}

static std::string getScopeSuffix(tk::MemScope scope) {
  switch (scope) {
  case tk::MemScope::Gpu:
    return ".gpu";
  case tk::MemScope::Cta:
    return ".cta";
  case tk::MemScope::Sys:
    return ".sys";
  }
  return "";
}

/// Old values of an atomic computed by the writer threads only: make every
/// thread see them (through the op's scratch; getAtomicScratchBytes),
/// unless nobody reads them.
static SmallVector<Value>
broadcastAtomicResults(ConversionPatternRewriter &rewriter, Location loc,
                       LoweringState &state, Operation *op, Value writer,
                       SmallVector<Value> results, Type elementType) {
  if (op->getResult(0).use_empty() || !writer)
    return results;
  Type ptrType = op->getOperand(0).getType();
  auto [lane, warp] = getLaneAndWarp(rewriter, loc, state.threadsPerWarp);
  if (auto tensorType = dyn_cast<RankedTensorType>(ptrType)) {
    LinearLayout layout = getDistributedLayout(tensorType);
    SharedView view = SharedView::rowMajor(tensorType.getShape());
    view.byteOffset = getAllocatedOffset(op, kScratchOffsetAttr);
    storeDistributed(rewriter, loc, state, results, layout,
                     tensorType.getShape(), view, elementType, lane, warp,
                     writer);
    createBarrier(rewriter, loc);
    return loadDistributed(rewriter, loc, state, layout, tensorType.getShape(),
                           view, elementType, lane, warp);
  }
  // A scalar: thread 0 holds it.
  LinearLayout single({{kRegister, {}}, {kLane, {}}, {kWarp, {}}}, {});
  SharedView view;
  view.byteOffset = getAllocatedOffset(op, kScratchOffsetAttr);
  storeDistributed(rewriter, loc, state, results, single, {}, view, elementType,
                   lane, warp, writer);
  createBarrier(rewriter, loc);
  return loadDistributed(rewriter, loc, state, single, {}, view, elementType,
                         lane, warp);
}

struct AtomicRMWConversion : public OpConversionPattern<tk::AtomicRMWOp> {
  AtomicRMWConversion(TkgpuToLlvmTypeConverter &converter,
                      LoweringState &state)
      : OpConversionPattern(converter, &converter.getContext()),
        state(state) {}

  LogicalResult
  matchAndRewrite(tk::AtomicRMWOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type ptrType = op.getPtr().getType();
    Type elementType = getElementTypeOrSelf(op.getValue().getType());
    Type llvmElementType = getTypeConverter()->convertType(elementType);
    unsigned bits = elementType.getIntOrFloatBitWidth();
    bool isFloat = isa<FloatType>(elementType);
    tk::AtomicKind kind = op.getKind();

    // The PTX operation and type; float max/min use two integer atomics.
    std::string opName, typeName;
    bool floatMinMax = false;
    std::string intBits = std::to_string(bits);
    switch (kind) {
    case tk::AtomicKind::Add:
      opName = "add";
      if (!isFloat)
        typeName = ".u" + intBits;
      else if (elementType.isF16())
        typeName = ".noftz.f16";
      else if (elementType.isBF16())
        typeName = ".noftz.bf16";
      else
        typeName = ".f" + intBits;
      break;
    case tk::AtomicKind::Max:
    case tk::AtomicKind::Min:
      opName = kind == tk::AtomicKind::Max ? "max" : "min";
      typeName = ".s" + intBits;
      floatMinMax = isFloat;
      break;
    case tk::AtomicKind::UMax:
    case tk::AtomicKind::UMin:
      opName = kind == tk::AtomicKind::UMax ? "max" : "min";
      typeName = ".u" + intBits;
      break;
    case tk::AtomicKind::Xchg:
      opName = "exch";
      typeName = ".b" + intBits;
      break;
    case tk::AtomicKind::And:
    case tk::AtomicKind::Or:
    case tk::AtomicKind::Xor:
      opName = kind == tk::AtomicKind::And  ? "and"
               : kind == tk::AtomicKind::Or ? "or"
                                            : "xor";
      typeName = ".b" + intBits;
      break;
    }
    if (bits < 32 && !(kind == tk::AtomicKind::Add && isFloat))
      return op.emitOpError("on ") << elementType
                                   << " is not supported (PTX atomics are 32 "
                                      "or 64 bits wide)";
    // sm_80 has no bf16 atomic add: a compare-and-swap loop on the 16-bit
    // word (atom.cas.b16, sm_70), the sum by fma.rn.bf16 (x * 1 + v, one
    // rounding, as an add).
    bool bf16CasLoop = elementType.isBF16() && state.computeCapability < 90;
    if (floatMinMax && bits != 32 && bits != 64)
      return op.emitOpError("float atomic max/min needs f32 or f64");

    std::string prefix = "atom" + getSemanticSuffix(op.getSem()) +
                         getScopeSuffix(op.getScope()) + ".global.";
    SmallVector<Value> ptrs = unpackValues(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> values = unpackValues(rewriter, loc, adaptor.getValue());
    SmallVector<Value> masks;
    if (adaptor.getMask())
      masks = unpackValues(rewriter, loc, adaptor.getMask());
    Value writer = getWriterPredicate(rewriter, loc, state, ptrType);
    std::optional<LinearLayout> layout;
    if (isa<RankedTensorType>(ptrType))
      layout = getDistributedLayout(ptrType);

    Type intType = rewriter.getIntegerType(bits);
    StringRef constraint = getConstraintForBits(bits);
    std::string movZero =
        "mov.b" + std::to_string(bits) + " $0, 0;\n\t";
    SmallVector<Value> results(ptrs.size());
    // The float adds sm_90 has in vector form take `vec` consecutive
    // registers per instruction, which getAccessVectorWidth found
    // contiguous, aligned and under one mask bit; the others one each.
    unsigned vec = getVectorWidth(state, op);
    std::string vectorSuffix; // ".v4.f32", ".noftz.v8.f16", ...
    if (vec > 1)
      vectorSuffix = (elementType.isF32() ? "" : ".noftz") +
                     (".v" + std::to_string(vec)) +
                     (elementType.isF32()   ? ".f32"
                      : elementType.isF16() ? ".f16"
                                            : ".bf16");
    for (unsigned r = 0; r < ptrs.size(); r += vec) {
      if (layout && isDuplicateRegister(*layout, r))
        continue;
      Value pred = createAnd(rewriter, loc, masks.empty() ? Value() : masks[r],
                             writer);
      if (!pred)
        pred = createI1(rewriter, loc, true);
      if (vec > 1) {
        PtxAsm ptx;
        std::string zeros, outs, ins;
        for (unsigned i = 0; i < vec; ++i) {
          unsigned out = ptx.addOutput(intType, constraint);
          zeros += "mov.b" + intBits + " " + PtxAsm::operand(out) + ", 0;\n\t";
          outs += (i ? ", " : "") + PtxAsm::operand(out);
        }
        unsigned p = ptx.addInput(pred, "b");
        unsigned addr = ptx.addInput(ptrs[r], "l");
        for (unsigned i = 0; i < vec; ++i) {
          Value word =
              LLVM::BitcastOp::create(rewriter, loc, intType, values[r + i]);
          ins += (i ? ", " : "") + PtxAsm::operand(ptx.addInput(word, constraint));
        }
        SmallVector<Value> old = ptx.emit(
            rewriter, loc,
            zeros + "@" + PtxAsm::operand(p) + " " + prefix + "add" +
                vectorSuffix + " {" + outs + "}, [ " + PtxAsm::operand(addr) +
                " + 0 ], {" + ins + "};");
        for (unsigned i = 0; i < vec; ++i)
          results[r + i] =
              LLVM::BitcastOp::create(rewriter, loc, llvmElementType, old[i]);
        continue;
      }
      Value bitsValue = values[r];
      if (isFloat)
        bitsValue = LLVM::BitcastOp::create(rewriter, loc, intType, bitsValue);
      Value old;
      if (floatMinMax) {
        // Non-negative floats order like signed integers; negative floats
        // order reversed like unsigned integers.
        Value negative = LLVM::ICmpOp::create(
            rewriter, loc, LLVM::ICmpPredicate::slt, bitsValue,
            createIntConstant(rewriter, loc, intType, 0));
        Value notNegative = LLVM::XOrOp::create(
            rewriter, loc, negative, createI1(rewriter, loc, true));
        PtxAsm ptx;
        ptx.addOutput(intType, constraint);
        unsigned pPos = ptx.addInput(
            createAnd(rewriter, loc, pred, notNegative), "b");
        unsigned pNeg =
            ptx.addInput(createAnd(rewriter, loc, pred, negative), "b");
        unsigned addr = ptx.addInput(ptrs[r], "l");
        unsigned val = ptx.addInput(bitsValue, constraint);
        std::string reversed = opName == "max" ? "min" : "max";
        std::string text =
            movZero + "@" + PtxAsm::operand(pPos) + " " + prefix + opName +
            ".s" + intBits + " $0, [ " + PtxAsm::operand(addr) + " + 0 ], " +
            PtxAsm::operand(val) + ";\n\t@" + PtxAsm::operand(pNeg) + " " +
            prefix + reversed + ".u" + intBits + " $0, [ " +
            PtxAsm::operand(addr) + " + 0 ], " + PtxAsm::operand(val) + ";";
        old = ptx.emit(rewriter, loc, text)[0];
      } else if (bf16CasLoop) {
        PtxAsm ptx;
        ptx.addOutput(intType, constraint);
        std::string p = PtxAsm::operand(ptx.addInput(pred, "b"));
        std::string addr = PtxAsm::operand(ptx.addInput(ptrs[r], "l"));
        std::string val = PtxAsm::operand(ptx.addInput(bitsValue, constraint));
        // Braces scope the registers and labels to this copy of the loop.
        std::string text =
            "{\n\t.reg .pred done;\n\t.reg .b16 cur, sum, one;\n\t" +
            movZero + "@!" + p + " bra SKIP;\n\tmov.b16 one, 0x3F80;\n\t" +
            "ld.global.b16 cur, [ " + addr + " + 0 ];\n" +
            "LOOP:\n\tfma.rn.bf16 sum, cur, one, " + val + ";\n\t" + prefix +
            "cas.b16 $0, [ " + addr + " + 0 ], cur, sum;\n\t" +
            "setp.eq.b16 done, $0, cur;\n\tmov.b16 cur, $0;\n\t" +
            "@!done bra LOOP;\n" + "SKIP:\n\t}";
        old = ptx.emit(rewriter, loc, text)[0];
      } else {
        PtxAsm ptx;
        ptx.addOutput(intType, constraint);
        unsigned p = ptx.addInput(pred, "b");
        unsigned addr = ptx.addInput(ptrs[r], "l");
        unsigned val = ptx.addInput(bitsValue, constraint);
        std::string text = movZero + "@" + PtxAsm::operand(p) + " " + prefix +
                           opName + typeName + " $0, [ " +
                           PtxAsm::operand(addr) + " + 0 ], " +
                           PtxAsm::operand(val) + ";";
        old = ptx.emit(rewriter, loc, text)[0];
      }
      if (isFloat)
        old = LLVM::BitcastOp::create(rewriter, loc, llvmElementType, old);
      results[r] = old;
    }
    // Registers repeating others take their value.
    if (layout) {
      auto free = layout->getFreeVariableMasks();
      int32_t regFree = free.count(kRegister) ? free[kRegister] : 0;
      for (unsigned r = 0; r < results.size(); ++r)
        if (!results[r])
          results[r] = results[r & ~regFree];
    }
    results = broadcastAtomicResults(rewriter, loc, state, op, writer,
                                     std::move(results), elementType);
    rewriter.replaceOp(op, packValues(rewriter, loc,
                                      getTypeConverter()->convertType(
                                          op.getType()),
                                      results));
    return success();
  }

  LoweringState &state;
};

struct AtomicCASConversion : public OpConversionPattern<tk::AtomicCASOp> {
  AtomicCASConversion(TkgpuToLlvmTypeConverter &converter,
                      LoweringState &state)
      : OpConversionPattern(converter, &converter.getContext()),
        state(state) {}

  LogicalResult
  matchAndRewrite(tk::AtomicCASOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type ptrType = op.getPtr().getType();
    Type elementType = getElementTypeOrSelf(op.getValue().getType());
    Type llvmElementType = getTypeConverter()->convertType(elementType);
    unsigned bits = elementType.getIntOrFloatBitWidth();
    if (bits != 16 && bits != 32 && bits != 64)
      return op.emitOpError("on ") << elementType << " is not supported";
    bool isFloat = isa<FloatType>(elementType);
    Type intType = rewriter.getIntegerType(bits);
    StringRef constraint = getConstraintForBits(bits);
    std::string prefix = "atom" + getSemanticSuffix(op.getSem()) +
                         getScopeSuffix(op.getScope()) + ".global.cas.b" +
                         std::to_string(bits);

    SmallVector<Value> ptrs = unpackValues(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> cmps = unpackValues(rewriter, loc, adaptor.getCmp());
    SmallVector<Value> values = unpackValues(rewriter, loc, adaptor.getValue());
    Value writer = getWriterPredicate(rewriter, loc, state, ptrType);
    std::optional<LinearLayout> layout;
    if (isa<RankedTensorType>(ptrType))
      layout = getDistributedLayout(ptrType);

    SmallVector<Value> results(ptrs.size());
    for (unsigned r = 0; r < ptrs.size(); ++r) {
      if (layout && isDuplicateRegister(*layout, r))
        continue;
      Value pred = writer ? writer : createI1(rewriter, loc, true);
      Value cmp = cmps[r], val = values[r];
      if (isFloat) {
        cmp = LLVM::BitcastOp::create(rewriter, loc, intType, cmp);
        val = LLVM::BitcastOp::create(rewriter, loc, intType, val);
      }
      PtxAsm ptx;
      ptx.addOutput(intType, constraint);
      unsigned p = ptx.addInput(pred, "b");
      unsigned addr = ptx.addInput(ptrs[r], "l");
      unsigned c = ptx.addInput(cmp, constraint);
      unsigned v = ptx.addInput(val, constraint);
      std::string text = "mov.b" + std::to_string(bits) + " $0, 0;\n\t@" +
                         PtxAsm::operand(p) + " " + prefix + " $0, [ " +
                         PtxAsm::operand(addr) + " + 0 ], " +
                         PtxAsm::operand(c) + ", " + PtxAsm::operand(v) + ";";
      Value old = ptx.emit(rewriter, loc, text)[0];
      if (isFloat)
        old = LLVM::BitcastOp::create(rewriter, loc, llvmElementType, old);
      results[r] = old;
    }
    if (layout) {
      auto free = layout->getFreeVariableMasks();
      int32_t regFree = free.count(kRegister) ? free[kRegister] : 0;
      for (unsigned r = 0; r < results.size(); ++r)
        if (!results[r])
          results[r] = results[r & ~regFree];
    }
    results = broadcastAtomicResults(rewriter, loc, state, op, writer,
                                     std::move(results), elementType);
    rewriter.replaceOp(op, packValues(rewriter, loc,
                                      getTypeConverter()->convertType(
                                          op.getType()),
                                      results));
    return success();
  }

  LoweringState &state;
};

} // namespace

void tkgpu::populateLoadStoreOpToLlvmPatterns(
    TkgpuToLlvmTypeConverter &converter, LoweringState &state,
    RewritePatternSet &patterns) {
  patterns.add<LoadConversion, StoreConversion, AtomicRMWConversion,
               AtomicCASConversion>(converter, state);
}
