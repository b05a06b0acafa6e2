//===- UnrollLoops.cpp - range(loop_unroll_factor=N) ----------------------===//
//
// The frontend records `range(..., loop_unroll_factor=N)` as
// `tk.loop_unroll_factor = N` on the scf.for. This pass unrolls each such
// loop by N with MLIR's loopUnrollByFactor: the main loop runs the body N
// times per iteration with an N-times step, and a remainder loop (or, for
// a constant trip count, straight-line copies) covers the iterations left.
// Loops are visited innermost first, so an outer loop repeats its already
// unrolled inner loops. A factor of 1 only drops the attribute, and so
// does a loop over unsigned bounds (the unroller's trip-count arithmetic is
// signed).
//
//===----------------------------------------------------------------------===//
#include "compiler/transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"

namespace mlir::tk {
#define GEN_PASS_DEF_TKUNROLLLOOPS
#include "compiler/transforms/Passes.h.inc"
} // namespace mlir::tk

using namespace mlir;

namespace {

constexpr StringLiteral kUnrollFactorAttr = "tk.loop_unroll_factor";

struct TkUnrollLoopsPass
    : public tk::impl::TkUnrollLoopsBase<TkUnrollLoopsPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    // Post-order: inner loops first.
    getOperation().walk([&](scf::ForOp loop) {
      if (loop->hasAttr(kUnrollFactorAttr))
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops) {
      auto factor = loop->getAttrOfType<IntegerAttr>(kUnrollFactorAttr);
      loop->removeAttr(kUnrollFactorAttr);
      // loopUnrollByFactor computes trip counts signed; loops over unsigned
      // bounds stay as they are.
      if (!factor || factor.getInt() <= 1 || loop.getUnsignedCmp())
        continue;
      if (failed(mlir::loopUnrollByFactor(loop, factor.getInt()))) {
        loop.emitError("cannot unroll this loop by ")
            << factor.getInt() << " (loop_unroll_factor)";
        return signalPassFailure();
      }
    }
  }
};

} // namespace
