//===- LlvmPipeline.cpp - tkgpu -> LLVM dialect pass pipeline -------------===//
#include "compiler/driver/LlvmPipeline.h"

#include "compiler/conversion/Passes.h"

#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

void tk::buildLlvmPipeline(mlir::OpPassManager &pm) {
  pm.addPass(mlir::tkgpu::createConvertTkgpuToLlvm());
  // Folds the struct packing/unpacking between ops before LLVM sees it.
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
  pm.addPass(mlir::createReconcileUnrealizedCastsPass());
}
