//===- MathOpToLibdevice.h - math ops as libdevice calls --------*- C++ -*-===//
//
// Its own header (not PatternSets.h) so that adding the patterns does not
// rebuild every lowering.
//
//===----------------------------------------------------------------------===//
#ifndef TK_COMPILER_CONVERSION_MATHOPTOLIBDEVICE_H
#define TK_COMPILER_CONVERSION_MATHOPTOLIBDEVICE_H

namespace mlir {
class LLVMTypeConverter;
class RewritePatternSet;
} // namespace mlir

namespace mlir::tkgpu {

/// The scalar math that the fast patterns (MathOpToLlvm.cpp) leave (f64,
/// pow, atan2, tan, ...) as calls of libdevice's __nv_* functions; above
/// the upstream math patterns (MathOpToLibdevice.cpp).
void populateMathOpToLibdevicePatterns(LLVMTypeConverter &converter,
                                       RewritePatternSet &patterns);

} // namespace mlir::tkgpu

#endif // TK_COMPILER_CONVERSION_MATHOPTOLIBDEVICE_H
