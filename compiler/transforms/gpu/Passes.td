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

def TkgpuLowerTma : Pass<"tkgpu-lower-tma", "::mlir::ModuleOp"> {
  let summary = "Tensor descriptor loads/stores as TMA copies (sm_90a)";
  let description = [{
    Each tk.descriptor_load / tk.descriptor_store left by
    tk-lower-tensor-descriptors (keep-host-tma) becomes TMA ops on a
    hidden `!tkgpu.tensor_map` kernel parameter, listed in the kernel's
    `tk.tensor_maps` for the metadata (the runtime encodes it at launch).
    A load fills the nvmma_shared buffer its consumer stages it in (or one
    of its own, then local_load) through an mbarrier: init, expect-tx,
    the bulk tensor copy, wait on phase 0, inval. A store goes through a
    local_alloc of the value, the bulk tensor store and its wait.
  }];
  let dependentDialects = ["::mlir::tkgpu::TkgpuDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::tk::TkDialect"];
}

def TkgpuWarpSpecialize : Pass<"tkgpu-warp-specialize", "::mlir::ModuleOp"> {
  let summary = "Run a TMA loop's loads on a producer warp group";
  let description = [{
    A loop marked tk.warp_specialize (`range(..., warp_specialize=True)`)
    in tkgpu-lower-tma's form, directly in the kernel's body, becomes a
    tkgpu.warp_specialize: an extra warp group issues the TMA loads of
    every iteration into num_stages slots, the module's warps wait for
    each slot, run the dots and the rest of the kernel, and free the slot
    (full and empty mbarriers per slot). Marked loops one after another
    in the kernel's body (attention's two key loops) share one
    warp_specialize and one set of slots. Sets tkgpu.total_num_warps. A
    marked loop it cannot rewrite gets a warning and is left to
    tkgpu-pipeline. A loop's `tk.num_stages` overrides the option (the
    first marked loop's holds for the later ones).
  }];
  let options = [
    Option<"numStages", "num-stages", "unsigned", "3",
           "slots per loaded tile (at least 2 are used)">,
  ];
  let dependentDialects = ["::mlir::tkgpu::TkgpuDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def TkgpuPingPong : Pass<"tkgpu-pingpong", "::mlir::ModuleOp"> {
  let summary = "Make two consumer warp groups take turns at the tensor cores";
  let description = [{
    In a tkgpu.warp_specialize whose consumers are two warp groups, each
    top-level consumer loop with two or more warp_group_dots (attention's
    QK^T and P @ V) gets FlashAttention-3's ping-pong schedule: named
    barriers (tkgpu.named_barrier_sync/arrive, one per group) make the
    groups issue their dots in turn, from an iteration's last dot to the
    next iteration's first, so that one group's softmax runs while the
    other's dots do. Runs after tkgpu-membar, which places every CTA
    barrier: a loop that has one (or an op exchanging data through
    scratch memory) is left alone, and so is one whose first dot is
    carried to the next iteration (it already runs beside the loop's own
    softmax).
  }];
  let dependentDialects = ["::mlir::tkgpu::TkgpuDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def TkgpuPipeline : Pass<"tkgpu-pipeline", "::mlir::ModuleOp"> {
  let summary = "Multi-buffer the operand loads of dot loops with cp.async";
  let description = [{
    In scf.for loops whose tk.loads feed (through local_alloc/local_load)
    tk.dot, the loads become cp.async copies into num_stages-deep shared
    buffers, issued num_stages - 1 iterations ahead: a prologue fills the
    first num_stages - 1 slots, each iteration waits for its own slot
    (async_wait num_stages - 2), computes, then fetches iteration
    i + num_stages - 1, masked with `iteration < ub` so that any trip count
    works. The loop carries the fetched iteration's pointers and the slot
    indices. A loop's `tk.num_stages` attribute overrides the option;
    num_stages = 1, a non-zero `other`, or pieces narrower than 4 bytes
    leave the loop alone.
  }];
  let options = [
    Option<"numStages", "num-stages", "unsigned", "3",
           "buffers per operand (1: no pipelining)">,
  ];
  let dependentDialects = ["::mlir::tkgpu::TkgpuDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tk::TkDialect"];
}

def TkgpuPrefetch : Pass<"tkgpu-prefetch", "::mlir::ModuleOp"> {
  let summary = "Split mma dots into k-slices; load the first a loop ahead";
  let description = [{
    A tk.dot with an #mma result whose operands are whole-tile local_loads
    becomes a chain of dots over k-slices of one mma instruction's K, each
    operand slice a window local_load. In a loop whose operand tile is
    memdesc_index of a multi-buffer by an iter_arg (tkgpu-pipeline's form),
    and when nothing before the load in the body writes memory, the first
    slice is loaded before the loop and at the end of each iteration for
    the next, carried as an iter_arg. With `before-copies` (the default),
    in loops whose operands are f16 or bf16, that load is issued right
    after the body's last async_wait, ahead of the copies into the slot
    the iteration consumed (when the slots provably differ), so that ptxas
    can overlap it with the last slice's mma.sync.
  }];
  let options = [
    Option<"beforeCopies", "before-copies", "bool", /*default=*/"true",
           "Load the next iteration's first f16/bf16 slice right after the "
           "last async_wait, before the cp.async copies into another slot">,
  ];
  let dependentDialects = ["::mlir::tkgpu::TkgpuDialect",
                           "::mlir::scf::SCFDialect"];
}

def TkgpuSubtileTmaStores
    : Pass<"tkgpu-subtile-tma-stores", "::mlir::ModuleOp"> {
  let summary = "Stage TMA stores in column blocks through a small ring";
  let description = [{
    A TMA store of a 2-D tile staged by its own local_alloc becomes a store
    per column block: each block, picked from the tile's registers
    (extract_slice), is written into one of one or two ring slots and
    copied out by TMA, so that the staging needs one or two blocks of shared
    memory rather than the whole tile. Blocks are whole TMA boxes of the
    store's tensor map. With `chunks = 0`, only in functions that would not
    fit in their target's shared memory otherwise (blocks of one box, two
    slots); with `chunks = N`, every store that can be cut into N blocks;
    with `chunks = 1`, none.
  }];
  let options = [
    Option<"chunks", "chunks", "int64_t", /*default=*/"0",
           "Column blocks per TMA store (0: one box each, and only where "
           "the kernel would not fit in shared memory otherwise)">,
  ];
  let dependentDialects = ["::mlir::tkgpu::TkgpuDialect",
                           "::mlir::arith::ArithDialect"];
}

def TkgpuAllocateSharedMemory
    : Pass<"tkgpu-allocate-shared-memory", "::mlir::ModuleOp"> {
  let summary = "Assign shared-memory offsets to buffers and scratch";
  let description = [{
    Gives every local_alloc a byte offset (`tkgpu.offset`, i64) and every
    op implementing ScratchOpInterface with a nonzero size the offset of its
    scratch interval (`tkgpu.scratch_offset`, i64); allocations whose
    lifetimes do not overlap share bytes. Sets the module's
    `tkgpu.shared_bytes` (i32): the dynamic shared memory a launch needs.
    Buffers live from their local_alloc to their last use (through
    memdesc_index, loop-carried values and if results; a use inside a loop
    keeps the buffer for the whole loop), scratch only at its op.
  }];
  let dependentDialects = ["::mlir::tkgpu::TkgpuDialect"];
}

def TkgpuMembar : Pass<"tkgpu-membar", "::mlir::ModuleOp"> {
  let summary = "Insert barriers between conflicting shared-memory accesses";
  let description = [{
    Inserts `tkgpu.barrier` before an op whose shared-memory access
    (local_load/local_store/local_alloc with a value, async copies, scratch
    ops as a read and a write of their interval) overlaps an access of
    another kind since the last barrier (read after write, write after
    read, write after write), through scf.for, scf.while (to a fixed point
    over the back edge) and scf.if (both branches joined). Intervals come
    from tkgpu-allocate-shared-memory's attributes; an access whose
    interval is unknown counts as all of shared memory. Also places the
    proxy fences before TMA accesses of generically written bytes, and
    `async_tma_store_wait` before the first write of bytes a TMA store
    may still read and at the end of the function or partition.
  }];
  let dependentDialects = ["::mlir::tkgpu::TkgpuDialect"];
}

def TkgpuAccelerateMatmul
    : Pass<"tkgpu-accelerate-matmul", "::mlir::ModuleOp"> {
  let summary = "Put tk.dot on tensor cores (mma.sync on sm_80+, wgmma on sm_90a)";
  let description = [{
    On targets sm_80 and newer, a tk.dot with blocked operands (f16/bf16
    with an f32 accumulator, f32 with precision tf32 or tf32x3, i8 with an
    i32 accumulator) gets an #tkgpu.mma accumulator and result, and its
    operands go through shared memory: local_alloc in a swizzled shared
    layout, local_load into #tkgpu.dot_operand. tf32x3 becomes three tf32
    dots on split operands. A loop-carried accumulator is carried in #mma.
    Other dots (ieee, f64, f16 accumulators, too small) are left as they
    are. On sm_90a, dots whose shapes fit wgmma (f16/bf16, tf32 with
    K-contiguous operands; M a multiple of 64 per warp group, N at least 8
    per warp group) become tkgpu.warp_group_dot (#mma version 3) with both
    operands in #tkgpu.nvmma_shared buffers; `mma-version=2` keeps the
    mma.sync path there.
  }];
  let options = [
    Option<"mmaVersion", "mma-version", "unsigned", "0",
           "0: the best the target has; 2: mma.sync even on sm_90a">,
  ];
  let dependentDialects = ["::mlir::tkgpu::TkgpuDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def TkgpuDeferRowSums : Pass<"tkgpu-defer-row-sums", "::mlir::ModuleOp"> {
  let summary = "Carry a loop's running row sum per lane, reduce it once after";
  let description = [{
    For an scf.for iter_arg `l` used only by `l * alpha + sum(p, 1)`
    (yielded back; the online softmax's row sum), with `p` an f32 tensor
    in an mma layout of N >= 16 columns (N a multiple of 8, warps along
    the rows only): the loop carries M x 8 partial sums in the mma layout
    of 8-column instructions instead, updated with `p`'s 8-column blocks
    added in registers (no shuffles), and `sum(partial, 1)` after the
    loop replaces its result. The loop starts from l0 / 8 per column.
    A loop that carries a dot computed afresh in each iteration
    (attention's AHEAD order) is left alone: there the partial sums'
    registers were measured to spill.
  }];
  let dependentDialects = ["::mlir::tkgpu::TkgpuDialect",
                           "::mlir::tk::TkDialect",
                           "::mlir::arith::ArithDialect"];
}

def TkgpuOperandsInRegisters
    : Pass<"tkgpu-operands-in-registers", "::mlir::ModuleOp"> {
  let summary = "Feed register tensors to dots without shared memory";
  let description = [{
    local_load(local_alloc(x)) into a dot-operand layout becomes
    convert_layout(x) when the LinearLayouts say that every thread already
    holds the operand elements it needs (equal lane and warp bases, operand
    registers a subset of x's): e.g. an mma.sync v2 accumulator in f16
    (attention's P) as the A operand of the next mma with the same warps.
    Likewise a warp_group_dot whose A is a local_alloc of such a tensor
    takes it in registers (wgmma's register A, #dot_operand of the #mma v3
    result). The conversion lowers to register moves only.
  }];
  let dependentDialects = ["::mlir::tkgpu::TkgpuDialect"];
}

def TkgpuInvariantOperandsInRegisters
    : Pass<"tkgpu-invariant-operands-in-registers", "::mlir::ModuleOp"> {
  let summary = "Load a loop-invariant wgmma A operand into registers once";
  let description = [{
    In an scf.for, a warp_group_dot whose A is a 16-bit shared buffer that
    the loop neither defines nor writes (attention's Q) reads it from a
    local_load into #dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
    placed right before the (outermost such) loop: wgmma then reads only B
    from shared memory (an m64n64k16 with both operands there takes all of
    an SM's shared-memory bandwidth). The copy costs registers for the
    whole loop: `always` loads every such operand; `automatic` only where
    the loop's estimated peak of live registers plus the copy fits the
    partition's registers and the loop's dots read B from at least three
    slots (what the H200 measurements favoured); `report` emits each
    automatic decision as a remark.
  }];
  let options = [
    Option<"always", "always", "bool", "false",
           "load every loop-invariant 16-bit wgmma A operand into registers">,
    Option<"automatic", "automatic", "bool", "false",
           "load one where the registers fit and B has three or more slots">,
    Option<"report", "report", "bool", "false",
           "emit each automatic decision as a remark">,
  ];
  let dependentDialects = ["::mlir::tkgpu::TkgpuDialect"];
}

#endif // TK_TRANSFORMS_GPU_PASSES_TD
