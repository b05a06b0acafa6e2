//===- ShapeHandlers.cpp - Moving elements: splat, broadcast, trans -------===//
#include "compiler/interpreter/ElementTraits.h"
#include "compiler/interpreter/Handlers.h"

#include <algorithm>
#include <cstring>

using namespace tk::interp;

namespace {

template <unsigned Bytes> bool splat(const Instruction &in, Machine &m) {
  using T = typename BitsOfSize<Bytes>::Type;
  T value = *m.at<T>(in.operands[0]);
  T *r = m.at<T>(in.result);
  std::fill(r, r + in.count, value);
  return true;
}

/// Walks the result in row-major order; the innermost dimension is a fill
/// (stride 0), a block copy (stride 1) or a strided gather, and an odometer
/// advances the source position over the outer dimensions.
template <unsigned Bytes> bool stridedCopy(const Instruction &in, Machine &m) {
  using T = typename BitsOfSize<Bytes>::Type;
  const auto &info = *static_cast<const StridedCopyInfo *>(in.aux);
  const T *source = m.at<T>(in.operands[0]);
  T *__restrict r = m.at<T>(in.result);
  const int64_t *dims = info.resultDims.data();
  const int64_t *strides = info.sourceStrides.data();
  int rank = static_cast<int>(info.resultDims.size());
  int64_t inner = dims[rank - 1], innerStride = strides[rank - 1];
  int64_t index[8] = {0};
  int64_t position = 0;
  for (int64_t done = 0; done < in.count; done += inner) {
    const T *s = source + position;
    if (innerStride == 0)
      std::fill(r, r + inner, s[0]);
    else if (innerStride == 1)
      std::memcpy(r, s, inner * sizeof(T));
    else
      for (int64_t j = 0; j < inner; ++j)
        r[j] = s[j * innerStride];
    r += inner;
    for (int d = rank - 2; d >= 0; --d) {
      position += strides[d];
      if (++index[d] < dims[d])
        break;
      position -= strides[d] * dims[d];
      index[d] = 0;
    }
  }
  return true;
}

bool copy(const Instruction &in, Machine &m) {
  std::memmove(m.at<char>(in.result), m.at<char>(in.operands[0]),
               static_cast<size_t>(in.imm));
  return true;
}

bool constant(const Instruction &in, Machine &m) {
  const auto &data = static_cast<const ConstantBytes *>(in.aux)->bytes;
  std::memcpy(m.at<char>(in.result), data.data(), data.size());
  return true;
}

bool iota(const Instruction &in, Machine &m) {
  int32_t *r = m.at<int32_t>(in.result);
  for (uint32_t i = 0; i < in.count; ++i)
    r[i] = static_cast<int32_t>(in.imm + i);
  return true;
}

} // namespace

Handler tk::interp::selectSplat(unsigned elementBytes) {
  return dispatchBytes(elementBytes, [](auto bytes) -> Handler {
    return &splat<decltype(bytes)::value>;
  });
}

Handler tk::interp::selectStridedCopy(unsigned elementBytes) {
  return dispatchBytes(elementBytes, [](auto bytes) -> Handler {
    return &stridedCopy<decltype(bytes)::value>;
  });
}

Handler tk::interp::copyHandler() { return &copy; }
Handler tk::interp::constantHandler() { return &constant; }
Handler tk::interp::iotaHandler() { return &iota; }
