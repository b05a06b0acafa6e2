//===- Compiler.cpp - run the stages a compilation asks for ---------------===//
//
// The stage sequence of tkc:
//   ast     parse, print the AST
//   tk-raw  frontend (parse, check, emit), print
//   tk      frontend + tk pipeline, print
//   tkgpu, llvm-mlir, llvm, ptx, cubin, sass-report: frontend + tk pipeline,
//           then the GPU stages (GpuStages.h).
//
//===----------------------------------------------------------------------===//

#include "compiler/driver/Compiler.h"

#include "compiler/driver/Compilation.h"
#include "compiler/driver/Frontend.h"
#include "compiler/driver/GpuStages.h"
#include "compiler/driver/PassRunner.h"
#include "compiler/driver/TkPipeline.h"
#include "compiler/frontend/ASTPrinter.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <sstream>

namespace tk {

mlir::LogicalResult
writeTextOutput(Compilation &compilation,
                llvm::function_ref<void(llvm::raw_ostream &)> write) {
  const std::string &path = compilation.getOptions().outputPath;
  if (path.empty() || path == "-") {
    write(llvm::outs());
    llvm::outs().flush();
    return mlir::success();
  }
  std::error_code error;
  llvm::ToolOutputFile file(path, error, llvm::sys::fs::OF_Text);
  if (error) {
    compilation.reportError("cannot write '" + path + "': " +
                            error.message());
    return mlir::failure();
  }
  write(file.os());
  file.os().flush();
  if (file.os().has_error()) {
    compilation.reportError("cannot write '" + path + "': " +
                            file.os().error().message());
    file.os().clear_error();
    return mlir::failure();
  }
  file.keep();
  return mlir::success();
}

static mlir::LogicalResult emitAst(Compilation &compilation) {
  if (mlir::failed(loadSource(compilation)))
    return mlir::failure();
  std::unique_ptr<ast::Module> module = parseSource(compilation);
  if (!module)
    return mlir::failure();
  if (const CompileError *error = module->findParseError()) {
    compilation.reportCompileError(*error);
    return mlir::failure();
  }
  std::ostringstream text;
  printAST(*module, text);
  return writeTextOutput(compilation,
                         [&](llvm::raw_ostream &os) { os << text.str(); });
}

mlir::LogicalResult runCompilation(Compilation &compilation) {
  EmitKind emit = compilation.getOptions().emit;
  if (emit == EmitKind::Ast)
    return emitAst(compilation);

  mlir::TimingScope frontend = compilation.time("frontend");
  mlir::OwningOpRef<mlir::ModuleOp> module = runFrontend(compilation);
  frontend.stop();
  if (!module)
    return mlir::failure();
  auto writeModule = [&]() {
    return writeTextOutput(compilation, [&](llvm::raw_ostream &os) {
      printModule(*module, os);
    });
  };
  if (emit == EmitKind::TkRaw)
    return writeModule();

  if (mlir::failed(runTkPipeline(compilation, *module)))
    return mlir::failure();
  if (emit == EmitKind::Tk)
    return writeModule();

  // tkgpu, llvm-mlir, llvm, ptx, cubin, sass-report.
  return runGpuStages(compilation, *module);
}

int compileAndReturnStatus(Compilation &compilation) {
  return mlir::succeeded(runCompilation(compilation)) ? 0 : 1;
}

} // namespace tk
