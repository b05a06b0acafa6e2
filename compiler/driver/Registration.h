//===- Registration.h - every dialect and pass tk tools know ----*- C++ -*-===//
#ifndef TK_COMPILER_DRIVER_REGISTRATION_H
#define TK_COMPILER_DRIVER_REGISTRATION_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace tk {

/// The dialects a tk pipeline may produce: tk, tkgpu, the upstream ones the
/// frontend emits (func, arith, math, scf, cf) and the LLVM/NVVM targets.
void registerAllDialects(mlir::DialectRegistry &registry);

/// Every tk pass plus the upstream ones our pipelines use, by name, for
/// tk-opt and --print-ir-after-all.
void registerAllPasses();

} // namespace tk

#endif // TK_COMPILER_DRIVER_REGISTRATION_H
