//===- LlvmPipeline.cpp - tkgpu -> LLVM dialect pass pipeline -------------===//
#include "compiler/driver/LlvmPipeline.h"

#include "compiler/conversion/Passes.h"
#include "compiler/transforms/llvm/Passes.h"

#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

void tk::buildLlvmPipeline(mlir::OpPassManager &pm, bool rebaseDescriptors) {
  mlir::tkgpu::ConvertTkgpuToLlvmOptions conversion;
  conversion.rebaseDescriptors = rebaseDescriptors;
  pm.addPass(mlir::tkgpu::createConvertTkgpuToLlvm(conversion));
  // NVVM ops without an intrinsic (nvvm.wgmma.mma_async) become PTX.
  pm.addPass(mlir::createConvertNVVMToLLVMPass());
  pm.addPass(mlir::tk::createTkLlvmPruneBarriers());
  // Folds the struct packing/unpacking between ops before LLVM sees it,
  // and before unpacking ops sink.
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
  pm.addPass(mlir::tk::createTkLlvmSinkUnpacking());
  pm.addPass(mlir::createReconcileUnrealizedCastsPass());
}
