//===- IRGenTensorDescriptor.cpp - make_tensor_descriptor, load, store ----===//
//
// Triton's tensor descriptors:
//
//   desc = make_tensor_descriptor(ptr, shape=[M, K], strides=[K, 1],
//                                 block_shape=[BM, BK])
//   a = desc.load([i, j])        # elements outside [0, shape) read 0
//   desc.store([i, j], a)        # elements outside [0, shape) not written
//
// A descriptor is a compile-time record (Value::Kind::TensorDescriptor) of
// run-time parts: the base pointer, the shape and the strides (i64), with
// the block type as its type. Unlike a block pointer, whose accesses are
// lowered here, each access becomes one op that carries the whole record:
// tk.descriptor_load / tk.descriptor_store at i32 element offsets. That
// keeps the access whole for the interpreter and for targets with a
// tensor-memory engine (TMA on sm_90a); tk-lower-tensor-descriptors turns
// the rest into masked loads and stores.
//
// Checked here, with the position of the offending argument: the block
// shape is constant (powers of two, 1 to 5 dimensions), shape, strides
// and offsets have one integer entry per dimension, the last stride is the
// constant 1 (what TMA and Triton require), and a stored value fits the
// block. `desc.shape` / `desc.strides` give the parts back.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/IRGenImpl.h"

#include "dialects/tk/TkDescriptorOps.h"

namespace tk::irgen {

using sema::DType;
using sema::Shape;
using sema::ValueType;

namespace {

constexpr size_t kMaxRank = 5;

/// The entries of a tuple/list argument that must have `rank` of them.
std::vector<Value> requireEntries(IRGen &gen, const Value &value,
                                  SourceLoc loc, const std::string &what,
                                  size_t rank) {
  std::vector<Value> items = value.is(Value::Kind::Tuple)
                                 ? value.getElements()
                                 : std::vector<Value>{value};
  if (items.size() != rank)
    gen.error(loc, "expected " + std::to_string(rank) + " " + what +
                       " (one per dimension of the block shape), got " +
                       std::to_string(items.size()));
  return items;
}

/// Integer scalars (run-time or constant) as run-time values of `type`.
std::vector<mlir::Value> toIntegers(IRGen &gen,
                                    const std::vector<Value> &items,
                                    SourceLoc loc, const std::string &what,
                                    DType type) {
  std::vector<mlir::Value> result;
  for (const Value &item : items) {
    bool isInt = item.is(Value::Kind::Int) || item.is(Value::Kind::Bool) ||
                 (item.isIR() && !item.isBlock() &&
                  item.getDType().isInt() && !item.getDType().isPointer());
    if (!isInt)
      gen.error(loc, "each entry of " + what +
                         " must be an integer scalar, got " +
                         (item.isIR() ? item.getType().toString()
                                      : item.describe()));
    result.push_back(gen.cast(item, type, loc).getIR());
  }
  return result;
}

const Value &requireDescriptor(IRGen &gen, const BoundArgs &args,
                               const std::string &callee) {
  const Value &desc = args.get("desc");
  if (!desc.is(Value::Kind::TensorDescriptor))
    gen.error(args.loc("desc"), callee + "() needs a tensor descriptor (from "
                                         "make_tensor_descriptor), got " +
                                    (desc.isIR() ? desc.getType().toString()
                                                 : desc.describe()));
  return desc;
}

} // namespace

Value IRGen::emitTensorDescriptorBuiltin(BuiltinId id, const BoundArgs &args,
                                         SourceLoc loc) {
  if (id == BuiltinId::MakeTensorDescriptor) {
    const Value &base = args.get("base");
    if (!base.isIR() || base.isBlock() || !base.getDType().isPointer())
      error(args.loc("base"), "make_tensor_descriptor() needs a scalar "
                              "pointer as its base, got " +
                                  (base.isIR() ? base.getType().toString()
                                               : base.describe()));
    DType element(base.getDType().getPointee());
    if (element.isBool())
      error(args.loc("base"), "tensor descriptors hold numbers; a pointer "
                              "to i1 cannot be their base");
    Shape block = requireShape(args.get("block_shape"),
                               args.loc("block_shape"), "the block shape");
    if (block.empty() || block.size() > kMaxRank)
      error(args.loc("block_shape"),
            "a tensor descriptor has 1 to 5 dimensions, got a block shape "
            "of " +
                std::to_string(block.size()));
    size_t rank = block.size();
    std::vector<Value> shape = requireEntries(
        *this, args.get("shape"), args.loc("shape"), "shape entries", rank);
    std::vector<Value> strides = requireEntries(
        *this, args.get("strides"), args.loc("strides"), "strides", rank);
    const Value &last = strides.back();
    if (!(last.is(Value::Kind::Int) && last.getInt() == 1))
      error(args.loc("strides"),
            "the last stride of a tensor descriptor must be the constant 1 "
            "(the innermost dimension is contiguous), got " +
                (last.isIR() ? "a run-time " + last.getType().toString()
                             : last.describe()));
    if (args.has("padding_option")) {
      const Value &option = args.get("padding_option");
      if (!option.is(Value::Kind::String) || option.getString() != "zero")
        error(args.loc("padding_option"),
              "tensor descriptors support padding_option=\"zero\" only "
              "(out-of-bounds elements read as 0), got " +
                  option.describe());
    }
    std::vector<mlir::Value> shapeValues =
        toIntegers(*this, shape, args.loc("shape"), "the shape",
                   ScalarType::I64);
    std::vector<mlir::Value> strideValues =
        toIntegers(*this, strides, args.loc("strides"), "the strides",
                   ScalarType::I64);
    std::vector<Value> parts = {base};
    for (mlir::Value v : shapeValues)
      parts.push_back(Value::ir(v, ValueType(ScalarType::I64)));
    for (mlir::Value v : strideValues)
      parts.push_back(Value::ir(v, ValueType(ScalarType::I64)));
    return Value::tensorDescriptor(std::move(parts), ValueType(element, block));
  }

  bool isLoad = id == BuiltinId::LoadTensorDescriptor;
  const Value &desc =
      requireDescriptor(*this, args, isLoad ? "load" : "store");
  const ValueType &blockType = desc.getType();
  size_t rank = blockType.shape.size();
  const std::vector<Value> &parts = desc.getElements();
  mlir::Value base = parts[0].getIR();
  std::vector<mlir::Value> shape, strides;
  for (size_t d = 0; d < rank; ++d) {
    shape.push_back(parts[1 + d].getIR());
    strides.push_back(parts[1 + rank + d].getIR());
  }
  std::vector<mlir::Value> offsets = toIntegers(
      *this,
      requireEntries(*this, args.get("offsets"), args.loc("offsets"),
                     "offsets", blockType.shape.size()),
      args.loc("offsets"), "the offsets", ScalarType::I32);
  if (isLoad) {
    bool multicast = false;
    if (args.has("multicast")) {
      const Value &flag = args.get("multicast");
      if (!flag.is(Value::Kind::Bool))
        error(args.loc("multicast"),
              "multicast= must be a constant bool (True promises that every "
              "program of the thread-block cluster loads this block), got " +
                  flag.describe());
      multicast = flag.getBool();
    }
    auto load = mlir::tk::DescriptorLoadOp::create(
        builder, getMLIRType(blockType), base, shape, strides, offsets);
    if (multicast)
      load.setMulticast(true);
    return Value::ir(load.getResult(), blockType);
  }
  Value value = args.get("value");
  if (!value.isIR() && !value.isNumericConstant())
    error(args.loc("value"), "cannot store " + value.describe() +
                                 " through a tensor descriptor");
  value = cast(value, blockType.dtype, args.loc("value"));
  if (!sema::canBroadcastTo(value.getShape(), blockType.shape))
    error(args.loc("value"), "cannot store " + value.getType().toString() +
                                 " through a tensor descriptor of " +
                                 blockType.toString() + " blocks");
  value = broadcastTo(value, blockType.shape, args.loc("value"));
  mlir::tk::DescriptorStoreOp::create(builder, base, shape, strides, offsets,
                                      value.getIR());
  return Value::none();
}

} // namespace tk::irgen
