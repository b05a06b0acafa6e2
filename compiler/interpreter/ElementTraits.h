//===- ElementTraits.h - Compile-time view of element kinds ------*- C++ -*-===//
//
// Internal to the interpreter's handler files. Element<K> says how a kind is
// stored and computed: floats load into a compute type (float for f16, bf16
// and f32; double for f64) and round when stored; integers are handled as
// their unsigned type (wrapping arithmetic) or signed type (signed
// comparisons, division), i1 being the one-bit case.
//
// dispatch*() turn a run-time ElementKind into a compile-time tag so that
// handler selection instantiates one tight loop per kind.
//
//===----------------------------------------------------------------------===//

#ifndef TK_COMPILER_INTERPRETER_ELEMENTTRAITS_H
#define TK_COMPILER_INTERPRETER_ELEMENTTRAITS_H

#include "compiler/interpreter/ElementKind.h"
#include "compiler/interpreter/Float16.h"
#include "compiler/interpreter/Float8.h"
#include "compiler/interpreter/Program.h"

#include <cstdint>
#include <limits>
#include <type_traits>

namespace tk::interp {

template <ElementKind K> struct Element;

template <typename StoredT, typename SignedT, unsigned Bits> struct IntElement {
  static constexpr bool isFloat = false;
  static constexpr unsigned bits = Bits;
  using Stored = StoredT;
  using U = std::make_unsigned_t<SignedT>;
  using S = SignedT;
  /// Unsigned arithmetic in at least 32 bits: uint8_t/uint16_t operands
  /// would otherwise be promoted to (signed) int and could overflow.
  using Wide = std::conditional_t<(sizeof(U) < 4), uint32_t, U>;
  static constexpr U mask = Bits == 1 ? U(1) : U(~U(0));
  static constexpr S minS = Bits == 1 ? S(-1) : std::numeric_limits<S>::min();
  static constexpr S maxS = Bits == 1 ? S(0) : std::numeric_limits<S>::max();

  static U toU(Stored v) { return U(v) & mask; }
  static S toS(Stored v) {
    if constexpr (Bits == 1)
      return (v & 1) ? S(-1) : S(0);
    else
      return S(v);
  }
  static Stored fromU(Wide v) { return Stored(U(v) & mask); }
  static Stored fromS(int64_t v) { return fromU(Wide(U(v))); }
};

template <>
struct Element<ElementKind::I1> : IntElement<uint8_t, int8_t, 1> {};
template <>
struct Element<ElementKind::I8> : IntElement<int8_t, int8_t, 8> {};
template <>
struct Element<ElementKind::I16> : IntElement<int16_t, int16_t, 16> {};
template <>
struct Element<ElementKind::I32> : IntElement<int32_t, int32_t, 32> {};
template <>
struct Element<ElementKind::I64> : IntElement<int64_t, int64_t, 64> {};

template <> struct Element<ElementKind::F16> {
  static constexpr bool isFloat = true;
  using Stored = uint16_t;
  using Compute = float;
  static float load(uint16_t v) { return halfBitsToFloat(v); }
  static uint16_t store(float v) { return floatToHalfBits(v); }
  static uint16_t storeDouble(double v) { return doubleToHalfBits(v); }
};
template <> struct Element<ElementKind::BF16> {
  static constexpr bool isFloat = true;
  using Stored = uint16_t;
  using Compute = float;
  static float load(uint16_t v) { return bf16BitsToFloat(v); }
  static uint16_t store(float v) { return floatToBf16Bits(v); }
  static uint16_t storeDouble(double v) { return doubleToBf16Bits(v); }
};
/// Both fp8 formats: bits in a byte, computed in f32.
template <const Fp8Format &Format> struct Fp8Element {
  static constexpr bool isFloat = true;
  using Stored = uint8_t;
  using Compute = float;
  static float load(uint8_t v) { return fp8BitsToFloat(v, Format); }
  static uint8_t store(float v) { return doubleToFp8Bits(v, Format); }
  static uint8_t storeDouble(double v) { return doubleToFp8Bits(v, Format); }
};
template <>
struct Element<ElementKind::F8E4M3> : Fp8Element<kFp8E4M3> {};
template <>
struct Element<ElementKind::F8E5M2> : Fp8Element<kFp8E5M2> {};
template <> struct Element<ElementKind::F32> {
  static constexpr bool isFloat = true;
  using Stored = float;
  using Compute = float;
  static float load(float v) { return v; }
  static float store(float v) { return v; }
  static float storeDouble(double v) { return static_cast<float>(v); }
};
template <> struct Element<ElementKind::F64> {
  static constexpr bool isFloat = true;
  using Stored = double;
  using Compute = double;
  static double load(double v) { return v; }
  static double store(double v) { return v; }
  static double storeDouble(double v) { return v; }
};
template <> struct Element<ElementKind::Ptr> {
  static constexpr bool isFloat = false;
  using Stored = uint64_t;
};

template <ElementKind K> struct KindTag {
  static constexpr ElementKind kind = K;
  using Traits = Element<K>;
};

/// Calls f(KindTag<K>{}) for an integer kind; Handler() otherwise.
template <typename F> Handler dispatchInt(ElementKind kind, F &&f) {
  switch (kind) {
  case ElementKind::I1:
    return f(KindTag<ElementKind::I1>{});
  case ElementKind::I8:
    return f(KindTag<ElementKind::I8>{});
  case ElementKind::I16:
    return f(KindTag<ElementKind::I16>{});
  case ElementKind::I32:
    return f(KindTag<ElementKind::I32>{});
  case ElementKind::I64:
    return f(KindTag<ElementKind::I64>{});
  default:
    return nullptr;
  }
}

/// Calls f(KindTag<K>{}) for a float kind; Handler() otherwise.
template <typename F> Handler dispatchFloat(ElementKind kind, F &&f) {
  switch (kind) {
  case ElementKind::F16:
    return f(KindTag<ElementKind::F16>{});
  case ElementKind::BF16:
    return f(KindTag<ElementKind::BF16>{});
  case ElementKind::F32:
    return f(KindTag<ElementKind::F32>{});
  case ElementKind::F64:
    return f(KindTag<ElementKind::F64>{});
  default:
    return nullptr;
  }
}

/// dispatchFloat, and the fp8 kinds too (for the casts, the only handlers
/// that take fp8).
template <typename F> Handler dispatchFloatOrFp8(ElementKind kind, F &&f) {
  switch (kind) {
  case ElementKind::F8E4M3:
    return f(KindTag<ElementKind::F8E4M3>{});
  case ElementKind::F8E5M2:
    return f(KindTag<ElementKind::F8E5M2>{});
  default:
    return dispatchFloat(kind, std::forward<F>(f));
  }
}

/// Storage of `bytes` bytes as an unsigned integer type, for handlers that
/// only move data (copies, selects, loads, stores).
template <unsigned Bytes> struct BitsOfSize;
template <> struct BitsOfSize<1> { using Type = uint8_t; };
template <> struct BitsOfSize<2> { using Type = uint16_t; };
template <> struct BitsOfSize<4> { using Type = uint32_t; };
template <> struct BitsOfSize<8> { using Type = uint64_t; };

/// Calls f(std::integral_constant<unsigned, Bytes>{}) for 1, 2, 4 or 8.
template <typename F> Handler dispatchBytes(unsigned bytes, F &&f) {
  switch (bytes) {
  case 1:
    return f(std::integral_constant<unsigned, 1>{});
  case 2:
    return f(std::integral_constant<unsigned, 2>{});
  case 4:
    return f(std::integral_constant<unsigned, 4>{});
  case 8:
    return f(std::integral_constant<unsigned, 8>{});
  default:
    return nullptr;
  }
}

} // namespace tk::interp

#endif // TK_COMPILER_INTERPRETER_ELEMENTTRAITS_H
