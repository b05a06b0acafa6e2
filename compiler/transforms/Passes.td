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

#endif // TK_TRANSFORMS_PASSES_TD
