//===- MemoryHandlers.cpp - addptr, load, store and atomics ---------------===//
//
// Pointers are host addresses. Every unmasked lane's access is checked
// against the registered buffers (checkAccess: the instruction's cached
// buffer first) before memory is touched; masked-off lanes never touch
// memory. Atomics apply lane by lane in index order, which with the
// sequential grid makes their outcome deterministic.
//
//===----------------------------------------------------------------------===//
#include "compiler/interpreter/ElementTraits.h"
#include "compiler/interpreter/Handlers.h"

#include <cstring>

using namespace tk::interp;

namespace {

template <typename OffsetTag>
bool addPtr(const Instruction &in, Machine &m) {
  using E = typename OffsetTag::Traits;
  using Offset = typename E::Stored;
  const uint64_t *p = m.at<uint64_t>(in.operands[0]);
  const Offset *offset = m.at<Offset>(in.operands[1]);
  uint64_t *__restrict r = m.at<uint64_t>(in.result);
  int64_t elementBytes = in.imm;
  for (uint32_t i = 0, e = in.count; i < e; ++i) {
    int64_t elements;
    if constexpr (E::bits == 1)
      elements = E::toU(offset[i]);
    else
      elements = E::toS(offset[i]);
    r[i] = p[i] + static_cast<uint64_t>(elements * elementBytes);
  }
  return true;
}

template <unsigned Bytes, bool Masked, bool HasOther>
bool load(const Instruction &in, Machine &m) {
  using T = typename BitsOfSize<Bytes>::Type;
  const uint64_t *pointers = m.at<uint64_t>(in.operands[0]);
  const uint8_t *mask = Masked ? m.at<uint8_t>(in.operands[1]) : nullptr;
  const T *other = HasOther ? m.at<T>(in.operands[2]) : nullptr;
  T *__restrict r = m.at<T>(in.result);
  for (uint32_t i = 0, e = in.count; i < e; ++i) {
    if (Masked && !mask[i]) {
      r[i] = HasOther ? other[i] : T(0);
      continue;
    }
    uint64_t address = pointers[i];
    if (!checkAccess(in, m, i, address, Bytes, "load", "reads"))
      return false;
    std::memcpy(&r[i], reinterpret_cast<const void *>(address), Bytes);
  }
  return true;
}

template <unsigned Bytes, bool Masked>
bool store(const Instruction &in, Machine &m) {
  using T = typename BitsOfSize<Bytes>::Type;
  const uint64_t *pointers = m.at<uint64_t>(in.operands[0]);
  const T *values = m.at<T>(in.operands[1]);
  const uint8_t *mask = Masked ? m.at<uint8_t>(in.operands[2]) : nullptr;
  for (uint32_t i = 0, e = in.count; i < e; ++i) {
    if (Masked && !mask[i])
      continue;
    uint64_t address = pointers[i];
    if (!checkAccess(in, m, i, address, Bytes, "store", "writes"))
      return false;
    std::memcpy(reinterpret_cast<void *>(address), &values[i], Bytes);
  }
  return true;
}

/// The new memory value of an atomic read-modify-write.
template <typename E, AtomicOp Op>
typename E::Stored combine(typename E::Stored old, typename E::Stored value) {
  if constexpr (Op == AtomicOp::Xchg) {
    return value;
  } else if constexpr (E::isFloat) {
    auto a = E::load(old), b = E::load(value);
    if constexpr (Op == AtomicOp::Add)
      return E::store(a + b);
    else if constexpr (Op == AtomicOp::Max)
      return b > a ? value : old; // a NaN operand never replaces
    else
      return b < a ? value : old;
  } else {
    using W = typename E::Wide;
    auto a = E::toU(old), b = E::toU(value);
    auto sa = E::toS(old), sb = E::toS(value);
    switch (Op) {
    case AtomicOp::Add: return E::fromU(W(a) + W(b));
    case AtomicOp::Max: return sb > sa ? value : old;
    case AtomicOp::Min: return sb < sa ? value : old;
    case AtomicOp::UMax: return b > a ? value : old;
    case AtomicOp::UMin: return b < a ? value : old;
    case AtomicOp::And: return E::fromU(a & b);
    case AtomicOp::Or: return E::fromU(a | b);
    case AtomicOp::Xor: return E::fromU(a ^ b);
    case AtomicOp::Xchg: return value;
    }
    return old;
  }
}

template <typename Tag, AtomicOp Op, bool Masked>
bool atomicRMW(const Instruction &in, Machine &m) {
  using E = typename Tag::Traits;
  using T = typename E::Stored;
  const uint64_t *pointers = m.at<uint64_t>(in.operands[0]);
  const T *values = m.at<T>(in.operands[1]);
  const uint8_t *mask = Masked ? m.at<uint8_t>(in.operands[2]) : nullptr;
  T *__restrict r = m.at<T>(in.result);
  for (uint32_t i = 0, e = in.count; i < e; ++i) {
    if (Masked && !mask[i]) {
      r[i] = T(0);
      continue;
    }
    uint64_t address = pointers[i];
    if (!checkAccess(in, m, i, address, sizeof(T), "atomic_rmw", "updates"))
      return false;
    void *memory = reinterpret_cast<void *>(address);
    T old;
    std::memcpy(&old, memory, sizeof(T));
    T updated = combine<E, Op>(old, values[i]);
    std::memcpy(memory, &updated, sizeof(T));
    r[i] = old;
  }
  return true;
}

template <unsigned Bytes> bool atomicCAS(const Instruction &in, Machine &m) {
  using T = typename BitsOfSize<Bytes>::Type;
  const uint64_t *pointers = m.at<uint64_t>(in.operands[0]);
  const T *expected = m.at<T>(in.operands[1]);
  const T *values = m.at<T>(in.operands[2]);
  T *__restrict r = m.at<T>(in.result);
  for (uint32_t i = 0, e = in.count; i < e; ++i) {
    uint64_t address = pointers[i];
    if (!checkAccess(in, m, i, address, Bytes, "atomic_cas", "updates"))
      return false;
    void *memory = reinterpret_cast<void *>(address);
    T old;
    std::memcpy(&old, memory, Bytes);
    if (old == expected[i]) // bitwise, as the hardware compares
      std::memcpy(memory, &values[i], Bytes);
    r[i] = old;
  }
  return true;
}

template <AtomicOp Op> Handler atomicFor(ElementKind kind, bool masked) {
  auto make = [masked](auto tag) -> Handler {
    using Tag = decltype(tag);
    return masked ? &atomicRMW<Tag, Op, true> : &atomicRMW<Tag, Op, false>;
  };
  constexpr bool floatAllowed = Op == AtomicOp::Add || Op == AtomicOp::Max ||
                                Op == AtomicOp::Min || Op == AtomicOp::Xchg;
  if (isIntegerKind(kind))
    return dispatchInt(kind, make);
  if constexpr (floatAllowed)
    return dispatchFloat(kind, make);
  return nullptr;
}

} // namespace

Handler tk::interp::selectAddPtr(ElementKind offsetKind) {
  return dispatchInt(offsetKind, [](auto tag) -> Handler {
    return &addPtr<decltype(tag)>;
  });
}

Handler tk::interp::selectLoad(unsigned elementBytes, bool masked,
                               bool hasOther) {
  return dispatchBytes(elementBytes, [&](auto bytes) -> Handler {
    constexpr unsigned B = decltype(bytes)::value;
    if (!masked)
      return &load<B, false, false>;
    return hasOther ? &load<B, true, true> : &load<B, true, false>;
  });
}

Handler tk::interp::selectStore(unsigned elementBytes, bool masked) {
  return dispatchBytes(elementBytes, [&](auto bytes) -> Handler {
    constexpr unsigned B = decltype(bytes)::value;
    return masked ? &store<B, true> : &store<B, false>;
  });
}

Handler tk::interp::selectAtomicRMW(AtomicOp op, ElementKind kind,
                                    bool masked) {
  switch (op) {
  case AtomicOp::Add: return atomicFor<AtomicOp::Add>(kind, masked);
  case AtomicOp::Max: return atomicFor<AtomicOp::Max>(kind, masked);
  case AtomicOp::Min: return atomicFor<AtomicOp::Min>(kind, masked);
  case AtomicOp::UMax: return atomicFor<AtomicOp::UMax>(kind, masked);
  case AtomicOp::UMin: return atomicFor<AtomicOp::UMin>(kind, masked);
  case AtomicOp::Xchg: return atomicFor<AtomicOp::Xchg>(kind, masked);
  case AtomicOp::And: return atomicFor<AtomicOp::And>(kind, masked);
  case AtomicOp::Or: return atomicFor<AtomicOp::Or>(kind, masked);
  case AtomicOp::Xor: return atomicFor<AtomicOp::Xor>(kind, masked);
  }
  return nullptr;
}

Handler tk::interp::selectAtomicCAS(unsigned elementBytes) {
  return dispatchBytes(elementBytes, [](auto bytes) -> Handler {
    return &atomicCAS<decltype(bytes)::value>;
  });
}
