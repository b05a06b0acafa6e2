//===- GpuPipeline.cpp - tk -> tkgpu pass pipeline ------------------------===//
#include "compiler/driver/GpuPipeline.h"

#include "compiler/driver/LlvmPipeline.h"

#include "compiler/transforms/Passes.h"
#include "compiler/transforms/gpu/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

void tk::buildTkgpuPipeline(mlir::OpPassManager &pm, int numWarps,
                            int numStages, llvm::StringRef arch,
                            const TkgpuPipelineSwitches &switches) {
  unsigned mmaVersion = switches.mmaVersion;
  InvariantARegisters invariantA = switches.invariantA;
  mlir::tkgpu::ConvertTkToTkgpuOptions options;
  options.numWarps = numWarps;
  options.threadsPerWarp = 32;
  options.target = arch.str();
  // tk -> tk: the accesses no target-specific path takes become masked
  // loads and stores (the interpreter runs the descriptor ops themselves).
  // On sm_90 and later the ones TMA can serve stay for tkgpu-lower-tma,
  // unless mma v2 (the sm_80 instruction sequence) was asked for.
  bool tma = mlir::tkgpu::getComputeCapability(arch) >= 90 && mmaVersion != 2;
  mlir::tk::TkLowerTensorDescriptorsOptions descriptorOptions;
  descriptorOptions.keepHostTma = tma;
  pm.addPass(mlir::tk::createTkLowerTensorDescriptors(descriptorOptions));
  pm.addPass(mlir::tkgpu::createConvertTkToTkgpu(options));
  pm.addPass(mlir::tkgpu::createTkgpuCoalesce());
  pm.addPass(mlir::tkgpu::createTkgpuRemoveLayoutConversions());
  mlir::tkgpu::TkgpuAccelerateMatmulOptions matmulOptions;
  matmulOptions.mmaVersion = mmaVersion;
  pm.addPass(mlir::tkgpu::createTkgpuAccelerateMatmul(matmulOptions));
  pm.addPass(mlir::tkgpu::createTkgpuRemoveLayoutConversions());
  pm.addPass(mlir::tkgpu::createTkgpuOperandsInRegisters());
  // On the loops as written (before the pipeliner copies their bodies).
  if (switches.deferRowSums)
    pm.addPass(mlir::tkgpu::createTkgpuDeferRowSums());
  // After accelerate-matmul: TMA fills the operand buffers it staged.
  if (tma) {
    pm.addPass(mlir::tkgpu::createTkgpuLowerTma());
    // Before the pipeliner: the marked TMA loops it would otherwise
    // software-pipeline.
    mlir::tkgpu::TkgpuWarpSpecializeOptions specializeOptions;
    specializeOptions.numStages = numStages;
    pm.addPass(mlir::tkgpu::createTkgpuWarpSpecialize(specializeOptions));
  }
  // After accelerate-matmul (its local_alloc/local_load form is the input).
  mlir::tkgpu::TkgpuPipelineOptions pipelineOptions;
  pipelineOptions.numStages = numStages;
  pm.addPass(mlir::tkgpu::createTkgpuPipeline(pipelineOptions));
  // After the pipeliner (its loop form is what the early load needs).
  mlir::tkgpu::TkgpuPrefetchOptions prefetchOptions;
  prefetchOptions.beforeCopies = switches.prefetchBeforeCopies;
  pm.addPass(mlir::tkgpu::createTkgpuPrefetch(prefetchOptions));
  // After the pipeliner and warp specialization: the loops as they run.
  if (invariantA != InvariantARegisters::Never) {
    mlir::tkgpu::TkgpuInvariantOperandsInRegistersOptions invariantOptions;
    invariantOptions.always = invariantA == InvariantARegisters::Always;
    invariantOptions.automatic = invariantA == InvariantARegisters::Automatic;
    pm.addPass(
        mlir::tkgpu::createTkgpuInvariantOperandsInRegisters(invariantOptions));
  }
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
  // After the pipeliner: its multi-buffers decide whether the stores'
  // staging fits.
  if (tma) {
    mlir::tkgpu::TkgpuSubtileTmaStoresOptions subtileOptions;
    subtileOptions.chunks = switches.epilogueSubtile;
    pm.addPass(mlir::tkgpu::createTkgpuSubtileTmaStores(subtileOptions));
  }
  // Last: offsets and barriers for the ops as they will be lowered.
  pm.addPass(mlir::tkgpu::createTkgpuAllocateSharedMemory());
  pm.addPass(mlir::tkgpu::createTkgpuMembar());
  // After membar: it must see every CTA barrier the consumers will wait at.
  if (tma && switches.pingPong)
    pm.addPass(mlir::tkgpu::createTkgpuPingPong());
}

std::string tk::describeSwitches(const TkgpuPipelineSwitches &switches) {
  const char *invariantA =
      switches.invariantA == InvariantARegisters::Never    ? "never"
      : switches.invariantA == InvariantARegisters::Always ? "always"
                                                           : "auto";
  return "mma-version=" + std::to_string(switches.mmaVersion) +
         " ping-pong=" + std::to_string(switches.pingPong) +
         " defer-row-sums=" + std::to_string(switches.deferRowSums) +
         " prefetch-before-copies=" +
         std::to_string(switches.prefetchBeforeCopies) +
         " epilogue-subtile=" + std::to_string(switches.epilogueSubtile) +
         " invariant-a=" + invariantA +
         " rebase-descriptors=" + std::to_string(switches.rebaseDescriptors);
}

void tk::buildGpuPipeline(mlir::OpPassManager &pm, int numWarps,
                          int numStages, llvm::StringRef arch,
                          const TkgpuPipelineSwitches &switches) {
  buildTkgpuPipeline(pm, numWarps, numStages, arch, switches);
  buildLlvmPipeline(pm, switches.rebaseDescriptors);
}

namespace {

/// tk-opt's spelling of buildGpuPipeline's arguments.
struct GpuPipelineOptions
    : public mlir::PassPipelineOptions<GpuPipelineOptions> {
  Option<int> numWarps{*this, "num-warps", llvm::cl::init(4)};
  Option<int> numStages{*this, "num-stages", llvm::cl::init(3)};
  Option<std::string> arch{*this, "arch", llvm::cl::init("sm_90a")};
  Option<unsigned> mmaVersion{*this, "mma-version", llvm::cl::init(0)};
  Option<bool> pingPong{*this, "ping-pong", llvm::cl::init(true)};
  Option<bool> deferRowSums{*this, "defer-row-sums", llvm::cl::init(true)};
  Option<bool> prefetchBeforeCopies{*this, "prefetch-before-copies",
                                    llvm::cl::init(true)};
  Option<unsigned> epilogueSubtile{*this, "epilogue-subtile",
                                   llvm::cl::init(0)};
  Option<std::string> invariantA{
      *this, "invariant-a", llvm::cl::desc("never, auto or always"),
      llvm::cl::init("auto")};
  Option<bool> rebaseDescriptors{*this, "rebase-descriptors",
                                 llvm::cl::init(false)};
};

} // namespace

void tk::registerGpuPipeline() {
  mlir::PassPipelineRegistration<GpuPipelineOptions>(
      "tk-gpu-pipeline",
      "tkc's GPU pipeline: tk (after the tk pipeline) to the LLVM and NVVM "
      "dialects",
      [](mlir::OpPassManager &pm, const GpuPipelineOptions &options) {
        TkgpuPipelineSwitches switches;
        switches.mmaVersion = options.mmaVersion;
        switches.pingPong = options.pingPong;
        switches.deferRowSums = options.deferRowSums;
        switches.prefetchBeforeCopies = options.prefetchBeforeCopies;
        switches.epilogueSubtile = options.epilogueSubtile;
        switches.invariantA =
            options.invariantA == "never"    ? InvariantARegisters::Never
            : options.invariantA == "always" ? InvariantARegisters::Always
                                             : InvariantARegisters::Automatic;
        switches.rebaseDescriptors = options.rebaseDescriptors;
        buildGpuPipeline(pm, options.numWarps, options.numStages,
                         options.arch, switches);
      });
}
