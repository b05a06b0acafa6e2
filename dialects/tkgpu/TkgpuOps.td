//===- TkgpuOps.td - tkgpu operations ----------------------*- tablegen -*-===//
#ifndef TKGPU_OPS_TD
#define TKGPU_OPS_TD

include "TkgpuDialect.td"
include "TkgpuTypes.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/ViewLikeInterface.td"

// Shared memory as one side-effect resource, so that loads and stores of
// it are ordered against each other but not against global memory.
def Tkgpu_SharedMemory : Resource<"::mlir::tkgpu::SharedMemory">;

def Tkgpu_Tensor : RankedTensorOf<[AnyType]>;

def Tkgpu_ConvertLayoutOp : Tkgpu_Op<"convert_layout", [Pure,
    SameOperandsAndResultShape, SameOperandsAndResultElementType]> {
  let summary = "the same tensor in another layout";
  let description = [{
    Moves data between threads (shuffles or shared memory) so that the
    result holds the source's elements in the result type's encoding.
  }];
  let arguments = (ins Tkgpu_Tensor:$src);
  let results = (outs Tkgpu_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tkgpu_ExtractSliceOp : Tkgpu_Op<"extract_slice", [Pure,
    SameOperandsAndResultElementType]> {
  let summary = "a static window of a register tensor";
  let description = [{
    The result is src[offsets : offsets + shape(result)]. Each offset is a
    multiple of the result's extent in its dimension. The lowering only
    picks registers: the threads holding an element of the window in the
    result layout must hold it in the source layout (tkgpu-prefetch uses
    it for K-slices of a dot operand computed in registers); otherwise
    the lowering reports the op as unsupported.
  }];
  let arguments = (ins Tkgpu_Tensor:$src, DenseI64ArrayAttr:$offsets);
  let results = (outs Tkgpu_Tensor:$result);
  let assemblyFormat =
      "$src `at` $offsets attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tkgpu_LocalAllocOp : Tkgpu_Op<"local_alloc", [
    MemoryEffects<[MemAlloc<Tkgpu_SharedMemory>]>]> {
  let summary = "allocate a shared-memory buffer, optionally filled";
  let arguments = (ins Optional<Tkgpu_Tensor>:$src);
  let results = (outs Tkgpu_MemDescType:$result);
  let assemblyFormat = [{
    ($src^ `:` type($src) `->`)? attr-dict qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Tkgpu_LocalDeallocOp : Tkgpu_Op<"local_dealloc", [
    MemoryEffects<[MemFree<Tkgpu_SharedMemory>]>]> {
  let summary = "end the lifetime of a shared-memory buffer";
  let arguments = (ins Tkgpu_MemDescType:$buffer);
  let assemblyFormat = "$buffer attr-dict `:` qualified(type($buffer))";
}

def Tkgpu_LocalLoadOp : Tkgpu_Op<"local_load", [
    MemoryEffects<[MemRead<Tkgpu_SharedMemory>]>]> {
  let summary = "read a shared-memory buffer, or a window of it, into a "
                "distributed tensor";
  let description = [{
    `%t = tkgpu.local_load %buf : !tkgpu.memdesc<128x32xf16, #shared> ->
    tensor<128x32xf16, #l>` reads the whole buffer.

    With `offsets`, the result is the window of the result's shape that
    starts at those element offsets:
    `tkgpu.local_load %buf at [0, 16] : !tkgpu.memdesc<128x32xf16, #shared> ->
    tensor<128x16xf16, #dot_op>` reads columns 16-31 (`tkgpu-prefetch`
    splits a dot's K this way). Each offset is a multiple of the window's
    extent in its dimension, so the window's index bits and the offset's
    bits are disjoint: the element at window index i lives where the
    buffer's layout puts `i xor offsets`, which the lowering folds into
    its constant per-register part.
  }];
  let arguments = (ins Tkgpu_MemDescType:$buffer,
                       OptionalAttr<DenseI64ArrayAttr>:$offsets);
  let results = (outs Tkgpu_Tensor:$result);
  let assemblyFormat = [{
    $buffer (`at` $offsets^)? attr-dict `:` qualified(type($buffer)) `->`
    type($result)
  }];
  let hasVerifier = 1;
}

def Tkgpu_LocalStoreOp : Tkgpu_Op<"local_store", [
    MemoryEffects<[MemWrite<Tkgpu_SharedMemory>]>]> {
  let summary = "write a distributed tensor into a shared-memory buffer";
  let arguments = (ins Tkgpu_Tensor:$src, Tkgpu_MemDescType:$buffer);
  let assemblyFormat = [{
    $src `,` $buffer attr-dict `:` type($src) `->` qualified(type($buffer))
  }];
  let hasVerifier = 1;
}

def Tkgpu_MemDescIndexOp : Tkgpu_Op<"memdesc_index", [Pure,
    DeclareOpInterfaceMethods<ViewLikeOpInterface>]> {
  let summary = "one buffer of a multi-buffered shared-memory allocation";
  let description = [{
    `%slot = tkgpu.memdesc_index %buffers[%i] : !tkgpu.memdesc<3x64x32xf16,
    #shared3> -> !tkgpu.memdesc<64x32xf16, #shared>`

    The buffer at index `i` of the leading dimension: the pipeliner's
    `num_stages` copies of an operand tile live in one allocation. The
    result's shared layout is the source's without the leading dimension
    (which must be the slowest one).
  }];
  let arguments = (ins Tkgpu_MemDescType:$src, I32:$index);
  let results = (outs Tkgpu_MemDescType:$result);
  let assemblyFormat = [{
    $src `[` $index `]` attr-dict `:` qualified(type($src)) `->`
    qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Tkgpu_MemDescTransOp : Tkgpu_Op<"memdesc_trans", [Pure,
    DeclareOpInterfaceMethods<ViewLikeOpInterface>]> {
  let summary = "a shared-memory buffer seen with its dimensions permuted";
  let description = [{
    `%kt = tkgpu.memdesc_trans %k {order = array<i32: 1, 0>} :
    !tkgpu.memdesc<128x64xf16, #tkgpu.nvmma_shared<{..., order = [1, 0]}>>
    -> !tkgpu.memdesc<64x128xf16, #tkgpu.nvmma_shared<{..., order = [0, 1]}>>`

    The same bytes: result dimension i is source dimension order[i], and
    the shared layout's order names the permuted dimensions, so the
    contiguous dimension stays the same in memory. tkgpu-lower-tma uses it
    when a TMA-loaded tile reaches a wgmma transposed (attention's K for
    Q K^T, fp8's B stored N x K): the copy writes the tile as it is in
    global memory and wgmma reads it through this view, K-major. The
    lowering returns the source's address.
  }];
  let arguments = (ins Tkgpu_MemDescType:$src, DenseI32ArrayAttr:$order);
  let results = (outs Tkgpu_MemDescType:$result);
  let assemblyFormat = [{
    $src attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$src, "::llvm::ArrayRef<int32_t>":$order)>
  ];
  let hasVerifier = 1;
}

def Tkgpu_BarrierOp : Tkgpu_Op<"barrier", [
    MemoryEffects<[MemRead<Tkgpu_SharedMemory>,
                   MemWrite<Tkgpu_SharedMemory>]>]> {
  let summary = "synchronize the threads of the CTA (bar.sync 0)";
  let description = [{
    Placed by `tkgpu-membar` between two accesses to overlapping shared
    memory that different threads could otherwise race on.
  }];
  let assemblyFormat = "attr-dict";
}

def Tkgpu_AsyncCopyGlobalToLocalOp
    : Tkgpu_Op<"async_copy_global_to_local", [
        MemoryEffects<[MemRead<DefaultResource>,
                       MemWrite<Tkgpu_SharedMemory>]>,
        AttrSizedOperandSegments]> {
  let summary = "start copying a tile from global to shared memory (cp.async)";
  let description = [{
    Each thread copies the elements its layout (of `ptr`) gives it from
    global memory into `buffer`, asynchronously: `cp.async.cg` for 16-byte
    pieces, `.ca` for 4 and 8 bytes. Lanes whose `mask` is false write zeros
    (`other` must be absent or zero). The copies of a thread complete, in
    groups, at the `async_wait` that waits for their group
    (`async_commit_group` closes a group); other threads see them only
    after a barrier.
  }];
  let arguments = (ins Tkgpu_Tensor:$ptr, Tkgpu_MemDescType:$buffer,
                   Optional<Tkgpu_Tensor>:$mask,
                   Optional<Tkgpu_Tensor>:$other);
  let assemblyFormat = [{
    $ptr `,` $buffer (`mask` $mask^)? (`other` $other^)? attr-dict `:`
    type($ptr) `->` qualified(type($buffer)) (`,` type($mask)^)?
    (`,` type($other)^)?
  }];
  let hasVerifier = 1;
}

def Tkgpu_AsyncCommitGroupOp : Tkgpu_Op<"async_commit_group", [
    MemoryEffects<[MemWrite<Tkgpu_SharedMemory>]>]> {
  let summary = "close the group of this thread's pending async copies";
  let description = [{ `cp.async.commit_group`. }];
  let assemblyFormat = "attr-dict";
}

def Tkgpu_AsyncWaitOp : Tkgpu_Op<"async_wait", [
    MemoryEffects<[MemRead<Tkgpu_SharedMemory>,
                   MemWrite<Tkgpu_SharedMemory>]>]> {
  let summary = "wait until at most `num` groups of async copies are pending";
  let description = [{
    `cp.async.wait_group num`: the calling thread's copies of all but the
    `num` most recent groups have landed in shared memory.
  }];
  let arguments = (ins I32Attr:$num);
  let assemblyFormat = "$num attr-dict";
}

//===----------------------------------------------------------------------===//
// Hopper tensor cores (wgmma)
//===----------------------------------------------------------------------===//

def Tkgpu_WarpGroupDotOp : Tkgpu_Op<"warp_group_dot", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    AllTypesMatch<["c", "d"]>]> {
  let summary = "d = a * b + c on wgmma (Hopper tensor cores)";
  let description = [{
    `%d = tkgpu.warp_group_dot %a, %b, %c {isAsync} : !tkgpu.memdesc<128x64xf16,
    #nvmma> * !tkgpu.memdesc<64x128xf16, #nvmma1> -> tensor<128x128xf32, #mma>`

    Each warp group issues `wgmma.mma_async` m64nNkK instructions for its
    part of `d` (the #mma version 3 layout). B is read from shared memory
    (an #tkgpu.nvmma_shared buffer) through matrix descriptors; A either
    from shared memory the same way, or from registers (a tensor in the
    #dot_operand opIdx 0 layout of `d`'s layout). The shared-memory reads
    are asynchronous: with `isAsync`, the instructions are committed as one
    wgmma group and `d` may be used only after a `warp_group_dot_wait`
    that covers the group (and the buffers must not be overwritten before
    it); without, the op waits for its own group. f16/bf16 operands with an
    f32 accumulator, f32 operands (computed as tf32).

    `useC %p` (an i1, optional): when false, `d = a * b` and `c` is not
    read (wgmma's scale-d predicate, a run-time value): a flattened
    persistent loop restarts its accumulator at each tile this way, without
    touching the registers of a wgmma in flight.
  }];
  let arguments = (ins AnyTypeOf<[Tkgpu_MemDescType, Tkgpu_Tensor]>:$a,
                   Tkgpu_MemDescType:$b, Tkgpu_Tensor:$c,
                   Optional<I1>:$useC, UnitAttr:$isAsync);
  let results = (outs Tkgpu_Tensor:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c (`useC` $useC^)? attr-dict `:` qualified(type($a)) `*`
    qualified(type($b)) `->` type($d)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Type":$d, "::mlir::Value":$a, "::mlir::Value":$b,
                   "::mlir::Value":$c, "bool":$isAsync), [{
      build($_builder, $_state, d, a, b, c, ::mlir::Value(), isAsync);
    }]>,
  ];
  let hasVerifier = 1;
}

def Tkgpu_WarpGroupDotWaitOp : Tkgpu_Op<"warp_group_dot_wait", [
    MemoryEffects<[MemRead<Tkgpu_SharedMemory>]>,
    AllTypesMatch<["inputs", "outputs"]>]> {
  let summary = "wait until at most `pendings` wgmma groups are in flight";
  let description = [{
    `%d2 = tkgpu.warp_group_dot_wait %d {pendings = 1 : i32} : tensor<...>`

    `wgmma.wait_group pendings`: every warp_group_dot of the calling warp
    group but the `pendings` most recent ones has completed, its shared
    memory reads included. The results are the inputs (results of async
    warp_group_dots), usable from here on.
  }];
  let arguments = (ins Variadic<Tkgpu_Tensor>:$inputs, I32Attr:$pendings);
  let results = (outs Variadic<Tkgpu_Tensor>:$outputs);
  let assemblyFormat = "$inputs attr-dict `:` type($inputs)";
}

def Tkgpu_FenceAsyncSharedOp : Tkgpu_Op<"fence_async_shared", [
    MemoryEffects<[MemWrite<Tkgpu_SharedMemory>]>]> {
  let summary = "order this thread's shared-memory writes before async-proxy reads";
  let description = [{
    `fence.proxy.async.shared::cta`: wgmma reads shared memory through the
    async proxy; data written there by ordinary stores or cp.async must be
    fenced by the writing thread (then a barrier) before a wgmma reads it.
  }];
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Warp specialization
//===----------------------------------------------------------------------===//

def Tkgpu_WarpSpecializeOp : Tkgpu_Op<"warp_specialize", [
    RecursiveMemoryEffects, NoRegionArguments]> {
  let summary = "a producer warp group beside the module's compute warps";
  let description = [{
    ```
    tkgpu.warp_specialize producer(registers = 40) {
      ... tkgpu.warp_yield
    } consumer(registers = 232) {
      ... tkgpu.warp_yield
    }
    ```

    The program runs with one warp group more than `tkgpu.num_warps`
    (the module's `tkgpu.total_num_warps`). The compute warps, 0 to
    num_warps - 1, run the `consumer` region: every tensor of the module
    is laid out over them, and their CTA barriers become the named
    barrier 1 over num_warps * 32 threads. The extra warp group runs the
    `producer` region: it holds no tensors, only scalars, mbarrier
    operations and TMA copies, which its first thread (num_warps * 32)
    issues; its first warp runs the region, the other three only give
    their registers back. On entry each partition sets its register limit
    (`setmaxnreg`: the producer lowers its own, the consumers raise
    theirs with what it gave back); the producer's mbarriers are the only
    synchronisation between the two. Both regions end with
    `tkgpu.warp_yield`, after which each thread continues after the op.
    The op sits in the kernel's body, once.

    The producer region comes first: in program order (what shared-memory
    liveness counts, compiler/analysis/Allocation.cpp) its copies precede
    the consumers' code, as they precede the waits that see them, so a
    buffer both use dies at the consumers' last use and the epilogue may
    reuse its bytes.
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<24>]>:$producerRegisters,
                   ConfinedAttr<I32Attr, [IntMinValue<24>]>:$consumerRegisters);
  let regions = (region MinSizedRegion<1>:$producer, MinSizedRegion<1>:$consumer);
  let assemblyFormat = [{
    `producer` `(` `registers` `=` $producerRegisters `)` $producer
    `consumer` `(` `registers` `=` $consumerRegisters `)` $consumer
    attr-dict-with-keyword
  }];
  let hasVerifier = 1;
}

def Tkgpu_WarpYieldOp : Tkgpu_Op<"warp_yield", [Pure, Terminator,
    HasParent<"WarpSpecializeOp">]> {
  let summary = "the end of a warp_specialize region";
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Warp-group scheduling (tkgpu-pingpong)
//===----------------------------------------------------------------------===//

def Tkgpu_WarpGroupIdOp : Tkgpu_Op<"warp_group_id", [Pure]> {
  let summary = "the warp group of the executing thread (tid.x / 128)";
  let description = [{
    Compute warps 0-3 are group 0, warps 4-7 group 1, and so on. The one
    per-thread value tkgpu IR has outside tensors: it lets warp groups
    take different roles in a schedule (tkgpu-pingpong's turns).
  }];
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict";
}

class Tkgpu_NamedBarrierOp<string mnemonic, string summaryText>
    : Tkgpu_Op<mnemonic, [MemoryEffects<[MemRead<Tkgpu_SharedMemory>,
                                         MemWrite<Tkgpu_SharedMemory>]>]> {
  let summary = summaryText;
  let arguments = (ins I32:$id,
                   ConfinedAttr<I32Attr, [IntPositive]>:$numThreads);
  let assemblyFormat = "$id `,` $numThreads attr-dict";
  let hasVerifier = 1;
}

def Tkgpu_NamedBarrierSyncOp
    : Tkgpu_NamedBarrierOp<"named_barrier_sync",
                           "wait at a named barrier (bar.sync id, count)"> {
  let description = [{
    The executing warp waits until `numThreads` threads (a multiple of 32)
    have arrived at barrier `id` (this op or named_barrier_arrive), then
    the barrier starts counting again. Ids below
    kFirstSchedulingBarrierId belong to the lowering (CTA and partition
    barriers); a constant `id` must not be one of them. These barriers
    order warp groups in a schedule; tk-llvm-prune-barriers neither
    removes them nor takes them for CTA barriers.
  }];
}

def Tkgpu_NamedBarrierArriveOp
    : Tkgpu_NamedBarrierOp<"named_barrier_arrive",
                           "arrive at a named barrier without waiting (bar.arrive id, count)"> {
  let description = [{
    Counts the executing warp's threads towards barrier `id`'s
    `numThreads` and goes on: a named_barrier_sync of other warps
    returns once enough have arrived. Same ids as named_barrier_sync.
  }];
}

#endif // TKGPU_OPS_TD
