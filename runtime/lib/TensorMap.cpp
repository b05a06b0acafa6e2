//===- TensorMap.cpp - Metadata tensor maps -> cuTensorMapEncodeTiled -----===//
//
// The language lists dimensions outermost first; cuTensorMapEncodeTiled
// wants them innermost first, and strides in bytes for every dimension but
// the innermost (whose stride is the element size). Out-of-bounds elements
// are zero-filled (FLOAT_OOB_FILL_NONE), which is what descriptor loads
// promise; L2 promotion is 128 bytes, as CUTLASS and Triton use for tiles.
//
//===----------------------------------------------------------------------===//

#include "TensorMap.h"

#include "tk/Error.h"

using namespace tk;
using namespace tk::detail;

namespace {

CUtensorMapDataType dataTypeOf(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::I8:
  case ScalarKind::U8:
  case ScalarKind::F8E4M3:
  case ScalarKind::F8E5M2:
    return CU_TENSOR_MAP_DATA_TYPE_UINT8;
  case ScalarKind::I16:
  case ScalarKind::U16:
    return CU_TENSOR_MAP_DATA_TYPE_UINT16;
  case ScalarKind::I32:
    return CU_TENSOR_MAP_DATA_TYPE_INT32;
  case ScalarKind::U32:
    return CU_TENSOR_MAP_DATA_TYPE_UINT32;
  case ScalarKind::I64:
    return CU_TENSOR_MAP_DATA_TYPE_INT64;
  case ScalarKind::U64:
    return CU_TENSOR_MAP_DATA_TYPE_UINT64;
  case ScalarKind::F16:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  case ScalarKind::BF16:
    return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  case ScalarKind::F32:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  case ScalarKind::F64:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT64;
  case ScalarKind::I1:
    break;
  }
  return CU_TENSOR_MAP_DATA_TYPE_UINT8; // validate() rejects i1
}

CUtensorMapSwizzle swizzleOf(int bytes) {
  switch (bytes) {
  case 32: return CU_TENSOR_MAP_SWIZZLE_32B;
  case 64: return CU_TENSOR_MAP_SWIZZLE_64B;
  case 128: return CU_TENSOR_MAP_SWIZZLE_128B;
  default: return CU_TENSOR_MAP_SWIZZLE_NONE;
  }
}

size_t argIndex(const Metadata &md, const std::string &name) {
  for (size_t i = 0; i < md.args.size(); ++i)
    if (md.args[i].name == name)
      return i;
  return md.args.size(); // validate() guarantees it exists
}

} // namespace

TensorMapEncoding tk::detail::encodeTensorMap(
    const Metadata &md, size_t index, const std::vector<ArgValue> &args) {
  const TensorMapSpec &map = md.tensorMaps.at(index);
  std::string where = "kernel '" + md.name + "': tensor map " +
                      std::to_string(index + 1) + " (base '" + map.base +
                      "'): ";
  auto fail = [&](const std::string &message) {
    throw Error(where + message);
  };
  // An operand's value and how to name it in messages.
  auto valueOf = [&](const TensorMapOperand &operand, const char *what,
                     size_t dim) -> int64_t {
    if (!operand.isArg())
      return operand.value;
    const ArgValue &arg = args.at(argIndex(md, operand.arg));
    int64_t value = isSignedIntegerKind(arg.type.scalar)
                        ? static_cast<int64_t>(arg.bits)
                        : static_cast<int64_t>(arg.bits & INT64_MAX);
    if (value < 1)
      fail(std::string(what) + " " + std::to_string(dim) + " ('" +
           operand.arg + "') is " + std::to_string(value) +
           "; TMA needs at least 1");
    return value;
  };

  TensorMapEncoding e;
  size_t rank = map.block.size();
  size_t bytes = scalarByteSize(map.element);
  e.dataType = dataTypeOf(map.element);
  e.rank = static_cast<cuuint32_t>(rank);
  e.globalAddress = args.at(argIndex(md, map.base)).bits;
  if (e.globalAddress % 16 != 0)
    fail("the address " + std::to_string(e.globalAddress) +
         " is not a multiple of 16 bytes, which TMA requires");
  for (size_t d = 0; d < rank; ++d) {
    size_t inner = rank - 1 - d; // the language's dimension
    int64_t dim = valueOf(map.shape[inner], "shape dimension", inner);
    if (uint64_t(dim) > (uint64_t(1) << 32))
      fail("shape dimension " + std::to_string(inner) + " is " +
           std::to_string(dim) + "; TMA allows at most 2^32");
    e.globalDim[d] = static_cast<cuuint64_t>(dim);
    e.boxDim[d] = static_cast<cuuint32_t>(map.block[inner]);
    e.elementStrides[d] = 1;
    if (d == 0)
      continue;
    int64_t stride = valueOf(map.strides[inner], "stride", inner);
    uint64_t strideBytes = uint64_t(stride) * bytes;
    if (strideBytes % 16 != 0 || strideBytes >= (uint64_t(1) << 40))
      fail("stride " + std::to_string(inner) +
           (map.strides[inner].isArg() ? " ('" + map.strides[inner].arg + "')"
                                       : std::string()) +
           " is " + std::to_string(stride) + " elements = " +
           std::to_string(strideBytes) +
           " bytes; TMA needs a multiple of 16 bytes below 2^40");
    e.globalStrides[d - 1] = static_cast<cuuint64_t>(strideBytes);
  }
  e.interleave = CU_TENSOR_MAP_INTERLEAVE_NONE;
  e.swizzle = swizzleOf(map.swizzleBytes);
  e.l2Promotion = CU_TENSOR_MAP_L2_PROMOTION_L2_128B;
  e.oobFill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;
  return e;
}
