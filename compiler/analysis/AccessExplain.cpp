//===- AccessExplain.cpp - why a global access is narrow ------------------===//
#include "compiler/analysis/AccessExplain.h"

#include "compiler/analysis/AccessWidth.h"
#include "compiler/analysis/AxisInfo.h"
#include "compiler/analysis/ScratchSize.h"
#include "dialects/tk/TkDialect.h"
#include "dialects/tkgpu/TkgpuDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <optional>

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

/// One place where contiguity dropped: `op`, whose operand `from` had
/// `before` consecutive elements along the dimension and whose result has
/// `after`.
struct Loss {
  Operation *op = nullptr;
  Value from;
  int64_t before = 0, after = 0;
  /// The dimension of op's result the loss is along.
  unsigned dim = 0;
};

/// The dimension of `operand` that dimension `dim` of `op`'s result comes
/// from, or nullopt (a scalar, or a dimension the op creates).
std::optional<unsigned> operandDim(Operation *op, Value operand,
                                   unsigned dim) {
  auto operandType = dyn_cast<RankedTensorType>(operand.getType());
  auto resultType =
      op->getNumResults() == 1
          ? dyn_cast<RankedTensorType>(op->getResult(0).getType())
          : RankedTensorType();
  if (!operandType || !resultType)
    return std::nullopt;
  if (auto expand = dyn_cast<tk::ExpandDimsOp>(op)) {
    unsigned axis = expand.getAxis();
    if (dim == axis)
      return std::nullopt;
    return dim < axis ? dim : dim - 1;
  }
  if (auto trans = dyn_cast<tk::TransOp>(op))
    return unsigned(trans.getOrder()[dim]);
  if (isa<tk::ReshapeOp>(op)) {
    // Unit dimensions added or dropped: match the k-th non-unit dimension.
    ArrayRef<int64_t> from = operandType.getShape(),
                      to = resultType.getShape();
    if (to[dim] == 1)
      return std::nullopt;
    unsigned k = 0;
    for (unsigned d = 0; d < dim; ++d)
      k += to[d] != 1;
    for (unsigned d = 0; d < from.size(); ++d)
      if (from[d] != 1 && k-- == 0)
        return from[d] == to[dim] ? std::optional<unsigned>(d) : std::nullopt;
    return std::nullopt;
  }
  if (operandType.getRank() != resultType.getRank())
    return std::nullopt;
  return dim;
}

/// What the op at a loss did, in the kernel's words.
std::string describeLoss(const tk::AxisInfoAnalysis &axisInfo,
                         const Loss &loss) {
  Operation *op = loss.op;
  auto divisorReason = [&](StringRef spelling) -> std::string {
    Value divisor = op->getOperand(1);
    const tk::AxisInfo *info = axisInfo.getAxisInfo(divisor);
    unsigned d = isa<RankedTensorType>(divisor.getType()) ? loss.dim : 0;
    if (info && info->getConstantValue())
      return llvm::formatv("`{0}` by {1}", spelling,
                           *info->getConstantValue());
    if (info && isa<RankedTensorType>(divisor.getType()) &&
        d < info->getRank() && info->getConstancy(d) == 1)
      return llvm::formatv("`{0}` by a value that changes along the "
                           "dimension", spelling);
    int64_t known = info && d < info->getRank() && info->getContiguity(d) == 1
                        ? info->getDivisibility(d)
                        : 1;
    if (known < 16)
      return llvm::formatv("`{0}` by a value not known to be a multiple of "
                           "16 (--assume NAME=16)", spelling);
    return llvm::formatv("`{0}` by a value known to be a multiple of {1} "
                         "only", spelling, known);
  };
  return llvm::TypeSwitch<Operation *, std::string>(op)
      .Case<arith::RemSIOp, arith::RemUIOp>(
          [&](auto) { return divisorReason("%"); })
      .Case<arith::DivSIOp, arith::DivUIOp>(
          [&](auto) { return std::string("`//` (a quotient repeats)"); })
      .Case<arith::MulIOp>([&](auto) {
        return std::string("`*` by a factor not known to be 1 (--assume "
                           "NAME=1 for a unit stride)");
      })
      .Case<arith::SubIOp>([&](auto) {
        return std::string("`-` of a value that changes along the dimension");
      })
      .Case<arith::SelectOp>([&](auto) {
        return std::string("`where` between values of shorter runs");
      })
      .Case<arith::MaxSIOp, arith::MaxUIOp, arith::MinSIOp, arith::MinUIOp>(
          [&](auto) {
            return std::string("`max`/`min` with a value of shorter runs");
          })
      .Default([&](Operation *other) {
        return llvm::formatv("`{0}`, which keeps no contiguity",
                             other->getName().getStringRef())
            .str();
      });
}

std::string describeLocation(Location loc) {
  if (auto file = loc->findInstanceOf<FileLineColLoc>())
    return llvm::formatv("{0}:{1}:{2}", file.getFilename().getValue(),
                         file.getLine(), file.getColumn())
        .str();
  return "an unknown location";
}

class LossFinder {
public:
  explicit LossFinder(const tk::AxisInfoAnalysis &axisInfo)
      : axisInfo(axisInfo) {}

  /// The loss with the most contiguity lost in the computation of `value`
  /// along `dim` (the first one found on ties).
  Loss find(Value value, unsigned dim, unsigned depth = 0) {
    Loss best;
    if (depth > 48 || !visited.insert({value, dim}).second)
      return best;
    auto consider = [&](const Loss &loss) {
      if (loss.op && loss.before - loss.after > best.before - best.after)
        best = loss;
    };
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      // A loop-carried value: where it starts and what the body yields.
      auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
      if (!loop || arg == loop.getInductionVar())
        return best;
      unsigned index = arg.getArgNumber() - loop.getNumInductionVars();
      consider(find(loop.getInitArgs()[index], dim, depth + 1));
      consider(find(loop.getBody()->getTerminator()->getOperand(index), dim,
                    depth + 1));
      return best;
    }
    Operation *op = value.getDefiningOp();
    const tk::AxisInfo *info = axisInfo.getAxisInfo(value);
    if (!op || !info || dim >= info->getRank())
      return best;
    int64_t after = info->getContiguity(dim);
    for (Value operand : op->getOperands()) {
      std::optional<unsigned> from = operandDim(op, operand, dim);
      const tk::AxisInfo *operandInfo = axisInfo.getAxisInfo(operand);
      if (!from || !operandInfo || *from >= operandInfo->getRank())
        continue;
      int64_t before = operandInfo->getContiguity(*from);
      if (before > after)
        consider(Loss{op, operand, before, after, dim});
      else
        consider(find(operand, *from, depth + 1));
    }
    return best;
  }

private:
  const tk::AxisInfoAnalysis &axisInfo;
  llvm::DenseSet<std::pair<Value, unsigned>> visited;
};

} // namespace

std::string tk::explainContiguityLoss(const AxisInfoAnalysis &axisInfo,
                                      Value value, unsigned dim) {
  Loss loss = LossFinder(axisInfo).find(value, dim);
  if (!loss.op)
    return "";
  return llvm::formatv("lost at {0} in {1}", describeLocation(loss.op->getLoc()),
                       describeLoss(axisInfo, loss))
      .str();
}

std::string tk::explainAccessWidth(const AxisInfoAnalysis &axisInfo,
                                   Value ptr, Value mask) {
  auto type = dyn_cast<RankedTensorType>(ptr.getType());
  const AxisInfo *info = axisInfo.getAxisInfo(ptr);
  if (!type || !info)
    return "nothing is known about the addresses";
  SmallVector<unsigned> order = axisInfo.getContiguityOrder(ptr);
  unsigned dim = order.empty() ? 0 : order.front();
  Type pointee = cast<tk::PtrType>(type.getElementType()).getPointeeType();
  int64_t bytes = getScratchElementBytes(pointee);
  // A term limits the width when it allows no more than the width.
  int64_t wanted = 2 * int64_t(getAccessVectorWidth(axisInfo, ptr, mask));
  SmallVector<std::string> terms;
  if (info->getContiguity(dim) < wanted) {
    std::string term = llvm::formatv("contiguity {0} along dim {1}",
                                     info->getContiguity(dim), dim);
    std::string lost = explainContiguityLoss(axisInfo, ptr, dim);
    if (!lost.empty())
      term += " (" + lost + ")";
    terms.push_back(term);
  }
  // Runs of C elements start C apart: alignment is a term of its own only
  // when it is below what the contiguity allows.
  if (info->getDivisibility(dim) < wanted * bytes &&
      info->getDivisibility(dim) < info->getContiguity(dim) * bytes)
    terms.push_back(llvm::formatv(
        "addresses aligned to {0} bytes only (--assume-aligned-pointers, "
        "--assume NAME=16 for strides)",
        info->getDivisibility(dim)));
  if (mask && axisInfo.getMaskAlignment(mask, dim) < wanted)
    terms.push_back(llvm::formatv(
        "the mask changes every {0} elements along dim {1} (a bound not "
        "known to be a multiple of 16: --assume NAME=16)",
        axisInfo.getMaskAlignment(mask, dim), dim));
  if (terms.empty())
    terms.push_back("the layout gives each thread fewer consecutive "
                    "elements");
  std::string text;
  for (auto [i, term] : llvm::enumerate(terms))
    text += (i ? ", " : "") + term;
  return text;
}
