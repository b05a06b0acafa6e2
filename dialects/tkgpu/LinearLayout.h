//===- LinearLayout.h - layouts as linear maps over GF(2) -------*- C++ -*-===//
//
// A LinearLayout maps the bits of named input dimensions (for a distributed
// tensor: `register`, `lane`, `warp`; for a shared-memory buffer: `offset`)
// to the bits of named output dimensions (the tensor's `dim0`, `dim1`, ...)
// by a linear map over GF(2): every input bit has a basis vector (one
// coordinate per output dimension), and the image of an input is the XOR of
// the basis vectors of its set bits. All dimension sizes are powers of two.
//
//   blocked{sizePerThread=[4], threadsPerWarp=[32], warpsPerCTA=[4]} on
//   tensor<1024xf32>:
//     register bits -> dim0 1, 2      lane bits -> 4, 8, ..., 64
//     warp bits     -> 128, 256
//   so (reg r, lane l, warp w) holds element w*128 + l*4 + r.
//
// Every layout encoding converts to this form, so layout conversion, vector
// widths, broadcast (replicated) data and shared-memory swizzles are answered
// by one mechanism instead of one case per pair of encodings.
//
// The class is plain C++ (no MLIR, no LLVM libraries) so that it can be used
// and unit-tested anywhere. Methods that need a precondition (e.g. invert()
// on a non-bijective layout) abort with a message when it does not hold.
//
//===----------------------------------------------------------------------===//
#ifndef TK_DIALECTS_TKGPU_LINEARLAYOUT_H
#define TK_DIALECTS_TKGPU_LINEARLAYOUT_H

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace mlir::tkgpu {

/// Input dimension names of distributed layouts, in the order the encodings
/// produce them.
inline constexpr const char *kRegister = "register";
inline constexpr const char *kLane = "lane";
inline constexpr const char *kWarp = "warp";
/// Input dimension of a shared-memory layout: the element offset in the
/// buffer.
inline constexpr const char *kOffset = "offset";

/// "dim0", "dim1", ...: the output dimension naming tensor dimension `d`.
std::string outDimName(unsigned d);
/// outDimName(0), ..., outDimName(rank - 1).
std::vector<std::string> standardOutDimNames(unsigned rank);

class LinearLayout {
public:
  /// One coordinate per output dimension, in output-dimension order.
  using Basis = std::vector<int32_t>;

  struct InDim {
    std::string name;
    /// bases[i] is the image of input value 1 << i. The dimension has
    /// 2^bases.size() values.
    std::vector<Basis> bases;
  };
  struct OutDim {
    std::string name;
    int32_t size; // a power of two
  };

  /// The layout with no dimensions (the neutral element of operator*).
  LinearLayout() = default;
  /// Checks that every basis has one coordinate per output dimension, lying
  /// inside that dimension, and that names are unique.
  LinearLayout(std::vector<InDim> ins, std::vector<OutDim> outs);

  /// in[i] -> out[i] for i < size.
  static LinearLayout identity1D(int32_t size, const std::string &inDim,
                                 const std::string &outDim);
  /// Every input of `inDim` (size values) maps to 0 of `outDim`: broadcast.
  /// `outDimSize` lets the zero map name an output dimension of any size.
  static LinearLayout zeros1D(int32_t size, const std::string &inDim,
                              const std::string &outDim,
                              int32_t outDimSize = 1);

  //===--------------------------------------------------------------------===//
  // Shape queries
  //===--------------------------------------------------------------------===//

  const std::vector<InDim> &getInDims() const { return ins; }
  const std::vector<OutDim> &getOutDims() const { return outs; }
  unsigned getNumInDims() const { return ins.size(); }
  unsigned getNumOutDims() const { return outs.size(); }
  std::vector<std::string> getInDimNames() const;
  std::vector<std::string> getOutDimNames() const;
  bool hasInDim(const std::string &name) const;
  bool hasOutDim(const std::string &name) const;
  /// Position of a dimension; aborts if absent.
  unsigned getInDimIndex(const std::string &name) const;
  unsigned getOutDimIndex(const std::string &name) const;
  /// Number of values of an input dimension; 1 when the layout lacks it.
  int32_t getInDimSize(const std::string &name) const;
  int32_t getInDimSizeLog2(const std::string &name) const;
  /// Size of an output dimension; 1 when the layout lacks it.
  int32_t getOutDimSize(const std::string &name) const;
  int32_t getOutDimSizeLog2(const std::string &name) const;
  /// Products over all dimensions.
  int64_t getTotalInDimSize() const;
  int64_t getTotalOutDimSize() const;
  /// The image of input value 1 << bit of `inDim`.
  const Basis &getBasis(const std::string &inDim, int32_t bit) const;
  /// Its coordinate along `outDim`.
  int32_t getBasis(const std::string &inDim, int32_t bit,
                   const std::string &outDim) const;

  //===--------------------------------------------------------------------===//
  // Evaluation
  //===--------------------------------------------------------------------===//

  /// The output coordinates (in output-dimension order) of the given input
  /// values; input dimensions not named are 0. XOR of the bases of set bits.
  std::vector<int32_t>
  apply(const std::vector<std::pair<std::string, int32_t>> &inputs) const;
  /// The same as (name, value) pairs.
  std::vector<std::pair<std::string, int32_t>>
  applyNamed(const std::vector<std::pair<std::string, int32_t>> &inputs) const;
  /// Distributed layouts: the tensor index held by register `reg` of lane
  /// `lane` of warp `warp`.
  std::vector<int32_t> applyDistributed(int32_t reg, int32_t lane,
                                        int32_t warp) const;

  //===--------------------------------------------------------------------===//
  // Structural properties
  //===--------------------------------------------------------------------===//

  /// No two inputs map to the same output (no broadcast/replication).
  bool isInjective() const;
  /// Every output is reached.
  bool isSurjective() const;
  bool isInvertible() const { return isInjective() && isSurjective(); }

  /// For each input dimension, a bit mask of its "free" bits: bits whose
  /// basis is zero or a combination of bases of earlier bits (input
  /// dimensions in order, bits from low to high). Flipping a free bit reaches
  /// data that an input with the bit cleared already holds: these bits
  /// replicate (broadcast) data, e.g. the lanes of a 128-thread layout on a
  /// 64-element tensor. A layout is injective iff every mask is 0.
  std::map<std::string, int32_t> getFreeVariableMasks() const;

  /// Largest n (a power of two) such that registers 0..n-1 hold n
  /// consecutive elements along output dimension `outDim` (register bits
  /// 0..log2(n)-1 map to 1, 2, 4, ... on `outDim` and to 0 elsewhere). This
  /// is the widest vector a thread can load/store along that dimension.
  int32_t getNumContiguousRegisters(const std::string &outDim) const;
  /// getNumContiguousRegisters along the output dimension that register bit
  /// 0 moves along (1 if there is none).
  int32_t getNumConsecutiveInOut() const;

  //===--------------------------------------------------------------------===//
  // Building new layouts
  //===--------------------------------------------------------------------===//

  /// Product: input dimensions are the union (this's first); bases of a
  /// shared input dimension are this's followed by other's; output
  /// dimensions are the union, and along a shared output dimension other's
  /// coordinates are scaled by this's size (other tiles this). With
  /// disjoint dimensions this is the direct sum.
  friend LinearLayout operator*(const LinearLayout &a, const LinearLayout &b);
  LinearLayout &operator*=(const LinearLayout &other) {
    return *this = *this * other;
  }

  /// outer ∘ this: this's output dimensions are outer's input dimensions
  /// (same names; outer's input sizes may be larger).
  LinearLayout compose(const LinearLayout &outer) const;

  /// The inverse of a bijective layout: outputs become inputs.
  LinearLayout invert() const;

  /// A layout L from this's inputs to other's inputs with
  /// other(L(x)) == this(x) for every x: where in `other` each datum of
  /// `this` lives. `other` must reach every output `this` reaches and have
  /// the same output dimensions. Where `other` holds a datum more than once
  /// (free bits) the copy with the free bits 0 is chosen. This is the core
  /// of layout conversion: this = source layout, other = destination.
  LinearLayout invertAndCompose(const LinearLayout &other) const;

  /// Only the given input/output dimensions, in this's order; bases lose the
  /// coordinates of dropped output dimensions.
  LinearLayout sublayout(const std::vector<std::string> &inDimNames,
                         const std::vector<std::string> &outDimNames) const;

  /// Output dimensions permuted into the given name order.
  LinearLayout transposeOuts(const std::vector<std::string> &order) const;
  /// Input dimensions permuted into the given name order.
  LinearLayout transposeIns(const std::vector<std::string> &order) const;

  /// One output dimension `name` enumerating the outputs row-major (the last
  /// output dimension is the fastest).
  LinearLayout flattenOuts(const std::string &name = "dim0") const;
  /// Output dimensions replaced by `newOuts`, which enumerate the same
  /// elements row-major (a tensor reshape). Total sizes must match.
  LinearLayout reshapeOuts(const std::vector<OutDim> &newOuts) const;

  /// Drop output dimension `name`: bases lose that coordinate.
  LinearLayout removeOutDim(const std::string &name) const;
  /// Drop the bits of input dimension `inDim` whose basis is all zero (e.g.
  /// registers that would only repeat data).
  LinearLayout removeZeroBases(const std::string &inDim) const;
  /// Resize an output dimension; coordinates must stay inside it.
  LinearLayout resizeOutDim(const std::string &name, int32_t size) const;

  bool operator==(const LinearLayout &other) const;
  bool operator!=(const LinearLayout &other) const { return !(*this == other); }

  /// e.g. " - register is a size 4 dimension: 0 -> (1), 1 -> (2)\n ..."
  std::string toString() const;

private:
  std::vector<InDim> ins;
  std::vector<OutDim> outs;
};

LinearLayout operator*(const LinearLayout &a, const LinearLayout &b);

/// Integer log2 of a power of two; aborts otherwise.
int32_t exactLog2(int64_t value);

/// Adapts the layout of one CTA tile (output dimensions dim0..dimN-1) to a
/// tensor of `shape`. Along a dimension where the tensor is larger, the tile
/// repeats in more registers (dimensions taken in `repeatOrder`, fastest
/// first, so repeats of order[0] come first). Where it is smaller, output
/// bits beyond the shape are cleared: register bases that become 0 are
/// dropped (a thread keeps no duplicate registers) while lane/warp bases
/// that become 0 broadcast (several threads hold the same element).
LinearLayout fitToShape(const LinearLayout &tile,
                        const std::vector<int64_t> &shape,
                        const std::vector<unsigned> &repeatOrder);

} // namespace mlir::tkgpu

#endif // TK_DIALECTS_TKGPU_LINEARLAYOUT_H
