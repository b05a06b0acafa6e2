//===- tkc.cpp - the tk compiler driver -----------------------------------===//
//
//   tkc FILE.tk [-k NAME] [-D NAME=VALUE]... [--emit=KIND] [-o OUT]
//       [--num-warps N] [--num-stages N] [--arch sm_90a|sm_80] [--mma=v2]
//       [--assume NAME=16|NAME=1]... [--assume-aligned-pointers]
//       [--autotune-config N] [--print-ir-after-all] [--print-ir-after=PASS]
//       [--timing]
//       [--stats]
//
// Exit status 1 on any error; every error is a one-line "tkc: error: ..."
// or a clang-style source diagnostic.
//
//===----------------------------------------------------------------------===//

#include "compiler/driver/ArgAssumptionOption.h"
#include "compiler/driver/Compilation.h"
#include "compiler/driver/CompileOptions.h"
#include "compiler/driver/Compiler.h"
#include "compiler/driver/KernelCache.h"
#ifdef TKC_HAVE_AOT_HEADER
#include "compiler/driver/AotHeader.h"
#endif

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

namespace cl = llvm::cl;

static cl::OptionCategory tkcCategory("tkc options");

static cl::list<std::string> inputFiles(cl::Positional,
                                        cl::desc("<input .tk file>"),
                                        cl::cat(tkcCategory));
static cl::opt<std::string> kernelName("k", cl::desc("Kernel to compile"),
                                       cl::value_desc("name"),
                                       cl::cat(tkcCategory));
static cl::list<std::string>
    defines("D", cl::Prefix,
            cl::desc("Value of a constexpr parameter (NAME=VALUE)"),
            cl::value_desc("NAME=VALUE"), cl::cat(tkcCategory));
static cl::opt<std::string>
    emitKind("emit",
             cl::desc("What to produce: ast, tk-raw, tk, tkgpu, llvm-mlir, "
                      "llvm, ptx, cubin (default), sass-report, header"),
             cl::value_desc("kind"), cl::init("cubin"), cl::cat(tkcCategory));
static cl::opt<std::string> outputPath("o", cl::desc("Output file"),
                                       cl::value_desc("file"),
                                       cl::cat(tkcCategory));
static cl::opt<std::string>
    numWarps("num-warps",
             cl::desc("Warps per program (overrides the kernel's own)"),
             cl::value_desc("N"), cl::cat(tkcCategory));
static cl::opt<std::string>
    numStages("num-stages",
              cl::desc("Software pipelining depth (overrides the "
                       "kernel's own)"),
              cl::value_desc("N"), cl::cat(tkcCategory));
static cl::opt<std::string>
    maxRegisters("maxnreg",
                 cl::desc("Registers per thread at most, a multiple of 8 "
                          "from 24 to 256 (overrides the kernel's "
                          "maxnreg=)"),
                 cl::value_desc("N"), cl::cat(tkcCategory));
static cl::opt<std::string>
    clusterSize("cluster-size",
                cl::desc("sm_90a: launch consecutive programs along x in "
                         "thread-block clusters of N (1, 2, 4 or 8; "
                         "overrides the kernel's cluster_size=)"),
                cl::value_desc("N"), cl::cat(tkcCategory));
static cl::opt<std::string> arch("arch",
                                 cl::desc("Target GPU: sm_90a or sm_80"),
                                 cl::value_desc("arch"), cl::init("sm_90a"),
                                 cl::cat(tkcCategory));
// Measurement switches of the GPU pipeline (TkgpuPipelineSwitches): hidden
// from --help (--help-hidden lists them), documented in docs/pipeline.md,
// "Developer switches". The defaults are what every user gets.
static cl::opt<std::string>
    mmaVersion("mma",
               cl::desc("Tensor-core instructions: v2 keeps mma.sync on "
                        "sm_90a (default: wgmma where the shapes allow)"),
               cl::value_desc("v2"), cl::Hidden, cl::cat(tkcCategory));
static cl::opt<bool> noPingPong(
    "no-pingpong",
    cl::desc("Leave two consumer warp groups of a warp-specialized loop "
             "unscheduled (no FA3 ping-pong turns; for measurements)"),
    cl::Hidden, cl::cat(tkcCategory));
static cl::opt<bool> noDeferRowSums(
    "no-defer-row-sums",
    cl::desc("Reduce a loop's running row sums (the online softmax's l) "
             "across lanes in every iteration rather than once after the "
             "loop (for measurements)"),
    cl::Hidden, cl::cat(tkcCategory));
static cl::opt<bool> noPrefetchBeforeCopies(
    "no-prefetch-before-copies",
    cl::desc("f16/bf16 mma.sync loops: load the next iteration's first "
             "k-slice at the end of the body, after the cp.async copies, "
             "rather than right after the wait, where its ldmatrix "
             "overlaps the last mma.sync (for measurements)"),
    cl::Hidden, cl::cat(tkcCategory));
static cl::opt<bool> rebaseWgmmaDescriptors(
    "rebase-wgmma-descriptors",
    cl::desc("sm_90a: compute each wgmma matrix descriptor from tk_smem's "
             "address taken where it is built, not one base held across "
             "the kernel, so that ptxas keeps descriptor arithmetic in "
             "uniform registers (fewer R2UR; off by default: "
             "docs/pipeline.md)"),
    cl::Hidden, cl::cat(tkcCategory));
static cl::opt<std::string> epilogueSubtile(
    "epilogue-subtile",
    cl::desc("sm_90a: stage each TMA store in N column blocks through a "
             "ring of one or two blocks (1: never; default: only where the "
             "kernel would not fit in shared memory otherwise)"),
    cl::value_desc("N"), cl::Hidden, cl::cat(tkcCategory));
static cl::opt<bool> invariantAInRegisters(
    "invariant-a-in-registers",
    cl::desc("Load every loop-invariant wgmma A operand (attention's Q) "
             "into registers once, before the loop, instead of reading it "
             "from shared memory in every iteration (default: where the "
             "registers fit and B has three or more slots)"),
    cl::Hidden, cl::cat(tkcCategory));
static cl::opt<bool> noInvariantAInRegisters(
    "no-invariant-a-in-registers",
    cl::desc("Read loop-invariant wgmma A operands from shared memory in "
             "every iteration (no automatic register copy)"),
    cl::Hidden, cl::cat(tkcCategory));
static cl::list<std::string>
    assumptions("assume",
                cl::desc("Specialize an argument: NAME=16 (divisible by 16 "
                         "/ 16-byte aligned) or NAME=1 (equal to 1)"),
                cl::value_desc("NAME=16|NAME=1"), cl::cat(tkcCategory));
static cl::opt<bool> remarks(
    "remarks",
    cl::desc("Print the optimization remarks of every pass (what was "
             "pipelined or put on tensor cores, and which load or dot was "
             "not, and why) at their source lines"),
    cl::cat(tkcCategory));

static cl::opt<bool> assumeAlignedPointers(
    "assume-aligned-pointers",
    cl::desc("Assume every pointer argument is 16-byte aligned"),
    cl::cat(tkcCategory));
static cl::opt<std::string>
    autotuneConfig("autotune-config",
                   cl::desc("Which @autotune config supplies the constexprs "
                            "-D leaves unset (default 0, the first)"),
                   cl::value_desc("N"), cl::cat(tkcCategory));
static cl::opt<bool>
    timing("timing",
           cl::desc("Print the wall time of every stage and pass (to "
                    "stderr)"),
           cl::cat(tkcCategory));
static cl::opt<bool>
    printIRAfterAll("print-ir-after-all",
                    cl::desc("Print the IR after every pass (to stderr)"),
                    cl::cat(tkcCategory));
static cl::opt<std::string>
    printIRAfter("print-ir-after",
                 cl::desc("Print the IR after each run of this pass"),
                 cl::value_desc("pass"), cl::cat(tkcCategory));

static cl::list<std::string> variants(
    "variant",
    cl::desc("With --emit=header: one specialization variant, e.g. "
             "'aligned,n=16' or 'none'; repeat for several (the header's "
             "launcher picks among them at run time)"),
    cl::value_desc("SPEC"), cl::cat(tkcCategory));

#ifdef TKC_HAVE_AOT_HEADER
/// --emit=header: compiles each variant and writes the header.
static int emitHeader(const tk::CompileOptions &options) {
  auto source = tk::jit::KernelSource::readFile(options.inputPath);
  if (!source) {
    llvm::errs() << "tkc: error: " << llvm::toString(source.takeError())
                 << "\n";
    return 1;
  }
  tk::jit::JitOptions jit;
  jit.defines = options.defines;
  jit.numWarps = options.numWarps;
  jit.numStages = options.numStages;
  jit.maxRegisters = options.maxRegisters;
  jit.autotuneConfig = options.autotuneConfig;
  jit.arch = options.arch;
  jit.useCache = false;
  jit.toolName = "tkc";
  std::vector<tk::jit::AotVariant> list;
  for (const std::string &text : variants) {
    auto variant = tk::jit::parseAotVariant(text);
    if (!variant) {
      llvm::errs() << llvm::toString(variant.takeError()) << "\n";
      return 1;
    }
    list.push_back(std::move(*variant));
  }
  if (list.empty())
    list.push_back({options.assumptions, options.assumeAlignedPointers});
  auto header =
      tk::jit::buildAotHeader(*source, options.kernelName, jit, list);
  if (!header) {
    llvm::errs() << llvm::toString(header.takeError()) << "\n";
    return 1;
  }
  if (options.outputPath.empty() || options.outputPath == "-") {
    llvm::outs() << *header;
    return 0;
  }
  std::error_code error;
  llvm::raw_fd_ostream out(options.outputPath, error);
  if (error) {
    llvm::errs() << "tkc: error: cannot write '" << options.outputPath
                 << "': " << error.message() << "\n";
    return 1;
  }
  out << *header;
  return 0;
}
#endif

static cl::opt<bool> cacheInfo(
    "cache-info",
    cl::desc("Print the kernel cache's folder, entries, bytes and oldest "
             "use, then exit (docs/cache.md)"),
    cl::cat(tkcCategory));
static cl::opt<bool> cacheClear(
    "cache-clear", cl::desc("Empty the kernel cache, then exit"),
    cl::cat(tkcCategory));

/// "3.4 MiB" for messages.
static std::string formatBytes(uint64_t bytes) {
  const char *units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  double value = double(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 4)
    value /= 1024, ++unit;
  char text[48];
  std::snprintf(text, sizeof(text), unit ? "%.1f %s" : "%.0f %s", value,
                units[unit]);
  return text;
}

/// --cache-info and --cache-clear, on the cache the environment names.
static int runCacheCommand() {
  tk::KernelCacheConfig config = tk::getKernelCacheConfigFromEnvironment();
  if (config.directory.empty()) {
    llvm::errs() << "tkc: error: no kernel cache folder (set TK_CACHE_DIR "
                    "or HOME)\n";
    return 1;
  }
  tk::KernelCache cache(config);
  if (cacheClear) {
    tk::KernelCacheInfo removed = cache.clear();
    llvm::outs() << "tk cache " << config.directory << ": removed "
                 << removed.entries << " entries ("
                 << formatBytes(removed.bytes) << ")\n";
    return 0;
  }
  tk::KernelCacheInfo info = cache.getInfo();
  llvm::outs() << "tk cache " << config.directory
               << (config.enabled ? "" : " (disabled by TK_CACHE_DISABLE)")
               << "\n  entries: " << info.entries << "\n  bytes: "
               << info.bytes << " (" << formatBytes(info.bytes) << ")\n";
  if (info.entries) {
    char when[64];
    std::time_t oldest = std::time_t(info.oldestUse);
    std::strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC",
                  std::gmtime(&oldest));
    llvm::outs() << "  oldest: " << when << "\n";
  }
  llvm::outs() << "  limit: "
               << (config.maxBytes ? std::to_string(config.maxBytes) +
                                         " bytes (TK_CACHE_MAX_BYTES)"
                                   : std::string("none (TK_CACHE_MAX_BYTES)"))
               << "\n";
  if (info.temporaries)
    llvm::outs() << "  left-over temporary folders: " << info.temporaries
                 << "\n";
  return 0;
}

static int fail(const llvm::Twine &message) {
  llvm::errs() << "tkc: error: " << message << "\n";
  return 1;
}

/// A non-negative decimal integer, or -1.
static long long parseCount(llvm::StringRef text) {
  unsigned long long value;
  if (text.empty() || text.getAsInteger(10, value) || value > (1u << 30))
    return -1;
  return (long long)value;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  // --stats: libLLVM already owns a cl::opt named "stats" (its pass
  // statistics), so ours is taken out of argv before parsing.
  bool printStats = false;
  std::vector<char *> args;
  for (int i = 0; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    if (i > 0 && (arg == "--stats" || arg == "-stats"))
      printStats = true;
    else
      args.push_back(argv[i]);
  }
  cl::HideUnrelatedOptions(tkcCategory);
  if (!cl::ParseCommandLineOptions(
          static_cast<int>(args.size()), args.data(),
          "tk kernel compiler\n\n  --stats: with --emit=cubin, print "
          "registers, spills and shared memory per kernel (to stderr)\n",
          &llvm::errs()))
    return 1;

  if (cacheInfo || cacheClear)
    return runCacheCommand();
  tk::CompileOptions options;
  if (inputFiles.empty())
    return fail("no input file");
  if (inputFiles.size() > 1)
    return fail("only one input file is allowed, got " +
                llvm::Twine(inputFiles.size()));
  options.inputPath = inputFiles.front();
  options.kernelName = kernelName;
  options.outputPath = outputPath;

  for (const std::string &define : defines) {
    auto [name, value] = llvm::StringRef(define).split('=');
    if (!llvm::StringRef(define).contains('=') || name.empty() ||
        value.empty())
      return fail("-D expects NAME=VALUE, got '" + define + "'");
    options.defines.emplace_back(name.str(), value.str());
  }

  bool emitAotHeader = emitKind == "header";
  std::optional<tk::EmitKind> emit =
      emitAotHeader ? tk::EmitKind::Cubin : tk::parseEmitKind(emitKind);
  if (!emit)
    return fail("unknown --emit kind '" + emitKind + "' (expected one of " +
                tk::getEmitKindNames() + ", header)");
  options.emit = *emit;
  if (!variants.empty() && !emitAotHeader)
    return fail("--variant goes with --emit=header");

  if (numWarps.getNumOccurrences()) {
    std::string problem = tk::checkNumWarps(parseCount(numWarps));
    if (!problem.empty())
      return fail(problem);
    options.numWarps = unsigned(parseCount(numWarps));
  }
  if (numStages.getNumOccurrences()) {
    std::string problem = tk::checkNumStages(parseCount(numStages));
    if (!problem.empty())
      return fail(problem);
    options.numStages = unsigned(parseCount(numStages));
  }
  if (maxRegisters.getNumOccurrences()) {
    std::string problem = tk::checkMaxRegisters(parseCount(maxRegisters));
    if (!problem.empty())
      return fail("--" + problem);
    options.maxRegisters = unsigned(parseCount(maxRegisters));
  }
  if (clusterSize.getNumOccurrences()) {
    long long n = parseCount(clusterSize);
    if (std::string problem = tk::checkClusterSize(n); !problem.empty())
      return fail(problem + ", got '" + clusterSize + "'");
    options.clusterSize = unsigned(n);
  }
  if (std::string problem = tk::checkArch(arch); !problem.empty())
    return fail(problem);
  options.arch = arch;
  if (mmaVersion.getNumOccurrences()) {
    if (mmaVersion != "v2")
      return fail("--mma expects v2, got '" + mmaVersion + "'");
    options.switches.mmaVersion = 2;
  }
  options.switches.pingPong = !noPingPong;
  options.switches.prefetchBeforeCopies = !noPrefetchBeforeCopies;
  options.switches.deferRowSums = !noDeferRowSums;
  options.switches.rebaseDescriptors = rebaseWgmmaDescriptors;
  if (epilogueSubtile.getNumOccurrences()) {
    long long blocks = parseCount(epilogueSubtile);
    if (blocks < 1 || blocks > 64 || (blocks & (blocks - 1)) != 0)
      return fail("--epilogue-subtile expects a power of two from 1 to 64, "
                  "got '" + epilogueSubtile + "'");
    options.switches.epilogueSubtile = unsigned(blocks);
  }
  if (invariantAInRegisters && noInvariantAInRegisters)
    return fail("--invariant-a-in-registers and "
                "--no-invariant-a-in-registers contradict each other");
  if (invariantAInRegisters)
    options.switches.invariantA = tk::InvariantARegisters::Always;
  else if (noInvariantAInRegisters)
    options.switches.invariantA = tk::InvariantARegisters::Never;
  if (autotuneConfig.getNumOccurrences()) {
    long long index = parseCount(autotuneConfig);
    if (index < 0)
      return fail("--autotune-config expects a config index, got '" +
                  autotuneConfig + "'");
    options.autotuneConfig = unsigned(index);
  }

  for (const std::string &text : assumptions) {
    auto assumption = tk::parseArgAssumption(text);
    if (!assumption)
      return fail(llvm::toString(assumption.takeError()));
    options.assumptions.push_back(std::move(*assumption));
  }
  options.assumeAlignedPointers = assumeAlignedPointers;
  options.remarks = remarks;
  options.printIRAfterAll = printIRAfterAll;
  options.timing = timing;
  options.printStats = printStats;
  options.printIRAfter = printIRAfter;
  if (emitAotHeader) {
#ifdef TKC_HAVE_AOT_HEADER
    return emitHeader(options);
#else
    return fail("--emit=header needs the GPU back end, which this tkc "
                "lacks");
#endif
  }

  tk::Compilation compilation(std::move(options));
  return tk::compileAndReturnStatus(compilation);
}
