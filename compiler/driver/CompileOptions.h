//===- CompileOptions.h - what one tkc compilation is asked to do -*- C++ -*-===//
//
// Filled by tkc's command line (or by a JIT / test harness directly) and
// read by every stage. Plain data; no MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef TK_COMPILER_DRIVER_COMPILEOPTIONS_H
#define TK_COMPILER_DRIVER_COMPILEOPTIONS_H

#include "compiler/driver/GpuPipeline.h"
#include "compiler/frontend/IRGen.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tk {

/// The stage whose result tkc prints or writes.
enum class EmitKind {
  Ast,        // the parsed program (frontend syntax only)
  TkRaw,      // tk IR straight from the frontend, before any pass
  Tk,         // tk IR after the tk pipeline (inline, canonicalize, ...)
  TkGpu,      // tkgpu IR (layouts)
  LlvmMlir,   // LLVM + NVVM dialects
  Llvm,       // LLVM IR
  Ptx,        // PTX assembly
  Cubin,      // cubin + metadata JSON
  SassReport, // what ptxas/cuobjdump say about the cubin
};

/// "ast", "tk-raw", "tk", "tkgpu", "llvm-mlir", "llvm", "ptx", "cubin",
/// "sass-report".
const char *getEmitKindName(EmitKind kind);
std::optional<EmitKind> parseEmitKind(const std::string &name);
/// All names, comma-separated, for messages.
std::string getEmitKindNames();

struct CompileOptions {
  /// Name used in messages: "tkc: error: ...".
  std::string toolName = "tkc";
  /// The .tk file.
  std::string inputPath;
  /// The kernel (-k); empty: the file's only kernel.
  std::string kernelName;
  /// -D NAME=VALUE, in order; VALUE is an expression (`1024`, `True`).
  std::vector<std::pair<std::string, std::string>> defines;
  /// --num-warps / --num-stages. Unset: the kernel's @autotune config or
  /// @kernel(...) value, else 4 and 3. The value in force is recorded on
  /// the module as tk.num_warps / tk.num_stages (getNumWarps in
  /// Frontend.h).
  std::optional<unsigned> numWarps;
  std::optional<unsigned> numStages;
  /// --maxnreg: registers per thread at most (the kernel's maxnreg=,
  /// Triton's option): ptxas' cap, and with warp specialization the pool
  /// the partitions share, so that more programs fit on an SM.
  std::optional<unsigned> maxRegisters;
  /// --cluster-size: consecutive programs along x launched as one
  /// thread-block cluster (the kernel's cluster_size=; sm_90a).
  std::optional<unsigned> clusterSize;
  /// Which @autotune config provides values -D leaves unset (default the
  /// first).
  unsigned autotuneConfig = 0;
  /// "sm_90a" or "sm_80".
  std::string arch = "sm_90a";
  /// The GPU pipeline's switches (GpuPipeline.h): tkc's --mma=v2,
  /// --no-pingpong, --no-prefetch-before-copies, --no-defer-row-sums,
  /// --rebase-wgmma-descriptors, --epilogue-subtile and
  /// --[no-]invariant-a-in-registers; the JIT takes the same struct.
  TkgpuPipelineSwitches switches;
  /// --assume NAME=16 / NAME=1.
  std::vector<ArgAssumption> assumptions;
  /// --assume-aligned-pointers: every pointer argument is 16-byte aligned.
  bool assumeAlignedPointers = false;
  EmitKind emit = EmitKind::Cubin;
  /// -o; empty: stdout for text, a name derived from the kernel for
  /// binaries.
  std::string outputPath;
  /// --stats: after --emit=cubin, ptxas' resource use per kernel
  /// (registers, spills, shared memory) to stderr.
  bool printStats = false;
  /// --timing: the wall time of every stage and pass, to stderr, when the
  /// compilation ends (MLIR's timing report).
  bool timing = false;
  /// --remarks: every pass's optimization remarks (what was pipelined,
  /// which load or dot fell off the fast path and why) to stderr, at their
  /// .tk lines (RemarkPrinter.h).
  bool remarks = false;
  /// --print-ir-after-all: the module after every pass, to stderr.
  bool printIRAfterAll = false;
  /// --print-ir-after=PASS: the module after each run of that pass
  /// (its command-line name, e.g. "canonicalize").
  std::string printIRAfter;

  /// The frontend's part of these options.
  IRGenOptions getIRGenOptions() const;
};

/// Validation shared by tkc and other callers; return an error message, or
/// an empty string when the value is fine.
std::string checkNumWarps(long long value);
std::string checkNumStages(long long value);
/// Without the "--": the JIT's KernelOptions::maxRegisters says it too.
std::string checkMaxRegisters(long long value);
std::string checkClusterSize(long long value);
std::string checkArch(const std::string &arch);

} // namespace tk

#endif // TK_COMPILER_DRIVER_COMPILEOPTIONS_H
