//===- Builtins.cpp - the builtin functions of the language ---------------===//

#include "compiler/frontend/Builtins.h"

#include "compiler/frontend/AST.h"

#include <map>

namespace tk::irgen {

namespace {

struct BuiltinInfo {
  BuiltinId id;
  const char *name;
  std::vector<std::string> signature;
  bool isMethod = false;
  /// Only reachable without a prefix (Python's float(), len(), ...).
  bool pythonOnly = false;
};

const std::vector<BuiltinInfo> &getTable() {
  using B = BuiltinId;
  static const std::vector<BuiltinInfo> table = {
      {B::ProgramId, "program_id", {"axis"}},
      {B::NumPrograms, "num_programs", {"axis"}},
      {B::ClusterRank, "cluster_rank", {}},
      {B::Arange, "arange", {"start", "end"}},
      {B::Zeros, "zeros", {"shape", "dtype"}},
      {B::ZerosLike, "zeros_like", {"input", "dtype?"}},
      {B::Full, "full", {"shape", "value", "dtype"}},
      {B::FullLike, "full_like", {"input", "value", "dtype?"}},
      {B::Load,
       "load",
       {"pointer", "mask?", "other?", "boundary_check?", "padding_option?",
        "cache_modifier?", "eviction_policy?", "volatile?"}},
      {B::Store,
       "store",
       {"pointer", "value", "mask?", "boundary_check?", "cache_modifier?",
        "eviction_policy?"}},
      {B::AtomicAdd, "atomic_add", {"pointer", "val", "mask?", "sem?", "scope?"}},
      {B::AtomicMax, "atomic_max", {"pointer", "val", "mask?", "sem?", "scope?"}},
      {B::AtomicMin, "atomic_min", {"pointer", "val", "mask?", "sem?", "scope?"}},
      {B::AtomicXchg,
       "atomic_xchg",
       {"pointer", "val", "mask?", "sem?", "scope?"}},
      {B::AtomicAnd, "atomic_and", {"pointer", "val", "mask?", "sem?", "scope?"}},
      {B::AtomicOr, "atomic_or", {"pointer", "val", "mask?", "sem?", "scope?"}},
      {B::AtomicXor, "atomic_xor", {"pointer", "val", "mask?", "sem?", "scope?"}},
      {B::AtomicCas, "atomic_cas", {"pointer", "cmp", "val", "sem?", "scope?"}},
      {B::Dot,
       "dot",
       {"input", "other", "acc?", "input_precision?", "allow_tf32?",
        "max_num_imprecise_acc?", "out_dtype?"}},
      {B::DotScaled,
       "dot_scaled",
       {"lhs", "lhs_scale?", "lhs_format", "rhs", "rhs_scale?", "rhs_format",
        "acc?", "fast_math?", "lhs_k_pack?", "rhs_k_pack?", "out_dtype?"}},
      {B::Sum, "sum", {"input", "axis?", "keep_dims?", "dtype?"}, true},
      {B::Max,
       "max",
       {"input", "axis?", "return_indices?", "return_indices_tie_break_left?",
        "keep_dims?"},
       true},
      {B::Min,
       "min",
       {"input", "axis?", "return_indices?", "return_indices_tie_break_left?",
        "keep_dims?"},
       true},
      {B::ArgMax, "argmax", {"input", "axis", "tie_break_left?", "keep_dims?"},
       true},
      {B::ArgMin, "argmin", {"input", "axis", "tie_break_left?", "keep_dims?"},
       true},
      {B::CumSum, "cumsum", {"input", "axis?", "reverse?", "dtype?"}, true},
      {B::CumProd, "cumprod", {"input", "axis?", "reverse?", "dtype?"}, true},
      {B::Exp, "exp", {"x"}, true},
      {B::Exp2, "exp2", {"x"}, true},
      {B::Log, "log", {"x"}, true},
      {B::Log2, "log2", {"x"}, true},
      {B::Sqrt, "sqrt", {"x"}, true},
      {B::Rsqrt, "rsqrt", {"x"}, true},
      {B::Sin, "sin", {"x"}, true},
      {B::Cos, "cos", {"x"}, true},
      {B::Abs, "abs", {"x"}, true},
      {B::Sigmoid, "sigmoid", {"x"}, true},
      {B::Tanh, "tanh", {"x"}, true},
      {B::Erf, "erf", {"x"}, true},
      {B::Floor, "floor", {"x"}, true},
      {B::Ceil, "ceil", {"x"}, true},
      {B::Maximum, "maximum", {"x", "y", "propagate_nan?"}},
      {B::Minimum, "minimum", {"x", "y", "propagate_nan?"}},
      {B::Where, "where", {"condition", "x", "y"}},
      {B::Cdiv, "cdiv", {"x", "div"}},
      {B::Fma, "fma", {"x", "y", "z"}},
      {B::DivRn, "div_rn", {"x", "y"}},
      {B::Clamp, "clamp", {"x", "min", "max", "propagate_nan?"}},
      {B::MultipleOf, "multiple_of", {"input", "values"}},
      {B::MaxContiguous, "max_contiguous", {"input", "values"}},
      {B::MaxConstancy, "max_constancy", {"input", "values"}},
      {B::Umulhi, "umulhi", {"x", "y"}},
      {B::Fdiv, "fdiv", {"x", "y", "ieee_rounding?"}},
      {B::SqrtRn, "sqrt_rn", {"x"}},
      {B::Swizzle2d, "swizzle2d", {"i", "j", "size_i", "size_j", "size_g"}},
      {B::Sort, "sort", {"x", "dim?", "descending?"}, true},
      {B::Flip, "flip", {"x", "dim?"}, true},
      {B::Join, "join", {"a", "b"}, true},
      {B::Split, "split", {"a"}, true},
      {B::Interleave, "interleave", {"a", "b"}},
      {B::Cat, "cat", {"input", "other", "can_reorder?"}},
      {B::Histogram, "histogram", {"input", "num_bins", "mask?"}, true},
      {B::Ravel, "ravel", {"x", "can_reorder?"}, true},
      {B::Broadcast, "broadcast", {"input", "other"}, true},
      {B::XorSum, "xor_sum", {"input", "axis?", "keep_dims?"}, true},
      {B::Reduce, "reduce", {"input", "axis", "combine_fn", "keep_dims?"},
       true},
      {B::AssociativeScan,
       "associative_scan",
       {"input", "axis", "combine_fn", "reverse?"},
       true},
      {B::Philox, "philox", {"seed", "c0", "c1", "c2", "c3", "n_rounds?"}},
      {B::PhiloxImpl,
       "philox_impl",
       {"c0", "c1", "c2", "c3", "k0", "k1", "n_rounds?"}},
      {B::Randint, "randint", {"seed", "offset", "n_rounds?"}},
      {B::Randint4x, "randint4x", {"seed", "offset", "n_rounds?"}},
      {B::Rand, "rand", {"seed", "offset", "n_rounds?"}},
      {B::Rand4x, "rand4x", {"seed", "offsets", "n_rounds?"}},
      {B::Randn, "randn", {"seed", "offset", "n_rounds?"}},
      {B::Randn4x, "randn4x", {"seed", "offset", "n_rounds?"}},
      {B::UintToUniformFloat, "uint_to_uniform_float", {"x"}},
      {B::PairUniformToNormal, "pair_uniform_to_normal", {"u1", "u2"}},
      {B::MakeBlockPtr,
       "make_block_ptr",
       {"base", "shape", "strides", "offsets", "block_shape", "order"}},
      {B::Advance, "advance", {"base", "offsets"}, true},
      {B::MakeTensorDescriptor,
       "make_tensor_descriptor",
       {"base", "shape", "strides", "block_shape", "padding_option?"}},
      {B::LoadTensorDescriptor, "load_tensor_descriptor", {"desc", "offsets", "multicast?"}},
      {B::StoreTensorDescriptor,
       "store_tensor_descriptor",
       {"desc", "offsets", "value"}},
      {B::Reshape, "reshape", {"input", "*shape", "can_reorder?"}, true},
      {B::View, "view", {"input", "*shape"}, true},
      {B::Trans, "trans", {"input", "*dims"}, true},
      {B::Permute, "permute", {"input", "*dims"}, true},
      {B::BroadcastTo, "broadcast_to", {"input", "*shape"}, true},
      {B::ExpandDims, "expand_dims", {"input", "axis"}, true},
      {B::To, "to", {"input", "dtype", "fp_downcast_rounding?", "bitcast?"},
       true},
      {B::Cast, "cast", {"input", "dtype", "fp_downcast_rounding?", "bitcast?"}},
      {B::DevicePrint, "device_print", {"prefix", "*args", "hex?"}},
      {B::DeviceAssert, "device_assert", {"cond", "msg?", "mask?"}},
      {B::StaticAssert, "static_assert", {"cond", "msg?"}},
      {B::StaticPrint, "static_print", {"*values"}},
      {B::DebugBarrier, "debug_barrier", {}},
      {B::StaticRange, "static_range", {"arg1", "arg2?", "step?"}},
      {B::Range,
       "range",
       {"arg1", "arg2?", "step?", "num_stages?", "loop_unroll_factor?",
        "disallow_acc_multi_buffer?", "flatten?", "warp_specialize?"}},
      {B::Config, "Config", {}},
      {B::PyFloat, "float", {"x?"}, false, true},
      {B::PyInt, "int", {"x"}, false, true},
      {B::PyBool, "bool", {"x"}, false, true},
      {B::PyLen, "len", {"x"}, false, true},
      {B::PyPrint, "print", {"*values"}, false, true},
  };
  return table;
}

const BuiltinInfo &getInfo(BuiltinId id) {
  static const std::map<BuiltinId, const BuiltinInfo *> byId = [] {
    std::map<BuiltinId, const BuiltinInfo *> map;
    for (const BuiltinInfo &info : getTable())
      map[info.id] = &info;
    return map;
  }();
  return *byId.at(id);
}

} // namespace

std::optional<BuiltinId> lookupBuiltin(std::string_view name,
                                       bool isQualified) {
  for (const BuiltinInfo &info : getTable()) {
    if (name != info.name || info.id == BuiltinId::To)
      continue;
    if (isQualified && info.pythonOnly)
      return std::nullopt;
    return info.id;
  }
  return std::nullopt;
}

const char *getBuiltinName(BuiltinId id) { return getInfo(id).name; }

const std::vector<std::string> &getBuiltinSignature(BuiltinId id) {
  return getInfo(id).signature;
}

bool isTensorMethod(BuiltinId id) { return getInfo(id).isMethod; }

const std::vector<std::string> &getAllBuiltinNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all;
    for (const BuiltinInfo &info : getTable())
      if (info.id != BuiltinId::To)
        all.push_back(info.name);
    for (std::string_view type : ast::getAllScalarTypeNames())
      all.emplace_back(type);
    for (const char *alias :
         {"float16", "bfloat16", "float32", "float64", "int1", "int8",
          "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "inf", "nan", "constexpr"})
      all.emplace_back(alias);
    return all;
  }();
  return names;
}

} // namespace tk::irgen
