//===- OperandLayouts.h - shared layouts of mma dot operands ----*- C++ -*-===//
//
// The swizzled shared-memory layout a dot operand tile gets between the
// coalesced global load (stored with 16-byte vectors) and the ldmatrix
// reads of the mma.sync lowering, and the nvmma_shared layouts and matrix
// descriptors of wgmma operands. OperandLayouts.cpp explains the choices.
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

//===----------------------------------------------------------------------===//
// wgmma (mma v3) operands: the nvmma_shared layout and matrix descriptors
//===----------------------------------------------------------------------===//

/// The nvmma_shared layout of a wgmma operand tile of `shape` (2-D) whose
/// dimension `order[0]` is contiguous: the widest swizzle (128, 64 or 32
/// bytes) whose row divides both the tile's contiguous extent and
/// `instrContiguousBytes` (the bytes one instruction reads along that
/// dimension; ignored when 0). Null when no swizzle fits or the other
/// dimension is not a multiple of 8 rows.
NvmmaSharedEncodingAttr
getWgmmaOperandSharedEncoding(ArrayRef<int64_t> shape, Type elementType,
                              ArrayRef<unsigned> order,
                              int64_t instrContiguousBytes = 0);

/// A wgmma matrix descriptor (PTX ISA, "Matrix Descriptor Format"): bits
/// 0-13 the start address >> 4, 16-29 the leading dimension byte offset
/// >> 4, 32-45 the stride dimension byte offset >> 4, 49-51 the base
/// offset (0: tiles are aligned to the swizzle pattern), 62-63 the swizzle
/// mode (1: 128-byte, 2: 64-byte, 3: 32-byte).
uint64_t encodeWgmmaDescriptor(uint64_t startAddress, uint64_t leadingBytes,
                               uint64_t strideBytes, unsigned swizzle);

/// How wgmma reads operand `opIdx` (0: A, M x K; 1: B, K x N) from an
/// nvmma_shared tile.
struct WgmmaOperandAccess {
  /// MN-major (the instruction's imm-trans = 1): the contiguous dimension
  /// is M (A) or N (B); K-major otherwise.
  bool transposed = false;
  /// K-major: LBO unused (1), SBO = the 8-row group stride (8 * swizzle).
  /// MN-major: LBO = the stride of swizzle-byte chunks along M/N, SBO = the
  /// 8-K-row group stride.
  int64_t leadingBytes = 0, strideBytes = 0;
  unsigned swizzle = 0;

  /// The descriptor without its start address.
  uint64_t getDescriptorBase() const {
    return encodeWgmmaDescriptor(0, leadingBytes, strideBytes, swizzle);
  }
};

/// The access of operand `opIdx` in `layout` for a tile of `shape`;
/// nullopt when wgmma cannot read it (MN-major needs 16-bit elements).
std::optional<WgmmaOperandAccess>
getWgmmaOperandAccess(NvmmaSharedEncodingAttr layout, ArrayRef<int64_t> shape,
                      unsigned opIdx);

/// Byte offset in the tile of element (row, col) (row/col of the 2-D
/// operand tile): the start address of an instruction's operand whose
/// first element it is. Both coordinates must start whole 16-byte pieces
/// and 8-row groups, where the swizzle adds nothing.
int64_t getWgmmaTileByteOffset(NvmmaSharedEncodingAttr layout,
                               ArrayRef<int64_t> shape, int64_t row,
                               int64_t col);

} // namespace mlir::tkgpu

#endif // TK_DIALECTS_TKGPU_OPERANDLAYOUTS_H
