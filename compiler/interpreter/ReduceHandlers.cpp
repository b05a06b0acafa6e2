//===- ReduceHandlers.cpp - tk.reduce and tk.scan -------------------------===//
//
// The source is viewed as [outer, length, inner] with `length` the reduced
// axis. Float sums and products run in double and round once per stored
// result (the GPU's tree of f32 additions is within its own rounding error
// of this). max/min propagate NaN and order -0 < +0 (IEEE maximum/minimum);
// argmax/argmin return the first extremal index, a NaN counting as the
// extreme (as numpy does).
//
//===----------------------------------------------------------------------===//
#include "compiler/interpreter/ElementTraits.h"
#include "compiler/interpreter/Handlers.h"

#include <cmath>
#include <cstring>

using namespace tk::interp;

namespace {

template <typename C> C ieeeMaximum(C a, C b) {
  if (std::isnan(a) || std::isnan(b))
    return a + b;
  if (a == b)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
template <typename C> C ieeeMinimum(C a, C b) {
  if (std::isnan(a) || std::isnan(b))
    return a + b;
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

/// Folds `length` elements starting at `source` with stride `stride`.
template <typename E, ReduceOp Op>
auto fold(const typename E::Stored *source, int64_t length, int64_t stride) {
  if constexpr (Op == ReduceOp::ArgMax || Op == ReduceOp::ArgMin) {
    int32_t best = 0;
    if constexpr (E::isFloat) {
      auto bestValue = E::load(source[0]);
      for (int64_t k = 1; k < length && !std::isnan(bestValue); ++k) {
        auto v = E::load(source[k * stride]);
        bool better = Op == ReduceOp::ArgMax ? v > bestValue : v < bestValue;
        if (std::isnan(v) || better) {
          best = static_cast<int32_t>(k);
          bestValue = v;
        }
      }
    } else {
      auto bestValue = E::toS(source[0]);
      for (int64_t k = 1; k < length; ++k) {
        auto v = E::toS(source[k * stride]);
        if (Op == ReduceOp::ArgMax ? v > bestValue : v < bestValue) {
          best = static_cast<int32_t>(k);
          bestValue = v;
        }
      }
    }
    return best;
  } else if constexpr (E::isFloat) {
    if constexpr (Op == ReduceOp::Sum) {
      double sum = 0;
      for (int64_t k = 0; k < length; ++k)
        sum += static_cast<double>(E::load(source[k * stride]));
      return E::storeDouble(sum);
    } else {
      auto v = E::load(source[0]);
      for (int64_t k = 1; k < length; ++k) {
        auto x = E::load(source[k * stride]);
        v = Op == ReduceOp::Max ? ieeeMaximum(v, x) : ieeeMinimum(v, x);
      }
      return E::store(v);
    }
  } else {
    using W = typename E::Wide;
    typename E::Stored v = source[0];
    for (int64_t k = 1; k < length; ++k) {
      typename E::Stored x = source[k * stride];
      switch (Op) {
      case ReduceOp::Sum: v = E::fromU(W(E::toU(v)) + W(E::toU(x))); break;
      case ReduceOp::Max: v = E::toS(x) > E::toS(v) ? x : v; break;
      case ReduceOp::Min: v = E::toS(x) < E::toS(v) ? x : v; break;
      case ReduceOp::UMax: v = E::toU(x) > E::toU(v) ? x : v; break;
      case ReduceOp::UMin: v = E::toU(x) < E::toU(v) ? x : v; break;
      case ReduceOp::And: v = E::fromU(E::toU(v) & E::toU(x)); break;
      case ReduceOp::Or: v = E::fromU(E::toU(v) | E::toU(x)); break;
      case ReduceOp::Xor: v = E::fromU(E::toU(v) ^ E::toU(x)); break;
      default: break;
      }
    }
    return v;
  }
}

template <typename Tag, ReduceOp Op>
bool reduce(const Instruction &in, Machine &m) {
  using E = typename Tag::Traits;
  using Stored = typename E::Stored;
  const auto &axis = *static_cast<const AxisInfo *>(in.aux);
  const Stored *source = m.at<Stored>(in.operands[0]);
  using Result = decltype(fold<E, Op>(source, 1, 1));
  Result *r = m.at<Result>(in.result);
  for (int64_t o = 0; o < axis.outer; ++o)
    for (int64_t j = 0; j < axis.inner; ++j)
      r[o * axis.inner + j] = fold<E, Op>(
          source + o * axis.length * axis.inner + j, axis.length, axis.inner);
  return true;
}

template <typename Tag, ScanOp Op, bool Reverse>
bool scan(const Instruction &in, Machine &m) {
  using E = typename Tag::Traits;
  using Stored = typename E::Stored;
  const auto &axis = *static_cast<const AxisInfo *>(in.aux);
  const Stored *source = m.at<Stored>(in.operands[0]);
  Stored *r = m.at<Stored>(in.result);
  for (int64_t o = 0; o < axis.outer; ++o) {
    for (int64_t j = 0; j < axis.inner; ++j) {
      int64_t base = o * axis.length * axis.inner + j;
      // Running value: double for floats, the stored integer otherwise.
      std::conditional_t<E::isFloat, double, Stored> running{};
      for (int64_t step = 0; step < axis.length; ++step) {
        int64_t k = Reverse ? axis.length - 1 - step : step;
        int64_t at = base + k * axis.inner;
        if constexpr (E::isFloat) {
          double x = E::load(source[at]);
          if (step == 0)
            running = x;
          else if (Op == ScanOp::Sum)
            running += x;
          else if (Op == ScanOp::Prod)
            running *= x;
          else if (Op == ScanOp::Max)
            running = ieeeMaximum(running, x);
          else
            running = ieeeMinimum(running, x);
          r[at] = E::storeDouble(running);
        } else {
          using W = typename E::Wide;
          Stored x = source[at];
          if (step == 0)
            running = x;
          else if (Op == ScanOp::Sum)
            running = E::fromU(W(E::toU(running)) + W(E::toU(x)));
          else if (Op == ScanOp::Prod)
            running = E::fromU(W(E::toU(running)) * W(E::toU(x)));
          else if (Op == ScanOp::Max)
            running = E::toS(x) > E::toS(running) ? x : running;
          else
            running = E::toS(x) < E::toS(running) ? x : running;
          r[at] = running;
        }
      }
    }
  }
  return true;
}

template <ReduceOp Op> Handler reduceFor(ElementKind kind) {
  auto make = [](auto tag) -> Handler {
    return &reduce<decltype(tag), Op>;
  };
  if (isIntegerKind(kind))
    return dispatchInt(kind, make);
  constexpr bool floatAllowed = Op == ReduceOp::Sum || Op == ReduceOp::Max ||
                                Op == ReduceOp::Min ||
                                Op == ReduceOp::ArgMax ||
                                Op == ReduceOp::ArgMin;
  if constexpr (floatAllowed)
    return dispatchFloat(kind, make);
  return nullptr;
}

template <ScanOp Op> Handler scanFor(ElementKind kind, bool reverse) {
  auto make = [reverse](auto tag) -> Handler {
    using Tag = decltype(tag);
    return reverse ? &scan<Tag, Op, true> : &scan<Tag, Op, false>;
  };
  return isIntegerKind(kind) ? dispatchInt(kind, make)
                             : dispatchFloat(kind, make);
}

bool combine(const Instruction &in, Machine &m) {
  const auto &info = *static_cast<const CombineInfo *>(in.aux);
  size_t resumeAt = m.pc;
  auto copy = [&](uint32_t to, int64_t toIndex, uint32_t from,
                  int64_t fromIndex, unsigned bytes) {
    std::memcpy(m.frame + to + toIndex * bytes,
                m.frame + from + fromIndex * bytes, bytes);
  };
  // The yielded values go through a staging area: one may be another
  // operand's lhs slot.
  llvm::SmallVector<char, 64> staged;
  for (const CombineInfo::Operand &operand : info.operands)
    staged.resize(staged.size() + operand.bytes);
  for (int64_t o = 0; o < info.outer; ++o) {
    for (int64_t j = 0; j < info.inner; ++j) {
      int64_t base = o * info.length * info.inner + j;
      for (int64_t step = 0; step < info.length; ++step) {
        int64_t k = info.reverse ? info.length - 1 - step : step;
        int64_t at = base + k * info.inner;
        for (const CombineInfo::Operand &operand : info.operands)
          copy(step == 0 ? operand.lhs : operand.rhs, 0, operand.source, at,
               operand.bytes);
        if (step != 0) {
          m.pc = 0;
          while (m.pc < info.body.size()) {
            const Instruction &sub = info.body[m.pc++];
            if (!sub.handler(sub, m))
              return false;
          }
          char *stage = staged.data();
          for (const CombineInfo::Operand &operand : info.operands) {
            std::memcpy(stage, m.frame + operand.yielded, operand.bytes);
            stage += operand.bytes;
          }
          stage = staged.data();
          for (const CombineInfo::Operand &operand : info.operands) {
            std::memcpy(m.frame + operand.lhs, stage, operand.bytes);
            stage += operand.bytes;
          }
        }
        if (info.isScan)
          for (const CombineInfo::Operand &operand : info.operands)
            copy(operand.result, at, operand.lhs, 0, operand.bytes);
      }
      if (!info.isScan)
        for (const CombineInfo::Operand &operand : info.operands)
          copy(operand.result, o * info.inner + j, operand.lhs, 0,
               operand.bytes);
    }
  }
  m.pc = resumeAt;
  return true;
}

} // namespace

Handler tk::interp::combineHandler() { return &combine; }

Handler tk::interp::selectReduce(ReduceOp op, ElementKind kind) {
  switch (op) {
  case ReduceOp::Sum: return reduceFor<ReduceOp::Sum>(kind);
  case ReduceOp::Max: return reduceFor<ReduceOp::Max>(kind);
  case ReduceOp::Min: return reduceFor<ReduceOp::Min>(kind);
  case ReduceOp::UMax: return reduceFor<ReduceOp::UMax>(kind);
  case ReduceOp::UMin: return reduceFor<ReduceOp::UMin>(kind);
  case ReduceOp::ArgMax: return reduceFor<ReduceOp::ArgMax>(kind);
  case ReduceOp::ArgMin: return reduceFor<ReduceOp::ArgMin>(kind);
  case ReduceOp::And: return reduceFor<ReduceOp::And>(kind);
  case ReduceOp::Or: return reduceFor<ReduceOp::Or>(kind);
  case ReduceOp::Xor: return reduceFor<ReduceOp::Xor>(kind);
  }
  return nullptr;
}

Handler tk::interp::selectScan(ScanOp op, ElementKind kind, bool reverse) {
  switch (op) {
  case ScanOp::Sum: return scanFor<ScanOp::Sum>(kind, reverse);
  case ScanOp::Prod: return scanFor<ScanOp::Prod>(kind, reverse);
  case ScanOp::Max: return scanFor<ScanOp::Max>(kind, reverse);
  case ScanOp::Min: return scanFor<ScanOp::Min>(kind, reverse);
  }
  return nullptr;
}
