//===- Backend.h - LLVM dialect -> PTX -> cubin + metadata ------*- C++ -*-===//
//
// The stages after the pass pipelines (GpuStages.h), for tkc and the JIT:
//   tk::translateToLlvmIrText / tk::translateToPtx (compiler/target)
//   compileToCubin       PTX, ptxas, resource stats and the metadata JSON
//
//===----------------------------------------------------------------------===//
#ifndef TK_COMPILER_DRIVER_BACKEND_H
#define TK_COMPILER_DRIVER_BACKEND_H

#include "compiler/target/LlvmToPtx.h"
#include "compiler/target/Metadata.h"
#include "compiler/target/Ptxas.h"

#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir {
class ModuleOp;
class TimingScope;
} // namespace mlir

namespace tk {

/// Everything tkc writes for --emit=cubin.
struct CubinArtifacts {
  std::string ptx;
  std::string cubin;              // ELF bytes
  std::string ptxasLog;           // ptxas -v output (warnings, stats)
  std::vector<KernelStats> stats; // per kernel, for --stats
  KernelMetadata metadata;
  std::string metadataJson;       // NAME.json
};

/// From an LLVM-dialect module (after lowerTkgpuToLlvm): PTX for
/// `options.arch`, ptxas, and the metadata of kernel `kernelName` (the only
/// kernel when empty) naming `binaryName` (e.g. "softmax.cubin") as its
/// binary.
/// `timing` (optional) gets one timer for LLVM (translation, optimization,
/// NVPTX code generation) and one for ptxas.
llvm::Expected<CubinArtifacts>
compileToCubin(mlir::ModuleOp llvmModule, const TargetOptions &options,
               llvm::StringRef kernelName, llvm::StringRef binaryName,
               mlir::TimingScope *timing = nullptr);

} // namespace tk

#endif // TK_COMPILER_DRIVER_BACKEND_H
