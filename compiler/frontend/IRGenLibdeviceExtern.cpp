//===- IRGenLibdeviceExtern.cpp - libdevice functions called by symbol ----===//
//
// The libdevice functions that neither tk's builtins nor MLIR's math ops
// cover (erfinv, lgamma, the Bessel functions, the `_rz`/`_rd`/`_ru`
// arithmetic, the rounding conversions, brev, byte_perm, ...) become
// `tk.extern_elementwise "SYMBOL"`, one overload of LibdeviceExterns.def.
//
// Picking the overload. Each operand is scored against each overload's
// parameter: the same type costs 0; the other signedness of the same
// integer width 1; a narrower integer (extended by its own signedness), or
// f16/bf16/fp8 for an f32 parameter, 2; f32 for an f64 parameter 2, and a
// narrow float for f64 3. A float never goes to an integer parameter or
// the other way, and nothing narrows (an f64 block has no f32 overload).
// A constant costs nothing in any parameter type of its kind (1 for a
// negative integer in an unsigned one), and an int literal may become a
// float (2), so the other operands decide: `mulhi(u, 3)` is unsigned. The
// cheapest overload wins; ties go to the first in the table, which lists
// f32 before f64 and signed before unsigned. So `erfinv(f16)` runs
// `__nv_erfinvf`, `hypot(f32, f64)` runs `__nv_hypot`, and
// `mulhi(u32, u32)` runs `__nv_umulhi`.
//
// Operands broadcast together as for `+`. When every float operand has the
// same narrow type (f16, bf16) and the result is the f32 they computed in,
// the result rounds back to that type, as tk's math builtins do.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/IRGenImpl.h"

#include "dialects/tk/TkDialect.h"

#include <optional>

namespace tk::irgen {

using sema::DType;
using sema::ValueType;

namespace {

enum class ParamType : uint8_t { F32, F64, I32, U32, I64, U64 };

struct ExternOverload {
  const char *name;
  const char *symbol;
  ParamType result;
  std::vector<ParamType> params;
};

constexpr ParamType F32 = ParamType::F32, F64 = ParamType::F64,
                    I32 = ParamType::I32, U32 = ParamType::U32,
                    I64 = ParamType::I64, U64 = ParamType::U64;

const std::vector<ExternOverload> &getExternOverloads() {
  static const std::vector<ExternOverload> overloads = {
#define TK_LIBDEVICE(NAME, SYMBOL, RESULT, ...)                                \
  {#NAME, #SYMBOL, RESULT, {__VA_ARGS__}},
#include "compiler/frontend/LibdeviceExterns.def"
  };
  return overloads;
}

DType toDType(ParamType type) {
  switch (type) {
  case ParamType::F32: return ScalarType::F32;
  case ParamType::F64: return ScalarType::F64;
  case ParamType::I32: return ScalarType::I32;
  case ParamType::U32: return ScalarType::U32;
  case ParamType::I64: return ScalarType::I64;
  case ParamType::U64: return ScalarType::U64;
  }
  return ScalarType::I32;
}

bool isFloatParam(ParamType type) {
  return type == ParamType::F32 || type == ParamType::F64;
}

/// What passing `operand` (of `type`, or a constant) to `param` costs; see
/// the file comment. nullopt when it cannot be passed.
std::optional<unsigned> conversionCost(const Value &operand, DType type,
                                       ParamType param) {
  DType target = toDType(param);
  if (operand.isNumericConstant()) {
    if (operand.is(Value::Kind::Float))
      return isFloatParam(param) ? std::optional<unsigned>(0) : std::nullopt;
    if (isFloatParam(param))
      return 2u;
    return unsigned(target.isUnsigned() && operand.getIntLike() < 0);
  }
  if (type.isFloat()) {
    if (!isFloatParam(param) || type.getBitWidth() > target.getBitWidth())
      return std::nullopt;
    if (type == target)
      return 0u;
    return param == F64 && type.getBitWidth() < 32 ? 3u : 2u;
  }
  if (isFloatParam(param) || type.getBitWidth() > target.getBitWidth())
    return std::nullopt;
  if (type.getBitWidth() < target.getBitWidth())
    return 2u;
  return unsigned(type.isUnsigned() != target.isUnsigned());
}

std::string describeSignature(const ExternOverload &overload) {
  std::string text = "(";
  for (size_t i = 0; i < overload.params.size(); ++i)
    text += std::string(i ? ", " : "") +
            toDType(overload.params[i]).toString();
  return text + ")";
}

} // namespace

bool isLibdeviceExternFunction(const std::string &name) {
  for (const ExternOverload &overload : getExternOverloads())
    if (name == overload.name)
      return true;
  return false;
}

std::vector<std::string> getLibdeviceExternFunctionNames() {
  std::vector<std::string> names;
  for (const ExternOverload &overload : getExternOverloads())
    if (names.empty() || names.back() != overload.name)
      names.push_back(overload.name);
  return names;
}

Value IRGen::callLibdeviceExtern(const std::string &name, const CallArgs &args,
                                 SourceLoc loc) {
  std::string spelling = "libdevice." + name;
  std::vector<const ExternOverload *> candidates;
  for (const ExternOverload &overload : getExternOverloads())
    if (name == overload.name)
      candidates.push_back(&overload);
  size_t arity = candidates.front()->params.size();
  checkLibdeviceArguments(spelling, args, arity, loc);

  std::vector<DType> types;
  std::string given;
  for (size_t i = 0; i < arity; ++i) {
    const Value &operand = args.positional[i];
    if (!operand.isNumericConstant() &&
        (!operand.isIR() || operand.getDType().isPointer()))
      error(args.positionalLocs[i],
            spelling + "() needs numbers, got " + operand.describe());
    types.push_back(operand.isIR() ? operand.getDType()
                                   : getLiteralType(operand));
    given += std::string(i ? ", " : "") +
             types.back().toString();
  }

  const ExternOverload *best = nullptr;
  unsigned bestCost = ~0u;
  for (const ExternOverload *overload : candidates) {
    unsigned cost = 0;
    for (size_t i = 0; i < arity && cost != ~0u; ++i) {
      std::optional<unsigned> c =
          conversionCost(args.positional[i], types[i], overload->params[i]);
      cost = c ? cost + *c : ~0u;
    }
    if (cost < bestCost)
      best = overload, bestCost = cost;
  }
  if (!best) {
    std::string supported;
    for (size_t i = 0; i < candidates.size(); ++i)
      supported += std::string(i == 0 ? "" : i + 1 == candidates.size()
                                                 ? " or "
                                                 : ", ") +
                   describeSignature(*candidates[i]);
    error(loc, spelling + "() has no version for (" + given + "); it takes " +
                   supported);
  }

  // Constants become values of their parameter's type; then everything is
  // broadcast together and converted.
  std::vector<Value> operands;
  for (size_t i = 0; i < arity; ++i) {
    const Value &operand = args.positional[i];
    DType param = toDType(best->params[i]);
    operands.push_back(operand.isIR() ? operand
                                      : materialize(operand, param,
                                                    args.positionalLocs[i]));
  }
  sema::Shape shape;
  for (size_t i = 0; i < arity; ++i) {
    std::string message;
    std::optional<sema::Shape> common =
        sema::broadcastShapes(shape, operands[i].getShape(), message);
    if (!common)
      error(args.positionalLocs[i], "cannot broadcast the operands of " +
                                        spelling + "() together: " + message);
    shape = *common;
  }
  std::optional<DType> narrowFloat;
  bool sameNarrowFloat = true;
  llvm::SmallVector<mlir::Value> irOperands;
  for (size_t i = 0; i < arity; ++i) {
    DType type = operands[i].getDType();
    if (args.positional[i].isIR() && type.isFloat()) {
      if (type.getBitWidth() >= 32 || (narrowFloat && *narrowFloat != type))
        sameNarrowFloat = false;
      narrowFloat = type;
    }
    Value converted = cast(broadcastTo(operands[i], shape, loc),
                           toDType(best->params[i]), loc);
    irOperands.push_back(converted.getIR());
  }

  ValueType resultType(toDType(best->result), shape);
  Value result = Value::ir(
      mlir::tk::ExternElementwiseOp::create(builder, getMLIRType(resultType),
                                            irOperands, best->symbol),
      resultType);
  bool computesInF32 = best->result == F32;
  for (ParamType param : best->params)
    computesInF32 &= param != F64;
  if (narrowFloat && sameNarrowFloat && computesInF32)
    return cast(result, *narrowFloat, loc);
  return result;
}

} // namespace tk::irgen
