//===- GpuStages.cpp - tkc's stages after the tk pipeline -----------------===//
#include "compiler/driver/GpuStages.h"

#include "compiler/driver/Backend.h"
#include "compiler/driver/Compilation.h"
#include "compiler/driver/Compiler.h"
#include "compiler/driver/Frontend.h"
#include "compiler/driver/GpuPipeline.h"
#include "compiler/driver/LlvmPipeline.h"
#include "compiler/driver/PassRunner.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace tk;

/// Writes `bytes` to `path` (binary).
static mlir::LogicalResult writeFile(Compilation &compilation,
                                     llvm::StringRef path,
                                     llvm::StringRef bytes,
                                     llvm::sys::fs::OpenFlags flags) {
  std::error_code error;
  llvm::ToolOutputFile file(path, error, flags);
  if (!error) {
    file.os() << bytes;
    file.os().flush();
    if (file.os().has_error()) {
      error = file.os().error();
      file.os().clear_error();
    }
  }
  if (error) {
    compilation.reportError("cannot write '" + path + "': " +
                            error.message());
    return mlir::failure();
  }
  file.keep();
  return mlir::success();
}

/// The name of the module's only kernel.
static std::string getKernelName(mlir::ModuleOp module) {
  std::string name = "kernel";
  for (mlir::Operation &op : module.getBody()->getOperations())
    if (op.hasAttr("nvvm.kernel") || op.hasAttr("tk.kernel"))
      if (auto symbol = op.getAttrOfType<mlir::StringAttr>(
              mlir::SymbolTable::getSymbolAttrName()))
        name = symbol.str();
  return name;
}

mlir::LogicalResult tk::lowerToTkgpu(Compilation &compilation,
                                     mlir::ModuleOp module) {
  const CompileOptions &options = compilation.getOptions();
  return runPipeline(compilation, module, "tkgpu",
                     [&](mlir::OpPassManager &pm) {
                       buildTkgpuPipeline(pm, getNumWarps(module),
                                          getNumStages(module), options.arch,
                                          options.switches);
                     });
}

mlir::LogicalResult tk::lowerTkgpuToLlvm(Compilation &compilation,
                                         mlir::ModuleOp module) {
  const CompileOptions &options = compilation.getOptions();
  return runPipeline(compilation, module, "llvm",
                     [&](mlir::OpPassManager &pm) {
                       buildLlvmPipeline(pm,
                                         options.switches.rebaseDescriptors);
                     });
}

mlir::LogicalResult tk::runGpuStages(Compilation &compilation,
                                     mlir::ModuleOp module) {
  const CompileOptions &options = compilation.getOptions();
  EmitKind emit = options.emit;
  auto printResult = [&] {
    return writeTextOutput(compilation, [&](llvm::raw_ostream &os) {
      printModule(module, os);
    });
  };
  auto writeText = [&](const std::string &text) {
    return writeTextOutput(compilation,
                           [&](llvm::raw_ostream &os) { os << text; });
  };
  auto reportError = [&](llvm::Error error) {
    compilation.reportError(llvm::toString(std::move(error)));
    return mlir::failure();
  };

  if (mlir::failed(lowerToTkgpu(compilation, module)))
    return mlir::failure();
  if (emit == EmitKind::TkGpu)
    return printResult();
  if (mlir::failed(lowerTkgpuToLlvm(compilation, module)))
    return mlir::failure();
  if (emit == EmitKind::LlvmMlir)
    return printResult();

  TargetOptions target;
  target.arch = options.arch;
  if (emit == EmitKind::Llvm) {
    auto text = translateToLlvmIrText(module, target);
    return text ? writeText(*text) : reportError(text.takeError());
  }
  if (emit == EmitKind::Ptx) {
    auto ptx = translateToPtx(module, target);
    return ptx ? writeText(*ptx) : reportError(ptx.takeError());
  }

  std::string kernel = getKernelName(module);
  std::string cubinPath = options.outputPath;
  if (cubinPath.empty() || cubinPath == "-" || emit == EmitKind::SassReport)
    cubinPath = kernel + ".cubin";
  mlir::TimingScope backend = compilation.time("LLVM and ptxas");
  auto artifacts = compileToCubin(module, target, /*kernelName=*/"",
                                  llvm::sys::path::filename(cubinPath),
                                  &backend);
  backend.stop();
  if (!artifacts)
    return reportError(artifacts.takeError());
  std::string stats;
  for (const KernelStats &k : artifacts->stats)
    stats += formatKernelStats(k) + ", " +
             std::to_string(artifacts->metadata.sharedBytes) +
             " bytes dynamic smem\n";

  if (emit == EmitKind::SassReport)
    return writeText("ptxas -v for " + options.arch + ":\n" +
                     artifacts->ptxasLog + "\n" + stats);

  llvm::SmallString<128> jsonPath(cubinPath);
  llvm::sys::path::replace_extension(jsonPath, "json");
  if (mlir::failed(writeFile(compilation, cubinPath, artifacts->cubin,
                             llvm::sys::fs::OF_None)) ||
      mlir::failed(writeFile(compilation, jsonPath, artifacts->metadataJson,
                             llvm::sys::fs::OF_Text)))
    return mlir::failure();
  if (options.printStats)
    llvm::errs() << stats;
  return mlir::success();
}
