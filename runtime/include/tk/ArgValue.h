//===- ArgValue.h - One kernel argument, type-tagged ------------*- C++ -*-===//
//
// An ArgValue is a kernel argument as the caller gave it: its type (as far as
// the C++ type tells) and its value. Kernel::launch builds them from C++
// arguments with toArgValue(); tools build them directly (launchPacked).
// After checking (checkArguments) every ArgValue has exactly the declared
// parameter type and is what backends receive.
//
//===----------------------------------------------------------------------===//

#ifndef TK_ARGVALUE_H
#define TK_ARGVALUE_H

#include "tk/Half.h"
#include "tk/ScalarType.h"

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <type_traits>

namespace tk {

/// An address in the backend's memory (a CUdeviceptr for CUDA). Arithmetic
/// is in bytes, like CUdeviceptr's.
struct DevicePtr {
  uint64_t address = 0;

  constexpr DevicePtr() = default;
  constexpr explicit DevicePtr(uint64_t address) : address(address) {}
  constexpr DevicePtr operator+(uint64_t bytes) const {
    return DevicePtr(address + bytes);
  }
  constexpr explicit operator bool() const { return address != 0; }
  constexpr bool operator==(DevicePtr other) const {
    return address == other.address;
  }
  constexpr bool operator!=(DevicePtr other) const {
    return address != other.address;
  }
};

/// The ScalarKind of a C++ type usable as a kernel element type, if any.
template <typename T> struct ScalarKindOf {
  static constexpr bool known = false;
};
#define TK_SCALAR_KIND_OF(CxxType, Kind)                                       \
  template <> struct ScalarKindOf<CxxType> {                                   \
    static constexpr bool known = true;                                        \
    static constexpr ScalarKind kind = ScalarKind::Kind;                       \
  };
TK_SCALAR_KIND_OF(bool, I1)
TK_SCALAR_KIND_OF(int8_t, I8)
TK_SCALAR_KIND_OF(int16_t, I16)
TK_SCALAR_KIND_OF(int32_t, I32)
TK_SCALAR_KIND_OF(int64_t, I64)
TK_SCALAR_KIND_OF(uint8_t, U8)
TK_SCALAR_KIND_OF(uint16_t, U16)
TK_SCALAR_KIND_OF(uint32_t, U32)
TK_SCALAR_KIND_OF(uint64_t, U64)
TK_SCALAR_KIND_OF(half, F16)
TK_SCALAR_KIND_OF(bf16, BF16)
TK_SCALAR_KIND_OF(float, F32)
TK_SCALAR_KIND_OF(double, F64)
#undef TK_SCALAR_KIND_OF

/// A device address that also says what it points to, so that passing it to
/// a `*f16` parameter when it holds floats is caught. Arithmetic is in
/// elements.
template <typename T> struct TypedPtr {
  static_assert(ScalarKindOf<T>::known,
                "tk::TypedPtr<T>: T must be a kernel element type "
                "(bool, intN_t, uintN_t, tk::half, tk::bf16, float, double)");
  DevicePtr ptr;

  constexpr TypedPtr() = default;
  constexpr explicit TypedPtr(DevicePtr ptr) : ptr(ptr) {}
  constexpr TypedPtr operator+(int64_t elements) const {
    return TypedPtr(DevicePtr(ptr.address +
                              static_cast<uint64_t>(elements) * sizeof(T)));
  }
};

struct ArgValue {
  /// The caller's type. For pointers, `scalar` is the pointee only if
  /// `pointeeKnown`.
  ArgType type;
  bool pointeeKnown = true;
  /// Set for a C++ `int` (and the C API's TKRT_ARG_INT): such a value is
  /// accepted for any integer parameter whose type can represent it.
  bool anyInteger = false;
  /// The value in the parameter's representation, in the low bytes (the
  /// platform is little-endian): signed integers sign-extended to 64 bits,
  /// unsigned ones and i1 zero-extended, floats as their IEEE bits
  /// (zero-extended), pointers as the address. A backend passes the first
  /// type.paramByteSize() bytes of `bits` as the parameter.
  uint64_t bits = 0;

  static ArgValue signedInt(ScalarKind kind, int64_t value) {
    ArgValue a;
    a.type = ArgType::value(kind);
    a.bits = static_cast<uint64_t>(value);
    return a;
  }
  static ArgValue unsignedInt(ScalarKind kind, uint64_t value) {
    ArgValue a;
    a.type = ArgType::value(kind);
    a.bits = value;
    return a;
  }
  static ArgValue i1(bool value) { return unsignedInt(ScalarKind::I1, value); }
  static ArgValue i8(int8_t v) { return signedInt(ScalarKind::I8, v); }
  static ArgValue i16(int16_t v) { return signedInt(ScalarKind::I16, v); }
  static ArgValue i32(int32_t v) { return signedInt(ScalarKind::I32, v); }
  static ArgValue i64(int64_t v) { return signedInt(ScalarKind::I64, v); }
  static ArgValue u8(uint8_t v) { return unsignedInt(ScalarKind::U8, v); }
  static ArgValue u16(uint16_t v) { return unsignedInt(ScalarKind::U16, v); }
  static ArgValue u32(uint32_t v) { return unsignedInt(ScalarKind::U32, v); }
  static ArgValue u64(uint64_t v) { return unsignedInt(ScalarKind::U64, v); }
  /// An integer of unspecified type (see anyInteger).
  static ArgValue anyInt(int64_t v) {
    ArgValue a = signedInt(ScalarKind::I64, v);
    a.anyInteger = true;
    return a;
  }
  static ArgValue f16(half v) { return unsignedInt(ScalarKind::F16, v.bits); }
  static ArgValue bf16(tk::bf16 v) {
    return unsignedInt(ScalarKind::BF16, v.bits);
  }
  static ArgValue f32(float v) {
    uint32_t bits;
    std::memcpy(&bits, &v, sizeof(bits));
    return unsignedInt(ScalarKind::F32, bits);
  }
  static ArgValue f64(double v) {
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof(bits));
    return unsignedInt(ScalarKind::F64, bits);
  }
  /// A pointer; `pointee` is std::nullopt when the element type is unknown
  /// (a raw DevicePtr or Buffer): then only pointer-ness, null and
  /// alignment can be checked.
  static ArgValue pointer(DevicePtr ptr,
                          std::optional<ScalarKind> pointee = std::nullopt) {
    ArgValue a;
    a.type = ArgType::pointerTo(pointee.value_or(ScalarKind::I8));
    a.pointeeKnown = pointee.has_value();
    a.bits = ptr.address;
    return a;
  }

  int64_t asSigned() const { return static_cast<int64_t>(bits); }
  uint64_t asUnsigned() const { return bits; }
  float asF32() const {
    uint32_t low = static_cast<uint32_t>(bits);
    float v;
    std::memcpy(&v, &low, sizeof(v));
    return v;
  }
  double asF64() const {
    double v;
    std::memcpy(&v, &bits, sizeof(v));
    return v;
  }
  uint16_t asBits16() const { return static_cast<uint16_t>(bits); }
  DevicePtr asPointer() const { return DevicePtr(bits); }

  /// How messages name what the caller passed: "f32", "*f16", "a pointer"
  /// (unknown pointee), "int" (anyInteger).
  std::string describeType() const;
};

//===----------------------------------------------------------------------===//
// C++ value -> ArgValue, used by Kernel::launch.
//===----------------------------------------------------------------------===//

inline ArgValue toArgValue(DevicePtr p) { return ArgValue::pointer(p); }
template <typename T> ArgValue toArgValue(TypedPtr<T> p) {
  return ArgValue::pointer(p.ptr, ScalarKindOf<T>::kind);
}
inline ArgValue toArgValue(half v) { return ArgValue::f16(v); }
inline ArgValue toArgValue(bf16 v) { return ArgValue::bf16(v); }
inline ArgValue toArgValue(float v) { return ArgValue::f32(v); }
inline ArgValue toArgValue(double v) { return ArgValue::f64(v); }
inline ArgValue toArgValue(bool v) { return ArgValue::i1(v); }

/// Integers: exact width and signedness; a plain `int` is "any integer"
/// (range-checked against the parameter type) because C++ integer literals
/// are `int`.
template <typename T,
          std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>,
                           int> = 0>
ArgValue toArgValue(T v) {
  static_assert(sizeof(T) <= 8, "integer kernel arguments are at most 64-bit");
  if constexpr (std::is_same_v<T, int>) {
    ArgValue a = ArgValue::i32(v);
    a.anyInteger = true;
    return a;
  } else if constexpr (std::is_signed_v<T>) {
    constexpr ScalarKind kind = sizeof(T) == 1   ? ScalarKind::I8
                                : sizeof(T) == 2 ? ScalarKind::I16
                                : sizeof(T) == 4 ? ScalarKind::I32
                                                 : ScalarKind::I64;
    return ArgValue::signedInt(kind, static_cast<int64_t>(v));
  } else {
    constexpr ScalarKind kind = sizeof(T) == 1   ? ScalarKind::U8
                                : sizeof(T) == 2 ? ScalarKind::U16
                                : sizeof(T) == 4 ? ScalarKind::U32
                                                 : ScalarKind::U64;
    return ArgValue::unsignedInt(kind, static_cast<uint64_t>(v));
  }
}

/// Raw device pointers (e.g. from cudaMalloc): `float*` claims f32
/// elements; `void*` leaves the element type unchecked.
template <typename T> ArgValue toArgValue(T *p) {
  using Element = std::remove_cv_t<T>;
  uint64_t address = reinterpret_cast<uintptr_t>(p);
  if constexpr (std::is_void_v<Element>) {
    return ArgValue::pointer(DevicePtr(address));
  } else {
    static_assert(ScalarKindOf<Element>::known,
                  "a raw pointer kernel argument must point to a kernel "
                  "element type (or be void*)");
    return ArgValue::pointer(DevicePtr(address), ScalarKindOf<Element>::kind);
  }
}

inline ArgValue toArgValue(const ArgValue &v) { return v; }

} // namespace tk

#endif // TK_ARGVALUE_H
