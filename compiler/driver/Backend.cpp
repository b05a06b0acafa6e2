//===- Backend.cpp - LLVM dialect -> PTX -> cubin + metadata --------------===//
#include "compiler/driver/Backend.h"


#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/Timing.h"

llvm::Expected<tk::CubinArtifacts>
tk::compileToCubin(mlir::ModuleOp llvmModule, const TargetOptions &options,
                   llvm::StringRef kernelName, llvm::StringRef binaryName,
                   mlir::TimingScope *timing) {
  auto time = [&](llvm::StringRef name) {
    return timing ? timing->nest(name) : mlir::TimingScope();
  };
  CubinArtifacts artifacts;
  // Metadata first: it fails fast on a module without the kernel.
  auto metadata = collectKernelMetadata(llvmModule, kernelName);
  if (!metadata)
    return metadata.takeError();
  artifacts.metadata = std::move(*metadata);
  artifacts.metadata.arch = options.arch;
  artifacts.metadata.binary = binaryName.str();
  artifacts.metadata.binaryKind = "cubin";

  mlir::TimingScope llvmTiming =
      time("LLVM IR, LLVM optimization, NVPTX code generation");
  auto ptx = translateToPtx(llvmModule, options);
  llvmTiming.stop();
  if (!ptx)
    return ptx.takeError();
  artifacts.ptx = std::move(*ptx);

  mlir::TimingScope ptxasTiming = time("ptxas");
  auto cubin = assemblePtx(artifacts.ptx, options.arch, options.optLevel);
  ptxasTiming.stop();
  if (!cubin)
    return cubin.takeError();
  artifacts.cubin = std::move(cubin->cubin);
  artifacts.ptxasLog = std::move(cubin->log);
  artifacts.stats = std::move(cubin->kernels);
  artifacts.metadataJson = buildMetadataJson(artifacts.metadata);
  return artifacts;
}
