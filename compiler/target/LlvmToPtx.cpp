//===- LlvmToPtx.cpp - LLVM-dialect module to LLVM IR and PTX -------------===//
#include "compiler/target/LlvmToPtx.h"

#include "compiler/target/Ptxas.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/OptBisect.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/OptimizationLevel.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CodeGen.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/IPO/Internalize.h"

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

llvm::Expected<std::string> tk::findLibdevice() {
  if (std::optional<std::string> fromEnv =
          llvm::sys::Process::GetEnv("TK_LIBDEVICE")) {
    if (!fromEnv->empty()) {
      if (!llvm::sys::fs::is_regular_file(*fromEnv))
        return makeError("TK_LIBDEVICE is '" + *fromEnv +
                         "', which is not a file");
      return *fromEnv;
    }
  }
  // <cuda>/nvvm/libdevice/libdevice.10.bc, <cuda> holding the bin/ptxas we
  // assemble with, else /usr/local/cuda.
  llvm::SmallVector<std::string, 2> roots;
  if (llvm::Expected<std::string> ptxas = findPtxas())
    roots.push_back(llvm::sys::path::parent_path(
                        llvm::sys::path::parent_path(*ptxas))
                        .str());
  else
    llvm::consumeError(ptxas.takeError());
  roots.push_back("/usr/local/cuda");
  for (const std::string &root : roots) {
    llvm::SmallString<256> path(root);
    llvm::sys::path::append(path, "nvvm", "libdevice", "libdevice.10.bc");
    if (llvm::sys::fs::is_regular_file(path))
      return std::string(path.str());
  }
  return makeError("libdevice.10.bc not found: set TK_LIBDEVICE to its "
                   "path, or install the CUDA toolkit in /usr/local/cuda "
                   "(it is <cuda>/nvvm/libdevice/libdevice.10.bc)");
}

/// Links the libdevice functions that `module` declares (`__nv_powf`, ...)
/// from libdevice.10.bc: lazily read, only what is needed, then
/// internalized, so that the O3 pipeline inlines them and drops the bodies.
/// Modules without such calls are left alone and pay nothing.
static llvm::Error linkLibdevice(llvm::Module &module) {
  std::string firstCall;
  for (const llvm::Function &function : module.functions())
    if (function.isDeclaration() && function.getName().starts_with("__nv_")) {
      firstCall = function.getName().str();
      break;
    }
  if (firstCall.empty())
    return llvm::Error::success();

  auto path = findLibdevice();
  if (!path)
    return makeError("the kernel calls libdevice's " + firstCall + ", but " +
                     llvm::toString(path.takeError()));
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(*path);
  if (!buffer)
    return makeError("cannot read libdevice '" + *path +
                     "': " + buffer.getError().message());
  auto library = llvm::getOwningLazyBitcodeModule(std::move(*buffer),
                                                  module.getContext());
  if (!library)
    return makeError("cannot read libdevice '" + *path + "': " +
                     llvm::toString(library.takeError()));
  // libdevice says nvptx64-nvidia-gpulibs; ours is what it is linked into.
  (*library)->setTargetTriple(module.getTargetTriple());
  (*library)->setDataLayout(module.getDataLayout());

  llvm::StringSet<> ownSymbols;
  for (const llvm::GlobalValue &global : module.global_values())
    if (!global.isDeclaration())
      ownSymbols.insert(global.getName());
  if (llvm::Linker::linkModules(module, std::move(*library),
                                llvm::Linker::Flags::LinkOnlyNeeded))
    return makeError("linking libdevice '" + *path + "' failed");
  llvm::internalizeModule(module, [&](const llvm::GlobalValue &global) {
    return ownSymbols.contains(global.getName());
  });
  // __nvvm_reflect("__CUDA_FTZ") in libdevice: tk's own f32 arithmetic
  // keeps denormals, so libdevice's must too.
  module.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz",
                       uint32_t(0));
  return llvm::Error::success();
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

  if (llvm::Error error = linkLibdevice(*llvmModule))
    return std::move(error);
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

namespace {
/// Keeps LLVM's straight-line strength reduction (`slsr`, one of the IR
/// passes NVPTX's code generation runs) out of functions with more than
/// kMaxSlsrCandidates integer multiplies and GEPs. Its cost grows faster
/// than their number (perf puts it in ScalarEvolution::canReuseInstruction,
/// which walks the ever longer chains it builds): measured here, 0.03 s at
/// 294, 0.10 s at 529, 0.25 s at 904 (the unspecialized examples/matmul.tk,
/// 45% of its whole compile) and 0.36 s at 1358. Functions that large are the ones whose
/// addresses are computed per element (run-time strides, no vector
/// accesses), where ptxas's own strength reduction is what counts; every
/// benchmarked kernel (vectorized matmuls, attention) stays under the
/// limit, so their PTX does not change. The gate identifies a function by
/// the description the legacy pass manager gives it.
class SlsrGate : public llvm::OptPassGate {
public:
  static constexpr unsigned kMaxSlsrCandidates = 512;

  explicit SlsrGate(const llvm::Module &module) {
    for (const llvm::Function &function : module) {
      unsigned candidates = 0;
      for (const llvm::BasicBlock &block : function)
        for (const llvm::Instruction &inst : block)
          candidates += llvm::isa<llvm::GetElementPtrInst>(inst) ||
                        inst.getOpcode() == llvm::Instruction::Mul;
      if (candidates > kMaxSlsrCandidates)
        skipped.insert(("function (" + function.getName() + ")").str());
    }
  }
  bool shouldRunPass(llvm::StringRef pass,
                     llvm::StringRef irDescription) const override {
    return pass != "slsr" || !skipped.contains(irDescription);
  }
  bool isEnabled() const override { return !skipped.empty(); }

private:
  llvm::StringSet<> skipped;
};
} // namespace

llvm::Expected<std::string> tk::emitPtx(llvm::Module &llvmModule,
                                        const TargetOptions &options) {
  auto machine = createNvptxTargetMachine(options);
  if (!machine)
    return machine.takeError();
  llvmModule.setDataLayout((*machine)->createDataLayout());

  SlsrGate gate(llvmModule);
  llvm::OptPassGate &previousGate = llvmModule.getContext().getOptPassGate();
  llvmModule.getContext().setOptPassGate(gate);
  llvm::scope_exit restoreGate(
      [&] { llvmModule.getContext().setOptPassGate(previousGate); });
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
