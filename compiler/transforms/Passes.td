//===- Passes.td - passes on the tk dialect ----------------*- tablegen -*-===//
#ifndef TK_TRANSFORMS_PASSES_TD
#define TK_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TkCombine : Pass<"tk-combine", "::mlir::ModuleOp"> {
  let summary = "Algebraic rewrites on tk ops";
  let description = [{
    Folds patterns the frontend produces naturally:
    - addptr(addptr(p, a), b) -> addptr(p, a + b)
    - broadcast(splat(x)) -> splat(x)
    - select(m, load(p, mask=m), o) -> load(p, mask=m, other=o)
    - dot(a, b, zeros) + c -> dot(a, b, c)
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TkUnrollLoops : Pass<"tk-unroll-loops", "::mlir::ModuleOp"> {
  let summary = "Unroll the loops that ask for it (range(loop_unroll_factor=))";
  let description = [{
    Every `scf.for` with a `tk.loop_unroll_factor` above 1 is unrolled by
    that factor: the body repeated, the step multiplied, and a remainder
    loop for the iterations left over when the trip count is not a known
    multiple of the factor. The attribute is removed; `tk.num_stages` stays
    on the main loop for the pipeliner.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // TK_TRANSFORMS_PASSES_TD
