//===- Jit.h - compile .tk kernels in process, through the cache *- C++ -*-===//
//
// The JIT: a program (or tk-run) hands over .tk source, a kernel name and
// the compile options, and gets what libtkrt loads: metadata JSON and a
// cubin (or PTX, or tk IR for the interpreter backend). Results are kept in
// the on-disk kernel cache (KernelCache.h), so the second process that asks
// for the same kernel loads it in milliseconds. JitRuntime.h loads a
// CompiledKernel into a libtkrt Module.
//
//   auto kernel = tk::jit::compileFile("softmax.tk", "softmax", options);
//   if (!kernel) ... llvm::toString(kernel.takeError()) ...
//   tk::Module module = tk::jit::loadModule(context, *kernel);
//
// docs/cache.md describes the key, the layout and the environment.
//
//===----------------------------------------------------------------------===//
#ifndef TK_COMPILER_DRIVER_JIT_H
#define TK_COMPILER_DRIVER_JIT_H

#include "compiler/driver/GpuPipeline.h"
#include "compiler/frontend/IRGen.h"

#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tk {

class KernelCache;

namespace jit {

/// What the JIT compiles the kernel to.
enum class ArtifactKind {
  /// Metadata and a cubin (needs ptxas).
  Cubin,
  /// Metadata and PTX text (the CUDA driver assembles it at load).
  Ptx,
  /// Metadata and tk IR only, for libtkrt's interpreter backend; needs
  /// neither the NVPTX back end nor ptxas.
  TkIr,
};

/// "cubin", "ptx", "tk-ir".
const char *getArtifactKindName(ArtifactKind kind);

/// The compile options that matter to the JIT; each is part of the cache
/// key.
struct JitOptions {
  /// Constexpr values, NAME=VALUE as tkc's -D (a later one wins).
  std::vector<std::pair<std::string, std::string>> defines;
  /// Unset: the @kernel(...) or @autotune config value, else 4 and 3.
  std::optional<unsigned> numWarps;
  std::optional<unsigned> numStages;
  /// maxnreg (CompileOptions::maxRegisters); unset: the kernel's own.
  std::optional<unsigned> maxRegisters;
  /// cluster_size (CompileOptions::clusterSize); unset: the kernel's own.
  std::optional<unsigned> clusterSize;
  /// Which @autotune config supplies constexprs the defines leave unset.
  unsigned autotuneConfig = 0;
  std::string arch = "sm_90a";
  /// Specialization assumptions (tkc's --assume NAME=16 / NAME=1).
  std::vector<ArgAssumption> assumptions;
  bool assumeAlignedPointers = false;
  /// The GPU pipeline's switches, as tkc's flags set them
  /// (CompileOptions::switches); all of them are in the cache key.
  TkgpuPipelineSwitches switches;
  ArtifactKind artifact = ArtifactKind::Cubin;
  /// False: neither read nor write the cache.
  bool useCache = true;
  /// The cache; null means KernelCache::getDefault() (TK_CACHE_DIR, ...).
  KernelCache *cache = nullptr;
  /// Names the caller in compiler messages ("tk-run: error: ...").
  std::string toolName = "tk";
};

/// The .tk source of a kernel: the file is the whole program (helpers
/// included), so its text is all the key needs.
struct KernelSource {
  /// The path or another name; it appears in diagnostics and in the tk
  /// IR's locations, so it is part of the key.
  std::string name;
  std::string text;

  /// Reads a .tk file ("<tool>: error: cannot open ..." on failure).
  static llvm::Expected<KernelSource> readFile(const std::string &path);
};

/// What the runtime needs, from the compiler or from the cache.
struct CompiledKernel {
  /// The kernel's name (as in its metadata).
  std::string name;
  /// The source's name, for messages.
  std::string origin;
  ArtifactKind artifact = ArtifactKind::Cubin;
  /// The metadata (docs/runtime.md, "The artifact contract").
  std::string metadataJson;
  /// The cubin's bytes or the PTX text; empty for ArtifactKind::TkIr.
  std::string binary;
  /// tk IR after the tk pipeline, with .tk locations (the interpreter's
  /// input; tk-run reads the kernel's parameters from it).
  std::string tkIr;
  /// With @autotune: the names of the key arguments, and one description
  /// per config ("BLOCK=128, num_warps=4"); both empty otherwise.
  /// Autotune.h picks among the configs.
  std::vector<std::string> autotuneKey;
  std::vector<std::string> autotuneConfigs;
  /// The compiler's optimization remarks for PTX and cubin artifacts, as
  /// `tkc --remarks` prints them (RemarkPrinter.h): which loops were
  /// pipelined and which dots put on tensor cores, and for the rest why
  /// not. Kept in the cache with the kernel; `tk-run --remarks` prints it.
  std::string remarks;
  /// Whether this came from the cache rather than the compiler.
  bool fromCache = false;
  /// The cache key (64 hex digits); empty when the cache was not used.
  std::string cacheKey;
};

/// Compiles kernel `kernelName` of `source` (the only kernel when empty),
/// or loads it from the cache. Errors are complete messages: compiler
/// diagnostics in clang style, or "<tool>: error: ...".
llvm::Expected<CompiledKernel> compile(const KernelSource &source,
                                       const std::string &kernelName,
                                       const JitOptions &options);

/// Whether TK_REMARKS is set (1, true, on, yes): then compile() prints
/// each kernel's remarks (CompiledKernel::remarks) to stderr, fresh or
/// cached: the JIT's log of what the compiler did and why.
bool remarksRequested();

/// readFile, then compile.
llvm::Expected<CompiledKernel> compileFile(const std::string &path,
                                           const std::string &kernelName,
                                           const JitOptions &options);

/// The cache key of compile(source, kernelName, options): SHA-256 of the
/// source text and name, the kernel name, the constexpr values (sorted by
/// name), the assumptions, num_warps, num_stages, the autotune config, the
/// arch, the artifact kind, the compiler version (CompilerVersion.h) and,
/// for cubins, the ptxas version. Fails only when ptxas is needed and
/// cannot be run.
llvm::Expected<std::string> computeCacheKey(const KernelSource &source,
                                            const std::string &kernelName,
                                            const JitOptions &options);

} // namespace jit
} // namespace tk

#endif // TK_COMPILER_DRIVER_JIT_H
