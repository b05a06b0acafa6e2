//===- TkgpuDialect.cpp - the tkgpu dialect and its helpers ---------------===//
#include "dialects/tkgpu/TkgpuDialect.h"
#include "dialects/tkgpu/TkgpuTmaOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tkgpu;

#include "dialects/tkgpu/TkgpuDialect.cpp.inc"

namespace {

/// Prints encodings as #blocked, #slice, #shared aliases at the top of the
/// module instead of repeating them on every type.
struct TkgpuOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;

  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<BlockedEncodingAttr>(attr)) {
      os << "blocked";
      return AliasResult::FinalAlias;
    }
    if (isa<SliceEncodingAttr>(attr)) {
      os << "slice";
      return AliasResult::FinalAlias;
    }
    if (isa<SharedEncodingAttr>(attr)) {
      os << "shared";
      return AliasResult::FinalAlias;
    }
    if (isa<NvmmaSharedEncodingAttr>(attr)) {
      os << "nvmma";
      return AliasResult::FinalAlias;
    }
    if (isa<MmaEncodingAttr>(attr)) {
      os << "mma";
      return AliasResult::FinalAlias;
    }
    if (isa<DotOperandEncodingAttr>(attr)) {
      os << "dot_op";
      return AliasResult::FinalAlias;
    }
    return AliasResult::NoAlias;
  }
};

} // namespace

void TkgpuDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/tkgpu/TkgpuOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "dialects/tkgpu/TkgpuTmaOps.cpp.inc"
      >();
  registerAttributes();
  registerTypes();
  addInterfaces<TkgpuOpAsmInterface>();
}

Operation *TkgpuDialect::materializeConstant(OpBuilder &builder,
                                             Attribute value, Type type,
                                             Location loc) {
  auto typed = dyn_cast<TypedAttr>(value);
  if (!typed || typed.getType() != type)
    return nullptr;
  return arith::ConstantOp::create(builder, loc, type, typed);
}

//===----------------------------------------------------------------------===//
// Module attributes
//===----------------------------------------------------------------------===//

namespace {

/// Checks one encoding (and a slice's parents) against the module's warp
/// and lane counts.
LogicalResult checkEncodingAgainstModule(Operation *op, Type type,
                                         unsigned numWarps,
                                         unsigned threadsPerWarp) {
  Attribute encoding;
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    encoding = tensor.getEncoding();
  while (auto slice = dyn_cast_or_null<SliceEncodingAttr>(encoding))
    encoding = slice.getParent();
  auto blocked = dyn_cast_or_null<BlockedEncodingAttr>(encoding);
  if (!blocked)
    return success();
  if (blocked.getNumWarps() != numWarps)
    return op->emitOpError("layout ")
           << blocked << " has " << blocked.getNumWarps()
           << " warps (product of warpsPerCTA) but the module has "
              "tkgpu.num_warps = "
           << numWarps;
  if (blocked.getNumThreadsPerWarp() != threadsPerWarp)
    return op->emitOpError("layout ")
           << blocked << " has " << blocked.getNumThreadsPerWarp()
           << " threads per warp (product of threadsPerWarp) but the module "
              "has tkgpu.threads_per_warp = "
           << threadsPerWarp;
  return success();
}

LogicalResult verifyPositivePowerOf2(Operation *op, NamedAttribute attr) {
  auto value = dyn_cast<IntegerAttr>(attr.getValue());
  if (!value || !value.getType().isInteger(32) || value.getInt() <= 0 ||
      !llvm::isPowerOf2_64(value.getInt()))
    return op->emitError("'")
           << attr.getName().getValue()
           << "' must be a positive power-of-two i32, got " << attr.getValue();
  return success();
}

} // namespace

LogicalResult TkgpuDialect::verifyOperationAttribute(Operation *op,
                                                     NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  bool isModuleAttr = name == getNumWarpsAttrName() ||
                      name == getThreadsPerWarpAttrName() ||
                      name == getTargetAttrName() ||
                      name == getTotalNumWarpsAttrName();
  if (isModuleAttr && !isa<ModuleOp>(op))
    return op->emitError("'") << name << "' belongs on the module";
  if (name == getTotalNumWarpsAttrName()) {
    auto total = dyn_cast<IntegerAttr>(attr.getValue());
    if (!total || total.getInt() < int64_t(getNumWarps(op)) ||
        total.getInt() > 32)
      return op->emitError("'")
             << name << "' must be an i32 from num_warps to 32, got "
             << attr.getValue();
    return success();
  }
  if (name == getThreadsPerWarpAttrName())
    return verifyPositivePowerOf2(op, attr);
  if (name == getTargetAttrName()) {
    auto target = dyn_cast<StringAttr>(attr.getValue());
    if (!target || getComputeCapability(target.getValue()) == 0)
      return op->emitError("'")
             << name << "' must be a string like \"sm_90a\", got "
             << attr.getValue();
    return success();
  }
  if (name != getNumWarpsAttrName())
    return success();

  // num_warps: also check that every layout in the module agrees with the
  // module's warp and lane counts.
  if (failed(verifyPositivePowerOf2(op, attr)))
    return failure();
  unsigned numWarps = cast<IntegerAttr>(attr.getValue()).getInt();
  unsigned threadsPerWarp = getThreadsPerWarp(op);
  WalkResult walk = op->walk([&](Operation *nested) {
    for (Type type : nested->getResultTypes())
      if (failed(checkEncodingAgainstModule(nested, type, numWarps,
                                            threadsPerWarp)))
        return WalkResult::interrupt();
    for (Region &region : nested->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (failed(checkEncodingAgainstModule(nested, arg.getType(),
                                                numWarps, threadsPerWarp)))
            return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

LayoutEncodingAttrInterface mlir::tkgpu::getLayoutEncoding(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return dyn_cast_or_null<LayoutEncodingAttrInterface>(tensor.getEncoding());
  if (auto memdesc = dyn_cast<MemDescType>(type))
    return dyn_cast<LayoutEncodingAttrInterface>(memdesc.getEncoding());
  return {};
}

LinearLayout mlir::tkgpu::toLinearLayout(ArrayRef<int64_t> shape,
                                         Attribute encoding) {
  auto layout = cast<LayoutEncodingAttrInterface>(encoding);
  return layout.toLinearLayout(shape);
}

LinearLayout mlir::tkgpu::toLinearLayout(Type type) {
  LayoutEncodingAttrInterface layout = getLayoutEncoding(type);
  assert(layout && "type has no layout encoding");
  if (auto memdesc = dyn_cast<MemDescType>(type))
    return layout.toLinearLayout(memdesc.getShape());
  return layout.toLinearLayout(cast<RankedTensorType>(type).getShape());
}

int64_t mlir::tkgpu::getTotalElemsPerThread(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return 1;
  LayoutEncodingAttrInterface layout = getLayoutEncoding(type);
  assert(layout && "tensor has no layout encoding");
  return layout.getTotalElemsPerThread(tensor.getShape());
}

RankedTensorType mlir::tkgpu::withEncoding(Type type, Attribute encoding) {
  auto tensor = cast<RankedTensorType>(type);
  return RankedTensorType::get(tensor.getShape(), tensor.getElementType(),
                               encoding);
}

bool mlir::tkgpu::areLayoutsEquivalent(ArrayRef<int64_t> shape, Attribute a,
                                       Attribute b) {
  if (a == b)
    return true;
  auto la = dyn_cast_or_null<LayoutEncodingAttrInterface>(a);
  auto lb = dyn_cast_or_null<LayoutEncodingAttrInterface>(b);
  if (!la || !lb)
    return false;
  return la.toLinearLayout(shape) == lb.toLinearLayout(shape);
}

BlockedEncodingAttr mlir::tkgpu::getDefaultBlockedEncoding(
    MLIRContext *ctx, ArrayRef<int64_t> shape, unsigned numWarps,
    unsigned threadsPerWarp, ArrayRef<unsigned> sizePerThreadArg,
    ArrayRef<unsigned> orderArg) {
  unsigned rank = shape.size();
  SmallVector<unsigned> order(orderArg);
  if (order.empty())
    for (unsigned d = rank; d-- > 0;)
      order.push_back(d);
  SmallVector<unsigned> sizePerThread(sizePerThreadArg);
  if (sizePerThread.empty())
    sizePerThread.assign(rank, 1);

  // Elements still to cover along each dimension, in units of the current
  // level (registers, then lanes, then warps).
  SmallVector<int64_t> remaining;
  for (unsigned d = 0; d < rank; ++d)
    remaining.push_back(std::max<int64_t>(1, shape[d] / sizePerThread[d]));
  auto spread = [&](unsigned total) {
    SmallVector<unsigned> counts(rank, 1);
    unsigned left = total;
    for (unsigned d : order) {
      unsigned count = std::min<int64_t>(left, remaining[d]);
      counts[d] = count;
      left /= count;
      remaining[d] = std::max<int64_t>(1, remaining[d] / count);
    }
    counts[order.back()] *= left;
    return counts;
  };
  SmallVector<unsigned> lanes = spread(threadsPerWarp);
  SmallVector<unsigned> warps = spread(numWarps);
  return BlockedEncodingAttr::get(ctx, sizePerThread, lanes, warps, order);
}

static ModuleOp getEnclosingModule(Operation *op) {
  if (auto module = dyn_cast<ModuleOp>(op))
    return module;
  return op->getParentOfType<ModuleOp>();
}

unsigned mlir::tkgpu::getNumWarps(Operation *op) {
  ModuleOp module = getEnclosingModule(op);
  if (!module)
    return 0;
  auto attr =
      module->getAttrOfType<IntegerAttr>(TkgpuDialect::getNumWarpsAttrName());
  return attr ? attr.getInt() : 0;
}

unsigned mlir::tkgpu::getTotalNumWarps(Operation *op) {
  ModuleOp module = getEnclosingModule(op);
  if (!module)
    return 0;
  if (auto total = module->getAttrOfType<IntegerAttr>(
          TkgpuDialect::getTotalNumWarpsAttrName()))
    return total.getInt();
  return getNumWarps(module);
}

unsigned mlir::tkgpu::getMaxRegisters(Operation *op) {
  ModuleOp module = getEnclosingModule(op);
  auto attr = module ? module->getAttrOfType<IntegerAttr>("tk.maxnreg")
                     : IntegerAttr();
  return attr ? attr.getInt() : 0;
}

unsigned mlir::tkgpu::getClusterSize(Operation *op) {
  ModuleOp module = getEnclosingModule(op);
  auto attr = module ? module->getAttrOfType<IntegerAttr>("tk.cluster_size")
                     : IntegerAttr();
  return attr ? attr.getInt() : 1;
}

unsigned mlir::tkgpu::getEntryRegisters(Operation *op, unsigned threads) {
  constexpr unsigned kRegistersPerSm = 65536;
  unsigned share = threads ? kRegistersPerSm / threads : 248;
  unsigned cap = 248;
  if (unsigned maxnreg = getMaxRegisters(op))
    cap = std::min(cap, maxnreg);
  return std::min(cap, share / 8 * 8);
}

unsigned mlir::tkgpu::getThreadsPerWarp(Operation *op) {
  ModuleOp module = getEnclosingModule(op);
  IntegerAttr attr;
  if (module)
    attr = module->getAttrOfType<IntegerAttr>(
        TkgpuDialect::getThreadsPerWarpAttrName());
  return attr ? attr.getInt() : 32;
}

StringRef mlir::tkgpu::getTarget(Operation *op) {
  ModuleOp module = getEnclosingModule(op);
  if (!module)
    return {};
  auto attr =
      module->getAttrOfType<StringAttr>(TkgpuDialect::getTargetAttrName());
  return attr ? attr.getValue() : StringRef();
}

unsigned mlir::tkgpu::getComputeCapability(StringRef target) {
  if (!target.consume_front("sm_"))
    return 0;
  target.consume_back("a");
  unsigned capability;
  if (target.getAsInteger(10, capability))
    return 0;
  return capability;
}

int64_t mlir::tkgpu::getMaxSharedMemoryPerProgram(unsigned cc) {
  // CUDA's cudaDevAttrMaxSharedMemoryPerBlockOptin per architecture.
  switch (cc) {
  case 70:
  case 72:
    return 96 * 1024;
  case 75:
    return 64 * 1024;
  case 80:
  case 87:
    return 163 * 1024;
  case 86:
  case 89:
    return 99 * 1024;
  case 90:
    return 227 * 1024;
  default:
    return 0;
  }
}

int64_t mlir::tkgpu::getAllocatedOffset(Operation *op, StringRef attrName) {
  if (auto offset = op->getAttrOfType<IntegerAttr>(attrName))
    return offset.getInt();
  return 0;
}

int64_t mlir::tkgpu::getSizeInBytes(MemDescType type) {
  unsigned bits = type.getElementType().getIntOrFloatBitWidth();
  return type.getNumElements() * std::max(1u, bits / 8);
}
