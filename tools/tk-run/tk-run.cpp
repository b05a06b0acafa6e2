//===- tk-run.cpp - Run one tk kernel on .npy data ------------------------===//
//
//   tk-run softmax.tk -k softmax -D BLOCK=1024 --grid 1823
//          --arg out_ptr=out.npy --arg in_ptr=x.npy --arg in_stride=781 ...
//          --write out_ptr=result.npy
//
// Compiles the kernel in process (or reads tk IR), binds every parameter by
// name (Bindings.h), runs the grid in the CPU interpreter directly or on the
// GPU through libtkrt (RuntimeLaunch.h), then writes or prints buffers.
// README.md, "tk-run", documents the options.
//
//===----------------------------------------------------------------------===//
#include "tools/tk-run/Bindings.h"
#include "tools/tk-run/KernelSource.h"
#include "tools/tk-run/RuntimeLaunch.h"

#include "compiler/driver/ArgAssumptionOption.h"
#include "compiler/interpreter/Backend.h"
#include "compiler/interpreter/Interpreter.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <unistd.h>
#include <map>

using namespace llvm;
using namespace tk::run;
using tk::interp::KernelParam;

namespace {

cl::OptionCategory tkRunCategory("tk-run options");

cl::opt<std::string> inputFile(cl::Positional,
                               cl::desc("<kernel.tk | kernel.mlir>"),
                               cl::Required, cl::cat(tkRunCategory));
cl::opt<std::string> kernelName("k",
                                cl::desc("Kernel to run (default: the only one)"),
                                cl::value_desc("name"), cl::cat(tkRunCategory));
cl::alias kernelNameLong("kernel", cl::aliasopt(kernelName));
cl::list<std::string> defines("D", cl::Prefix,
                              cl::desc("Constexpr value: -D NAME=VALUE"),
                              cl::value_desc("NAME=VALUE"), cl::cat(tkRunCategory));
cl::opt<unsigned> numWarps("num-warps", cl::desc("Warps per program (GPU)"),
                           cl::init(0), cl::cat(tkRunCategory));
cl::opt<unsigned> numStages("num-stages", cl::desc("Pipeline stages (GPU)"),
                            cl::init(0), cl::cat(tkRunCategory));
cl::opt<unsigned> clusterSize(
    "cluster-size",
    cl::desc("Programs per thread-block cluster along x: 1, 2, 4 or 8 "
             "(overrides the kernel's cluster_size=)"),
    cl::init(0), cl::cat(tkRunCategory));
cl::opt<std::string> arch("arch", cl::desc("GPU architecture (with --gpu)"),
                          cl::init("sm_90a"), cl::cat(tkRunCategory));
cl::opt<std::string> gridText("grid", cl::desc("Programs along x[,y[,z]]"),
                              cl::value_desc("X[,Y[,Z]]"), cl::init("1"), cl::cat(tkRunCategory));
cl::list<std::string> argBindings(
    "arg",
    cl::desc("Bind a parameter: NAME=FILE.npy | NAME=zeros:SHAPE | "
             "NAME=[v,...] for pointers, NAME=VALUE for scalars"),
    cl::value_desc("NAME=VALUE"), cl::cat(tkRunCategory));
cl::list<std::string> writes(
    "write", cl::desc("After the run, save a buffer: NAME=FILE.npy"),
    cl::value_desc("NAME=FILE"), cl::cat(tkRunCategory));
cl::list<std::string> dumps("dump", cl::desc("After the run, print a buffer"),
                            cl::value_desc("NAME"), cl::cat(tkRunCategory));
cl::opt<bool> interpret("interpret",
                        cl::desc("Run in the CPU interpreter (the default)"), cl::cat(tkRunCategory));
cl::opt<bool> gpu("gpu", cl::desc("Run on the GPU (through libtkrt)"), cl::cat(tkRunCategory));
cl::opt<std::string> runtimeBackend(
    "runtime-backend", cl::Hidden,
    cl::desc("Run through libtkrt's backend NAME (\"interpreter\" runs the "
             "tk IR, any other the cubin); for testing the --gpu path"),
    cl::value_desc("NAME"), cl::cat(tkRunCategory));
cl::opt<bool> inputIsIR("ir",
                        cl::desc("The input is tk IR (also implied by .mlir)"), cl::cat(tkRunCategory));
cl::opt<bool> noCache(
    "no-cache",
    cl::desc("Compile .tk kernels for the GPU without the kernel cache "
             "(docs/cache.md; also TK_CACHE_DISABLE=1)"), cl::cat(tkRunCategory));
cl::opt<std::string> benchRuns(
    "bench", cl::ValueOptional,
    cl::desc("After the run, time N more launches (default 100; also "
             "--bench N): median and min ms, CUDA events, L2 flushed "
             "between launches on the GPU"),
    cl::value_desc("N"), cl::cat(tkRunCategory));
cl::opt<double> benchFlops(
    "flops", cl::desc("With --bench: floating-point operations per launch "
                      "(prints TFLOP/s)"),
    cl::init(0), cl::cat(tkRunCategory));
cl::opt<double> benchBytes(
    "bytes", cl::desc("With --bench: bytes moved per launch (prints GB/s)"),
    cl::init(0), cl::cat(tkRunCategory));
cl::opt<bool> showTime(
    "time", cl::desc("Print the run time (launch to completion) to stderr"), cl::cat(tkRunCategory));
cl::opt<unsigned> timeoutSeconds(
    "timeout",
    cl::desc("Give up after SECONDS: a kernel that never finishes (a "
             "deadlock; a multicast load whose promise a program breaks) "
             "ends tk-run with an error, exit status 1, instead of hanging "
             "(0, the default: no limit)"),
    cl::value_desc("SECONDS"), cl::init(0), cl::cat(tkRunCategory));
cl::list<std::string> assumptions(
    "assume",
    cl::desc("Specialize an argument, as tkc does: NAME=16 (divisible by 16 "
             "/ 16-byte aligned) or NAME=1 (equal to 1); the bound value "
             "is checked"),
    cl::value_desc("NAME=16|NAME=1"), cl::cat(tkRunCategory));
cl::opt<bool> assumeAlignedPointers(
    "assume-aligned-pointers",
    cl::desc("Compile for 16-byte aligned pointer arguments (the buffers "
             "tk-run allocates are)"), cl::cat(tkRunCategory));
cl::opt<bool> printRemarks(
    "remarks",
    cl::desc("With --gpu: print the compiler's optimization remarks (as "
             "tkc --remarks; kept in the kernel cache, so a cached kernel "
             "prints them too)"),
    cl::cat(tkRunCategory));
cl::opt<bool> rebaseWgmmaDescriptors(
    "rebase-wgmma-descriptors",
    cl::desc("sm_90a: compile as tkc --rebase-wgmma-descriptors does (each "
             "wgmma descriptor from tk_smem's address taken where it is "
             "built; off by default: docs/pipeline.md)"),
    cl::Hidden, cl::cat(tkRunCategory));

/// SIGALRM under --timeout: only async-signal-safe calls (write, _exit);
/// the kernel may still be running in the interpreter or on the GPU (the
/// driver frees the context with the process).
char timeoutMessage[160];
extern "C" void onTimeout(int) {
  ssize_t written =
      ::write(STDERR_FILENO, timeoutMessage, std::strlen(timeoutMessage));
  (void)written;
  ::_exit(1);
}

[[noreturn]] void fatal(const Twine &message) {
  outs().flush();
  errs() << "tk-run: error: " << message << "\n";
  std::exit(1);
}

/// Exits after printing `error`: compiler and kernel errors are complete
/// messages ("softmax.tk:9:9: error: ..."); others get tk-run's prefix.
[[noreturn]] void fail(Error error) {
  std::string message = toString(std::move(error));
  outs().flush();
  if (StringRef(message).contains("error: "))
    errs() << message << "\n";
  else
    errs() << "tk-run: error: " << message << "\n";
  std::exit(1);
}

std::pair<StringRef, StringRef> splitBinding(StringRef text,
                                             const char *option) {
  size_t equals = text.find('=');
  if (equals == StringRef::npos || text.take_front(equals).trim().empty())
    fatal(Twine(option) + " '" + text + "' is not NAME=VALUE");
  return {text.take_front(equals).trim(), text.drop_front(equals + 1).trim()};
}

tk::interp::LaunchGrid parseGrid(StringRef text) {
  SmallVector<StringRef> parts;
  text.split(parts, ',');
  if (parts.empty() || parts.size() > 3)
    fatal("--grid takes X, X,Y or X,Y,Z, got '" + text + "'");
  int64_t dims[3] = {1, 1, 1};
  for (size_t i = 0; i < parts.size(); ++i)
    if (parts[i].trim().getAsInteger(10, dims[i]) || dims[i] < 0)
      fatal("--grid: '" + parts[i] + "' is not a non-negative integer");
  return {dims[0], dims[1], dims[2]};
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  // "--bench N" as well as "--bench=N": an optional value cl::opt reads
  // only after '='.
  std::vector<std::string> argStorage;
  for (int i = 0; i < argc; ++i) {
    StringRef arg(argv[i]);
    unsigned runs;
    if ((arg == "--bench" || arg == "-bench") && i + 1 < argc &&
        !StringRef(argv[i + 1]).getAsInteger(10, runs)) {
      argStorage.push_back("--bench=" + std::string(argv[++i]));
      continue;
    }
    argStorage.push_back(argv[i]);
  }
  std::vector<char *> argPointers;
  for (std::string &arg : argStorage)
    argPointers.push_back(arg.data());
  // Only tk-run's own options in --help, not every LLVM one linked in.
  cl::HideUnrelatedOptions(tkRunCategory);
  cl::ParseCommandLineOptions(int(argPointers.size()), argPointers.data(),
                              "tk-run: run one tk kernel on .npy data\n");
  BenchRequest bench;
  if (benchRuns.getNumOccurrences()) {
    bench.runs = 100;
    if (!benchRuns.empty() &&
        (StringRef(benchRuns).getAsInteger(10, bench.runs) || !bench.runs))
      fatal("--bench takes a positive number of launches, got '" +
            benchRuns + "'");
  } else if (benchFlops.getNumOccurrences() || benchBytes.getNumOccurrences()) {
    fatal("--flops and --bytes go with --bench");
  }
  if (timeoutSeconds) {
    std::snprintf(timeoutMessage, sizeof(timeoutMessage),
                  "tk-run: error: not finished after --timeout %u s (a "
                  "kernel that never ends?)\n",
                  unsigned(timeoutSeconds));
    std::signal(SIGALRM, onTimeout);
    ::alarm(timeoutSeconds);
  }
  if (gpu && interpret)
    fatal("--gpu and --interpret exclude each other");
  if (gpu && !runtimeBackend.empty())
    fatal("--gpu and --runtime-backend exclude each other");
  // For --runtime-backend=interpreter.
  tk::registerInterpreterBackend();
  tk::interp::LaunchGrid grid = parseGrid(gridText);

  // Where the kernel runs decides what to compile: the interpreter needs the
  // tk IR only; libtkrt needs metadata and tk IR or a cubin.
  std::string backend = gpu ? "" : runtimeBackend.getValue();
  bool throughRuntime = gpu || !runtimeBackend.empty();
  ImageKind imageKind = !throughRuntime                ? ImageKind::None
                        : runtimeBackend == "interpreter" ? ImageKind::TkIr
                                                          : ImageKind::Cubin;

  SourceOptions sourceOptions;
  sourceOptions.path = inputFile;
  sourceOptions.isIR = inputIsIR || StringRef(inputFile).ends_with(".mlir");
  sourceOptions.kernelName = kernelName;
  for (const std::string &define : defines) {
    auto [name, value] = splitBinding(define, "-D");
    sourceOptions.defines.push_back({name.str(), value.str()});
  }
  if (numWarps)
    sourceOptions.numWarps = numWarps;
  if (numStages)
    sourceOptions.numStages = numStages;
  if (clusterSize.getNumOccurrences()) {
    if (clusterSize != 1 && clusterSize != 2 && clusterSize != 4 &&
        clusterSize != 8)
      fatal("--cluster-size must be 1, 2, 4 or 8, got " +
            Twine(unsigned(clusterSize)));
    sourceOptions.clusterSize = unsigned(clusterSize);
  }
  sourceOptions.arch = arch;
  sourceOptions.useCache = !noCache;
  for (const std::string &text : assumptions) {
    auto assumption = tk::parseArgAssumption(text);
    if (!assumption)
      fatal(toString(assumption.takeError()));
    sourceOptions.assumptions.push_back(std::move(*assumption));
  }
  sourceOptions.assumeAlignedPointers = assumeAlignedPointers;
  sourceOptions.switches.rebaseDescriptors = rebaseWgmmaDescriptors;
  sourceOptions.remarks = printRemarks;
  if (sourceOptions.isIR &&
      (!sourceOptions.assumptions.empty() || assumeAlignedPointers))
    fatal("--assume and --assume-aligned-pointers apply to .tk sources; tk "
          "IR carries its specialization already");
  auto loaded = loadKernel(sourceOptions, imageKind);
  if (!loaded)
    fail(loaded.takeError());
  const tk::interp::Kernel &kernel = *loaded->kernel;

  // Bind every parameter by name.
  std::map<std::string, std::string> values;
  for (const std::string &binding : argBindings) {
    auto [name, value] = splitBinding(binding, "--arg");
    if (!values.emplace(name.str(), value.str()).second)
      fatal("parameter '" + name + "' is bound twice");
  }
  ArrayRef<KernelParam> params = kernel.params();
  for (const auto &entry : values) {
    if (llvm::any_of(params, [&](const KernelParam &p) {
          return p.name == entry.first;
        }))
      continue;
    std::string names;
    for (const KernelParam &p : params)
      names += (names.empty() ? "" : ", ") + p.name;
    fatal("kernel '" + kernel.name() + "' has no parameter '" + entry.first +
          "' (parameters: " + names + ")");
  }

  tk::interp::MemoryRegistry memory;
  std::map<std::string, HostBuffer> buffers;
  std::vector<BoundArg> args;
  for (const KernelParam &param : params) {
    auto it = values.find(param.name);
    if (it == values.end())
      fatal("parameter '" + param.name + "' (" + param.sourceType +
            ") is not bound; pass --arg " + param.name + "=...");
    StringRef typeName = param.sourceType;
    bool isPointer = typeName.consume_front("*");
    auto type = parseDType(typeName);
    if (!type || isPointer != param.isPointer)
      fatal("parameter '" + param.name + "' has unsupported type '" +
            param.sourceType + "'");
    BoundArg arg;
    arg.param = &param;
    arg.type = *type;
    if (isPointer) {
      auto buffer = bindBuffer(param, *type, it->second);
      if (!buffer)
        fatal(toString(buffer.takeError()));
      HostBuffer &bound =
          buffers.emplace(param.name, std::move(*buffer)).first->second;
      memory.add(bound.data(), bound.bytes, bound.label);
      arg.buffer = &bound;
      arg.bits = reinterpret_cast<uintptr_t>(bound.data());
    } else {
      auto bits = parseValue(*type, it->second);
      if (!bits)
        fatal("argument '" + param.name + "' (" + param.sourceType +
              "): " + toString(bits.takeError()));
      arg.bits = *bits;
    }
    args.push_back(arg);
  }

  // What --assume promised is checked where the kernel runs: by the
  // interpreter (Kernel::run) and by libtkrt's argument check on the GPU.

  auto findBuffer = [&](StringRef name, const char *option) -> HostBuffer & {
    auto it = buffers.find(name.str());
    if (it == buffers.end())
      fatal(Twine(option) + " " + name + ": not a pointer parameter of '" +
            kernel.name() + "'");
    return it->second;
  };
  // Check the outputs before spending time on the run.
  for (const std::string &write : writes)
    findBuffer(splitBinding(write, "--write").first, "--write");
  for (const std::string &dump : dumps)
    findBuffer(dump, "--dump");

  double seconds = 0;
  if (throughRuntime) {
    if (Error error = launchThroughRuntime(*loaded->image, backend, grid, args,
                                           seconds, &bench))
      fail(std::move(error));
  } else {
    std::vector<uint64_t> bits;
    for (const BoundArg &arg : args)
      bits.push_back(arg.bits);
    auto start = std::chrono::steady_clock::now();
    if (Error error = kernel.run(grid, bits, memory))
      fail(std::move(error));
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                            start)
                  .count();
    // The interpreter has no events: the host clock, per launch.
    for (unsigned i = 0; i < bench.runs; ++i) {
      auto begin = std::chrono::steady_clock::now();
      if (Error error = kernel.run(grid, bits, memory))
        fail(std::move(error));
      bench.timesMs.push_back(std::chrono::duration<double, std::milli>(
                                  std::chrono::steady_clock::now() - begin)
                                  .count());
    }
  }
  if (bench.runs) {
    std::vector<double> times = bench.timesMs;
    std::sort(times.begin(), times.end());
    double median = times.size() % 2
                        ? times[times.size() / 2]
                        : (times[times.size() / 2 - 1] + times[times.size() / 2]) / 2;
    outs() << format("tk-run: %s: median %.4f ms, min %.4f ms over %u "
                     "launches (%s%s)",
                     kernel.name().c_str(), median, times.front(), bench.runs,
                     throughRuntime ? (gpu ? "GPU, CUDA events"
                                           : runtimeBackend.c_str())
                                    : "interpreter, host clock",
                     bench.flushedL2 ? ", L2 flushed" : "");
    if (benchFlops > 0)
      outs() << format(", %.2f TFLOP/s", benchFlops / (median * 1e-3) / 1e12);
    if (benchBytes > 0)
      outs() << format(", %.1f GB/s", benchBytes / (median * 1e-3) / 1e9);
    outs() << "\n";
  }
  if (showTime)
    errs() << format("tk-run: %s ran %lld x %lld x %lld programs in %.3f ms "
                     "(%s)\n",
                     kernel.name().c_str(), static_cast<long long>(grid.x),
                     static_cast<long long>(grid.y),
                     static_cast<long long>(grid.z), seconds * 1e3,
                     throughRuntime ? (gpu ? "GPU" : runtimeBackend.c_str())
                                    : "interpreter");

  for (const std::string &write : writes) {
    auto [name, file] = splitBinding(write, "--write");
    if (Error error = writeBuffer(findBuffer(name, "--write"), file.str()))
      fatal("--write " + write + ": " + toString(std::move(error)));
  }
  for (const std::string &dump : dumps)
    dumpBuffer(outs(), dump, findBuffer(dump, "--dump"));
  return 0;
}
