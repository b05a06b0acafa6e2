//===- IRGenMemoryBuiltins.cpp - load, store, atomics, hints --------------===//
//
// The builtins that touch global memory through pointers, and the
// pointer-analysis hints (signatures are Triton's, Builtins.cpp):
//  * load(pointer, mask, other, cache_modifier, eviction_policy, ...) and
//    store(pointer, value, mask, ...): tk.load / tk.store on a pointer or a
//    block of pointers; the mask, other= and the stored value are
//    broadcast against the pointer block. A block pointer (make_block_ptr) goes to
//    IRGenBlockPointer.cpp. cache_modifier / eviction_policy are checked
//    here and travel as discardable `tk.` attributes for the code
//    generator. load/store of *i1 go through i8 memory.
//  * atomic_add/max/min/xchg/and/or/xor (tk.atomic_rmw, optionally masked)
//    and atomic_cas (tk.atomic_cas), with Triton's sem= (acq_rel by
//    default) and scope= (gpu by default); max/min of unsigned elements
//    are the unsigned kinds.
//  * multiple_of, max_contiguous, max_constancy: tk.hint with one
//    power-of-two value per dimension.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/IRGenImpl.h"

#include "dialects/tk/TkDialect.h"

#include <algorithm>

namespace tk::irgen {

using sema::DType;
using sema::ValueType;

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

/// The pointer argument of a memory builtin.
static Value requirePointer(IRGen &gen, const Value &value, SourceLoc loc,
                            const std::string &callee) {
  if (!value.isIR() || !value.getDType().isPointer())
    gen.error(loc, callee + "() needs a pointer or a block of pointers, got " +
                       describeValue(value));
  return value;
}

/// A mask: i1 scalar or block (True/False constants accepted).
Value requireMask(IRGen &gen, const Value &value, SourceLoc loc) {
  if (value.is(Value::Kind::Bool))
    return gen.constantBool(value.getBool(), {});
  if (!value.isIR() || !value.getDType().isBool())
    gen.error(loc, "the mask must be a boolean (i1) value, got " +
                       describeValue(value) +
                       "; build it with a comparison such as 'offs < n'");
  return value;
}

static void checkCacheOptions(IRGen &gen, const BoundArgs &args,
                              bool isLoad) {
  std::string cache = getStringArg(gen, args, "cache_modifier");
  std::vector<std::string> caches =
      isLoad ? std::vector<std::string>{"", ".ca", ".cg", ".cv"}
             : std::vector<std::string>{"", ".wb", ".cg", ".cs", ".wt"};
  if (std::find(caches.begin(), caches.end(), cache) == caches.end())
    gen.error(args.loc("cache_modifier"),
              "unknown cache_modifier '" + cache + "'");
  std::string eviction = getStringArg(gen, args, "eviction_policy");
  if (!eviction.empty() && eviction != "evict_first" &&
      eviction != "evict_last")
    gen.error(args.loc("eviction_policy"),
              "unknown eviction_policy '" + eviction + "'");
  if (args.has("boundary_check") &&
      !(args.get("boundary_check").is(Value::Kind::Tuple) &&
        args.get("boundary_check").getElements().empty()))
    gen.error(args.loc("boundary_check"),
              "boundary_check needs a block pointer (make_block_ptr); use a "
              "mask");
}

/// cache_modifier / eviction_policy travel as discardable attributes
/// (`tk.cache_modifier = ".cg"`) for the code generator to honour.
static void setCacheHints(mlir::OpBuilder &builder, mlir::Operation *op,
                          const BoundArgs &args) {
  for (const char *name : {"cache_modifier", "eviction_policy"}) {
    if (!args.has(name))
      continue;
    const std::string &text = args.get(name).getString();
    if (!text.empty())
      op->setAttr(std::string("tk.") + name, builder.getStringAttr(text));
  }
}

Value IRGen::emitLoad(const BoundArgs &args, SourceLoc loc) {
  if (args.get("pointer").is(Value::Kind::BlockPointer))
    return loadBlockPointer(args, loc);
  checkCacheOptions(*this, args, /*isLoad=*/true);
  if (args.has("padding_option"))
    error(args.loc("padding_option"),
          "padding_option needs a block pointer (make_block_ptr); use "
          "other=");
  Value ptr = requirePointer(*this, args.get("pointer"), args.loc("pointer"),
                             "load");
  Value mask, other;
  if (args.has("mask")) {
    mask = requireMask(*this, args.get("mask"), args.loc("mask"));
    if (ptr.getType().isScalar() && mask.isBlock())
      error(args.loc("mask"), "the mask is a block (" +
                                  mask.getType().toString() +
                                  ") but the pointer is a scalar");
    std::string message;
    if (!sema::broadcastShapes(ptr.getShape(), mask.getShape(), message))
      error(args.loc("mask"), "the mask " + mask.getType().toString() +
                                  " does not match the pointer block " +
                                  ptr.getType().toString() + " (" + message +
                                  ")");
    broadcastPair(ptr, mask, args.loc("mask"));
  }
  DType element(ptr.getDType().getPointee());
  if (args.has("other")) {
    if (!mask.isIR())
      error(args.loc("other"), "load() with other= needs a mask");
    other = cast(args.get("other"), element, args.loc("other"));
    if (ptr.getType().isScalar() && other.isBlock())
      error(args.loc("other"), "'other' is a block but the pointer is a "
                               "scalar");
    if (!sema::canBroadcastTo(other.getShape(), ptr.getShape()))
      error(args.loc("other"), "'other' " + other.getType().toString() +
                                   " does not match the pointer block " +
                                   ptr.getType().toString());
    other = broadcastTo(other, ptr.getShape(), args.loc("other"));
  }
  bool isVolatile = getFlag(*this, args, "volatile", false);
  // Booleans live in memory as bytes.
  bool isBool = element.isBool();
  if (isBool) {
    ptr = cast(ptr, DType::getPointer(ScalarType::I8), loc);
    if (other.isIR())
      other = cast(other, ScalarType::I8, loc);
  }
  auto load = mlir::tk::LoadOp::create(builder, ptr.getIR(),
                                       mask.isIR() ? mask.getIR()
                                                   : mlir::Value(),
                                       other.isIR() ? other.getIR()
                                                    : mlir::Value());
  if (isVolatile)
    load.setIsVolatile(true);
  setCacheHints(builder, load, args);
  Value result = Value::ir(load, ValueType(isBool ? DType(ScalarType::I8)
                                                  : element,
                                           ptr.getShape()));
  return isBool ? cast(result, ScalarType::I1, loc) : result;
}

Value IRGen::emitStore(const BoundArgs &args, SourceLoc loc) {
  if (args.get("pointer").is(Value::Kind::BlockPointer))
    return storeBlockPointer(args, loc);
  checkCacheOptions(*this, args, /*isLoad=*/false);
  const Value &target = args.get("pointer");
  if (!target.isIR() || !target.getDType().isPointer())
    error(args.loc("pointer"),
          "store() needs a pointer or a block of pointers to store to, got " +
              describeValue(target));
  Value ptr = target;
  DType element(ptr.getDType().getPointee());
  Value value = cast(args.get("value"), element, args.loc("value"));
  if (!sema::canBroadcastTo(value.getShape(), ptr.getShape()))
    error(args.loc("value"),
          "cannot store " + value.getType().toString() + " through " +
              ptr.getType().toString() +
              (ptr.getType().isScalar()
                   ? ": the pointer is a scalar"
                   : ": the value does not fit the pointer block"));
  value = broadcastTo(value, ptr.getShape(), args.loc("value"));
  Value mask;
  if (args.has("mask")) {
    mask = requireMask(*this, args.get("mask"), args.loc("mask"));
    if (!sema::canBroadcastTo(mask.getShape(), ptr.getShape()))
      error(args.loc("mask"), "the mask " + mask.getType().toString() +
                                  " does not match the pointer block " +
                                  ptr.getType().toString());
    mask = broadcastTo(mask, ptr.getShape(), args.loc("mask"));
  }
  if (element.isBool()) {
    ptr = cast(ptr, DType::getPointer(ScalarType::I8), loc);
    value = cast(value, ScalarType::U8, loc);
  }
  auto store = mlir::tk::StoreOp::create(
      builder, ptr.getIR(), value.getIR(),
      mask.isIR() ? mask.getIR() : mlir::Value());
  setCacheHints(builder, store, args);
  return Value::none();
}

Value IRGen::emitAtomic(BuiltinId id, const BoundArgs &args, SourceLoc loc) {
  std::string name = getBuiltinName(id);
  Value ptr = requirePointer(*this, args.get("pointer"), args.loc("pointer"),
                             name);
  DType element(ptr.getDType().getPointee());
  unsigned bits = element.getBitWidth();

  // Memory ordering and scope.
  // Triton's spellings are the enums' own (TkAttrs.td).
  auto sem = mlir::tk::MemSemantic::AcqRel;
  std::string semText = getStringArg(*this, args, "sem");
  if (!semText.empty()) {
    std::optional<mlir::tk::MemSemantic> parsed =
        mlir::tk::symbolizeMemSemantic(semText);
    if (!parsed)
      error(args.loc("sem"), "sem must be \"relaxed\", \"acquire\", "
                             "\"release\" or \"acq_rel\", got \"" +
                                 semText + "\"");
    sem = *parsed;
  }
  auto scope = mlir::tk::MemScope::Gpu;
  std::string scopeText = getStringArg(*this, args, "scope");
  if (!scopeText.empty()) {
    std::optional<mlir::tk::MemScope> parsed =
        mlir::tk::symbolizeMemScope(scopeText);
    if (!parsed)
      error(args.loc("scope"), "scope must be \"gpu\", \"cta\" or "
                               "\"sys\", got \"" +
                                   scopeText + "\"");
    scope = *parsed;
  }

  auto convert = [&](const std::string &param) {
    Value value = cast(args.get(param), element, args.loc(param));
    if (!sema::canBroadcastTo(value.getShape(), ptr.getShape()))
      error(args.loc(param), "'" + param + "' " + value.getType().toString() +
                                 " does not match the pointer block " +
                                 ptr.getType().toString());
    return broadcastTo(value, ptr.getShape(), args.loc(param));
  };
  ValueType resultType(element, ptr.getShape());

  if (id == BuiltinId::AtomicCas) {
    if (bits != 16 && bits != 32 && bits != 64)
      error(args.loc("pointer"), "atomic_cas() supports 16-, 32- and 64-bit "
                                 "elements, got " +
                                     element.toString());
    Value cmp = convert("cmp"), val = convert("val");
    return Value::ir(mlir::tk::AtomicCASOp::create(
                         builder, getMLIRType(resultType), ptr.getIR(),
                         cmp.getIR(), val.getIR(), sem, scope),
                     resultType);
  }

  mlir::tk::AtomicKind kind;
  bool ok = bits >= 32 && !element.isBool();
  switch (id) {
  case BuiltinId::AtomicAdd:
    kind = mlir::tk::AtomicKind::Add;
    // 16-bit floats too (bf16: sm_90's instruction, a CAS loop on sm_80).
    ok = ok || element.getScalar() == ScalarType::F16 ||
         element.getScalar() == ScalarType::BF16;
    break;
  case BuiltinId::AtomicMax:
    kind = element.isUnsigned() ? mlir::tk::AtomicKind::UMax
                                : mlir::tk::AtomicKind::Max;
    break;
  case BuiltinId::AtomicMin:
    kind = element.isUnsigned() ? mlir::tk::AtomicKind::UMin
                                : mlir::tk::AtomicKind::Min;
    break;
  case BuiltinId::AtomicXchg:
    kind = mlir::tk::AtomicKind::Xchg;
    break;
  case BuiltinId::AtomicAnd:
    kind = mlir::tk::AtomicKind::And;
    ok = ok && element.isInt();
    break;
  case BuiltinId::AtomicOr:
    kind = mlir::tk::AtomicKind::Or;
    ok = ok && element.isInt();
    break;
  default:
    kind = mlir::tk::AtomicKind::Xor;
    ok = ok && element.isInt();
    break;
  }
  if (!ok)
    error(args.loc("pointer"), name + "() does not support " +
                                   element.toString() + " elements");
  Value val = convert("val");
  Value mask;
  if (args.has("mask")) {
    mask = requireMask(*this, args.get("mask"), args.loc("mask"));
    if (!sema::canBroadcastTo(mask.getShape(), ptr.getShape()))
      error(args.loc("mask"), "the mask " + mask.getType().toString() +
                                  " does not match the pointer block " +
                                  ptr.getType().toString());
    mask = broadcastTo(mask, ptr.getShape(), args.loc("mask"));
  }
  return Value::ir(mlir::tk::AtomicRMWOp::create(
                       builder, getMLIRType(resultType), kind, ptr.getIR(),
                       val.getIR(),
                       mask.isIR() ? mask.getIR() : mlir::Value(), sem,
                       scope),
                   resultType);
}

//===----------------------------------------------------------------------===//
// Hints
//===----------------------------------------------------------------------===//

Value IRGen::emitHint(BuiltinId id, const BoundArgs &args, SourceLoc loc) {
  std::string name = getBuiltinName(id);
  const Value &input = args.get("input");
  if (!input.isIR())
    error(args.loc("input"), name + "() needs a run-time value, got " +
                                 input.describe());
  std::vector<int32_t> values;
  const Value &spec = args.get("values");
  std::vector<Value> items = spec.is(Value::Kind::Tuple)
                                 ? spec.getElements()
                                 : std::vector<Value>{spec};
  for (const Value &item : items) {
    int64_t v = requireInt(item, args.loc("values"), "each value");
    if (!sema::isPowerOfTwo(v) || v > (int64_t(1) << 30))
      error(args.loc("values"), name + "() values must be powers of two, "
                                       "got " +
                                    std::to_string(v));
    values.push_back(int32_t(v));
  }
  size_t expected = std::max<size_t>(1, input.getShape().size());
  if (values.size() != expected)
    error(args.loc("values"), name + "() needs " + std::to_string(expected) +
                                  " value" + (expected == 1 ? "" : "s") +
                                  " for " + input.getType().toString() +
                                  ", got " + std::to_string(values.size()));
  mlir::DenseI32ArrayAttr attr = builder.getDenseI32ArrayAttr(values);
  mlir::DenseI32ArrayAttr none;
  auto hint = mlir::tk::HintOp::create(
      builder, input.getIR(), id == BuiltinId::MultipleOf ? attr : none,
      id == BuiltinId::MaxContiguous ? attr : none,
      id == BuiltinId::MaxConstancy ? attr : none);
  return Value::ir(hint, input.getType());
}

} // namespace tk::irgen
