//===- LinearLayout.cpp - layouts as linear maps over GF(2) ---------------===//
//
// Linear algebra over GF(2) on bit vectors: an output coordinate tuple is
// packed into one 64-bit word (output dimension k occupying log2(size_k)
// bits, the first dimension lowest), so XOR of words is the XOR of tuples
// and Gaussian elimination works word by word.
//
//===----------------------------------------------------------------------===//
#include "dialects/tkgpu/LinearLayout.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <set>
#include <sstream>

using namespace mlir::tkgpu;

#define LL_CHECK(cond, msg)                                                    \
  do {                                                                         \
    if (!(cond)) {                                                             \
      std::fprintf(stderr, "LinearLayout: %s\n", msg);                         \
      std::abort();                                                            \
    }                                                                          \
  } while (false)

std::string mlir::tkgpu::outDimName(unsigned d) {
  return "dim" + std::to_string(d);
}

std::vector<std::string> mlir::tkgpu::standardOutDimNames(unsigned rank) {
  std::vector<std::string> names;
  for (unsigned d = 0; d < rank; ++d)
    names.push_back(outDimName(d));
  return names;
}

int32_t mlir::tkgpu::exactLog2(int64_t value) {
  LL_CHECK(value > 0 && (value & (value - 1)) == 0,
           "size is not a power of two");
  int32_t log = 0;
  while ((int64_t(1) << log) < value)
    ++log;
  return log;
}

namespace {

/// Row-echelon basis of a GF(2) vector space; each row remembers which
/// input bits (a `tag`) combine to it, to solve for preimages.
class GF2Basis {
public:
  /// Adds `value` (with its tag). Returns false when it is already in the
  /// span (the input bit is free).
  bool add(uint64_t value, uint64_t tag) {
    reduce(value, tag);
    if (value == 0)
      return false;
    int pivot = 63 - __builtin_clzll(value);
    Row row{value, tag, pivot};
    rows.insert(std::upper_bound(rows.begin(), rows.end(), row,
                                 [](const Row &a, const Row &b) {
                                   return a.pivot > b.pivot;
                                 }),
                row);
    return true;
  }
  /// The tag of a combination of rows equal to `value`, if it is in the
  /// span.
  std::optional<uint64_t> solve(uint64_t value) const {
    uint64_t tag = 0;
    reduce(value, tag);
    if (value != 0)
      return std::nullopt;
    return tag;
  }
  size_t rank() const { return rows.size(); }

private:
  struct Row {
    uint64_t value, tag;
    int pivot; // the highest set bit of value
  };
  // Sorted by decreasing pivot: eliminating in this order never sets a
  // pivot bit already cleared.
  std::vector<Row> rows;

  void reduce(uint64_t &value, uint64_t &tag) const {
    for (const Row &row : rows)
      if (value & (uint64_t(1) << row.pivot)) {
        value ^= row.value;
        tag ^= row.tag;
      }
  }
};

/// Packs tuples over a list of dimensions into words and back.
class BitPacker {
public:
  explicit BitPacker(const std::vector<int32_t> &sizes) {
    int32_t offset = 0;
    for (int32_t size : sizes) {
      offsets.push_back(offset);
      widths.push_back(exactLog2(size));
      offset += widths.back();
    }
    LL_CHECK(offset <= 64, "layout has more than 64 bits");
    totalBits = offset;
  }
  uint64_t pack(const std::vector<int32_t> &coords) const {
    uint64_t word = 0;
    for (size_t k = 0; k < coords.size(); ++k)
      word |= uint64_t(uint32_t(coords[k])) << offsets[k];
    return word;
  }
  std::vector<int32_t> unpack(uint64_t word) const {
    std::vector<int32_t> coords;
    for (size_t k = 0; k < offsets.size(); ++k)
      coords.push_back(
          int32_t((word >> offsets[k]) & ((uint64_t(1) << widths[k]) - 1)));
    return coords;
  }
  int32_t getTotalBits() const { return totalBits; }

private:
  std::vector<int32_t> offsets, widths;
  int32_t totalBits = 0;
};

std::vector<int32_t> outSizes(const std::vector<LinearLayout::OutDim> &outs) {
  std::vector<int32_t> sizes;
  for (const auto &out : outs)
    sizes.push_back(out.size);
  return sizes;
}

std::vector<int32_t> inSizes(const std::vector<LinearLayout::InDim> &ins) {
  std::vector<int32_t> sizes;
  for (const auto &in : ins)
    sizes.push_back(int32_t(1) << in.bases.size());
  return sizes;
}

} // namespace

//===----------------------------------------------------------------------===//
// Construction and queries
//===----------------------------------------------------------------------===//

LinearLayout::LinearLayout(std::vector<InDim> insArg,
                           std::vector<OutDim> outsArg)
    : ins(std::move(insArg)), outs(std::move(outsArg)) {
  std::set<std::string> names;
  for (const auto &in : ins)
    LL_CHECK(names.insert(in.name).second, "duplicate input dimension");
  names.clear();
  for (const auto &out : outs) {
    LL_CHECK(names.insert(out.name).second, "duplicate output dimension");
    exactLog2(out.size);
  }
  for (const auto &in : ins)
    for (const auto &basis : in.bases) {
      LL_CHECK(basis.size() == outs.size(),
               "basis does not have one coordinate per output dimension");
      for (size_t k = 0; k < outs.size(); ++k)
        LL_CHECK(basis[k] >= 0 && basis[k] < outs[k].size,
                 "basis coordinate outside its output dimension");
    }
}

LinearLayout LinearLayout::identity1D(int32_t size, const std::string &inDim,
                                      const std::string &outDim) {
  InDim in{inDim, {}};
  for (int32_t bit = 0; bit < exactLog2(size); ++bit)
    in.bases.push_back({int32_t(1) << bit});
  return LinearLayout({in}, {{outDim, size}});
}

LinearLayout LinearLayout::zeros1D(int32_t size, const std::string &inDim,
                                   const std::string &outDim,
                                   int32_t outDimSize) {
  InDim in{inDim, std::vector<Basis>(exactLog2(size), Basis{0})};
  return LinearLayout({in}, {{outDim, outDimSize}});
}

std::vector<std::string> LinearLayout::getInDimNames() const {
  std::vector<std::string> names;
  for (const auto &in : ins)
    names.push_back(in.name);
  return names;
}

std::vector<std::string> LinearLayout::getOutDimNames() const {
  std::vector<std::string> names;
  for (const auto &out : outs)
    names.push_back(out.name);
  return names;
}

bool LinearLayout::hasInDim(const std::string &name) const {
  return std::any_of(ins.begin(), ins.end(),
                     [&](const InDim &in) { return in.name == name; });
}

bool LinearLayout::hasOutDim(const std::string &name) const {
  return std::any_of(outs.begin(), outs.end(),
                     [&](const OutDim &out) { return out.name == name; });
}

unsigned LinearLayout::getInDimIndex(const std::string &name) const {
  for (unsigned i = 0; i < ins.size(); ++i)
    if (ins[i].name == name)
      return i;
  LL_CHECK(false, "no such input dimension");
  return 0;
}

unsigned LinearLayout::getOutDimIndex(const std::string &name) const {
  for (unsigned i = 0; i < outs.size(); ++i)
    if (outs[i].name == name)
      return i;
  LL_CHECK(false, "no such output dimension");
  return 0;
}

int32_t LinearLayout::getInDimSizeLog2(const std::string &name) const {
  if (!hasInDim(name))
    return 0;
  return ins[getInDimIndex(name)].bases.size();
}

int32_t LinearLayout::getInDimSize(const std::string &name) const {
  return int32_t(1) << getInDimSizeLog2(name);
}

int32_t LinearLayout::getOutDimSize(const std::string &name) const {
  if (!hasOutDim(name))
    return 1;
  return outs[getOutDimIndex(name)].size;
}

int32_t LinearLayout::getOutDimSizeLog2(const std::string &name) const {
  return exactLog2(getOutDimSize(name));
}

int64_t LinearLayout::getTotalInDimSize() const {
  int64_t total = 1;
  for (const auto &in : ins)
    total <<= in.bases.size();
  return total;
}

int64_t LinearLayout::getTotalOutDimSize() const {
  int64_t total = 1;
  for (const auto &out : outs)
    total *= out.size;
  return total;
}

const LinearLayout::Basis &LinearLayout::getBasis(const std::string &inDim,
                                                  int32_t bit) const {
  const InDim &in = ins[getInDimIndex(inDim)];
  LL_CHECK(bit >= 0 && bit < int32_t(in.bases.size()), "no such input bit");
  return in.bases[bit];
}

int32_t LinearLayout::getBasis(const std::string &inDim, int32_t bit,
                               const std::string &outDim) const {
  return getBasis(inDim, bit)[getOutDimIndex(outDim)];
}

//===----------------------------------------------------------------------===//
// Evaluation
//===----------------------------------------------------------------------===//

std::vector<int32_t> LinearLayout::apply(
    const std::vector<std::pair<std::string, int32_t>> &inputs) const {
  std::vector<int32_t> result(outs.size(), 0);
  for (const auto &[name, value] : inputs) {
    if (!hasInDim(name)) {
      LL_CHECK(value == 0, "nonzero value for an absent input dimension");
      continue;
    }
    const InDim &in = ins[getInDimIndex(name)];
    LL_CHECK(value >= 0 && (int64_t(value) >> in.bases.size()) == 0,
             "input value outside its dimension");
    for (size_t bit = 0; bit < in.bases.size(); ++bit)
      if (value & (int32_t(1) << bit))
        for (size_t k = 0; k < outs.size(); ++k)
          result[k] ^= in.bases[bit][k];
  }
  return result;
}

std::vector<std::pair<std::string, int32_t>> LinearLayout::applyNamed(
    const std::vector<std::pair<std::string, int32_t>> &inputs) const {
  std::vector<int32_t> coords = apply(inputs);
  std::vector<std::pair<std::string, int32_t>> named;
  for (size_t k = 0; k < outs.size(); ++k)
    named.emplace_back(outs[k].name, coords[k]);
  return named;
}

std::vector<int32_t> LinearLayout::applyDistributed(int32_t reg, int32_t lane,
                                                    int32_t warp) const {
  return apply({{kRegister, reg}, {kLane, lane}, {kWarp, warp}});
}

//===----------------------------------------------------------------------===//
// Structural properties
//===----------------------------------------------------------------------===//

std::map<std::string, int32_t> LinearLayout::getFreeVariableMasks() const {
  BitPacker packer(outSizes(outs));
  GF2Basis span;
  std::map<std::string, int32_t> masks;
  for (const auto &in : ins) {
    int32_t mask = 0;
    for (size_t bit = 0; bit < in.bases.size(); ++bit)
      if (!span.add(packer.pack(in.bases[bit]), 0))
        mask |= int32_t(1) << bit;
    masks[in.name] = mask;
  }
  return masks;
}

bool LinearLayout::isInjective() const {
  for (const auto &[name, mask] : getFreeVariableMasks())
    if (mask != 0)
      return false;
  return true;
}

bool LinearLayout::isSurjective() const {
  BitPacker packer(outSizes(outs));
  GF2Basis span;
  for (const auto &in : ins)
    for (const auto &basis : in.bases)
      span.add(packer.pack(basis), 0);
  return int32_t(span.rank()) == packer.getTotalBits();
}

int32_t LinearLayout::getNumContiguousRegisters(const std::string &outDim) const {
  if (!hasInDim(kRegister) || !hasOutDim(outDim))
    return 1;
  const InDim &regs = ins[getInDimIndex(kRegister)];
  unsigned target = getOutDimIndex(outDim);
  size_t bit = 0;
  for (; bit < regs.bases.size(); ++bit) {
    const Basis &basis = regs.bases[bit];
    bool matches = true;
    for (size_t k = 0; k < outs.size(); ++k)
      matches &= basis[k] == (k == target ? int32_t(1) << bit : 0);
    if (!matches)
      break;
  }
  return int32_t(1) << bit;
}

int32_t LinearLayout::getNumConsecutiveInOut() const {
  if (getInDimSizeLog2(kRegister) == 0)
    return 1;
  const Basis &first = getBasis(kRegister, 0);
  for (size_t k = 0; k < outs.size(); ++k)
    if (first[k] == 1)
      return getNumContiguousRegisters(outs[k].name);
  return 1;
}

//===----------------------------------------------------------------------===//
// Building new layouts
//===----------------------------------------------------------------------===//

LinearLayout mlir::tkgpu::operator*(const LinearLayout &a,
                                    const LinearLayout &b) {
  using InDim = LinearLayout::InDim;
  using OutDim = LinearLayout::OutDim;
  // Output dimensions: a's, then b's new ones; b's coordinates along a
  // shared dimension move above a's bits.
  std::vector<OutDim> outs = a.getOutDims();
  for (const OutDim &out : b.getOutDims()) {
    bool shared = false;
    for (OutDim &mine : outs)
      if (mine.name == out.name) {
        mine.size *= out.size;
        shared = true;
      }
    if (!shared)
      outs.push_back(out);
  }
  auto widen = [&](const LinearLayout &from, const LinearLayout::Basis &basis,
                   bool shiftShared) {
    LinearLayout::Basis result(outs.size(), 0);
    for (size_t k = 0; k < from.getOutDims().size(); ++k) {
      const std::string &name = from.getOutDims()[k].name;
      for (size_t j = 0; j < outs.size(); ++j)
        if (outs[j].name == name)
          result[j] = shiftShared ? basis[k] * a.getOutDimSize(name) : basis[k];
    }
    return result;
  };
  std::vector<InDim> ins;
  for (const InDim &in : a.getInDims()) {
    InDim merged{in.name, {}};
    for (const auto &basis : in.bases)
      merged.bases.push_back(widen(a, basis, false));
    ins.push_back(merged);
  }
  for (const InDim &in : b.getInDims()) {
    InDim *target = nullptr;
    for (InDim &mine : ins)
      if (mine.name == in.name)
        target = &mine;
    if (!target) {
      ins.push_back({in.name, {}});
      target = &ins.back();
    }
    for (const auto &basis : in.bases)
      target->bases.push_back(widen(b, basis, true));
  }
  return LinearLayout(std::move(ins), std::move(outs));
}

LinearLayout LinearLayout::compose(const LinearLayout &outer) const {
  for (const OutDim &out : outs)
    LL_CHECK(outer.hasInDim(out.name) &&
                 outer.getInDimSize(out.name) >= out.size,
             "compose: outer does not take this layout's outputs");
  std::vector<InDim> newIns;
  for (const InDim &in : ins) {
    InDim composed{in.name, {}};
    for (const Basis &basis : in.bases) {
      std::vector<std::pair<std::string, int32_t>> inputs;
      for (size_t k = 0; k < outs.size(); ++k)
        inputs.emplace_back(outs[k].name, basis[k]);
      composed.bases.push_back(outer.apply(inputs));
    }
    newIns.push_back(composed);
  }
  return LinearLayout(std::move(newIns), outer.getOutDims());
}

LinearLayout LinearLayout::invert() const {
  LL_CHECK(isInvertible(), "invert: layout is not bijective");
  // The inverse maps this's outputs to its inputs: solve each output bit
  // against this layout, i.e. invertAndCompose the identity on the outputs.
  std::vector<InDim> identityIns;
  for (const OutDim &out : outs) {
    InDim in{out.name, {}};
    for (int32_t bit = 0; bit < exactLog2(out.size); ++bit) {
      Basis basis(outs.size(), 0);
      basis[identityIns.size()] = int32_t(1) << bit;
      in.bases.push_back(basis);
    }
    identityIns.push_back(in);
  }
  LinearLayout identity(std::move(identityIns), outs);
  return identity.invertAndCompose(*this);
}

LinearLayout LinearLayout::invertAndCompose(const LinearLayout &other) const {
  // Express this's bases in other's output-dimension order.
  LL_CHECK(other.getNumOutDims() == outs.size(),
           "invertAndCompose: different output dimensions");
  std::vector<int32_t> sizes;
  std::vector<unsigned> position; // this's out dim k is other's out dim
  for (const OutDim &out : other.getOutDims()) {
    LL_CHECK(hasOutDim(out.name),
             "invertAndCompose: different output dimensions");
    sizes.push_back(std::max(out.size, getOutDimSize(out.name)));
  }
  for (const OutDim &out : outs)
    position.push_back(other.getOutDimIndex(out.name));
  BitPacker outPacker(sizes);
  BitPacker inPacker(inSizes(other.getInDims()));

  GF2Basis span;
  int32_t inBit = 0;
  for (const InDim &in : other.getInDims())
    for (const Basis &basis : in.bases)
      span.add(outPacker.pack(basis), uint64_t(1) << inBit++);

  std::vector<InDim> newIns;
  for (const InDim &in : ins) {
    InDim mapped{in.name, {}};
    for (const Basis &basis : in.bases) {
      std::vector<int32_t> reordered(outs.size(), 0);
      for (size_t k = 0; k < outs.size(); ++k)
        reordered[position[k]] = basis[k];
      std::optional<uint64_t> tag = span.solve(outPacker.pack(reordered));
      LL_CHECK(tag.has_value(),
               "invertAndCompose: the other layout does not hold every "
               "element this one does");
      mapped.bases.push_back(inPacker.unpack(*tag));
    }
    newIns.push_back(mapped);
  }
  std::vector<OutDim> newOuts;
  for (const InDim &in : other.getInDims())
    newOuts.push_back({in.name, int32_t(1) << in.bases.size()});
  return LinearLayout(std::move(newIns), std::move(newOuts));
}

LinearLayout
LinearLayout::sublayout(const std::vector<std::string> &inDimNames,
                        const std::vector<std::string> &outDimNames) const {
  auto contains = [](const std::vector<std::string> &names,
                     const std::string &name) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  std::vector<unsigned> keptOuts;
  std::vector<OutDim> newOuts;
  for (unsigned k = 0; k < outs.size(); ++k)
    if (contains(outDimNames, outs[k].name)) {
      keptOuts.push_back(k);
      newOuts.push_back(outs[k]);
    }
  std::vector<InDim> newIns;
  for (const InDim &in : ins) {
    if (!contains(inDimNames, in.name))
      continue;
    InDim kept{in.name, {}};
    for (const Basis &basis : in.bases) {
      Basis projected;
      for (unsigned k : keptOuts)
        projected.push_back(basis[k]);
      kept.bases.push_back(projected);
    }
    newIns.push_back(kept);
  }
  return LinearLayout(std::move(newIns), std::move(newOuts));
}

LinearLayout
LinearLayout::transposeOuts(const std::vector<std::string> &order) const {
  LL_CHECK(order.size() == outs.size(), "transposeOuts: not a permutation");
  std::vector<unsigned> from;
  std::vector<OutDim> newOuts;
  for (const std::string &name : order) {
    from.push_back(getOutDimIndex(name));
    newOuts.push_back(outs[from.back()]);
  }
  std::vector<InDim> newIns;
  for (const InDim &in : ins) {
    InDim permuted{in.name, {}};
    for (const Basis &basis : in.bases) {
      Basis b;
      for (unsigned k : from)
        b.push_back(basis[k]);
      permuted.bases.push_back(b);
    }
    newIns.push_back(permuted);
  }
  return LinearLayout(std::move(newIns), std::move(newOuts));
}

LinearLayout
LinearLayout::transposeIns(const std::vector<std::string> &order) const {
  LL_CHECK(order.size() == ins.size(), "transposeIns: not a permutation");
  std::vector<InDim> newIns;
  for (const std::string &name : order)
    newIns.push_back(ins[getInDimIndex(name)]);
  return LinearLayout(std::move(newIns), outs);
}

LinearLayout LinearLayout::flattenOuts(const std::string &name) const {
  // Row-major: the last output dimension takes the lowest bits.
  std::vector<int64_t> strides(outs.size(), 1);
  for (int k = int(outs.size()) - 2; k >= 0; --k)
    strides[k] = strides[k + 1] * outs[k + 1].size;
  int64_t total = getTotalOutDimSize();
  LL_CHECK(total <= (int64_t(1) << 30), "flattenOuts: too many elements");
  std::vector<InDim> newIns;
  for (const InDim &in : ins) {
    InDim flat{in.name, {}};
    for (const Basis &basis : in.bases) {
      int64_t index = 0;
      for (size_t k = 0; k < outs.size(); ++k)
        index += basis[k] * strides[k];
      flat.bases.push_back({int32_t(index)});
    }
    newIns.push_back(flat);
  }
  return LinearLayout(std::move(newIns), {{name, int32_t(total)}});
}

LinearLayout LinearLayout::reshapeOuts(const std::vector<OutDim> &newOuts) const {
  int64_t total = 1;
  for (const OutDim &out : newOuts)
    total *= out.size;
  LL_CHECK(total == getTotalOutDimSize(), "reshapeOuts: sizes differ");
  LinearLayout flat = flattenOuts();
  std::vector<int64_t> strides(newOuts.size(), 1);
  for (int k = int(newOuts.size()) - 2; k >= 0; --k)
    strides[k] = strides[k + 1] * newOuts[k + 1].size;
  std::vector<InDim> newIns;
  for (const InDim &in : flat.getInDims()) {
    InDim split{in.name, {}};
    for (const Basis &basis : in.bases) {
      Basis b;
      for (size_t k = 0; k < newOuts.size(); ++k)
        b.push_back(int32_t((basis[0] / strides[k]) % newOuts[k].size));
      split.bases.push_back(b);
    }
    newIns.push_back(split);
  }
  return LinearLayout(std::move(newIns), newOuts);
}

LinearLayout LinearLayout::removeOutDim(const std::string &name) const {
  std::vector<std::string> kept;
  for (const OutDim &out : outs)
    if (out.name != name)
      kept.push_back(out.name);
  return sublayout(getInDimNames(), kept);
}

LinearLayout LinearLayout::removeZeroBases(const std::string &inDim) const {
  std::vector<InDim> newIns = ins;
  for (InDim &in : newIns) {
    if (in.name != inDim)
      continue;
    std::vector<Basis> kept;
    for (const Basis &basis : in.bases)
      if (std::any_of(basis.begin(), basis.end(),
                      [](int32_t c) { return c != 0; }))
        kept.push_back(basis);
    in.bases = kept;
  }
  return LinearLayout(std::move(newIns), outs);
}

LinearLayout LinearLayout::resizeOutDim(const std::string &name,
                                        int32_t size) const {
  std::vector<OutDim> newOuts = outs;
  newOuts[getOutDimIndex(name)].size = size;
  return LinearLayout(ins, std::move(newOuts));
}

bool LinearLayout::operator==(const LinearLayout &other) const {
  if (ins.size() != other.ins.size() || outs.size() != other.outs.size())
    return false;
  for (size_t i = 0; i < ins.size(); ++i)
    if (ins[i].name != other.ins[i].name ||
        ins[i].bases != other.ins[i].bases)
      return false;
  for (size_t k = 0; k < outs.size(); ++k)
    if (outs[k].name != other.outs[k].name ||
        outs[k].size != other.outs[k].size)
      return false;
  return true;
}

std::string LinearLayout::toString() const {
  std::ostringstream os;
  for (const InDim &in : ins) {
    os << " - " << in.name << " is a size " << (int64_t(1) << in.bases.size())
       << " dimension:";
    for (size_t bit = 0; bit < in.bases.size(); ++bit) {
      os << (bit ? ", " : " ") << (int64_t(1) << bit) << " -> (";
      for (size_t k = 0; k < in.bases[bit].size(); ++k)
        os << (k ? ", " : "") << in.bases[bit][k];
      os << ")";
    }
    os << "\n";
  }
  os << "where out dims are: [";
  for (size_t k = 0; k < outs.size(); ++k)
    os << (k ? ", " : "") << outs[k].name << " (size " << outs[k].size << ")";
  os << "]\n";
  return os.str();
}

LinearLayout mlir::tkgpu::fitToShape(const LinearLayout &tile,
                                     const std::vector<int64_t> &shape,
                                     const std::vector<unsigned> &repeatOrder) {
  LL_CHECK(tile.getNumOutDims() == shape.size(),
           "fitToShape: rank differs from the layout's");
  // Clear output bits beyond the shape; drop registers that became 0.
  std::vector<LinearLayout::InDim> ins = tile.getInDims();
  std::vector<LinearLayout::OutDim> outs = tile.getOutDims();
  for (size_t k = 0; k < outs.size(); ++k)
    if (outs[k].size > shape[k])
      outs[k].size = int32_t(shape[k]);
  for (auto &in : ins) {
    std::vector<LinearLayout::Basis> kept;
    for (auto basis : in.bases) {
      bool zero = true;
      for (size_t k = 0; k < outs.size(); ++k) {
        basis[k] &= outs[k].size - 1;
        zero &= basis[k] == 0;
      }
      if (zero && in.name == kRegister)
        continue;
      kept.push_back(basis);
    }
    in.bases = kept;
  }
  LinearLayout fitted(std::move(ins), outs);
  // Repeat the tile in registers where the tensor is larger.
  for (unsigned d : repeatOrder) {
    std::string name = outDimName(d);
    int64_t tileSize = fitted.getOutDimSize(name);
    if (shape[d] > tileSize)
      fitted *= LinearLayout::identity1D(int32_t(shape[d] / tileSize),
                                         kRegister, name);
  }
  return fitted;
}
