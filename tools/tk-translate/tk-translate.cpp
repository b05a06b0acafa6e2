//===- tk-translate.cpp - run the back-end stages on MLIR files -----------===//
//
// mlir-translate with tk's back end, so that each stage after the LLVM
// dialect can be tested alone with FileCheck:
//   --tk-to-llvmir     optimized LLVM IR for NVPTX
//   --tk-to-ptx        PTX text
//   --tk-ptxas-stats   assemble with ptxas, print registers/spills per kernel
//   --tk-metadata      the kernel metadata JSON
//
//===----------------------------------------------------------------------===//
#include "compiler/driver/Registration.h"
#include "compiler/target/LlvmToPtx.h"
#include "compiler/target/Metadata.h"
#include "compiler/target/Ptxas.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

static llvm::cl::opt<std::string>
    archOption("tk-arch", llvm::cl::desc("GPU architecture (sm_80, sm_90a)"),
               llvm::cl::init("sm_90a"));
static llvm::cl::opt<unsigned>
    optLevelOption("tk-opt-level", llvm::cl::desc("LLVM optimization level"),
                   llvm::cl::init(3));

static tk::TargetOptions targetOptions() {
  tk::TargetOptions options;
  options.arch = archOption;
  options.optLevel = optLevelOption;
  return options;
}

static void registerDialects(mlir::DialectRegistry &registry) {
  tk::registerAllDialects(registry);
  tk::registerLlvmIrTranslations(registry);
}

/// Reports `error` at the module and fails.
static mlir::LogicalResult fail(mlir::ModuleOp module, llvm::Error error) {
  return mlir::emitError(module.getLoc()) << llvm::toString(std::move(error));
}

static void registerTranslations() {
  static mlir::TranslateFromMLIRRegistration toLlvmIr(
      "tk-to-llvmir", "LLVM dialect -> optimized LLVM IR for NVPTX",
      [](mlir::ModuleOp module, llvm::raw_ostream &os) {
        auto text = tk::translateToLlvmIrText(module, targetOptions());
        if (!text)
          return fail(module, text.takeError());
        os << *text;
        return mlir::success();
      },
      registerDialects);

  static mlir::TranslateFromMLIRRegistration toPtx(
      "tk-to-ptx", "LLVM dialect -> PTX",
      [](mlir::ModuleOp module, llvm::raw_ostream &os) {
        auto ptx = tk::translateToPtx(module, targetOptions());
        if (!ptx)
          return fail(module, ptx.takeError());
        os << *ptx;
        return mlir::success();
      },
      registerDialects);

  static mlir::TranslateFromMLIRRegistration ptxasStats(
      "tk-ptxas-stats", "LLVM dialect -> PTX -> ptxas; print its resource use",
      [](mlir::ModuleOp module, llvm::raw_ostream &os) {
        tk::TargetOptions options = targetOptions();
        auto ptx = tk::translateToPtx(module, options);
        if (!ptx)
          return fail(module, ptx.takeError());
        auto cubin = tk::assemblePtx(*ptx, options.arch);
        if (!cubin)
          return fail(module, cubin.takeError());
        os << "cubin: " << cubin->cubin.size() << " bytes, ELF "
           << (llvm::StringRef(cubin->cubin).starts_with("\x7f" "ELF") ? "yes"
                                                                       : "no")
           << "\n";
        for (const tk::KernelStats &k : cubin->kernels)
          os << tk::formatKernelStats(k) << "\n";
        return mlir::success();
      },
      registerDialects);

  static mlir::TranslateFromMLIRRegistration metadata(
      "tk-metadata", "the kernel metadata JSON of a tk/tkgpu/LLVM module",
      [](mlir::ModuleOp module, llvm::raw_ostream &os) {
        auto md = tk::collectKernelMetadata(module);
        if (!md)
          return fail(module, md.takeError());
        md->arch = archOption;
        md->binary = md->name + ".cubin";
        os << tk::buildMetadataJson(*md);
        return mlir::success();
      },
      registerDialects);
}

int main(int argc, char **argv) {
  registerTranslations();
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "tk back-end translation driver"));
}
