//===- PatternSets.h - op patterns of convert-tkgpu-to-llvm -----*- C++ -*-===//
//
// One populate function per op family, each defined in its own file.
//
//===----------------------------------------------------------------------===//
#ifndef TK_COMPILER_CONVERSION_PATTERNSETS_H
#define TK_COMPILER_CONVERSION_PATTERNSETS_H

#include "compiler/conversion/LoweringUtils.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::tkgpu {

/// func.func/return/call -> llvm.func (kernels: nvvm.kernel, nvvm.reqntid).
void populateFuncOpToLlvmPatterns(TkgpuToLlvmTypeConverter &converter,
                                  LoweringState &state,
                                  RewritePatternSet &patterns);

/// Elementwise arith/math on tensors: the scalar op once per element;
/// tensor constants.
void populateElementwiseOpToLlvmPatterns(TkgpuToLlvmTypeConverter &converter,
                                         LoweringState &state,
                                         RewritePatternSet &patterns);

/// fp8 <-> f32 conversions (hardware cvt on sm_89+, emulated before) and
/// fp8 constants.
void populateFp8OpToLlvmPatterns(TkgpuToLlvmTypeConverter &converter,
                                 LoweringState &state,
                                 RewritePatternSet &patterns);

/// Scalar math with PTX approximations (exp, exp2, log, log2, sin, cos,
/// rsqrt, tanh, erf); takes precedence over the upstream math patterns.
void populateMathOpToLlvmPatterns(TkgpuToLlvmTypeConverter &converter,
                                  RewritePatternSet &patterns);

/// program_id, num_programs, make_range, splat, broadcast, expand_dims,
/// reshape, trans, addptr, hint, int_to_ptr, ptr_to_int, bitcast.
void populateViewOpToLlvmPatterns(TkgpuToLlvmTypeConverter &converter,
                                  LoweringState &state,
                                  RewritePatternSet &patterns);

/// load, store, atomic_rmw, atomic_cas.
void populateLoadStoreOpToLlvmPatterns(TkgpuToLlvmTypeConverter &converter,
                                       LoweringState &state,
                                       RewritePatternSet &patterns);

/// reduce.
void populateReduceOpToLlvmPatterns(TkgpuToLlvmTypeConverter &converter,
                                    LoweringState &state,
                                    RewritePatternSet &patterns);

/// scan.
void populateScanOpToLlvmPatterns(TkgpuToLlvmTypeConverter &converter,
                                  LoweringState &state,
                                  RewritePatternSet &patterns);

/// convert_layout.
void populateConvertLayoutOpToLlvmPatterns(TkgpuToLlvmTypeConverter &converter,
                                           LoweringState &state,
                                           RewritePatternSet &patterns);

/// dot (the slow FMA path).
void populateDotOpToLlvmPatterns(TkgpuToLlvmTypeConverter &converter,
                                 LoweringState &state,
                                 RewritePatternSet &patterns);

/// print (vprintf) and assert (__assertfail).
void populatePrintAssertOpToLlvmPatterns(TkgpuToLlvmTypeConverter &converter,
                                         LoweringState &state,
                                         RewritePatternSet &patterns);

/// local_alloc, local_load, local_store, local_dealloc, memdesc_index,
/// barrier.
void populateMemDescOpToLlvmPatterns(TkgpuToLlvmTypeConverter &converter,
                                     LoweringState &state,
                                     RewritePatternSet &patterns);

/// async_copy_global_to_local, async_commit_group, async_wait (cp.async).
/// prepareAsyncCopies runs first, before values change: it turns the
/// AxisInfo width of each async copy (in state.vectorWidths) into its
/// cp.async width, and reports copies cp.async cannot do (located errors).
LogicalResult prepareAsyncCopies(ModuleOp module, LoweringState &state);
void populateAsyncCopyOpToLlvmPatterns(TkgpuToLlvmTypeConverter &converter,
                                       LoweringState &state,
                                       RewritePatternSet &patterns);

/// local_load into a #dot_operand layout: nvvm.ldmatrix where it applies
/// (higher benefit than the generic local_load).
void populateDotOperandLoadToLlvmPatterns(TkgpuToLlvmTypeConverter &converter,
                                          LoweringState &state,
                                          RewritePatternSet &patterns);

/// dot with an #mma result: nvvm.mma.sync (higher benefit than the FMA
/// path).
void populateMmaDotOpToLlvmPatterns(TkgpuToLlvmTypeConverter &converter,
                                    LoweringState &state,
                                    RewritePatternSet &patterns);

/// warp_group_dot (nvvm.wgmma.*), warp_group_dot_wait, fence_async_shared.
void populateWarpGroupDotOpToLlvmPatterns(TkgpuToLlvmTypeConverter &converter,
                                          LoweringState &state,
                                          RewritePatternSet &patterns);

} // namespace mlir::tkgpu

#endif // TK_COMPILER_CONVERSION_PATTERNSETS_H
