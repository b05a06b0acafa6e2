//===- BalanceExp2.cpp - tkgpu-balance-exp2 -------------------------------===//
//
// Attention's softmax takes one exp2 per score, and the score costs the
// tensor cores 4 * HEAD_DIM FLOPs (Q K^T and P @ V). An H100/H200 SM does
// 4096 dense f16 FLOPs per clock but only 16 MUFU.EX2 per clock, so at
// HEAD_DIM 64 the exponentials take exactly as long as the MMAs and
// nothing schedules the MMAs to full speed (docs/benchmarks.md). The FMA
// units (128 per clock) are idle meanwhile: FlashAttention-4's answer,
// which this pass gives the compiler, is to compute some of the
// exponentials as a polynomial on them.
//
// The pass only decides; convert-tkgpu-to-llvm does the arithmetic. A
// `math.exp2` whose result is an #mma tile (the scores of a tensor-core
// loop) gets the attribute `tkgpu.exp2_fma_every = N`; the elementwise
// lowering then computes every N-th of each thread's elements (register
// N-1, 2N-1, ...) with 2^x = 2^floor(x) * p(x - floor(x)), p a cubic (see
// MathOpToLlvm.cpp), and the others with ex2.approx as before.
//
// Which loops: the MUFU share of a loop is 256 * E / F, E the exp2
// elements and F the MMA FLOPs per iteration (4096 / 16 = 256 FLOPs per
// exp2 keep both units equally busy). Where it reaches 1 (attention at
// HEAD_DIM 64, F / E = 256), the pass moves 1 of every `kAutoEvery`
// exponentials to the FMA units; below it the MUFU has slack and the
// polynomial (nine instructions for one) would only cost issue slots.
// The option `every` forces N on every such exp2 (0: none), for
// measurements (tkc --exp2-fma-every).
//
//===----------------------------------------------------------------------===//
#include "compiler/transforms/gpu/Passes.h"

#include "dialects/tk/TkDialect.h"
#include "dialects/tkgpu/TkgpuDialect.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::tkgpu {
#define GEN_PASS_DEF_TKGPUBALANCEEXP2
#include "compiler/transforms/gpu/Passes.h.inc"
} // namespace mlir::tkgpu

using namespace mlir;
using namespace mlir::tkgpu;

namespace {

/// MMA FLOPs per exp2 at which MUFU and tensor cores are equally loaded
/// (sm_90: 4096 dense FLOPs and 16 MUFU.EX2 per SM per clock).
constexpr int64_t kBalancedFlopsPerExp2 = 256;
/// One exp2 in kAutoEvery goes to the FMA units where the MUFU is the
/// bottleneck.
constexpr int64_t kAutoEvery = 4;

bool isMmaTile(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getRank() == 2 &&
         isa_and_nonnull<MmaEncodingAttr>(tensor.getEncoding());
}

int64_t product(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

/// 2 * M * N * K of a tensor-core dot, 0 for any other op.
int64_t mmaFlops(Operation *op) {
  auto flops = [](RankedTensorType d, ArrayRef<int64_t> b) {
    return isMmaTile(d) ? 2 * product(d.getShape()) * b[0] : 0;
  };
  if (auto dot = dyn_cast<WarpGroupDotOp>(op))
    return flops(dot.getType(), dot.getB().getType().getShape());
  if (auto dot = dyn_cast<tk::DotOp>(op))
    return flops(dot.getType(), dot.getB().getType().getShape());
  return 0;
}

struct BalanceExp2Pass
    : public tkgpu::impl::TkgpuBalanceExp2Base<BalanceExp2Pass> {
  using TkgpuBalanceExp2Base::TkgpuBalanceExp2Base;

  void runOnOperation() override {
    Builder builder(&getContext());
    getOperation().walk([&](scf::ForOp loop) {
      SmallVector<math::Exp2Op> exps;
      int64_t expElements = 0, flops = 0;
      for (Operation &op : loop.getBody()->without_terminator()) {
        flops += mmaFlops(&op);
        auto exp = dyn_cast<math::Exp2Op>(op);
        if (exp && isMmaTile(exp.getType())) {
          exps.push_back(exp);
          expElements +=
              product(cast<RankedTensorType>(exp.getType()).getShape());
        }
      }
      if (exps.empty())
        return;
      int64_t n = every;
      if (n < 0)
        n = flops > 0 && kBalancedFlopsPerExp2 * expElements >= flops
                ? kAutoEvery
                : 0;
      if (n == 0)
        return;
      for (math::Exp2Op exp : exps)
        exp->setAttr(kExp2FmaEveryAttr, builder.getI32IntegerAttr(n));
    });
  }
};

} // namespace
