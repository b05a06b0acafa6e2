//===- ConvertTkToTkgpu.cpp - give every tensor a blocked layout ----------===//
//
// tk ops keep their names at the tkgpu level; only their tensor types gain
// an encoding. So instead of the dialect-conversion framework this pass
// rewrites types in place, in two walks:
//
// 1. Every tensor result and region argument gets the default blocked
//    layout of its shape, except reduction results, which get the slice of
//    their operand's default layout along the reduced axis, and transposes,
//    which get their operand's default layout permuted.
// 2. Every tensor operand is checked against the layout its user needs
//    (the default layout of its shape, the result's layout for broadcast,
//    the slice of the result's layout for expand_dims, the region's types
//    for terminators); a tkgpu.convert_layout bridges each mismatch.
//
// Function signatures and constant attributes follow the new types.
//
//===----------------------------------------------------------------------===//
#include "compiler/transforms/gpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace mlir::tkgpu {
#define GEN_PASS_DEF_CONVERTTKTOTKGPU
#include "compiler/transforms/gpu/Passes.h.inc"
} // namespace mlir::tkgpu

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

class LayoutAssigner {
public:
  LayoutAssigner(MLIRContext *ctx, unsigned numWarps, unsigned threadsPerWarp)
      : ctx(ctx), numWarps(numWarps), threadsPerWarp(threadsPerWarp) {}

  /// The default layout of a tensor type (any encoding it had is dropped).
  RankedTensorType withDefaultLayout(RankedTensorType type) {
    return withEncoding(type, defaultEncoding(type.getShape()));
  }

  Attribute defaultEncoding(ArrayRef<int64_t> shape) {
    return getDefaultBlockedEncoding(ctx, shape, numWarps, threadsPerWarp);
  }

  /// Walk 1: the type a result or region argument gets.
  Type assignedType(Operation *op, Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || tensor.getEncoding())
      return type;
    if (auto reduce = dyn_cast_or_null<tk::ReduceOp>(op)) {
      auto parent = cast<LayoutEncodingAttrInterface>(
          defaultEncoding(cast<RankedTensorType>(reduce.getSrcs()[0].getType())
                              .getShape()));
      return withEncoding(tensor,
                          SliceEncodingAttr::get(reduce.getAxis(), parent));
    }
    // A transpose renames its operand's dimensions: its result is the
    // operand's default layout permuted, so the op moves no data, and a
    // user needing another layout gets a convert_layout, which the later
    // passes can remove (a TMA tile transposed into a wgmma operand).
    if (auto trans = dyn_cast_or_null<tk::TransOp>(op))
      if (Attribute permuted = permuteLayout(
              defaultEncoding(cast<RankedTensorType>(trans.getSrc().getType())
                                  .getShape()),
              trans.getOrder()))
        return withEncoding(tensor, permuted);
    return withDefaultLayout(tensor);
  }

  /// Walk 2: the type `op` needs for its operand `index`; null when any
  /// type will do.
  Type requiredOperandType(Operation *op, unsigned index) {
    Type type = op->getOperand(index).getType();
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || isa<ConvertLayoutOp>(op))
      return {};
    if (auto expand = dyn_cast<tk::ExpandDimsOp>(op)) {
      auto result = cast<LayoutEncodingAttrInterface>(
          expand.getType().getEncoding());
      return withEncoding(tensor,
                          SliceEncodingAttr::get(expand.getAxis(), result));
    }
    if (auto broadcast = dyn_cast<tk::BroadcastOp>(op))
      return withEncoding(tensor, broadcast.getType().getEncoding());
    if (op->hasTrait<OpTrait::IsTerminator>())
      return terminatorOperandType(op, index);
    if (auto forOp = dyn_cast<scf::ForOp>(op)) {
      unsigned numControl = forOp.getNumControlOperands();
      if (index >= numControl)
        return forOp.getRegionIterArgs()[index - numControl].getType();
      return {};
    }
    if (auto whileOp = dyn_cast<scf::WhileOp>(op))
      return whileOp.getBeforeArguments()[index].getType();
    return withDefaultLayout(tensor);
  }

private:
  /// Terminators pass values to their parent's results or to region
  /// arguments, whose types walk 1 fixed.
  Type terminatorOperandType(Operation *op, unsigned index) {
    Operation *parent = op->getParentOp();
    if (isa<func::ReturnOp>(op)) {
      auto func = cast<func::FuncOp>(parent);
      return func.getFunctionType().getResult(index);
    }
    if (auto condition = dyn_cast<scf::ConditionOp>(op)) {
      // Operand 0 is the i1 condition; the rest become the after region's
      // arguments and the while's results.
      if (index == 0)
        return {};
      return cast<scf::WhileOp>(parent).getResult(index - 1).getType();
    }
    if (isa<scf::YieldOp>(op)) {
      if (auto whileOp = dyn_cast<scf::WhileOp>(parent))
        if (op->getParentRegion() == &whileOp.getAfter())
          return whileOp.getBeforeArguments()[index].getType();
      if (index < parent->getNumResults())
        return parent->getResult(index).getType();
    }
    return withDefaultLayout(cast<RankedTensorType>(op->getOperand(index).getType()));
  }

  MLIRContext *ctx;
  unsigned numWarps, threadsPerWarp;
};

struct ConvertTkToTkgpuPass
    : public tkgpu::impl::ConvertTkToTkgpuBase<ConvertTkToTkgpuPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    if (!llvm::isPowerOf2_32(numWarps) || !llvm::isPowerOf2_32(threadsPerWarp)) {
      module.emitError("num-warps and threads-per-warp must be powers of two");
      return signalPassFailure();
    }
    if (getComputeCapability(target) == 0) {
      module.emitError("unknown target '") << target << "'";
      return signalPassFailure();
    }
    Builder builder(ctx);
    module->setAttr(TkgpuDialect::getNumWarpsAttrName(),
                    builder.getI32IntegerAttr(numWarps));
    module->setAttr(TkgpuDialect::getThreadsPerWarpAttrName(),
                    builder.getI32IntegerAttr(threadsPerWarp));
    module->setAttr(TkgpuDialect::getTargetAttrName(),
                    builder.getStringAttr(target));

    LayoutAssigner assigner(ctx, numWarps, threadsPerWarp);
    for (auto func : module.getOps<func::FuncOp>())
      convertFunction(func, assigner);
  }

  void convertFunction(func::FuncOp func, LayoutAssigner &assigner) {
    // Walk 1: types of results and region arguments (pre-order: a reduce's
    // operand is typed before the reduce).
    func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            arg.setType(assigner.assignedType(nullptr, arg.getType()));
      for (OpResult result : op->getResults())
        result.setType(assigner.assignedType(op, result.getType()));
      // A constant's value carries its type.
      if (auto constant = dyn_cast<arith::ConstantOp>(op))
        if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue()))
          if (dense.getType() != constant.getType())
            constant.setValueAttr(
                dense.reshape(cast<ShapedType>(constant.getType())));
    });

    // The signature follows the entry block and the returned values.
    SmallVector<Type> results;
    for (Type type : func.getFunctionType().getResults())
      results.push_back(assigner.assignedType(nullptr, type));
    if (!func.isExternal())
      func.setType(FunctionType::get(
          func.getContext(), func.front().getArgumentTypes(), results));

    // Walk 2: convert operands whose layout differs from what the user
    // needs. One conversion per (value, layout), placed right after the
    // value's definition so that every user can share it.
    DenseMap<std::pair<Value, Type>, Value> conversions;
    func.walk([&](Operation *op) {
      for (OpOperand &operand : op->getOpOperands()) {
        Value value = operand.get();
        Type required = assigner.requiredOperandType(op, operand.getOperandNumber());
        if (!required || required == value.getType())
          continue;
        Value &converted = conversions[{value, required}];
        if (!converted) {
          OpBuilder builder(op->getContext());
          builder.setInsertionPointAfterValue(value);
          converted = ConvertLayoutOp::create(builder, value.getLoc(),
                                              required, value);
        }
        operand.set(converted);
      }
    });
  }
};

} // namespace
