//===- SlotIndex.cpp - telling the slots of a multi-buffer apart ----------===//
//
// See SlotIndex.h.
//
//===----------------------------------------------------------------------===//
#include "compiler/analysis/SlotIndex.h"

#include "dialects/tkgpu/TkgpuDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tkgpu;

std::optional<SlotRef> tkgpu::getSlotRef(Value memdesc) {
  auto index = memdesc.getDefiningOp<MemDescIndexOp>();
  if (!index)
    return std::nullopt;
  auto type = cast<MemDescType>(index.getSrc().getType());
  return SlotRef{index.getSrc(), index.getIndex(), type.getShape().front()};
}

namespace {

std::optional<int64_t> getConstant(Value value) {
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return constant.getSExtValue();
  return std::nullopt;
}

/// `value` = %base + c (either operand order): {base, c}.
std::optional<std::pair<Value, int64_t>> matchAddConstant(Value value) {
  auto add = value.getDefiningOp<arith::AddIOp>();
  if (!add)
    return std::nullopt;
  if (std::optional<int64_t> c = getConstant(add.getRhs()))
    return std::make_pair(add.getLhs(), *c);
  if (std::optional<int64_t> c = getConstant(add.getLhs()))
    return std::make_pair(add.getRhs(), *c);
  return std::nullopt;
}

/// `value` = select(%base + c == numSlots, 0, %base + c), 0 < c < numSlots:
/// %base.
Value matchAdvance(Value value, int64_t numSlots) {
  auto select = value.getDefiningOp<arith::SelectOp>();
  if (!select || getConstant(select.getTrueValue()) != 0)
    return nullptr;
  Value sum = select.getFalseValue();
  auto cmp = select.getCondition().getDefiningOp<arith::CmpIOp>();
  if (!cmp || cmp.getPredicate() != arith::CmpIPredicate::eq)
    return nullptr;
  Value other;
  if (cmp.getLhs() == sum)
    other = cmp.getRhs();
  else if (cmp.getRhs() == sum)
    other = cmp.getLhs();
  if (!other || getConstant(other) != numSlots)
    return nullptr;
  std::optional<std::pair<Value, int64_t>> add = matchAddConstant(sum);
  if (!add || add->second <= 0 || add->second >= numSlots)
    return nullptr;
  return add->first;
}

} // namespace

bool tkgpu::areDistinctSlots(Value a, Value b, int64_t numSlots) {
  if (numSlots < 2 || a == b)
    return false;
  std::optional<int64_t> ca = getConstant(a), cb = getConstant(b);
  if (ca && cb)
    return *ca != *cb;
  return matchAdvance(a, numSlots) == b || matchAdvance(b, numSlots) == a;
}

bool tkgpu::areDistinctSlots(const SlotRef &a, const SlotRef &b) {
  return a.buffer == b.buffer && a.numSlots == b.numSlots &&
         areDistinctSlots(a.index, b.index, a.numSlots);
}
