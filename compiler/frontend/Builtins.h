//===- Builtins.h - the builtin functions of the language -------*- C++ -*-===//
//
// Names of the builtins, with or without the `tl.`/`tk.` prefix, their
// Triton-compatible signatures, and which of them are also tensor methods
// (`x.to(f16)`, `x.sum(axis=0)`, ...).
//
//===----------------------------------------------------------------------===//

#ifndef TK_COMPILER_FRONTEND_BUILTINS_H
#define TK_COMPILER_FRONTEND_BUILTINS_H

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tk::irgen {

enum class BuiltinId : unsigned {
  // Program instance
  ProgramId, NumPrograms, ClusterRank,
  // Block creation
  Arange, Zeros, ZerosLike, Full, FullLike,
  // Memory
  Load, Store, AtomicAdd, AtomicMax, AtomicMin, AtomicXchg, AtomicAnd,
  AtomicOr, AtomicXor, AtomicCas,
  // Linear algebra and reductions
  Dot, DotScaled, Sum, Max, Min, ArgMax, ArgMin, CumSum, CumProd,
  // Elementwise math
  Exp, Exp2, Log, Log2, Sqrt, Rsqrt, Sin, Cos, Abs, Sigmoid, Tanh, Erf,
  Floor, Ceil, Maximum, Minimum, Where, Cdiv, Fma, DivRn, Clamp,
  // Hints
  MultipleOf, MaxContiguous, MaxConstancy,
  // More math (IRGenMathBuiltins.cpp)
  Umulhi, Fdiv, SqrtRn, Swizzle2d,
  // Rearranging blocks (IRGenBlockBuiltins.cpp)
  Sort, Flip, Join, Split, Interleave, Cat, Histogram, Ravel, Broadcast,
  XorSum,
  // Reductions and scans with a combine function (IRGenCombine.cpp)
  Reduce, AssociativeScan,
  // Random numbers (IRGenRandom.cpp)
  Philox, PhiloxImpl, Randint, Randint4x, Rand, Rand4x, Randn, Randn4x,
  UintToUniformFloat, PairUniformToNormal,
  // Block pointers (IRGenBlockPointer.cpp)
  MakeBlockPtr, Advance,
  // Tensor descriptors (IRGenTensorDescriptor.cpp); desc.load / desc.store
  // are the last two with the descriptor as `desc`
  MakeTensorDescriptor, LoadTensorDescriptor, StoreTensorDescriptor,
  // Shapes
  Reshape, View, Trans, Permute, BroadcastTo, ExpandDims,
  // Casts (the method `x.to(...)` and `cast(x, dtype)`)
  To, Cast,
  // Debugging and compile-time checks
  DevicePrint, DeviceAssert, StaticAssert, StaticPrint, DebugBarrier,
  // Loops: only valid as the iterable of `for`
  StaticRange, Range,
  // @autotune configurations
  Config,
  // Python builtins on compile-time values
  PyFloat, PyInt, PyBool, PyLen, PyPrint
};

/// The builtin called `name` (without prefix), if any. `isQualified` is set
/// for `tl.name`/`tk.name`: the Python builtins (float, int, len) are only
/// found unqualified, and `min`/`max` unqualified are Python's min/max on
/// scalars but still the reductions on blocks.
std::optional<BuiltinId> lookupBuiltin(std::string_view name,
                                       bool isQualified);

/// The canonical name ("load", "static_range").
const char *getBuiltinName(BuiltinId id);

/// The signature, as a list of parameter specs: "name" (required),
/// "name?" (optional), "*name" (variadic positional; every later parameter
/// is keyword-only).
const std::vector<std::string> &getBuiltinSignature(BuiltinId id);

/// Whether `x.name(...)` calls the builtin with x as its first argument.
bool isTensorMethod(BuiltinId id);

/// Every name lookupBuiltin accepts (for "did you mean" suggestions), plus
/// the dtype names and the constants.
const std::vector<std::string> &getAllBuiltinNames();

} // namespace tk::irgen

#endif // TK_COMPILER_FRONTEND_BUILTINS_H
