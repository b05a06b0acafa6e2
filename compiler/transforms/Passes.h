//===- Passes.h - passes on the tk dialect ----------------------*- C++ -*-===//
#ifndef TK_COMPILER_TRANSFORMS_PASSES_H
#define TK_COMPILER_TRANSFORMS_PASSES_H

#include "dialects/tk/TkDialect.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tk {

#define GEN_PASS_DECL
#include "compiler/transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/transforms/Passes.h.inc"

} // namespace mlir::tk

#endif // TK_COMPILER_TRANSFORMS_PASSES_H
