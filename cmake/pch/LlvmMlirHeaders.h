//===- LlvmMlirHeaders.h - The LLVM/MLIR headers tk precompiles -----------===//
//
// Parsing LLVM's and MLIR's headers is most of the cost of compiling a tk
// translation unit: a 100-line pass spends ~45 s in g++ on 350k lines of
// headers (NVVM's and the LLVM dialect's generated op declarations above
// all) and under a second on its own code. cmake/PrecompiledHeaders.cmake
// compiles this header once per flag family and force-includes the result
// into the MLIR-heavy targets, which then compile in a few seconds each.
//
// Only headers of the installed LLVM/MLIR belong here: they never change
// during development, so the precompiled header is built once. tk's own
// headers (dialects, generated .inc files) stay out, so that editing a .td
// rebuilds only the TUs that include it. The list is the union of what the
// compiler's TUs include, directly or through tk's headers; a TU still
// includes what it uses (the force-include only makes it cheaper).
//
//===----------------------------------------------------------------------===//
#ifndef TK_CMAKE_PCH_LLVMMLIRHEADERS_H
#define TK_CMAKE_PCH_LLVMMLIRHEADERS_H

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#endif // TK_CMAKE_PCH_LLVMMLIRHEADERS_H
