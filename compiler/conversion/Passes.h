//===- Passes.h - tkgpu to LLVM conversion ----------------------*- C++ -*-===//
#ifndef TK_COMPILER_CONVERSION_PASSES_H
#define TK_COMPILER_CONVERSION_PASSES_H

#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tkgpu {

#define GEN_PASS_DECL
#include "compiler/conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/conversion/Passes.h.inc"

} // namespace mlir::tkgpu

#endif // TK_COMPILER_CONVERSION_PASSES_H
