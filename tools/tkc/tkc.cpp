//===- tkc.cpp - the tk compiler driver -----------------------------------===//
//
//   tkc FILE.tk [-k NAME] [-D NAME=VALUE]... [--emit=KIND] [-o OUT]
//       [--num-warps N] [--num-stages N] [--arch sm_90a|sm_80] [--mma=v2]
//       [--assume NAME=16|NAME=1]... [--assume-aligned-pointers]
//       [--autotune-config N] [--print-ir-after-all] [--print-ir-after=PASS]
//       [--stats]
//
// Exit status 1 on any error; every error is a one-line "tkc: error: ..."
// or a clang-style source diagnostic.
//
//===----------------------------------------------------------------------===//

#include "compiler/driver/Compilation.h"
#include "compiler/driver/CompileOptions.h"
#include "compiler/driver/Compiler.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

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
                      "llvm, ptx, cubin (default), sass-report"),
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
static cl::opt<std::string> arch("arch",
                                 cl::desc("Target GPU: sm_90a or sm_80"),
                                 cl::value_desc("arch"), cl::init("sm_90a"),
                                 cl::cat(tkcCategory));
static cl::opt<std::string>
    mmaVersion("mma",
               cl::desc("Tensor-core instructions: v2 keeps mma.sync on "
                        "sm_90a (default: wgmma where the shapes allow)"),
               cl::value_desc("v2"), cl::cat(tkcCategory));
static cl::list<std::string>
    assumptions("assume",
                cl::desc("Specialize an argument: NAME=16 (divisible by 16 "
                         "/ 16-byte aligned) or NAME=1 (equal to 1)"),
                cl::value_desc("NAME=16|NAME=1"), cl::cat(tkcCategory));
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
    printIRAfterAll("print-ir-after-all",
                    cl::desc("Print the IR after every pass (to stderr)"),
                    cl::cat(tkcCategory));
static cl::opt<std::string>
    printIRAfter("print-ir-after",
                 cl::desc("Print the IR after each run of this pass"),
                 cl::value_desc("pass"), cl::cat(tkcCategory));

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

  std::optional<tk::EmitKind> emit = tk::parseEmitKind(emitKind);
  if (!emit)
    return fail("unknown --emit kind '" + emitKind + "' (expected one of " +
                tk::getEmitKindNames() + ")");
  options.emit = *emit;

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
  if (std::string problem = tk::checkArch(arch); !problem.empty())
    return fail(problem);
  options.arch = arch;
  if (mmaVersion.getNumOccurrences()) {
    if (mmaVersion != "v2")
      return fail("--mma expects v2, got '" + mmaVersion + "'");
    options.mmaVersion = 2;
  }
  if (autotuneConfig.getNumOccurrences()) {
    long long index = parseCount(autotuneConfig);
    if (index < 0)
      return fail("--autotune-config expects a config index, got '" +
                  autotuneConfig + "'");
    options.autotuneConfig = unsigned(index);
  }

  for (const std::string &assumption : assumptions) {
    auto [name, value] = llvm::StringRef(assumption).split('=');
    if (name.empty() || (value != "16" && value != "1"))
      return fail("--assume expects NAME=16 or NAME=1, got '" + assumption +
                  "'");
    options.assumptions.push_back({name.str(), value == "16" ? 16 : 1});
  }
  options.assumeAlignedPointers = assumeAlignedPointers;
  options.printIRAfterAll = printIRAfterAll;
  options.printStats = printStats;
  options.printIRAfter = printIRAfter;

  tk::Compilation compilation(std::move(options));
  return tk::compileAndReturnStatus(compilation);
}
