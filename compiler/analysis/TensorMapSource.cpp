//===- TensorMapSource.cpp - host-encodable tensor descriptor accesses ----===//
//
// A part is followed back through integer extensions and index casts (the
// frontend widens i32 shapes to i64) to a block argument of the kernel's
// entry block, or matched as a constant. See the header for the rules.
//
//===----------------------------------------------------------------------===//
#include "compiler/analysis/TensorMapSource.h"

#include "dialects/tk/TkDescriptorOps.h"
#include "dialects/tk/TkDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tk;

namespace {

/// The kernel parameter `value` is, or nullopt.
std::optional<unsigned> getKernelArgument(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (!isa<arith::ExtSIOp, arith::ExtUIOp, arith::IndexCastOp>(def))
      return std::nullopt;
    value = def->getOperand(0);
  }
  auto arg = cast<BlockArgument>(value);
  auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
  if (!func || !arg.getOwner()->isEntryBlock() || !isKernel(func))
    return std::nullopt;
  return arg.getArgNumber();
}

std::optional<TensorMapOperandSource> getOperandSource(Value value) {
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return TensorMapOperandSource{-1, constant.getSExtValue()};
  if (std::optional<unsigned> arg = getKernelArgument(value))
    return TensorMapOperandSource{int64_t(*arg), 0};
  return std::nullopt;
}

} // namespace

std::optional<TensorMapSource> tk::getTensorMapSource(Operation *access) {
  Value base;
  ValueRange shape, strides;
  if (auto load = dyn_cast<DescriptorLoadOp>(access)) {
    base = load.getBase();
    shape = load.getShape();
    strides = load.getStrides();
  } else if (auto store = dyn_cast<DescriptorStoreOp>(access)) {
    base = store.getBase();
    shape = store.getShape();
    strides = store.getStrides();
  } else {
    return std::nullopt;
  }
  std::optional<unsigned> baseArg = getKernelArgument(base);
  if (!baseArg || base.getDefiningOp())
    return std::nullopt;
  TensorMapSource source;
  source.baseArg = *baseArg;
  for (auto [values, list] :
       {std::pair{shape, &source.shape}, std::pair{strides, &source.strides}})
    for (Value value : values) {
      std::optional<TensorMapOperandSource> operand = getOperandSource(value);
      if (!operand)
        return std::nullopt;
      list->push_back(*operand);
    }
  return source;
}

Value tk::getSqueezedTile(Operation *access) {
  // Whether `block` is `tile` with leading unit dimensions.
  auto isSqueeze = [](RankedTensorType block, RankedTensorType tile) {
    if (tile.getRank() != 2 || block.getRank() <= 2 ||
        block.getShape().take_back(2) != tile.getShape())
      return false;
    return llvm::all_of(block.getShape().drop_back(2),
                        [](int64_t d) { return d == 1; });
  };
  // A load's block is reshaped to the tile; a store's tile to the block.
  if (auto load = dyn_cast<DescriptorLoadOp>(access)) {
    if (!load->hasOneUse())
      return {};
    auto reshape = dyn_cast<ReshapeOp>(*load->user_begin());
    return reshape && isSqueeze(reshape.getSrc().getType(), reshape.getType())
               ? reshape.getResult()
               : Value();
  }
  auto store = cast<DescriptorStoreOp>(access);
  auto reshape = store.getValue().getDefiningOp<ReshapeOp>();
  return reshape && isSqueeze(reshape.getType(), reshape.getSrc().getType())
             ? reshape.getSrc()
             : Value();
}

bool tk::canUseHostTensorMap(Operation *access) {
  if (!getTensorMapSource(access))
    return false;
  auto block = isa<DescriptorLoadOp>(access)
                   ? cast<RankedTensorType>(access->getResult(0).getType())
                   : cast<RankedTensorType>(
                         cast<DescriptorStoreOp>(access).getValue().getType());
  if (block.getRank() > 5)
    return false;
  if (block.getRank() > 2) {
    Value tile = getSqueezedTile(access);
    if (!tile)
      return false;
    block = cast<RankedTensorType>(tile.getType());
  }
  if (block.getRank() != 2)
    return false;
  Type element = block.getElementType();
  if (!element.isIntOrFloat())
    return false;
  unsigned bits = element.getIntOrFloatBitWidth();
  int64_t rows = block.getShape()[0], cols = block.getShape()[1];
  return (bits == 8 || bits == 16 || bits == 32) && rows % 8 == 0 &&
         (rows <= 256 || rows % 256 == 0) && (cols * bits / 8) % 32 == 0;
}
