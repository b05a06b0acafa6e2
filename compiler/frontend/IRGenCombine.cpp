//===- IRGenCombine.cpp - reduce / associative_scan with a combine function ===//
//
// `reduce(input, axis, combine_fn, keep_dims=False)` and
// `associative_scan(input, axis, combine_fn, reverse=False)`, as Triton's
// tl.reduce / tl.associative_scan. `input` is a block or a tuple of N
// blocks of one shape; `combine_fn` is a helper `def` or a lambda taking
// 2N scalars (the N values of the left side, then the N of the right) and
// returning N (a tuple when N > 1).
//
// The op (`tk.reduce combine` / `tk.scan combine`) gets a combiner region
// whose block has the 2N scalars as arguments; the helper is inlined into
// it by walking its body with those arguments, exactly as a call inlines
// it, and its results end the block in `tk.combine_return`. The helper sees
// only its parameters and module globals, so the region never uses a value
// from outside (the ops are IsolatedFromAbove). Associativity is the
// user's promise: the lowerings combine in tree / Hillis-Steele order, the
// interpreter in sequence.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/IRGenImpl.h"

#include "dialects/tk/TkDialect.h"

namespace tk::irgen {

using sema::DType;
using sema::Shape;
using sema::ValueType;

namespace {

/// The blocks of `input` (a block, or a tuple of blocks of one shape).
std::vector<Value> getCombineInputs(IRGen &gen, const Value &input,
                                    SourceLoc loc, const std::string &name) {
  std::vector<Value> inputs;
  bool isTuple = input.is(Value::Kind::Tuple);
  if (isTuple)
    inputs = input.getElements();
  else
    inputs.push_back(input);
  if (inputs.empty())
    gen.error(loc, name + "() needs at least one block, got an empty tuple");
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::string what = isTuple ? "element " + std::to_string(i) +
                                     " of the input of " + name + "()"
                               : "the input of " + name + "()";
    inputs[i] = gen.requireBlock(inputs[i], loc, what);
    if (inputs[i].getDType().isPointer())
      gen.error(loc, name + "() cannot combine pointers (" + what + " is " +
                         inputs[i].getType().toString() + ")");
    if (inputs[i].getShape() != inputs[0].getShape())
      gen.error(loc, name + "() needs blocks of one shape: " +
                         inputs[0].getType().toString() + " and " +
                         inputs[i].getType().toString());
  }
  return inputs;
}

} // namespace

Value IRGen::emitCombineBuiltin(BuiltinId id, const BoundArgs &args,
                                SourceLoc loc) {
  bool isScan = id == BuiltinId::AssociativeScan;
  std::string name = getBuiltinName(id);
  std::vector<Value> inputs =
      getCombineInputs(*this, args.get("input"), args.loc("input"), name);
  bool isTuple = args.get("input").is(Value::Kind::Tuple);
  size_t n = inputs.size();

  // The combine function and its arity: 2N parameters without defaults
  // at most, 2N in all at least.
  const Value &fnValue = args.get("combine_fn");
  SourceLoc fnLoc = args.loc("combine_fn");
  if (!fnValue.is(Value::Kind::Function))
    error(fnLoc, "the combine_fn of " + name +
                     "() must be a function defined with `def` in this "
                     "file or a lambda, got " + fnValue.describe());
  const ast::FunctionDef &fn = *fnValue.getFunction();
  size_t required = 0;
  for (const ast::Param &param : fn.params)
    required += param.defaultValue ? 0 : 1;
  if (required > 2 * n || fn.params.size() < 2 * n)
    throw CompileError(fnLoc,
                       "combine function '" + fn.name + "' takes " +
                           std::to_string(fn.params.size()) +
                           " parameters, but " + name + "() of " +
                           std::to_string(n) + " block" +
                           (n == 1 ? "" : "s") + " calls it with " +
                           std::to_string(2 * n) + " (" + std::to_string(n) +
                           " value" + (n == 1 ? "" : "s") +
                           " of each side)")
        .addNote(fn.loc, "'" + fn.name + "' is defined here");

  // The axis; none reduces over every element (Triton flattens first).
  int64_t rank = inputs[0].getType().getRank();
  bool hasAxis = args.has("axis") && !args.get("axis").isNone();
  Shape keptShape(rank, 1);
  int64_t axis = 0;
  if (hasAxis) {
    axis = normalizeAxis(requireInt(args.get("axis"), args.loc("axis"),
                                    "the axis"),
                         rank, args.loc("axis"), "axis");
    keptShape = inputs[0].getShape();
    keptShape[axis] = 1;
  } else if (isScan) {
    error(loc, "associative_scan() needs an axis");
  } else if (rank > 1) {
    for (Value &input : inputs)
      input = reshape(input, {input.getType().getNumElements()}, loc);
  }
  bool keepDims = false, reverse = false;
  for (auto [flag, target] :
       {std::pair<const char *, bool *>{"keep_dims", &keepDims},
        {"reverse", &reverse}}) {
    if (!args.has(flag))
      continue;
    const Value &value = args.get(flag);
    if (!value.is(Value::Kind::Bool) && !value.is(Value::Kind::Int))
      error(args.loc(flag), std::string("'") + flag +
                                "' must be a compile-time bool, got " +
                                value.describe());
    *target = value.getIntLike() != 0;
  }

  // The op, with its results' types.
  std::vector<ValueType> resultTypes;
  llvm::SmallVector<mlir::Type> mlirResultTypes;
  llvm::SmallVector<mlir::Value> srcs;
  for (const Value &input : inputs) {
    Shape shape = input.getShape();
    if (!isScan)
      shape.erase(shape.begin() + axis);
    resultTypes.emplace_back(input.getDType(), shape);
    mlirResultTypes.push_back(getMLIRType(resultTypes.back()));
    srcs.push_back(input.getIR());
  }
  mlir::Operation *op;
  mlir::Region *combiner;
  if (isScan) {
    auto scan = mlir::tk::ScanOp::create(builder, mlirResultTypes,
                                         mlir::tk::ScanKind::Combine, srcs,
                                         uint32_t(axis), reverse);
    op = scan;
    combiner = &scan.getCombiner();
  } else {
    auto reduce = mlir::tk::ReduceOp::create(builder, mlirResultTypes,
                                             mlir::tk::ReduceKind::Combine,
                                             srcs, uint32_t(axis));
    op = reduce;
    combiner = &reduce.getCombiner();
  }

  // The combiner: 2N scalar arguments, the helper inlined on them.
  llvm::SmallVector<mlir::Type> argTypes;
  llvm::SmallVector<mlir::Location> argLocs;
  for (int side = 0; side < 2; ++side)
    for (const Value &input : inputs) {
      argTypes.push_back(getMLIRType(ValueType(input.getDType())));
      argLocs.push_back(getLoc(fnLoc));
    }
  mlir::OpBuilder::InsertionGuard guard(builder);
  mlir::Block *block =
      builder.createBlock(combiner, combiner->end(), argTypes, argLocs);
  CallArgs callArgs;
  callArgs.loc = fnLoc;
  for (unsigned i = 0; i < 2 * n; ++i) {
    callArgs.positional.push_back(Value::ir(
        block->getArgument(i), ValueType(inputs[i % n].getDType())));
    callArgs.positionalLocs.push_back(fnLoc);
  }
  Value returned;
  {
    returned = callFunction(fn, callArgs, fnLoc);

    // N results, each a scalar of its input's type (numbers adapt).
    std::vector<Value> results;
    if (returned.is(Value::Kind::Tuple))
      results = returned.getElements();
    else
      results.push_back(returned);
    if (results.size() != n)
      throw CompileError(fnLoc, "combine function '" + fn.name +
                                    "' returns " +
                                    (returned.isNone()
                                         ? std::string("nothing")
                                         : std::to_string(results.size()) +
                                               " value" +
                                               (results.size() == 1 ? ""
                                                                    : "s")) +
                                    "; " + name + "() of " +
                                    std::to_string(n) + " block" +
                                    (n == 1 ? "" : "s") + " needs " +
                                    std::to_string(n))
          .addNote(fn.loc, "'" + fn.name + "' is defined here");
    llvm::SmallVector<mlir::Value> yielded;
    for (size_t i = 0; i < n; ++i) {
      DType want = inputs[i].getDType();
      Value result = results[i];
      if (result.isNumericConstant())
        result = materialize(result, want, fnLoc);
      if (!result.isIR() || result.isBlock() || result.getDType() != want)
        throw CompileError(fnLoc,
                           "combine function '" + fn.name + "' returns " +
                               result.describe() + " as result " +
                               std::to_string(i) + "; " + name +
                               "() needs a scalar of type " +
                               want.toString() + " (the type of block " +
                               std::to_string(i) + ")")
            .addNote(fn.loc, "'" + fn.name + "' is defined here");
      yielded.push_back(result.getIR());
    }
    mlir::tk::CombineReturnOp::create(builder, yielded);
  }
  builder.setInsertionPointAfter(op);

  std::vector<Value> outputs;
  for (size_t i = 0; i < n; ++i) {
    Value result = Value::ir(op->getResult(i), resultTypes[i]);
    if (keepDims && !isScan)
      result = reshape(result, keptShape, loc);
    outputs.push_back(result);
  }
  return isTuple ? Value::tuple(outputs) : outputs[0];
}

} // namespace tk::irgen
