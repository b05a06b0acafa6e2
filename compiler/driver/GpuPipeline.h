//===- GpuPipeline.h - tk -> tkgpu pass pipeline ----------------*- C++ -*-===//
#ifndef TK_COMPILER_DRIVER_GPUPIPELINE_H
#define TK_COMPILER_DRIVER_GPUPIPELINE_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace tk {

/// Where tkgpu-invariant-operands-in-registers loads a loop-invariant
/// wgmma A operand into registers before its loop: nowhere, where the
/// registers fit and B has three or more slots (the default), or
/// everywhere.
enum class InvariantARegisters { Never, Automatic, Always };

/// The switches of the GPU pipeline (tk -> tkgpu -> LLVM dialect) beyond
/// warps, stages and arch: tkc's measurement flags, the JIT's
/// JitOptions::switches. One struct on every path, so that the same source
/// and options give the same cubin from tkc, tk-run, the JIT and Python,
/// and every switch is part of the JIT's cache key (describeSwitches).
struct TkgpuPipelineSwitches {
  /// 2 keeps mma.sync on sm_90a (tkc --mma=v2); 0: wgmma where the shapes
  /// allow.
  unsigned mmaVersion = 0;
  /// false leaves out tkgpu-pingpong (tkc --no-pingpong).
  bool pingPong = true;
  /// false leaves out tkgpu-defer-row-sums (tkc --no-defer-row-sums).
  bool deferRowSums = true;
  /// tkgpu-prefetch's before-copies (false: tkc
  /// --no-prefetch-before-copies).
  bool prefetchBeforeCopies = true;
  /// tkgpu-subtile-tma-stores' chunks (tkc --epilogue-subtile): 0 where
  /// the kernel would not fit otherwise, 1 never, N column blocks.
  unsigned epilogueSubtile = 0;
  /// Where tkgpu-invariant-operands-in-registers loads (tkc
  /// --invariant-a-in-registers / --no-invariant-a-in-registers).
  InvariantARegisters invariantA = InvariantARegisters::Automatic;
  /// convert-tkgpu-to-llvm's rebase-wgmma-descriptors (tkc
  /// --rebase-wgmma-descriptors).
  bool rebaseDescriptors = false;
};

/// Every switch as `name=value` words, in a fixed order: the JIT's cache
/// key and messages. A new switch must be added here.
std::string describeSwitches(const TkgpuPipelineSwitches &switches);

/// Appends the passes that take a module of tk kernels to optimized tkgpu:
/// convert-tk-to-tkgpu, tkgpu-coalesce, tkgpu-remove-layout-conversions,
/// the tensor-core, TMA and pipelining passes, canonicalize, cse,
/// allocation and membar. `pm` must be a module pass manager; `numStages`
/// is the software-pipelining depth of loops feeding a dot (1: none);
/// `arch` is e.g. "sm_90a" or "sm_80".
void buildTkgpuPipeline(mlir::OpPassManager &pm, int numWarps, int numStages,
                        llvm::StringRef arch,
                        const TkgpuPipelineSwitches &switches = {});

/// buildTkgpuPipeline, then buildLlvmPipeline with the switches' rebase:
/// the whole GPU pipeline from tk to the LLVM dialect in one pass manager
/// (registered as tk-opt's `tk-gpu-pipeline`; tkc and the JIT run the same
/// two halves as two stages, GpuStages.h).
void buildGpuPipeline(mlir::OpPassManager &pm, int numWarps, int numStages,
                      llvm::StringRef arch,
                      const TkgpuPipelineSwitches &switches = {});

/// Registers `tk-gpu-pipeline` (options: num-warps, num-stages, arch and one
/// per switch) for tk-opt.
void registerGpuPipeline();

} // namespace tk

#endif // TK_COMPILER_DRIVER_GPUPIPELINE_H
