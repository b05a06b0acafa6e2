//===- IRGenStmt.cpp - statements and control flow ------------------------===//
//
// Control flow follows Triton's code generator:
//  * `if` with a compile-time condition emits only the taken branch (the
//    other one is not even checked). With a run-time condition it becomes
//    scf.if, yielding every variable that the branches change; a variable
//    first defined in only one branch is not visible after the `if`.
//  * `for i in static_range(...)` unrolls; `for i in range(...)` becomes
//    scf.for and `while` becomes scf.while. Variables defined before the
//    loop and assigned in its body are loop-carried and must keep their
//    type; variables first defined in the body are local to it.
//    A compile-time constant (`m = -inf`) assigned a new value in the body
//    becomes a run-time value of its literal type. That is only known after
//    emitting the body once, so the loop is emitted again when it happens.
//  * `break` and `continue` are not supported, as in Triton; `return` is
//    supported outside loops, run-time `if`s included (see emitRuntimeIf).
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/IRGenImpl.h"

#include "dialects/tk/TkDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <algorithm>

namespace tk::irgen {

using sema::DType;
using sema::ValueType;

//===----------------------------------------------------------------------===//
// Blocks and simple statements
//===----------------------------------------------------------------------===//

static void collectAssignedNamesImpl(const ast::StmtList &body,
                                     std::vector<std::string> &names,
                                     std::set<std::string> &seen) {
  auto add = [&](const std::string &name) {
    if (seen.insert(name).second)
      names.push_back(name);
  };
  for (const ast::StmtPtr &stmt : body) {
    switch (stmt->kind) {
    case ast::StmtKind::Assign:
      for (const ast::Identifier &target : stmt->as<ast::AssignStmt>().targets)
        add(target.name);
      break;
    case ast::StmtKind::AugAssign:
      add(stmt->as<ast::AugAssignStmt>().target.name);
      break;
    case ast::StmtKind::If: {
      const auto &ifStmt = stmt->as<ast::IfStmt>();
      collectAssignedNamesImpl(ifStmt.thenBody, names, seen);
      collectAssignedNamesImpl(ifStmt.elseBody, names, seen);
      break;
    }
    case ast::StmtKind::For: {
      const auto &forStmt = stmt->as<ast::ForStmt>();
      add(forStmt.target.name);
      collectAssignedNamesImpl(forStmt.body, names, seen);
      break;
    }
    case ast::StmtKind::While:
      collectAssignedNamesImpl(stmt->as<ast::WhileStmt>().body, names, seen);
      break;
    default:
      break;
    }
  }
}

std::vector<std::string> collectAssignedNames(const ast::StmtList &body) {
  std::vector<std::string> names;
  std::set<std::string> seen;
  collectAssignedNamesImpl(body, names, seen);
  return names;
}

/// The first `return` anywhere in `body` (nested statements included).
static const ast::Stmt *findReturn(const ast::StmtList &body) {
  for (const ast::StmtPtr &stmt : body) {
    const ast::Stmt *found = nullptr;
    switch (stmt->kind) {
    case ast::StmtKind::Return:
      return stmt.get();
    case ast::StmtKind::If: {
      const auto &ifStmt = stmt->as<ast::IfStmt>();
      found = findReturn(ifStmt.thenBody);
      if (!found)
        found = findReturn(ifStmt.elseBody);
      break;
    }
    case ast::StmtKind::For:
      found = findReturn(stmt->as<ast::ForStmt>().body);
      break;
    case ast::StmtKind::While:
      found = findReturn(stmt->as<ast::WhileStmt>().body);
      break;
    default:
      break;
    }
    if (found)
      return found;
  }
  return nullptr;
}

void IRGen::emitBlock(const ast::StmtList &body) {
  std::vector<const ast::Stmt *> stmts;
  for (const ast::StmtPtr &stmt : body)
    stmts.push_back(stmt.get());
  emitSequence(stmts);
}

void IRGen::emitSequence(const std::vector<const ast::Stmt *> &stmts) {
  for (size_t i = 0; i < stmts.size(); ++i) {
    // Statements after a `return` never run (this is how a `return` inside
    // a compile-time `if` ends the function, and how a run-time `if` that
    // returns, having emitted the rest of the function in its branches,
    // ends it).
    if (frame().returned)
      return;
    // While stmts[i] is emitted, `pending` is everything after it.
    std::vector<const ast::Stmt *> outer = frame().pending;
    frame().pending.insert(frame().pending.begin(), stmts.begin() + i + 1,
                           stmts.end());
    emitStmt(*stmts[i]);
    frame().pending = std::move(outer);
  }
}

void IRGen::emitStmt(const ast::Stmt &stmt) {
  LocScope scope(*this, stmt.loc);
  switch (stmt.kind) {
  case ast::StmtKind::Expr:
    emitExpr(*stmt.as<ast::ExprStmt>().value);
    return;
  case ast::StmtKind::Assign:
    emitAssign(stmt.as<ast::AssignStmt>());
    return;
  case ast::StmtKind::AugAssign:
    emitAugAssign(stmt.as<ast::AugAssignStmt>());
    return;
  case ast::StmtKind::If:
    emitIf(stmt.as<ast::IfStmt>());
    return;
  case ast::StmtKind::For:
    emitFor(stmt.as<ast::ForStmt>());
    return;
  case ast::StmtKind::While:
    emitWhile(stmt.as<ast::WhileStmt>());
    return;
  case ast::StmtKind::Return:
    emitReturn(stmt.as<ast::ReturnStmt>());
    return;
  case ast::StmtKind::Pass:
    return;
  case ast::StmtKind::Break:
    error(stmt.loc, "'break' is not supported (nor is it in Triton); "
                    "express the exit in the loop condition or with a mask");
  case ast::StmtKind::Continue:
    error(stmt.loc, "'continue' is not supported (nor is it in Triton); "
                    "guard the rest of the body with an 'if' instead");
  }
}

void IRGen::assign(const std::string &name, SourceLoc loc,
                   const Value &value) {
  if (value.is(Value::Kind::Function) || value.is(Value::Kind::Builtin) ||
      value.is(Value::Kind::LibdeviceFunction) ||
      value.is(Value::Kind::Namespace))
    error(loc, "cannot assign " + value.describe() + " to '" + name +
                   "': variables hold values, not functions");
  // Locals may shadow builtins and the file's functions (`min = load(p)`),
  // as in Python; only the namespaces tl, tk and triton are reserved, since
  // every qualified name goes through them.
  if (!frame().env.count(name)) {
    std::optional<Value> global = lookupGlobal(name);
    if (global && global->is(Value::Kind::Namespace))
      error(loc, "cannot assign to '" + name + "': it is the name of a "
                 "namespace; choose another name");
  }
  frame().env[name] = {value, loc};
  frame().undefinedReasons.erase(name);
}

/// Whether an annotation names `constexpr` (`constexpr`, `tl.constexpr`).
static bool isConstexprAnnotation(const ast::Expr &annotation) {
  if (auto *name = annotation.getAs<ast::NameExpr>())
    return name->name == "constexpr";
  if (auto *attr = annotation.getAs<ast::AttributeExpr>())
    return attr->attr == "constexpr";
  return false;
}

void IRGen::emitAssign(const ast::AssignStmt &stmt) {
  Value value = emitExpr(*stmt.value);
  if (stmt.annotation) {
    // `x: constexpr = v` (as Triton: v must be a compile-time value and x
    // cannot be rebound to another one), `y: T = v` (v converted to dtype T,
    // as with v.to(T)).
    const ast::Identifier &target = stmt.targets.front();
    const ast::Expr &annotation = *stmt.annotation;
    if (isConstexprAnnotation(annotation)) {
      if (!value.isConstant())
        error(stmt.value->loc, "'" + target.name + "' is annotated constexpr "
                               "but its value is a run-time " +
                                   value.getType().toString());
      auto it = frame().env.find(target.name);
      if (it != frame().env.end() && !it->second.value.isSameConstant(value))
        throw CompileError(target.loc, "'" + target.name +
                                           "' is already defined; a "
                                           "constexpr cannot be reassigned")
            .addNote(it->second.loc, "defined here");
    } else {
      Value type = emitExpr(annotation);
      if (!type.is(Value::Kind::Type) || !type.getType().isScalar())
        error(annotation.loc, "the annotation of '" + target.name +
                                  "' must be a dtype (tl.int32, f16, ...) "
                                  "or constexpr, got " + type.describe());
      LocScope scope(*this, annotation.loc);
      if (value.isConstant() && !value.isNumericConstant())
        error(stmt.value->loc, "cannot assign " + value.describe() +
                                   " to '" + target.name + "' annotated " +
                                   type.getType().dtype.toString());
      value = cast(value, type.getType().dtype, annotation.loc);
    }
    assign(target.name, target.loc, value);
    return;
  }
  if (!stmt.isTupleTarget) {
    assign(stmt.targets.front().name, stmt.targets.front().loc, value);
    return;
  }
  if (!value.is(Value::Kind::Tuple))
    error(stmt.value->loc, "cannot unpack " + value.describe() + " into " +
                               std::to_string(stmt.targets.size()) +
                               " names");
  const std::vector<Value> &elements = value.getElements();
  if (elements.size() != stmt.targets.size())
    error(stmt.eqLoc, "cannot unpack a tuple of " +
                          std::to_string(elements.size()) + " values into " +
                          std::to_string(stmt.targets.size()) + " names");
  for (size_t i = 0; i < elements.size(); ++i)
    assign(stmt.targets[i].name, stmt.targets[i].loc, elements[i]);
}

void IRGen::emitAugAssign(const ast::AugAssignStmt &stmt) {
  Value current = lookupName(stmt.target.name, stmt.target.loc);
  Value rhs = emitExpr(*stmt.value);
  LocScope scope(*this, stmt.opLoc);
  Value result = binaryOp(stmt.op, current, rhs, stmt.opLoc);
  assign(stmt.target.name, stmt.target.loc, result);
}

void IRGen::emitReturn(const ast::ReturnStmt &stmt) {
  if (frame().runtimeDepth > 0)
    error(stmt.loc, "'return' inside a loop is not supported (nor is it in "
                    "Triton); compute the value and return after the loop");
  Value value = stmt.value ? emitExpr(*stmt.value) : Value::none();
  frame().returned = true;
  frame().returnValue = value;
  frame().returnLoc = stmt.loc;
}

//===----------------------------------------------------------------------===//
// Merging variables at the end of regions
//===----------------------------------------------------------------------===//

/// "at 12:5" for messages about places in the same file.
static std::string at(SourceLoc loc) {
  return "at " + std::to_string(loc.line) + ":" + std::to_string(loc.col);
}

/// Whether a variable's value differs between two environments.
static bool changed(const Env &before, const Env &after,
                    const std::string &name) {
  auto a = before.find(name), b = after.find(name);
  if (a == before.end() || b == after.end())
    return a != b;
  return !a->second.value.isSameConstant(b->second.value);
}

//===----------------------------------------------------------------------===//
// if
//===----------------------------------------------------------------------===//

void IRGen::emitIf(const ast::IfStmt &stmt) {
  Value cond = emitExpr(*stmt.cond);
  if (cond.isConstant()) {
    emitBlock(isTruthy(cond, stmt.cond->loc) ? stmt.thenBody : stmt.elseBody);
    return;
  }
  emitRuntimeIf(stmt, cond);
}

// A run-time `if` that contains a `return` (Triton 3.6 accepts it) is made
// structured: each branch is emitted followed by the rest of the function
// (`pending`), so that every path through it ends the function, and what
// each path returns leaves the scf.if as one more yielded "variable" (a
// tuple as one per element). After it the function has returned. The rest
// of the function is emitted once per branch that does not return on all
// of its paths; that is the price of staying within scf.

/// The pseudo-variables that carry a returned value out of a run-time `if`
/// ('<' cannot start a source name).
static const char kReturnArity[] = "<return>#";
static std::string returnElement(size_t i) {
  return "<return>." + std::to_string(i);
}
static bool isReturnSlot(const std::string &name) {
  return name.rfind("<return>", 0) == 0;
}
/// "variable 'x'", or "the returned value".
static std::string describeVariable(const std::string &name) {
  return isReturnSlot(name) ? std::string("the returned value")
                            : "variable '" + name + "'";
}

void IRGen::emitRuntimeIf(const ast::IfStmt &stmt, const Value &condValue) {
  Value cond = toCondition(condValue, stmt.cond->loc, "the condition of 'if'");
  const ast::Stmt *returnStmt = findReturn(stmt.thenBody);
  if (!returnStmt)
    returnStmt = findReturn(stmt.elseBody);
  bool returns = returnStmt != nullptr;
  if (returns && frame().runtimeDepth > 0)
    error(returnStmt->loc, "'return' inside a loop is not supported (nor is "
                           "it in Triton); compute the value and return "
                           "after the loop");
  std::vector<const ast::Stmt *> rest;
  if (returns)
    rest = frame().pending;
  auto ifOp = mlir::scf::IfOp::create(builder, mlir::TypeRange{},
                                      cond.getIR(), /*addThenBlock=*/true,
                                      /*addElseBlock=*/true);
  Env saved = frame().env;
  auto savedReasons = frame().undefinedReasons;

  auto emitBranch = [&](const ast::StmtList &body, mlir::Block *block) {
    frame().env = saved;
    frame().undefinedReasons = savedReasons;
    mlir::OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(block);
    std::vector<const ast::Stmt *> stmts;
    for (const ast::StmtPtr &s : body)
      stmts.push_back(s.get());
    stmts.insert(stmts.end(), rest.begin(), rest.end());
    std::vector<const ast::Stmt *> outer = std::move(frame().pending);
    frame().pending.clear();
    emitSequence(stmts);
    frame().pending = std::move(outer);
    if (returns) {
      // A path that falls off the end of the function returns None.
      Value result = frame().returned ? frame().returnValue : Value::none();
      SourceLoc loc = frame().returned ? frame().returnLoc : stmt.loc;
      if (result.is(Value::Kind::Tuple)) {
        const std::vector<Value> &elements = result.getElements();
        frame().env[kReturnArity] = {Value::integer(int64_t(elements.size())),
                                     loc};
        for (size_t i = 0; i < elements.size(); ++i)
          frame().env[returnElement(i)] = {elements[i], loc};
      } else {
        frame().env[kReturnArity] = {Value::integer(-1), loc};
        frame().env[returnElement(0)] = {result, loc};
      }
      frame().returned = false;
      frame().returnValue = Value::none();
    }
    return frame().env;
  };
  Env thenEnv = emitBranch(stmt.thenBody, &ifOp.getThenRegion().front());
  Env elseEnv = emitBranch(stmt.elseBody, &ifOp.getElseRegion().front());

  // Which variables leave the `if` with a new value.
  Env merged = saved;
  auto reasons = savedReasons;
  std::vector<std::string> yielded;
  // In order of first assignment in the source, then any others.
  std::vector<std::string> names = collectAssignedNames(stmt.thenBody);
  for (const std::string &name : collectAssignedNames(stmt.elseBody))
    if (std::find(names.begin(), names.end(), name) == names.end())
      names.push_back(name);
  for (const Env *env : {&thenEnv, &elseEnv})
    for (const auto &entry : *env)
      if (std::find(names.begin(), names.end(), entry.first) == names.end())
        names.push_back(entry.first);
  for (const std::string &name : names) {
    bool inThen = thenEnv.count(name), inElse = elseEnv.count(name);
    if (isReturnSlot(name) && (!inThen || !inElse)) {
      const Binding &binding = inThen ? thenEnv[name] : elseEnv[name];
      throw CompileError(stmt.loc, "the branches of this 'if' return tuples "
                                   "of different lengths")
          .addNote(binding.loc, "returned here");
    }
    if (!inThen || !inElse) {
      const Binding &binding = inThen ? thenEnv[name] : elseEnv[name];
      reasons[name] = "'" + name + "' is assigned " + at(binding.loc) +
                      " in only one branch of the 'if' " + at(stmt.loc) +
                      ", so it is not defined after it; assign it before "
                      "the 'if' or in both branches";
      merged.erase(name);
      continue;
    }
    if (!changed(saved, thenEnv, name) && !changed(saved, elseEnv, name))
      continue;
    if (thenEnv[name].value.isSameConstant(elseEnv[name].value)) {
      merged[name] = thenEnv[name];
      continue;
    }
    yielded.push_back(name);
  }

  // The type of each yielded variable; constants adapt to the other branch.
  std::vector<mlir::Value> thenValues, elseValues;
  std::vector<ValueType> types;
  for (const std::string &name : yielded) {
    Binding &a = thenEnv[name], &b = elseEnv[name];
    ValueType type;
    if (a.value.isIR() && b.value.isIR()) {
      if (a.value.getType() != b.value.getType())
        throw CompileError(stmt.loc,
                           describeVariable(name) + " is " +
                               a.value.getType().toString() +
                               " after the 'then' branch of this 'if' but " +
                               b.value.getType().toString() +
                               " after the 'else' branch; " +
                               (isReturnSlot(name)
                                    ? "a function must return one type"
                                    : "a variable must have one type after "
                                      "an 'if'"))
            .addNote(a.loc, std::string(isReturnSlot(name) ? "returned"
                                                           : "assigned") +
                                " here in the 'then' branch")
            .addNote(b.loc, std::string(isReturnSlot(name) ? "returned"
                                                           : "assigned") +
                                " here in the 'else' branch");
      type = a.value.getType();
    } else if (a.value.isIR() || b.value.isIR()) {
      type = (a.value.isIR() ? a.value : b.value).getType();
      const Binding &constant = a.value.isIR() ? b : a;
      if (!constant.value.isNumericConstant() || !type.isScalar())
        throw CompileError(stmt.loc,
                           describeVariable(name) + " is " + type.toString() +
                               " in one branch of this 'if' but " +
                               constant.value.describe() +
                               " in the other; a variable must have one "
                               "type after an 'if'")
            .addNote(constant.loc, "assigned here");
    } else {
      if (!a.value.isNumericConstant() || !b.value.isNumericConstant())
        throw CompileError(stmt.loc,
                           describeVariable(name) +
                               " is set to different compile-time values (" +
                               a.value.constantToString() + " and " +
                               b.value.constantToString() +
                               ") in the branches of a run-time 'if'")
            .addNote(a.loc, "assigned here")
            .addNote(b.loc, "and here");
      std::string message;
      std::optional<DType> common = sema::computeCommonType(
          {getLiteralType(a.value), false}, {getLiteralType(b.value), false},
          false, "if", message);
      type = ValueType(*common);
    }
    types.push_back(type);
    auto materializeIn = [&](mlir::Block *block, const Binding &binding) {
      if (binding.value.isIR())
        return binding.value.getIR();
      mlir::OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToEnd(block);
      LocScope scope(*this, binding.loc);
      return materialize(binding.value, type.dtype, binding.loc).getIR();
    };
    thenValues.push_back(materializeIn(&ifOp.getThenRegion().front(), a));
    elseValues.push_back(materializeIn(&ifOp.getElseRegion().front(), b));
  }

  // The final scf.if with results; the branches move into it.
  std::vector<mlir::Type> resultTypes;
  for (const ValueType &type : types)
    resultTypes.push_back(getMLIRType(type));
  auto finalIf =
      mlir::scf::IfOp::create(builder, resultTypes, cond.getIR(),
                              /*addThenBlock=*/false, /*addElseBlock=*/false);
  finalIf.getThenRegion().takeBody(ifOp.getThenRegion());
  finalIf.getElseRegion().takeBody(ifOp.getElseRegion());
  ifOp.erase();
  {
    mlir::OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(&finalIf.getThenRegion().front());
    mlir::scf::YieldOp::create(builder, thenValues);
    builder.setInsertionPointToEnd(&finalIf.getElseRegion().front());
    mlir::scf::YieldOp::create(builder, elseValues);
  }
  for (size_t i = 0; i < yielded.size(); ++i) {
    SourceLoc loc = thenEnv[yielded[i]].loc;
    merged[yielded[i]] = {Value::ir(finalIf.getResult(i), types[i]), loc};
  }
  frame().env = std::move(merged);
  frame().undefinedReasons = std::move(reasons);
  if (!returns)
    return;
  // The function ends here: collect what it returns.
  Env &env = frame().env;
  int64_t arity = env[kReturnArity].value.getInt();
  Value result;
  if (arity < 0) {
    result = env[returnElement(0)].value;
  } else {
    std::vector<Value> elements;
    for (int64_t i = 0; i < arity; ++i)
      elements.push_back(env[returnElement(size_t(i))].value);
    result = Value::tuple(std::move(elements));
  }
  for (auto it = env.begin(); it != env.end();)
    it = isReturnSlot(it->first) ? env.erase(it) : std::next(it);
  frame().returned = true;
  frame().returnValue = result;
  frame().returnLoc = stmt.loc;
}

//===----------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------===//

void IRGen::emitFor(const ast::ForStmt &stmt) {
  const auto *call = stmt.iter->getAs<ast::CallExpr>();
  Value callee = call ? emitExpr(*call->callee) : Value();
  bool isRange = callee.is(Value::Kind::Builtin) &&
                 (callee.getBuiltin() == BuiltinId::Range ||
                  callee.getBuiltin() == BuiltinId::StaticRange);
  if (!isRange)
    error(stmt.iter->loc, "a 'for' loop must iterate over range(...) or "
                          "static_range(...)");
  SourceLoc calleeLoc = call->callee->loc;
  if (const auto *attr = call->callee->getAs<ast::AttributeExpr>())
    calleeLoc = attr->attrLoc;
  CallArgs args = evaluateArgs(*call, calleeLoc);
  BuiltinId id = callee.getBuiltin();
  BoundArgs bound = bindArgs(getBuiltinName(id), getBuiltinSignature(id), args);
  if (id == BuiltinId::StaticRange)
    emitStaticFor(stmt, bound);
  else
    emitRangeFor(stmt, bound);
}

void IRGen::emitStaticFor(const ast::ForStmt &stmt, const BoundArgs &args) {
  int64_t start = 0, end, step = 1;
  auto get = [&](const char *name) {
    const Value &value = args.get(name);
    if (!value.is(Value::Kind::Int) && !value.is(Value::Kind::Bool))
      error(args.loc(name), "static_range() bounds must be compile-time "
                            "integers, got " +
                                value.describe() +
                                "; use range() for run-time bounds");
    return value.getIntLike();
  };
  if (args.has("arg2")) {
    start = get("arg1");
    end = get("arg2");
  } else {
    end = get("arg1");
  }
  if (args.has("step"))
    step = get("step");
  if (step == 0)
    error(args.loc("step"), "static_range() step must not be zero");
  constexpr int64_t kMaxUnroll = 4096;
  int64_t count = 0;
  for (int64_t i = start; step > 0 ? i < end : i > end; i += step) {
    if (++count > kMaxUnroll)
      error(stmt.iter->loc, "static_range() would unroll more than " +
                                std::to_string(kMaxUnroll) +
                                " iterations; use range()");
    assign(stmt.target.name, stmt.target.loc, Value::integer(i));
    ++frame().runtimeDepth; // a return would skip the other copies
    emitBlock(stmt.body);
    --frame().runtimeDepth;
    if (frame().returned)
      error(stmt.loc, "'return' inside a static_range loop is not "
                      "supported");
  }
}

namespace {

/// The variables carried around one attempt at emitting a loop.
struct LoopCarries {
  std::vector<std::string> names;
  std::vector<Value> inits;
  std::vector<mlir::Value> initValues;
  std::vector<ValueType> types;
  std::vector<mlir::Type> mlirTypes;
  /// -1, or which carried part of the block pointer `names[i]` this is
  /// (IRGenBlockPointer.cpp); the pointers themselves, at the loop entry.
  std::vector<int> parts;
  std::map<std::string, Value> blockPointers;
};

/// Binds the carried variables to `values` (region arguments or the loop's
/// results); a block pointer gets its carried parts replaced.
void bindCarries(Env &env, const LoopCarries &carries,
                 mlir::ValueRange values) {
  std::map<std::string, std::vector<Value>> parts;
  for (size_t i = 0; i < carries.names.size(); ++i) {
    Value value = Value::ir(values[i], carries.types[i]);
    if (carries.parts[i] < 0)
      env[carries.names[i]].value = value;
    else
      parts[carries.names[i]].push_back(value);
  }
  for (auto &[name, leaves] : parts)
    env[name].value = withCarriedParts(carries.blockPointers.at(name), leaves);
}

} // namespace

/// Picks the carried variables among `candidates` (names defined before the
/// loop and assigned in it): run-time values always, compile-time constants
/// when a previous attempt saw them change. Constants become run-time
/// values here, before the loop.
static LoopCarries prepareCarries(IRGen &gen,
                                  const std::vector<std::string> &candidates,
                                  const std::set<std::string> &forced) {
  LoopCarries carries;
  // One carried value: `init` (materialized if a constant) of variable
  // `name`, or of part `part` of its block pointer (-1: the variable).
  auto carry = [&](const std::string &name, const Binding &binding,
                   Value init, int part) {
    if (!init.isIR()) {
      IRGen::LocScope scope(gen, binding.loc);
      init = gen.materialize(init, gen.getLiteralType(init), binding.loc);
    }
    carries.names.push_back(name);
    carries.inits.push_back(init);
    carries.initValues.push_back(init.getIR());
    carries.types.push_back(init.getType());
    carries.mlirTypes.push_back(init.getIR().getType());
    carries.parts.push_back(part);
  };
  for (const std::string &name : candidates) {
    const Binding &binding = gen.frame().env.at(name);
    if (binding.value.is(Value::Kind::BlockPointer)) {
      carries.blockPointers[name] = binding.value;
      for (size_t part : getCarriedParts(binding.value))
        carry(name, binding, getCarriedPart(binding.value, part), int(part));
      continue;
    }
    if (!binding.value.isIR() && !forced.count(name))
      continue;
    carry(name, binding, binding.value, -1);
  }
  return carries;
}

/// Constants among `candidates` that the body changed but that were not
/// carried: the loop must be emitted again with them carried.
static std::vector<std::string>
findChangedConstants(IRGen &gen, const std::vector<std::string> &candidates,
                     const LoopCarries &carries, const Env &before,
                     SourceLoc loopLoc) {
  std::vector<std::string> result;
  for (const std::string &name : candidates) {
    if (std::find(carries.names.begin(), carries.names.end(), name) !=
        carries.names.end())
      continue;
    if (!changed(before, gen.frame().env, name))
      continue;
    const Binding &old = before.at(name);
    if (!old.value.isNumericConstant())
      throw CompileError(gen.frame().env.count(name)
                             ? gen.frame().env.at(name).loc
                             : loopLoc,
                         "variable '" + name + "' holds " +
                             old.value.describe() +
                             " and cannot change inside a loop")
          .addNote(loopLoc, "in this loop");
    result.push_back(name);
  }
  return result;
}

/// The values of the carried variables at the end of the body, converted
/// to their types at the loop entry; a type change is an error.
static std::vector<mlir::Value> collectYields(IRGen &gen,
                                              const LoopCarries &carries,
                                              SourceLoc loopLoc) {
  std::vector<mlir::Value> values;
  for (size_t i = 0; i < carries.names.size(); ++i) {
    const std::string &name = carries.names[i];
    auto it = gen.frame().env.find(name);
    const Binding &binding = it->second;
    const ValueType &type = carries.types[i];
    Value value = binding.value;
    if (carries.parts[i] >= 0) {
      const Value &entry = carries.blockPointers.at(name);
      bool same = value.is(Value::Kind::BlockPointer);
      for (size_t e = 0; same && e < entry.getElements().size(); ++e)
        same = e == 3 || value.getElements()[e].isSameConstant(
                             entry.getElements()[e]);
      if (!same)
        throw CompileError(binding.loc,
                           "the block pointer '" + name +
                               "' can only change its offsets (advance) "
                               "inside a loop")
            .addNote(loopLoc, "in this loop");
      value = getCarriedPart(value, size_t(carries.parts[i]));
    }
    if (value.isNumericConstant() && type.isScalar()) {
      IRGen::LocScope scope(gen, binding.loc);
      value = gen.materialize(value, type.dtype, binding.loc);
    }
    if (!value.isIR() || value.getType() != type)
      throw CompileError(binding.loc,
                         "loop-carried variable '" + name + "' is " +
                             type.toString() + " before the loop but " +
                             (value.isIR() ? value.getType().toString()
                                           : value.describe()) +
                             " after this assignment; a variable must keep "
                             "its type across iterations (initialize it "
                             "with the final type before the loop)")
          .addNote(loopLoc, "in this loop");
    values.push_back(value.getIR());
  }
  return values;
}

/// After the loop: carried variables take the loop's results, variables
/// first defined in the body are not visible.
static void finishLoop(IRGen &gen, const Env &before,
                       const std::map<std::string, std::string> &reasons,
                       const Env &bodyEnv, const LoopCarries &carries,
                       mlir::ValueRange results, SourceLoc loopLoc,
                       const std::string &loopVar) {
  Env env = before;
  auto undefined = reasons;
  for (size_t i = 0; i < carries.names.size(); ++i)
    env[carries.names[i]].loc = bodyEnv.at(carries.names[i]).loc;
  bindCarries(env, carries, results);
  for (const auto &[name, binding] : bodyEnv) {
    if (before.count(name))
      continue;
    undefined[name] =
        "'" + name + "' is " +
        (name == loopVar ? std::string("the variable of the loop ")
                         : "first assigned " + at(binding.loc) +
                               " inside the loop ") +
        at(loopLoc) +
        ", so it is not defined after the loop; assign it before the loop "
        "to carry it out";
  }
  gen.frame().env = std::move(env);
  gen.frame().undefinedReasons = std::move(undefined);
}

/// The names assigned in `body` that exist before the loop.
static std::vector<std::string>
getLoopCandidates(IRGen &gen, const ast::StmtList &body,
                  const std::string &exclude) {
  std::vector<std::string> candidates;
  for (const std::string &name : collectAssignedNames(body))
    if (name != exclude && gen.frame().env.count(name))
      candidates.push_back(name);
  return candidates;
}

void IRGen::emitRangeFor(const ast::ForStmt &stmt, const BoundArgs &args) {
  // Bounds: integers, converted to one type.
  struct Bound {
    Value value;
    SourceLoc loc;
  };
  std::vector<Bound> bounds;
  if (args.has("arg2")) {
    bounds.push_back({args.get("arg1"), args.loc("arg1")});
    bounds.push_back({args.get("arg2"), args.loc("arg2")});
  } else {
    bounds.push_back({Value::integer(0), args.loc("arg1")});
    bounds.push_back({args.get("arg1"), args.loc("arg1")});
  }
  bounds.push_back({args.has("step") ? args.get("step") : Value::integer(1),
                    args.has("step") ? args.loc("step") : args.loc("arg1")});
  // Scheduling hints tk does not act on (yet): checked, recorded on the
  // loop below, and otherwise ignored, as Triton does where it cannot
  // honour them.
  std::vector<std::pair<std::string, bool>> loopHints;
  for (const char *hint : {"disallow_acc_multi_buffer", "flatten",
                           "warp_specialize"})
    if (args.has(hint)) {
      const Value &value = args.get(hint);
      if (!value.is(Value::Kind::Bool) && !value.is(Value::Kind::Int))
        error(args.loc(hint), std::string("range(") + hint +
                                  "=...) must be a compile-time bool, got " +
                                  value.describe());
      loopHints.push_back({hint, value.getIntLike() != 0});
    }

  DType type = ScalarType::I32;
  for (const Bound &bound : bounds) {
    const Value &v = bound.value;
    bool isInt = v.isIR() ? v.getDType().isInt() && v.getType().isScalar()
                          : v.is(Value::Kind::Int) || v.is(Value::Kind::Bool);
    if (!isInt)
      error(bound.loc, "range() bounds must be integer scalars, got " +
                           (v.isIR() ? v.getType().toString()
                                     : v.describe()));
    DType t = v.isIR() ? v.getDType() : getLiteralType(v);
    if (t.isBool())
      t = ScalarType::I32;
    type = sema::promoteIntegers(type, t);
  }
  const Value &stepValue = bounds[2].value;
  bool reversed = false;
  if (stepValue.isConstant()) {
    if (stepValue.getIntLike() == 0)
      error(bounds[2].loc, "range() step must not be zero");
    reversed = stepValue.getIntLike() < 0;
  }
  if (reversed && type.isUnsigned())
    error(bounds[2].loc, "a negative step needs signed bounds");
  std::vector<Value> converted;
  for (const Bound &bound : bounds) {
    LocScope scope(*this, bound.loc);
    converted.push_back(bound.value.isIR()
                            ? cast(bound.value, type, bound.loc)
                            : materialize(bound.value, type, bound.loc));
  }
  Value lower = converted[0], upper = converted[1], step = converted[2];
  if (reversed) {
    // range(a, b, -s) runs cdiv(a - b, s) times: loop over the trip count
    // and compute the variable from it.
    LocScope scope(*this, stmt.iter->loc);
    Value positive = constantInt(-stepValue.getIntLike(), type);
    Value span = binaryOp(ast::BinaryOpKind::Sub, lower, upper, stmt.iter->loc);
    Value bias = binaryOp(ast::BinaryOpKind::Sub, positive, Value::integer(1),
                          stmt.iter->loc);
    Value trips = binaryOp(
        ast::BinaryOpKind::FloorDiv,
        binaryOp(ast::BinaryOpKind::Add, span, bias, stmt.iter->loc),
        positive, stmt.iter->loc);
    upper = trips;
    step = constantInt(1, type);
    Value start = lower;
    lower = constantInt(0, type);
    converted[0] = start; // kept for the variable below
  }

  std::vector<std::string> candidates =
      getLoopCandidates(*this, stmt.body, stmt.target.name);
  std::set<std::string> forced;
  while (true) {
    Env before = frame().env;
    auto beforeReasons = frame().undefinedReasons;
    LoopCarries carries = prepareCarries(*this, candidates, forced);
    mlir::scf::ForOp forOp = mlir::scf::ForOp::create(
        builder, lower.getIR(), upper.getIR(), step.getIR(), carries.initValues,
        nullptr, /*unsignedCmp=*/type.isUnsigned());
    if (args.has("num_stages")) {
      int64_t stages = requireInt(args.get("num_stages"),
                                  args.loc("num_stages"), "num_stages");
      if (stages < 1)
        error(args.loc("num_stages"), "num_stages must be at least 1");
      forOp->setAttr("tk.num_stages", builder.getI32IntegerAttr(stages));
    }
    for (const auto &[hint, on] : loopHints)
      if (on)
        forOp->setAttr("tk." + hint, builder.getUnitAttr());
    if (args.has("loop_unroll_factor")) {
      int64_t factor =
          requireInt(args.get("loop_unroll_factor"),
                     args.loc("loop_unroll_factor"), "loop_unroll_factor");
      if (factor < 1)
        error(args.loc("loop_unroll_factor"),
              "loop_unroll_factor must be at least 1");
      forOp->setAttr("tk.loop_unroll_factor",
                     builder.getI32IntegerAttr(factor));
    }
    mlir::Block *body = forOp.getBody();
    if (!body->empty())
      body->back().erase(); // the implicit scf.yield; ours comes at the end
    std::vector<mlir::Value> yields;
    std::vector<std::string> changedConstants;
    {
      mlir::OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(body);
      Value inductionVar = Value::ir(forOp.getInductionVar(), type);
      if (reversed) {
        LocScope scope(*this, stmt.target.loc);
        Value offset = binaryOp(ast::BinaryOpKind::Mul, inductionVar,
                                stepValue, stmt.target.loc);
        inductionVar = binaryOp(ast::BinaryOpKind::Add, converted[0], offset,
                                stmt.target.loc);
      }
      frame().env[stmt.target.name] = {inductionVar, stmt.target.loc};
      frame().undefinedReasons.erase(stmt.target.name);
      bindCarries(frame().env, carries, forOp.getRegionIterArgs());
      ++frame().runtimeDepth;
      emitBlock(stmt.body);
      --frame().runtimeDepth;
      changedConstants =
          findChangedConstants(*this, candidates, carries, before, stmt.loc);
      if (changedConstants.empty()) {
        yields = collectYields(*this, carries, stmt.loc);
        LocScope scope(*this, stmt.loc);
        mlir::scf::YieldOp::create(builder, yields);
      }
    }
    if (!changedConstants.empty()) {
      forced.insert(changedConstants.begin(), changedConstants.end());
      frame().env = std::move(before);
      frame().undefinedReasons = std::move(beforeReasons);
      forOp.erase();
      continue;
    }
    Env bodyEnv = frame().env;
    finishLoop(*this, before, beforeReasons, bodyEnv, carries,
               forOp.getResults(), stmt.loc, stmt.target.name);
    return;
  }
}

void IRGen::emitWhile(const ast::WhileStmt &stmt) {
  std::vector<std::string> candidates =
      getLoopCandidates(*this, stmt.body, "");
  std::set<std::string> forced;
  while (true) {
    Env before = frame().env;
    auto beforeReasons = frame().undefinedReasons;
    LoopCarries carries = prepareCarries(*this, candidates, forced);
    auto whileOp = mlir::scf::WhileOp::create(builder, carries.mlirTypes,
                                              carries.initValues);
    std::vector<mlir::Location> locs(carries.names.size(), builder.getLoc());
    std::optional<bool> constantCond;
    std::vector<std::string> changedConstants;
    Env bodyEnv;
    {
      mlir::OpBuilder::InsertionGuard guard(builder);
      ++frame().runtimeDepth;
      // The condition, in the "before" region.
      mlir::Block *beforeBlock = builder.createBlock(
          &whileOp.getBefore(), {}, carries.mlirTypes, locs);
      bindCarries(frame().env, carries, beforeBlock->getArguments());
      Value condValue = emitExpr(*stmt.cond);
      Value cond;
      {
        LocScope scope(*this, stmt.cond->loc);
        if (condValue.isConstant())
          constantCond = isTruthy(condValue, stmt.cond->loc);
        cond = toCondition(condValue, stmt.cond->loc,
                           "the condition of 'while'");
        mlir::scf::ConditionOp::create(builder, cond.getIR(),
                                       beforeBlock->getArguments());
      }
      // The body, in the "after" region.
      mlir::Block *afterBlock = builder.createBlock(
          &whileOp.getAfter(), {}, carries.mlirTypes, locs);
      bindCarries(frame().env, carries, afterBlock->getArguments());
      emitBlock(stmt.body);
      --frame().runtimeDepth;
      changedConstants =
          findChangedConstants(*this, candidates, carries, before, stmt.loc);
      if (changedConstants.empty()) {
        std::vector<mlir::Value> yields =
            collectYields(*this, carries, stmt.loc);
        LocScope scope(*this, stmt.loc);
        mlir::scf::YieldOp::create(builder, yields);
      }
      bodyEnv = frame().env;
    }
    if (!changedConstants.empty()) {
      forced.insert(changedConstants.begin(), changedConstants.end());
      frame().env = std::move(before);
      frame().undefinedReasons = std::move(beforeReasons);
      whileOp.erase();
      continue;
    }
    if (constantCond) {
      if (*constantCond)
        error(stmt.cond->loc, "the condition of this 'while' is always true, "
                              "so the loop would never end ('break' is not "
                              "supported)");
      // Never runs: as if it were not there.
      whileOp.erase();
      frame().env = std::move(before);
      frame().undefinedReasons = std::move(beforeReasons);
      return;
    }
    finishLoop(*this, before, beforeReasons, bodyEnv, carries,
               whileOp.getResults(), stmt.loc, "");
    return;
  }
}

} // namespace tk::irgen
