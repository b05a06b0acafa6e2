//===- ProgramBuilder.cpp - tk IR -> the interpreter's flat program -------===//
//
// Walks a kernel once: gives every SSA value a slot in the frame, picks each
// operation's handler for its element types, and lowers scf control flow to
// jumps:
//
//   scf.for:   copy inits -> iter slots; ForEnter (iv = lb; exit if lb >= ub)
//              body; copy yielded -> iter slots; ForNext (loop while iv < ub)
//              The results are the iter slots.
//   scf.if:    BranchIfFalse else; then; copy -> results; Jump end; else: ...
//   scf.while: copy inits -> before slots; head: before; copy condition args
//              -> after slots (= the results); BranchIfFalse exit; after;
//              copy yielded -> before slots; Jump head.
//
// Values that only reinterpret another (reshape, expand_dims, bitcast, hint,
// int_to_ptr, ptr_to_int, the arguments of an inlined call) share its slot.
// Pure operations on constants run once, in the prologue.
//
//===----------------------------------------------------------------------===//
#include "compiler/interpreter/ProgramBuilder.h"

using namespace mlir;
using namespace ::tk::interp;
using llvm::Error;

static_assert(static_cast<int>(arith::CmpIPredicate::uge) ==
                  static_cast<int>(IntPredicate::UGE),
              "IntPredicate must number predicates as arith does");
static_assert(static_cast<int>(arith::CmpFPredicate::AlwaysTrue) ==
                  static_cast<int>(FloatPredicate::True),
              "FloatPredicate must number predicates as arith does");

using namespace ::tk::interp::detail;

namespace tk::interp::detail {

std::optional<ElementKind> kindOf(Type type) {
  if (auto integer = dyn_cast<IntegerType>(type)) {
    switch (integer.getWidth()) {
    case 1: return ElementKind::I1;
    case 8: return ElementKind::I8;
    case 16: return ElementKind::I16;
    case 32: return ElementKind::I32;
    case 64: return ElementKind::I64;
    default: return std::nullopt;
    }
  }
  if (isa<IndexType>(type))
    return ElementKind::I64;
  if (type.isF16())
    return ElementKind::F16;
  if (type.isBF16())
    return ElementKind::BF16;
  if (isa<Float8E4M3FNType>(type))
    return ElementKind::F8E4M3;
  if (isa<Float8E5M2Type>(type))
    return ElementKind::F8E5M2;
  if (type.isF32())
    return ElementKind::F32;
  if (type.isF64())
    return ElementKind::F64;
  if (isa<mlir::tk::PtrType>(type))
    return ElementKind::Ptr;
  return std::nullopt;
}

/// "f32", "i32", "*f16": the language's spelling of an IR type.
std::string sourceTypeName(Type type) {
  if (auto ptr = dyn_cast<mlir::tk::PtrType>(type))
    return "*" + sourceTypeName(ptr.getPointeeType());
  std::string text;
  llvm::raw_string_ostream os(text);
  if (isa<IndexType>(type))
    os << "i64";
  else
    os << type;
  return text;
}

/// The .tk position of a location, and the call site it was inlined at.
void describeLocation(Location loc, std::string &position,
                      std::string &inlinedAt) {
  if (auto file = dyn_cast<FileLineColRange>(loc)) {
    position = (file.getFilename().getValue() + ":" +
                llvm::Twine(file.getStartLine()) + ":" +
                llvm::Twine(file.getStartColumn()))
                   .str();
  } else if (auto name = dyn_cast<NameLoc>(loc)) {
    describeLocation(name.getChildLoc(), position, inlinedAt);
  } else if (auto call = dyn_cast<CallSiteLoc>(loc)) {
    describeLocation(call.getCallee(), position, inlinedAt);
    std::string callerPosition, ignored;
    describeLocation(call.getCaller(), callerPosition, ignored);
    if (inlinedAt.empty())
      inlinedAt = callerPosition;
  } else if (auto fused = dyn_cast<FusedLoc>(loc)) {
    for (Location part : fused.getLocations()) {
      describeLocation(part, position, inlinedAt);
      if (!position.empty())
        return;
    }
  } else if (auto opaque = dyn_cast<OpaqueLoc>(loc)) {
    describeLocation(opaque.getFallbackLocation(), position, inlinedAt);
  }
}

} // namespace tk::interp::detail

//===----------------------------------------------------------------------===//
// Slots and sites
//===----------------------------------------------------------------------===//

llvm::Expected<Slot> ProgramBuilder::slotFor(Operation *where, Type type) {
  Slot slot;
  Type element = type;
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    if (!tensor.hasStaticShape())
      return fail(where, "the interpreter needs static shapes, got " +
                             llvm::Twine(sourceTypeName(type)));
    if (tensor.getRank() > 8)
      return fail(where, "the interpreter supports tensors of rank <= 8");
    slot.shape.dims.assign(tensor.getShape().begin(), tensor.getShape().end());
    element = tensor.getElementType();
  }
  auto kind = kindOf(element);
  if (!kind) {
    std::string name;
    llvm::raw_string_ostream os(name);
    os << type;
    return fail(where, "the interpreter does not support values of type " +
                           llvm::Twine(name));
  }
  slot.kind = *kind;
  if (slot.bytes() > (uint64_t(1) << 30))
    return fail(where, "value too large for the interpreter");
  return slot;
}

llvm::Expected<Slot> ProgramBuilder::define(Operation *where, Value value) {
  auto slot = slotFor(where, value.getType());
  if (!slot)
    return slot.takeError();
  slot->offset = allocate(slot->bytes());
  slots[value] = *slot;
  return *slot;
}

void ProgramBuilder::alias(Value value, const Slot &storage, Type type) {
  Slot slot = storage;
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    slot.shape.dims.assign(tensor.getShape().begin(), tensor.getShape().end());
    slot.kind = *kindOf(tensor.getElementType());
  } else {
    slot.shape.dims.clear();
    slot.kind = *kindOf(type);
  }
  slots[value] = slot;
}

uint32_t ProgramBuilder::siteOf(Operation *op) {
  SourceSite site;
  describeLocation(op->getLoc(), site.position, site.inlinedAt);
  if (site.inlinedAt.empty() && !callSites.empty())
    site.inlinedAt = callSites.back();
  site.opName = op->getName().getStringRef().str();
  std::string key = site.position + "|" + site.inlinedAt + "|" + site.opName;
  auto [it, inserted] = siteIndex.try_emplace(key, program.sites.size());
  if (inserted)
    program.sites.push_back(std::move(site));
  return it->second;
}

Error ProgramBuilder::fail(Operation *op, const llvm::Twine &message) {
  const SourceSite &site = program.sites[siteOf(op)];
  std::string text;
  if (!site.position.empty())
    text = site.position + ": ";
  text += "error: " + message.str();
  if (!site.inlinedAt.empty())
    text += "\n" + site.inlinedAt + ": note: inlined from here";
  return llvm::createStringError(text);
}

Error ProgramBuilder::unsupported(Operation *op, const llvm::Twine &why) {
  std::string message = "the interpreter does not support '" +
                        op->getName().getStringRef().str() + "'";
  if (!why.isTriviallyEmpty())
    message += " " + why.str();
  return fail(op, message);
}

size_t ProgramBuilder::emit(Operation *op, Handler handler, uint32_t result,
                            std::initializer_list<uint32_t> operands,
                            int64_t count, int64_t imm, const AuxData *aux,
                            bool constant) {
  Instruction in;
  in.handler = handler;
  in.result = result;
  size_t i = 0;
  for (uint32_t operand : operands)
    in.operands[i++] = operand;
  in.count = static_cast<uint32_t>(count);
  in.site = siteOf(op);
  in.imm = imm;
  in.aux = aux;
  auto &list = constant ? program.prologue : program.body;
  list.push_back(in);
  return list.size() - 1;
}

bool ProgramBuilder::isConstantOp(Operation *op) const {
  if (op->getNumRegions() != 0 || !isPure(op) ||
      isa<mlir::tk::ProgramIdOp, mlir::tk::NumProgramsOp>(op))
    return false;
  return llvm::all_of(op->getOperands(),
                      [&](Value v) { return get(v).isConstant; });
}

Error ProgramBuilder::emitSimple(Operation *op, Handler handler,
                                 llvm::ArrayRef<Value> inputs, int64_t imm,
                                 const AuxData *aux) {
  if (!handler)
    return unsupported(op, "on these element types");
  bool constant = isConstantOp(op);
  auto result = define(op, op->getResult(0));
  if (!result)
    return result.takeError();
  uint32_t operands[3] = {kNoSlot, kNoSlot, kNoSlot};
  for (size_t i = 0; i < inputs.size(); ++i)
    operands[i] = inputs[i] ? get(inputs[i]).offset : kNoSlot;
  emit(op, handler, result->offset, {operands[0], operands[1], operands[2]},
       result->count(), imm, aux, constant);
  slots[op->getResult(0)].isConstant = constant;
  return Error::success();
}

Error ProgramBuilder::emitParallelCopy(Operation *op, ValueRange sources,
                                       llvm::ArrayRef<Slot> destinations) {
  auto overlaps = [](const Slot &a, const Slot &b) {
    return a.offset < b.offset + b.bytes() && b.offset < a.offset + a.bytes();
  };
  // A source that another copy overwrites first must be saved.
  bool needTemporaries = false;
  for (size_t i = 0; i < sources.size(); ++i)
    for (size_t j = 0; j < destinations.size(); ++j)
      if (i != j && get(sources[i]).offset != destinations[i].offset &&
          overlaps(get(sources[i]), destinations[j]))
        needTemporaries = true;

  Handler copy = copyHandler();
  llvm::SmallVector<std::pair<uint32_t, size_t>> pending; // (from, index)
  for (size_t i = 0; i < sources.size(); ++i) {
    const Slot &source = get(sources[i]);
    if (source.offset == destinations[i].offset)
      continue;
    uint32_t from = source.offset;
    if (needTemporaries) {
      uint32_t temporary = allocate(source.bytes());
      emit(op, copy, temporary, {from}, 0, source.bytes());
      from = temporary;
    }
    pending.push_back({from, i});
  }
  for (auto [from, i] : pending)
    emit(op, copy, destinations[i].offset, {from}, 0,
         destinations[i].bytes());
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Blocks and control flow
//===----------------------------------------------------------------------===//

Error ProgramBuilder::build(func::FuncOp kernel) {
  program.name = kernel.getSymName().str();
  if (auto module = kernel->getParentOfType<mlir::ModuleOp>())
    if (auto cluster =
            module->getAttrOfType<mlir::IntegerAttr>("tk.cluster_size"))
      program.clusterSize = cluster.getInt();
  if (kernel.isExternal())
    return fail(kernel, "kernel '" + program.name + "' has no body");
  if (!kernel.getBody().hasOneBlock())
    return fail(kernel, "the interpreter needs structured control flow (one "
                        "block per function)");
  auto names = kernel->getAttrOfType<ArrayAttr>("tk.arg_names");
  auto types = kernel->getAttrOfType<ArrayAttr>("tk.arg_types");
  auto specs = kernel->getAttrOfType<ArrayAttr>("tk.arg_specs");
  Block &entry = kernel.getBody().front();
  for (BlockArgument arg : entry.getArguments()) {
    unsigned i = arg.getArgNumber();
    if (isa<RankedTensorType>(arg.getType()))
      return fail(kernel, "kernel parameters must be scalars or pointers");
    auto slot = define(kernel, arg);
    if (!slot)
      return slot.takeError();
    KernelParam param;
    param.name = "arg" + std::to_string(i);
    if (names && i < names.size())
      if (auto name = dyn_cast<StringAttr>(names[i]))
        param.name = name.str();
    param.sourceType = sourceTypeName(arg.getType());
    if (types && i < types.size())
      if (auto type = dyn_cast<StringAttr>(types[i]))
        param.sourceType = type.str();
    if (auto ptr = dyn_cast<mlir::tk::PtrType>(arg.getType())) {
      param.isPointer = true;
      auto pointee = kindOf(ptr.getPointeeType());
      if (!pointee)
        return fail(kernel, "unsupported pointee type of parameter " +
                                llvm::Twine(param.name));
      param.element = *pointee;
    } else {
      param.element = slot->kind;
      param.isUnsigned = llvm::StringRef(param.sourceType).starts_with("u");
    }
    if (specs && i < specs.size())
      if (auto spec = dyn_cast<StringAttr>(specs[i])) {
        if (spec.getValue() == "div16")
          param.spec = KernelParam::Spec::Div16;
        else if (spec.getValue() == "one")
          param.spec = KernelParam::Spec::One;
        else if (spec.getValue() != "none")
          return fail(kernel, "unknown tk.arg_specs entry '" +
                                  spec.getValue() + "' for parameter " +
                                  param.name);
      }
    program.params.push_back(param);
    program.paramSlots.push_back(slot->offset);
  }
  return emitBlock(entry);
}

Error ProgramBuilder::emitBlock(Block &block) {
  for (Operation &op : block.without_terminator())
    if (Error error = emitOp(&op))
      return error;
  Operation *terminator = block.getTerminator();
  if (isa<func::ReturnOp>(terminator) && callStack.empty()) {
    // Leaving the kernel: the program instance ends.
    emit(terminator, haltHandler(), kNoSlot, {}, 0);
    return Error::success();
  }
  // Region terminators (scf.yield, scf.condition, an inlined func.return)
  // are handled by the operation owning the region.
  if (isa<scf::YieldOp, scf::ConditionOp, func::ReturnOp,
          mlir::tk::CombineReturnOp>(terminator))
    return Error::success();
  return unsupported(terminator);
}

Error ProgramBuilder::emitFor(scf::ForOp op) {
  auto iv = define(op, op.getInductionVar());
  if (!iv)
    return iv.takeError();
  llvm::SmallVector<Slot> iterSlots;
  for (BlockArgument arg : op.getRegionIterArgs()) {
    auto slot = define(op, arg);
    if (!slot)
      return slot.takeError();
    iterSlots.push_back(*slot);
  }
  if (Error error = emitParallelCopy(op, op.getInitArgs(), iterSlots))
    return error;
  bool isUnsigned = op.getUnsignedCmp();
  Handler enter = selectForEnter(iv->kind, isUnsigned);
  Handler next = selectForNext(iv->kind, isUnsigned);
  if (!enter || !next)
    return unsupported(op, "with this induction variable type");
  uint32_t ub = get(op.getUpperBound()).offset;
  uint32_t step = get(op.getStep()).offset;
  size_t enterIndex = emit(op, enter, iv->offset,
                           {get(op.getLowerBound()).offset, ub, step}, 1);
  size_t bodyStart = program.body.size();
  if (Error error = emitBlock(*op.getBody()))
    return error;
  auto yield = cast<scf::YieldOp>(op.getBody()->getTerminator());
  if (Error error = emitParallelCopy(yield, yield.getOperands(), iterSlots))
    return error;
  emit(op, next, iv->offset, {kNoSlot, ub, step}, 1,
       static_cast<int64_t>(bodyStart));
  program.body[enterIndex].imm = static_cast<int64_t>(program.body.size());
  for (auto [result, slot] : llvm::zip(op.getResults(), iterSlots))
    slots[result] = slot;
  return Error::success();
}

Error ProgramBuilder::emitIf(scf::IfOp op) {
  llvm::SmallVector<Slot> resultSlots;
  for (Value result : op.getResults()) {
    auto slot = define(op, result);
    if (!slot)
      return slot.takeError();
    resultSlots.push_back(*slot);
  }
  size_t branch = emit(op, branchIfFalseHandler(), kNoSlot,
                       {get(op.getCondition()).offset}, 1);
  if (Error error = emitBlock(*op.thenBlock()))
    return error;
  auto thenYield = cast<scf::YieldOp>(op.thenBlock()->getTerminator());
  if (Error error =
          emitParallelCopy(thenYield, thenYield.getOperands(), resultSlots))
    return error;
  if (op.getElseRegion().empty()) {
    program.body[branch].imm = static_cast<int64_t>(program.body.size());
    return Error::success();
  }
  size_t skipElse = emit(op, jumpHandler(), kNoSlot, {}, 0);
  program.body[branch].imm = static_cast<int64_t>(program.body.size());
  if (Error error = emitBlock(*op.elseBlock()))
    return error;
  auto elseYield = cast<scf::YieldOp>(op.elseBlock()->getTerminator());
  if (Error error =
          emitParallelCopy(elseYield, elseYield.getOperands(), resultSlots))
    return error;
  program.body[skipElse].imm = static_cast<int64_t>(program.body.size());
  return Error::success();
}

Error ProgramBuilder::emitWhile(scf::WhileOp op) {
  llvm::SmallVector<Slot> beforeSlots, afterSlots;
  for (BlockArgument arg : op.getBeforeArguments()) {
    auto slot = define(op, arg);
    if (!slot)
      return slot.takeError();
    beforeSlots.push_back(*slot);
  }
  for (BlockArgument arg : op.getAfterArguments()) {
    auto slot = define(op, arg);
    if (!slot)
      return slot.takeError();
    afterSlots.push_back(*slot);
  }
  if (Error error = emitParallelCopy(op, op.getInits(), beforeSlots))
    return error;
  size_t head = program.body.size();
  if (Error error = emitBlock(*op.getBeforeBody()))
    return error;
  scf::ConditionOp condition = op.getConditionOp();
  if (Error error =
          emitParallelCopy(condition, condition.getArgs(), afterSlots))
    return error;
  size_t exit = emit(condition, branchIfFalseHandler(), kNoSlot,
                     {get(condition.getCondition()).offset}, 1);
  if (Error error = emitBlock(*op.getAfterBody()))
    return error;
  scf::YieldOp yield = op.getYieldOp();
  if (Error error = emitParallelCopy(yield, yield.getOperands(), beforeSlots))
    return error;
  emit(op, jumpHandler(), kNoSlot, {}, 0, static_cast<int64_t>(head));
  program.body[exit].imm = static_cast<int64_t>(program.body.size());
  for (auto [result, slot] : llvm::zip(op.getResults(), afterSlots))
    slots[result] = slot;
  return Error::success();
}

Error ProgramBuilder::emitCall(func::CallOp op) {
  auto callee =
      SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(op, op.getCalleeAttr());
  if (!callee || callee.isExternal())
    return fail(op, "cannot inline call to '" + op.getCallee() +
                        "': no function body in the module");
  if (llvm::is_contained(callStack, callee.getOperation()))
    return fail(op, "recursive call to '" + op.getCallee() +
                        "' cannot be interpreted");
  if (!callee.getBody().hasOneBlock())
    return fail(op, "the interpreter needs structured control flow in '" +
                        op.getCallee() + "'");
  llvm::SmallVector<Slot> resultSlots;
  for (Value result : op.getResults()) {
    auto slot = define(op, result);
    if (!slot)
      return slot.takeError();
    resultSlots.push_back(*slot);
  }
  Block &entry = callee.getBody().front();
  for (auto [arg, operand] : llvm::zip(entry.getArguments(), op.getOperands()))
    alias(arg, get(operand), arg.getType());

  std::string position, inlinedAt;
  describeLocation(op.getLoc(), position, inlinedAt);
  callStack.push_back(callee);
  callSites.push_back(position);
  Error error = emitBlock(entry);
  if (!error) {
    auto ret = cast<func::ReturnOp>(entry.getTerminator());
    error = emitParallelCopy(ret, ret.getOperands(), resultSlots);
  }
  callStack.pop_back();
  callSites.pop_back();
  return error;
}

//===----------------------------------------------------------------------===//
// arith and math
//===----------------------------------------------------------------------===//

Error ProgramBuilder::emitConstant(arith::ConstantOp op) {
  auto result = define(op, op.getResult());
  if (!result)
    return result.takeError();
  unsigned bytes = storageBytes(result->kind);
  auto *data = program.makeAux<ConstantBytes>();
  data->bytes.resize(result->bytes());

  auto writeInt = [&](int64_t i, const llvm::APInt &value) {
    uint64_t raw = value.getZExtValue() & (bytes == 8 ? ~0ull : ((1ull << (8 * bytes)) - 1));
    if (result->kind == ElementKind::I1)
      raw &= 1;
    std::memcpy(&data->bytes[i * bytes], &raw, bytes);
  };
  auto writeFloat = [&](int64_t i, const llvm::APFloat &value) {
    writeInt(i, value.bitcastToAPInt());
  };

  Attribute value = op.getValue();
  int64_t count = result->count();
  if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
    bool isFloat = isa<FloatType>(dense.getElementType());
    if (dense.isSplat()) {
      for (int64_t i = 0; i < count; ++i) {
        if (isFloat)
          writeFloat(i, dense.getSplatValue<llvm::APFloat>());
        else
          writeInt(i, dense.getSplatValue<llvm::APInt>());
      }
    } else if (isFloat) {
      int64_t i = 0;
      for (const llvm::APFloat &v : dense.getValues<llvm::APFloat>())
        writeFloat(i++, v);
    } else {
      int64_t i = 0;
      for (const llvm::APInt &v : dense.getValues<llvm::APInt>())
        writeInt(i++, v);
    }
  } else if (auto integer = dyn_cast<IntegerAttr>(value)) {
    writeInt(0, integer.getValue());
  } else if (auto floating = dyn_cast<FloatAttr>(value)) {
    writeFloat(0, floating.getValue());
  } else {
    return unsupported(op, "with this kind of value");
  }
  emit(op, constantHandler(), result->offset, {}, count, 0, data,
       /*constant=*/true);
  slots[op.getResult()].isConstant = true;
  return Error::success();
}

Error ProgramBuilder::emitBinary(Operation *op, BinaryOp kind) {
  auto element = kindOf(getElementTypeOrSelf(op->getResult(0).getType()));
  Handler handler = element ? selectBinary(kind, *element) : nullptr;
  return emitSimple(op, handler, {op->getOperand(0), op->getOperand(1)});
}

Error ProgramBuilder::emitUnary(Operation *op, UnaryOp kind) {
  auto element = kindOf(getElementTypeOrSelf(op->getResult(0).getType()));
  Handler handler = element ? selectUnary(kind, *element) : nullptr;
  return emitSimple(op, handler, {op->getOperand(0)});
}

Error ProgramBuilder::emitCast(Operation *op, CastOp kind) {
  if (auto truncf = dyn_cast<arith::TruncFOp>(op))
    if (truncf.getRoundingmodeAttr() &&
        truncf.getRoundingmode() != arith::RoundingMode::to_nearest_even)
      return unsupported(op, "with a rounding mode other than to_nearest_even");
  auto from = kindOf(getElementTypeOrSelf(op->getOperand(0).getType()));
  auto to = kindOf(getElementTypeOrSelf(op->getResult(0).getType()));
  Handler handler = from && to ? selectCast(kind, *from, *to) : nullptr;
  return emitSimple(op, handler, {op->getOperand(0)});
}

Error ProgramBuilder::emitIndexCast(Operation *op, bool isUnsigned) {
  auto from = kindOf(getElementTypeOrSelf(op->getOperand(0).getType()));
  auto to = kindOf(getElementTypeOrSelf(op->getResult(0).getType()));
  if (!from || !to)
    return unsupported(op, "on these types");
  if (*from == *to) {
    alias(op->getResult(0), get(op->getOperand(0)), op->getResult(0).getType());
    return Error::success();
  }
  CastOp kind = storageBytes(*to) < storageBytes(*from) ? CastOp::TruncI
                : isUnsigned                            ? CastOp::ExtUI
                                                        : CastOp::ExtSI;
  return emitSimple(op, selectCast(kind, *from, *to), {op->getOperand(0)});
}

Error ProgramBuilder::emitSelect(arith::SelectOp op) {
  const Slot &condition = get(op.getCondition());
  auto element = kindOf(getElementTypeOrSelf(op.getType()));
  if (!element)
    return unsupported(op, "on this type");
  bool scalarCondition =
      condition.shape.dims.empty() && isa<RankedTensorType>(op.getType());
  return emitSimple(op, selectSelect(storageBytes(*element), scalarCondition),
                    {op.getCondition(), op.getTrueValue(), op.getFalseValue()});
}

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

Error ProgramBuilder::emitOp(Operation *op) {
  auto aliasTo = [&](Value source) {
    alias(op->getResult(0), get(source), op->getResult(0).getType());
    return Error::success();
  };
  using B = BinaryOp;
  using U = UnaryOp;
  using C = CastOp;
  return llvm::TypeSwitch<Operation *, Error>(op)
      // Control flow.
      .Case([&](scf::ForOp o) { return emitFor(o); })
      .Case([&](scf::IfOp o) { return emitIf(o); })
      .Case([&](scf::WhileOp o) { return emitWhile(o); })
      .Case([&](func::CallOp o) { return emitCall(o); })
      // arith.
      .Case([&](arith::ConstantOp o) { return emitConstant(o); })
      .Case([&](arith::AddIOp o) { return emitBinary(o, B::AddI); })
      .Case([&](arith::SubIOp o) { return emitBinary(o, B::SubI); })
      .Case([&](arith::MulIOp o) { return emitBinary(o, B::MulI); })
      .Case([&](arith::DivSIOp o) { return emitBinary(o, B::DivSI); })
      .Case([&](arith::DivUIOp o) { return emitBinary(o, B::DivUI); })
      .Case([&](arith::RemSIOp o) { return emitBinary(o, B::RemSI); })
      .Case([&](arith::RemUIOp o) { return emitBinary(o, B::RemUI); })
      .Case([&](arith::CeilDivSIOp o) { return emitBinary(o, B::CeilDivSI); })
      .Case([&](arith::CeilDivUIOp o) { return emitBinary(o, B::CeilDivUI); })
      .Case([&](arith::FloorDivSIOp o) { return emitBinary(o, B::FloorDivSI); })
      .Case([&](arith::AndIOp o) { return emitBinary(o, B::AndI); })
      .Case([&](arith::OrIOp o) { return emitBinary(o, B::OrI); })
      .Case([&](arith::XOrIOp o) { return emitBinary(o, B::XOrI); })
      .Case([&](arith::ShLIOp o) { return emitBinary(o, B::ShLI); })
      .Case([&](arith::ShRSIOp o) { return emitBinary(o, B::ShRSI); })
      .Case([&](arith::ShRUIOp o) { return emitBinary(o, B::ShRUI); })
      .Case([&](arith::MaxSIOp o) { return emitBinary(o, B::MaxSI); })
      .Case([&](arith::MinSIOp o) { return emitBinary(o, B::MinSI); })
      .Case([&](arith::MaxUIOp o) { return emitBinary(o, B::MaxUI); })
      .Case([&](arith::MinUIOp o) { return emitBinary(o, B::MinUI); })
      .Case([&](arith::AddFOp o) { return emitBinary(o, B::AddF); })
      .Case([&](arith::SubFOp o) { return emitBinary(o, B::SubF); })
      .Case([&](arith::MulFOp o) { return emitBinary(o, B::MulF); })
      .Case([&](arith::DivFOp o) { return emitBinary(o, B::DivF); })
      .Case([&](arith::RemFOp o) { return emitBinary(o, B::RemF); })
      .Case([&](arith::MaximumFOp o) { return emitBinary(o, B::MaximumF); })
      .Case([&](arith::MinimumFOp o) { return emitBinary(o, B::MinimumF); })
      .Case([&](arith::MaxNumFOp o) { return emitBinary(o, B::MaxNumF); })
      .Case([&](arith::MinNumFOp o) { return emitBinary(o, B::MinNumF); })
      .Case([&](arith::NegFOp o) { return emitUnary(o, U::NegF); })
      .Case([&](arith::CmpIOp o) {
        auto kind = kindOf(getElementTypeOrSelf(o.getLhs().getType()));
        return emitSimple(
            o,
            kind ? selectIntCompare(
                       static_cast<IntPredicate>(o.getPredicate()), *kind)
                 : nullptr,
            {o.getLhs(), o.getRhs()});
      })
      .Case([&](arith::CmpFOp o) {
        auto kind = kindOf(getElementTypeOrSelf(o.getLhs().getType()));
        return emitSimple(
            o,
            kind ? selectFloatCompare(
                       static_cast<FloatPredicate>(o.getPredicate()), *kind)
                 : nullptr,
            {o.getLhs(), o.getRhs()});
      })
      .Case([&](arith::SelectOp o) { return emitSelect(o); })
      .Case([&](arith::ExtSIOp o) { return emitCast(o, C::ExtSI); })
      .Case([&](arith::ExtUIOp o) { return emitCast(o, C::ExtUI); })
      .Case([&](arith::TruncIOp o) { return emitCast(o, C::TruncI); })
      .Case([&](arith::SIToFPOp o) { return emitCast(o, C::SIToFP); })
      .Case([&](arith::UIToFPOp o) { return emitCast(o, C::UIToFP); })
      .Case([&](arith::FPToSIOp o) { return emitCast(o, C::FPToSI); })
      .Case([&](arith::FPToUIOp o) { return emitCast(o, C::FPToUI); })
      .Case([&](arith::ExtFOp o) { return emitCast(o, C::ExtF); })
      .Case([&](arith::TruncFOp o) { return emitCast(o, C::TruncF); })
      .Case([&](arith::IndexCastOp o) { return emitIndexCast(o, false); })
      .Case([&](arith::IndexCastUIOp o) { return emitIndexCast(o, true); })
      .Case([&](arith::BitcastOp o) { return aliasTo(o.getIn()); })
      // math.
      .Case([&](math::AbsFOp o) { return emitUnary(o, U::AbsF); })
      .Case([&](math::AbsIOp o) { return emitUnary(o, U::AbsI); })
      .Case([&](math::ExpOp o) { return emitUnary(o, U::Exp); })
      .Case([&](math::Exp2Op o) { return emitUnary(o, U::Exp2); })
      .Case([&](math::ExpM1Op o) { return emitUnary(o, U::ExpM1); })
      .Case([&](math::LogOp o) { return emitUnary(o, U::Log); })
      .Case([&](math::Log2Op o) { return emitUnary(o, U::Log2); })
      .Case([&](math::Log10Op o) { return emitUnary(o, U::Log10); })
      .Case([&](math::Log1pOp o) { return emitUnary(o, U::Log1p); })
      .Case([&](math::SqrtOp o) { return emitUnary(o, U::Sqrt); })
      .Case([&](math::RsqrtOp o) { return emitUnary(o, U::Rsqrt); })
      .Case([&](math::CbrtOp o) { return emitUnary(o, U::Cbrt); })
      .Case([&](math::SinOp o) { return emitUnary(o, U::Sin); })
      .Case([&](math::CosOp o) { return emitUnary(o, U::Cos); })
      .Case([&](math::TanOp o) { return emitUnary(o, U::Tan); })
      .Case([&](math::AsinOp o) { return emitUnary(o, U::Asin); })
      .Case([&](math::AcosOp o) { return emitUnary(o, U::Acos); })
      .Case([&](math::AtanOp o) { return emitUnary(o, U::Atan); })
      .Case([&](math::SinhOp o) { return emitUnary(o, U::Sinh); })
      .Case([&](math::CoshOp o) { return emitUnary(o, U::Cosh); })
      .Case([&](math::TanhOp o) { return emitUnary(o, U::Tanh); })
      .Case([&](math::AsinhOp o) { return emitUnary(o, U::Asinh); })
      .Case([&](math::AcoshOp o) { return emitUnary(o, U::Acosh); })
      .Case([&](math::AtanhOp o) { return emitUnary(o, U::Atanh); })
      .Case([&](math::ErfOp o) { return emitUnary(o, U::Erf); })
      .Case([&](math::ErfcOp o) { return emitUnary(o, U::Erfc); })
      .Case([&](math::FloorOp o) { return emitUnary(o, U::Floor); })
      .Case([&](math::CeilOp o) { return emitUnary(o, U::Ceil); })
      .Case([&](math::RoundOp o) { return emitUnary(o, U::Round); })
      .Case([&](math::RoundEvenOp o) { return emitUnary(o, U::RoundEven); })
      .Case([&](math::TruncOp o) { return emitUnary(o, U::Trunc); })
      .Case([&](math::CountLeadingZerosOp o) {
        return emitUnary(o, U::CountLeadingZeros);
      })
      .Case([&](math::CountTrailingZerosOp o) {
        return emitUnary(o, U::CountTrailingZeros);
      })
      .Case([&](math::CtPopOp o) { return emitUnary(o, U::PopCount); })
      .Case([&](math::PowFOp o) { return emitBinary(o, B::PowF); })
      .Case([&](math::Atan2Op o) { return emitBinary(o, B::Atan2F); })
      .Case([&](math::CopySignOp o) { return emitBinary(o, B::CopySignF); })
      .Case([&](math::FmaOp o) {
        auto kind = kindOf(getElementTypeOrSelf(o.getType()));
        return emitSimple(o, kind ? selectFma(*kind) : nullptr,
                          {o.getA(), o.getB(), o.getC()});
      })
      // tk.
      .Case([&](mlir::tk::ProgramIdOp o) {
        return emitSimple(o, programIdHandler(), {}, o.getAxis());
      })
      .Case([&](mlir::tk::NumProgramsOp o) {
        return emitSimple(o, numProgramsHandler(), {}, o.getAxis());
      })
      .Case([&](mlir::tk::MakeRangeOp o) {
        // emitSimple puts it in the prologue: it has no operands.
        return emitSimple(o, iotaHandler(), {},
                          static_cast<int32_t>(o.getStart()));
      })
      .Case([&](mlir::tk::SplatOp o) {
        return emitSimple(o, selectSplat(storageBytes(get(o.getSrc()).kind)),
                          {o.getSrc()});
      })
      .Case([&](mlir::tk::BroadcastOp o) { return emitBroadcast(o); })
      .Case([&](mlir::tk::ExpandDimsOp o) { return aliasTo(o.getSrc()); })
      .Case([&](mlir::tk::ReshapeOp o) { return aliasTo(o.getSrc()); })
      .Case([&](mlir::tk::TransOp o) { return emitTrans(o); })
      .Case([&](mlir::tk::AddPtrOp o) { return emitAddPtr(o); })
      .Case([&](mlir::tk::LoadOp o) { return emitLoad(o); })
      .Case([&](mlir::tk::StoreOp o) { return emitStore(o); })
      .Case([&](mlir::tk::DescriptorLoadOp o) {
        return emitDescriptorAccess(o, o.getBase(), o.getShape(),
                                    o.getStrides(), o.getIndices(), Value());
      })
      .Case([&](mlir::tk::DescriptorStoreOp o) {
        return emitDescriptorAccess(o, o.getBase(), o.getShape(),
                                    o.getStrides(), o.getIndices(),
                                    o.getValue());
      })
      .Case([&](mlir::tk::AtomicRMWOp o) { return emitAtomicRMW(o); })
      .Case([&](mlir::tk::AtomicCASOp o) { return emitAtomicCAS(o); })
      .Case([&](mlir::tk::IntToPtrOp o) { return aliasTo(o.getSrc()); })
      .Case([&](mlir::tk::PtrToIntOp o) { return aliasTo(o.getSrc()); })
      .Case([&](mlir::tk::BitcastOp o) { return aliasTo(o.getSrc()); })
      .Case([&](mlir::tk::HintOp o) { return aliasTo(o.getSrc()); })
      .Case([&](mlir::tk::DotOp o) { return emitDot(o); })
      .Case([&](mlir::tk::ReduceOp o) { return emitReduce(o); })
      .Case([&](mlir::tk::ScanOp o) { return emitScan(o); })
      .Case([&](mlir::tk::ExternElementwiseOp o) {
        return emitExternElementwise(o);
      })
      .Case([&](mlir::tk::PrintOp o) { return emitPrint(o); })
      .Case([&](mlir::tk::AssertOp o) { return emitAssert(o); })
      // Block operations run in order: there is nothing to wait for.
      .Case([&](mlir::tk::DebugBarrierOp) { return Error::success(); })
      .Default([&](Operation *o) { return unsupported(o); });
}

auto ::tk::interp::compileKernel(Operation *op)
    -> llvm::Expected<std::unique_ptr<Kernel>> {
  auto func = dyn_cast_or_null<func::FuncOp>(op);
  if (!func)
    return llvm::createStringError("the interpreter runs func.func kernels");
  auto program = std::make_unique<KernelProgram>();
  ProgramBuilder builder(*program);
  if (Error error = builder.build(func))
    return std::move(error);
  return std::make_unique<Kernel>(std::move(program));
}
