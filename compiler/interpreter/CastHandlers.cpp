//===- CastHandlers.cpp - Conversions between element kinds ---------------===//
//
// Every conversion rounds once, to nearest even, as the GPU's cvt.rn does:
// integers to f16/bf16 are rounded in integer arithmetic (no detour through
// float), f64 to f16/bf16 through round-to-odd. Float to integer truncates
// toward zero and saturates, NaN giving 0 (PTX cvt.rzi semantics; LLVM
// leaves these cases undefined). f32 to fp8 rounds and saturates as
// cvt.rn.satfinite (Float8.h).
//
//===----------------------------------------------------------------------===//
#include "compiler/interpreter/ElementTraits.h"
#include "compiler/interpreter/Handlers.h"

#include <cmath>

using namespace tk::interp;

namespace {

/// `magnitude` rounded to `precision` significant bits, to nearest even; the
/// result is exactly representable as a double.
double roundToPrecision(uint64_t magnitude, int precision) {
  int width = 64 - __builtin_clzll(magnitude | 1);
  if (width <= precision)
    return static_cast<double>(magnitude);
  int shift = width - precision;
  uint64_t kept = magnitude >> shift;
  uint64_t rest = magnitude & ((uint64_t(1) << shift) - 1);
  uint64_t half = uint64_t(1) << (shift - 1);
  if (rest > half || (rest == half && (kept & 1)))
    ++kept;
  return std::ldexp(static_cast<double>(kept), shift);
}

/// An integer value (as sign and magnitude) in float kind E.
template <typename E>
typename E::Stored integerToFloat(bool negative, uint64_t magnitude) {
  using Stored = typename E::Stored;
  if constexpr (std::is_same_v<Stored, float> ||
                std::is_same_v<Stored, double>) {
    // The hardware conversion rounds once.
    Stored v = static_cast<Stored>(magnitude);
    return negative ? -v : v;
  } else {
    // f16 has 11 significant bits, bf16 8; the rounded value is exact in
    // double and converts exactly (or overflows to inf).
    int precision = std::is_same_v<E, Element<ElementKind::F16>> ? 11 : 8;
    double v = roundToPrecision(magnitude, precision);
    return E::storeDouble(negative ? -v : v);
  }
}

template <typename From, typename To, CastOp Op>
typename To::Traits::Stored convert(typename From::Traits::Stored x) {
  using F = typename From::Traits;
  using T = typename To::Traits;
  if constexpr (Op == CastOp::ExtSI) {
    return T::fromS(int64_t(F::toS(x)));
  } else if constexpr (Op == CastOp::ExtUI || Op == CastOp::TruncI) {
    return T::fromU(typename T::Wide(uint64_t(F::toU(x))));
  } else if constexpr (Op == CastOp::SIToFP) {
    int64_t v = F::toS(x);
    // Negate in unsigned arithmetic: INT64_MIN has no positive int64.
    return integerToFloat<T>(v < 0, v < 0 ? uint64_t(0) - uint64_t(v)
                                          : uint64_t(v));
  } else if constexpr (Op == CastOp::UIToFP) {
    return integerToFloat<T>(false, uint64_t(F::toU(x)));
  } else if constexpr (Op == CastOp::FPToSI) {
    double v = F::load(x);
    if (std::isnan(v))
      return T::fromS(0);
    if (v <= double(T::minS))
      return T::fromS(T::minS);
    if (v >= double(T::maxS))
      return T::fromS(T::maxS);
    return T::fromS(static_cast<int64_t>(v));
  } else if constexpr (Op == CastOp::FPToUI) {
    double v = F::load(x);
    if (std::isnan(v) || v <= 0)
      return T::fromU(0);
    if (v >= std::ldexp(1.0, T::bits))
      return T::fromU(T::mask);
    return T::fromU(typename T::Wide(static_cast<uint64_t>(v)));
  } else {
    // ExtF, TruncF.
    auto v = F::load(x);
    if constexpr (std::is_same_v<decltype(v), float>)
      return T::store(static_cast<typename T::Compute>(v));
    else
      return T::storeDouble(v);
  }
}

template <typename From, typename To, CastOp Op>
bool cast(const Instruction &in, Machine &m) {
  using FromStored = typename From::Traits::Stored;
  using ToStored = typename To::Traits::Stored;
  const FromStored *a = m.at<FromStored>(in.operands[0]);
  ToStored *__restrict r = m.at<ToStored>(in.result);
  for (uint32_t i = 0, e = in.count; i < e; ++i)
    r[i] = convert<From, To, Op>(a[i]);
  return true;
}

template <CastOp Op> Handler castFor(ElementKind from, ElementKind to) {
  constexpr bool fromInt = Op == CastOp::ExtSI || Op == CastOp::ExtUI ||
                           Op == CastOp::TruncI || Op == CastOp::SIToFP ||
                           Op == CastOp::UIToFP;
  constexpr bool toInt = Op == CastOp::ExtSI || Op == CastOp::ExtUI ||
                         Op == CastOp::TruncI || Op == CastOp::FPToSI ||
                         Op == CastOp::FPToUI;
  auto withTarget = [&](auto source) -> Handler {
    using Source = decltype(source);
    auto make = [](auto target) -> Handler {
      return &cast<Source, decltype(target), Op>;
    };
    if constexpr (toInt)
      return dispatchInt(to, make);
    else if constexpr (Op == CastOp::TruncF)
      return dispatchFloatOrFp8(to, make);
    else
      return dispatchFloat(to, make);
  };
  if constexpr (fromInt)
    return dispatchInt(from, withTarget);
  else if constexpr (Op == CastOp::ExtF)
    return dispatchFloatOrFp8(from, withTarget);
  else
    return dispatchFloat(from, withTarget);
}

} // namespace

Handler tk::interp::selectCast(CastOp op, ElementKind from, ElementKind to) {
  switch (op) {
  case CastOp::ExtSI: return castFor<CastOp::ExtSI>(from, to);
  case CastOp::ExtUI: return castFor<CastOp::ExtUI>(from, to);
  case CastOp::TruncI: return castFor<CastOp::TruncI>(from, to);
  case CastOp::SIToFP: return castFor<CastOp::SIToFP>(from, to);
  case CastOp::UIToFP: return castFor<CastOp::UIToFP>(from, to);
  case CastOp::FPToSI: return castFor<CastOp::FPToSI>(from, to);
  case CastOp::FPToUI: return castFor<CastOp::FPToUI>(from, to);
  case CastOp::ExtF: return castFor<CastOp::ExtF>(from, to);
  case CastOp::TruncF: return castFor<CastOp::TruncF>(from, to);
  }
  return nullptr;
}
