//===- DotHandler.cpp - tk.dot on the CPU ---------------------------------===//
//
// d = a @ b + c with an i-k-j loop: the innermost loop runs along a row of b
// and of the accumulator, contiguous in both, so it vectorizes. Products
// accumulate in the accumulator's compute type: f32 (also for an f16
// accumulator, rounded once at the end), f64, or i32 (wrapping) for i8.
// f16/bf16/i8 operands are widened once into scratch slots first; f32
// operands are used in full precision (the GPU's default is tf32: see
// docs/interpreter.md for the tolerance this implies).
//
//===----------------------------------------------------------------------===//
#include "compiler/interpreter/ElementTraits.h"
#include "compiler/interpreter/Handlers.h"

#include <cstring>

using namespace tk::interp;

namespace {

template <ElementKind K> struct DotCompute {
  using Type = float;
};
template <> struct DotCompute<ElementKind::F64> {
  using Type = double;
};
template <> struct DotCompute<ElementKind::I8> {
  using Type = int32_t;
};
template <> struct DotCompute<ElementKind::I32> {
  using Type = uint32_t; // i32 accumulation wraps
};

/// The operand as an array of the compute type: itself when stored so,
/// otherwise widened into `scratch`.
template <ElementKind K, typename C>
const C *widen(Machine &m, uint32_t slot, uint32_t scratch, int64_t count) {
  using Stored = typename Element<K>::Stored;
  const Stored *source = m.at<Stored>(slot);
  if constexpr (std::is_same_v<Stored, C>) {
    return source;
  } else {
    C *out = m.at<C>(scratch);
    for (int64_t i = 0; i < count; ++i) {
      if constexpr (Element<K>::isFloat)
        out[i] = static_cast<C>(Element<K>::load(source[i]));
      else
        out[i] = static_cast<C>(source[i]);
    }
    return out;
  }
}

template <ElementKind In, ElementKind Acc>
bool dot(const Instruction &in, Machine &m) {
  using C = typename DotCompute<Acc>::Type;
  using AccStored = typename Element<Acc>::Stored;
  const auto &info = *static_cast<const DotInfo *>(in.aux);
  const int64_t M = info.m, N = info.n, K = info.k;
  const C *a = widen<In, C>(m, in.operands[0], info.scratchA, M * K);
  const C *b = widen<In, C>(m, in.operands[1], info.scratchB, K * N);

  const AccStored *c = m.at<AccStored>(in.operands[2]);
  AccStored *result = m.at<AccStored>(in.result);
  C *acc;
  if constexpr (std::is_same_v<AccStored, C>) {
    acc = result;
    std::memcpy(acc, c, M * N * sizeof(C));
  } else if constexpr (Element<Acc>::isFloat) {
    acc = m.at<C>(info.scratchC);
    for (int64_t i = 0; i < M * N; ++i)
      acc[i] = Element<Acc>::load(c[i]);
  } else {
    acc = m.at<C>(info.scratchC);
    for (int64_t i = 0; i < M * N; ++i)
      acc[i] = static_cast<C>(c[i]);
  }

  for (int64_t i = 0; i < M; ++i) {
    C *__restrict row = acc + i * N;
    for (int64_t k = 0; k < K; ++k) {
      const C av = a[i * K + k];
      const C *__restrict brow = b + k * N;
      for (int64_t j = 0; j < N; ++j)
        row[j] += av * brow[j];
    }
  }

  if constexpr (!std::is_same_v<AccStored, C>) {
    for (int64_t i = 0; i < M * N; ++i) {
      if constexpr (Element<Acc>::isFloat)
        result[i] = Element<Acc>::store(acc[i]);
      else
        result[i] = static_cast<AccStored>(acc[i]);
    }
  }
  return true;
}

} // namespace

Handler tk::interp::selectDot(ElementKind input, ElementKind accumulator) {
  using K = ElementKind;
  if (input == K::F16 && accumulator == K::F32) return &dot<K::F16, K::F32>;
  if (input == K::F16 && accumulator == K::F16) return &dot<K::F16, K::F16>;
  if (input == K::BF16 && accumulator == K::F32) return &dot<K::BF16, K::F32>;
  if (input == K::F32 && accumulator == K::F32) return &dot<K::F32, K::F32>;
  if (input == K::F64 && accumulator == K::F64) return &dot<K::F64, K::F64>;
  if (input == K::I8 && accumulator == K::I32) return &dot<K::I8, K::I32>;
  return nullptr;
}
