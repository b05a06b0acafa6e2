//===- Registration.cpp - every dialect and pass tk tools know ------------===//
#include "compiler/driver/Registration.h"

#include "compiler/driver/GpuPipeline.h"

#include "compiler/analysis/ScratchSize.h"
#include "compiler/conversion/Passes.h"
#include "compiler/transforms/Passes.h"
#include "compiler/transforms/gpu/Passes.h"
#include "compiler/transforms/llvm/Passes.h"
#include "dialects/tk/TkDialect.h"
#include "dialects/tkgpu/TkgpuDialect.h"

#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/Passes.h"

void tk::registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<mlir::tk::TkDialect, mlir::tkgpu::TkgpuDialect,
                  mlir::func::FuncDialect,
                  mlir::arith::ArithDialect, mlir::math::MathDialect,
                  mlir::scf::SCFDialect, mlir::cf::ControlFlowDialect,
                  mlir::LLVM::LLVMDialect, mlir::NVVM::NVVMDialect>();
  // Scratch sizes of the ops whose lowering uses shared memory.
  mlir::tkgpu::registerScratchModels(registry);
}

void tk::registerAllPasses() {
  mlir::registerTransformsPasses();
  mlir::tk::registerTkPasses();
  mlir::tkgpu::registerTkGpuPasses();
  mlir::tkgpu::registerTkConversionPasses();
  mlir::tk::registerTkLlvmPasses();
  // The last pass of buildLlvmPipeline, and the one that turns NVVM ops
  // without intrinsics (wgmma.mma_async) into PTX.
  mlir::registerPass([] { return mlir::createReconcileUnrealizedCastsPass(); });
  mlir::registerPass([] { return mlir::createConvertNVVMToLLVMPass(); });
  registerGpuPipeline();
}
