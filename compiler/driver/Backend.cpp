//===- Backend.cpp - LLVM dialect -> PTX -> cubin + metadata --------------===//
#include "compiler/driver/Backend.h"

#include "compiler/driver/LlvmPipeline.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

mlir::LogicalResult tk::lowerToLlvmDialect(mlir::ModuleOp module) {
  mlir::PassManager pm(module.getContext());
  buildLlvmPipeline(pm);
  return pm.run(module);
}

llvm::Expected<tk::CubinArtifacts>
tk::compileToCubin(mlir::ModuleOp llvmModule, const TargetOptions &options,
                   llvm::StringRef kernelName, llvm::StringRef binaryName) {
  CubinArtifacts artifacts;
  // Metadata first: it fails fast on a module without the kernel.
  auto metadata = collectKernelMetadata(llvmModule, kernelName);
  if (!metadata)
    return metadata.takeError();
  artifacts.metadata = std::move(*metadata);
  artifacts.metadata.arch = options.arch;
  artifacts.metadata.binary = binaryName.str();
  artifacts.metadata.binaryKind = "cubin";

  auto ptx = translateToPtx(llvmModule, options);
  if (!ptx)
    return ptx.takeError();
  artifacts.ptx = std::move(*ptx);

  auto cubin = assemblePtx(artifacts.ptx, options.arch, options.optLevel);
  if (!cubin)
    return cubin.takeError();
  artifacts.cubin = std::move(cubin->cubin);
  artifacts.ptxasLog = std::move(cubin->log);
  artifacts.stats = std::move(cubin->kernels);
  artifacts.metadataJson = buildMetadataJson(artifacts.metadata);
  return artifacts;
}
