//===- IRGenExpr.cpp - expressions, names, calls, helper inlining ---------===//
//
// Names resolve to the current function's variables first, then to the
// functions of the file, the builtins, the dtypes and the constants `inf`
// and `nan`. `tl.X` / `tk.X` / `triton.language.X` reach the builtins and
// dtypes only.
//
// Helpers are inlined at the AST level: a call evaluates the arguments,
// binds them to the parameters in a fresh frame (no access to the caller's
// variables, as in Python) and emits the body in place. Untyped parameters
// take whatever is passed, so each call site is a specialization; typed
// ones convert compile-time numbers and check run-time values. The ops of
// a helper carry CallSiteLoc(callee position, call position).
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/IRGenImpl.h"

#include "dialects/tk/TkDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tk::irgen {

using sema::DType;
using sema::Shape;
using sema::ValueType;

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

Value IRGen::emitExpr(const ast::Expr &expr) {
  Value value = emitExprUnchecked(expr);
  // Every intermediate block obeys the 2^20-element limit, not only those
  // that builtins create with an explicit shape (a broadcast or a dot can
  // exceed it from small operands).
  auto check = [&](const Value &v) {
    if (v.isIR() && v.isBlock() &&
        v.getType().getNumElements() > sema::kMaxBlockElements)
      error(expr.loc, "this expression is a block of " +
                          std::to_string(v.getType().getNumElements()) +
                          " elements (" + v.getType().toString() +
                          "); a block holds at most " +
                          std::to_string(sema::kMaxBlockElements) +
                          " (2^20) elements");
  };
  check(value);
  if (value.is(Value::Kind::Tuple))
    for (const Value &element : value.getElements())
      check(element);
  return value;
}

Value IRGen::emitExprUnchecked(const ast::Expr &expr) {
  LocScope scope(*this, expr.loc);
  switch (expr.kind) {
  case ast::ExprKind::Name:
    return emitName(expr.as<ast::NameExpr>());
  case ast::ExprKind::IntLit: {
    uint64_t value = expr.as<ast::IntLitExpr>().value;
    if (value <= uint64_t(std::numeric_limits<int64_t>::max()))
      return Value::integer(int64_t(value));
    // Beyond int64: a run-time u64, as Triton types such literals.
    return constantInt(int64_t(value), ScalarType::U64);
  }
  case ast::ExprKind::FloatLit:
    return Value::floating(expr.as<ast::FloatLitExpr>().value);
  case ast::ExprKind::BoolLit:
    return Value::boolean(expr.as<ast::BoolLitExpr>().value);
  case ast::ExprKind::NoneLit:
    return Value::none();
  case ast::ExprKind::StringLit:
    return Value::string(expr.as<ast::StringLitExpr>().value);
  case ast::ExprKind::Unary:
    return emitUnary(expr.as<ast::UnaryExpr>());
  case ast::ExprKind::Binary:
    return emitBinary(expr.as<ast::BinaryExpr>());
  case ast::ExprKind::Conditional:
    return emitConditional(expr.as<ast::ConditionalExpr>());
  case ast::ExprKind::Call:
    return emitCall(expr.as<ast::CallExpr>());
  case ast::ExprKind::Attribute:
    return emitAttribute(expr.as<ast::AttributeExpr>());
  case ast::ExprKind::Subscript:
    return emitSubscript(expr.as<ast::SubscriptExpr>());
  case ast::ExprKind::Slice:
    error(expr.loc, "a slice is only allowed inside [...]");
  case ast::ExprKind::Tuple: {
    std::vector<Value> elements;
    for (const ast::ExprPtr &element : expr.as<ast::TupleExpr>().elements)
      elements.push_back(emitExpr(*element));
    return Value::tuple(std::move(elements));
  }
  case ast::ExprKind::Lambda:
    return Value::function(expr.as<ast::LambdaExpr>().function.get());
  case ast::ExprKind::List: {
    // Lists only appear as shapes and such: they behave like tuples.
    std::vector<Value> elements;
    for (const ast::ExprPtr &element : expr.as<ast::ListExpr>().elements)
      elements.push_back(emitExpr(*element));
    return Value::tuple(std::move(elements));
  }
  }
  error(expr.loc, "unsupported expression");
}

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

/// dtype names: i32, f16 ... and Triton's int32, float16 ...
static std::optional<DType> lookupDTypeName(const std::string &name) {
  if (std::optional<ScalarType> scalar = ast::parseScalarTypeName(name))
    return DType(*scalar);
  static const std::map<std::string, ScalarType> aliases = {
      {"int1", ScalarType::I1},       {"int8", ScalarType::I8},
      {"int16", ScalarType::I16},     {"int32", ScalarType::I32},
      {"int64", ScalarType::I64},     {"uint8", ScalarType::U8},
      {"uint16", ScalarType::U16},    {"uint32", ScalarType::U32},
      {"uint64", ScalarType::U64},    {"float16", ScalarType::F16},
      {"bfloat16", ScalarType::BF16}, {"float32", ScalarType::F32},
      {"float64", ScalarType::F64},
      {"float8e4nv", ScalarType::F8E4M3},
      {"float8e5", ScalarType::F8E5M2},
      {"float8e4b15", ScalarType::F8E4M3B15},
      {"float8e4b8", ScalarType::F8E4M3FNUZ},
      {"float8e5b16", ScalarType::F8E5M2FNUZ},
      {"float8_e4m3fn", ScalarType::F8E4M3},
      {"float8_e5m2", ScalarType::F8E5M2}};
  auto it = aliases.find(name);
  if (it == aliases.end())
    return std::nullopt;
  return DType(it->second);
}

std::optional<Value> IRGen::lookupGlobal(const std::string &name) const {
  if (const ast::FunctionDef *fn = module.findFunction(name))
    return Value::function(fn);
  if (std::optional<BuiltinId> id = lookupBuiltin(name, /*isQualified=*/false))
    return Value::builtin(*id);
  if (std::optional<DType> dtype = lookupDTypeName(name))
    return Value::type(ValueType(*dtype));
  if (name == "inf")
    return Value::floating(std::numeric_limits<double>::infinity());
  if (name == "nan")
    return Value::floating(std::numeric_limits<double>::quiet_NaN());
  if (name == "tl" || name == "tk" || name == "triton" || name == "libdevice")
    return Value::nameSpace(name);
  return std::nullopt;
}

Value IRGen::emitName(const ast::NameExpr &expr) {
  return lookupName(expr.name, expr.loc);
}

Value IRGen::lookupName(const std::string &name, SourceLoc loc) {
  if (!frames.empty()) {
    auto it = frame().env.find(name);
    if (it != frame().env.end())
      return it->second.value;
  }
  if (const ast::ImportBinding *import = module.findImport(name)) {
    // The imported path, one attribute at a time from `triton`: what tk
    // lacks is reported here, where it is used.
    Value value = Value::nameSpace("triton");
    size_t start = std::string("triton").size();
    while (start < import->path.size()) {
      size_t end = import->path.find('.', start + 1);
      if (end == std::string::npos)
        end = import->path.size();
      std::string part = import->path.substr(start + 1, end - start - 1);
      try {
        value = getAttribute(value, part, loc);
      } catch (CompileError &e) {
        e.addNote(import->loc, "'" + name + "' is imported here as " +
                                   import->path);
        throw;
      }
      start = end;
    }
    return value;
  }
  if (std::optional<Value> global = lookupGlobal(name))
    return *global;
  if (!frames.empty()) {
    auto reason = frame().undefinedReasons.find(name);
    if (reason != frame().undefinedReasons.end())
      error(loc, reason->second);
  }
  std::vector<std::string> candidates;
  if (!frames.empty())
    for (const auto &entry : frame().env)
      candidates.push_back(entry.first);
  for (const auto &fn : module.functions)
    candidates.push_back(fn->name);
  for (const std::string &builtin : getAllBuiltinNames())
    candidates.push_back(builtin);
  error(loc, "unknown name '" + name + "'" + didYouMean(name, candidates));
}

//===----------------------------------------------------------------------===//
// Attributes and subscripts
//===----------------------------------------------------------------------===//

Value IRGen::emitAttribute(const ast::AttributeExpr &expr) {
  Value object = emitExpr(*expr.value);
  LocScope scope(*this, expr.attrLoc);
  return getAttribute(object, expr.attr, expr.attrLoc);
}

Value IRGen::getAttribute(const Value &object, const std::string &attr,
                          SourceLoc loc) {
  if (object.is(Value::Kind::Namespace)) {
    const std::string &ns = object.getNamespace();
    if (ns == "triton" && attr == "language")
      return Value::nameSpace("triton.language");
    // tl.math.NAME, tl.extra.cuda.libdevice.NAME, libdevice.NAME (after
    // `from triton.language.extra import libdevice`): the math builtins.
    if (attr == "math" || attr == "extra" || attr == "cuda" ||
        attr == "libdevice")
      return Value::nameSpace(ns + "." + attr);
    if (std::optional<BuiltinId> id = lookupBuiltin(attr, true))
      return Value::builtin(*id);
    bool isLibdevice = ns == "libdevice" || llvm::StringRef(ns).ends_with(
                                                ".libdevice");
    if (isLibdevice && isLibdeviceFunction(attr))
      return Value::libdeviceFunction(attr);
    if (std::optional<DType> dtype = lookupDTypeName(attr))
      return Value::type(ValueType(*dtype));
    if (attr == "inf")
      return Value::floating(std::numeric_limits<double>::infinity());
    if (attr == "nan")
      return Value::floating(std::numeric_limits<double>::quiet_NaN());
    std::vector<std::string> candidates;
    for (const std::string &name : getAllBuiltinNames())
      if (lookupBuiltin(name, true) || lookupDTypeName(name))
        candidates.push_back(name);
    if (isLibdevice)
      for (const std::string &name : getLibdeviceFunctionNames())
        candidates.push_back(name);
    std::string hint;
    if (std::optional<std::string> close = findClosestName(attr, candidates))
      hint = "; did you mean '" + ns + "." + *close + "'?";
    error(loc, "unknown builtin '" + ns + "." + attr + "'" + hint);
  }

  if (object.is(Value::Kind::Type)) {
    const ValueType &type = object.getType();
    if (attr == "element_ty") {
      if (type.isBlock())
        return Value::type(ValueType(type.dtype));
      if (type.dtype.isPointer())
        return Value::type(ValueType(DType(type.dtype.getPointee())));
      error(loc, "type '" + type.toString() +
                     "' has no element_ty: it is not a pointer or a block");
    }
    if (attr == "scalar")
      return Value::type(ValueType(type.dtype));
    if (attr == "shape" && type.isBlock()) {
      std::vector<Value> dims;
      for (int64_t dim : type.shape)
        dims.push_back(Value::integer(dim));
      return Value::tuple(std::move(dims));
    }
    if (attr == "primitive_bitwidth" && type.isScalar())
      return Value::integer(type.dtype.getBitWidth());
    error(loc, "type '" + type.toString() + "' has no attribute '" + attr +
                   "'");
  }

  // A number's dtype is the one it would take as a run-time value.
  if (object.isNumericConstant() && attr == "dtype")
    return Value::type(ValueType(getLiteralType(object)));

  if (object.isIR()) {
    const ValueType &type = object.getType();
    if (attr == "dtype")
      return Value::type(ValueType(type.dtype));
    if (attr == "type")
      return Value::type(type);
    if (attr == "shape") {
      std::vector<Value> dims;
      for (int64_t dim : type.shape)
        dims.push_back(Value::integer(dim));
      return Value::tuple(std::move(dims));
    }
    if (attr == "numel")
      return Value::integer(type.getNumElements());
    if (attr == "T")
      return trans(object, {}, loc);
    if (attr == "to" || (lookupBuiltin(attr, true) &&
                         isTensorMethod(*lookupBuiltin(attr, true))))
      error(loc, "'" + attr + "' is a method: call it, e.g. x." + attr +
                     "(...)");
    error(loc, type.toString() + " has no attribute '" + attr + "'" +
                   didYouMean(attr, std::vector<std::string>{
                                        "dtype", "type", "shape", "numel",
                                        "T"}));
  }
  if (object.is(Value::Kind::TensorDescriptor)) {
    const ValueType &block = object.getType();
    size_t rank = block.shape.size();
    const std::vector<Value> &parts = object.getElements();
    if (attr == "dtype")
      return Value::type(ValueType(block.dtype));
    if (attr == "block_shape" || attr == "block_type") {
      if (attr == "block_type")
        return Value::type(block);
      std::vector<Value> dims;
      for (int64_t dim : block.shape)
        dims.push_back(Value::integer(dim));
      return Value::tuple(std::move(dims));
    }
    if (attr == "shape")
      return Value::tuple(
          std::vector<Value>(parts.begin() + 1, parts.begin() + 1 + rank));
    if (attr == "strides")
      return Value::tuple(
          std::vector<Value>(parts.begin() + 1 + rank, parts.end()));
    error(loc, object.describe() + " has no attribute '" + attr + "'" +
                   didYouMean(attr, std::vector<std::string>{
                                        "load", "store", "dtype", "shape",
                                        "strides", "block_shape",
                                        "block_type"}));
  }
  error(loc, object.describe() + " has no attribute '" + attr + "'");
}

Value IRGen::emitSubscript(const ast::SubscriptExpr &expr) {
  Value object = emitExpr(*expr.value);
  LocScope scope(*this, expr.lbracketLoc);
  if (object.is(Value::Kind::Tuple)) {
    if (expr.indices.size() != 1)
      error(expr.lbracketLoc, "a tuple takes one index");
    Value index = emitExpr(*expr.indices.front());
    int64_t i = requireInt(index, expr.indices.front()->loc, "a tuple index");
    int64_t size = int64_t(object.getElements().size());
    if (i < -size || i >= size)
      error(expr.indices.front()->loc,
            "tuple index " + std::to_string(i) + " is out of range for a "
                                                 "tuple of " +
                std::to_string(size));
    return object.getElements()[size_t(i < 0 ? i + size : i)];
  }
  if (object.isNumericConstant())
    object = toIR(object, expr.value->loc, "the subscripted value");
  if (!object.isIR())
    error(expr.value->loc, "cannot subscript " + object.describe());
  // Only `:` (keep a dimension) and None (insert one) are supported.
  int64_t fullSlices = 0;
  for (const ast::ExprPtr &index : expr.indices) {
    if (const auto *slice = index->getAs<ast::SliceExpr>()) {
      if (!slice->isFull())
        error(index->loc, "only ':' slices are supported on blocks");
      ++fullSlices;
    } else if (!index->is<ast::NoneLitExpr>()) {
      error(index->loc, "blocks can only be indexed with ':' and None "
                        "(e.g. x[:, None]); element access is not "
                        "supported");
    }
  }
  if (fullSlices > object.getType().getRank())
    error(expr.lbracketLoc, "too many ':' for " +
                                object.getType().toString() + " (rank " +
                                std::to_string(object.getType().getRank()) +
                                ")");
  Value result = object;
  int64_t axis = 0;
  for (const ast::ExprPtr &index : expr.indices) {
    if (index->is<ast::NoneLitExpr>())
      result = expandDims(result, axis, index->loc);
    ++axis;
  }
  return result;
}

//===----------------------------------------------------------------------===//
// Operators
//===----------------------------------------------------------------------===//

Value IRGen::emitUnary(const ast::UnaryExpr &expr) {
  Value operand = emitExpr(*expr.operand);
  return unaryOp(expr.op, operand, expr.loc);
}

Value IRGen::emitBinary(const ast::BinaryExpr &expr) {
  if (ast::isLogical(expr.op))
    return emitLogical(expr);
  Value lhs = emitExpr(*expr.lhs);
  Value rhs = emitExpr(*expr.rhs);
  LocScope scope(*this, expr.opLoc);
  return binaryOp(expr.op, lhs, rhs, expr.opLoc);
}

Value IRGen::emitLogical(const ast::BinaryExpr &expr) {
  bool isAnd = expr.op == ast::BinaryOpKind::And;
  const char *spelling = isAnd ? "and" : "or";
  Value lhs = emitExpr(*expr.lhs);
  if (lhs.isConstant()) {
    // Python: `a and b` is a if a is false, else b (b is not evaluated
    // when it does not matter).
    bool truthy = isTruthy(lhs, expr.lhs->loc);
    if (truthy != isAnd)
      return lhs;
    return emitExpr(*expr.rhs);
  }
  // On run-time values, as Triton's logical_and/logical_or: both sides are
  // evaluated and converted to i1 (`!= 0`), elementwise for blocks, which
  // broadcast together.
  auto truth = [&](const Value &value, SourceLoc loc) -> Value {
    if (value.isConstant())
      return Value::boolean(isTruthy(value, loc));
    if (value.getDType().isPointer())
      error(loc, std::string("an operand of '") + spelling +
                     "' must be a number, got " + value.getType().toString());
    if (value.getDType().isBool())
      return value;
    LocScope scope(*this, loc);
    return compare(ast::BinaryOpKind::Ne, value,
                   value.getDType().isFloat() ? Value::floating(0.0)
                                              : Value::integer(0),
                   loc);
  };
  Value a = truth(lhs, expr.lhs->loc);
  Value rhs = emitExpr(*expr.rhs);
  Value b = truth(rhs, expr.rhs->loc);
  LocScope scope(*this, expr.opLoc);
  return binaryOp(isAnd ? ast::BinaryOpKind::BitAnd : ast::BinaryOpKind::BitOr,
                  a, b, expr.opLoc);
}

Value IRGen::emitConditional(const ast::ConditionalExpr &expr) {
  Value cond = emitExpr(*expr.cond);
  if (cond.isConstant())
    return emitExpr(isTruthy(cond, expr.cond->loc) ? *expr.thenValue
                                                   : *expr.elseValue);
  Value a = emitExpr(*expr.thenValue);
  Value b = emitExpr(*expr.elseValue);
  LocScope scope(*this, expr.ifLoc);
  if (!cond.isBlock())
    cond = toCondition(cond, expr.cond->loc, "the condition of 'x if c "
                                             "else y'");
  return select(cond, a, b, expr.ifLoc);
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

bool BoundArgs::has(const std::string &name) const {
  auto it = values.find(name);
  return it != values.end() && !it->second.first.isNone();
}

const Value &BoundArgs::get(const std::string &name) const {
  static const Value none;
  auto it = values.find(name);
  return it == values.end() ? none : it->second.first;
}

SourceLoc BoundArgs::loc(const std::string &name) const {
  auto it = values.find(name);
  return it == values.end() ? callLoc : it->second.second;
}

CallArgs IRGen::evaluateArgs(const ast::CallExpr &call, SourceLoc calleeLoc) {
  CallArgs args;
  args.loc = calleeLoc;
  for (const ast::ExprPtr &arg : call.args) {
    args.positional.push_back(emitExpr(*arg));
    args.positionalLocs.push_back(arg->loc);
  }
  for (const ast::KeywordArg &kw : call.keywords) {
    args.keywords.emplace_back(kw.name, emitExpr(*kw.value));
    args.keywordLocs.push_back(kw.value->loc);
    args.keywordNameLocs.push_back(kw.loc);
  }
  return args;
}

BoundArgs IRGen::bindArgs(const std::string &calleeName,
                          const std::vector<std::string> &signature,
                          const CallArgs &args) {
  struct Param {
    std::string name;
    bool required;
    bool variadic;
  };
  std::vector<Param> params;
  size_t numPositional = 0;
  bool hasVariadic = false;
  for (const std::string &spec : signature) {
    Param param;
    param.variadic = !spec.empty() && spec[0] == '*';
    param.required = !param.variadic && spec.back() != '?';
    param.name = spec.substr(param.variadic ? 1 : 0,
                             spec.size() - (param.variadic ? 1 : 0) -
                                 (!param.variadic && !param.required ? 1 : 0));
    if (param.variadic)
      hasVariadic = true;
    else if (!hasVariadic)
      ++numPositional;
    params.push_back(param);
  }

  BoundArgs bound;
  bound.callLoc = args.loc;
  std::string callee = calleeName + "()";
  for (size_t i = 0; i < args.positional.size(); ++i) {
    if (i < numPositional) {
      bound.values[params[i].name] = {args.positional[i],
                                      args.positionalLocs[i]};
    } else if (hasVariadic) {
      bound.variadic.push_back(args.positional[i]);
      bound.variadicLocs.push_back(args.positionalLocs[i]);
    } else {
      error(args.positionalLocs[i],
            callee + " takes " +
                (numPositional == 0
                     ? std::string("no positional arguments")
                     : "at most " + std::to_string(numPositional) +
                           " positional argument" +
                           (numPositional == 1 ? "" : "s")) +
                " but " + std::to_string(args.positional.size()) +
                " were given");
    }
  }
  std::vector<std::string> keywordNames;
  for (const Param &param : params)
    if (!param.variadic)
      keywordNames.push_back(param.name);
  for (size_t i = 0; i < args.keywords.size(); ++i) {
    const std::string &name = args.keywords[i].first;
    auto it = std::find_if(params.begin(), params.end(), [&](const Param &p) {
      return !p.variadic && p.name == name;
    });
    if (it == params.end())
      error(args.keywordNameLocs[i], callee +
                                     " got an unexpected keyword argument '" +
                                     name + "'" +
                                     didYouMean(name, keywordNames));
    if (bound.values.count(name))
      error(args.keywordNameLocs[i],
            callee + " got multiple values for argument '" + name + "'");
    bound.values[name] = {args.keywords[i].second, args.keywordLocs[i]};
  }
  for (const Param &param : params)
    if (param.required && !bound.values.count(param.name))
      error(args.loc, callee + " missing required argument '" + param.name +
                          "'");
  return bound;
}

/// Whether `callee` is `NAME`, `tl.NAME` or `tk.NAME` and NAME is not a
/// local variable.
static bool isTypeConstructor(const ast::Expr &callee, const char *name,
                              const Env *env) {
  if (const auto *n = callee.getAs<ast::NameExpr>())
    return n->name == name && (!env || !env->count(n->name));
  if (const auto *attr = callee.getAs<ast::AttributeExpr>())
    if (const auto *ns = attr->value->getAs<ast::NameExpr>())
      return attr->attr == name &&
             (ns->name == "tl" || ns->name == "tk" ||
              ns->name == "triton") &&
             (!env || !env->count(ns->name));
  return false;
}

Value IRGen::emitCall(const ast::CallExpr &call) {
  // tl.constexpr(v) is v (a compile-time value); tl.pointer_type(T) is the
  // dtype *T.
  const Env *env = frames.empty() ? nullptr : &frame().env;
  for (const char *name : {"constexpr", "pointer_type"}) {
    if (!isTypeConstructor(*call.callee, name, env))
      continue;
    if (call.args.size() != 1 || !call.keywords.empty())
      error(call.callee->loc, std::string(name) + "() takes one argument");
    Value value = emitExpr(*call.args.front());
    if (std::string(name) == "constexpr") {
      if (!value.isConstant())
        error(call.args.front()->loc,
              "constexpr() needs a compile-time value, got a run-time " +
                  value.getType().toString());
      return value;
    }
    if (!value.is(Value::Kind::Type) || !value.getType().isScalar() ||
        value.getType().dtype.isPointer())
      error(call.args.front()->loc,
            "pointer_type() needs a scalar dtype, got " + value.describe());
    return Value::type(
        ValueType(DType::getPointer(value.getType().dtype.getScalar())));
  }
  SourceLoc calleeLoc = call.callee->loc;
  Value callee;
  std::optional<Value> self;
  bool isQualified = false;
  if (const auto *attr = call.callee->getAs<ast::AttributeExpr>()) {
    calleeLoc = attr->attrLoc;
    Value object = emitExpr(*attr->value);
    if (object.is(Value::Kind::Namespace)) {
      callee = getAttribute(object, attr->attr, attr->attrLoc);
      isQualified = true;
    } else if (object.isIR() || object.isNumericConstant()) {
      // A method: x.to(f16), x.sum(axis=0), ...
      std::optional<BuiltinId> id =
          attr->attr == "to" ? std::optional<BuiltinId>(BuiltinId::To)
                             : lookupBuiltin(attr->attr, true);
      if (!id || !(isTensorMethod(*id) || *id == BuiltinId::Cast))
        error(attr->attrLoc,
              (object.isIR() ? object.getType().toString()
                             : object.describe()) +
                  " has no method '" + attr->attr + "'");
      callee = Value::builtin(*id);
      self = object;
      isQualified = true;
    } else if (object.is(Value::Kind::TensorDescriptor) &&
               (attr->attr == "load" || attr->attr == "store")) {
      // desc.load(offsets), desc.store(offsets, value)
      callee = Value::builtin(attr->attr == "load"
                                  ? BuiltinId::LoadTensorDescriptor
                                  : BuiltinId::StoreTensorDescriptor);
      self = object;
      isQualified = true;
    } else {
      callee = getAttribute(object, attr->attr, attr->attrLoc);
    }
  } else if (const auto *name = call.callee->getAs<ast::NameExpr>()) {
    bool known = (!frames.empty() && frame().env.count(name->name)) ||
                 lookupGlobal(name->name) || module.findImport(name->name) ||
                 (!frames.empty() &&
                  frame().undefinedReasons.count(name->name));
    if (!known) {
      std::vector<std::string> candidates;
      for (const auto &fn : module.functions)
        candidates.push_back(fn->name);
      for (const std::string &builtin : getAllBuiltinNames())
        if (lookupBuiltin(builtin, false))
          candidates.push_back(builtin);
      error(name->loc, "unknown function '" + name->name + "'" +
                           didYouMean(name->name, candidates));
    }
    callee = emitExpr(*call.callee);
  } else {
    callee = emitExpr(*call.callee);
  }

  CallArgs args = evaluateArgs(call, calleeLoc);
  if (self) {
    args.positional.insert(args.positional.begin(), *self);
    args.positionalLocs.insert(args.positionalLocs.begin(),
                               call.callee->loc);
  }
  LocScope scope(*this, calleeLoc);
  switch (callee.getKind()) {
  case Value::Kind::Builtin: {
    BuiltinId id = callee.getBuiltin();
    // Unqualified min/max on scalars are Python's: the smaller/larger of
    // the arguments (the seed matmul's `min(num_pid_m - first, GROUP_M)`).
    if ((id == BuiltinId::Max || id == BuiltinId::Min) && !isQualified &&
        args.keywords.empty() && args.positional.size() >= 2 &&
        !args.positional.front().isBlock()) {
      Value result = args.positional.front();
      for (size_t i = 1; i < args.positional.size(); ++i)
        result = maximumOrMinimum(id == BuiltinId::Max, result,
                                  args.positional[i], /*propagateNan=*/true,
                                  args.positionalLocs[i]);
      return result;
    }
    return callBuiltin(id, args, calleeLoc);
  }
  case Value::Kind::Function:
    return callFunction(*callee.getFunction(), args, calleeLoc);
  case Value::Kind::LibdeviceFunction:
    return callLibdevice(callee.getLibdeviceName(), args, calleeLoc);
  case Value::Kind::Type:
    error(calleeLoc, "'" + callee.getType().toString() +
                         "' is a type, not a function; to convert a value "
                         "use x.to(" +
                         callee.getType().toString() + ")");
  default:
    error(calleeLoc, "cannot call " + callee.describe());
  }
}

//===----------------------------------------------------------------------===//
// Helper inlining
//===----------------------------------------------------------------------===//

/// Converts an argument (or return value) to a type annotation.
static Value applyAnnotation(IRGen &gen, const ast::TypeExpr &type,
                             const Value &value, SourceLoc loc,
                             const std::string &what,
                             const std::map<std::string, Value> &constants) {
  if (type.kind == ast::TypeExpr::Kind::Constexpr) {
    // A run-time value passed for a constexpr helper parameter stays a
    // run-time value (Triton tolerates this, and tutorial 06 relies on
    // it); code that needs a constant there reports it where it does.
    return value;
  }
  DType expected = gen.resolveAnnotation(type, constants, what);
  if (value.isNumericConstant() && !expected.isPointer())
    return gen.materialize(value, expected, loc);
  if (!value.isIR())
    gen.error(loc, what + " must be " + expected.toString() + ", got " +
                       value.describe());
  if (value.getDType() != expected || value.isBlock())
    gen.error(loc, what + " must be " + expected.toString() + ", got " +
                       value.getType().toString() +
                       (value.isBlock() || expected.isPointer()
                            ? ""
                            : "; convert it with .to(" +
                                  expected.toString() + ")"));
  return value;
}

Value IRGen::callFunction(const ast::FunctionDef &fn, const CallArgs &args,
                          SourceLoc callLoc) {
  if (fn.parseError)
    throw CompileError(*fn.parseError).addNote(callLoc, "called from here");
  for (const ast::Decorator &decorator : fn.decorators) {
    std::string name = decorator.name;
    size_t dot = name.rfind('.');
    std::string base = dot == std::string::npos ? name : name.substr(dot + 1);
    if (base == "kernel")
      throw CompileError(callLoc, "cannot call kernel '" + fn.name +
                                      "' from device code; only helpers "
                                      "(functions without @kernel) can be "
                                      "called")
          .addNote(fn.loc, "'" + fn.name + "' is defined here");
    if (base != "jit")
      error(decorator.loc, "unsupported decorator '@" + decorator.name +
                               "' on helper '" + fn.name + "'");
  }
  auto onStack = std::find(callStack.begin(), callStack.end(), &fn);
  if (onStack != callStack.end()) {
    std::string chain;
    for (auto it = onStack; it != callStack.end(); ++it)
      chain += (*it)->name + " -> ";
    chain += fn.name;
    throw CompileError(callLoc, "recursive call to '" + fn.name + "' (" +
                                    chain + ") is not supported")
        .addNote(fn.loc, "'" + fn.name + "' is defined here");
  }

  std::vector<std::string> signature;
  for (const ast::Param &param : fn.params)
    signature.push_back(param.defaultValue ? param.name + "?" : param.name);
  BoundArgs bound = bindArgs(fn.name, signature, args);

  Frame calleeFrame;
  calleeFrame.function = &fn;
  calleeFrame.callerLoc = getLoc(callLoc);
  // The arguments first, then their annotations, which may name a
  // dtype-valued parameter (`x: *DTYPE`).
  std::map<std::string, Value> arguments;
  std::map<std::string, SourceLoc> argumentLocs;
  for (const ast::Param &param : fn.params) {
    auto it = bound.values.find(param.name);
    if (it != bound.values.end()) {
      arguments[param.name] = it->second.first;
      argumentLocs[param.name] = it->second.second;
    } else {
      arguments[param.name] = evaluateConstant(
          *param.defaultValue,
          "the default of parameter '" + param.name + "'");
      argumentLocs[param.name] = callLoc;
    }
  }
  for (const ast::Param &param : fn.params) {
    Value value = arguments[param.name];
    if (param.type)
      value = applyAnnotation(*this, *param.type, value,
                              argumentLocs[param.name],
                              "argument '" + param.name + "' of '" + fn.name +
                                  "'",
                              arguments);
    calleeFrame.env[param.name] = {value, param.loc};
  }

  callStack.push_back(&fn);
  frames.push_back(std::move(calleeFrame));
  Value result;
  try {
    emitBlock(fn.body);
    result = frame().returnValue;
    if (fn.returnType) {
      LocScope scope(*this, fn.returnType->loc);
      result = applyAnnotation(*this, *fn.returnType, result,
                               fn.returnType->loc,
                               "the result of '" + fn.name + "'", arguments);
    }
  } catch (CompileError &e) {
    frames.pop_back();
    callStack.pop_back();
    e.addNote(callLoc, "called from here");
    throw;
  }
  frames.pop_back();
  callStack.pop_back();
  return result;
}

} // namespace tk::irgen
