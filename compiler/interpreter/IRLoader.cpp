//===- IRLoader.cpp - Parse tk IR text and compile one kernel -------------===//
#include "compiler/interpreter/Interpreter.h"
#include "dialects/tk/TkDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

auto ::tk::interp::loadKernel(llvm::StringRef irText, llvm::StringRef origin,
                       llvm::StringRef kernelName)
    -> llvm::Expected<std::unique_ptr<Kernel>> {
  DialectRegistry registry;
  registry.insert<mlir::tk::TkDialect, func::FuncDialect, arith::ArithDialect,
                  math::MathDialect, scf::SCFDialect>();
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);

  // Parse errors come out clang-style, with the offending line.
  std::string diagnostics;
  llvm::raw_string_ostream diagnosticStream(diagnostics);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(irText, origin), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context, diagnosticStream);
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
  if (!module)
    return llvm::createStringError(
        diagnostics.empty() ? "cannot parse " + origin.str() : diagnostics);

  func::FuncOp kernel;
  if (!kernelName.empty()) {
    kernel = module->lookupSymbol<func::FuncOp>(kernelName);
    if (!kernel)
      return llvm::createStringError(origin + ": no function named '" +
                                     kernelName + "'");
  } else {
    llvm::SmallVector<func::FuncOp> kernels, functions;
    for (auto func : module->getOps<func::FuncOp>()) {
      functions.push_back(func);
      if (mlir::tk::isKernel(func))
        kernels.push_back(func);
    }
    if (kernels.size() == 1)
      kernel = kernels.front();
    else if (kernels.empty() && functions.size() == 1)
      kernel = functions.front();
    else
      return llvm::createStringError(
          origin + ": " + llvm::Twine(kernels.size()) +
          " kernels in the module; name the one to run");
  }
  return compileKernel(kernel);
}
