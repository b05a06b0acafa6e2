//===- KernelSource.cpp - Where tk-run gets its kernel from ---------------===//
//
// A .tk file goes through the compiler driver (TkCompiler): the frontend,
// then the tk pipeline (inline, canonicalize, tk-combine, cse), as
// `tkc --emit=tk` does. tk IR is parsed as it is. The interpreter compiles
// the resulting func.func; for the GPU the same module continues through
// the tkgpu and LLVM pipelines, PTX and ptxas (TkBackend), as
// `tkc --emit=cubin` does.
//
//===----------------------------------------------------------------------===//
#include "tools/tk-run/KernelSource.h"

#include "llvm/Support/MemoryBuffer.h"

#ifdef TK_RUN_HAVE_DRIVER
#include "compiler/driver/Compilation.h"
#include "compiler/driver/Frontend.h"
#include "compiler/driver/Registration.h"
#include "compiler/driver/TkPipeline.h"
#include "dialects/tk/TkDialect.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#endif

#ifdef TK_RUN_HAVE_JIT
#include "compiler/driver/Jit.h"
#endif

#ifdef TK_RUN_HAVE_GPU_BACKEND
#include "compiler/driver/Backend.h"
#include "compiler/driver/GpuPipeline.h"

#include "mlir/Pass/PassManager.h"
#endif

using namespace tk;
using namespace tk::run;

#ifdef TK_RUN_HAVE_DRIVER
namespace {

/// The tk module and its kernel, in a context that lives as long as this.
class KernelModule {
public:
  explicit KernelModule(const SourceOptions &options)
      : options(options), diagnosticStream(diagnostics) {}

  /// Compiles (.tk) or parses (tk IR) the file; then kernel() is valid.
  llvm::Error load();
  mlir::func::FuncOp kernel() const { return kernelFunc; }
  mlir::ModuleOp module() const { return *moduleRef; }
  llvm::Expected<RuntimeImage> makeImage(ImageKind kind);

private:
  const SourceOptions &options;
  std::string diagnostics;
  llvm::raw_string_ostream diagnosticStream;
  std::unique_ptr<Compilation> compilation; // .tk input
  std::unique_ptr<mlir::MLIRContext> context; // tk IR input
  std::unique_ptr<mlir::SourceMgrDiagnosticHandler> handler;
  llvm::SourceMgr sourceMgr;
  mlir::OwningOpRef<mlir::ModuleOp> moduleRef;
  mlir::func::FuncOp kernelFunc;

  /// The diagnostics printed so far, or `fallback`.
  llvm::Error failure(const std::string &fallback) {
    diagnosticStream.flush();
    std::string text = diagnostics.empty() ? fallback : diagnostics;
    while (!text.empty() && text.back() == '\n')
      text.pop_back();
    return llvm::createStringError(text);
  }
  mlir::MLIRContext &getContext() {
    return compilation ? compilation->getContext() : *context;
  }
};

} // namespace

llvm::Error KernelModule::load() {
  if (options.isIR) {
    mlir::DialectRegistry registry;
    registerAllDialects(registry);
    context = std::make_unique<mlir::MLIRContext>(
        registry, mlir::MLIRContext::Threading::DISABLED);
    auto file = llvm::MemoryBuffer::getFile(options.path, /*IsText=*/true);
    if (!file)
      return llvm::createStringError("tk-run: error: cannot read '" +
                                     options.path + "': " +
                                     file.getError().message());
    sourceMgr.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
    handler = std::make_unique<mlir::SourceMgrDiagnosticHandler>(
        sourceMgr, context.get(), diagnosticStream);
    moduleRef = mlir::parseSourceFile<mlir::ModuleOp>(
        sourceMgr, mlir::ParserConfig(context.get()));
    if (!moduleRef)
      return failure("tk-run: error: cannot parse " + options.path);
  } else {
    CompileOptions compileOptions;
    compileOptions.toolName = "tk-run";
    compileOptions.inputPath = options.path;
    compileOptions.kernelName = options.kernelName;
    compileOptions.defines = options.defines;
    compileOptions.numWarps = options.numWarps;
    compileOptions.numStages = options.numStages;
    compileOptions.clusterSize = options.clusterSize;
    compileOptions.arch = options.arch;
    compileOptions.assumptions = options.assumptions;
    compileOptions.assumeAlignedPointers = options.assumeAlignedPointers;
    compileOptions.emit = EmitKind::Tk;
    compilation =
        std::make_unique<Compilation>(compileOptions, &diagnosticStream);
    moduleRef = runFrontend(*compilation);
    if (!moduleRef || mlir::failed(runTkPipeline(*compilation, *moduleRef)))
      return failure("tk-run: error: cannot compile " + options.path);
  }

  llvm::SmallVector<mlir::func::FuncOp> kernels, functions;
  for (auto func : moduleRef->getOps<mlir::func::FuncOp>()) {
    functions.push_back(func);
    bool named = func.getSymName() == options.kernelName;
    if (named || (options.kernelName.empty() && mlir::tk::isKernel(func)))
      kernels.push_back(func);
  }
  if (kernels.empty() && options.kernelName.empty() && functions.size() == 1)
    kernels = functions;
  if (kernels.size() != 1)
    return llvm::createStringError(
        "tk-run: error: " + options.path +
        (options.kernelName.empty()
             ? ": " + std::to_string(kernels.size()) +
                   " kernels; name the one to run with -k"
             : ": no kernel named '" + options.kernelName + "'"));
  kernelFunc = kernels.front();
  return llvm::Error::success();
}

llvm::Expected<RuntimeImage> KernelModule::makeImage(ImageKind kind) {
  RuntimeImage image;
  std::string name = kernelFunc.getSymName().str();
  image.origin = options.path;
#ifdef TK_RUN_HAVE_GPU_BACKEND
  if (kind == ImageKind::TkIr) {
    // The interpreter backend reads tk IR; keep the .tk locations.
    std::string text;
    llvm::raw_string_ostream os(text);
    moduleRef->print(os, mlir::OpPrintingFlags().enableDebugInfo());
    image.tkIr = std::move(text);
    auto metadata = collectKernelMetadata(*moduleRef, name);
    if (!metadata)
      return metadata.takeError();
    metadata->arch = options.arch;
    metadata->tkIr = name + ".tk.mlir";
    image.metadataJson = buildMetadataJson(*metadata);
    return image;
  }
  // tk -> tkgpu -> LLVM dialect -> PTX -> cubin, in place.
  unsigned numWarps = options.numWarps.value_or(4);
  if (!options.numWarps)
    if (auto attr =
            moduleRef->getOperation()->getAttrOfType<mlir::IntegerAttr>(
                "tk.num_warps"))
      numWarps = static_cast<unsigned>(attr.getInt());
  unsigned numStages = 3;
  if (auto attr = moduleRef->getOperation()->getAttrOfType<mlir::IntegerAttr>(
          "tk.num_stages"))
    numStages = static_cast<unsigned>(attr.getInt());
  mlir::PassManager pm(&getContext(), mlir::ModuleOp::getOperationName());
  buildGpuPipeline(pm, static_cast<int>(numWarps), static_cast<int>(numStages),
                   options.arch, options.switches);
  if (mlir::failed(pm.run(*moduleRef)))
    return failure("tk-run: error: cannot compile " + options.path +
                   " for the GPU");
  TargetOptions target;
  target.arch = options.arch;
  auto artifacts = compileToCubin(*moduleRef, target, name, name + ".cubin");
  if (!artifacts)
    return llvm::createStringError("tk-run: error: " +
                                   llvm::toString(artifacts.takeError()));
  image.cubin = std::move(artifacts->cubin);
  image.metadataJson = std::move(artifacts->metadataJson);
  return image;
#else
  (void)kind;
  return llvm::createStringError(
      "tk-run: error: this build has no in-process GPU compilation "
      "(TkBackend); --gpu is not available");
#endif
}
#endif // TK_RUN_HAVE_DRIVER

#ifdef TK_RUN_HAVE_JIT
/// A .tk kernel for libtkrt: compiled by the JIT through the kernel cache
/// (docs/cache.md), so a second run skips the compiler. The interpreter
/// Kernel (which names the parameters) is built from the tk IR the JIT
/// returns.
static llvm::Expected<LoadedKernel> loadThroughJit(const SourceOptions &options,
                                                   ImageKind image) {
  jit::JitOptions jitOptions;
  jitOptions.toolName = "tk-run";
  jitOptions.defines = options.defines;
  jitOptions.numWarps = options.numWarps;
  jitOptions.numStages = options.numStages;
  jitOptions.clusterSize = options.clusterSize;
  jitOptions.arch = options.arch;
  jitOptions.assumptions = options.assumptions;
  jitOptions.assumeAlignedPointers = options.assumeAlignedPointers;
  jitOptions.switches = options.switches;
  jitOptions.artifact = image == ImageKind::TkIr ? jit::ArtifactKind::TkIr
                                                 : jit::ArtifactKind::Cubin;
  jitOptions.useCache = options.useCache;
  auto compiled =
      jit::compileFile(options.path, options.kernelName, jitOptions);
  if (!compiled)
    return compiled.takeError();
  if (options.remarks)
    llvm::errs() << compiled->remarks;
  LoadedKernel loaded;
  auto kernel = interp::loadKernel(compiled->tkIr, options.path,
                                   compiled->name);
  if (!kernel)
    return kernel.takeError();
  loaded.kernel = std::move(*kernel);
  RuntimeImage runtimeImage;
  runtimeImage.metadataJson = std::move(compiled->metadataJson);
  runtimeImage.origin = options.path;
  if (image == ImageKind::TkIr)
    runtimeImage.tkIr = std::move(compiled->tkIr);
  else
    runtimeImage.cubin = std::move(compiled->binary);
  loaded.image = std::move(runtimeImage);
  return std::move(loaded);
}
#endif // TK_RUN_HAVE_JIT

llvm::Expected<LoadedKernel> run::loadKernel(const SourceOptions &options,
                                             ImageKind image) {
  LoadedKernel loaded;
#ifdef TK_RUN_HAVE_DRIVER
#ifdef TK_RUN_HAVE_JIT
  if (!options.isIR && image != ImageKind::None)
    return loadThroughJit(options, image);
#endif
  KernelModule source(options);
  if (llvm::Error error = source.load())
    return std::move(error);
  auto kernel = interp::compileKernel(source.kernel());
  if (!kernel)
    return kernel.takeError();
  loaded.kernel = std::move(*kernel);
  // The GPU pipeline rewrites the module: the interpreter kernel above was
  // compiled first.
  if (image != ImageKind::None) {
    auto built = source.makeImage(image);
    if (!built)
      return built.takeError();
    loaded.image = std::move(*built);
  }
  return std::move(loaded);
#else
  if (!options.isIR)
    return llvm::createStringError(
        "tk-run: error: this build has no compiler driver (TkCompiler) to "
        "compile .tk files; pass tk IR instead (--ir, or a .mlir file)");
  if (image != ImageKind::None)
    return llvm::createStringError(
        "tk-run: error: this build cannot prepare kernels for libtkrt");
  auto file = llvm::MemoryBuffer::getFile(options.path, /*IsText=*/true);
  if (!file)
    return llvm::createStringError("tk-run: error: cannot read '" +
                                   options.path + "': " +
                                   file.getError().message());
  auto kernel = interp::loadKernel((*file)->getBuffer(), options.path,
                                   options.kernelName);
  if (!kernel)
    return kernel.takeError();
  loaded.kernel = std::move(*kernel);
  return std::move(loaded);
#endif
}
