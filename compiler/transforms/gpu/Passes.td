//===- Passes.td - passes that produce and optimize tkgpu --*- tablegen -*-===//
#ifndef TK_TRANSFORMS_GPU_PASSES_TD
#define TK_TRANSFORMS_GPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTkToTkgpu : Pass<"convert-tk-to-tkgpu", "::mlir::ModuleOp"> {
  let summary = "Give every tensor a blocked layout (tk -> tkgpu)";
  let description = [{
    Every tensor gets the default blocked layout for its shape (sizePerThread
    1, lanes and warps spread fastest dimension first, row-major order).
    Reductions produce a slice of their operand's layout; expand_dims takes a
    slice of its result's layout. Where a value's layout differs from what
    its user needs, a tkgpu.convert_layout is inserted (later passes remove
    most of them). Sets the module attributes tkgpu.num_warps,
    tkgpu.threads_per_warp and tkgpu.target.
  }];
  let options = [
    Option<"numWarps", "num-warps", "unsigned", "4", "warps per CTA">,
    Option<"threadsPerWarp", "threads-per-warp", "unsigned", "32",
           "threads per warp">,
    Option<"target", "target", "std::string", "\"sm_90a\"",
           "GPU architecture, e.g. sm_90a or sm_80">,
  ];
  let dependentDialects = ["::mlir::tkgpu::TkgpuDialect"];
}

def TkgpuCoalesce : Pass<"tkgpu-coalesce", "::mlir::ModuleOp"> {
  let summary = "Give memory accesses layouts for wide, coalesced accesses";
  let description = [{
    For each load, store and atomic on a pointer tensor, picks a blocked
    layout whose order starts with the pointer's most contiguous dimension
    and whose sizePerThread along it is min(contiguity/alignment, 128 bits,
    elements per thread), so that each thread issues 128-bit vector accesses
    where the axis info allows and adjacent lanes touch adjacent vectors.
    The op is rewritten in that layout with convert_layout ops around it.
  }];
  let dependentDialects = ["::mlir::tkgpu::TkgpuDialect"];
}

def TkgpuRemoveLayoutConversions
    : Pass<"tkgpu-remove-layout-conversions", "::mlir::ModuleOp"> {
  let summary = "Remove convert_layout ops by propagating layouts";
  let description = [{
    Folds chains of conversions, rematerializes cheap producers (constants,
    splat, make_range and elementwise/shape ops over them) directly in the
    layout a conversion asks for, and moves conversions past elementwise
    ops, reductions and expand_dims/broadcast towards the memory ops whose
    layouts coalescing chose, where they cancel. Loop-carried tensors that
    the body converts for a memory op (advancing pointers) are carried in
    that op's layout.
  }];
  let dependentDialects = ["::mlir::tkgpu::TkgpuDialect"];
}

def TkTestPrintAxisInfo : Pass<"tk-test-print-axis-info", "::mlir::ModuleOp"> {
  let summary = "Print the axis info of every integer/pointer value (tests)";
  let description = [{
    Emits a remark on each op result: `contiguity = [..], divisibility =
    [..], constancy = [..], constant = N`, for lit tests of the analysis.
  }];
}

def TkgpuAccelerateMatmul
    : Pass<"tkgpu-accelerate-matmul", "::mlir::ModuleOp"> {
  let summary = "Put tk.dot on mma.sync tensor cores (sm_80+)";
  let description = [{
    On targets sm_80 and newer, a tk.dot with blocked operands (f16/bf16
    with an f32 accumulator, f32 with precision tf32 or tf32x3, i8 with an
    i32 accumulator) gets an #tkgpu.mma accumulator and result, and its
    operands go through shared memory: local_alloc in a swizzled shared
    layout, local_load into #tkgpu.dot_operand. tf32x3 becomes three tf32
    dots on split operands. A loop-carried accumulator is carried in #mma.
    Other dots (ieee, f64, f16 accumulators, too small) are left as they
    are.
  }];
  let dependentDialects = ["::mlir::tkgpu::TkgpuDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // TK_TRANSFORMS_GPU_PASSES_TD
