//===- InstructionTiles.h - tensor-core instruction tiles of a layout -*- C++ -*-===//
//
// The mma.sync and wgmma lowerings walk a dot's operands and accumulator
// one instruction tile at a time; a tile's registers are consecutive, so a
// tile is named by the element its first register holds.
//
//===----------------------------------------------------------------------===//
#ifndef TK_COMPILER_CONVERSION_INSTRUCTIONTILES_H
#define TK_COMPILER_CONVERSION_INSTRUCTIONTILES_H

#include "compiler/conversion/LoweringUtils.h"

#include <map>

namespace mlir::tkgpu {

/// (row, column) of the element the first register of each instruction
/// tile holds on lane 0 of warp 0 -> the tile's number, for tiles of
/// `registersPerTile` consecutive registers of `layout`.
inline std::map<std::pair<int32_t, int32_t>, int32_t>
getInstructionTiles(const LinearLayout &layout, int32_t registersPerTile) {
  std::map<std::pair<int32_t, int32_t>, int32_t> tiles;
  int32_t numTiles = layout.getInDimSize(kRegister) / registersPerTile;
  for (int32_t t = 0; t < numTiles; ++t) {
    SmallVector<int32_t> index = getRegisterIndex(layout, t * registersPerTile);
    tiles.emplace(std::make_pair(index[0], index[1]), t);
  }
  return tiles;
}

} // namespace mlir::tkgpu

#endif // TK_COMPILER_CONVERSION_INSTRUCTIONTILES_H
