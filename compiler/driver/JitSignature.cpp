//===- JitSignature.cpp - what the launch-time JIT reads from the syntax --===//
//
// Parses the source (no semantic analysis, no IR) and walks the kernel's
// parameter list and decorators. The frontend validates the same
// decorators when the kernel compiles (IRGen.cpp, readDecorators); here a
// malformed entry is skipped and left for that compile to report at its
// position.
//
//===----------------------------------------------------------------------===//
#include "compiler/driver/JitSignature.h"

#include "compiler/driver/Compilation.h"
#include "compiler/driver/Frontend.h"
#include "compiler/frontend/IRGen.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace tk;
using namespace tk::jit;

/// Parameter names (or indices into all parameters) of a list expression.
static void readNameList(const ast::Expr &value,
                         const std::vector<ast::Param> &params,
                         std::vector<std::string> &names) {
  const auto *list = value.getAs<ast::ListExpr>();
  if (!list)
    return;
  for (const ast::ExprPtr &element : list->elements) {
    if (const auto *text = element->getAs<ast::StringLitExpr>())
      names.push_back(text->value);
    else if (const auto *name = element->getAs<ast::NameExpr>())
      names.push_back(name->name);
    else if (const auto *index = element->getAs<ast::IntLitExpr>();
             index && index->value < params.size())
      names.push_back(params[index->value].name);
  }
}

llvm::Expected<KernelSignature>
jit::readKernelSignature(const KernelSource &source,
                         const std::string &kernelName,
                         const std::string &toolName) {
  KernelSignature signature;
  auto read = [&](const ast::Module &module) -> llvm::Error {
    std::vector<const ast::FunctionDef *> kernels = findKernels(module);
    const ast::FunctionDef *kernel = nullptr;
    for (const ast::FunctionDef *candidate : kernels)
      if (kernelName.empty() ? kernels.size() == 1
                             : candidate->name == kernelName)
        kernel = candidate;
    if (!kernel) {
      std::string names;
      for (const ast::FunctionDef *candidate : kernels)
        names += (names.empty() ? "" : ", ") + candidate->name;
      std::string what = kernelName.empty()
                             ? "has " + std::to_string(kernels.size()) +
                                   " kernels; name the one to compile"
                             : "has no kernel named '" + kernelName + "'";
      return llvm::createStringError(toolName + ": error: " + source.name + " " +
                                     what + " (kernels: " +
                                     (names.empty() ? "none" : names) + ")");
    }

    signature.kernelName = kernel->name;
    std::vector<std::string> unspecialized, key;
    for (const ast::Decorator &decorator : kernel->decorators) {
      if (const ast::KeywordArg *list = decorator.findKeyword("do_not_specialize"))
        readNameList(*list->value, kernel->params, unspecialized);
    }
    if (const ast::Decorator *autotune = kernel->findDecorator("autotune")) {
      if (const ast::KeywordArg *configs = autotune->findKeyword("configs"))
        if (const auto *elements = configs->value->getAs<ast::ListExpr>())
          signature.configCount = elements->elements.size();
      if (const ast::KeywordArg *names = autotune->findKeyword("key"))
        readNameList(*names->value, kernel->params, key);
    }
    for (const ast::Param &param : kernel->params) {
      if (!param.type || param.type->kind == ast::TypeExpr::Kind::Constexpr) {
        signature.constexprs.push_back(param.name);
        continue;
      }
      SignatureParam entry;
      entry.name = param.name;
      entry.type = param.type->toString();
      entry.isPointer = param.type->kind == ast::TypeExpr::Kind::Pointer;
      // A type named by a constexpr is not specialized as an integer.
      entry.isInteger = !entry.isPointer &&
                        param.type->kind == ast::TypeExpr::Kind::Scalar &&
                        param.type->scalar != ast::ScalarType::I1 &&
                        param.type->scalar != ast::ScalarType::F16 &&
                        param.type->scalar != ast::ScalarType::BF16 &&
                        param.type->scalar != ast::ScalarType::F32 &&
                        param.type->scalar != ast::ScalarType::F64;
      entry.doNotSpecialize =
          std::find(unspecialized.begin(), unspecialized.end(), param.name) !=
          unspecialized.end();
      signature.params.push_back(std::move(entry));
    }
    for (const std::string &name : key)
      for (unsigned i = 0; i < signature.params.size(); ++i)
        if (signature.params[i].name == name) {
          signature.autotuneKey.push_back(name);
          signature.autotuneKeyParams.push_back(i);
        }
    return llvm::Error::success();
  };
  if (llvm::Error error =
          withParsedSource(source.name, source.text, toolName, read))
    return std::move(error);
  return signature;
}
