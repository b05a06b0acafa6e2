//===- IRGenRandom.cpp - Philox random numbers ----------------------------===//
//
// rand, randn, randint, randint4x (and rand4x, randn4x, philox,
// philox_impl, uint_to_uniform_float, pair_uniform_to_normal) follow
// Triton's python/triton/language/random.py step for step, so that a
// seeded kernel draws exactly Triton's bit streams:
//
//  * philox_impl: n_rounds (default 10) Philox-4x32 rounds on the counter
//    (c0, c1, c2, c3) with key (k0, k1):
//      c0' = umulhi(B, c2) ^ c1 ^ k0    c1' = B * c2
//      c2' = umulhi(A, c0) ^ c3 ^ k1    c3' = A * c0
//      k0 += 0x9E3779B9, k1 += 0xBB67AE85
//    with A = 0xD2511F53, B = 0xCD9E8D57 (Philox-4x64 constants for u64
//    counters). The rounds are unrolled; every op is ordinary u32 (u64)
//    arithmetic, so the interpreter and the GPU compute the same bits.
//  * philox(seed, c0..c3): the seed as u64 split into (lo, hi) for the key
//    (for 64-bit counters: (seed, 0)); counters reinterpreted as unsigned.
//  * randint4x(seed, offset): counter (offset_lo, offset_hi, 0, 0), where
//    offset_hi is the high word of a 64-bit offset (else 0).
//  * uint_to_uniform_float(x): x as signed, `where(x < 0, -x - 1, x)`
//    times 4.6566127342e-10 (f32; 1.0842020432385337e-19 for 64-bit), a
//    float in [0, 1).
//  * pair_uniform_to_normal: Box-Muller on max(1e-7, u1), 2 pi u2.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/IRGenImpl.h"

namespace tk::irgen {

using ast::BinaryOpKind;
using sema::DType;

namespace {

struct PhiloxConstants {
  uint64_t keyA, keyB, roundA, roundB;
};

PhiloxConstants getPhiloxConstants(unsigned bits) {
  if (bits == 32)
    return {0x9E3779B9u, 0xBB67AE85u, 0xD2511F53u, 0xCD9E8D57u};
  return {0x9E3779B97F4A7C15ull, 0xBB67AE8584CAA73Bull, 0xD2E7470EE14C6C93ull,
          0xCA5A826395121157ull};
}

class RandomEmitter {
public:
  RandomEmitter(IRGen &gen, SourceLoc loc) : gen(gen), loc(loc) {}

  Value op(BinaryOpKind kind, const Value &a, const Value &b) {
    return gen.binaryOp(kind, a, b, loc);
  }

  /// A compile-time unsigned constant as a run-time value of `type` (the
  /// 64-bit constants do not fit the frontend's signed integers).
  Value constant(uint64_t value, DType type) {
    return gen.constantInt(int64_t(value), type);
  }

  /// A run-time integer (constants become their literal type first, as
  /// Triton's to_tensor does).
  Value integer(const Value &value, SourceLoc where, const char *what) {
    Value v = gen.toIR(value, where, what);
    if (!v.getDType().isInt() || v.getDType().isBool())
      gen.error(where, std::string(what) + " must be an integer, got " +
                           v.getType().toString());
    return v;
  }

  std::vector<Value> philoxImpl(std::vector<Value> c, Value k0, Value k1,
                                int64_t rounds) {
    DType type = c[0].getDType();
    PhiloxConstants constants = getPhiloxConstants(type.getBitWidth());
    Value a = constant(constants.roundA, type);
    Value b = constant(constants.roundB, type);
    Value keyA = constant(constants.keyA, type);
    Value keyB = constant(constants.keyB, type);
    for (int64_t round = 0; round < rounds; ++round) {
      Value c0 = c[0], c2 = c[2];
      c[0] = op(BinaryOpKind::BitXor,
                op(BinaryOpKind::BitXor, gen.umulhi(b, c2, loc), c[1]), k0);
      c[2] = op(BinaryOpKind::BitXor,
                op(BinaryOpKind::BitXor, gen.umulhi(a, c0, loc), c[3]), k1);
      c[1] = op(BinaryOpKind::Mul, b, c2);
      c[3] = op(BinaryOpKind::Mul, a, c0);
      k0 = op(BinaryOpKind::Add, k0, keyA);
      k1 = op(BinaryOpKind::Add, k1, keyB);
    }
    return c;
  }

  std::vector<Value> philox(const Value &seedIn, std::vector<Value> c,
                            int64_t rounds) {
    Value seed = gen.cast(seedIn, ScalarType::U64, loc);
    unsigned bits = c[0].getDType().getBitWidth();
    if (bits != 32 && bits != 64)
      gen.error(loc, "philox() needs 32- or 64-bit counters, got " +
                         c[0].getType().toString());
    DType type = sema::getIntType(bits, /*isUnsigned=*/true);
    for (Value &counter : c) {
      if (counter.getDType().getBitWidth() != bits)
        gen.error(loc, "philox() counters must have the same width, got " +
                           c[0].getType().toString() + " and " +
                           counter.getType().toString());
      counter = gen.bitcast(counter, type, loc);
    }
    Value k0, k1;
    if (bits == 32) {
      Value mask = Value::integer(0xffffffff);
      k1 = gen.cast(op(BinaryOpKind::BitAnd,
                       op(BinaryOpKind::RShift, seed, Value::integer(32)), mask),
                    type, loc);
      k0 = gen.cast(op(BinaryOpKind::BitAnd, seed, mask), type, loc);
    } else {
      k0 = seed;
      k1 = constant(0, type);
    }
    return philoxImpl(std::move(c), k0, k1, rounds);
  }

  std::vector<Value> randint4x(const Value &seed, const Value &offsetIn,
                               int64_t rounds) {
    Value offset = integer(offsetIn, loc, "the offset");
    Value low = gen.cast(offset, ScalarType::U32, loc);
    Value zero = op(BinaryOpKind::Mul, low, Value::integer(0));
    Value high = zero;
    if (offset.getDType().getBitWidth() > 32)
      high = gen.cast(op(BinaryOpKind::RShift, offset, Value::integer(32)),
                      ScalarType::U32, loc);
    return philox(seed, {low, high, zero, zero}, rounds);
  }

  Value uniformFloat(const Value &xIn) {
    Value x = integer(xIn, loc, "the value of uint_to_uniform_float");
    unsigned bits = x.getDType().getBitWidth();
    if (bits != 32 && bits != 64)
      gen.error(loc, "uint_to_uniform_float() needs 32- or 64-bit integers, "
                     "got " +
                         x.getType().toString());
    x = gen.bitcast(x, sema::getIntType(bits, /*isUnsigned=*/false), loc);
    double scale = bits == 32 ? 4.6566127342e-10 : 1.0842020432385337e-19;
    Value negative = gen.compare(BinaryOpKind::Lt, x, Value::integer(0), loc);
    Value flipped = op(BinaryOpKind::Sub,
                       gen.unaryOp(ast::UnaryOpKind::Neg, x, loc),
                       Value::integer(1));
    x = gen.select(negative, flipped, x, loc);
    return op(BinaryOpKind::Mul, x, Value::floating(scale));
  }

  std::pair<Value, Value> uniformToNormal(const Value &u1In,
                                          const Value &u2) {
    Value u1 = gen.maximumOrMinimum(/*isMax=*/true, Value::floating(1.0e-7),
                                    u1In, /*propagateNan=*/false, loc);
    Value theta = op(BinaryOpKind::Mul, Value::floating(6.283185307179586), u2);
    Value r = gen.emitMath(
        BuiltinId::Sqrt,
        op(BinaryOpKind::Mul, Value::floating(-2.0),
           gen.emitMath(BuiltinId::Log, u1, loc)),
        loc);
    return {op(BinaryOpKind::Mul, r, gen.emitMath(BuiltinId::Cos, theta, loc)),
            op(BinaryOpKind::Mul, r, gen.emitMath(BuiltinId::Sin, theta, loc))};
  }

  IRGen &gen;
  SourceLoc loc;
};

} // namespace

Value IRGen::emitRandomBuiltin(BuiltinId id, const BoundArgs &args,
                               SourceLoc loc) {
  RandomEmitter random(*this, loc);
  int64_t rounds = 10;
  if (args.has("n_rounds")) {
    rounds = requireInt(args.get("n_rounds"), args.loc("n_rounds"),
                        "n_rounds");
    if (rounds < 0 || rounds > 64)
      error(args.loc("n_rounds"), "n_rounds must be between 0 and 64, got " +
                                      std::to_string(rounds));
  }
  auto seed = [&] {
    return random.integer(args.get("seed"), args.loc("seed"), "the seed");
  };
  auto counters = [&](std::initializer_list<const char *> names) {
    std::vector<Value> values;
    for (const char *name : names)
      values.push_back(random.integer(args.get(name), args.loc(name),
                                      "each counter"));
    return values;
  };
  switch (id) {
  case BuiltinId::PhiloxImpl: {
    std::vector<Value> c = counters({"c0", "c1", "c2", "c3"});
    DType type = c[0].getDType();
    if (!type.isUnsigned() ||
        (type.getBitWidth() != 32 && type.getBitWidth() != 64))
      error(args.loc("c0"), "philox_impl() needs u32 or u64 counters, got " +
                                c[0].getType().toString());
    for (Value &v : c)
      v = cast(v, type, loc);
    Value k0 = cast(args.get("k0"), type, args.loc("k0"));
    Value k1 = cast(args.get("k1"), type, args.loc("k1"));
    return Value::tuple(random.philoxImpl(c, k0, k1, rounds));
  }
  case BuiltinId::Philox:
    return Value::tuple(
        random.philox(seed(), counters({"c0", "c1", "c2", "c3"}), rounds));
  case BuiltinId::Randint4x:
    return Value::tuple(random.randint4x(seed(), args.get("offset"), rounds));
  case BuiltinId::Randint:
    return random.randint4x(seed(), args.get("offset"), rounds)[0];
  case BuiltinId::Rand:
    return random.uniformFloat(
        random.randint4x(seed(), args.get("offset"), rounds)[0]);
  case BuiltinId::Rand4x: {
    std::vector<Value> values =
        random.randint4x(seed(), args.get("offsets"), rounds);
    for (Value &v : values)
      v = random.uniformFloat(v);
    return Value::tuple(values);
  }
  case BuiltinId::Randn: {
    std::vector<Value> values =
        random.randint4x(seed(), args.get("offset"), rounds);
    return random
        .uniformToNormal(random.uniformFloat(values[0]),
                         random.uniformFloat(values[1]))
        .first;
  }
  case BuiltinId::Randn4x: {
    std::vector<Value> u =
        random.randint4x(seed(), args.get("offset"), rounds);
    for (Value &v : u)
      v = random.uniformFloat(v);
    auto [n1, n2] = random.uniformToNormal(u[0], u[1]);
    auto [n3, n4] = random.uniformToNormal(u[2], u[3]);
    return Value::tuple({n1, n2, n3, n4});
  }
  case BuiltinId::UintToUniformFloat:
    return random.uniformFloat(args.get("x"));
  case BuiltinId::PairUniformToNormal: {
    auto [n1, n2] = random.uniformToNormal(args.get("u1"), args.get("u2"));
    return Value::tuple({n1, n2});
  }
  default:
    error(loc, std::string(getBuiltinName(id)) + "() is not supported here");
  }
}

} // namespace tk::irgen
