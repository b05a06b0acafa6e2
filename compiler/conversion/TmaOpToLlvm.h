//===- TmaOpToLlvm.h - mbarrier and TMA op lowering -------------*- C++ -*-===//
//
// Its own header (not PatternSets.h) so that adding the TMA ops does not
// rebuild every lowering.
//
//===----------------------------------------------------------------------===//
#ifndef TK_COMPILER_CONVERSION_TMAOPTOLLVM_H
#define TK_COMPILER_CONVERSION_TMAOPTOLLVM_H

namespace mlir {
class LLVMTypeConverter;
class RewritePatternSet;
} // namespace mlir

namespace mlir::tkgpu {

/// init_barrier, barrier_expect, arrive_barrier, wait_barrier,
/// inval_barrier, async_tma_copy_*, async_tma_store_wait (TmaOpToLlvm.cpp).
void populateTmaOpToLlvmPatterns(LLVMTypeConverter &converter,
                                 RewritePatternSet &patterns);

} // namespace mlir::tkgpu

#endif // TK_COMPILER_CONVERSION_TMAOPTOLLVM_H
