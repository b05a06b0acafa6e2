//===- TkDialect.h - the tk dialect -----------------------------*- C++ -*-===//
#ifndef TK_DIALECTS_TK_TKDIALECT_H
#define TK_DIALECTS_TK_TKDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialects/tk/TkDialect.h.inc"
#include "dialects/tk/TkEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/tk/TkAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/tk/TkTypes.h.inc"

#define GET_OP_CLASSES
#include "dialects/tk/TkOps.h.inc"

namespace mlir::tk {

/// The pointee of `!tk.ptr<T>` or of a tensor of such pointers, keeping the
/// tensor shape: tensor<4x!tk.ptr<f32>> -> tensor<4xf32>.
Type getPointeeType(Type ptrLike);

/// `type` with its element type replaced by `element`, keeping any shape.
Type withElementType(Type type, Type element);

/// Whether a func.func is a kernel entry (carries `tk.kernel`).
bool isKernel(Operation *op);

} // namespace mlir::tk

#endif // TK_DIALECTS_TK_TKDIALECT_H
