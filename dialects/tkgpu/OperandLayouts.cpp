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
