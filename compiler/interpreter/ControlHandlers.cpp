//===- ControlHandlers.cpp - Program ids, jumps, loops, print, assert -----===//
#include "compiler/interpreter/ElementTraits.h"
#include "compiler/interpreter/Handlers.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <charconv>
#include <limits>

using namespace tk::interp;

namespace {

bool programId(const Instruction &in, Machine &m) {
  *m.at<int32_t>(in.result) = static_cast<int32_t>(m.programId[in.imm]);
  return true;
}

bool numPrograms(const Instruction &in, Machine &m) {
  *m.at<int32_t>(in.result) = static_cast<int32_t>(m.gridSize[in.imm]);
  return true;
}

bool jump(const Instruction &in, Machine &m) {
  m.pc = static_cast<size_t>(in.imm);
  return true;
}

bool branchIfFalse(const Instruction &in, Machine &m) {
  if (!*m.at<uint8_t>(in.operands[0]))
    m.pc = static_cast<size_t>(in.imm);
  return true;
}

bool halt(const Instruction &, Machine &m) {
  m.pc = m.program->body.size();
  return true;
}

/// The loop bounds as 64-bit values, compared signed or unsigned.
template <typename E, bool Unsigned>
auto widenBound(typename E::Stored v) {
  if constexpr (Unsigned)
    return static_cast<uint64_t>(E::toU(v));
  else
    return static_cast<int64_t>(E::toS(v));
}

template <typename Tag, bool Unsigned>
bool forEnter(const Instruction &in, Machine &m) {
  using E = typename Tag::Traits;
  using Stored = typename E::Stored;
  Stored lb = *m.at<Stored>(in.operands[0]);
  Stored ub = *m.at<Stored>(in.operands[1]);
  Stored step = *m.at<Stored>(in.operands[2]);
  auto stepValue = widenBound<E, Unsigned>(step);
  if (stepValue <= 0)
    return m.fail(in, "scf.for step must be positive, got " +
                          std::to_string(stepValue));
  *m.at<Stored>(in.result) = lb;
  if (!(widenBound<E, Unsigned>(lb) < widenBound<E, Unsigned>(ub)))
    m.pc = static_cast<size_t>(in.imm);
  return true;
}

template <typename Tag, bool Unsigned>
bool forNext(const Instruction &in, Machine &m) {
  using E = typename Tag::Traits;
  using Stored = typename E::Stored;
  Stored *iv = m.at<Stored>(in.result);
  auto current = widenBound<E, Unsigned>(*iv);
  auto ub = widenBound<E, Unsigned>(*m.at<Stored>(in.operands[1]));
  auto step = widenBound<E, Unsigned>(*m.at<Stored>(in.operands[2]));
  decltype(current) next;
  // Narrower induction variables cannot overflow 64 bits; a 64-bit one
  // that would has passed any upper bound.
  if (__builtin_add_overflow(current, step, &next) || !(next < ub))
    return true;
  if constexpr (Unsigned)
    *iv = E::fromU(typename E::Wide(next));
  else
    *iv = E::fromS(next);
  m.pc = static_cast<size_t>(in.imm);
  return true;
}

/// One element as device_print shows it.
void printElement(llvm::raw_ostream &os, ElementKind kind, const char *p,
                  bool hex) {
  auto printFloat = [&](auto value, uint64_t bits, unsigned width) {
    if (hex) {
      os << llvm::format_hex(bits, 2 + width / 4);
      return;
    }
    char buffer[64];
    auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
    os << llvm::StringRef(buffer, result.ptr - buffer);
  };
  auto printInt = [&](int64_t value, uint64_t bits, unsigned width) {
    if (hex)
      os << llvm::format_hex(bits, 2 + (width + 3) / 4);
    else
      os << value;
  };
  switch (kind) {
  case ElementKind::I1:
    printInt(*reinterpret_cast<const uint8_t *>(p) & 1,
             *reinterpret_cast<const uint8_t *>(p) & 1, 4);
    return;
  case ElementKind::I8: {
    int8_t v = *reinterpret_cast<const int8_t *>(p);
    printInt(v, uint8_t(v), 8);
    return;
  }
  case ElementKind::I16: {
    int16_t v = *reinterpret_cast<const int16_t *>(p);
    printInt(v, uint16_t(v), 16);
    return;
  }
  case ElementKind::I32: {
    int32_t v = *reinterpret_cast<const int32_t *>(p);
    printInt(v, uint32_t(v), 32);
    return;
  }
  case ElementKind::I64: {
    int64_t v = *reinterpret_cast<const int64_t *>(p);
    printInt(v, uint64_t(v), 64);
    return;
  }
  case ElementKind::F16: {
    uint16_t bits = *reinterpret_cast<const uint16_t *>(p);
    printFloat(halfBitsToFloat(bits), bits, 16);
    return;
  }
  case ElementKind::BF16: {
    uint16_t bits = *reinterpret_cast<const uint16_t *>(p);
    printFloat(bf16BitsToFloat(bits), bits, 16);
    return;
  }
  case ElementKind::F32: {
    float v = *reinterpret_cast<const float *>(p);
    printFloat(v, bitCast<uint32_t>(v), 32);
    return;
  }
  case ElementKind::F8E4M3:
  case ElementKind::F8E5M2: {
    uint8_t bits = *reinterpret_cast<const uint8_t *>(p);
    printFloat(fp8BitsToFloat(bits, kind == ElementKind::F8E4M3 ? kFp8E4M3
                                                                : kFp8E5M2),
               bits, 8);
    return;
  }
  case ElementKind::F64: {
    double v = *reinterpret_cast<const double *>(p);
    printFloat(v, bitCast<uint64_t>(v), 64);
    return;
  }
  case ElementKind::Ptr:
    os << llvm::format_hex(*reinterpret_cast<const uint64_t *>(p), 2);
    return;
  }
}

bool print(const Instruction &in, Machine &m) {
  const auto &info = *static_cast<const PrintInfo *>(in.aux);
  llvm::raw_ostream &os = *m.printStream;
  std::string pid = "pid " + m.programIdString();
  if (info.args.empty()) {
    os << pid << info.prefix << "\n";
    return true;
  }
  for (size_t a = 0; a < info.args.size(); ++a) {
    const PrintInfo::Arg &arg = info.args[a];
    unsigned bytes = storageBytes(arg.kind);
    const char *data = m.at<char>(arg.slot);
    for (int64_t i = 0, e = arg.shape.numElements(); i < e; ++i) {
      os << pid << " idx " << arg.shape.indexString(i) << info.prefix;
      if (info.args.size() > 1)
        os << "(operand " << a << ") ";
      printElement(os, arg.kind, data + i * bytes, info.hex);
      os << "\n";
    }
  }
  return true;
}

bool assertCondition(const Instruction &in, Machine &m) {
  const auto &info = *static_cast<const AssertInfo *>(in.aux);
  const uint8_t *condition = m.at<uint8_t>(in.operands[0]);
  for (uint32_t i = 0; i < in.count; ++i) {
    if (condition[i])
      continue;
    std::string lane;
    if (!info.shape.dims.empty())
      lane = ", lane " + std::to_string(i);
    if (info.shape.dims.size() > 1)
      lane += " " + info.shape.indexString(i);
    return m.fail(in, "device_assert failed in program " +
                          m.programIdString() + lane + ": " + info.message);
  }
  return true;
}

template <bool Enter> Handler forHandler(ElementKind kind, bool unsignedCompare) {
  return dispatchInt(kind, [&](auto tag) -> Handler {
    using Tag = decltype(tag);
    if constexpr (Enter)
      return unsignedCompare ? &forEnter<Tag, true> : &forEnter<Tag, false>;
    else
      return unsignedCompare ? &forNext<Tag, true> : &forNext<Tag, false>;
  });
}

} // namespace

Handler tk::interp::programIdHandler() { return &programId; }
Handler tk::interp::numProgramsHandler() { return &numPrograms; }
Handler tk::interp::jumpHandler() { return &jump; }
Handler tk::interp::branchIfFalseHandler() { return &branchIfFalse; }
Handler tk::interp::haltHandler() { return &halt; }
Handler tk::interp::selectForEnter(ElementKind ivKind, bool unsignedCompare) {
  return forHandler<true>(ivKind, unsignedCompare);
}
Handler tk::interp::selectForNext(ElementKind ivKind, bool unsignedCompare) {
  return forHandler<false>(ivKind, unsignedCompare);
}
Handler tk::interp::printHandler() { return &print; }
Handler tk::interp::assertHandler() { return &assertCondition; }
