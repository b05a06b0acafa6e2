//===- AccessWidth.cpp - vector width of a global memory access -----------===//
#include "compiler/analysis/AccessWidth.h"

#include "compiler/analysis/AxisInfo.h"
#include "compiler/analysis/ScratchSize.h"
#include "dialects/tk/TkDialect.h"
#include "dialects/tkgpu/TkgpuDialect.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tkgpu;

unsigned tk::getAccessVectorWidth(const AxisInfoAnalysis &axisInfo,
                                  Value ptr, Value mask) {
  auto type = dyn_cast<RankedTensorType>(ptr.getType());
  if (!type || !getLayoutEncoding(type))
    return 1;
  LinearLayout layout = toLinearLayout(type);
  if (getInBits(layout, kRegister) == 0)
    return 1;
  SmallVector<int32_t> first = getBasisOrZero(layout, kRegister, 0);
  int dim = -1;
  for (unsigned d = 0; d < first.size(); ++d)
    if (first[d] != 0)
      dim = dim == -1 && first[d] == 1 ? static_cast<int>(d) : -2;
  if (dim < 0)
    return 1;

  Type pointee = cast<tk::PtrType>(type.getElementType()).getPointeeType();
  int64_t bits = 8 * getScratchElementBytes(pointee);
  int64_t vec = layout.getNumContiguousRegisters(outDimName(dim));
  vec = std::min<int64_t>(vec, 128 / bits);
  const tk::AxisInfo *info = axisInfo.getAxisInfo(ptr);
  if (!info || info->getRank() <= static_cast<unsigned>(dim))
    return 1;
  vec = std::min(vec, info->getContiguity(dim));
  vec = std::min(vec, std::max<int64_t>(
                          1, info->getDivisibility(dim) * 8 / bits));
  if (mask)
    vec = std::min(vec, axisInfo.getMaskAlignment(mask, dim));
  vec = std::max<int64_t>(1, int64_t(1) << llvm::Log2_64(std::max<int64_t>(
                                 vec, 1)));

  // Each vector must start at a multiple of vec along `dim`: no other
  // basis may move by less.
  auto aligned = [&](int64_t v) {
    for (const char *inDim : {kRegister, kLane, kWarp}) {
      int32_t firstBit = inDim == kRegister ? llvm::Log2_64(v) : 0;
      for (int32_t bit = firstBit, e = getInBits(layout, inDim); bit < e;
           ++bit)
        if (getBasisOrZero(layout, inDim, bit)[dim] % v != 0)
          return false;
    }
    return true;
  };
  while (vec > 1 && !aligned(vec))
    vec /= 2;
  return static_cast<unsigned>(vec);
}

bool tk::hasVectorAtomicForm(Operation *op, unsigned computeCapability) {
  auto rmw = dyn_cast<tk::AtomicRMWOp>(op);
  if (!rmw || rmw.getKind() != tk::AtomicKind::Add || computeCapability < 90)
    return false;
  Type element = getElementTypeOrSelf(rmw.getValue().getType());
  return element.isF32() || element.isF16() || element.isBF16();
}
