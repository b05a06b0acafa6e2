//===- OperandLayouts.cpp - shared layouts of mma dot operands ------------===//
//
// Shared memory has 32 banks of 4 bytes: a 128-byte "bank line" touches
// each bank once, i.e. 8 bank groups of 16 bytes. Both accesses to an
// operand tile move 16-byte pieces, 8 pieces per conflict-free wavefront:
//   - the stores: a coalesced blocked layout gives each thread a 16-byte
//     vector along the contiguous dimension (order[0]), consecutive lanes
//     taking consecutive vectors; a 16-byte st.shared is served 8 lanes at
//     a time, so those 8 lanes' vectors must hit 8 distinct bank groups;
//   - ldmatrix (m8n8, .x1/.x2/.x4, with or without .trans) reads each 8x8
//     matrix as 8 rows of 16 bytes at the same position along the
//     contiguous dimension of 8 consecutive rows of the tile (for A with K
//     contiguous, 8 rows of M; for B stored N-contiguous, 8 rows of K with
//     .trans; the other cases alike), and those 8 rows must hit 8 distinct
//     bank groups too.
// An unswizzled tile whose row is a multiple of 128 bytes puts all 8 rows
// of an ldmatrix in the same bank group (8-way conflict). The swizzle of
// #tkgpu.shared XORs the 16-byte piece index of row r with
// (r / perPhase) % maxPhase, so:
//   vec      = 16 bytes / element bytes: the unit of the XOR is one 16-byte
//              piece, which stays contiguous (vector stores and ldmatrix
//              rows need 16 contiguous bytes);
//   perPhase = max(1, 128 / row bytes): that many consecutive rows already
//              share one bank line at different bank groups, so they keep
//              the same phase;
//   maxPhase = min(8 / perPhase, pieces per row): 8 consecutive rows then
//              span perPhase * maxPhase = 8 bank groups positions -- rows
//              in one bank line differ by their line position, rows in
//              different lines by their phase -- and XOR with a phase below
//              the piece count permutes pieces within a row, so the 8
//              vectors of a store wavefront (consecutive pieces of one or
//              more rows of the same phase) stay distinct as well.
// Rows shorter than 16 bytes get vec larger than the row: no swizzle
// (maxPhase 1); such tiles are too small for tensor cores anyway.
//
// The layout does not depend on which operand (A or B) the tile is, nor on
// whether ldmatrix will need .trans: both read 8 consecutive rows of 16
// bytes along the contiguous dimension.
//
//===----------------------------------------------------------------------===//
#include "dialects/tkgpu/OperandLayouts.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::tkgpu;

unsigned mlir::tkgpu::getMmaKWidth(Type elementType) {
  return 32 / elementType.getIntOrFloatBitWidth();
}

SharedEncodingAttr mlir::tkgpu::getDotOperandSharedEncoding(
    DotOperandEncodingAttr, ArrayRef<int64_t> shape, Type elementType,
    ArrayRef<unsigned> order) {
  constexpr int64_t kPieceBytes = 16, kBankLineBytes = 128,
                    kPiecesPerLine = kBankLineBytes / kPieceBytes;
  int64_t elementBytes =
      std::max<int64_t>(1, elementType.getIntOrFloatBitWidth() / 8);
  int64_t rowBytes = shape[order[0]] * elementBytes;
  int64_t vec = kPieceBytes / elementBytes;
  int64_t perPhase = std::max<int64_t>(1, kBankLineBytes / rowBytes);
  int64_t piecesPerRow = rowBytes / kPieceBytes;
  int64_t maxPhase = std::max<int64_t>(
      1, std::min<int64_t>(kPiecesPerLine / std::min(perPhase, kPiecesPerLine),
                           piecesPerRow));
  return SharedEncodingAttr::get(elementType.getContext(), unsigned(vec),
                                 unsigned(perPhase), unsigned(maxPhase),
                                 order);
}

//===----------------------------------------------------------------------===//
// wgmma operands
//===----------------------------------------------------------------------===//
//
// wgmma reads A and B through 64-bit matrix descriptors. A descriptor
// names the start of an 8 x 16-byte "core matrix" pattern; the hardware
// finds the other core matrices of the instruction's operand by two
// strides (LBO, SBO) and applies the swizzle to the address bits: with a
// swizzle of S bytes, bits [4, 4 + log2(S/16)) are XORed with bits
// [7, 7 + log2(S/16)) (so the pattern repeats every 8 rows of S bytes, and
// tiles must be aligned to 8 * S bytes). The nvmma_shared layout is the
// layout this addressing defines (rows of S bytes, 8-row groups, chunks
// of S bytes along the contiguous dimension one after the other), so one
// descriptor per instruction describes a tile:
//   K-major  (A row-major, B column-major): rows are M (N) rows of S bytes
//            of K; one instruction's K (32 bytes) stays inside a row;
//            SBO = 8 * S (the next 8 rows), LBO unused;
//   MN-major (A column-major, B row-major, 16-bit only): rows are K rows
//            of S bytes of M (N); SBO = 8 * S (the next 8 K rows), LBO =
//            rows * S (the next chunk of S bytes along M/N).
// The start address of the instruction at (row, col) is the tile base plus
// the unswizzled offset of that element: instructions start at whole
// 8-row groups and 16-byte pieces, where the swizzle XOR is zero, so it is
// also the layout's offset. Stepping K inside a swizzled row (K-major,
// +32 bytes per k16) is correct because the hardware swizzles the final
// address, exactly as the layout does.
//

NvmmaSharedEncodingAttr mlir::tkgpu::getWgmmaOperandSharedEncoding(
    ArrayRef<int64_t> shape, Type elementType, ArrayRef<unsigned> order,
    int64_t instrContiguousBytes) {
  unsigned bits = elementType.getIntOrFloatBitWidth();
  if (shape.size() != 2 || (bits != 8 && bits != 16 && bits != 32) ||
      shape[order[1]] % 8 != 0)
    return {};
  int64_t contiguousBytes = shape[order[0]] * bits / 8;
  for (unsigned swizzle : {128u, 64u, 32u}) {
    if (contiguousBytes % swizzle != 0 ||
        (instrContiguousBytes && instrContiguousBytes % swizzle != 0))
      continue;
    return NvmmaSharedEncodingAttr::get(elementType.getContext(), swizzle,
                                        bits, order);
  }
  return {};
}

uint64_t mlir::tkgpu::encodeWgmmaDescriptor(uint64_t startAddress,
                                            uint64_t leadingBytes,
                                            uint64_t strideBytes,
                                            unsigned swizzle) {
  uint64_t mode = swizzle == 128 ? 1 : swizzle == 64 ? 2 : swizzle == 32 ? 3
                                                                         : 0;
  constexpr uint64_t kField = (1u << 14) - 1;
  return ((startAddress >> 4) & kField) | (((leadingBytes >> 4) & kField) << 16) |
         (((strideBytes >> 4) & kField) << 32) | (mode << 62);
}

std::optional<WgmmaOperandAccess>
mlir::tkgpu::getWgmmaOperandAccess(NvmmaSharedEncodingAttr layout,
                                   ArrayRef<int64_t> shape, unsigned opIdx) {
  ArrayRef<unsigned> order = layout.getOrder();
  if (order.size() != 2 || shape.size() != 2)
    return std::nullopt;
  unsigned kDim = opIdx == 0 ? 1 : 0;
  WgmmaOperandAccess access;
  access.swizzle = layout.getSwizzle();
  access.transposed = order[0] != kDim;
  access.strideBytes = 8 * int64_t(layout.getSwizzle());
  if (!access.transposed) {
    access.leadingBytes = 16; // "not used, assumed to be 1"
    return access;
  }
  if (layout.getElementBitWidth() != 16)
    return std::nullopt;
  access.leadingBytes = shape[order[1]] * int64_t(layout.getSwizzle());
  return access;
}

int64_t mlir::tkgpu::getWgmmaTileByteOffset(NvmmaSharedEncodingAttr layout,
                                            ArrayRef<int64_t> shape,
                                            int64_t row, int64_t col) {
  LinearLayout offsets = layout.toLinearLayout(shape).invert();
  int32_t element = offsets.apply({{outDimName(0), int32_t(row)},
                                   {outDimName(1), int32_t(col)}})[0];
  return int64_t(element) * layout.getElementBitWidth() / 8;
}
