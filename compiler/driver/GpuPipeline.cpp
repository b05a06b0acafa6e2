//===- GpuPipeline.cpp - tk -> tkgpu pass pipeline ------------------------===//
#include "compiler/driver/GpuPipeline.h"

#include "compiler/transforms/Passes.h"
#include "compiler/transforms/gpu/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

void tk::buildTkgpuPipeline(mlir::OpPassManager &pm, int numWarps,
                            int numStages, llvm::StringRef arch,
                            unsigned mmaVersion) {
  mlir::tkgpu::ConvertTkToTkgpuOptions options;
  options.numWarps = numWarps;
  options.threadsPerWarp = 32;
  options.target = arch.str();
  // tk -> tk: the accesses no target-specific path takes become masked
  // loads and stores (the interpreter runs the descriptor ops themselves).
  pm.addPass(mlir::tk::createTkLowerTensorDescriptors());
  pm.addPass(mlir::tkgpu::createConvertTkToTkgpu(options));
  pm.addPass(mlir::tkgpu::createTkgpuCoalesce());
  pm.addPass(mlir::tkgpu::createTkgpuRemoveLayoutConversions());
  mlir::tkgpu::TkgpuAccelerateMatmulOptions matmulOptions;
  matmulOptions.mmaVersion = mmaVersion;
  pm.addPass(mlir::tkgpu::createTkgpuAccelerateMatmul(matmulOptions));
  pm.addPass(mlir::tkgpu::createTkgpuRemoveLayoutConversions());
  pm.addPass(mlir::tkgpu::createTkgpuOperandsInRegisters());
  // After accelerate-matmul (its local_alloc/local_load form is the input).
  mlir::tkgpu::TkgpuPipelineOptions pipelineOptions;
  pipelineOptions.numStages = numStages;
  pm.addPass(mlir::tkgpu::createTkgpuPipeline(pipelineOptions));
  // After the pipeliner (its loop form is what the early load needs).
  pm.addPass(mlir::tkgpu::createTkgpuPrefetch());
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
  // Last: offsets and barriers for the ops as they will be lowered.
  pm.addPass(mlir::tkgpu::createTkgpuAllocateSharedMemory());
  pm.addPass(mlir::tkgpu::createTkgpuMembar());
}
