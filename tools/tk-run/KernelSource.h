//===- KernelSource.h - Where tk-run gets its kernel from --------*- C++ -*-===//
//
// A .tk file compiled in process by the compiler driver, or tk IR read as
// it is. Either way tk-run gets an interpreter Kernel (which also says what
// the parameters are) and, when the kernel is to run through libtkrt, a
// loadable image: the metadata plus the tk IR (interpreter backend) or the
// cubin (GPU), compiled in process.
//
//===----------------------------------------------------------------------===//

#ifndef TK_TOOLS_TK_RUN_KERNELSOURCE_H
#define TK_TOOLS_TK_RUN_KERNELSOURCE_H

#include "compiler/driver/GpuPipeline.h"
#include "compiler/frontend/IRGen.h"
#include "compiler/interpreter/Interpreter.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tk::run {

struct SourceOptions {
  std::string path;
  /// The file holds tk IR (--ir, or a .mlir name).
  bool isIR = false;
  /// Empty: the file's only kernel.
  std::string kernelName;
  /// -D NAME=VALUE, in command-line order.
  std::vector<std::pair<std::string, std::string>> defines;
  std::optional<unsigned> numWarps;
  std::optional<unsigned> numStages;
  /// --cluster-size: overrides the kernel's cluster_size=.
  std::optional<unsigned> clusterSize;
  std::string arch = "sm_90a";
  /// --assume NAME=16|1 and --assume-aligned-pointers, as tkc's: the
  /// specialization the kernel is compiled with (tk-run checks the bound
  /// values against them before the launch).
  std::vector<ArgAssumption> assumptions;
  bool assumeAlignedPointers = false;
  /// The GPU pipeline's switches (--rebase-wgmma-descriptors, as tkc's).
  TkgpuPipelineSwitches switches;
  /// --remarks: print the compiler's optimization remarks (GPU builds).
  bool remarks = false;
  /// False (--no-cache): .tk kernels for libtkrt bypass the on-disk kernel
  /// cache (docs/cache.md).
  bool useCache = true;
};

/// What libtkrt needs to load the kernel (Module::loadImage).
struct RuntimeImage {
  std::string metadataJson;
  /// Names the kernel in messages.
  std::string origin;
  std::optional<std::string> cubin;
  /// tk IR text with its .tk locations, for the interpreter backend.
  std::optional<std::string> tkIr;
};

enum class ImageKind { None, TkIr, Cubin };

struct LoadedKernel {
  std::unique_ptr<interp::Kernel> kernel;
  std::optional<RuntimeImage> image; // when asked for
};

/// Compiles or reads the kernel, and builds the image of kind `image`.
/// Errors are complete messages (compiler diagnostics included).
llvm::Expected<LoadedKernel> loadKernel(const SourceOptions &options,
                                        ImageKind image);

} // namespace tk::run

#endif // TK_TOOLS_TK_RUN_KERNELSOURCE_H
