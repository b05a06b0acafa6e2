//===- ProgramBuilderTkOps.cpp - the tk dialect's ops in the interpreter ===//
//
// ProgramBuilder's emission of the tk dialect's operations: broadcasts and
// transposes, pointer arithmetic, loads, stores and tensor-descriptor
// accesses (each with the memory-access record that checks its bounds),
// atomics, dots, reductions and scans (combine functions as scalar
// sub-programs), print and assert. ProgramBuilder.cpp has the walk.
//
//===----------------------------------------------------------------------===//
#include "compiler/interpreter/ProgramBuilder.h"

using namespace mlir;
using namespace ::tk::interp;
using namespace ::tk::interp::detail;
using llvm::Error;

//===----------------------------------------------------------------------===//
// tk operations
//===----------------------------------------------------------------------===//

Error ProgramBuilder::emitBroadcast(mlir::tk::BroadcastOp op) {
  const Slot &source = get(op.getSrc());
  auto *info = program.makeAux<StridedCopyInfo>();
  auto resultShape = op.getType().getShape();
  info->resultDims.assign(resultShape.begin(), resultShape.end());
  int64_t stride = 1;
  info->sourceStrides.resize(resultShape.size());
  for (size_t d = resultShape.size(); d-- > 0;) {
    int64_t dim = source.shape.dims[d];
    info->sourceStrides[d] = dim == 1 ? 0 : stride;
    stride *= dim;
  }
  return emitSimple(op, selectStridedCopy(storageBytes(source.kind)),
                    {op.getSrc()}, 0, info);
}

Error ProgramBuilder::emitTrans(mlir::tk::TransOp op) {
  const Slot &source = get(op.getSrc());
  size_t rank = source.shape.dims.size();
  llvm::SmallVector<int64_t, 4> strides(rank);
  int64_t stride = 1;
  for (size_t d = rank; d-- > 0;) {
    strides[d] = stride;
    stride *= source.shape.dims[d];
  }
  auto *info = program.makeAux<StridedCopyInfo>();
  auto resultShape = op.getType().getShape();
  info->resultDims.assign(resultShape.begin(), resultShape.end());
  for (int32_t d : op.getOrder())
    info->sourceStrides.push_back(strides[d]);
  return emitSimple(op, selectStridedCopy(storageBytes(source.kind)),
                    {op.getSrc()}, 0, info);
}

Error ProgramBuilder::emitAddPtr(mlir::tk::AddPtrOp op) {
  auto pointee = kindOf(
      cast<mlir::tk::PtrType>(getElementTypeOrSelf(op.getPtr().getType()))
          .getPointeeType());
  if (!pointee)
    return unsupported(op, "on this pointee type");
  return emitSimple(op, selectAddPtr(get(op.getOffset()).kind),
                    {op.getPtr(), op.getOffset()}, storageBytes(*pointee));
}

Error ProgramBuilder::emitExternElementwise(
    mlir::tk::ExternElementwiseOp op) {
  auto *info = program.makeAux<ExternCallInfo>();
  info->function = findLibdeviceHostFunction(op.getSymbol().str());
  if (!info->function)
    return fail(op, "the interpreter has no implementation of libdevice's " +
                        op.getSymbol());
  if (op.getSrcs().size() > 4)
    return unsupported(op, "with more than 4 operands");
  auto isScalarKind = [](ElementKind kind) {
    return kind == ElementKind::I32 || kind == ElementKind::I64 ||
           kind == ElementKind::F32 || kind == ElementKind::F64;
  };
  for (Value operand : op.getSrcs()) {
    const Slot &slot = get(operand);
    if (!isScalarKind(slot.kind))
      return unsupported(op, "on this element type");
    info->operandSlots.push_back(slot.offset);
    info->operandKinds.push_back(slot.kind);
  }
  std::optional<ElementKind> resultKind =
      kindOf(getElementTypeOrSelf(op.getType()));
  if (!resultKind || !isScalarKind(*resultKind))
    return unsupported(op, "with this result type");
  info->resultKind = *resultKind;
  return emitSimple(op, externCallHandler(), {}, 0, info);
}

MemoryAccessInfo *ProgramBuilder::memoryInfo(Type ptrType) {
  auto *info = program.makeAux<MemoryAccessInfo>();
  if (auto tensor = dyn_cast<RankedTensorType>(ptrType))
    info->shape.dims.assign(tensor.getShape().begin(),
                            tensor.getShape().end());
  info->cacheIndex = program.numRangeCaches++;
  return info;
}

Error ProgramBuilder::emitLoad(mlir::tk::LoadOp op) {
  auto result = define(op, op.getResult());
  if (!result)
    return result.takeError();
  Handler handler = selectLoad(storageBytes(result->kind), bool(op.getMask()),
                               bool(op.getOther()));
  if (!handler)
    return unsupported(op, "on this element type");
  auto *info = memoryInfo(op.getPtr().getType());
  emit(op, handler, result->offset,
       {get(op.getPtr()).offset,
        op.getMask() ? get(op.getMask()).offset : kNoSlot,
        op.getOther() ? get(op.getOther()).offset : kNoSlot},
       result->count(), 0, info);
  return Error::success();
}

Error ProgramBuilder::emitStore(mlir::tk::StoreOp op) {
  const Slot &value = get(op.getValue());
  Handler handler = selectStore(storageBytes(value.kind), bool(op.getMask()));
  if (!handler)
    return unsupported(op, "on this element type");
  auto *info = memoryInfo(op.getPtr().getType());
  emit(op, handler, kNoSlot,
       {get(op.getPtr()).offset, value.offset,
        op.getMask() ? get(op.getMask()).offset : kNoSlot},
       value.count(), 0, info);
  return Error::success();
}

Error ProgramBuilder::emitDescriptorAccess(Operation *op, Value base,
                                           ValueRange shape,
                                           ValueRange strides,
                                           ValueRange indices, Value stored) {
  auto block = cast<RankedTensorType>(stored ? stored.getType()
                                             : op->getResult(0).getType());
  auto element = kindOf(block.getElementType());
  Handler handler =
      !element ? nullptr
      : stored ? selectDescriptorStore(storageBytes(*element))
               : selectDescriptorLoad(storageBytes(*element));
  if (!handler)
    return unsupported(op, "on this element type");
  // Instructions have three operands: the parts are gathered into two
  // scratch arrays, i64 [base, shape..., strides...] and i32 [indices...].
  uint32_t desc = allocate(8 * (1 + shape.size() + strides.size()));
  uint32_t field = desc;
  emit(op, copyHandler(), field, {get(base).offset}, 1, 8);
  for (ValueRange values : {shape, strides})
    for (Value v : values)
      emit(op, copyHandler(), field += 8, {get(v).offset}, 1, 8);
  uint32_t offsets = allocate(4 * indices.size());
  for (size_t d = 0; d < indices.size(); ++d)
    emit(op, copyHandler(), offsets + 4 * d, {get(indices[d]).offset}, 1, 4);
  // multicast=True in a clustered kernel: its promise is checked first.
  auto load = dyn_cast<mlir::tk::DescriptorLoadOp>(op);
  if (load && load.getMulticast() && program.clusterSize > 1)
    emit(op, multicastCheckHandler(), kNoSlot, {offsets},
         uint32_t(indices.size()), program.clusterSize);
  auto *info = program.makeAux<DescriptorAccessInfo>();
  info->shape.dims.assign(block.getShape().begin(), block.getShape().end());
  info->cacheIndex = program.numRangeCaches++;
  uint32_t resultSlot = kNoSlot;
  if (!stored) {
    auto result = define(op, op->getResult(0));
    if (!result)
      return result.takeError();
    resultSlot = result->offset;
  }
  emit(op, handler, resultSlot,
       {desc, offsets, stored ? get(stored).offset : kNoSlot},
       block.getNumElements(), 0, info);
  return Error::success();
}

Error ProgramBuilder::emitAtomicRMW(mlir::tk::AtomicRMWOp op) {
  auto result = define(op, op.getResult());
  if (!result)
    return result.takeError();
  AtomicOp kind = AtomicOp::Add;
  switch (op.getKind()) {
  case mlir::tk::AtomicKind::Add: kind = AtomicOp::Add; break;
  case mlir::tk::AtomicKind::Max: kind = AtomicOp::Max; break;
  case mlir::tk::AtomicKind::Min: kind = AtomicOp::Min; break;
  case mlir::tk::AtomicKind::UMax: kind = AtomicOp::UMax; break;
  case mlir::tk::AtomicKind::UMin: kind = AtomicOp::UMin; break;
  case mlir::tk::AtomicKind::Xchg: kind = AtomicOp::Xchg; break;
  case mlir::tk::AtomicKind::And: kind = AtomicOp::And; break;
  case mlir::tk::AtomicKind::Or: kind = AtomicOp::Or; break;
  case mlir::tk::AtomicKind::Xor: kind = AtomicOp::Xor; break;
  }
  Handler handler = selectAtomicRMW(kind, result->kind, bool(op.getMask()));
  if (!handler)
    return unsupported(op, "on this element type");
  auto *info = memoryInfo(op.getPtr().getType());
  emit(op, handler, result->offset,
       {get(op.getPtr()).offset, get(op.getValue()).offset,
        op.getMask() ? get(op.getMask()).offset : kNoSlot},
       result->count(), 0, info);
  return Error::success();
}

Error ProgramBuilder::emitAtomicCAS(mlir::tk::AtomicCASOp op) {
  auto result = define(op, op.getResult());
  if (!result)
    return result.takeError();
  Handler handler = selectAtomicCAS(storageBytes(result->kind));
  if (!handler)
    return unsupported(op, "on this element type");
  auto *info = memoryInfo(op.getPtr().getType());
  emit(op, handler, result->offset,
       {get(op.getPtr()).offset, get(op.getCmp()).offset,
        get(op.getValue()).offset},
       result->count(), 0, info);
  return Error::success();
}

Error ProgramBuilder::emitDot(mlir::tk::DotOp op) {
  const Slot &a = get(op.getA());
  auto accumulator = kindOf(op.getType().getElementType());
  Handler handler = accumulator ? selectDot(a.kind, *accumulator) : nullptr;
  if (!handler)
    return unsupported(op, "on these element types");
  auto *info = program.makeAux<DotInfo>();
  info->m = op.getA().getType().getDimSize(0);
  info->k = op.getA().getType().getDimSize(1);
  info->n = op.getB().getType().getDimSize(1);
  // Operands that are not stored in the compute type are widened into
  // scratch (4-byte float or i32 elements).
  bool widenInputs = a.kind == ElementKind::F16 ||
                     a.kind == ElementKind::BF16 || a.kind == ElementKind::I8;
  if (widenInputs) {
    info->scratchA = allocate(info->m * info->k * 4);
    info->scratchB = allocate(info->k * info->n * 4);
  }
  // So is an accumulator not stored in it (f16; i32, computed as wrapping
  // u32).
  if (*accumulator == ElementKind::F16 || *accumulator == ElementKind::I32)
    info->scratchC = allocate(info->m * info->n * 4);
  return emitSimple(op, handler, {op.getA(), op.getB(), op.getC()}, 0, info);
}

static AxisInfo *axisInfo(KernelProgram &program, const Shape &shape,
                          int64_t axis) {
  auto *info = program.makeAux<AxisInfo>();
  for (int64_t d = 0; d < (int64_t)shape.dims.size(); ++d) {
    if (d < axis)
      info->outer *= shape.dims[d];
    else if (d == axis)
      info->length = shape.dims[d];
    else
      info->inner *= shape.dims[d];
  }
  return info;
}

Error ProgramBuilder::emitReduce(mlir::tk::ReduceOp op) {
  if (op.getKind() == mlir::tk::ReduceKind::Combine)
    return emitCombining(op, op.getCombiner(), op.getAxis(),
                         /*isScan=*/false, /*reverse=*/false);
  const Slot &source = get(op.getSrcs()[0]);
  ReduceOp kind = ReduceOp::Sum;
  switch (op.getKind()) {
  case mlir::tk::ReduceKind::Sum: kind = ReduceOp::Sum; break;
  case mlir::tk::ReduceKind::Max: kind = ReduceOp::Max; break;
  case mlir::tk::ReduceKind::Min: kind = ReduceOp::Min; break;
  case mlir::tk::ReduceKind::UMax: kind = ReduceOp::UMax; break;
  case mlir::tk::ReduceKind::UMin: kind = ReduceOp::UMin; break;
  case mlir::tk::ReduceKind::ArgMax: kind = ReduceOp::ArgMax; break;
  case mlir::tk::ReduceKind::ArgMin: kind = ReduceOp::ArgMin; break;
  case mlir::tk::ReduceKind::And: kind = ReduceOp::And; break;
  case mlir::tk::ReduceKind::Or: kind = ReduceOp::Or; break;
  case mlir::tk::ReduceKind::Xor: kind = ReduceOp::Xor; break;
  case mlir::tk::ReduceKind::Combine: break;
  }
  return emitSimple(op, selectReduce(kind, source.kind), {op.getSrcs()[0]}, 0,
                    axisInfo(program, source.shape,
                             static_cast<int32_t>(op.getAxis())));
}

Error ProgramBuilder::emitScan(mlir::tk::ScanOp op) {
  if (op.getKind() == mlir::tk::ScanKind::Combine)
    return emitCombining(op, op.getCombiner(), op.getAxis(), /*isScan=*/true,
                         op.getReverse());
  const Slot &source = get(op.getSrcs()[0]);
  ScanOp kind = ScanOp::Sum;
  switch (op.getKind()) {
  case mlir::tk::ScanKind::Sum: kind = ScanOp::Sum; break;
  case mlir::tk::ScanKind::Prod: kind = ScanOp::Prod; break;
  case mlir::tk::ScanKind::Max: kind = ScanOp::Max; break;
  case mlir::tk::ScanKind::Min: kind = ScanOp::Min; break;
  case mlir::tk::ScanKind::Combine: break;
  }
  return emitSimple(op, selectScan(kind, source.kind, op.getReverse()),
                    {op.getSrcs()[0]}, 0,
                    axisInfo(program, source.shape,
                             static_cast<int32_t>(op.getAxis())));
}

Error ProgramBuilder::emitCombining(Operation *op, Region &combiner,
                                   int64_t axis, bool isScan, bool reverse) {
  Block &block = combiner.front();
  unsigned n = op->getNumOperands();
  const Slot &first = get(op->getOperand(0));
  auto *info = program.makeAux<CombineInfo>();
  AxisInfo *shape = axisInfo(program, first.shape, axis);
  info->outer = shape->outer;
  info->length = shape->length;
  info->inner = shape->inner;
  info->isScan = isScan;
  info->reverse = reverse;
  for (unsigned i = 0; i < n; ++i) {
    CombineInfo::Operand operand;
    const Slot &source = get(op->getOperand(i));
    operand.source = source.offset;
    operand.bytes = storageBytes(source.kind);
    for (auto [value, offset] :
         {std::pair<Value, uint32_t *>{op->getResult(i), &operand.result},
          {block.getArgument(i), &operand.lhs},
          {block.getArgument(n + i), &operand.rhs}}) {
      auto slot = define(op, value);
      if (!slot)
        return slot.takeError();
      *offset = slot->offset;
    }
    info->operands.push_back(operand);
  }
  // The region's instructions go to a program of their own.
  std::vector<Instruction> outerBody;
  std::swap(outerBody, program.body);
  Error error = emitBlock(block);
  std::swap(outerBody, program.body);
  info->body = std::move(outerBody);
  if (error)
    return error;
  auto ret = cast<mlir::tk::CombineReturnOp>(block.getTerminator());
  for (auto [operand, value] : llvm::zip(info->operands, ret.getValues()))
    operand.yielded = get(value).offset;
  emit(op, combineHandler(), kNoSlot, {}, 0, 0, info);
  return Error::success();
}

Error ProgramBuilder::emitPrint(mlir::tk::PrintOp op) {
  auto *info = program.makeAux<PrintInfo>();
  info->prefix = op.getPrefix().str();
  info->hex = op.getHex();
  for (Value arg : op.getArgs()) {
    const Slot &slot = get(arg);
    info->args.push_back({slot.offset, slot.kind, slot.shape});
  }
  emit(op, printHandler(), kNoSlot, {}, 0, 0, info);
  return Error::success();
}

Error ProgramBuilder::emitAssert(mlir::tk::AssertOp op) {
  const Slot &condition = get(op.getCondition());
  auto *info = program.makeAux<AssertInfo>();
  info->message = op.getMessage().str();
  info->shape = condition.shape;
  emit(op, assertHandler(), kNoSlot, {condition.offset}, condition.count(), 0,
       info);
  return Error::success();
}

