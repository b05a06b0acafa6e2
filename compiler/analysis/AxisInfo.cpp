//===- AxisInfo.cpp - contiguity/divisibility/constancy analysis ----------===//
//
// Transfer functions follow the reasoning of Triton's AxisInfo, restated
// here for powers of two. Per dimension, a value splits into runs:
//   contiguity C: runs of C consecutive values (x, x+1, ...),
//   divisibility D: the first value of each contiguity run is divisible by D
//     (so with C == 1, every element is), for pointers in bytes,
//   constancy K: runs of K equal values.
// Every quantity is a power of two, so gcd is min and lcm is max.
//
// Where two values meet (select, max/min, the dataflow join at loop and if
// boundaries) and their contiguities differ, the result's runs are the
// shorter ones, c = min(C_a, C_b): a run of the longer side now also starts
// inside one of its old runs, at start + j*c, so that side's divisibility is
// capped by c (in bytes for pointers). Without the cap a select between
// [x, x+1, ...] (x % 16 == 0) and a splat of a multiple of 16 would claim
// every element divisible by 16.
//
// Division and remainder by a value r that is only known to be a multiple
// of D_r (a run-time M with `tk.divisibility`, as Triton's launch
// specialization provides) keep structure: an aligned run of g = min(C, D,
// D_r) consecutive values never crosses a multiple of r, so x % r stays
// consecutive over g values and x / r constant over g values, provided r
// itself is constant over the run. This is what keeps tutorial 03's
// `(pid_m * BLOCK_M + arange(0, BLOCK_M)) % M` contiguous. Like Triton's
// AxisInfo, the rules assume non-negative offsets (truncating division of a
// negative run can change value inside it).
//
//===----------------------------------------------------------------------===//
#include "compiler/analysis/AxisInfo.h"

#include "dialects/tk/TkDialect.h"
#include "dialects/tkgpu/TkgpuDialect.h"

#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Analysis/DataFlow/SparseAnalysis.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::tk;

namespace {

/// Cap on divisibility: "divisible by everything we care about" (zero).
constexpr int64_t kMaxDivisor = int64_t(1) << 30;

unsigned rankOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return std::max<int64_t>(1, tensor.getRank());
  return 1;
}

/// Shape with scalars as [1].
SmallVector<int64_t> shapeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return SmallVector<int64_t>(tensor.getShape());
  return {1};
}

bool isTracked(Type type) {
  Type element = getElementTypeOrSelf(type);
  return isa<IntegerType, IndexType, PtrType>(element);
}

int64_t gcd(int64_t a, int64_t b) { return std::min(a, b); }

/// The divisibility every element has (not just run starts).
int64_t elementDivisibility(const AxisInfo &info, unsigned d) {
  return info.getContiguity(d) > 1 ? 1 : info.getDivisibility(d);
}

/// Bytes per element of a pointer-like type (1 for non-pointers).
int64_t pointeeBytes(Type type) {
  auto ptr = dyn_cast<PtrType>(getElementTypeOrSelf(type));
  if (!ptr)
    return 1;
  return std::max<int64_t>(1, ptr.getPointeeType().getIntOrFloatBitWidth() / 8);
}

/// The divisibility of run starts where `a` and `b` meet along `d` (one or
/// the other element is taken): runs shrink to the shorter contiguity c, so
/// the longer side's starts are only known divisible by c elements
/// (`elementBytes` each). See the file comment.
int64_t mergedDivisibility(const AxisInfo &a, const AxisInfo &b, unsigned d,
                           int64_t elementBytes) {
  int64_t c = std::min(a.getContiguity(d), b.getContiguity(d));
  auto side = [&](const AxisInfo &x) {
    if (x.getContiguity(d) == c)
      return x.getDivisibility(d);
    return std::min(x.getDivisibility(d),
                    std::min(kMaxDivisor, c * elementBytes));
  };
  return std::min(side(a), side(b));
}

/// Builds an AxisInfo dimension by dimension.
AxisInfo makeInfo(unsigned rank,
                  function_ref<int64_t(unsigned)> contiguity,
                  function_ref<int64_t(unsigned)> divisibility,
                  function_ref<int64_t(unsigned)> constancy,
                  std::optional<int64_t> constant = std::nullopt) {
  AxisInfo::DimVector c, d, k;
  for (unsigned i = 0; i < rank; ++i) {
    c.push_back(contiguity(i));
    d.push_back(std::min(divisibility(i), kMaxDivisor));
    k.push_back(constancy(i));
  }
  return AxisInfo(c, d, k, constant);
}

/// A value equal to `value` everywhere in a value of `type`.
AxisInfo constantInfo(Type type, int64_t value) {
  SmallVector<int64_t> shape = shapeOf(type);
  return makeInfo(
      shape.size(), [](unsigned) { return 1; },
      [&](unsigned) { return AxisInfo::highestPowOf2Divisor(value); },
      [&](unsigned d) { return shape[d]; }, value);
}

std::optional<int64_t> foldBinary(const AxisInfo &lhs, const AxisInfo &rhs,
                                  function_ref<std::optional<int64_t>(
                                      int64_t, int64_t)> fn) {
  if (lhs.getConstantValue() && rhs.getConstantValue())
    return fn(*lhs.getConstantValue(), *rhs.getConstantValue());
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Transfer functions
//===----------------------------------------------------------------------===//

/// lhs + rhs (addi, addptr with the offset scaled to bytes).
AxisInfo addInfo(Type type, const AxisInfo &lhs, const AxisInfo &rhs,
                 int64_t rhsScale) {
  auto constant = foldBinary(lhs, rhs, [&](int64_t a, int64_t b) {
    return std::optional<int64_t>(a + b * rhsScale);
  });
  if (constant && !isa<PtrType>(getElementTypeOrSelf(type)))
    return constantInfo(type, *constant);
  return makeInfo(
      lhs.getRank(),
      [&](unsigned d) {
        // A run of consecutive values plus a value constant over it stays
        // consecutive (pointers: only with unit offsets per element).
        return std::max(gcd(lhs.getContiguity(d), rhs.getConstancy(d)),
                        gcd(rhs.getContiguity(d), lhs.getConstancy(d)));
      },
      [&](unsigned d) {
        return gcd(lhs.getDivisibility(d),
                   std::min(kMaxDivisor, rhs.getDivisibility(d) * rhsScale));
      },
      [&](unsigned d) { return gcd(lhs.getConstancy(d), rhs.getConstancy(d)); });
}

AxisInfo subInfo(Type type, const AxisInfo &lhs, const AxisInfo &rhs) {
  if (auto c = foldBinary(lhs, rhs, [](int64_t a, int64_t b) {
        return std::optional<int64_t>(a - b);
      }))
    return constantInfo(type, *c);
  return makeInfo(
      lhs.getRank(),
      [&](unsigned d) { return gcd(lhs.getContiguity(d), rhs.getConstancy(d)); },
      [&](unsigned d) {
        return gcd(lhs.getDivisibility(d), rhs.getDivisibility(d));
      },
      [&](unsigned d) { return gcd(lhs.getConstancy(d), rhs.getConstancy(d)); });
}

AxisInfo mulInfo(Type type, const AxisInfo &lhs, const AxisInfo &rhs) {
  if (auto c = foldBinary(lhs, rhs, [](int64_t a, int64_t b) {
        return std::optional<int64_t>(a * b);
      }))
    return constantInfo(type, *c);
  if (lhs.getConstantValue() == 0 || rhs.getConstantValue() == 0)
    return constantInfo(type, 0);
  if (rhs.getConstantValue() == 1)
    return lhs;
  if (lhs.getConstantValue() == 1)
    return rhs;
  return makeInfo(
      lhs.getRank(), [](unsigned) { return 1; },
      [&](unsigned d) {
        return elementDivisibility(lhs, d) * elementDivisibility(rhs, d);
      },
      [&](unsigned d) { return gcd(lhs.getConstancy(d), rhs.getConstancy(d)); });
}

/// lhs / 2^shift or lhs / rhs (signed or unsigned, rounding toward zero).
AxisInfo divInfo(Type type, const AxisInfo &lhs, const AxisInfo &rhs) {
  if (auto c = foldBinary(lhs, rhs, [](int64_t a, int64_t b) {
        return b == 0 ? std::nullopt : std::optional<int64_t>(a / b);
      }))
    return constantInfo(type, *c);
  if (rhs.getConstantValue() == 1)
    return lhs;
  if (lhs.getConstantValue() == 0)
    return lhs;
  std::optional<int64_t> divisor = rhs.getConstantValue();
  bool byPow2 = divisor && *divisor > 0 && llvm::isPowerOf2_64(*divisor);
  return makeInfo(
      lhs.getRank(), [](unsigned) { return 1; },
      [&](unsigned d) -> int64_t {
        if (!byPow2 || lhs.getContiguity(d) > 1)
          return 1;
        return std::max<int64_t>(1, lhs.getDivisibility(d) / *divisor);
      },
      [&](unsigned d) {
        int64_t constancy = gcd(lhs.getConstancy(d), rhs.getConstancy(d));
        // An aligned run of g consecutive values divided by a multiple of g
        // that is constant over the run: g equal quotients.
        if (lhs.getContiguity(d) > 1)
          constancy = std::max(
              constancy,
              std::min({lhs.getContiguity(d), lhs.getDivisibility(d),
                        rhs.getDivisibility(d), rhs.getConstancy(d)}));
        return constancy;
      });
}

/// lhs % rhs (signed or unsigned remainder).
AxisInfo remInfo(Type type, const AxisInfo &lhs, const AxisInfo &rhs) {
  if (auto c = foldBinary(lhs, rhs, [](int64_t a, int64_t b) {
        return b == 0 ? std::nullopt : std::optional<int64_t>(a % b);
      }))
    return constantInfo(type, *c);
  if (rhs.getConstantValue() == 1 || lhs.getConstantValue() == 0)
    return constantInfo(type, 0);
  auto runLength = [&](unsigned d) {
    // Runs restart at multiples of r; an aligned run stays consecutive for
    // g values when r is a multiple of g and constant over them.
    return std::min({lhs.getContiguity(d), lhs.getDivisibility(d),
                     rhs.getDivisibility(d), rhs.getConstancy(d)});
  };
  return makeInfo(
      lhs.getRank(),
      [&](unsigned d) {
        return lhs.getContiguity(d) > 1 ? runLength(d) : int64_t(1);
      },
      [&](unsigned d) -> int64_t {
        // x - q * r: divisible by what divides both x and r.
        if (lhs.getContiguity(d) == 1)
          return std::min(lhs.getDivisibility(d), elementDivisibility(rhs, d));
        int64_t g = runLength(d);
        if (g == lhs.getContiguity(d))
          return std::min(lhs.getDivisibility(d), rhs.getDivisibility(d));
        return g;
      },
      [&](unsigned d) { return gcd(lhs.getConstancy(d), rhs.getConstancy(d)); });
}

/// max/min: consecutive runs of both sides stay consecutive (max(a + i,
/// b + i) = max(a, b) + i); otherwise only constancy survives.
AxisInfo maxMinInfo(Type type, const AxisInfo &lhs, const AxisInfo &rhs,
                    function_ref<int64_t(int64_t, int64_t)> fn) {
  if (auto c = foldBinary(lhs, rhs, [&](int64_t a, int64_t b) {
        return std::optional<int64_t>(fn(a, b));
      }))
    return constantInfo(type, *c);
  return makeInfo(
      lhs.getRank(),
      [&](unsigned d) { return gcd(lhs.getContiguity(d), rhs.getContiguity(d)); },
      [&](unsigned d) { return mergedDivisibility(lhs, rhs, d, 1); },
      [&](unsigned d) { return gcd(lhs.getConstancy(d), rhs.getConstancy(d)); });
}

/// Bitwise and/or/xor: constancy survives, and what divides both sides.
AxisInfo bitwiseInfo(Type type, const AxisInfo &lhs, const AxisInfo &rhs,
                     function_ref<std::optional<int64_t>(int64_t, int64_t)> fn) {
  if (auto c = foldBinary(lhs, rhs, fn))
    return constantInfo(type, *c);
  return makeInfo(
      lhs.getRank(), [](unsigned) { return 1; },
      [&](unsigned d) {
        return std::min(elementDivisibility(lhs, d),
                        elementDivisibility(rhs, d));
      },
      [&](unsigned d) { return gcd(lhs.getConstancy(d), rhs.getConstancy(d)); });
}

AxisInfo cmpInfo(Type type, arith::CmpIPredicate predicate,
                 const AxisInfo &lhs, const AxisInfo &rhs) {
  using P = arith::CmpIPredicate;
  if (lhs.getConstantValue() && rhs.getConstantValue()) {
    int64_t a = *lhs.getConstantValue(), b = *rhs.getConstantValue();
    bool result = false;
    switch (predicate) {
    case P::eq: result = a == b; break;
    case P::ne: result = a != b; break;
    case P::slt: result = a < b; break;
    case P::sle: result = a <= b; break;
    case P::sgt: result = a > b; break;
    case P::sge: result = a >= b; break;
    case P::ult: result = uint64_t(a) < uint64_t(b); break;
    case P::ule: result = uint64_t(a) <= uint64_t(b); break;
    case P::ugt: result = uint64_t(a) > uint64_t(b); break;
    case P::uge: result = uint64_t(a) >= uint64_t(b); break;
    }
    return constantInfo(type, result);
  }
  // `x < n` with x consecutive from an aligned start and n constant and
  // aligned changes value only at multiples of the common alignment g: the
  // result is constant over runs of g. Only strict < and >= (and mirrored
  // forms) switch exactly at n.
  const AxisInfo *range = nullptr, *bound = nullptr;
  switch (predicate) {
  case P::slt: case P::ult: case P::sge: case P::uge:
    range = &lhs; bound = &rhs; break;
  case P::sgt: case P::ugt: case P::sle: case P::ule:
    range = &rhs; bound = &lhs; break;
  default:
    break;
  }
  return makeInfo(
      lhs.getRank(), [](unsigned) { return 1; }, [](unsigned) { return 1; },
      [&](unsigned d) {
        int64_t constancy = gcd(lhs.getConstancy(d), rhs.getConstancy(d));
        if (range && range->getContiguity(d) > 1)
          constancy = std::max(
              constancy,
              std::min({range->getContiguity(d), range->getDivisibility(d),
                        bound->getDivisibility(d), bound->getConstancy(d)}));
        return constancy;
      });
}

AxisInfo selectInfo(Type type, bool scalarCond, const AxisInfo &cond,
                    const AxisInfo &a, const AxisInfo &b) {
  if (cond.getConstantValue())
    return *cond.getConstantValue() ? a : b;
  std::optional<int64_t> constant;
  if (a.getConstantValue() && a.getConstantValue() == b.getConstantValue())
    constant = a.getConstantValue();
  return makeInfo(
      a.getRank(),
      [&](unsigned d) {
        int64_t c = gcd(a.getContiguity(d), b.getContiguity(d));
        return scalarCond ? c : gcd(c, cond.getConstancy(d));
      },
      [&](unsigned d) {
        return mergedDivisibility(a, b, d, pointeeBytes(type));
      },
      [&](unsigned d) {
        int64_t k = gcd(a.getConstancy(d), b.getConstancy(d));
        return scalarCond ? k : gcd(k, cond.getConstancy(d));
      },
      constant);
}

/// The divisibility every element of `info` has, over all dimensions.
int64_t commonElementDivisibility(const AxisInfo &info) {
  int64_t common = kMaxDivisor;
  for (unsigned d = 0; d < info.getRank(); ++d)
    common = std::min(common, elementDivisibility(info, d));
  return common;
}

/// tk.reshape (row-major order kept). Adding or dropping unit dimensions
/// (what the frontend's block pointers and `x[:, None]` emit) keeps every
/// fact of the other dimensions; a unit dimension gets what all elements
/// share, as in expand_dims. A real reshape keeps the runs of the last
/// dimension when the new last dimension divides the old one; the other
/// dimensions keep only the common divisibility.
AxisInfo reshapeInfo(ArrayRef<int64_t> from, ArrayRef<int64_t> to,
                     const AxisInfo &src) {
  int64_t common = commonElementDivisibility(src);
  SmallVector<unsigned> fromDims, toDims;
  for (auto [d, size] : llvm::enumerate(from))
    if (size != 1)
      fromDims.push_back(d);
  for (auto [d, size] : llvm::enumerate(to))
    if (size != 1)
      toDims.push_back(d);
  bool sameNonUnit =
      fromDims.size() == toDims.size() &&
      llvm::all_of(llvm::zip_equal(fromDims, toDims), [&](auto pair) {
        return from[std::get<0>(pair)] == to[std::get<1>(pair)];
      });
  AxisInfo::DimVector c(to.size(), 1), d(to.size(), common),
      k(to.size(), 1);
  if (sameNonUnit) {
    for (auto [f, t] : llvm::zip_equal(fromDims, toDims)) {
      c[t] = src.getContiguity(f);
      d[t] = src.getDivisibility(f);
      k[t] = src.getConstancy(f);
    }
  } else if (!from.empty() && !to.empty() && to.back() > 0 &&
             from.back() % to.back() == 0) {
    unsigned last = from.size() - 1;
    int64_t size = to.back();
    c.back() = std::min(src.getContiguity(last), size);
    d.back() = src.getContiguity(last) <= size
                   ? src.getDivisibility(last)
                   : std::min(src.getDivisibility(last), size);
    k.back() = std::min(src.getConstancy(last), size);
  }
  for (auto [i, size] : llvm::enumerate(to))
    if (size == 1)
      k[i] = 1;
  return AxisInfo(c, d, k, src.getConstantValue());
}

/// tk.hint: the given facts replace the computed ones.
AxisInfo hintInfo(HintOp hint, const AxisInfo &src) {
  auto pick = [](DenseI32ArrayAttr attr, const AxisInfo::DimVector &fallback) {
    AxisInfo::DimVector result(fallback);
    if (attr)
      for (auto [i, v] : llvm::enumerate(attr.asArrayRef()))
        result[i] = v;
    return result;
  };
  return AxisInfo(pick(hint.getContiguityAttr(), src.getContiguity()),
                  pick(hint.getDivisibilityAttr(), src.getDivisibility()),
                  pick(hint.getConstancyAttr(), src.getConstancy()),
                  src.getConstantValue());
}

std::optional<int64_t> getIntConstant(Attribute attr) {
  // i1 true is 1 (as cmpi's folded results), not -1.
  if (auto integer = dyn_cast<IntegerAttr>(attr))
    return integer.getType().isInteger(1) ? int64_t(integer.getValue().getZExtValue())
                                          : integer.getValue().getSExtValue();
  if (auto splat = dyn_cast<SplatElementsAttr>(attr))
    if (isa<IntegerType, IndexType>(splat.getElementType()))
      return splat.getElementType().isInteger(1)
                 ? int64_t(splat.getSplatValue<APInt>().getZExtValue())
                 : splat.getSplatValue<APInt>().getSExtValue();
  return std::nullopt;
}

/// The info of `op`'s result from its operands' infos; nullopt for ops
/// without a rule (their results become pessimistic).
std::optional<AxisInfo> transfer(Operation *op,
                                 ArrayRef<const AxisInfo *> operands) {
  Type type = op->getNumResults() == 1 ? op->getResult(0).getType() : Type();
  if (!type)
    return std::nullopt;
  SmallVector<int64_t> shape = shapeOf(type);
  unsigned rank = shape.size();
  auto operand = [&](unsigned i) -> const AxisInfo & { return *operands[i]; };

  return llvm::TypeSwitch<Operation *, std::optional<AxisInfo>>(op)
      .Case<arith::ConstantOp>([&](auto constant) -> std::optional<AxisInfo> {
        if (auto value = getIntConstant(constant.getValue()))
          return constantInfo(type, *value);
        return std::nullopt;
      })
      .Case<MakeRangeOp>([&](MakeRangeOp range) {
        return makeInfo(
            1, [&](unsigned) { return shape[0]; },
            [&](unsigned) {
              return AxisInfo::highestPowOf2Divisor(range.getStart());
            },
            [](unsigned) { return 1; });
      })
      .Case<SplatOp>([&](auto) {
        const AxisInfo &src = operand(0);
        return makeInfo(
            rank, [](unsigned) { return 1; },
            [&](unsigned) { return src.getDivisibility(0); },
            [&](unsigned d) { return shape[d]; }, src.getConstantValue());
      })
      .Case<BroadcastOp>([&](BroadcastOp broadcast) {
        const AxisInfo &src = operand(0);
        ArrayRef<int64_t> from = broadcast.getSrc().getType().getShape();
        return makeInfo(
            rank,
            [&](unsigned d) {
              return from[d] == shape[d] ? src.getContiguity(d) : 1;
            },
            [&](unsigned d) { return src.getDivisibility(d); },
            [&](unsigned d) {
              return from[d] == shape[d] ? src.getConstancy(d) : shape[d];
            },
            src.getConstantValue());
      })
      .Case<ExpandDimsOp>([&](ExpandDimsOp expand) {
        const AxisInfo &src = operand(0);
        unsigned axis = expand.getAxis();
        // The new unit dimension: every element starts a run, so it gets
        // the divisibility all elements share.
        int64_t common = commonElementDivisibility(src);
        auto at = [&](const AxisInfo::DimVector &v, int64_t inserted,
                      unsigned d) {
          if (d == axis)
            return inserted;
          return v[d < axis ? d : d - 1];
        };
        return makeInfo(
            rank, [&](unsigned d) { return at(src.getContiguity(), 1, d); },
            [&](unsigned d) { return at(src.getDivisibility(), common, d); },
            [&](unsigned d) { return at(src.getConstancy(), 1, d); },
            src.getConstantValue());
      })
      .Case<ReshapeOp>([&](ReshapeOp reshape) {
        return reshapeInfo(reshape.getSrc().getType().getShape(), shape,
                           operand(0));
      })
      .Case<TransOp>([&](TransOp trans) {
        const AxisInfo &src = operand(0);
        ArrayRef<int32_t> order = trans.getOrder();
        return makeInfo(
            rank, [&](unsigned d) { return src.getContiguity(order[d]); },
            [&](unsigned d) { return src.getDivisibility(order[d]); },
            [&](unsigned d) { return src.getConstancy(order[d]); },
            src.getConstantValue());
      })
      .Case<HintOp>([&](HintOp hint) { return hintInfo(hint, operand(0)); })
      .Case<arith::AddIOp>(
          [&](auto) { return addInfo(type, operand(0), operand(1), 1); })
      .Case<AddPtrOp>([&](AddPtrOp addptr) {
        return addInfo(type, operand(0), operand(1), pointeeBytes(type));
      })
      .Case<arith::SubIOp>(
          [&](auto) { return subInfo(type, operand(0), operand(1)); })
      .Case<arith::MulIOp>(
          [&](auto) { return mulInfo(type, operand(0), operand(1)); })
      .Case<arith::DivSIOp, arith::DivUIOp>(
          [&](auto) { return divInfo(type, operand(0), operand(1)); })
      .Case<arith::RemSIOp, arith::RemUIOp>(
          [&](auto) { return remInfo(type, operand(0), operand(1)); })
      .Case<arith::ShLIOp>([&](auto) -> std::optional<AxisInfo> {
        std::optional<int64_t> shift = operand(1).getConstantValue();
        if (!shift || *shift < 0 || *shift > 30)
          return bitwiseInfo(type, operand(0), operand(1),
                             [](int64_t, int64_t) { return std::nullopt; });
        return mulInfo(type, operand(0), constantInfo(type, int64_t(1) << *shift));
      })
      .Case<arith::ShRSIOp, arith::ShRUIOp>([&](auto) -> std::optional<AxisInfo> {
        std::optional<int64_t> shift = operand(1).getConstantValue();
        if (!shift || *shift < 0 || *shift > 30)
          return bitwiseInfo(type, operand(0), operand(1),
                             [](int64_t, int64_t) { return std::nullopt; });
        return divInfo(type, operand(0), constantInfo(type, int64_t(1) << *shift));
      })
      .Case<arith::AndIOp>([&](auto) {
        return bitwiseInfo(type, operand(0), operand(1), [](int64_t a, int64_t b) {
          return std::optional<int64_t>(a & b);
        });
      })
      .Case<arith::OrIOp>([&](auto) {
        return bitwiseInfo(type, operand(0), operand(1), [](int64_t a, int64_t b) {
          return std::optional<int64_t>(a | b);
        });
      })
      .Case<arith::XOrIOp>([&](auto) {
        return bitwiseInfo(type, operand(0), operand(1), [](int64_t a, int64_t b) {
          return std::optional<int64_t>(a ^ b);
        });
      })
      .Case<arith::MaxSIOp, arith::MaxUIOp>([&](auto) {
        return maxMinInfo(type, operand(0), operand(1),
                          [](int64_t a, int64_t b) { return std::max(a, b); });
      })
      .Case<arith::MinSIOp, arith::MinUIOp>([&](auto) {
        return maxMinInfo(type, operand(0), operand(1),
                          [](int64_t a, int64_t b) { return std::min(a, b); });
      })
      .Case<arith::CmpIOp>([&](arith::CmpIOp cmp) {
        return cmpInfo(type, cmp.getPredicate(), operand(0), operand(1));
      })
      .Case<arith::SelectOp>([&](arith::SelectOp select) {
        // An i1 condition picks one whole side.
        bool scalarCond = !isa<ShapedType>(select.getCondition().getType());
        return selectInfo(type, scalarCond, operand(0), operand(1), operand(2));
      })
      .Case<LoadOp>([&](LoadOp load) {
        // Equal addresses under an equal mask bit load equal values (a
        // table read through a broadcast pointer).
        const AxisInfo &ptr = operand(0);
        const AxisInfo *mask = load.getMask() ? &operand(1) : nullptr;
        return makeInfo(
            rank, [](unsigned) { return 1; }, [](unsigned) { return 1; },
            [&](unsigned d) {
              return mask ? gcd(ptr.getConstancy(d), mask->getConstancy(d))
                          : ptr.getConstancy(d);
            });
      })
      .Case<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp,
            arith::IndexCastOp, arith::IndexCastUIOp, IntToPtrOp, PtrToIntOp,
            BitcastOp, tkgpu::ConvertLayoutOp>(
          [&](auto) -> std::optional<AxisInfo> { return operand(0); })
      .Default([](Operation *) { return std::nullopt; });
}

//===----------------------------------------------------------------------===//
// The dataflow analysis
//===----------------------------------------------------------------------===//

using AxisInfoLattice = dataflow::Lattice<AxisInfo>;

class AxisInfoDataflow
    : public dataflow::SparseForwardDataFlowAnalysis<AxisInfoLattice> {
public:
  using SparseForwardDataFlowAnalysis::SparseForwardDataFlowAnalysis;

  LogicalResult visitOperation(Operation *op,
                               ArrayRef<const AxisInfoLattice *> operands,
                               ArrayRef<AxisInfoLattice *> results) override {
    // Wait until every operand is known (loops converge from below).
    SmallVector<const AxisInfo *> infos;
    for (const AxisInfoLattice *operand : operands) {
      if (!operand->getValue().isInitialized())
        return success();
      infos.push_back(&operand->getValue());
    }
    std::optional<AxisInfo> info = transfer(op, infos);
    if (!info) {
      setAllToEntryStates(results);
      return success();
    }
    for (AxisInfoLattice *result : results)
      propagateIfChanged(result, result->join(*info));
    return success();
  }

  void visitNonControlFlowArguments(Operation *op,
                                    const RegionSuccessor &successor,
                                    ArrayRef<AxisInfoLattice *> argLattices,
                                    unsigned firstIndex) override {
    // scf.for induction variable: lb, lb + step, ...: not contiguous, every
    // value divisible by gcd(lb, step).
    if (auto forOp = dyn_cast<scf::ForOp>(op)) {
      Block *body = forOp.getBody();
      const AxisInfoLattice *lb = getLatticeElementFor(
          getProgramPointBefore(body), forOp.getLowerBound());
      const AxisInfoLattice *step =
          getLatticeElementFor(getProgramPointBefore(body), forOp.getStep());
      for (AxisInfoLattice *arg : argLattices) {
        if (arg->getAnchor() != forOp.getInductionVar())
          continue;
        if (!lb->getValue().isInitialized() ||
            !step->getValue().isInitialized()) {
          setToEntryState(arg);
          continue;
        }
        int64_t divisibility = std::min(lb->getValue().getDivisibility(0),
                                        step->getValue().getDivisibility(0));
        propagateIfChanged(arg, arg->join(AxisInfo({1}, {divisibility}, {1})));
      }
      return;
    }
    SparseForwardDataFlowAnalysis::visitNonControlFlowArguments(
        op, successor, argLattices, firstIndex);
  }

  void setToEntryState(AxisInfoLattice *lattice) override {
    propagateIfChanged(lattice,
                       lattice->join(AxisInfo::getFromArgument(lattice->getAnchor())));
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// AxisInfo
//===----------------------------------------------------------------------===//

AxisInfo::AxisInfo(DimVector contiguity, DimVector divisibility,
                   DimVector constancy, std::optional<int64_t> constantValue)
    : contiguity(std::move(contiguity)), divisibility(std::move(divisibility)),
      constancy(std::move(constancy)), constantValue(constantValue) {
  assert(this->contiguity.size() == this->divisibility.size() &&
         this->contiguity.size() == this->constancy.size());
}

AxisInfo AxisInfo::getPessimistic(unsigned rank) {
  return AxisInfo(DimVector(rank, 1), DimVector(rank, 1), DimVector(rank, 1));
}

AxisInfo AxisInfo::getFromArgument(Value arg) {
  unsigned rank = rankOf(arg.getType());
  AxisInfo info = getPessimistic(rank);
  auto blockArg = dyn_cast<BlockArgument>(arg);
  if (!blockArg || !blockArg.getOwner()->isEntryBlock())
    return info;
  auto func =
      dyn_cast_or_null<FunctionOpInterface>(blockArg.getOwner()->getParentOp());
  if (!func)
    return info;
  if (auto attr = func.getArgAttrOfType<IntegerAttr>(blockArg.getArgNumber(),
                                                     "tk.divisibility")) {
    int64_t divisibility =
        std::min(kMaxDivisor, highestPowOf2Divisor(attr.getInt()));
    info.divisibility.assign(rank, divisibility);
  }
  return info;
}

AxisInfo AxisInfo::join(const AxisInfo &lhs, const AxisInfo &rhs) {
  if (!lhs.isInitialized())
    return rhs;
  if (!rhs.isInitialized())
    return lhs;
  if (lhs == rhs)
    return lhs;
  DimVector c, d, k;
  for (unsigned i = 0; i < lhs.getRank(); ++i) {
    c.push_back(std::min(lhs.contiguity[i], rhs.contiguity[i]));
    // The join does not know the element size: pointers are capped at c
    // bytes, which is safe (and only loses where contiguities differ).
    d.push_back(mergedDivisibility(lhs, rhs, i, 1));
    k.push_back(std::min(lhs.constancy[i], rhs.constancy[i]));
  }
  std::optional<int64_t> constant;
  if (lhs.constantValue == rhs.constantValue)
    constant = lhs.constantValue;
  return AxisInfo(c, d, k, constant);
}

bool AxisInfo::operator==(const AxisInfo &other) const {
  return contiguity == other.contiguity && divisibility == other.divisibility &&
         constancy == other.constancy && constantValue == other.constantValue;
}

void AxisInfo::print(llvm::raw_ostream &os) const {
  if (!isInitialized()) {
    os << "<uninitialized>";
    return;
  }
  auto list = [&](const DimVector &v) {
    os << "[";
    llvm::interleaveComma(v, os);
    os << "]";
  };
  os << "contiguity = ";
  list(contiguity);
  os << ", divisibility = ";
  list(divisibility);
  os << ", constancy = ";
  list(constancy);
  if (constantValue)
    os << ", constant = " << *constantValue;
}

int64_t AxisInfo::highestPowOf2Divisor(int64_t value) {
  if (value == 0)
    return kMaxDivisor;
  uint64_t magnitude = value < 0 ? uint64_t(-(value + 1)) + 1 : uint64_t(value);
  return std::min<int64_t>(kMaxDivisor, int64_t(magnitude & (~magnitude + 1)));
}

//===----------------------------------------------------------------------===//
// AxisInfoAnalysis
//===----------------------------------------------------------------------===//

AxisInfoAnalysis::AxisInfoAnalysis(Operation *root) {
  DataFlowSolver solver;
  // Dead-code analysis decides which blocks run (the sparse analysis only
  // visits live ones); it needs constant propagation for branch conditions.
  solver.load<dataflow::DeadCodeAnalysis>();
  solver.load<dataflow::SparseConstantPropagation>();
  solver.load<AxisInfoDataflow>();
  if (failed(solver.initializeAndRun(root)))
    return;
  auto record = [&](Value value) {
    if (!isTracked(value.getType()))
      return;
    const AxisInfoLattice *state = solver.lookupState<AxisInfoLattice>(value);
    if (state && state->getValue().isInitialized())
      infos[value] = state->getValue();
    else
      infos[value] = AxisInfo::getPessimistic(rankOf(value.getType()));
  };
  root->walk([&](Operation *op) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          record(arg);
    for (Value result : op->getResults())
      record(result);
  });
}

const AxisInfo *AxisInfoAnalysis::getAxisInfo(Value value) const {
  auto it = infos.find(value);
  return it == infos.end() ? nullptr : &it->second;
}

SmallVector<unsigned> AxisInfoAnalysis::getContiguityOrder(Value value) const {
  auto tensor = dyn_cast<RankedTensorType>(value.getType());
  const AxisInfo *info = getAxisInfo(value);
  if (!tensor || !info)
    return {};
  SmallVector<unsigned> order;
  for (unsigned d = tensor.getRank(); d-- > 0;)
    order.push_back(d);
  std::stable_sort(order.begin(), order.end(), [&](unsigned a, unsigned b) {
    return info->getContiguity(a) > info->getContiguity(b);
  });
  return order;
}

int64_t AxisInfoAnalysis::getPtrAlignment(Value ptr) const {
  const AxisInfo *info = getAxisInfo(ptr);
  SmallVector<unsigned> order = getContiguityOrder(ptr);
  if (!info || order.empty())
    return 1;
  unsigned dim = order.front();
  int64_t bytes = pointeeBytes(ptr.getType());
  int64_t alignedElements =
      std::max<int64_t>(1, info->getDivisibility(dim) / bytes);
  return std::min(info->getContiguity(dim), alignedElements);
}

int64_t AxisInfoAnalysis::getMaskAlignment(Value mask, unsigned dim) const {
  if (!mask)
    return kMaxDivisor;
  const AxisInfo *info = getAxisInfo(mask);
  if (!info || dim >= info->getRank())
    return 1;
  return info->getConstancy(dim);
}
