//===- IRGenBlockBuiltins.cpp - sort, flip, join, split, cat, ... ---------===//
//
// Builtins that rearrange the elements of blocks, expressed through the
// existing shape ops (reshape, trans, expand_dims, broadcast), `where` and
// xor reductions, so that they run on every path (interpreter, GPU) and
// the layout passes see ordinary ops:
//
//  * Swapping the two halves of a size-2 axis: `y ^ xor_sum(y, axis,
//    keep_dims=True)` on the values' bits (a ^ (a ^ b) = b), exact for
//    every dtype (floats are bitcast to integers of their width).
//  * Bit b of the index along dim (of size 2^k) becomes an axis of its
//    own in the view [2^k / 2^(b+1), 2, 2^b] of dim (a reshape), so each
//    step below adds two axes at most, whatever the size.
//  * flip(x, dim): swap the halves of every bit's axis, one bit at a time:
//    that inverts each index bit, i.e. reverses dim.
//  * sort(x, dim, descending): a bitonic network. Stage s (1..k) builds
//    sorted runs of 2^s; step t (s-1..0) compares index i with its partner
//    i ^ 2^t (the swapped half of bit t's axis) and keeps the smaller value
//    where bit t of i, xor-ed with the run's direction (bit s of i; the
//    `descending` flag in the last stage), is 0. The comparisons are the dtype's own `>` (signed, unsigned or
//    float; NaNs compare false and stay in place).
//  * join(a, b): a new last axis of size 2, `where(index == 1, b, a)`
//    after expanding both; split(a) takes the two halves of the last axis
//    with a masked xor reduction (exact bits); interleave(a, b) is join
//    then a reshape that merges the last two axes; cat(a, b) is join, the
//    new axis moved to the front, and a reshape merging it into axis 0
//    (the order is always kept, so can_reorder is only a permission).
//  * histogram(x, num_bins, mask): one-hot `x[:, None] == arange(num_bins)`
//    summed over axis 0 in i32; values outside [0, num_bins) and masked-off
//    ones count nowhere.
//  * ravel, broadcast, xor_sum: reshape, the operators' broadcasting,
//    tk.reduce xor.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/IRGenImpl.h"

#include "dialects/tk/TkDialect.h"

namespace tk::irgen {

using ast::BinaryOpKind;
using sema::DType;
using sema::Shape;
using sema::ValueType;

namespace {

/// The integer dtype with `type`'s width, for exact bit manipulation.
DType getBitsType(DType type) {
  return sema::getIntType(type.isBool() ? 8 : type.getBitWidth(),
                          /*isUnsigned=*/false);
}

int64_t log2Exact(int64_t n) {
  int64_t k = 0;
  while ((int64_t(1) << k) < n)
    ++k;
  return k;
}

} // namespace

Value IRGen::xorSumAlong(const Value &input, int64_t axis, bool keepDims,
                         SourceLoc loc) {
  Shape shape = input.getShape();
  Shape kept = shape;
  kept[axis] = 1;
  shape.erase(shape.begin() + axis);
  ValueType type(input.getDType(), shape);
  Value result = Value::ir(
      mlir::tk::ReduceOp::create(builder, getMLIRType(type),
                                 mlir::tk::ReduceKind::Xor, input.getIR(),
                                 uint32_t(axis))
          .getResult(0),
      type);
  return keepDims ? reshape(result, kept, loc) : result;
}

namespace {

/// The helpers below work on one block being rearranged.
class Rearranger {
public:
  Rearranger(IRGen &gen, SourceLoc loc) : gen(gen), loc(loc) {}

  /// i32 block of rank `rank`, size 2 along `axis` and 1 elsewhere,
  /// holding 0, 1 (the position along that axis).
  Value indicator(int64_t rank, int64_t axis) {
    ValueType rangeType(ScalarType::I32, {2});
    Value range = Value::ir(mlir::tk::MakeRangeOp::create(
                                gen.builder, gen.getMLIRType(rangeType), 0u, 2u),
                            rangeType);
    Shape shape(rank, 1);
    shape[axis] = 2;
    return gen.reshape(range, shape, loc);
  }

  /// i1: whether the position along `axis` is 1.
  Value isSecond(int64_t rank, int64_t axis) {
    return gen.compare(BinaryOpKind::Ne, indicator(rank, axis),
                       Value::integer(0), loc);
  }

  /// The block with the two halves of size-2 axis `axis` exchanged; `bits`
  /// is an integer block.
  Value swapHalves(const Value &bits, int64_t axis) {
    return gen.binaryOp(BinaryOpKind::BitXor, bits,
                        gen.xorSumAlong(bits, axis, /*keepDims=*/true, loc),
                        loc);
  }

  /// Element `position` (0 or 1) of size-2 axis `axis` of an integer block,
  /// with the axis dropped.
  Value takeHalf(const Value &bits, int64_t axis, int position) {
    int64_t rank = bits.getType().getRank();
    Value selector = isSecond(rank, axis);
    if (position == 0)
      selector = gen.unaryOp(ast::UnaryOpKind::Not, selector, loc);
    Value masked = gen.select(selector, bits, Value::integer(0), loc);
    return gen.xorSumAlong(masked, axis, /*keepDims=*/false, loc);
  }

  IRGen &gen;
  SourceLoc loc;
};

} // namespace

/// The axis argument `dim` of sort/flip (default: the last one).
static int64_t getDim(IRGen &gen, const BoundArgs &args, const Value &x,
                      const char *name) {
  int64_t rank = x.getType().getRank();
  if (!args.has("dim"))
    return rank - 1;
  return gen.normalizeAxis(
      gen.requireInt(args.get("dim"), args.loc("dim"),
                     std::string("the dim of ") + name + "()"),
      rank, args.loc("dim"), "dim");
}

/// `shape` viewed so that bit `bit` of the index along `dim` (of size n)
/// is an axis of its own, at dim + 1: [n / 2^(bit+1), 2, 2^bit] in place of
/// dim. Each step of flip and sort uses one such view, so the rank grows by
/// two at most, whatever n is.
static Shape viewForBit(const Shape &shape, int64_t dim, int64_t bit) {
  Shape view(shape.begin(), shape.begin() + dim);
  int64_t n = shape[dim];
  view.push_back(n >> (bit + 1));
  view.push_back(2);
  view.push_back(int64_t(1) << bit);
  view.insert(view.end(), shape.begin() + dim + 1, shape.end());
  return view;
}

static Value flipBlock(IRGen &gen, const Value &x, int64_t dim,
                       SourceLoc loc) {
  Rearranger r(gen, loc);
  int64_t k = log2Exact(x.getShape()[dim]);
  if (k == 0)
    return x;
  DType type = x.getDType();
  Value y = gen.bitcast(type.isBool() ? gen.cast(x, ScalarType::I8, loc) : x,
                        getBitsType(type), loc);
  // Reversing the index is inverting each of its bits.
  for (int64_t bit = 0; bit < k; ++bit)
    y = gen.reshape(r.swapHalves(gen.reshape(y, viewForBit(x.getShape(), dim,
                                                           bit),
                                             loc),
                                 dim + 1),
                    x.getShape(), loc);
  if (type.isBool())
    return gen.cast(y, ScalarType::I1, loc);
  return gen.bitcast(y, type, loc);
}

static Value sortBlock(IRGen &gen, const Value &x, int64_t dim,
                       bool descending, SourceLoc loc) {
  Rearranger r(gen, loc);
  const Shape &shape = x.getShape();
  int64_t n = shape[dim];
  int64_t k = log2Exact(n);
  if (k == 0)
    return x;
  DType type = x.getDType();
  Value y = type.isBool() ? gen.cast(x, ScalarType::I8, loc) : x;
  DType valueType = y.getDType();
  DType bitsType = getBitsType(type);
  int64_t rank = int64_t(shape.size());
  // Bit `bit` of the index along dim, as an i1 block broadcastable to
  // `view`.
  ValueType rangeType(ScalarType::I32, {n});
  auto indexBit = [&](int64_t bit, const Shape &view) {
    Value index = Value::ir(
        mlir::tk::MakeRangeOp::create(gen.builder, gen.getMLIRType(rangeType),
                                      0u, uint32_t(n)),
        rangeType);
    Value set = gen.binaryOp(
        BinaryOpKind::BitAnd,
        gen.binaryOp(BinaryOpKind::RShift, index, Value::integer(bit), loc),
        Value::integer(1), loc);
    Shape along(view.size(), 1);
    for (int64_t d = 0; d < 3; ++d)
      along[dim + d] = view[dim + d];
    return gen.compare(BinaryOpKind::Ne, gen.reshape(set, along, loc),
                       Value::integer(0), loc);
  };
  for (int64_t s = 1; s <= k; ++s) {
    for (int64_t t = s - 1; t >= 0; --t) {
      Shape view = viewForBit(shape, dim, t);
      Value v = gen.reshape(y, view, loc);
      Value bits = gen.bitcast(v, bitsType, loc);
      Value partner = gen.bitcast(r.swapHalves(bits, dim + 1), valueType, loc);
      // Keep the larger value where bit t of the index, xor-ed with the
      // run's direction (bit s; the flag in the last stage), is 1.
      Value descendingRun = s == k ? gen.constantBool(descending, {})
                                   : indexBit(s, view);
      Value keepLarger = gen.binaryOp(BinaryOpKind::BitXor,
                                      r.isSecond(rank + 2, dim + 1),
                                      descendingRun, loc);
      Value greater = gen.compare(BinaryOpKind::Gt, v, partner, loc);
      Value take = gen.binaryOp(BinaryOpKind::BitXor, greater, keepLarger,
                                loc);
      y = gen.reshape(gen.select(take, partner, v, loc), shape, loc);
    }
  }
  return type.isBool() ? gen.cast(y, ScalarType::I1, loc) : y;
}

/// join(a, b): shape + [2].
static Value joinBlocks(IRGen &gen, const Value &aIn, const Value &bIn,
                        SourceLoc loc) {
  Value a = aIn, b = bIn;
  if (a.isIR() && b.isIR() && a.getDType().isPointer() &&
      a.getDType() == b.getDType())
    gen.broadcastPair(a, b, loc);
  else
    gen.promoteOperands(a, b, /*divOrMod=*/false, "join", loc);
  Shape shape = a.getShape();
  int64_t rank = int64_t(shape.size());
  Shape joined = shape;
  joined.push_back(2);
  Value wideA = gen.broadcastTo(gen.expandDims(a, rank, loc), joined, loc);
  Value wideB = gen.broadcastTo(gen.expandDims(b, rank, loc), joined, loc);
  Rearranger r(gen, loc);
  return gen.select(r.isSecond(rank + 1, rank), wideB, wideA, loc);
}

Value IRGen::emitBlockBuiltin(BuiltinId id, const BoundArgs &args,
                              SourceLoc loc) {
  std::string name = getBuiltinName(id);
  auto block = [&](const char *param) {
    Value value = requireBlock(args.get(param), args.loc(param),
                               "the input of " + name + "()");
    return value;
  };
  auto flag = [&](const char *param, bool fallback) {
    if (!args.has(param))
      return fallback;
    const Value &value = args.get(param);
    if (!value.is(Value::Kind::Bool) && !value.is(Value::Kind::Int))
      error(args.loc(param), std::string("'") + param +
                                 "' must be a compile-time bool, got " +
                                 value.describe());
    return value.getIntLike() != 0;
  };
  switch (id) {
  case BuiltinId::Sort:
  case BuiltinId::Flip: {
    Value x = block("x");
    if (x.getDType().isPointer())
      error(args.loc("x"), name + "() cannot rearrange pointers");
    int64_t dim = getDim(*this, args, x, name.c_str());
    if (id == BuiltinId::Flip)
      return flipBlock(*this, x, dim, loc);
    return sortBlock(*this, x, dim, flag("descending", false), loc);
  }
  case BuiltinId::Join:
    return joinBlocks(*this, toIR(args.get("a"), args.loc("a"), "a"),
                      args.get("b"), loc);
  case BuiltinId::Interleave: {
    Value joined = joinBlocks(*this, toIR(args.get("a"), args.loc("a"), "a"),
                              args.get("b"), loc);
    Shape shape = joined.getShape();
    shape.pop_back();
    if (shape.empty())
      return joined;
    shape.back() *= 2;
    return reshape(joined, shape, loc);
  }
  case BuiltinId::Split: {
    Value a = block("a");
    const Shape &shape = a.getShape();
    if (shape.back() != 2)
      error(args.loc("a"), "split() needs a block whose last dimension is 2, "
                           "got " +
                               a.getType().toString());
    DType type = a.getDType();
    if (type.isPointer())
      a = cast(a, ScalarType::I64, loc);
    Value bits = bitcast(type.isBool() ? cast(a, ScalarType::I8, loc) : a,
                         getBitsType(a.getDType()), loc);
    Rearranger r(*this, loc);
    int64_t axis = int64_t(shape.size()) - 1;
    std::vector<Value> halves;
    for (int position : {0, 1}) {
      Value half = r.takeHalf(bits, axis, position);
      if (type.isPointer())
        half = cast(half, type, loc);
      else if (type.isBool())
        half = cast(half, ScalarType::I1, loc);
      else
        half = bitcast(half, type, loc);
      halves.push_back(half);
    }
    return Value::tuple(halves);
  }
  case BuiltinId::Cat: {
    Value a = block("input");
    Value b = requireBlock(args.get("other"), args.loc("other"),
                           "the second input of cat()");
    if (a.getShape() != b.getShape())
      error(loc, "cat() needs blocks of the same shape, got " +
                     a.getType().toString() + " and " +
                     b.getType().toString());
    Value joined = joinBlocks(*this, a, b, loc);
    int64_t rank = a.getType().getRank();
    std::vector<int64_t> order = {rank};
    for (int64_t d = 0; d < rank; ++d)
      order.push_back(d);
    Shape shape = a.getShape();
    shape[0] *= 2;
    return reshape(trans(joined, order, loc), shape, loc);
  }
  case BuiltinId::Histogram: {
    Value x = block("input");
    if (x.getType().getRank() != 1 || !x.getDType().isInt() ||
        x.getDType().isBool())
      error(args.loc("input"), "histogram() needs a 1-D block of integers, "
                               "got " +
                                   x.getType().toString());
    int64_t bins = requireInt(args.get("num_bins"), args.loc("num_bins"),
                              "num_bins");
    if (!sema::isPowerOfTwo(bins))
      error(args.loc("num_bins"), "num_bins must be a power of two, got " +
                                      std::to_string(bins));
    int64_t n = x.getShape()[0];
    Shape grid = {n, bins};
    std::string message;
    if (!sema::checkBlockShape(grid, message))
      error(loc, "histogram() of " + std::to_string(n) + " values into " +
                     std::to_string(bins) + " bins: " + message);
    ValueType rangeType(ScalarType::I32, {bins});
    Value binIds = Value::ir(
        mlir::tk::MakeRangeOp::create(builder, getMLIRType(rangeType), 0u,
                                      uint32_t(bins)),
        rangeType);
    Value hit = compare(BinaryOpKind::Eq, expandDims(x, 1, loc),
                        expandDims(binIds, 0, loc), loc);
    if (args.has("mask")) {
      Value mask = args.get("mask");
      if (!mask.isIR() || !mask.getDType().isBool() ||
          !sema::canBroadcastTo(mask.getShape(), x.getShape()))
        error(args.loc("mask"), "the mask of histogram() must be an i1 "
                                "block of the input's shape");
      mask = broadcastTo(mask, x.getShape(), args.loc("mask"));
      hit = binaryOp(BinaryOpKind::BitAnd, hit, expandDims(mask, 1, loc),
                     loc);
    }
    hit = broadcastTo(hit, grid, loc);
    Value ones = cast(hit, ScalarType::I32, loc);
    ValueType resultType(ScalarType::I32, {bins});
    return Value::ir(
        mlir::tk::ReduceOp::create(builder, getMLIRType(resultType),
                                   mlir::tk::ReduceKind::Sum, ones.getIR(),
                                   0u)
            .getResult(0),
        resultType);
  }
  case BuiltinId::Ravel: {
    Value x = block("x");
    return reshape(x, {x.getType().getNumElements()}, loc);
  }
  case BuiltinId::Broadcast: {
    Value a = toIR(args.get("input"), args.loc("input"), "the input");
    Value b = toIR(args.get("other"), args.loc("other"), "the other input");
    broadcastPair(a, b, loc);
    return Value::tuple({a, b});
  }
  case BuiltinId::XorSum: {
    Value x = block("input");
    if (!x.getDType().isInt() || x.getDType().isPointer())
      error(args.loc("input"), "xor_sum() needs integers, got " +
                                   x.getType().toString());
    bool keepDims = flag("keep_dims", false);
    if (!args.has("axis")) {
      Shape kept(x.getShape().size(), 1);
      Value flat = reshape(x, {x.getType().getNumElements()}, loc);
      Value result = xorSumAlong(flat, 0, false, loc);
      return keepDims ? reshape(result, kept, loc) : result;
    }
    int64_t axis = normalizeAxis(
        requireInt(args.get("axis"), args.loc("axis"), "the axis"),
        x.getType().getRank(), args.loc("axis"), "axis");
    return xorSumAlong(x, axis, keepDims, loc);
  }
  default:
    error(loc, name + "() is not supported here");
  }
}

} // namespace tk::irgen
