//===- ElementwiseHandlers.cpp - arith/math operations on arrays ----------===//
//
// Each handler is a loop over `count` contiguous elements, instantiated per
// element kind, so that the compiler can vectorize the common f32/i32 cases.
// Integer semantics follow the GPU where LLVM leaves them undefined
// (division by zero, over-wide shifts): see Handlers.h.
//
//===----------------------------------------------------------------------===//
#include "compiler/interpreter/ElementTraits.h"
#include "compiler/interpreter/Handlers.h"

#include <cmath>

using namespace tk::interp;

namespace {

//===----------------------------------------------------------------------===//
// Integer binary operations. Each `apply` takes the operands as stored and
// returns the stored result.
//===----------------------------------------------------------------------===//

#define TK_INT_BINARY(Name, ...)                                               \
  struct Name {                                                                \
    template <typename E>                                                      \
    static typename E::Stored apply(typename E::Stored x,                      \
                                    typename E::Stored y) {                    \
      using U = typename E::U;                                                 \
      using S = typename E::S;                                                 \
      typedef typename E::Wide W __attribute__((unused));                      \
      U a = E::toU(x), b = E::toU(y);                                          \
      S sa = E::toS(x), sb = E::toS(y);                                        \
      (void)a, (void)b, (void)sa, (void)sb;                                    \
      __VA_ARGS__                                                              \
    }                                                                          \
  };

TK_INT_BINARY(AddIOp, return E::fromU(W(a) + W(b));)
TK_INT_BINARY(SubIOp, return E::fromU(W(a) - W(b));)
TK_INT_BINARY(MulIOp, return E::fromU(W(a) * W(b));)
TK_INT_BINARY(AndIOp, return E::fromU(a & b);)
TK_INT_BINARY(OrIOp, return E::fromU(a | b);)
TK_INT_BINARY(XOrIOp, return E::fromU(a ^ b);)
TK_INT_BINARY(DivUIOp, if (b == 0) return E::fromU(E::mask);
              return E::fromU(a / b);)
TK_INT_BINARY(RemUIOp, if (b == 0) return x; return E::fromU(a % b);)
TK_INT_BINARY(DivSIOp, if (b == 0) return E::fromU(E::mask);
              if (sa == E::minS && sb == S(-1)) return x;
              return E::fromS(int64_t(sa) / int64_t(sb));)
TK_INT_BINARY(RemSIOp, if (b == 0) return x;
              if (sb == S(-1)) return E::fromU(0);
              return E::fromS(int64_t(sa) % int64_t(sb));)
TK_INT_BINARY(CeilDivUIOp, if (b == 0) return E::fromU(E::mask);
              return E::fromU(W(a / b) + W(a % b != 0));)
TK_INT_BINARY(CeilDivSIOp, if (b == 0) return E::fromU(E::mask);
              if (sa == E::minS && sb == S(-1)) return x;
              int64_t q = int64_t(sa) / int64_t(sb);
              int64_t r = int64_t(sa) % int64_t(sb);
              if (r != 0 && ((r > 0) == (sb > 0))) q += 1;
              return E::fromS(q);)
TK_INT_BINARY(FloorDivSIOp, if (b == 0) return E::fromU(E::mask);
              if (sa == E::minS && sb == S(-1)) return x;
              int64_t q = int64_t(sa) / int64_t(sb);
              int64_t r = int64_t(sa) % int64_t(sb);
              if (r != 0 && ((r < 0) != (sb < 0))) q -= 1;
              return E::fromS(q);)
TK_INT_BINARY(ShLIOp, if (b >= E::bits) return E::fromU(0);
              return E::fromU(W(a) << b);)
TK_INT_BINARY(ShRUIOp, if (b >= E::bits) return E::fromU(0);
              return E::fromU(a >> b);)
TK_INT_BINARY(ShRSIOp, if (b >= E::bits) return E::fromS(sa < 0 ? -1 : 0);
              return E::fromS(int64_t(sa) >> b);)
TK_INT_BINARY(MaxSIOp, return sa >= sb ? x : y;)
TK_INT_BINARY(MinSIOp, return sa <= sb ? x : y;)
TK_INT_BINARY(MaxUIOp, return a >= b ? x : y;)
TK_INT_BINARY(MinUIOp, return a <= b ? x : y;)
#undef TK_INT_BINARY

template <typename Tag, typename Op>
bool intBinary(const Instruction &in, Machine &m) {
  using E = typename Tag::Traits;
  using Stored = typename E::Stored;
  const Stored *a = m.at<Stored>(in.operands[0]);
  const Stored *b = m.at<Stored>(in.operands[1]);
  Stored *__restrict r = m.at<Stored>(in.result);
  for (uint32_t i = 0, e = in.count; i < e; ++i)
    r[i] = Op::template apply<E>(a[i], b[i]);
  return true;
}

//===----------------------------------------------------------------------===//
// Float binary operations, in the compute type (float or double).
//===----------------------------------------------------------------------===//

#define TK_FLOAT_BINARY(Name, ...)                                             \
  struct Name {                                                                \
    template <typename C> static C apply(C a, C b) { __VA_ARGS__ }             \
  };

TK_FLOAT_BINARY(AddFOp, return a + b;)
TK_FLOAT_BINARY(SubFOp, return a - b;)
TK_FLOAT_BINARY(MulFOp, return a * b;)
TK_FLOAT_BINARY(DivFOp, return a / b;)
TK_FLOAT_BINARY(RemFOp, return std::fmod(a, b);)
TK_FLOAT_BINARY(PowFOp, return std::pow(a, b);)
TK_FLOAT_BINARY(Atan2FOp, return std::atan2(a, b);)
TK_FLOAT_BINARY(CopySignFOp, return std::copysign(a, b);)
// IEEE maximum/minimum: NaN wins, and +0 > -0.
TK_FLOAT_BINARY(MaximumFOp, if (std::isnan(a) || std::isnan(b)) return a + b;
                if (a == b) return std::signbit(a) ? b : a;
                return a > b ? a : b;)
TK_FLOAT_BINARY(MinimumFOp, if (std::isnan(a) || std::isnan(b)) return a + b;
                if (a == b) return std::signbit(a) ? a : b;
                return a < b ? a : b;)
// IEEE maxNum/minNum: a NaN operand loses to a number.
TK_FLOAT_BINARY(MaxNumFOp, if (std::isnan(a)) return b; if (std::isnan(b)) return a;
                if (a == b) return std::signbit(a) ? b : a;
                return a > b ? a : b;)
TK_FLOAT_BINARY(MinNumFOp, if (std::isnan(a)) return b; if (std::isnan(b)) return a;
                if (a == b) return std::signbit(a) ? a : b;
                return a < b ? a : b;)
#undef TK_FLOAT_BINARY

template <typename Tag, typename Op>
bool floatBinary(const Instruction &in, Machine &m) {
  using E = typename Tag::Traits;
  using Stored = typename E::Stored;
  using C = typename E::Compute;
  const Stored *a = m.at<Stored>(in.operands[0]);
  const Stored *b = m.at<Stored>(in.operands[1]);
  Stored *__restrict r = m.at<Stored>(in.result);
  for (uint32_t i = 0, e = in.count; i < e; ++i)
    r[i] = E::store(Op::template apply<C>(E::load(a[i]), E::load(b[i])));
  return true;
}

template <typename Op> Handler intBinaryFor(ElementKind kind) {
  return dispatchInt(kind, [](auto tag) -> Handler {
    return &intBinary<decltype(tag), Op>;
  });
}
template <typename Op> Handler floatBinaryFor(ElementKind kind) {
  return dispatchFloat(kind, [](auto tag) -> Handler {
    return &floatBinary<decltype(tag), Op>;
  });
}

//===----------------------------------------------------------------------===//
// Unary operations.
//===----------------------------------------------------------------------===//

#define TK_FLOAT_UNARY(Name, ...)                                              \
  struct Name {                                                                \
    template <typename C> static C apply(C x) { __VA_ARGS__ }                  \
  };
TK_FLOAT_UNARY(NegFOp, return -x;)
TK_FLOAT_UNARY(AbsFOp, return std::fabs(x);)
TK_FLOAT_UNARY(ExpOp, return std::exp(x);)
TK_FLOAT_UNARY(Exp2Op, return std::exp2(x);)
TK_FLOAT_UNARY(ExpM1Op, return std::expm1(x);)
TK_FLOAT_UNARY(LogOp, return std::log(x);)
TK_FLOAT_UNARY(Log2Op, return std::log2(x);)
TK_FLOAT_UNARY(Log10Op, return std::log10(x);)
TK_FLOAT_UNARY(Log1pOp, return std::log1p(x);)
TK_FLOAT_UNARY(SqrtOp, return std::sqrt(x);)
TK_FLOAT_UNARY(RsqrtOp, return C(1) / std::sqrt(x);)
TK_FLOAT_UNARY(CbrtOp, return std::cbrt(x);)
TK_FLOAT_UNARY(SinOp, return std::sin(x);)
TK_FLOAT_UNARY(CosOp, return std::cos(x);)
TK_FLOAT_UNARY(TanOp, return std::tan(x);)
TK_FLOAT_UNARY(AsinOp, return std::asin(x);)
TK_FLOAT_UNARY(AcosOp, return std::acos(x);)
TK_FLOAT_UNARY(AtanOp, return std::atan(x);)
TK_FLOAT_UNARY(SinhOp, return std::sinh(x);)
TK_FLOAT_UNARY(CoshOp, return std::cosh(x);)
TK_FLOAT_UNARY(TanhOp, return std::tanh(x);)
TK_FLOAT_UNARY(AsinhOp, return std::asinh(x);)
TK_FLOAT_UNARY(AcoshOp, return std::acosh(x);)
TK_FLOAT_UNARY(AtanhOp, return std::atanh(x);)
TK_FLOAT_UNARY(ErfOp, return std::erf(x);)
TK_FLOAT_UNARY(ErfcOp, return std::erfc(x);)
TK_FLOAT_UNARY(FloorOp, return std::floor(x);)
TK_FLOAT_UNARY(CeilOp, return std::ceil(x);)
TK_FLOAT_UNARY(RoundOp, return std::round(x);)       // halves away from 0
TK_FLOAT_UNARY(RoundEvenOp, return std::nearbyint(x);) // default mode: even
TK_FLOAT_UNARY(TruncOp, return std::trunc(x);)
#undef TK_FLOAT_UNARY

template <typename Tag, typename Op>
bool floatUnary(const Instruction &in, Machine &m) {
  using E = typename Tag::Traits;
  using Stored = typename E::Stored;
  using C = typename E::Compute;
  const Stored *a = m.at<Stored>(in.operands[0]);
  Stored *__restrict r = m.at<Stored>(in.result);
  for (uint32_t i = 0, e = in.count; i < e; ++i)
    r[i] = E::store(Op::template apply<C>(E::load(a[i])));
  return true;
}

#define TK_INT_UNARY(Name, ...)                                                \
  struct Name {                                                                \
    template <typename E>                                                      \
    static typename E::Stored apply(typename E::Stored x) {                    \
      typedef typename E::Wide W __attribute__((unused));                      \
      uint64_t a = E::toU(x);                                                  \
      (void)a;                                                                 \
      __VA_ARGS__                                                              \
    }                                                                          \
  };
TK_INT_UNARY(AbsIOp, return E::toS(x) < 0 ? E::fromU(W(0) - W(a)) : x;)
TK_INT_UNARY(CountLeadingZerosOp,
             return E::fromU(a == 0 ? E::bits
                                    : __builtin_clzll(a) - (64 - E::bits));)
TK_INT_UNARY(CountTrailingZerosOp,
             return E::fromU(a == 0 ? E::bits : __builtin_ctzll(a));)
TK_INT_UNARY(PopCountOp, return E::fromU(__builtin_popcountll(a));)
#undef TK_INT_UNARY

template <typename Tag, typename Op>
bool intUnary(const Instruction &in, Machine &m) {
  using E = typename Tag::Traits;
  using Stored = typename E::Stored;
  const Stored *a = m.at<Stored>(in.operands[0]);
  Stored *__restrict r = m.at<Stored>(in.result);
  for (uint32_t i = 0, e = in.count; i < e; ++i)
    r[i] = Op::template apply<E>(a[i]);
  return true;
}

template <typename Op> Handler floatUnaryFor(ElementKind kind) {
  return dispatchFloat(kind, [](auto tag) -> Handler {
    return &floatUnary<decltype(tag), Op>;
  });
}
template <typename Op> Handler intUnaryFor(ElementKind kind) {
  return dispatchInt(kind, [](auto tag) -> Handler {
    return &intUnary<decltype(tag), Op>;
  });
}

//===----------------------------------------------------------------------===//
// Comparisons.
//===----------------------------------------------------------------------===//

template <typename Tag, IntPredicate P>
bool intCompare(const Instruction &in, Machine &m) {
  using E = typename Tag::Traits;
  using Stored = typename E::Stored;
  const Stored *x = m.at<Stored>(in.operands[0]);
  const Stored *y = m.at<Stored>(in.operands[1]);
  uint8_t *__restrict r = m.at<uint8_t>(in.result);
  for (uint32_t i = 0, e = in.count; i < e; ++i) {
    auto a = E::toU(x[i]), b = E::toU(y[i]);
    auto sa = E::toS(x[i]), sb = E::toS(y[i]);
    bool v;
    switch (P) {
    case IntPredicate::EQ: v = a == b; break;
    case IntPredicate::NE: v = a != b; break;
    case IntPredicate::SLT: v = sa < sb; break;
    case IntPredicate::SLE: v = sa <= sb; break;
    case IntPredicate::SGT: v = sa > sb; break;
    case IntPredicate::SGE: v = sa >= sb; break;
    case IntPredicate::ULT: v = a < b; break;
    case IntPredicate::ULE: v = a <= b; break;
    case IntPredicate::UGT: v = a > b; break;
    case IntPredicate::UGE: v = a >= b; break;
    }
    r[i] = v;
  }
  return true;
}

template <typename Tag, FloatPredicate P>
bool floatCompare(const Instruction &in, Machine &m) {
  using E = typename Tag::Traits;
  using Stored = typename E::Stored;
  const Stored *x = m.at<Stored>(in.operands[0]);
  const Stored *y = m.at<Stored>(in.operands[1]);
  uint8_t *__restrict r = m.at<uint8_t>(in.result);
  for (uint32_t i = 0, e = in.count; i < e; ++i) {
    auto a = E::load(x[i]), b = E::load(y[i]);
    bool unordered = std::isnan(a) || std::isnan(b);
    bool v;
    // The ordered forms are false on NaN by IEEE comparison semantics; the
    // unordered forms are the negation of the opposite ordered test.
    switch (P) {
    case FloatPredicate::False: v = false; break;
    case FloatPredicate::OEQ: v = a == b; break;
    case FloatPredicate::OGT: v = a > b; break;
    case FloatPredicate::OGE: v = a >= b; break;
    case FloatPredicate::OLT: v = a < b; break;
    case FloatPredicate::OLE: v = a <= b; break;
    case FloatPredicate::ONE: v = !unordered && a != b; break;
    case FloatPredicate::ORD: v = !unordered; break;
    case FloatPredicate::UEQ: v = unordered || a == b; break;
    case FloatPredicate::UGT: v = !(a <= b); break;
    case FloatPredicate::UGE: v = !(a < b); break;
    case FloatPredicate::ULT: v = !(a >= b); break;
    case FloatPredicate::ULE: v = !(a > b); break;
    case FloatPredicate::UNE: v = a != b; break;
    case FloatPredicate::UNO: v = unordered; break;
    case FloatPredicate::True: v = true; break;
    }
    r[i] = v;
  }
  return true;
}

template <IntPredicate P> Handler intCompareFor(ElementKind kind) {
  return dispatchInt(kind, [](auto tag) -> Handler {
    return &intCompare<decltype(tag), P>;
  });
}
template <FloatPredicate P> Handler floatCompareFor(ElementKind kind) {
  return dispatchFloat(kind, [](auto tag) -> Handler {
    return &floatCompare<decltype(tag), P>;
  });
}

//===----------------------------------------------------------------------===//
// fma and select.
//===----------------------------------------------------------------------===//

template <typename Tag> bool fmaKernel(const Instruction &in, Machine &m) {
  using E = typename Tag::Traits;
  using Stored = typename E::Stored;
  const Stored *a = m.at<Stored>(in.operands[0]);
  const Stored *b = m.at<Stored>(in.operands[1]);
  const Stored *c = m.at<Stored>(in.operands[2]);
  Stored *__restrict r = m.at<Stored>(in.result);
  for (uint32_t i = 0, e = in.count; i < e; ++i) {
    if constexpr (std::is_same_v<Stored, uint16_t>) {
      // 16-bit floats: the product is exact in double; one more rounding
      // to f16/bf16 through round-to-odd.
      r[i] = E::storeDouble(std::fma(double(E::load(a[i])),
                                     double(E::load(b[i])),
                                     double(E::load(c[i]))));
    } else {
      r[i] = std::fma(a[i], b[i], c[i]);
    }
  }
  return true;
}

template <unsigned Bytes, bool ScalarCondition>
bool selectKernel(const Instruction &in, Machine &m) {
  using T = typename BitsOfSize<Bytes>::Type;
  const uint8_t *cond = m.at<uint8_t>(in.operands[0]);
  const T *a = m.at<T>(in.operands[1]);
  const T *b = m.at<T>(in.operands[2]);
  T *__restrict r = m.at<T>(in.result);
  for (uint32_t i = 0, e = in.count; i < e; ++i)
    r[i] = cond[ScalarCondition ? 0 : i] ? a[i] : b[i];
  return true;
}

} // namespace

Handler tk::interp::selectBinary(BinaryOp op, ElementKind kind) {
  switch (op) {
  case BinaryOp::AddI: return intBinaryFor<AddIOp>(kind);
  case BinaryOp::SubI: return intBinaryFor<SubIOp>(kind);
  case BinaryOp::MulI: return intBinaryFor<MulIOp>(kind);
  case BinaryOp::DivSI: return intBinaryFor<DivSIOp>(kind);
  case BinaryOp::DivUI: return intBinaryFor<DivUIOp>(kind);
  case BinaryOp::RemSI: return intBinaryFor<RemSIOp>(kind);
  case BinaryOp::RemUI: return intBinaryFor<RemUIOp>(kind);
  case BinaryOp::CeilDivSI: return intBinaryFor<CeilDivSIOp>(kind);
  case BinaryOp::CeilDivUI: return intBinaryFor<CeilDivUIOp>(kind);
  case BinaryOp::FloorDivSI: return intBinaryFor<FloorDivSIOp>(kind);
  case BinaryOp::AndI: return intBinaryFor<AndIOp>(kind);
  case BinaryOp::OrI: return intBinaryFor<OrIOp>(kind);
  case BinaryOp::XOrI: return intBinaryFor<XOrIOp>(kind);
  case BinaryOp::ShLI: return intBinaryFor<ShLIOp>(kind);
  case BinaryOp::ShRSI: return intBinaryFor<ShRSIOp>(kind);
  case BinaryOp::ShRUI: return intBinaryFor<ShRUIOp>(kind);
  case BinaryOp::MaxSI: return intBinaryFor<MaxSIOp>(kind);
  case BinaryOp::MinSI: return intBinaryFor<MinSIOp>(kind);
  case BinaryOp::MaxUI: return intBinaryFor<MaxUIOp>(kind);
  case BinaryOp::MinUI: return intBinaryFor<MinUIOp>(kind);
  case BinaryOp::AddF: return floatBinaryFor<AddFOp>(kind);
  case BinaryOp::SubF: return floatBinaryFor<SubFOp>(kind);
  case BinaryOp::MulF: return floatBinaryFor<MulFOp>(kind);
  case BinaryOp::DivF: return floatBinaryFor<DivFOp>(kind);
  case BinaryOp::RemF: return floatBinaryFor<RemFOp>(kind);
  case BinaryOp::MaximumF: return floatBinaryFor<MaximumFOp>(kind);
  case BinaryOp::MinimumF: return floatBinaryFor<MinimumFOp>(kind);
  case BinaryOp::MaxNumF: return floatBinaryFor<MaxNumFOp>(kind);
  case BinaryOp::MinNumF: return floatBinaryFor<MinNumFOp>(kind);
  case BinaryOp::PowF: return floatBinaryFor<PowFOp>(kind);
  case BinaryOp::Atan2F: return floatBinaryFor<Atan2FOp>(kind);
  case BinaryOp::CopySignF: return floatBinaryFor<CopySignFOp>(kind);
  }
  return nullptr;
}

Handler tk::interp::selectUnary(UnaryOp op, ElementKind kind) {
  switch (op) {
  case UnaryOp::NegF: return floatUnaryFor<NegFOp>(kind);
  case UnaryOp::AbsF: return floatUnaryFor<AbsFOp>(kind);
  case UnaryOp::Exp: return floatUnaryFor<ExpOp>(kind);
  case UnaryOp::Exp2: return floatUnaryFor<Exp2Op>(kind);
  case UnaryOp::ExpM1: return floatUnaryFor<ExpM1Op>(kind);
  case UnaryOp::Log: return floatUnaryFor<LogOp>(kind);
  case UnaryOp::Log2: return floatUnaryFor<Log2Op>(kind);
  case UnaryOp::Log10: return floatUnaryFor<Log10Op>(kind);
  case UnaryOp::Log1p: return floatUnaryFor<Log1pOp>(kind);
  case UnaryOp::Sqrt: return floatUnaryFor<SqrtOp>(kind);
  case UnaryOp::Rsqrt: return floatUnaryFor<RsqrtOp>(kind);
  case UnaryOp::Cbrt: return floatUnaryFor<CbrtOp>(kind);
  case UnaryOp::Sin: return floatUnaryFor<SinOp>(kind);
  case UnaryOp::Cos: return floatUnaryFor<CosOp>(kind);
  case UnaryOp::Tan: return floatUnaryFor<TanOp>(kind);
  case UnaryOp::Asin: return floatUnaryFor<AsinOp>(kind);
  case UnaryOp::Acos: return floatUnaryFor<AcosOp>(kind);
  case UnaryOp::Atan: return floatUnaryFor<AtanOp>(kind);
  case UnaryOp::Sinh: return floatUnaryFor<SinhOp>(kind);
  case UnaryOp::Cosh: return floatUnaryFor<CoshOp>(kind);
  case UnaryOp::Tanh: return floatUnaryFor<TanhOp>(kind);
  case UnaryOp::Asinh: return floatUnaryFor<AsinhOp>(kind);
  case UnaryOp::Acosh: return floatUnaryFor<AcoshOp>(kind);
  case UnaryOp::Atanh: return floatUnaryFor<AtanhOp>(kind);
  case UnaryOp::Erf: return floatUnaryFor<ErfOp>(kind);
  case UnaryOp::Erfc: return floatUnaryFor<ErfcOp>(kind);
  case UnaryOp::Floor: return floatUnaryFor<FloorOp>(kind);
  case UnaryOp::Ceil: return floatUnaryFor<CeilOp>(kind);
  case UnaryOp::Round: return floatUnaryFor<RoundOp>(kind);
  case UnaryOp::RoundEven: return floatUnaryFor<RoundEvenOp>(kind);
  case UnaryOp::Trunc: return floatUnaryFor<TruncOp>(kind);
  case UnaryOp::AbsI: return intUnaryFor<AbsIOp>(kind);
  case UnaryOp::CountLeadingZeros: return intUnaryFor<CountLeadingZerosOp>(kind);
  case UnaryOp::CountTrailingZeros: return intUnaryFor<CountTrailingZerosOp>(kind);
  case UnaryOp::PopCount: return intUnaryFor<PopCountOp>(kind);
  }
  return nullptr;
}

Handler tk::interp::selectIntCompare(IntPredicate predicate, ElementKind kind) {
  switch (predicate) {
  case IntPredicate::EQ: return intCompareFor<IntPredicate::EQ>(kind);
  case IntPredicate::NE: return intCompareFor<IntPredicate::NE>(kind);
  case IntPredicate::SLT: return intCompareFor<IntPredicate::SLT>(kind);
  case IntPredicate::SLE: return intCompareFor<IntPredicate::SLE>(kind);
  case IntPredicate::SGT: return intCompareFor<IntPredicate::SGT>(kind);
  case IntPredicate::SGE: return intCompareFor<IntPredicate::SGE>(kind);
  case IntPredicate::ULT: return intCompareFor<IntPredicate::ULT>(kind);
  case IntPredicate::ULE: return intCompareFor<IntPredicate::ULE>(kind);
  case IntPredicate::UGT: return intCompareFor<IntPredicate::UGT>(kind);
  case IntPredicate::UGE: return intCompareFor<IntPredicate::UGE>(kind);
  }
  return nullptr;
}

Handler tk::interp::selectFloatCompare(FloatPredicate predicate,
                                       ElementKind kind) {
  switch (predicate) {
#define TK_CASE(P)                                                             \
  case FloatPredicate::P:                                                      \
    return floatCompareFor<FloatPredicate::P>(kind);
    TK_CASE(False) TK_CASE(OEQ) TK_CASE(OGT) TK_CASE(OGE) TK_CASE(OLT)
    TK_CASE(OLE) TK_CASE(ONE) TK_CASE(ORD) TK_CASE(UEQ) TK_CASE(UGT)
    TK_CASE(UGE) TK_CASE(ULT) TK_CASE(ULE) TK_CASE(UNE) TK_CASE(UNO)
    TK_CASE(True)
#undef TK_CASE
  }
  return nullptr;
}

Handler tk::interp::selectFma(ElementKind kind) {
  return dispatchFloat(kind, [](auto tag) -> Handler {
    return &fmaKernel<decltype(tag)>;
  });
}

Handler tk::interp::selectSelect(unsigned elementBytes, bool scalarCondition) {
  return dispatchBytes(elementBytes, [&](auto bytes) -> Handler {
    constexpr unsigned B = decltype(bytes)::value;
    return scalarCondition ? &selectKernel<B, true> : &selectKernel<B, false>;
  });
}
