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

def TkFlattenLoops : Pass<"tk-flatten-loops", "::mlir::ModuleOp"> {
  let summary = "Flatten two-level loop nests that ask for it (range(flatten=True))";
  let description = [{
    An `scf.for` with `tk.flatten` that holds exactly one inner `scf.for`
    (bounds defined above the nest), preceded by memory-effect-free ops,
    becomes one loop over all (outer, inner) iteration pairs: the outer
    and inner induction variables are computed from the new one, the ops
    before the inner loop are recomputed in every iteration, the inner
    iter_args restart from their initial values at each outer iteration
    (a select), and the ops after the inner loop run under
    `inner iteration == last` in an scf.if. A run-time inner trip count of
    zero takes a copy of the nest without the inner loop. So the
    pipeliner runs ahead across outer iterations (a persistent matmul's
    next tile loads during this tile's epilogue). Other loops only lose
    the attribute.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def TkLowerTensorDescriptors
    : Pass<"tk-lower-tensor-descriptors", "::mlir::ModuleOp"> {
  let summary = "Tensor descriptor loads/stores as masked pointer loads/stores";
  let description = [{
    Rewrites tk.descriptor_load (out-of-bounds elements read 0) and
    tk.descriptor_store (out-of-bounds elements not written) into pointer
    blocks and masks, the path every target has. With `keep-host-tma`
    (sm_90a), the accesses that TMA can serve with a tensor map encoded on
    the host (tk::canUseHostTensorMap) are left for tkgpu-lower-tma.
  }];
  let options = [
    Option<"keepHostTma", "keep-host-tma", "bool", "false",
           "leave the accesses the TMA path takes (sm_90a)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

#endif // TK_TRANSFORMS_PASSES_TD
