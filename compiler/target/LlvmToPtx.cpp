//===- LlvmToPtx.cpp - LLVM-dialect module to LLVM IR and PTX -------------===//
#include "compiler/target/LlvmToPtx.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/OptimizationLevel.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CodeGen.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"

#include <mutex>

// Only the NVPTX back end is linked in; TargetSelect.h would reference every
// configured target.
extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeNVPTXAsmPrinter();
}

using namespace tk;

static constexpr llvm::StringLiteral kNvptxTriple = "nvptx64-nvidia-cuda";

static void initializeNvptxOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
}

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

static llvm::CodeGenOptLevel codeGenLevel(unsigned optLevel) {
  switch (optLevel) {
  case 0:
    return llvm::CodeGenOptLevel::None;
  case 1:
    return llvm::CodeGenOptLevel::Less;
  case 2:
    return llvm::CodeGenOptLevel::Default;
  default:
    return llvm::CodeGenOptLevel::Aggressive;
  }
}

static llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createNvptxTargetMachine(const TargetOptions &options) {
  initializeNvptxOnce();
  llvm::Triple triple(kNvptxTriple);
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return makeError("NVPTX target unavailable: " + error);
  llvm::TargetOptions targetOptions;
  targetOptions.AllowFPOpFusion = options.enableFpFusion
                                      ? llvm::FPOpFusion::Fast
                                      : llvm::FPOpFusion::Standard;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, options.arch, options.ptxFeature, targetOptions,
      /*RM=*/std::nullopt, /*CM=*/std::nullopt,
      codeGenLevel(options.optLevel)));
  if (!machine)
    return makeError("cannot create an NVPTX target machine for '" +
                     options.arch + "'");
  // An unknown CPU only warns inside LLVM and then emits PTX for a default
  // target: reject it here instead.
  if (!machine->getMCSubtargetInfo()->isCPUStringValid(options.arch))
    return makeError("unknown GPU architecture '" + options.arch +
                     "' (expected e.g. sm_80 or sm_90a)");
  return machine;
}

static void optimize(llvm::Module &module, llvm::TargetMachine &machine,
                     unsigned optLevel) {
  llvm::LoopAnalysisManager loopAnalyses;
  llvm::FunctionAnalysisManager functionAnalyses;
  llvm::CGSCCAnalysisManager cgsccAnalyses;
  llvm::ModuleAnalysisManager moduleAnalyses;

  llvm::PipelineTuningOptions tuning;
  tuning.LoopUnrolling = true;
  tuning.LoopInterleaving = true;
  tuning.LoopVectorization = true;
  // Packs pairs of f16/bf16 operations into f16x2/bf16x2 instructions.
  tuning.SLPVectorization = true;

  // The constructor lets the NVPTX machine add its own passes (NVVMReflect,
  // address-space inference).
  llvm::PassBuilder builder(&machine, tuning);
  builder.registerModuleAnalyses(moduleAnalyses);
  builder.registerCGSCCAnalyses(cgsccAnalyses);
  builder.registerFunctionAnalyses(functionAnalyses);
  builder.registerLoopAnalyses(loopAnalyses);
  builder.crossRegisterProxies(loopAnalyses, functionAnalyses, cgsccAnalyses,
                               moduleAnalyses);

  llvm::OptimizationLevel level = llvm::OptimizationLevel::O3;
  if (optLevel == 1)
    level = llvm::OptimizationLevel::O1;
  else if (optLevel == 2)
    level = llvm::OptimizationLevel::O2;
  llvm::ModulePassManager passes =
      optLevel == 0 ? builder.buildO0DefaultPipeline(llvm::OptimizationLevel::O0)
                    : builder.buildPerModuleDefaultPipeline(level);
  passes.run(module, moduleAnalyses);
}

void tk::registerLlvmIrTranslations(mlir::DialectRegistry &registry) {
  mlir::registerBuiltinDialectTranslation(registry);
  mlir::registerLLVMDialectTranslation(registry);
  mlir::registerNVVMDialectTranslation(registry);
}

llvm::Expected<std::unique_ptr<llvm::Module>>
tk::translateToLlvmIr(mlir::ModuleOp module, llvm::LLVMContext &llvmContext,
                      const TargetOptions &options) {
  mlir::DialectRegistry registry;
  registerLlvmIrTranslations(registry);
  module.getContext()->appendDialectRegistry(registry);

  auto machine = createNvptxTargetMachine(options);
  if (!machine)
    return machine.takeError();

  std::unique_ptr<llvm::Module> llvmModule =
      mlir::translateModuleToLLVMIR(module, llvmContext, "tk");
  if (!llvmModule)
    return makeError("translation to LLVM IR failed (see the diagnostics "
                     "above)");
  llvmModule->setTargetTriple((*machine)->getTargetTriple());
  llvmModule->setDataLayout((*machine)->createDataLayout());

  std::string verifierLog;
  llvm::raw_string_ostream verifierStream(verifierLog);
  if (llvm::verifyModule(*llvmModule, &verifierStream))
    return makeError("invalid LLVM IR after translation: " + verifierLog);

  optimize(*llvmModule, **machine, options.optLevel);
  return llvmModule;
}

llvm::Expected<std::string>
tk::translateToLlvmIrText(mlir::ModuleOp module, const TargetOptions &options) {
  llvm::LLVMContext llvmContext;
  auto llvmModule = translateToLlvmIr(module, llvmContext, options);
  if (!llvmModule)
    return llvmModule.takeError();
  std::string text;
  llvm::raw_string_ostream os(text);
  (*llvmModule)->print(os, /*AAW=*/nullptr);
  return text;
}

llvm::Expected<std::string> tk::emitPtx(llvm::Module &llvmModule,
                                        const TargetOptions &options) {
  auto machine = createNvptxTargetMachine(options);
  if (!machine)
    return machine.takeError();
  llvmModule.setDataLayout((*machine)->createDataLayout());

  llvm::SmallString<0> ptx;
  {
    llvm::raw_svector_ostream os(ptx);
    llvm::legacy::PassManager codegen;
    if ((*machine)->addPassesToEmitFile(codegen, os, /*DwoOut=*/nullptr,
                                        llvm::CodeGenFileType::AssemblyFile))
      return makeError("the NVPTX target cannot emit PTX");
    codegen.run(llvmModule);
  }
  return std::string(ptx.str());
}

llvm::Expected<std::string> tk::translateToPtx(mlir::ModuleOp module,
                                               const TargetOptions &options) {
  llvm::LLVMContext llvmContext;
  auto llvmModule = translateToLlvmIr(module, llvmContext, options);
  if (!llvmModule)
    return llvmModule.takeError();
  return emitPtx(**llvmModule, options);
}
