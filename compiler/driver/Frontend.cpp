//===- Frontend.cpp - source file to verified tk IR -----------------------===//
//
// The frontend throws CompileError; this is where it is caught and printed
// (this TU is compiled with exceptions, and no MLIR frame lies between the
// throw and this catch).
//
//===----------------------------------------------------------------------===//

#include "compiler/driver/Frontend.h"

#include "compiler/driver/Compilation.h"
#include "compiler/frontend/IRGen.h"
#include "compiler/frontend/Parser.h"

#include "mlir/IR/Verifier.h"
#include "llvm/Support/MemoryBuffer.h"

namespace tk {

mlir::LogicalResult loadSource(Compilation &compilation) {
  const std::string &path = compilation.getOptions().inputPath;
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer) {
    compilation.reportError("cannot open '" + path +
                            "': " + buffer.getError().message());
    return mlir::failure();
  }
  compilation.setSource(
      std::make_unique<SourceFile>(path, (*buffer)->getBuffer().str()));
  return mlir::success();
}

std::unique_ptr<ast::Module> parseSource(Compilation &compilation) {
  try {
    return parseModuleKeepingErrors(*compilation.getSource());
  } catch (const CompileError &error) {
    compilation.reportCompileError(error);
    return nullptr;
  }
}

mlir::OwningOpRef<mlir::ModuleOp> emitTk(Compilation &compilation,
                                         const ast::Module &module) {
  mlir::OwningOpRef<mlir::ModuleOp> result;
  try {
    result = emitKernelModule(compilation.getContext(), module,
                              compilation.getOptions().getIRGenOptions());
  } catch (const CompileError &error) {
    compilation.reportCompileError(error);
    return nullptr;
  }
  // The frontend checks everything it emits: a verifier failure here is a
  // bug in tk, not in the program.
  compilation.setMLIRErrorPrefix("internal compiler error: ");
  mlir::LogicalResult verified = mlir::verify(*result);
  compilation.setMLIRErrorPrefix("");
  if (mlir::failed(verified))
    return nullptr;
  return result;
}

mlir::OwningOpRef<mlir::ModuleOp> runFrontend(Compilation &compilation) {
  if (!compilation.getSource() && mlir::failed(loadSource(compilation)))
    return nullptr;
  std::unique_ptr<ast::Module> module = parseSource(compilation);
  if (!module)
    return nullptr;
  return emitTk(compilation, *module);
}

static unsigned getModuleSetting(mlir::ModuleOp module, llvm::StringRef name,
                                 unsigned fallback) {
  if (auto attr = module->getAttrOfType<mlir::IntegerAttr>(name))
    return unsigned(attr.getInt());
  return fallback;
}

unsigned getNumWarps(mlir::ModuleOp module) {
  return getModuleSetting(module, "tk.num_warps", 4);
}

unsigned getNumStages(mlir::ModuleOp module) {
  return getModuleSetting(module, "tk.num_stages", 3);
}

} // namespace tk

llvm::Error tk::withParsedSource(
    const std::string &name, const std::string &text,
    const std::string &toolName,
    llvm::function_ref<llvm::Error(const ast::Module &)> use) {
  std::string diagnostics;
  llvm::raw_string_ostream diagnosticStream(diagnostics);
  CompileOptions options;
  options.toolName = toolName;
  options.inputPath = name;
  Compilation compilation(options, &diagnosticStream);
  compilation.setSource(std::make_unique<SourceFile>(name, text));
  std::unique_ptr<ast::Module> module = parseSource(compilation);
  if (!module) {
    diagnosticStream.flush();
    while (!diagnostics.empty() && diagnostics.back() == '\n')
      diagnostics.pop_back();
    return llvm::createStringError(diagnostics);
  }
  return use(*module);
}
