//===- LlvmToPtx.h - LLVM-dialect module to LLVM IR and PTX -----*- C++ -*-===//
//
// The in-process back end: translate an MLIR module in the LLVM and NVVM
// dialects to LLVM IR, optimize it with the NVPTX TargetMachine's O3
// pipeline, and print PTX. A module that declares libdevice functions
// (`__nv_powf`, ...: the math the lowering leaves to libdevice) gets
// CUDA's libdevice.10.bc linked in first, only the functions it needs.
//
//===----------------------------------------------------------------------===//
#ifndef TK_COMPILER_TARGET_LLVMTOPTX_H
#define TK_COMPILER_TARGET_LLVMTOPTX_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace mlir {
class DialectRegistry;
class ModuleOp;
} // namespace mlir

namespace tk {

/// What the back end compiles for.
struct TargetOptions {
  /// The GPU: "sm_90a", "sm_90", "sm_80", ... (the NVPTX CPU name, and the
  /// -arch given to ptxas).
  std::string arch = "sm_90a";
  /// The PTX ISA version feature. ptx84 (CUDA 12.4) covers sm_90a and every
  /// instruction we emit, and CUDA 13's ptxas accepts it.
  std::string ptxFeature = "+ptx84";
  /// 0-3: the LLVM pipeline level and the code generator's level.
  unsigned optLevel = 3;
  /// Contract a*b+c into fma, as Triton does by default (enable_fp_fusion).
  bool enableFpFusion = true;
};

/// The path of CUDA's libdevice.10.bc: $TK_LIBDEVICE, else
/// <cuda>/nvvm/libdevice/libdevice.10.bc for the CUDA root of the ptxas
/// found by findPtxas, else /usr/local/cuda's.
llvm::Expected<std::string> findLibdevice();

/// Registers the builtin, LLVM and NVVM dialect translations to LLVM IR.
void registerLlvmIrTranslations(mlir::DialectRegistry &registry);

/// Translates `module` (LLVM + NVVM dialects only) to LLVM IR for
/// nvptx64-nvidia-cuda with the NVPTX data layout, links libdevice when the
/// module calls it, then runs the LLVM
/// pipeline at `options.optLevel`. The context of `module` must have the
/// translations of registerLlvmIrTranslations (this function adds them when
/// missing).
llvm::Expected<std::unique_ptr<llvm::Module>>
translateToLlvmIr(mlir::ModuleOp module, llvm::LLVMContext &llvmContext,
                  const TargetOptions &options);

/// The optimized LLVM IR of translateToLlvmIr as text (--emit=llvm).
llvm::Expected<std::string> translateToLlvmIrText(mlir::ModuleOp module,
                                                  const TargetOptions &options);

/// Prints PTX for an LLVM module that translateToLlvmIr produced.
llvm::Expected<std::string> emitPtx(llvm::Module &llvmModule,
                                    const TargetOptions &options);

/// translateToLlvmIr then emitPtx: the PTX text of `module`.
llvm::Expected<std::string> translateToPtx(mlir::ModuleOp module,
                                           const TargetOptions &options);

} // namespace tk

#endif // TK_COMPILER_TARGET_LLVMTOPTX_H
