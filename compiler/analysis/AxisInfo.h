//===- AxisInfo.h - contiguity/divisibility/constancy analysis --*- C++ -*-===//
//
// For every integer or pointer value (scalar or tensor) and every dimension:
//
// - contiguity[d]: the dimension splits into runs of this many elements
//   whose values increase by 1 along d (pointers: by 1 element).
// - divisibility[d]: the first value of each such run is divisible by this
//   power of two (pointers: the ADDRESS, in bytes).
// - constancy[d]: the dimension splits into runs of this many equal values.
//
// Scalars have one "dimension". Values are powers of two. Seeds: function
// argument attribute `tk.divisibility` (pointer args: byte alignment; integer
// args: divisor), `tk.hint`, make_range, constants. Coalescing and the
// lowering use it to choose vector widths (a 128-bit load needs 4 contiguous
// f32 whose address is 16-byte aligned, and a mask constant over 4).
//
// The analysis runs on MLIR's sparse dataflow framework, so scf.for/if/while
// region arguments get the join of every value that can flow into them.
//
//===----------------------------------------------------------------------===//
#ifndef TK_COMPILER_ANALYSIS_AXISINFO_H
#define TK_COMPILER_ANALYSIS_AXISINFO_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace mlir::tk {

class AxisInfo {
public:
  using DimVector = llvm::SmallVector<int64_t, 4>;

  /// The uninitialized state (nothing known yet; the dataflow bottom).
  AxisInfo() = default;
  AxisInfo(DimVector contiguity, DimVector divisibility, DimVector constancy,
           std::optional<int64_t> constantValue = std::nullopt);

  /// Nothing known: contiguity 1, divisibility 1, constancy 1.
  static AxisInfo getPessimistic(unsigned rank);
  /// The facts known about a value of `type` before looking at its
  /// producer: pessimistic, except `tk.divisibility` for function arguments
  /// (see getFromArgument).
  static AxisInfo getFromArgument(Value arg);

  /// Facts true for both (the dataflow join): per dimension gcd-like
  /// minimum; the constant survives only when equal.
  static AxisInfo join(const AxisInfo &lhs, const AxisInfo &rhs);

  bool isInitialized() const { return !contiguity.empty(); }
  unsigned getRank() const { return contiguity.size(); }
  int64_t getContiguity(unsigned d) const { return contiguity[d]; }
  int64_t getDivisibility(unsigned d) const { return divisibility[d]; }
  int64_t getConstancy(unsigned d) const { return constancy[d]; }
  const DimVector &getContiguity() const { return contiguity; }
  const DimVector &getDivisibility() const { return divisibility; }
  const DimVector &getConstancy() const { return constancy; }
  /// The value when the whole value (every element) is one known integer.
  std::optional<int64_t> getConstantValue() const { return constantValue; }

  bool operator==(const AxisInfo &other) const;
  bool operator!=(const AxisInfo &other) const { return !(*this == other); }
  void print(llvm::raw_ostream &os) const;

  /// The largest power of two dividing `value` (capped at 2^30; 0 -> cap).
  static int64_t highestPowOf2Divisor(int64_t value);

private:
  DimVector contiguity, divisibility, constancy;
  std::optional<int64_t> constantValue;
};

inline llvm::raw_ostream &operator<<(llvm::raw_ostream &os,
                                     const AxisInfo &info) {
  info.print(os);
  return os;
}

/// Axis info of every value under `root` (a func.func or a module), computed
/// once at construction.
class AxisInfoAnalysis {
public:
  explicit AxisInfoAnalysis(Operation *root);

  /// The facts of `value`, or null if it is neither an integer nor a pointer
  /// (scalar or tensor), or not under the analysed root.
  const AxisInfo *getAxisInfo(Value value) const;

  /// Dimensions of a pointer (or integer) tensor ordered by decreasing
  /// contiguity; ties keep the reversed (row-major) dimension order, so the
  /// first entry is the dimension to vectorize along. Empty for scalars.
  llvm::SmallVector<unsigned> getContiguityOrder(Value value) const;

  /// Contiguous elements a thread may access as one vector along
  /// `getContiguityOrder(ptr)[0]` as far as the addresses go:
  /// min(contiguity, alignment in elements). 1 if unknown.
  int64_t getPtrAlignment(Value ptr) const;
  /// How many consecutive elements along dimension `dim` the mask is
  /// constant over (a vector access needs one mask bit per vector); the
  /// maximum (2^30) for no mask.
  int64_t getMaskAlignment(Value mask, unsigned dim) const;

private:
  llvm::DenseMap<Value, AxisInfo> infos;
};

} // namespace mlir::tk

#endif // TK_COMPILER_ANALYSIS_AXISINFO_H
