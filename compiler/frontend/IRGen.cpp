//===- IRGen.cpp - kernel selection, decorators, signature ----------------===//
//
// The kernel becomes
//
//   module attributes {tk.num_warps = 4 : i32, tk.num_stages = 3 : i32,
//                      tk.source = "softmax.tk"} {
//     func.func @softmax(%arg0: !tk.ptr<f32> {tk.divisibility = 16 : i32},
//                        %arg1: i32, ...)
//         attributes {tk.kernel, tk.arg_names = ["out_ptr", ...],
//                     tk.arg_types = ["*f32", "i32", ...],
//                     tk.arg_specs = ["div16", "none", ...],
//                     tk.constexprs = {BLOCK = 1024 : i64}} { ... }
//   }
//
// Only non-constexpr parameters become function arguments, in source order.
// `tk.arg_specs` says what the code may assume about each argument:
// "div16" (integer divisible by 16 / pointer 16-byte aligned; the argument
// also carries `tk.divisibility = 16`), "one" (the integer is 1: its uses
// are the constant 1) or "none". An @autotune decorator is recorded as
// `tk.autotune = {key = [...], configs = [{...}, ...]}` on the function.
//
// Precedence of settings: for constexprs, -D beats the selected @autotune
// config, which beats the parameter's default; for num_warps/num_stages,
// the command line beats the selected @autotune config, which beats
// @kernel(num_warps=..., num_stages=...), which beats the defaults 4 and 3;
// maxnreg likewise, recorded as tk.maxnreg only when one of them sets it.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/IRGenImpl.h"

#include "compiler/frontend/Parser.h"
#include "dialects/tk/TkDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Location.h"

#include <algorithm>

namespace tk::irgen {

using sema::DType;
using sema::ValueType;

//===----------------------------------------------------------------------===//
// Decorator names
//===----------------------------------------------------------------------===//

/// "kernel" for "kernel", "tk.kernel", "triton.jit"; empty when the prefix
/// is not one we know.
static std::string getDecoratorBaseName(const std::string &dotted) {
  size_t dot = dotted.rfind('.');
  if (dot == std::string::npos)
    return dotted;
  std::string prefix = dotted.substr(0, dot);
  if (prefix != "tk" && prefix != "tl" && prefix != "triton" &&
      prefix != "triton.language")
    return "";
  return dotted.substr(dot + 1);
}

static bool isKernelDecorator(const ast::Decorator &decorator) {
  std::string base = getDecoratorBaseName(decorator.name);
  return base == "kernel" || base == "jit";
}

static const ast::Decorator *findKernelDecorator(const ast::FunctionDef &fn) {
  for (const ast::Decorator &decorator : fn.decorators)
    if (isKernelDecorator(decorator))
      return &decorator;
  return nullptr;
}

static bool hasStrictKernelDecorator(const ast::FunctionDef &fn) {
  for (const ast::Decorator &decorator : fn.decorators)
    if (getDecoratorBaseName(decorator.name) == "kernel")
      return true;
  return false;
}

} // namespace tk::irgen

std::vector<const tk::ast::FunctionDef *>
tk::findKernels(const ast::Module &module) {
  std::vector<const ast::FunctionDef *> kernels;
  for (const auto &fn : module.functions)
    if (irgen::findKernelDecorator(*fn))
      kernels.push_back(fn.get());
  return kernels;
}

mlir::OwningOpRef<mlir::ModuleOp>
tk::emitKernelModule(mlir::MLIRContext &context, const ast::Module &module,
                     const IRGenOptions &options) {
  context.loadDialect<mlir::tk::TkDialect, mlir::func::FuncDialect,
                      mlir::arith::ArithDialect, mlir::math::MathDialect,
                      mlir::scf::SCFDialect>();
  irgen::IRGen gen(context, module, options);
  return gen.run();
}

namespace tk::irgen {

//===----------------------------------------------------------------------===//
// Errors and locations
//===----------------------------------------------------------------------===//

IRGen::IRGen(mlir::MLIRContext &context, const ast::Module &module,
             const IRGenOptions &options)
    : context(context), module(module), options(options),
      builder(mlir::UnknownLoc::get(&context), &context) {
  fileName = mlir::StringAttr::get(
      &context, module.file ? module.file->getName() : std::string("<input>"));
}

void IRGen::error(SourceLoc loc, const std::string &message) const {
  throw CompileError(loc, message);
}

mlir::Location IRGen::getLoc(SourceLoc loc) const {
  mlir::Location result =
      loc.isValid()
          ? mlir::Location(mlir::FileLineColLoc::get(fileName, loc.line,
                                                     loc.col))
          : mlir::Location(mlir::UnknownLoc::get(&context));
  if (!frames.empty() && frames.back().callerLoc)
    result = mlir::CallSiteLoc::get(result, *frames.back().callerLoc);
  return result;
}

IRGen::LocScope::LocScope(IRGen &gen, SourceLoc loc)
    : gen(gen), saved(gen.builder.getLoc()), savedSource(gen.currentSourceLoc) {
  gen.builder.setLoc(gen.getLoc(loc));
  gen.currentSourceLoc = loc;
}

IRGen::LocScope::~LocScope() {
  gen.builder.setLoc(saved);
  gen.currentSourceLoc = savedSource;
}

//===----------------------------------------------------------------------===//
// Kernel selection and decorators
//===----------------------------------------------------------------------===//

static std::string joinNames(const std::vector<const ast::FunctionDef *> &fns) {
  std::string text;
  for (const ast::FunctionDef *fn : fns) {
    if (!text.empty())
      text += ", ";
    text += "'" + fn->name + "'";
  }
  return text;
}

const ast::FunctionDef &IRGen::selectKernel() const {
  std::vector<const ast::FunctionDef *> kernels = findKernels(module);
  std::string fileText = module.file ? module.file->getName() : "the input";
  if (!options.kernelName.empty()) {
    const ast::FunctionDef *fn = module.findFunction(options.kernelName);
    if (!fn) {
      std::vector<std::string> names;
      for (const ast::FunctionDef *k : kernels)
        names.push_back(k->name);
      std::string message = "no kernel named '" + options.kernelName +
                            "' in " + fileText;
      std::string hint = didYouMean(options.kernelName, names);
      if (!hint.empty())
        message += hint;
      else if (!kernels.empty())
        message += " (kernels: " + joinNames(kernels) + ")";
      error(SourceLoc(), message);
    }
    if (!findKernelDecorator(*fn))
      error(fn->loc, "'" + fn->name +
                         "' is not a kernel; mark it with @kernel to compile "
                         "it as one");
    return *fn;
  }
  if (kernels.empty())
    error(SourceLoc(), fileText + " has no kernel (a function marked "
                                  "@kernel)");
  std::vector<const ast::FunctionDef *> strict;
  for (const ast::FunctionDef *fn : kernels)
    if (hasStrictKernelDecorator(*fn))
      strict.push_back(fn);
  if (strict.size() == 1)
    return *strict.front();
  if (strict.empty() && kernels.size() == 1)
    return *kernels.front();
  const auto &candidates = strict.empty() ? kernels : strict;
  error(SourceLoc(), fileText + " has " + std::to_string(candidates.size()) +
                         " kernels (" + joinNames(candidates) +
                         "); choose one with -k NAME");
}

Value IRGen::evaluateConstant(const ast::Expr &expr, const std::string &what) {
  // Evaluate in a scratch block so that an expression that is not constant
  // (it emits ops) is reported instead of emitting IR somewhere.
  mlir::Block scratch;
  mlir::OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(&scratch);
  Frame constantFrame;
  frames.push_back(constantFrame);
  Value result;
  try {
    result = emitExpr(expr);
  } catch (...) {
    frames.pop_back();
    throw;
  }
  frames.pop_back();
  std::function<bool(const Value &)> isConstant = [&](const Value &v) {
    if (v.isIR())
      return false;
    for (const Value &element : v.getElements())
      if (!isConstant(element))
        return false;
    return true;
  };
  if (!isConstant(result))
    error(expr.loc, what + " must be a compile-time constant");
  return result;
}

Value IRGen::parseDefine(const std::string &name, const std::string &text) {
  SourceFile file("-D " + name, text);
  try {
    ast::ExprPtr expr = parseExpression(file);
    Value value = evaluateConstant(*expr, "the value of -D " + name);
    return value;
  } catch (const CompileError &e) {
    // The error points into the option's text, which is not a file: say
    // which option instead.
    error(SourceLoc(), "invalid value '" + text + "' for -D " + name + ": " +
                           e.message);
  }
}

static bool isValidNumWarps(int64_t value) {
  return value >= 1 && value <= 16 && (value & (value - 1)) == 0;
}

/// What setmaxnreg can move: multiples of 8 from 24 to 256.
static bool isValidMaxRegisters(int64_t value) {
  return value >= 24 && value <= 256 && value % 8 == 0;
}

/// A thread-block cluster of at most 8 CTAs (the portable size) along x.
static bool isValidClusterSize(int64_t value) {
  return value == 1 || value == 2 || value == 4 || value == 8;
}

KernelConfig IRGen::readDecorators(const ast::FunctionDef &kernel) {
  KernelConfig config;
  std::set<std::string> constexprNames, paramNames;
  std::vector<std::string> constexprList, paramList;
  for (const ast::Param &param : kernel.params) {
    paramNames.insert(param.name);
    paramList.push_back(param.name);
    if (param.type && param.type->kind == ast::TypeExpr::Kind::Constexpr) {
      constexprNames.insert(param.name);
      constexprList.push_back(param.name);
    }
  }

  auto readLaunchSetting = [&](const std::string &key, const Value &value,
                               SourceLoc loc) -> unsigned {
    if (!value.is(Value::Kind::Int))
      error(loc, key + " must be an integer, got " + value.describe());
    int64_t n = value.getInt();
    if (key == "num_warps" && !isValidNumWarps(n))
      error(loc, "num_warps must be a power of two between 1 and 16, got " +
                     std::to_string(n));
    if (key == "num_stages" && (n < 1 || n > 8))
      error(loc, "num_stages must be between 1 and 8, got " +
                     std::to_string(n));
    if (key == "num_ctas" && n != 1)
      error(loc, "num_ctas other than 1 is not supported");
    if (key == "cluster_size" && !isValidClusterSize(n))
      error(loc, "cluster_size must be 1, 2, 4 or 8, got " +
                     std::to_string(n));
    if (key == "maxnreg" && !isValidMaxRegisters(n))
      error(loc, "maxnreg must be a multiple of 8 between 24 and 256, got " +
                     std::to_string(n));
    return unsigned(n);
  };

  // One parameter of a decorator's name list (a string or a bare name).
  auto readParameterName = [&](const ast::Expr &element) {
    std::string name;
    if (const auto *s = element.getAs<ast::StringLitExpr>())
      name = s->value;
    else if (const auto *n = element.getAs<ast::NameExpr>())
      name = n->name;
    else
      error(element.loc, "expected a parameter name");
    if (!paramNames.count(name))
      error(element.loc, "'" + name + "' is not a parameter of '" +
                             kernel.name + "'" + didYouMean(name, paramList));
    return name;
  };

  std::optional<unsigned> decoratorWarps, decoratorStages, decoratorMaxnreg;
  std::optional<unsigned> decoratorCluster;
  std::optional<unsigned> configWarps, configStages, configMaxnreg;
  for (const ast::Decorator &decorator : kernel.decorators) {
    std::string base = getDecoratorBaseName(decorator.name);
    if (base == "kernel" || base == "jit") {
      if (!decorator.args.empty())
        error(decorator.args.front()->loc,
              "@" + decorator.name + " takes only keyword arguments "
                                     "(num_warps=..., num_stages=...)");
      for (const ast::KeywordArg &kw : decorator.keywords) {
        if (kw.name == "num_warps" || kw.name == "num_stages") {
          Value value = evaluateConstant(*kw.value, kw.name);
          unsigned n = readLaunchSetting(kw.name, value, kw.value->loc);
          (kw.name == "num_warps" ? decoratorWarps : decoratorStages) = n;
          continue;
        }
        if (kw.name == "maxnreg") {
          Value value = evaluateConstant(*kw.value, kw.name);
          decoratorMaxnreg = readLaunchSetting(kw.name, value, kw.value->loc);
          continue;
        }
        if (kw.name == "cluster_size") {
          Value value = evaluateConstant(*kw.value, kw.name);
          decoratorCluster = readLaunchSetting(kw.name, value, kw.value->loc);
          continue;
        }
        if (kw.name == "do_not_specialize") {
          // Read by the launch-time JIT (compiler/driver/JitSignature):
          // parameter names or indices whose values are not specialized.
          const auto *list = kw.value->getAs<ast::ListExpr>();
          if (!list)
            error(kw.value->loc, "do_not_specialize must be a list of "
                                 "parameter names, e.g. [\"n\"]");
          for (const ast::ExprPtr &element : list->elements) {
            if (element->getAs<ast::IntLitExpr>())
              continue; // An index, as Triton allows; checked by the JIT.
            std::string name = readParameterName(*element);
            if (constexprNames.count(name))
              error(element->loc, "'" + name + "' is a constexpr parameter; "
                                  "do_not_specialize names run-time "
                                  "parameters");
          }
          continue;
        }
        if (base == "jit" && (kw.name == "debug" || kw.name == "noinline"))
          continue; // Triton options with no meaning here.
        error(kw.loc, "unknown argument '" + kw.name + "' of @" +
                          decorator.name + " (expected num_warps, "
                                           "num_stages, maxnreg, "
                                           "cluster_size or "
                                           "do_not_specialize)");
      }
      continue;
    }
    if (base == "autotune") {
      if (!decorator.args.empty())
        error(decorator.args.front()->loc,
              "@autotune takes keyword arguments: configs=[...], key=[...]");
      const ast::KeywordArg *configs = decorator.findKeyword("configs");
      if (!configs)
        error(decorator.loc, "@autotune needs configs=[Config(...), ...]");
      for (const ast::KeywordArg &kw : decorator.keywords) {
        static const std::vector<std::string> known = {
            "configs", "key", "reset_to_zero", "restore_value", "warmup",
            "rep"};
        if (std::find(known.begin(), known.end(), kw.name) == known.end())
          error(kw.loc, "unknown argument '" + kw.name + "' of @autotune" +
                            didYouMean(kw.name, known));
        if (kw.name == "key" || kw.name == "reset_to_zero" ||
            kw.name == "restore_value") {
          // A list of parameter names, as strings or bare names.
          const auto *list = kw.value->getAs<ast::ListExpr>();
          if (!list)
            error(kw.value->loc, kw.name + " must be a list of parameter "
                                           "names, e.g. [\"M\", \"N\"]");
          for (const ast::ExprPtr &element : list->elements) {
            std::string name = readParameterName(*element);
            if (kw.name == "key")
              config.autotuneKey.push_back(name);
          }
        }
      }
      const auto *list = configs->value->getAs<ast::ListExpr>();
      if (!list || list->elements.empty())
        error(configs->value->loc,
              "configs must be a non-empty list of Config(...)");
      for (const ast::ExprPtr &element : list->elements) {
        const auto *call = element->getAs<ast::CallExpr>();
        std::optional<std::string> callee =
            call ? ast::getDottedName(*call->callee) : std::nullopt;
        if (!callee || (*callee != "Config" && *callee != "triton.Config" &&
                        *callee != "tk.Config" && *callee != "tl.Config"))
          error(element->loc, "expected Config(NAME=value, ..., "
                              "num_warps=..., num_stages=...)");
        // Triton's triton.Config({"BLOCK": 128}, num_warps=4): the dict
        // (parsed as dict(BLOCK=128)) gives keywords too.
        std::vector<const ast::KeywordArg *> keywords;
        for (const ast::ExprPtr &arg : call->args) {
          const auto *dict = arg->getAs<ast::CallExpr>();
          std::optional<std::string> name =
              dict ? ast::getDottedName(*dict->callee) : std::nullopt;
          if (!name || *name != "dict" || call->args.size() > 1)
            error(arg->loc, "Config takes a dict of constexpr values and "
                            "keyword arguments: Config({\"BLOCK\": 128}, "
                            "num_warps=4) or Config(BLOCK=128, num_warps=4)");
          for (const ast::KeywordArg &kw : dict->keywords)
            keywords.push_back(&kw);
        }
        for (const ast::KeywordArg &kw : call->keywords)
          keywords.push_back(&kw);
        std::vector<std::pair<std::string, Value>> entries;
        for (const ast::KeywordArg *kwPointer : keywords) {
          const ast::KeywordArg &kw = *kwPointer;
          Value value = evaluateConstant(*kw.value, "a Config value");
          if (kw.name == "num_warps" || kw.name == "num_stages" ||
              kw.name == "num_ctas" || kw.name == "maxnreg") {
            readLaunchSetting(kw.name, value, kw.value->loc);
          } else if (!constexprNames.count(kw.name)) {
            std::string message = "Config sets '" + kw.name +
                                   "', which is not a constexpr parameter "
                                   "of '" +
                                   kernel.name + "'";
            error(kw.loc, message + didYouMean(kw.name, constexprList));
          } else if (!value.isNumericConstant()) {
            error(kw.value->loc, "a Config value must be a number or a "
                                 "bool, got " +
                                     value.describe());
          }
          entries.emplace_back(kw.name, value);
        }
        config.autotuneConfigs.push_back(std::move(entries));
      }
      if (options.autotuneConfig >= config.autotuneConfigs.size())
        error(SourceLoc(),
              "autotune config " + std::to_string(options.autotuneConfig) +
                  " requested, but '" + kernel.name + "' has " +
                  std::to_string(config.autotuneConfigs.size()));
      for (const auto &[name, value] :
           config.autotuneConfigs[options.autotuneConfig]) {
        if (name == "num_warps")
          configWarps = unsigned(value.getInt());
        else if (name == "num_stages")
          configStages = unsigned(value.getInt());
        else if (name == "maxnreg")
          configMaxnreg = unsigned(value.getInt());
        else if (constexprNames.count(name))
          config.autotuneValues[name] = value;
      }
      continue;
    }
    std::string message = "unknown decorator '@" + decorator.name + "'";
    if (base.empty())
      message += "; expected @kernel, @jit or @autotune";
    else
      message += didYouMean(base, std::vector<std::string>{"kernel", "jit",
                                                           "autotune"});
    error(decorator.loc, message);
  }

  config.numWarps = options.numWarps.value_or(
      configWarps.value_or(decoratorWarps.value_or(4)));
  config.numStages = options.numStages.value_or(
      configStages.value_or(decoratorStages.value_or(3)));
  if (options.maxRegisters)
    config.maxRegisters = options.maxRegisters;
  else if (configMaxnreg)
    config.maxRegisters = configMaxnreg;
  else
    config.maxRegisters = decoratorMaxnreg;
  config.clusterSize = options.clusterSize.value_or(decoratorCluster.value_or(1));
  return config;
}

//===----------------------------------------------------------------------===//
// The kernel function
//===----------------------------------------------------------------------===//

DType IRGen::resolveAnnotation(const ast::TypeExpr &type,
                               const std::map<std::string, Value> &constants,
                               const std::string &what) const {
  auto scalarOf = [&](const ast::TypeExpr &t) -> ScalarType {
    if (t.kind == ast::TypeExpr::Kind::Scalar)
      return t.scalar;
    if (t.kind != ast::TypeExpr::Kind::Named)
      error(type.loc, what + " has type '" + type.toString() +
                          "': only pointers to numbers are supported");
    auto it = constants.find(t.name);
    if (it == constants.end())
      error(t.loc, "unknown type '" + t.name + "'");
    const Value &value = it->second;
    if (!value.is(Value::Kind::Type) || value.getType().isBlock() ||
        value.getDType().isPointer())
      error(t.loc, what + " has type '" + type.toString() + "', but '" +
                       t.name + "' is " + value.describe() +
                       ", not a number dtype (pass e.g. -D " + t.name +
                       "=bf16)");
    return value.getDType().getScalar();
  };
  if (type.kind == ast::TypeExpr::Kind::Pointer)
    return DType::getPointer(scalarOf(*type.pointee));
  return DType(scalarOf(type));
}

static mlir::Attribute toAttribute(mlir::Builder &b, const Value &value) {
  switch (value.getKind()) {
  case Value::Kind::Bool:
    return b.getBoolAttr(value.getBool());
  case Value::Kind::Int:
    return b.getI64IntegerAttr(value.getInt());
  case Value::Kind::Float:
    return b.getF64FloatAttr(value.getFloat());
  case Value::Kind::String:
    return b.getStringAttr(value.getString());
  case Value::Kind::Type:
    return b.getStringAttr(value.getType().toString());
  default:
    return {};
  }
}

void IRGen::emitKernel(const ast::FunctionDef &kernel,
                       const KernelConfig &config) {
  clusterSize = config.clusterSize;
  // Collect -D values (a later one wins) and check their names.
  std::map<std::string, std::string> defines;
  for (const auto &[name, text] : options.defines)
    defines[name] = text;
  std::vector<std::string> constexprNames;
  for (const ast::Param &param : kernel.params)
    if (param.type && param.type->kind == ast::TypeExpr::Kind::Constexpr)
      constexprNames.push_back(param.name);
  for (const auto &define : defines) {
    // Not a structured binding: C++17 lambdas cannot capture those (clang
    // rejects it; the fuzz build uses clang).
    const std::string &name = define.first;
    auto it = std::find_if(kernel.params.begin(), kernel.params.end(),
                           [&](const ast::Param &p) { return p.name == name; });
    if (it == kernel.params.end())
      error(SourceLoc(), "-D " + name + ": kernel '" + kernel.name +
                             "' has no constexpr parameter '" + name + "'" +
                             didYouMean(name, constexprNames));
    if (!it->type || it->type->kind != ast::TypeExpr::Kind::Constexpr)
      error(SourceLoc(), "-D " + name + ": parameter '" + name +
                             "' of kernel '" + kernel.name +
                             "' is not a constexpr; only constexpr "
                             "parameters take -D values");
  }

  // Assumptions: by parameter name.
  std::map<std::string, int64_t> assumptions;
  std::vector<std::string> runtimeNames;
  for (const ast::Param &param : kernel.params)
    if (!param.type || param.type->kind != ast::TypeExpr::Kind::Constexpr)
      runtimeNames.push_back(param.name);
  for (const ArgAssumption &assumption : options.assumptions) {
    if (std::find(runtimeNames.begin(), runtimeNames.end(), assumption.name) ==
        runtimeNames.end())
      error(SourceLoc(), "--assume " + assumption.name + ": kernel '" +
                             kernel.name + "' has no argument '" +
                             assumption.name + "'" +
                             didYouMean(assumption.name, runtimeNames));
    assumptions[assumption.name] = assumption.value;
  }

  // The signature.
  mlir::Builder &b = builder;
  std::vector<mlir::Type> argTypes;
  std::vector<const ast::Param *> runtimeParams;
  std::vector<mlir::Attribute> argNames, argTypeNames, argSpecs;
  std::vector<mlir::NamedAttribute> constexprAttrs;
  std::map<std::string, Value> constexprValues;
  for (const ast::Param &param : kernel.params) {
    if (!param.type)
      error(param.loc, "parameter '" + param.name + "' of kernel '" +
                           kernel.name +
                           "' needs a type: e.g. '" + param.name +
                           ": *f32', '" + param.name + ": i32' or '" +
                           param.name + ": constexpr'");
    if (param.type->kind == ast::TypeExpr::Kind::Constexpr) {
      Value value;
      auto define = defines.find(param.name);
      auto tuned = config.autotuneValues.find(param.name);
      if (define != defines.end())
        value = parseDefine(param.name, define->second);
      else if (tuned != config.autotuneValues.end())
        value = tuned->second;
      else if (param.defaultValue)
        value = evaluateConstant(*param.defaultValue,
                                 "the default of constexpr '" + param.name +
                                     "'");
      else
        error(param.loc, "constexpr '" + param.name +
                             "' has no value: pass -D " + param.name +
                             "=...");
      constexprValues[param.name] = value;
      if (mlir::Attribute attr = toAttribute(b, value);
          attr && value.isNumericConstant())
        constexprAttrs.emplace_back(b.getStringAttr(param.name), attr);
    }
  }
  // Then the run-time parameters, whose types may name a constexpr
  // (`X: *DTYPE`).
  for (const ast::Param &param : kernel.params) {
    if (param.type->kind == ast::TypeExpr::Kind::Constexpr)
      continue;
    if (param.defaultValue)
      error(param.defaultValue->loc,
            "only constexpr parameters of a kernel can have a default");
    DType dtype = resolveAnnotation(*param.type, constexprValues,
                                    "parameter '" + param.name + "'");
    runtimeParams.push_back(&param);
    argTypes.push_back(getMLIRType(dtype));
    argNames.push_back(b.getStringAttr(param.name));
    argTypeNames.push_back(b.getStringAttr(dtype.toString()));

    std::string spec = "none";
    auto assumed = assumptions.find(param.name);
    if (assumed != assumptions.end()) {
      if (assumed->second == 16) {
        if (dtype.isFloat() || dtype.isBool())
          error(SourceLoc(), "--assume " + param.name + "=16: argument '" +
                                 param.name + "' is " + dtype.toString() +
                                 "; only integers and pointers can be "
                                 "assumed divisible by 16");
        spec = "div16";
      } else if (assumed->second == 1) {
        if (!dtype.isInt() || dtype.isBool())
          error(SourceLoc(), "--assume " + param.name + "=1: argument '" +
                                 param.name + "' is " + dtype.toString() +
                                 "; only integer arguments can be assumed "
                                 "equal to 1");
        spec = "one";
      } else {
        error(SourceLoc(), "--assume " + param.name + "=" +
                               std::to_string(assumed->second) +
                               ": the value must be 16 or 1");
      }
    } else if (dtype.isPointer() && options.assumeAlignedPointers) {
      spec = "div16";
    }
    argSpecs.push_back(b.getStringAttr(spec));
  }

  // The function.
  builder.setLoc(getLoc(kernel.loc));
  builder.setInsertionPointToEnd(moduleOp->getBody());
  auto funcType = b.getFunctionType(argTypes, {});
  auto func = mlir::func::FuncOp::create(builder, kernel.name, funcType);
  func->setAttr(mlir::tk::TkDialect::getKernelAttrName(), b.getUnitAttr());
  func->setAttr("tk.arg_names", b.getArrayAttr(argNames));
  func->setAttr("tk.arg_types", b.getArrayAttr(argTypeNames));
  func->setAttr("tk.arg_specs", b.getArrayAttr(argSpecs));
  func->setAttr("tk.constexprs", b.getDictionaryAttr(constexprAttrs));
  if (!config.autotuneConfigs.empty()) {
    std::vector<mlir::Attribute> configAttrs, keyAttrs;
    for (const auto &entries : config.autotuneConfigs) {
      std::vector<mlir::NamedAttribute> named;
      for (const auto &[name, value] : entries)
        if (mlir::Attribute attr = toAttribute(b, value))
          named.emplace_back(b.getStringAttr(name), attr);
      configAttrs.push_back(b.getDictionaryAttr(named));
    }
    for (const std::string &key : config.autotuneKey)
      keyAttrs.push_back(b.getStringAttr(key));
    func->setAttr("tk.autotune",
                  b.getDictionaryAttr(
                      {b.getNamedAttr("configs", b.getArrayAttr(configAttrs)),
                       b.getNamedAttr("key", b.getArrayAttr(keyAttrs))}));
  }
  for (size_t i = 0; i < argSpecs.size(); ++i)
    if (mlir::cast<mlir::StringAttr>(argSpecs[i]).getValue() == "div16")
      func.setArgAttr(i, "tk.divisibility", b.getI32IntegerAttr(16));

  mlir::Block *entry = func.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  for (size_t i = 0; i < runtimeParams.size(); ++i)
    entry->getArgument(i).setLoc(getLoc(runtimeParams[i]->loc));

  // The kernel's variables: parameters and constexprs.
  callStack.push_back(&kernel);
  Frame kernelFrame;
  kernelFrame.function = &kernel;
  frames.push_back(std::move(kernelFrame));
  size_t argIndex = 0;
  for (const ast::Param &param : kernel.params) {
    if (param.type->kind == ast::TypeExpr::Kind::Constexpr) {
      frame().env[param.name] = {constexprValues[param.name], param.loc};
      continue;
    }
    DType dtype = resolveAnnotation(*param.type, constexprValues,
                                    "parameter '" + param.name + "'");
    Value value = Value::ir(entry->getArgument(argIndex), dtype);
    if (mlir::cast<mlir::StringAttr>(argSpecs[argIndex]).getValue() == "one") {
      LocScope scope(*this, param.loc);
      value = constantInt(1, dtype);
    }
    frame().env[param.name] = {value, param.loc};
    ++argIndex;
  }

  emitBlock(kernel.body);
  if (frame().returned && !frame().returnValue.isNone())
    error(frame().returnLoc, "kernel '" + kernel.name +
                                 "' returns a value; kernels write results "
                                 "through pointers");
  {
    LocScope scope(*this, kernel.loc);
    builder.setInsertionPointToEnd(entry);
    mlir::func::ReturnOp::create(builder);
  }
  frames.pop_back();

  moduleOp->getOperation()->setAttr("tk.num_warps",
                                    b.getI32IntegerAttr(config.numWarps));
  moduleOp->getOperation()->setAttr("tk.num_stages",
                                    b.getI32IntegerAttr(config.numStages));
  if (config.maxRegisters)
    moduleOp->getOperation()->setAttr(
        "tk.maxnreg", b.getI32IntegerAttr(*config.maxRegisters));
  if (config.clusterSize > 1)
    moduleOp->getOperation()->setAttr(
        "tk.cluster_size", b.getI32IntegerAttr(config.clusterSize));
  moduleOp->getOperation()->setAttr("tk.source",
                                    b.getStringAttr(fileName.getValue()));
}

/// Every decorator in the file must be one we know, so that a typo
/// (`@kernl`) is reported rather than silently making a helper.
static void checkDecoratorNames(const IRGen &gen, const ast::FunctionDef &fn) {
  static const std::vector<std::string> known = {"kernel", "jit", "autotune"};
  {
    for (const ast::Decorator &decorator : fn.decorators) {
      std::string base = getDecoratorBaseName(decorator.name);
      if (std::find(known.begin(), known.end(), base) != known.end())
        continue;
      std::string message = "unknown decorator '@" + decorator.name + "'";
      std::string hint = base.empty() ? "" : didYouMean(base, known);
      gen.error(decorator.loc,
                message + (hint.empty() ? "; expected @kernel, @jit or "
                                          "@autotune"
                                        : hint));
    }
  }
}

mlir::OwningOpRef<mlir::ModuleOp> IRGen::run() {
  // The module stands for the whole file.
  moduleOp = mlir::ModuleOp::create(
      mlir::FileLineColLoc::get(fileName, /*line=*/1, /*column=*/1));
  // Only the selected kernel and what it calls are checked: a function the
  // parser or the checks reject does not stop the file's other kernels.
  // A parse error that cannot be attributed to a function stops them all.
  for (const auto &fn : module.functions)
    if (fn->parseError && fn->name.empty())
      throw *fn->parseError;
  const ast::FunctionDef *selected = nullptr;
  try {
    selected = &selectKernel();
  } catch (CompileError &) {
    // A misspelt decorator explains a missing kernel better.
    for (const auto &fn : module.functions)
      checkDecoratorNames(*this, *fn);
    for (const auto &fn : module.functions)
      if (fn->parseError)
        throw *fn->parseError;
    throw;
  }
  const ast::FunctionDef &kernel = *selected;
  if (kernel.parseError)
    throw *kernel.parseError;
  checkDecoratorNames(*this, kernel);
  KernelConfig config = readDecorators(kernel);
  emitKernel(kernel, config);
  return std::move(moduleOp);
}

} // namespace tk::irgen
