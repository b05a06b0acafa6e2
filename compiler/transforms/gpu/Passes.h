//===- Passes.h - passes that produce and optimize tkgpu --------*- C++ -*-===//
#ifndef TK_COMPILER_TRANSFORMS_GPU_PASSES_H
#define TK_COMPILER_TRANSFORMS_GPU_PASSES_H

#include "dialects/tkgpu/TkgpuDialect.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tkgpu {

#define GEN_PASS_DECL
#include "compiler/transforms/gpu/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/transforms/gpu/Passes.h.inc"

} // namespace mlir::tkgpu

#endif // TK_COMPILER_TRANSFORMS_GPU_PASSES_H
