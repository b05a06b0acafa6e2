//===- GpuPipeline.h - tk -> tkgpu pass pipeline ----------------*- C++ -*-===//
#ifndef TK_COMPILER_DRIVER_GPUPIPELINE_H
#define TK_COMPILER_DRIVER_GPUPIPELINE_H

#include "llvm/ADT/StringRef.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace tk {

/// Where tkgpu-invariant-operands-in-registers loads a loop-invariant
/// wgmma A operand into registers before its loop: nowhere, where the
/// registers fit and B has three or more slots (the default), or
/// everywhere.
enum class InvariantARegisters { Never, Automatic, Always };

/// The switches of the tk -> tkgpu pipeline beyond warps, stages and arch
/// (tkc's ablation flags; the defaults are what tkc and the JIT use).
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
};

/// Appends the passes that take a module of tk kernels to optimized tkgpu:
/// convert-tk-to-tkgpu, tkgpu-coalesce, tkgpu-remove-layout-conversions,
/// the tensor-core, TMA and pipelining passes, canonicalize, cse,
/// allocation and membar. `pm` must be a module pass manager; `numStages`
/// is the software-pipelining depth of loops feeding a dot (1: none);
/// `arch` is e.g. "sm_90a" or "sm_80".
void buildTkgpuPipeline(mlir::OpPassManager &pm, int numWarps, int numStages,
                        llvm::StringRef arch,
                        const TkgpuPipelineSwitches &switches = {});

} // namespace tk

#endif // TK_COMPILER_DRIVER_GPUPIPELINE_H
