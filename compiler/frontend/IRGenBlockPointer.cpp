//===- IRGenBlockPointer.cpp - make_block_ptr, advance, load/store --------===//
//
// A block pointer is a compile-time record (Value::Kind::BlockPointer) of
// run-time parts: the base pointer, the tensor's shape and strides (i64),
// the block's offsets (i32), and the constant block shape and order. It
// never reaches the IR as such: load and store through it emit ordinary
// pointer blocks and masks, so it works on every path and the interpreter
// checks every access as for any load:
//
//   pointers = base + sum_d (offsets[d] + arange(block[d])) * strides[d]
//                      (along axis d, in i64 as Triton computes them;
//                      the other axes added with expand_dims)
//   mask     = AND over d in boundary_check of
//                0 <= offsets[d] + arange(block[d]) < shape[d]
//
// padding_option "zero" / "nan" gives the masked-off lanes 0 / NaN (else
// they are unspecified, as with a mask and no `other`). `order` is checked
// (a permutation) but only describes the memory layout, which the strides
// already give. advance() adds to the offsets; inside loops the offsets are
// carried like any run-time variable (getCarriedParts).
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/IRGenImpl.h"

#include "dialects/tk/TkDialect.h"

#include <algorithm>
#include <limits>

namespace tk::irgen {

using ast::BinaryOpKind;
using sema::DType;
using sema::Shape;
using sema::ValueType;

namespace {

enum Part { Base = 0, ShapePart, Strides, Offsets, BlockShape, Order };

} // namespace

std::vector<size_t> getCarriedParts(const Value &blockPointer) {
  std::vector<size_t> parts;
  size_t rank = blockPointer.getElements()[Offsets].getElements().size();
  for (size_t d = 0; d < rank; ++d)
    parts.push_back(d);
  return parts;
}

Value getCarriedPart(const Value &blockPointer, size_t part) {
  return blockPointer.getElements()[Offsets].getElements()[part];
}

Value withCarriedParts(const Value &blockPointer,
                       const std::vector<Value> &values) {
  std::vector<Value> parts = blockPointer.getElements();
  parts[Offsets] = Value::tuple(values);
  return Value::blockPointer(parts);
}

/// The elements of a tuple argument with `rank` entries.
static std::vector<Value> requireTuple(IRGen &gen, const Value &value,
                                       SourceLoc loc, const std::string &what,
                                       size_t rank) {
  std::vector<Value> items = value.is(Value::Kind::Tuple)
                                 ? value.getElements()
                                 : std::vector<Value>{value};
  if (items.size() != rank)
    gen.error(loc, what + " needs " + std::to_string(rank) +
                       " entries (one per dimension), got " +
                       std::to_string(items.size()));
  return items;
}

/// Run-time integer scalars of `type` (constants become its values).
static std::vector<Value> toScalars(IRGen &gen, const std::vector<Value> &items,
                                    SourceLoc loc, const std::string &what,
                                    DType type) {
  std::vector<Value> result;
  for (const Value &item : items) {
    if (item.isBlock() || (!item.isIR() && !item.is(Value::Kind::Int) &&
                           !item.is(Value::Kind::Bool)) ||
        (item.isIR() &&
         (!item.getDType().isInt() || item.getDType().isPointer())))
      gen.error(loc, "each entry of " + what +
                         " must be an integer scalar, got " +
                         item.describe());
    result.push_back(gen.cast(item, type, loc));
  }
  return result;
}

Value IRGen::emitBlockPointerBuiltin(BuiltinId id, const BoundArgs &args,
                                     SourceLoc loc) {
  if (id == BuiltinId::Advance) {
    const Value &pointer = args.get("base");
    if (!pointer.is(Value::Kind::BlockPointer))
      error(args.loc("base"), "advance() needs a block pointer (from "
                              "make_block_ptr), got " +
                                  pointer.describe());
    std::vector<Value> offsets =
        pointer.getElements()[Offsets].getElements();
    std::vector<Value> deltas = toScalars(
        *this,
        requireTuple(*this, args.get("offsets"), args.loc("offsets"),
                     "the offsets of advance()", offsets.size()),
        args.loc("offsets"), "the offsets", ScalarType::I32);
    for (size_t d = 0; d < offsets.size(); ++d)
      offsets[d] = binaryOp(BinaryOpKind::Add, offsets[d], deltas[d], loc);
    return withCarriedParts(pointer, offsets);
  }

  const Value &base = args.get("base");
  if (!base.isIR() || !base.getDType().isPointer() || base.isBlock())
    error(args.loc("base"), "make_block_ptr() needs a scalar pointer as its "
                            "base, got " +
                                base.describe());
  Shape block = requireShape(args.get("block_shape"), args.loc("block_shape"),
                             "the block shape");
  size_t rank = block.size();
  auto tupleOf = [&](const char *name, const char *what, DType type) {
    return Value::tuple(toScalars(
        *this, requireTuple(*this, args.get(name), args.loc(name), what, rank),
        args.loc(name), what, type));
  };
  Value shape = tupleOf("shape", "the shape", ScalarType::I64);
  Value strides = tupleOf("strides", "the strides", ScalarType::I64);
  Value offsets = tupleOf("offsets", "the offsets", ScalarType::I32);
  std::vector<Value> order =
      requireTuple(*this, args.get("order"), args.loc("order"), "the order",
                   rank);
  std::vector<int64_t> sorted;
  for (const Value &item : order)
    sorted.push_back(requireInt(item, args.loc("order"), "each entry of the "
                                                         "order"));
  std::sort(sorted.begin(), sorted.end());
  for (size_t d = 0; d < rank; ++d)
    if (sorted[d] != int64_t(d))
      error(args.loc("order"), "the order must be a permutation of the "
                               "dimensions 0.." +
                                   std::to_string(rank - 1));
  std::vector<Value> blockValues;
  for (int64_t size : block)
    blockValues.push_back(Value::integer(size));
  return Value::blockPointer({base, shape, strides, offsets,
                              Value::tuple(blockValues),
                              Value::tuple(order)});
}

namespace {

/// The pointer block and boundary mask of a load/store through `pointer`.
struct BlockAccess {
  Value pointers;
  Value mask; // none without a boundary check
  Shape shape;
};

BlockAccess lowerBlockPointer(IRGen &gen, const Value &pointer,
                              const BoundArgs &args, SourceLoc loc) {
  const std::vector<Value> &parts = pointer.getElements();
  BlockAccess access;
  for (const Value &size : parts[BlockShape].getElements())
    access.shape.push_back(size.getInt());
  int64_t rank = int64_t(access.shape.size());

  std::vector<bool> checked(rank, false);
  if (args.has("boundary_check")) {
    const Value &spec = args.get("boundary_check");
    std::vector<Value> dims = spec.is(Value::Kind::Tuple)
                                  ? spec.getElements()
                                  : std::vector<Value>{spec};
    for (const Value &dim : dims)
      checked[gen.normalizeAxis(gen.requireInt(dim, args.loc("boundary_check"),
                                               "each boundary_check entry"),
                                rank, args.loc("boundary_check"),
                                "boundary_check dimension")] = true;
  }

  Value offsets; // i64 block of the access's shape
  for (int64_t d = 0; d < rank; ++d) {
    int64_t size = access.shape[d];
    ValueType rangeType(ScalarType::I32, {size});
    Value range = Value::ir(
        mlir::tk::MakeRangeOp::create(gen.builder, gen.getMLIRType(rangeType),
                                      0u, uint32_t(size)),
        rangeType);
    // The offsets along d, in a block of unit dimensions but d: unit
    // dimensions added with expand_dims (as `x[:, None]` adds them), which
    // layout propagation and AxisInfo follow, so that the addresses are
    // computed in the layout the load is coalesced in.
    Value index = gen.binaryOp(BinaryOpKind::Add, range,
                               parts[Offsets].getElements()[d], loc);
    for (int64_t i = 0; i < d; ++i)
      index = gen.expandDims(index, 0, loc);
    for (int64_t i = d + 1; i < rank; ++i)
      index = gen.expandDims(index, i, loc);
    Value wide = gen.cast(index, ScalarType::I64, loc);
    Value term = gen.binaryOp(BinaryOpKind::Mul, wide,
                              parts[Strides].getElements()[d], loc);
    offsets = d == 0 ? term : gen.binaryOp(BinaryOpKind::Add, offsets, term,
                                           loc);
    if (!checked[d])
      continue;
    Value inside = gen.binaryOp(
        BinaryOpKind::BitAnd,
        gen.compare(BinaryOpKind::Ge, wide, Value::integer(0), loc),
        gen.compare(BinaryOpKind::Lt, wide, parts[ShapePart].getElements()[d],
                    loc),
        loc);
    access.mask = access.mask.isIR()
                      ? gen.binaryOp(BinaryOpKind::BitAnd, access.mask,
                                     inside, loc)
                      : inside;
  }
  access.pointers = gen.addPointer(parts[Base],
                                   gen.broadcastTo(offsets, access.shape, loc),
                                   /*negate=*/false, loc);
  if (access.mask.isIR())
    access.mask = gen.broadcastTo(access.mask, access.shape, loc);
  return access;
}

/// Copies `args` with the block pointer's pointers and mask in place of
/// `pointer` and `mask`, for emitLoad / emitStore.
CallArgs rebuildArgs(const BoundArgs &args, const BlockAccess &access,
                     std::initializer_list<const char *> keep) {
  CallArgs call;
  call.loc = args.loc("pointer");
  call.positional.push_back(access.pointers);
  call.positionalLocs.push_back(args.loc("pointer"));
  auto add = [&](const std::string &name, const Value &value, SourceLoc at) {
    call.keywords.push_back({name, value});
    call.keywordLocs.push_back(at);
    call.keywordNameLocs.push_back(at);
  };
  if (access.mask.isIR())
    add("mask", access.mask, args.loc("pointer"));
  for (const char *name : keep)
    if (args.has(name))
      add(name, args.get(name), args.loc(name));
  return call;
}

} // namespace

Value IRGen::loadBlockPointer(const BoundArgs &args, SourceLoc loc) {
  for (const char *name : {"mask", "other"})
    if (args.has(name))
      error(args.loc(name), std::string("load() through a block pointer "
                                        "takes no ") +
                                name + "=; use boundary_check= and "
                                       "padding_option=");
  BlockAccess access = lowerBlockPointer(*this, args.get("pointer"), args, loc);
  DType element(access.pointers.getDType().getPointee());
  std::string padding;
  if (args.has("padding_option")) {
    const Value &option = args.get("padding_option");
    if (!option.is(Value::Kind::String))
      error(args.loc("padding_option"),
            "padding_option must be a string, got " + option.describe());
    padding = option.getString();
    if (padding != "" && padding != "zero" && padding != "nan")
      error(args.loc("padding_option"), "padding_option must be \"zero\" or "
                                        "\"nan\", got \"" +
                                            padding + "\"");
    if (padding == "nan" && !element.isFloat())
      error(args.loc("padding_option"),
            "padding_option=\"nan\" needs a floating-point block, got " +
                element.toString());
  }
  CallArgs call = rebuildArgs(args, access,
                              {"cache_modifier", "eviction_policy",
                               "volatile"});
  if (access.mask.isIR() && !padding.empty()) {
    Value other = padding == "zero"
                      ? Value::integer(0)
                      : Value::floating(std::numeric_limits<double>::quiet_NaN());
    call.keywords.push_back({"other", other});
    call.keywordLocs.push_back(args.loc("padding_option"));
    call.keywordNameLocs.push_back(args.loc("padding_option"));
  }
  return emitLoad(bindArgs("load", getBuiltinSignature(BuiltinId::Load), call),
                  loc);
}

Value IRGen::storeBlockPointer(const BoundArgs &args, SourceLoc loc) {
  if (args.has("mask"))
    error(args.loc("mask"), "store() through a block pointer takes no mask=; "
                            "use boundary_check=");
  BlockAccess access = lowerBlockPointer(*this, args.get("pointer"), args, loc);
  CallArgs call = rebuildArgs(args, access,
                              {"cache_modifier", "eviction_policy"});
  call.positional.push_back(args.get("value"));
  call.positionalLocs.push_back(args.loc("value"));
  return emitStore(
      bindArgs("store", getBuiltinSignature(BuiltinId::Store), call), loc);
}

} // namespace tk::irgen
