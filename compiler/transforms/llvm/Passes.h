//===- Passes.h - passes on the LLVM dialect --------------------*- C++ -*-===//
#ifndef TK_COMPILER_TRANSFORMS_LLVM_PASSES_H
#define TK_COMPILER_TRANSFORMS_LLVM_PASSES_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tk {

#define GEN_PASS_DECL
#include "compiler/transforms/llvm/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/transforms/llvm/Passes.h.inc"

} // namespace mlir::tk

#endif // TK_COMPILER_TRANSFORMS_LLVM_PASSES_H
