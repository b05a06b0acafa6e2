//===- TensorMapSource.h - host-encodable tensor descriptor accesses -*- C++ -*-===//
//
// A tensor descriptor access (tk.descriptor_load / tk.descriptor_store) can
// use TMA with a tensor map that the runtime encodes on the host at launch
// when everything the CUtensorMap holds is known there: the base is a
// kernel parameter, every dimension and stride a kernel parameter (maybe
// sign- or zero-extended) or a constant. This file finds those sources and
// says which accesses the TMA path (tkgpu-lower-tma) takes; the others stay
// on the masked-load path (tk-lower-tensor-descriptors).
//
//===----------------------------------------------------------------------===//
#ifndef TK_COMPILER_ANALYSIS_TENSORMAPSOURCE_H
#define TK_COMPILER_ANALYSIS_TENSORMAPSOURCE_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir::tk {

/// One dimension or stride of a tensor map: kernel parameter `argIndex`,
/// or the constant `value` when argIndex < 0.
struct TensorMapOperandSource {
  int64_t argIndex = -1;
  int64_t value = 0;

  bool operator==(const TensorMapOperandSource &other) const {
    return argIndex == other.argIndex && value == other.value;
  }
};

/// Where the parts of one descriptor access come from (outermost first).
struct TensorMapSource {
  unsigned baseArg = 0;
  SmallVector<TensorMapOperandSource> shape, strides;
};

/// The sources of `access` (a descriptor_load or descriptor_store in a
/// kernel); nullopt when a part is computed in the kernel.
std::optional<TensorMapSource> getTensorMapSource(Operation *access);

/// For a block of rank 3 to 5 whose leading dimensions are 1 (one head of a
/// (Z, H, N, D) tensor, block [1, 1, BN, D]): the 2-D tile the kernel
/// works on, when the access only squeezes them away, i.e. the load's
/// single user is a tk.reshape to the last two dimensions, or the stored
/// value is a tk.reshape from them (the result, or the source, of that
/// reshape); null otherwise.
Value getSqueezedTile(Operation *access);

/// Whether the TMA path takes `access`: its sources are host-known, the
/// block is 2-D (or squeezed to 2-D: getSqueezedTile) with 8-, 16- or
/// 32-bit elements, rows a multiple of 8 (at most 256, or a multiple of
/// 256) and rows a multiple of 32 bytes (so that an nvmma_shared swizzle
/// fits, as wgmma and TMA share it).
bool canUseHostTensorMap(Operation *access);

} // namespace mlir::tk

#endif // TK_COMPILER_ANALYSIS_TENSORMAPSOURCE_H
