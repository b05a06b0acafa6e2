//===- OperandLayouts.h - shared layouts of mma dot operands ----*- C++ -*-===//
//
// The swizzled shared-memory layout a dot operand tile gets between the
// coalesced global load (stored with 16-byte vectors) and the ldmatrix
// reads of the mma.sync lowering. OperandLayouts.cpp explains the choice.
//
//===----------------------------------------------------------------------===//
#ifndef TK_DIALECTS_TKGPU_OPERANDLAYOUTS_H
#define TK_DIALECTS_TKGPU_OPERANDLAYOUTS_H

#include "dialects/tkgpu/TkgpuDialect.h"

namespace mlir::tkgpu {

/// K elements of `elementType` per 32-bit mma.sync register: 2 for
/// f16/bf16, 1 for f32 (tf32), 4 for 8-bit integers.
unsigned getMmaKWidth(Type elementType);

/// The shared layout of a dot operand tile of `shape` (2-D) whose data
/// arrives with dimension `order[0]` contiguous (the order of the
/// distributed layout it is stored from): 16-byte vectors XOR-swizzled so
/// that both the 16-byte vector stores of a coalesced layout and the
/// ldmatrix reads (8 rows x 16 bytes, with or without .trans) of `operand`
/// are free of bank conflicts.
SharedEncodingAttr getDotOperandSharedEncoding(DotOperandEncodingAttr operand,
                                               ArrayRef<int64_t> shape,
                                               Type elementType,
                                               ArrayRef<unsigned> order);

} // namespace mlir::tkgpu

#endif // TK_DIALECTS_TKGPU_OPERANDLAYOUTS_H
