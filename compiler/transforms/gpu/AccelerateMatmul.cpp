//===- AccelerateMatmul.cpp - tk.dot on tensor cores (mma.sync, wgmma) ----===//
//
// On sm_80 and newer, a tk.dot whose operands have blocked layouts becomes
// an mma.sync dot (the lowering is compiler/conversion/MmaDotOpToLlvm.cpp):
//   - the accumulator and the result take the #tkgpu.mma (v2) layout;
//   - each operand goes through shared memory: local_alloc in a swizzled
//     #tkgpu.shared layout (OperandLayouts.h: conflict-free 16-byte stores
//     and ldmatrix reads), local_load into #tkgpu.dot_operand (ldmatrix);
//   - the old result layout is restored by a convert_layout for the users,
//     and remove-layout-conversions moves it towards the stores, so that
//     an epilogue (bias, activation, casts) runs on mma registers.
//
// Instructions (the operand element type decides; kWidth = K elements per
// 32-bit register):
//   f16, bf16 with an f32 accumulator  m16n8k16, kWidth 2
//   f32, precision tf32                m16n8k8,  kWidth 1
//   f32, precision tf32x3              three m16n8k8 dots on the split
//                                      operands (below)
//   i8 with an i32 accumulator         m16n8k32, kWidth 4
// precision = ieee, f64, f16 accumulators, other targets, and tiles too
// small to give every warp a 16x8 tile (or K below one instruction) stay on
// the FMA path of DotOpToLlvm.cpp.
//
// warpsPerCTA: each warp computes a (M / wM) x (N / wN) tile and reads
// (M / wM + N / wN) * K operand elements from shared memory for it, which
// is least for square warp tiles. So warps are doubled along the dimension
// whose warp tile is larger (M on ties), as long as that tile keeps at least
// one 16x8 instruction tile per warp; when neither dimension can be split
// any more the dot stays on the FMA path.
//
// Chained dots (a dot whose result flows into the A operand of another, or
// whose A operand is computed from another dot's result: attention's
// P = softmax(Q K^T) in P @ V) split warps along M only, as long as every
// warp keeps 16 rows: a warp then holds whole rows of P, so that the row
// max/sum of the softmax stay inside the warp and the accumulator fragment
// of the first dot is the A fragment of the second
// (tkgpu-operands-in-registers); with warps along N, P would go through
// shared memory.
//
// tf32x3 (Triton's 3xTF32): x = big + small with big = x rounded to tf32
// (round to nearest, ties away, on the bit pattern: + 0x1000 then clear the
// 13 low mantissa bits) and small = x - big (exact). The product is
// big*big + big*small + small*big (small*small is below f32 precision),
// computed as acc = dot(a_small, b_big, acc); acc = dot(a_big, b_small,
// acc); acc = dot(a_big, b_big, acc): the small terms are added first, so
// that they are not lost to the larger partial sums. The split runs on the
// dot_operand registers after the single local_load of each operand.
//
// Loop-invariant operands: an operand defined outside the loops around the
// dot (attention's Q, loaded once per program) is staged in shared memory
// and read into registers before the outermost such loop, once, instead of
// being stored and re-read with ldmatrix in every iteration. For wgmma the
// local_alloc (and its proxy fence) moves there; the tensor cores read the
// buffer in every iteration.
//
// Loops: when the accumulator is an scf.for iter_arg that the dot's result
// is yielded back to, the loop carries it in #mma (the init converted
// before the loop, the result converted back after it), so that the loop
// body has no convert_layout of the accumulator. A loop flattened by
// tk-flatten-loops restarts the accumulator at each outer iteration,
// `acc = select(first, init, iter_arg)`: the select moves to #mma, and for
// wgmma with a zero init it becomes the dot's `useC = !first` (wgmma's
// scale-d), so that no instruction touches the accumulator registers of a
// wgmma that may still be in flight.
//
// Hopper (target sm_90a, unless the option mma-version=2 keeps mma.sync):
// a dot whose shapes fit wgmma becomes tkgpu.warp_group_dot with a #mma
// version 3 result and both operands in shared memory, read by the tensor
// cores through matrix descriptors (no local_load):
//   %a = local_alloc %x : memdesc<MxK, #nvmma_shared>   (likewise B)
//   fence_async_shared          // the stores are generic-proxy writes
//   %d = warp_group_dot %a, %b, %acc
// f16/bf16 with f32 accumulators; f32 with precision tf32, and fp8 (the
// frontend widens fp8 operands to f16; this looks through the widening),
// when both operands arrive K-contiguous (wgmma transposes 16-bit types
// only). An fp8 wgmma accumulates its K block from zero, and an f32 addf
// adds the block to the accumulator: wgmma's fp8 accumulation is not full
// f32, and cuBLAS promotes the same way.
// Warps: groups of 4 along M first, as Triton does: M takes twice the
// warps while 16 * warpsM < M, the rest go along N. Then M must be a multiple of
// 16 * warpsM (whole 64-row blocks per group) and N / warpsN >= 8; the
// instruction is m64nNk16 (k8 for tf32) with N = min(256, N / warpsN).
// The operand layouts (OperandLayouts.h) use the widest swizzle that the
// contiguous dimension of the tile (and of one instruction's operand, for
// M/N-contiguous tiles) divides. Dots that do not fit take mma.sync.
//
//===----------------------------------------------------------------------===//
#include "compiler/transforms/gpu/Passes.h"

#include "dialects/tkgpu/OperandLayouts.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Remarks.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::tkgpu {
#define GEN_PASS_DEF_TKGPUACCELERATEMATMUL
#include "compiler/transforms/gpu/Passes.h.inc"
} // namespace mlir::tkgpu

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

/// How a dot maps onto mma.sync, or nothing when it does not.
struct MmaPlan {
  unsigned kWidth = 0;
  bool splitTf32x3 = false;
  SmallVector<unsigned> warpsPerCTA;
};

/// warpsPerCTA (see the banner), or empty when some warp would get no
/// 16x8 tile.
SmallVector<unsigned> chooseWarpsPerCTA(int64_t m, int64_t n,
                                        unsigned numWarps) {
  unsigned wM = 1, wN = 1;
  while (wM * wN < numWarps) {
    int64_t tileM = m / wM, tileN = n / wN;
    bool splitM = tileM >= 32, splitN = tileN >= 16;
    if (splitM && (tileM >= tileN || !splitN))
      wM *= 2;
    else if (splitN)
      wN *= 2;
    else
      return {};
  }
  return {wM, wN};
}

/// See the banner (chained dots).
bool isChainedDot(tk::DotOp dot) {
  SetVector<Operation *> forward;
  getForwardSlice(dot.getD(), &forward);
  for (Operation *op : forward)
    if (auto user = dyn_cast<tk::DotOp>(op)) {
      Operation *a = user.getA().getDefiningOp();
      if (a && (a == dot.getOperation() || forward.contains(a)))
        return true;
    }
  SetVector<Operation *> backward;
  BackwardSliceOptions options;
  options.omitBlockArguments = true;
  (void)getBackwardSlice(dot.getA(), &backward, options);
  return llvm::any_of(backward,
                      [](Operation *op) { return isa<tk::DotOp>(op); });
}

bool isBlockedTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getRank() == 2 &&
         isa_and_nonnull<BlockedEncodingAttr>(tensor.getEncoding());
}

/// Element types in a message: "f16 x f16 -> f32".
std::string describeTypes(tk::DotOp dot, Type a, Type b) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << a << " x " << b << " -> "
     << cast<RankedTensorType>(dot.getC().getType()).getElementType();
  return text;
}

/// The mma.sync plan of `dot`, or nullopt with the reason in `why`.
std::optional<MmaPlan> planMma(tk::DotOp dot, unsigned numWarps,
                               std::string &why) {
  if (!isBlockedTensor(dot.getA().getType()) ||
      !isBlockedTensor(dot.getB().getType()) ||
      !isBlockedTensor(dot.getC().getType())) {
    why = "its operands are not 2-D blocked tensors";
    return std::nullopt;
  }
  auto aType = cast<RankedTensorType>(dot.getA().getType());
  auto bType = cast<RankedTensorType>(dot.getB().getType());
  auto cType = cast<RankedTensorType>(dot.getC().getType());
  Type element = aType.getElementType();
  Type acc = cType.getElementType();
  if (element != bType.getElementType()) {
    why = "its operand types differ (" +
          describeTypes(dot, element, bType.getElementType()) + ")";
    return std::nullopt;
  }

  MmaPlan plan;
  if ((element.isF16() || element.isBF16()) && acc.isF32()) {
    plan.kWidth = 2;
  } else if (element.isF32() && acc.isF32() &&
             dot.getPrecision() != tk::DotPrecision::IEEE) {
    plan.kWidth = 1;
    plan.splitTf32x3 = dot.getPrecision() == tk::DotPrecision::TF32x3;
  } else if (element.isInteger(8) && acc.isInteger(32)) {
    plan.kWidth = 4;
  } else {
    why = "mma.sync has no instruction for " +
          describeTypes(dot, element, element) +
          (element.isF32() ? " with input_precision=\"ieee\"" : "");
    return std::nullopt;
  }

  int64_t m = aType.getShape()[0], k = aType.getShape()[1],
          n = bType.getShape()[1];
  int64_t instrK = 8 * plan.kWidth;
  if (m < 16 || n < 8 || k < instrK) {
    why = llvm::formatv("the tile {0}x{1}x{2} is smaller than one "
                        "instruction (16x8x{3})",
                        m, n, k, instrK);
    return std::nullopt;
  }
  if (isChainedDot(dot) && m % (16 * numWarps) == 0)
    plan.warpsPerCTA = {numWarps, 1};
  else
    plan.warpsPerCTA = chooseWarpsPerCTA(m, n, numWarps);
  if (plan.warpsPerCTA.empty()) {
    why = llvm::formatv("{0} warps cannot each get a 16x8 tile of the "
                        "{1}x{2} result",
                        numWarps, m, n);
    return std::nullopt;
  }
  return plan;
}

/// The op before which the shared-memory staging of operand `x` of `dot`
/// goes: the outermost of the loops directly around the dot that `x` is
/// invariant in (see the banner), or the dot itself.
Operation *stagingPoint(Value x, tk::DotOp dot) {
  Operation *point = dot;
  for (Operation *parent = dot->getParentOp(); parent;
       parent = parent->getParentOp()) {
    auto loop = dyn_cast<LoopLikeOpInterface>(parent);
    if (!loop || !loop.isDefinedOutsideOfLoop(x))
      break;
    point = parent;
  }
  return point;
}

/// The data of dot operand `x` as it arrives: a conversion between blocked
/// layouts that only fed the dot is skipped, the data is stored in shared
/// memory in the layout it arrives in.
Value getOperandData(Value x) {
  if (auto cvt = x.getDefiningOp<ConvertLayoutOp>())
    if (isa_and_nonnull<BlockedEncodingAttr>(
            cast<RankedTensorType>(cvt.getSrc().getType()).getEncoding()))
      return cvt.getSrc();
  return x;
}

/// The dot operand `x` through shared memory: local_alloc (swizzled for
/// ldmatrix) and local_load into the dot_operand layout, before the loops
/// `x` is invariant in.
Value loadDotOperand(OpBuilder &b, Location loc, Value x, unsigned opIdx,
                     MmaEncodingAttr mma, unsigned kWidth, tk::DotOp dot) {
  x = getOperandData(x);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(stagingPoint(x, dot));
  auto type = cast<RankedTensorType>(x.getType());
  MLIRContext *ctx = b.getContext();
  auto operand = DotOperandEncodingAttr::get(ctx, opIdx, mma, kWidth);
  SharedEncodingAttr shared = getDotOperandSharedEncoding(
      operand, type.getShape(), type.getElementType(),
      getLayoutEncoding(type).getLayoutOrder());
  auto memType =
      MemDescType::get(ctx, type.getShape(), type.getElementType(), shared);
  Value buffer = LocalAllocOp::create(b, loc, memType, x);
  return LocalLoadOp::create(b, loc, withEncoding(type, operand), buffer);
}

/// x = big + small, big rounded to tf32 (see the banner).
std::pair<Value, Value> splitTf32(OpBuilder &b, Location loc, Value x) {
  auto type = cast<RankedTensorType>(x.getType());
  auto intType = RankedTensorType::get(type.getShape(), b.getI32Type(),
                                       type.getEncoding());
  auto splat = [&](int64_t value) {
    return arith::ConstantOp::create(
        b, loc, intType,
        DenseElementsAttr::get(intType, b.getI32IntegerAttr(value)));
  };
  Value bits = arith::BitcastOp::create(b, loc, intType, x);
  Value rounded = arith::AddIOp::create(b, loc, bits, splat(0x1000));
  Value bigBits =
      arith::AndIOp::create(b, loc, rounded, splat(int32_t(0xFFFFE000)));
  Value big = arith::BitcastOp::create(b, loc, type, bigBits);
  Value small = arith::SubFOp::create(b, loc, x, big);
  return {big, small};
}

/// Rewrites `dot` per `plan`; returns the new (last) dot in #mma.
tk::DotOp accelerate(tk::DotOp dot, const MmaPlan &plan) {
  OpBuilder b(dot);
  Location loc = dot.getLoc();
  MLIRContext *ctx = dot.getContext();
  auto mma = MmaEncodingAttr::get(ctx, 2, plan.warpsPerCTA, {16, 8});
  auto cType = cast<RankedTensorType>(dot.getC().getType());
  auto mmaType = withEncoding(cType, mma);

  Value a = loadDotOperand(b, loc, dot.getA(), 0, mma, plan.kWidth, dot);
  Value bOperand =
      loadDotOperand(b, loc, dot.getB(), 1, mma, plan.kWidth, dot);
  Value acc = ConvertLayoutOp::create(b, loc, mmaType, dot.getC());
  tk::DotPrecision precision = dot.getPrecision();
  tk::DotOp result;
  if (plan.splitTf32x3) {
    auto [aBig, aSmall] = splitTf32(b, loc, a);
    auto [bBig, bSmall] = splitTf32(b, loc, bOperand);
    precision = tk::DotPrecision::TF32;
    acc = tk::DotOp::create(b, loc, mmaType, aSmall, bBig, acc, precision);
    acc = tk::DotOp::create(b, loc, mmaType, aBig, bSmall, acc, precision);
    result = tk::DotOp::create(b, loc, mmaType, aBig, bBig, acc, precision);
  } else {
    result = tk::DotOp::create(b, loc, mmaType, a, bOperand, acc, precision);
  }
  Value back = ConvertLayoutOp::create(b, loc, cType, result.getD());
  dot.getD().replaceAllUsesWith(back);
  dot.erase();
  return result;
}

/// How a dot maps onto wgmma (see the banner).
struct WgmmaPlan {
  SmallVector<unsigned> warpsPerCTA;
  unsigned instrN = 0, instrK = 0;
  Value a, b; // the operands' data, as it arrives
  NvmmaSharedEncodingAttr aLayout, bLayout;
  /// fp8: the wgmma accumulates its K block from zero and the sum is added
  /// to the accumulator in f32 (see accelerateWgmma).
  bool addInF32 = false;
};

bool isFp8(Type type) { return isa<Float8E4M3FNType, Float8E5M2Type>(type); }

/// The fp8 block that `x` is the exact f16 widening of (the frontend's fp8
/// dot: truncf(extf(x8) to f32) to f16), or null.
Value getWidenedFp8(Value x) {
  auto trunc = x.getDefiningOp<arith::TruncFOp>();
  auto ext = trunc ? trunc.getIn().getDefiningOp<arith::ExtFOp>() : nullptr;
  if (!ext || !getElementTypeOrSelf(trunc.getType()).isF16() ||
      !isFp8(getElementTypeOrSelf(ext.getIn().getType())))
    return {};
  return ext.getIn();
}

/// The plan for `dot` with operand data `a` and `b`.
std::optional<WgmmaPlan> planWgmmaOn(tk::DotOp dot, Value a, Value b,
                                     unsigned numWarps, std::string &why) {
  WgmmaPlan plan;
  plan.a = a;
  plan.b = b;
  if (!isBlockedTensor(plan.a.getType()) ||
      !isBlockedTensor(plan.b.getType())) {
    why = "its operands are not 2-D blocked tensors";
    return std::nullopt;
  }
  auto aType = cast<RankedTensorType>(plan.a.getType());
  auto bType = cast<RankedTensorType>(plan.b.getType());
  Type element = aType.getElementType();
  Type acc = cast<RankedTensorType>(dot.getC().getType()).getElementType();
  bool f16 = (element.isF16() || element.isBF16()) && acc.isF32();
  bool tf32 = element.isF32() && acc.isF32() &&
              dot.getPrecision() == tk::DotPrecision::TF32;
  // e4m3 and e5m2 may meet in one wgmma.
  bool fp8 = isFp8(element) && isFp8(bType.getElementType()) && acc.isF32();
  if ((element != bType.getElementType() && !fp8) || (!f16 && !tf32 && !fp8)) {
    why = "wgmma has no instruction for " +
          describeTypes(dot, element, bType.getElementType()) +
          (element.isF32() ? " unless input_precision is \"tf32\"" : "");
    return std::nullopt;
  }

  int64_t m = aType.getShape()[0], k = aType.getShape()[1],
          n = bType.getShape()[1];
  unsigned wM = 4, wN = 1;
  while (wM * wN < numWarps) {
    if (16 * wM < m)
      wM *= 2;
    else
      wN *= 2;
  }
  unsigned bits = element.getIntOrFloatBitWidth();
  plan.instrK = 256 / bits;
  plan.addInF32 = fp8;
  if (m % (16 * wM) != 0 || n % wN != 0 || n / wN < 8 ||
      k % plan.instrK != 0) {
    why = llvm::formatv("the {0}x{1}x{2} tile does not split over {3}x{4} "
                        "warps (each needs 16 rows and 8 columns, and K a "
                        "multiple of {5})",
                        m, n, k, wM, wN, plan.instrK);
    return std::nullopt;
  }
  plan.warpsPerCTA = {wM, wN};
  plan.instrN = unsigned(std::min<int64_t>(256, n / wN));

  // M-contiguous A / N-contiguous B: one instruction reads 64 rows of A,
  // instrN columns of B along the contiguous dimension.
  SmallVector<unsigned> aOrder = getLayoutEncoding(aType).getLayoutOrder();
  SmallVector<unsigned> bOrder = getLayoutEncoding(bType).getLayoutOrder();
  int64_t bytes = bits / 8;
  plan.aLayout = getWgmmaOperandSharedEncoding(
      aType.getShape(), element, aOrder, aOrder[0] == 0 ? 64 * bytes : 0);
  plan.bLayout = getWgmmaOperandSharedEncoding(
      bType.getShape(), element, bOrder,
      bOrder[0] == 1 ? int64_t(plan.instrN) * bytes : 0);
  if (!plan.aLayout || !plan.bLayout ||
      !getWgmmaOperandAccess(plan.aLayout, aType.getShape(), 0) ||
      !getWgmmaOperandAccess(plan.bLayout, bType.getShape(), 1)) {
    // wgmma transposes only 16-bit operands in shared memory.
    if (bits != 16 && (aOrder[0] != 1 || bOrder[0] != 0))
      why = llvm::formatv("wgmma reads {0}-bit operands only K-contiguous "
                          "(A row-major, B column-major), and {1} is not",
                          bits, aOrder[0] != 1 ? "A" : "B");
    else
      why = "no shared-memory layout of its operands suits wgmma (tile "
            "shape or order)";
    return std::nullopt;
  }
  return plan;
}

std::optional<WgmmaPlan> planWgmma(tk::DotOp dot, unsigned numWarps,
                                   std::string &why) {
  if (!isBlockedTensor(dot.getC().getType())) {
    why = "its accumulator is not a 2-D blocked tensor";
    return std::nullopt;
  }
  if (numWarps % 4 != 0) {
    why = llvm::formatv("wgmma needs whole warp groups, and num_warps is "
                        "{0}",
                        numWarps);
    return std::nullopt;
  }
  Value a = getOperandData(dot.getA()), b = getOperandData(dot.getB());
  // An fp8 dot reads the fp8 data itself (k32, twice the f16 rate) when
  // both operands are K-contiguous, which wgmma requires of 8-bit types;
  // otherwise it stays the f16 dot it was widened to.
  Value a8 = getWidenedFp8(a), b8 = getWidenedFp8(b);
  if (a8 && b8)
    if (std::optional<WgmmaPlan> plan =
            planWgmmaOn(dot, a8, b8, numWarps, why))
      return plan;
  return planWgmmaOn(dot, a, b, numWarps, why);
}

/// Rewrites `dot` per `plan`; returns the warp_group_dot and the value
/// that replaces the dot's result (in #mma).
std::pair<WarpGroupDotOp, Value> accelerateWgmma(tk::DotOp dot,
                                                 const WgmmaPlan &plan) {
  OpBuilder b(dot);
  Location loc = dot.getLoc();
  MLIRContext *ctx = dot.getContext();
  auto mma = MmaEncodingAttr::get(ctx, 3, plan.warpsPerCTA,
                                  {16, plan.instrN, plan.instrK});
  auto cType = cast<RankedTensorType>(dot.getC().getType());
  auto mmaType = withEncoding(cType, mma);
  // Each operand is stored before the outermost loop it is invariant in
  // (attention's Q: once per program), followed by the proxy fence there;
  // one fence serves the operands stored at the dot.
  bool fenceAtDot = false;
  auto store = [&](Value x, NvmmaSharedEncodingAttr layout) -> Value {
    auto type = cast<RankedTensorType>(x.getType());
    auto memType =
        MemDescType::get(ctx, type.getShape(), type.getElementType(), layout);
    Operation *point = stagingPoint(x, dot);
    if (point == dot.getOperation()) {
      fenceAtDot = true;
      return LocalAllocOp::create(b, loc, memType, x);
    }
    OpBuilder staging(point);
    Value buffer = LocalAllocOp::create(staging, loc, memType, x);
    FenceAsyncSharedOp::create(staging, loc);
    return buffer;
  };
  Value a = store(plan.a, plan.aLayout);
  Value bOperand = store(plan.b, plan.bLayout);
  if (fenceAtDot)
    FenceAsyncSharedOp::create(b, loc);
  Value acc = ConvertLayoutOp::create(b, loc, mmaType, dot.getC());
  // fp8 wgmma does not keep full f32 precision while it accumulates (on
  // a 4096-long K, five times the error of cuBLAS's f16-rounded result).
  // So, as cuBLAS does by default and Triton with max_num_imprecise_acc,
  // each dot accumulates its own K block from zero (scale-d 0, nothing
  // read) and that block's sum is added to the accumulator with f32 adds.
  Value c = acc;
  if (plan.addInF32)
    c = arith::ConstantOp::create(
        b, loc, mmaType,
        DenseElementsAttr::get(mmaType, b.getFloatAttr(cType.getElementType(),
                                                       0.0)));
  auto result = WarpGroupDotOp::create(b, loc, mmaType, a, bOperand, c,
                                       /*isAsync=*/false);
  Value d = result.getD();
  if (plan.addInF32)
    d = arith::AddFOp::create(b, loc, acc, d);
  Value back = ConvertLayoutOp::create(b, loc, cType, d);
  dot.getD().replaceAllUsesWith(back);
  dot.erase();
  return {result, d};
}

/// If `acc` (the accumulator operand of the first dot of a chain, in #mma
/// behind a convert_layout) is an scf.for iter_arg whose yielded value is
/// the chain's `result` (converted back), makes the loop carry it in #mma.
/// The iter_arg may be behind a restart `select(first, init, iter_arg)`;
/// `wgmma` (the chain's dot, when it is one) then takes it as useC when
/// init is zero.
void carryAccumulatorInMma(Value acc, Value result,
                           WarpGroupDotOp wgmma = nullptr) {
  // acc = dot(.., .., cvt(iterArg)); yield cvt(result) at the same position.
  auto accCvt = acc.getDefiningOp<ConvertLayoutOp>();
  if (!accCvt)
    return;
  Value src = accCvt.getSrc();
  auto restart = src.getDefiningOp<arith::SelectOp>();
  if (restart && restart.getCondition().getType().isInteger(1) &&
      restart->hasOneUse())
    src = restart.getFalseValue();
  else
    restart = nullptr;
  auto iterArg = dyn_cast<BlockArgument>(src);
  if (!iterArg)
    return;
  auto forOp = dyn_cast<scf::ForOp>(iterArg.getOwner()->getParentOp());
  if (!forOp || iterArg.getArgNumber() < forOp.getNumInductionVars())
    return;
  unsigned index = iterArg.getArgNumber() - forOp.getNumInductionVars();
  auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
  auto yieldCvt = yield.getOperand(index).getDefiningOp<ConvertLayoutOp>();
  if (!yieldCvt || yieldCvt.getSrc() != result)
    return;

  Type mmaType = result.getType();
  Type oldType = iterArg.getType();
  Value loopResult = forOp.getResult(index);

  // Before the loop: the init in #mma.
  OpBuilder b(forOp);
  OpOperand &init = forOp.getInitArgsMutable()[index];
  init.set(ConvertLayoutOp::create(b, forOp.getLoc(), mmaType, init.get()));

  // In the body: the dot takes the iter_arg directly; other users see it
  // converted back.
  Operation *reader = restart ? restart.getOperation() : accCvt;
  SmallVector<OpOperand *> otherUses;
  for (OpOperand &use : iterArg.getUses())
    if (use.getOwner() != reader)
      otherUses.push_back(&use);
  iterArg.setType(mmaType);
  Value bodyAcc = iterArg;
  if (restart) {
    b.setInsertionPoint(accCvt);
    Location loc = restart.getLoc();
    Value first = restart.getCondition();
    if (wgmma && wgmma.getC() == accCvt.getResult() && !wgmma.getUseC() &&
        matchPattern(restart.getTrueValue(), m_AnyZeroFloat())) {
      Value one = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
      wgmma.getUseCMutable().assign(arith::XOrIOp::create(b, loc, first, one));
    } else {
      Value init =
          ConvertLayoutOp::create(b, loc, mmaType, restart.getTrueValue());
      bodyAcc = arith::SelectOp::create(b, loc, first, init, iterArg);
    }
  }
  accCvt.getResult().replaceAllUsesWith(bodyAcc);
  accCvt.erase();
  if (restart)
    restart.erase();
  if (!otherUses.empty()) {
    b.setInsertionPointToStart(forOp.getBody());
    Value old = ConvertLayoutOp::create(b, forOp.getLoc(), oldType, iterArg);
    for (OpOperand *use : otherUses)
      use->set(old);
  }
  yield->setOperand(index, result);
  if (yieldCvt->use_empty())
    yieldCvt.erase();

  // After the loop: the result converted back for its users.
  loopResult.setType(mmaType);
  if (!loopResult.use_empty()) {
    b.setInsertionPointAfter(forOp);
    Value old = ConvertLayoutOp::create(b, forOp.getLoc(), oldType, loopResult);
    loopResult.replaceAllUsesExcept(old, old.getDefiningOp());
  }
}

constexpr StringLiteral kRemarkCategory = "tensor-cores";

mlir::remark::detail::InFlightRemark remarkPassed(Location loc) {
  return mlir::remark::passed(
      loc, mlir::remark::RemarkOpts::name("DotOnTensorCores")
               .category(kRemarkCategory));
}

mlir::remark::detail::InFlightRemark remarkMissed(Location loc) {
  return mlir::remark::missed(
      loc, mlir::remark::RemarkOpts::name("DotNotOnTensorCores")
               .category(kRemarkCategory));
}

struct AccelerateMatmulPass
    : public tkgpu::impl::TkgpuAccelerateMatmulBase<AccelerateMatmulPass> {
  using TkgpuAccelerateMatmulBase::TkgpuAccelerateMatmulBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (getComputeCapability(getTarget(module)) < 80)
      return;
    unsigned numWarps = getNumWarps(module);
    if (numWarps == 0) {
      module.emitError("missing module attribute tkgpu.num_warps (run "
                       "convert-tk-to-tkgpu first)");
      return signalPassFailure();
    }
    bool hopper = getTarget(module) == "sm_90a" && mmaVersion != 2;
    SmallVector<tk::DotOp> dots;
    module.walk([&](tk::DotOp dot) { dots.push_back(dot); });
    for (tk::DotOp dot : dots) {
      // The rewrites erase the dot.
      Location loc = dot.getLoc();
      std::string wgmmaWhy;
      if (hopper) {
        if (std::optional<WgmmaPlan> plan =
                planWgmma(dot, numWarps, wgmmaWhy)) {
          auto [result, d] = accelerateWgmma(dot, *plan);
          if (plan->addInF32)
            carryAccumulatorInMma(d.getDefiningOp()->getOperand(0), d);
          else
            carryAccumulatorInMma(result.getC(), d, result);
          remarkPassed(loc)
              << llvm::formatv("dot on wgmma: m64n{0}k{1}, {2}x{3} warps",
                               plan->instrN, plan->instrK,
                               plan->warpsPerCTA[0], plan->warpsPerCTA[1])
                     .str();
          continue;
        }
      }
      std::string mmaWhy;
      std::optional<MmaPlan> plan = planMma(dot, numWarps, mmaWhy);
      if (!plan) {
        remarkMissed(loc) << "dot not on tensor cores: " << mmaWhy
                          << (hopper ? "; nor wgmma: " + wgmmaWhy
                                     : std::string())
                          << "; it runs as FMA on the CUDA cores";
        continue;
      }
      if (hopper)
        remarkMissed(loc) << "dot not on wgmma: " << wgmmaWhy
                          << "; it runs on mma.sync";
      else
        remarkPassed(loc) << llvm::formatv(
                                 "dot on mma.sync: k{0}, {1}x{2} warps",
                                 8 * plan->kWidth, plan->warpsPerCTA[0],
                                 plan->warpsPerCTA[1])
                                 .str();
      tk::DotOp result = accelerate(dot, *plan);
      // Through the chain of tf32x3 dots: the first one's accumulator.
      tk::DotOp first = result;
      while (auto prev = first.getC().getDefiningOp<tk::DotOp>())
        first = prev;
      carryAccumulatorInMma(first.getC(), result.getD());
    }
  }
};

} // namespace
