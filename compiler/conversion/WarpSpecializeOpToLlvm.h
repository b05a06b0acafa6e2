//===- WarpSpecializeOpToLlvm.h - warp_specialize lowering ------*- C++ -*-===//
//
// Its own header (not PatternSets.h) so that adding it does not rebuild
// every lowering.
//
//===----------------------------------------------------------------------===//
#ifndef TK_COMPILER_CONVERSION_WARPSPECIALIZEOPTOLLVM_H
#define TK_COMPILER_CONVERSION_WARPSPECIALIZEOPTOLLVM_H

#include "mlir/Support/LLVM.h"

namespace mlir {
class ConversionTarget;
class LLVMTypeConverter;
class ModuleOp;
class RewritePatternSet;
} // namespace mlir

namespace mlir::tkgpu {

/// During the conversion to LLVM, tkgpu.warp_specialize stays (its
/// regions' block arguments converted) so that the ops inside know their
/// partition (getPartition); warp_yield stays legal. Also warp_group_id and
/// the named barriers (bar.sync / bar.arrive).
void populateWarpSpecializeOpToLlvmPatterns(LLVMTypeConverter &converter,
                                            ConversionTarget &target,
                                            RewritePatternSet &patterns);

/// After it: each warp_specialize becomes the branch into its partitions,
/// with their setmaxnreg, and each warp_yield a branch past it.
void lowerWarpSpecializeOps(ModuleOp module);

} // namespace mlir::tkgpu

#endif // TK_COMPILER_CONVERSION_WARPSPECIALIZEOPTOLLVM_H
