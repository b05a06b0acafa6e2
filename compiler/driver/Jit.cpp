//===- Jit.cpp - compile .tk kernels in process, through the cache --------===//
//
// A miss runs the stages tkc runs for --emit=cubin (frontend, tk pipeline,
// tkgpu pipeline, LLVM dialect, PTX, ptxas: Frontend.h, TkPipeline.h,
// GpuPipeline.h, Backend.h) and stores the result. An entry holds:
//   name            the kernel's name
//   metadata.json   the metadata
//   kernel.cubin | kernel.ptx   (not for tk IR artifacts)
//   kernel.tk.mlir  the tk IR
//   autotune        with @autotune: "key NAME" and "config TEXT" lines
//   remarks         the optimization remarks, when there are any
//
//===----------------------------------------------------------------------===//
#include "compiler/driver/Jit.h"

#include "compiler/driver/Backend.h"
#include "compiler/driver/Compilation.h"
#include "compiler/driver/CompilerVersion.h"
#include "compiler/driver/Frontend.h"
#include "compiler/driver/GpuPipeline.h"
#include "compiler/driver/GpuStages.h"
#include "compiler/driver/KernelCache.h"
#include "compiler/driver/PassRunner.h"
#include "compiler/driver/RemarkPrinter.h"
#include "compiler/driver/TkPipeline.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdlib>

using namespace tk;
using namespace tk::jit;

namespace {

constexpr const char *kNameFile = "name";
constexpr const char *kMetadataFile = "metadata.json";
constexpr const char *kTkIrFile = "kernel.tk.mlir";
constexpr const char *kAutotuneFile = "autotune";
constexpr const char *kRemarksFile = "remarks";

/// "BLOCK=128, EVEN=True, num_warps=4" for one entry of tk.autotune.
std::string describeConfig(mlir::DictionaryAttr config) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(
      config,
      [&](mlir::NamedAttribute entry) {
        os << entry.getName().getValue() << "=";
        mlir::Attribute value = entry.getValue();
        if (auto boolean = mlir::dyn_cast<mlir::BoolAttr>(value))
          os << (boolean.getValue() ? "True" : "False");
        else if (auto integer = mlir::dyn_cast<mlir::IntegerAttr>(value))
          os << integer.getValue();
        else if (auto real = mlir::dyn_cast<mlir::FloatAttr>(value))
          os << real.getValueAsDouble();
        else
          value.print(os);
      },
      [&] { os << ", "; });
  // Attribute text could hold a newline; the cache file is line-based.
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}

/// The @autotune key and configs the frontend recorded on kernel `name`
/// (tk.autotune = {key = [...], configs = [{...}, ...]}).
void collectAutotune(mlir::ModuleOp module, llvm::StringRef name,
                     CompiledKernel &kernel) {
  auto func = module.lookupSymbol<mlir::func::FuncOp>(name);
  if (!func)
    return;
  auto autotune = func->getAttrOfType<mlir::DictionaryAttr>("tk.autotune");
  if (!autotune)
    return;
  if (auto key = autotune.getAs<mlir::ArrayAttr>("key"))
    for (mlir::Attribute entry : key)
      if (auto text = mlir::dyn_cast<mlir::StringAttr>(entry))
        kernel.autotuneKey.push_back(text.getValue().str());
  if (auto configs = autotune.getAs<mlir::ArrayAttr>("configs"))
    for (mlir::Attribute entry : configs)
      if (auto config = mlir::dyn_cast<mlir::DictionaryAttr>(entry))
        kernel.autotuneConfigs.push_back(describeConfig(config));
}

std::string buildAutotuneFile(const CompiledKernel &kernel) {
  std::string text;
  for (const std::string &name : kernel.autotuneKey)
    text += "key " + name + "\n";
  for (const std::string &config : kernel.autotuneConfigs)
    text += "config " + config + "\n";
  return text;
}

void parseAutotuneFile(llvm::StringRef text, CompiledKernel &kernel) {
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef line : lines) {
    if (line.consume_front("key "))
      kernel.autotuneKey.push_back(line.str());
    else if (line.consume_front("config "))
      kernel.autotuneConfigs.push_back(line.str());
  }
}

/// The entry's binary file, or null for tk IR artifacts.
const char *getBinaryFileName(ArtifactKind kind) {
  switch (kind) {
  case ArtifactKind::Cubin:
    return "kernel.cubin";
  case ArtifactKind::Ptx:
    return "kernel.ptx";
  case ArtifactKind::TkIr:
    return nullptr;
  }
  return nullptr;
}

CompileOptions makeCompileOptions(const KernelSource &source,
                                  const std::string &kernelName,
                                  const JitOptions &options) {
  CompileOptions result;
  result.toolName = options.toolName;
  result.inputPath = source.name;
  result.kernelName = kernelName;
  result.defines = options.defines;
  result.numWarps = options.numWarps;
  result.numStages = options.numStages;
  result.maxRegisters = options.maxRegisters;
  result.clusterSize = options.clusterSize;
  result.autotuneConfig = options.autotuneConfig;
  result.arch = options.arch;
  result.assumptions = options.assumptions;
  result.assumeAlignedPointers = options.assumeAlignedPointers;
  result.switches = options.switches;
  result.emit = options.artifact == ArtifactKind::TkIr  ? EmitKind::Tk
                : options.artifact == ArtifactKind::Ptx ? EmitKind::Ptx
                                                        : EmitKind::Cubin;
  return result;
}

/// Runs the compiler. Errors are what the stages printed (clang-style
/// diagnostics) or, from stages that return llvm::Error, that message.
llvm::Expected<CompiledKernel> compileUncached(const KernelSource &source,
                                               const std::string &kernelName,
                                               const JitOptions &options) {
  const std::string &tool = options.toolName;
  std::string diagnostics;
  llvm::raw_string_ostream diagnosticStream(diagnostics);
  Compilation compilation(makeCompileOptions(source, kernelName, options),
                          &diagnosticStream);
  compilation.setSource(std::make_unique<SourceFile>(source.name, source.text));
  // The remarks go to the kernel, not to the errors: a successful compile
  // returns them, and the cache keeps them with the binary.
  std::string remarks;
  llvm::raw_string_ostream remarkStream(remarks);
  enableRemarkPrinting(
      compilation.getContext(), [&] { return compilation.getSource(); },
      remarkStream, tool);
  auto failure = [&](const std::string &what) {
    diagnosticStream.flush();
    std::string text = diagnostics.empty() ? tool + ": error: cannot compile " +
                                                 source.name + what
                                           : diagnostics;
    while (!text.empty() && text.back() == '\n')
      text.pop_back();
    return llvm::createStringError(text);
  };

  mlir::OwningOpRef<mlir::ModuleOp> module = runFrontend(compilation);
  if (!module || mlir::failed(runTkPipeline(compilation, *module)))
    return failure("");

  CompiledKernel result;
  result.origin = source.name;
  result.artifact = options.artifact;
  auto metadata = collectKernelMetadata(*module, kernelName);
  if (!metadata)
    return llvm::createStringError(
        tool + ": error: " + llvm::toString(metadata.takeError()));
  result.name = metadata->name;
  collectAutotune(*module, result.name, result);
  {
    // The interpreter reports errors at .tk locations: keep them.
    llvm::raw_string_ostream os(result.tkIr);
    module->print(os, mlir::OpPrintingFlags().enableDebugInfo());
  }
  if (options.artifact == ArtifactKind::TkIr) {
    metadata->arch = options.arch;
    metadata->tkIr = result.name + ".tk.mlir";
    result.metadataJson = buildMetadataJson(*metadata);
    return result;
  }

  // tk -> tkgpu -> LLVM dialect, in place, through the stages tkc runs.
  if (mlir::failed(lowerToTkgpu(compilation, *module)) ||
      mlir::failed(lowerTkgpuToLlvm(compilation, *module)))
    return failure(" for the GPU");
  // The passes that remark have run; the back end adds none.
  remarkStream.flush();
  result.remarks = remarks;

  TargetOptions target;
  target.arch = options.arch;
  if (options.artifact == ArtifactKind::Cubin) {
    auto artifacts =
        compileToCubin(*module, target, result.name, result.name + ".cubin");
    if (!artifacts)
      return llvm::createStringError(
          tool + ": error: " + llvm::toString(artifacts.takeError()));
    result.binary = std::move(artifacts->cubin);
    result.metadataJson = std::move(artifacts->metadataJson);
    return result;
  }
  auto lowered = collectKernelMetadata(*module, result.name);
  if (!lowered)
    return llvm::createStringError(
        tool + ": error: " + llvm::toString(lowered.takeError()));
  auto ptx = translateToPtx(*module, target);
  if (!ptx)
    return llvm::createStringError(
        tool + ": error: " + llvm::toString(ptx.takeError()));
  lowered->arch = options.arch;
  lowered->binary = result.name + ".ptx";
  lowered->binaryKind = "ptx";
  result.binary = std::move(*ptx);
  result.metadataJson = buildMetadataJson(*lowered);
  return result;
}

CacheFiles toCacheFiles(const CompiledKernel &kernel) {
  CacheFiles files;
  files[kNameFile] = kernel.name;
  files[kMetadataFile] = kernel.metadataJson;
  files[kTkIrFile] = kernel.tkIr;
  if (const char *binary = getBinaryFileName(kernel.artifact))
    files[binary] = kernel.binary;
  if (!kernel.autotuneConfigs.empty())
    files[kAutotuneFile] = buildAutotuneFile(kernel);
  if (!kernel.remarks.empty())
    files[kRemarksFile] = kernel.remarks;
  return files;
}

/// The kernel of a cache entry; nullopt (with a reason) when the entry
/// lacks a file this artifact kind needs.
std::optional<CompiledKernel>
fromCacheFiles(CacheFiles &files, ArtifactKind kind, std::string &why) {
  const char *binaryName = getBinaryFileName(kind);
  for (const char *needed : {kNameFile, kMetadataFile, kTkIrFile, binaryName})
    if (needed && !files.count(needed)) {
      why = std::string("it has no '") + needed + "'";
      return std::nullopt;
    }
  CompiledKernel kernel;
  kernel.artifact = kind;
  kernel.name = std::move(files[kNameFile]);
  kernel.metadataJson = std::move(files[kMetadataFile]);
  kernel.tkIr = std::move(files[kTkIrFile]);
  if (binaryName)
    kernel.binary = std::move(files[binaryName]);
  if (auto autotune = files.find(kAutotuneFile); autotune != files.end())
    parseAutotuneFile(autotune->second, kernel);
  if (auto remarks = files.find(kRemarksFile); remarks != files.end())
    kernel.remarks = std::move(remarks->second);
  kernel.fromCache = true;
  return kernel;
}

} // namespace

const char *jit::getArtifactKindName(ArtifactKind kind) {
  switch (kind) {
  case ArtifactKind::Cubin:
    return "cubin";
  case ArtifactKind::Ptx:
    return "ptx";
  case ArtifactKind::TkIr:
    return "tk-ir";
  }
  return "?";
}

llvm::Expected<KernelSource> KernelSource::readFile(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return llvm::createStringError("cannot open '" + path +
                                   "': " + buffer.getError().message());
  return KernelSource{path, (*buffer)->getBuffer().str()};
}

llvm::Expected<std::string> jit::computeCacheKey(const KernelSource &source,
                                                 const std::string &kernelName,
                                                 const JitOptions &options) {
  CacheKeyBuilder key;
  key.add("format", "tk-jit 1");
  key.add("compiler", getCompilerVersion());
  key.add("artifact", getArtifactKindName(options.artifact));
  if (options.artifact == ArtifactKind::Cubin) {
    auto ptxas = getPtxasVersion();
    if (!ptxas)
      return ptxas.takeError();
    key.add("ptxas", *ptxas);
  }
  key.add("source-name", source.name);
  key.add("source", source.text);
  key.add("kernel", kernelName);
  // By name, keeping the order among definitions of one name (the last
  // wins): -D A=1 -D B=2 and -D B=2 -D A=1 compile alike.
  auto defines = options.defines;
  std::stable_sort(
      defines.begin(), defines.end(),
      [](const auto &a, const auto &b) { return a.first < b.first; });
  for (const auto &[name, value] : defines) {
    key.add("define", name);
    key.add("value", value);
  }
  auto assumptions = options.assumptions;
  std::stable_sort(assumptions.begin(), assumptions.end(),
                   [](const ArgAssumption &a, const ArgAssumption &b) {
                     return a.name < b.name;
                   });
  for (const ArgAssumption &assumption : assumptions) {
    key.add("assume", assumption.name);
    key.add("assume-value", assumption.value);
  }
  key.add("assume-aligned-pointers", options.assumeAlignedPointers ? 1 : 0);
  key.add("switches", describeSwitches(options.switches));
  // Unset and explicit values stay distinct: unset means the kernel's own
  // decorator value, which the source text already covers.
  auto orUnset = [](std::optional<unsigned> value) {
    return value ? static_cast<long long>(*value) : -1LL;
  };
  key.add("num-warps", orUnset(options.numWarps));
  key.add("num-stages", orUnset(options.numStages));
  key.add("maxnreg", orUnset(options.maxRegisters));
  key.add("cluster_size", orUnset(options.clusterSize));
  key.add("autotune-config", options.autotuneConfig);
  key.add("arch", options.arch);
  return key.getKey();
}

/// compile() without the remarks printing.
static llvm::Expected<CompiledKernel>
compileThroughCache(const KernelSource &source, const std::string &kernelName,
                    const JitOptions &options) {
  KernelCache *cache = nullptr;
  std::string key;
  if (options.useCache) {
    cache = options.cache ? options.cache : &KernelCache::getDefault();
    if (!cache->isEnabled()) {
      cache = nullptr;
    } else if (auto computed = computeCacheKey(source, kernelName, options)) {
      key = std::move(*computed);
    } else {
      // No ptxas: compiling fails below with the complete message.
      llvm::consumeError(computed.takeError());
      cache = nullptr;
    }
  }

  if (cache) {
    if (std::optional<CacheFiles> files = cache->lookup(key)) {
      std::string why;
      if (std::optional<CompiledKernel> kernel =
              fromCacheFiles(*files, options.artifact, why)) {
        kernel->origin = source.name;
        kernel->cacheKey = key;
        return std::move(*kernel);
      }
      // A well-formed entry this JIT did not write: replace it.
      cache->discardCorruptEntry(key, why);
    }
  }

  auto compiled = compileUncached(source, kernelName, options);
  if (!compiled)
    return compiled.takeError();
  if (cache) {
    compiled->cacheKey = key;
    cache->store(key, toCacheFiles(*compiled));
  }
  return compiled;
}

bool jit::remarksRequested() {
  const char *value = std::getenv("TK_REMARKS");
  if (!value)
    return false;
  llvm::StringRef text(value);
  return text == "1" || text.equals_insensitive("true") ||
         text.equals_insensitive("on") || text.equals_insensitive("yes");
}

llvm::Expected<CompiledKernel> jit::compile(const KernelSource &source,
                                            const std::string &kernelName,
                                            const JitOptions &options) {
  auto compiled = compileThroughCache(source, kernelName, options);
  // The JIT's log: every kernel a program (C++, C or Python) compiles or
  // takes from the cache prints its remarks, as tkc --remarks would.
  if (compiled && remarksRequested() && !compiled->remarks.empty()) {
    llvm::errs() << compiled->remarks;
    llvm::errs().flush();
  }
  return compiled;
}

llvm::Expected<CompiledKernel> jit::compileFile(const std::string &path,
                                                const std::string &kernelName,
                                                const JitOptions &options) {
  auto source = KernelSource::readFile(path);
  if (!source)
    return llvm::createStringError(
        options.toolName + ": error: " + llvm::toString(source.takeError()));
  return compile(*source, kernelName, options);
}
