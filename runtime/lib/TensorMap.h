//===- TensorMap.h - Metadata tensor maps -> cuTensorMapEncodeTiled -*- C++ -*-===//
//
// Internal to libtkrt. A kernel's metadata may list tensor maps (TMA
// descriptors, docs/runtime.md): each is a CUtensorMap the CUDA backend
// encodes at launch from the launch's arguments and passes as a 128-byte
// parameter after the kernel's own. This file turns one TensorMapSpec and
// the checked arguments into the exact arguments of cuTensorMapEncodeTiled
// (innermost dimension first, strides in bytes), checking TMA's rules
// (address aligned to 16 bytes, strides multiples of 16 bytes below 2^40,
// dimensions 1..2^32) with messages that name the kernel and parameter.
// It calls no driver function, so it is tested without a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef TK_LIB_TENSORMAP_H
#define TK_LIB_TENSORMAP_H

#include "tk/ArgValue.h"
#include "tk/Metadata.h"

#include <cuda.h>

#include <vector>

namespace tk {
namespace detail {

/// The arguments of one cuTensorMapEncodeTiled call (all but the output).
struct TensorMapEncoding {
  CUtensorMapDataType dataType = CU_TENSOR_MAP_DATA_TYPE_UINT8;
  cuuint32_t rank = 0;
  uint64_t globalAddress = 0;
  cuuint64_t globalDim[5] = {};     // innermost first
  cuuint64_t globalStrides[4] = {}; // bytes, of dimensions 1..rank-1
  cuuint32_t boxDim[5] = {};        // innermost first
  cuuint32_t elementStrides[5] = {};
  CUtensorMapInterleave interleave = CU_TENSOR_MAP_INTERLEAVE_NONE;
  CUtensorMapSwizzle swizzle = CU_TENSOR_MAP_SWIZZLE_NONE;
  CUtensorMapL2promotion l2Promotion = CU_TENSOR_MAP_L2_PROMOTION_NONE;
  CUtensorMapFloatOOBfill oobFill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;
};

/// The encoding of `md.tensorMaps[index]` for a launch with `args` (the
/// kernel's parameters, already checked against md.args). Throws tk::Error
/// when the arguments break a TMA rule.
TensorMapEncoding encodeTensorMap(const Metadata &md, size_t index,
                                  const std::vector<ArgValue> &args);

} // namespace detail
} // namespace tk

#endif // TK_LIB_TENSORMAP_H
