//===- GpuPipeline.cpp - tk -> tkgpu pass pipeline ------------------------===//
#include "compiler/driver/GpuPipeline.h"

#include "compiler/transforms/Passes.h"
#include "compiler/transforms/gpu/Passes.h"

#include "mlir/Pass/PassManager.h"
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
