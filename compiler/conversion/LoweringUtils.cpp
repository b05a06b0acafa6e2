//===- LoweringUtils.cpp - helpers of the tkgpu -> LLVM lowering ----------===//
#include "compiler/conversion/LoweringUtils.h"

#include "dialects/tk/TkDialect.h"
#include "dialects/tkgpu/TkgpuDialect.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tkgpu;

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

TkgpuToLlvmTypeConverter::TkgpuToLlvmTypeConverter(
    MLIRContext *ctx, const LowerToLLVMOptions &options)
    : LLVMTypeConverter(ctx, options) {
  addConversion([ctx](tk::PtrType) -> Type {
    return LLVM::LLVMPointerType::get(ctx, /*addressSpace=*/1);
  });
  // A CUtensorMap parameter: the generic address of the byval parameter.
  addConversion([ctx](TensorMapType) -> Type {
    return LLVM::LLVMPointerType::get(ctx);
  });
  // fp8 values are bytes (Fp8OpToLlvm.cpp converts them).
  addConversion([ctx](Float8E4M3FNType) -> Type {
    return IntegerType::get(ctx, 8);
  });
  addConversion([ctx](Float8E5M2Type) -> Type {
    return IntegerType::get(ctx, 8);
  });
  addConversion([this, ctx](RankedTensorType type) -> std::optional<Type> {
    auto encoding = getLayoutEncoding(type);
    if (!encoding || !encoding.isDistributed())
      return std::nullopt;
    Type element = convertType(type.getElementType());
    if (!element)
      return std::nullopt;
    int64_t count = getTotalElemsPerThread(type);
    return LLVM::LLVMStructType::getLiteral(
        ctx, SmallVector<Type>(count, element));
  });
  // A shared-memory buffer is the address of its first byte (its offset
  // from tk_smem already applied); every thread holds the same pointer.
  addConversion([ctx](MemDescType) -> Type {
    return LLVM::LLVMPointerType::get(ctx, /*addressSpace=*/3);
  });
}

Type tkgpu::getMemoryElementType(Type elementType) {
  // i1 is stored as a byte; fp8, which LLVM has no type for, as its bits.
  if (elementType.isInteger(1) || isa<Float8E4M3FNType, Float8E5M2Type>(elementType))
    return IntegerType::get(elementType.getContext(), 8);
  if (isa<tk::PtrType>(elementType))
    return LLVM::LLVMPointerType::get(elementType.getContext(), 1);
  return elementType;
}

unsigned tkgpu::getMemoryBitWidth(Type elementType) {
  Type memory = getMemoryElementType(elementType);
  if (isa<LLVM::LLVMPointerType>(memory))
    return 64;
  return memory.getIntOrFloatBitWidth();
}

//===----------------------------------------------------------------------===//
// Small builders
//===----------------------------------------------------------------------===//

Value tkgpu::createI32(OpBuilder &b, Location loc, int64_t value) {
  return createIntConstant(b, loc, b.getI32Type(), value);
}

Value tkgpu::createIntConstant(OpBuilder &b, Location loc, Type type,
                               int64_t value) {
  return LLVM::ConstantOp::create(b, loc, type,
                                  b.getIntegerAttr(type, value));
}

Value tkgpu::createFloatConstant(OpBuilder &b, Location loc, Type type,
                                 double value) {
  return LLVM::ConstantOp::create(b, loc, type, b.getFloatAttr(type, value));
}

Value tkgpu::createI1(OpBuilder &b, Location loc, bool value) {
  return createIntConstant(b, loc, b.getI1Type(), value);
}

Value tkgpu::createAnd(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  if (!lhs)
    return rhs;
  if (!rhs)
    return lhs;
  return LLVM::AndOp::create(b, loc, lhs, rhs);
}

SmallVector<Value> tkgpu::unpackValues(OpBuilder &b, Location loc,
                                       Value value) {
  auto structType = dyn_cast<LLVM::LLVMStructType>(value.getType());
  if (!structType)
    return {value};
  SmallVector<Value> elements;
  elements.reserve(structType.getBody().size());
  for (int64_t i = 0, e = structType.getBody().size(); i < e; ++i)
    elements.push_back(LLVM::ExtractValueOp::create(b, loc, value, i));
  return elements;
}

Value tkgpu::packValues(OpBuilder &b, Location loc, Type type,
                        ValueRange elements) {
  auto structType = dyn_cast<LLVM::LLVMStructType>(type);
  if (!structType) {
    assert(elements.size() == 1 && "a scalar packs one value");
    return elements[0];
  }
  assert(structType.getBody().size() == elements.size());
  Value result = LLVM::UndefOp::create(b, loc, structType);
  for (auto [i, element] : llvm::enumerate(elements))
    result = LLVM::InsertValueOp::create(b, loc, result, element, i);
  return result;
}

Value tkgpu::getThreadId(OpBuilder &b, Location loc) {
  return NVVM::ThreadIdXOp::create(b, loc, b.getI32Type());
}

std::pair<Value, Value> tkgpu::getLaneAndWarp(OpBuilder &b, Location loc,
                                              unsigned threadsPerWarp) {
  Value tid = getThreadId(b, loc);
  Value lane =
      LLVM::AndOp::create(b, loc, tid, createI32(b, loc, threadsPerWarp - 1));
  Value warp = LLVM::LShrOp::create(
      b, loc, tid, createI32(b, loc, llvm::Log2_32(threadsPerWarp)));
  return {lane, warp};
}

/// The warp_specialize region `block` is nested in, if any.
static Region *getPartitionRegion(Block *block) {
  for (Region *region = block ? block->getParent() : nullptr; region;
       region = region->getParentRegion())
    if (isa_and_nonnull<WarpSpecializeOp>(region->getParentOp()))
      return region;
  return nullptr;
}

Partition tkgpu::getPartition(Block *block) {
  Region *region = getPartitionRegion(block);
  if (!region)
    return Partition::None;
  auto split = cast<WarpSpecializeOp>(region->getParentOp());
  return region == &split.getProducer() ? Partition::Producer
                                        : Partition::Consumer;
}

unsigned tkgpu::getIssuingThread(Block *block) {
  if (getPartition(block) != Partition::Producer)
    return 0;
  return getNumWarps(getPartitionRegion(block)->getParentOp()) * 32;
}

void tkgpu::createBarrier(OpBuilder &b, Location loc) {
  Block *block = b.getInsertionBlock();
  Partition partition = getPartition(block);
  if (partition == Partition::None) {
    NVVM::Barrier0Op::create(b, loc);
    return;
  }
  unsigned threads =
      partition == Partition::Producer
          ? 32
          : getNumWarps(getPartitionRegion(block)->getParentOp()) * 32;
  NVVM::BarrierOp::create(
      b, loc, TypeRange{},
      createI32(b, loc,
                partition == Partition::Producer ? kProducerBarrierId
                                                 : kConsumerBarrierId),
      createI32(b, loc, threads), NVVM::BarrierReductionAttr(), Value());
}

Value tkgpu::getSharedMemoryBase(OpBuilder &b, Location loc, ModuleOp module) {
  auto global = module.lookupSymbol<LLVM::GlobalOp>(kSharedMemoryName);
  assert(global && "the pass creates the shared memory global first");
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), 3);
  return LLVM::AddressOfOp::create(b, loc, ptrType, global.getSymName());
}

Value tkgpu::getStringConstant(OpBuilder &b, Location loc,
                               LoweringState &state, StringRef text) {
  LLVM::GlobalOp &global = state.strings[text];
  if (!global) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(state.module.getBody());
    std::string bytes = text.str();
    bytes.push_back('\0');
    auto type = LLVM::LLVMArrayType::get(b.getI8Type(), bytes.size());
    std::string name = "tk_str_" + std::to_string(state.strings.size() - 1);
    global = LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true,
                                    LLVM::Linkage::Internal, name,
                                    b.getStringAttr(bytes), /*alignment=*/1);
  }
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
  return LLVM::AddressOfOp::create(b, loc, ptrType, global.getSymName());
}

LLVM::LLVMFuncOp tkgpu::getOrDeclareFunction(OpBuilder &b, ModuleOp module,
                                             StringRef name,
                                             LLVM::LLVMFunctionType type) {
  if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return existing;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  return LLVM::LLVMFuncOp::create(b, module.getLoc(), name, type);
}

void tkgpu::createIfThen(RewriterBase &b, Location loc, Value condition,
                         llvm::function_ref<void(RewriterBase &)> thenBody) {
  Block *current = b.getInsertionBlock();
  Block *after = b.splitBlock(current, b.getInsertionPoint());
  Block *then = b.createBlock(after);
  b.setInsertionPointToEnd(current);
  LLVM::CondBrOp::create(b, loc, condition, then, after);
  b.setInsertionPointToStart(then);
  thenBody(b);
  LLVM::BrOp::create(b, loc, after);
  b.setInsertionPointToStart(after);
}

//===----------------------------------------------------------------------===//
// Warp shuffles
//===----------------------------------------------------------------------===//

/// Shuffles one i32/f32 word.
static Value shuffleWord(OpBuilder &b, Location loc, Value word,
                         NVVM::ShflKind kind, Value offset,
                         int32_t maskAndClamp) {
  Value fullMask = createI32(b, loc, -1);
  return NVVM::ShflOp::create(b, loc, word.getType(), fullMask, word, offset,
                              createI32(b, loc, maskAndClamp), kind,
                              /*return_value_and_is_valid=*/UnitAttr());
}

static Value shuffle(OpBuilder &b, Location loc, Value value,
                     NVVM::ShflKind kind, Value offset, int32_t maskAndClamp) {
  Type type = value.getType();
  if (type.isF32() || type.isInteger(32))
    return shuffleWord(b, loc, value, kind, offset, maskAndClamp);
  Type i32 = b.getI32Type();
  if (isa<LLVM::LLVMPointerType>(type)) {
    Value asInt = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), value);
    Value shuffled = shuffle(b, loc, asInt, kind, offset, maskAndClamp);
    return LLVM::IntToPtrOp::create(b, loc, type, shuffled);
  }
  unsigned bits = type.getIntOrFloatBitWidth();
  Type asInt = b.getIntegerType(bits);
  Value intValue =
      isa<FloatType>(type) ? LLVM::BitcastOp::create(b, loc, asInt, value)
                           : value;
  Value result;
  if (bits < 32) {
    Value wide = LLVM::ZExtOp::create(b, loc, i32, intValue);
    Value shuffled = shuffleWord(b, loc, wide, kind, offset, maskAndClamp);
    result = LLVM::TruncOp::create(b, loc, asInt, shuffled);
  } else {
    assert(bits == 64 && "shuffles of at most 64 bits");
    auto vecType = VectorType::get({2}, i32);
    Value words = LLVM::BitcastOp::create(b, loc, vecType, intValue);
    Value merged = LLVM::UndefOp::create(b, loc, vecType);
    for (int i = 0; i < 2; ++i) {
      Value index = createI32(b, loc, i);
      Value word = LLVM::ExtractElementOp::create(b, loc, words, index);
      Value shuffled = shuffleWord(b, loc, word, kind, offset, maskAndClamp);
      merged = LLVM::InsertElementOp::create(b, loc, merged, shuffled, index);
    }
    result = LLVM::BitcastOp::create(b, loc, asInt, merged);
  }
  if (isa<FloatType>(type))
    result = LLVM::BitcastOp::create(b, loc, type, result);
  return result;
}

Value tkgpu::shuffleXor(OpBuilder &b, Location loc, Value value,
                        unsigned laneMask) {
  return shuffle(b, loc, value, NVVM::ShflKind::bfly,
                 createI32(b, loc, laneMask), 0x1f);
}

Value tkgpu::shuffleUp(OpBuilder &b, Location loc, Value value,
                       unsigned delta) {
  return shuffle(b, loc, value, NVVM::ShflKind::up, createI32(b, loc, delta),
                 0x0);
}

Value tkgpu::shuffleIdx(OpBuilder &b, Location loc, Value value,
                        Value srcLane) {
  return shuffle(b, loc, value, NVVM::ShflKind::idx, srcLane, 0x1f);
}

//===----------------------------------------------------------------------===//
// Combining functions
//===----------------------------------------------------------------------===//

Value tkgpu::emitCombine(OpBuilder &b, Location loc, CombineKind kind,
                         Value lhs, Value rhs) {
  bool isFloat = isa<FloatType>(lhs.getType());
  switch (kind) {
  case CombineKind::Sum:
    return isFloat ? LLVM::FAddOp::create(b, loc, lhs, rhs).getResult()
                   : LLVM::AddOp::create(b, loc, lhs, rhs).getResult();
  case CombineKind::Prod:
    return isFloat ? LLVM::FMulOp::create(b, loc, lhs, rhs).getResult()
                   : LLVM::MulOp::create(b, loc, lhs, rhs).getResult();
  case CombineKind::Max:
    return isFloat ? LLVM::MaximumOp::create(b, loc, lhs, rhs).getResult()
                   : LLVM::SMaxOp::create(b, loc, lhs, rhs).getResult();
  case CombineKind::Min:
    return isFloat ? LLVM::MinimumOp::create(b, loc, lhs, rhs).getResult()
                   : LLVM::SMinOp::create(b, loc, lhs, rhs).getResult();
  case CombineKind::UMax:
    return LLVM::UMaxOp::create(b, loc, lhs, rhs);
  case CombineKind::UMin:
    return LLVM::UMinOp::create(b, loc, lhs, rhs);
  case CombineKind::And:
    return LLVM::AndOp::create(b, loc, lhs, rhs);
  case CombineKind::Or:
    return LLVM::OrOp::create(b, loc, lhs, rhs);
  case CombineKind::Xor:
    return LLVM::XOrOp::create(b, loc, lhs, rhs);
  }
  llvm_unreachable("unknown combine kind");
}

Value tkgpu::emitCombineIdentity(OpBuilder &b, Location loc, CombineKind kind,
                                 Type type) {
  if (auto floatType = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &sem = floatType.getFloatSemantics();
    switch (kind) {
    case CombineKind::Prod:
      return createFloatConstant(b, loc, type, 1.0);
    case CombineKind::Max:
      return LLVM::ConstantOp::create(
          b, loc, type, b.getFloatAttr(type, llvm::APFloat::getInf(sem, true)));
    case CombineKind::Min:
      return LLVM::ConstantOp::create(
          b, loc, type,
          b.getFloatAttr(type, llvm::APFloat::getInf(sem, false)));
    default:
      return createFloatConstant(b, loc, type, 0.0);
    }
  }
  unsigned bits = type.getIntOrFloatBitWidth();
  llvm::APInt value(bits, 0);
  switch (kind) {
  case CombineKind::Prod:
    value = llvm::APInt(bits, 1);
    break;
  case CombineKind::Max:
    value = llvm::APInt::getSignedMinValue(bits);
    break;
  case CombineKind::Min:
    value = llvm::APInt::getSignedMaxValue(bits);
    break;
  case CombineKind::UMin:
  case CombineKind::And:
    value = llvm::APInt::getAllOnes(bits);
    break;
  default:
    break;
  }
  return LLVM::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, value));
}

//===----------------------------------------------------------------------===//
// Inline PTX
//===----------------------------------------------------------------------===//

unsigned PtxAsm::addOutput(Type type, StringRef constraint) {
  assert(inputs.empty() && "outputs come before inputs");
  outputTypes.push_back(type);
  outputConstraints.push_back(("=" + constraint).str());
  return outputTypes.size() - 1;
}

unsigned PtxAsm::addInput(Value value, StringRef constraint) {
  inputs.push_back(value);
  inputConstraints.push_back(constraint.str());
  return outputTypes.size() + inputs.size() - 1;
}

SmallVector<Value> PtxAsm::emit(OpBuilder &b, Location loc, StringRef text,
                                bool hasSideEffects) {
  std::string constraints;
  for (const std::string &c : outputConstraints)
    constraints += (constraints.empty() ? "" : ",") + c;
  for (const std::string &c : inputConstraints)
    constraints += (constraints.empty() ? "" : ",") + c;

  Type resultType;
  if (outputTypes.size() == 1)
    resultType = outputTypes[0];
  else if (outputTypes.size() > 1)
    resultType = LLVM::LLVMStructType::getLiteral(b.getContext(), outputTypes);
  auto op = LLVM::InlineAsmOp::create(
      b, loc, resultType ? TypeRange(resultType) : TypeRange(), inputs, text,
      constraints, hasSideEffects, /*is_align_stack=*/false,
      LLVM::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      /*operand_attrs=*/ArrayAttr());
  if (!resultType)
    return {};
  if (outputTypes.size() == 1)
    return {op.getResult(0)};
  return unpackValues(b, loc, op.getResult(0));
}

void tkgpu::storeSharedPredicated(OpBuilder &b, Location loc, Value ptr,
                                  ArrayRef<Value> elements, Value predicate) {
  Type elementType = elements[0].getType();
  unsigned bits = isa<LLVM::LLVMPointerType>(elementType)
                      ? 64
                      : elementType.getIntOrFloatBitWidth();
  unsigned total = bits * elements.size();
  unsigned wordBits = bits >= 32 ? bits : std::min(32u, total);
  unsigned perWord = wordBits / bits;
  Type wordType = b.getIntegerType(wordBits);
  PtxAsm ptx;
  unsigned pred = ptx.addInput(predicate, "b");
  unsigned addr = ptx.addInput(ptr, "l");
  SmallVector<unsigned> words;
  for (unsigned i = 0; i < elements.size(); i += perWord) {
    Value word;
    if (perWord == 1) {
      word = elements[i];
      if (isa<LLVM::LLVMPointerType>(elementType))
        word = LLVM::PtrToIntOp::create(b, loc, wordType, word);
      else if (word.getType() != wordType)
        word = LLVM::BitcastOp::create(b, loc, wordType, word);
    } else {
      auto vecType = VectorType::get({perWord}, elementType);
      Value vec = LLVM::UndefOp::create(b, loc, vecType);
      for (unsigned j = 0; j < perWord; ++j)
        vec = LLVM::InsertElementOp::create(b, loc, vec, elements[i + j],
                                            createI32(b, loc, j));
      word = LLVM::BitcastOp::create(b, loc, wordType, vec);
    }
    words.push_back(ptx.addInput(word, getConstraintForBits(wordBits)));
  }
  std::string text = "@" + PtxAsm::operand(pred) + " st.shared";
  if (words.size() > 1)
    text += ".v" + std::to_string(words.size());
  text += ".b" + std::to_string(wordBits) + " [ " + PtxAsm::operand(addr) +
          " + 0 ], ";
  if (words.size() > 1) {
    text += "{";
    for (auto [i, w] : llvm::enumerate(words))
      text += (i ? ", " : "") + PtxAsm::operand(w);
    text += "}";
  } else {
    text += PtxAsm::operand(words[0]);
  }
  ptx.emit(b, loc, text + ";");
}

StringRef tkgpu::getConstraintForBits(unsigned bits) {
  switch (bits) {
  case 1:
    return "b";
  case 8:
    return "c";
  case 16:
    return "h";
  case 32:
    return "r";
  default:
    return "l";
  }
}

//===----------------------------------------------------------------------===//
// Linear layouts
//===----------------------------------------------------------------------===//

LinearLayout tkgpu::getDistributedLayout(Type tensorType) {
  return toLinearLayout(tensorType);
}

/// Bits the lane/warp part of dimension `dim` may set.
static int32_t getThreadBitsOfDim(const LinearLayout &layout, unsigned dim) {
  int32_t bits = 0;
  for (const char *inDim : {kLane, kWarp})
    for (int32_t bit = 0, e = getInBits(layout, inDim); bit < e; ++bit)
      bits |= getBasisOrZero(layout, inDim, bit)[dim];
  return bits;
}

SmallVector<Value> tkgpu::emitThreadIndex(OpBuilder &b, Location loc,
                                          const LinearLayout &layout,
                                          Value lane, Value warp) {
  SmallVector<Value> index;
  for (unsigned d = 0; d < layout.getNumOutDims(); ++d) {
    Value acc;
    int32_t used = 0;
    for (auto [inDim, value] :
         {std::pair<const char *, Value>{kLane, lane}, {kWarp, warp}}) {
      for (int32_t bit = 0, e = getInBits(layout, inDim); bit < e; ++bit) {
        int32_t coord = getBasisOrZero(layout, inDim, bit)[d];
        if (coord == 0)
          continue;
        // term = bit `bit` of value, times coord.
        Value masked =
            LLVM::AndOp::create(b, loc, value, createI32(b, loc, 1 << bit));
        Value term;
        if (llvm::isPowerOf2_32(coord)) {
          int shift = static_cast<int>(llvm::Log2_32(coord)) - bit;
          if (shift > 0)
            term = LLVM::ShlOp::create(b, loc, masked, createI32(b, loc, shift));
          else if (shift < 0)
            term =
                LLVM::LShrOp::create(b, loc, masked, createI32(b, loc, -shift));
          else
            term = masked;
        } else {
          Value isSet = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne,
                                             masked, createI32(b, loc, 0));
          term = LLVM::SelectOp::create(b, loc, isSet, createI32(b, loc, coord),
                                        createI32(b, loc, 0));
        }
        if (!acc)
          acc = term;
        else if (used & coord)
          acc = LLVM::XOrOp::create(b, loc, acc, term);
        else
          acc = LLVM::OrOp::create(b, loc, acc, term);
        used |= coord;
      }
    }
    index.push_back(acc ? acc : createI32(b, loc, 0));
  }
  return index;
}

Value tkgpu::combineIndex(OpBuilder &b, Location loc,
                          const LinearLayout &layout, unsigned dim,
                          int32_t registerPart, Value threadPart) {
  if (registerPart == 0)
    return threadPart;
  Value reg = createI32(b, loc, registerPart);
  if (registerPart & getThreadBitsOfDim(layout, dim))
    return LLVM::XOrOp::create(b, loc, threadPart, reg);
  return LLVM::AddOp::create(b, loc, threadPart, reg);
}

SmallVector<SmallVector<Value>> tkgpu::emitIndices(OpBuilder &b, Location loc,
                                                   const LinearLayout &layout,
                                                   Value lane, Value warp) {
  SmallVector<Value> thread = emitThreadIndex(b, loc, layout, lane, warp);
  SmallVector<SmallVector<Value>> indices;
  int32_t numRegs = layout.getInDimSize(kRegister);
  for (int32_t reg = 0; reg < numRegs; ++reg) {
    SmallVector<int32_t> regIndex = getRegisterIndex(layout, reg);
    SmallVector<Value> index;
    for (unsigned d = 0; d < regIndex.size(); ++d)
      index.push_back(combineIndex(b, loc, layout, d, regIndex[d], thread[d]));
    indices.push_back(std::move(index));
  }
  return indices;
}

Value tkgpu::emitUniqueOwnerPredicate(OpBuilder &b, Location loc,
                                      const LinearLayout &layout, Value lane,
                                      Value warp) {
  std::map<std::string, int32_t> free = layout.getFreeVariableMasks();
  Value predicate;
  for (auto [inDim, value] :
       {std::pair<const char *, Value>{kLane, lane}, {kWarp, warp}}) {
    auto it = free.find(inDim);
    if (it == free.end() || it->second == 0)
      continue;
    Value bits =
        LLVM::AndOp::create(b, loc, value, createI32(b, loc, it->second));
    Value isZero = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, bits,
                                        createI32(b, loc, 0));
    predicate = createAnd(b, loc, predicate, isZero);
  }
  return predicate;
}

bool tkgpu::isDuplicateRegister(const LinearLayout &layout, int32_t reg) {
  std::map<std::string, int32_t> free = layout.getFreeVariableMasks();
  auto it = free.find(kRegister);
  return it != free.end() && (reg & it->second) != 0;
}
