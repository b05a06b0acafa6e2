//===- TkgpuTmaOps.td - mbarriers and TMA copies ------------*- tablegen -*-===//
//
// Hopper's tensor-memory engine: asynchronous bulk copies of a tensor box
// between global memory, described by a 128-byte CUtensorMap (a TMA
// descriptor, `!tk.ptr<i8>` here: its address), and a shared-memory
// buffer, completing on an mbarrier in shared memory. The building blocks
// of the TMA path of tensor descriptors (docs/tma.md, "TMA ops").
// Each op is issued by one thread, thread 0 of the program or, in the
// producer region of a tkgpu.warp_specialize, that partition's first
// thread (the lowering predicates it so); wait_barrier is executed by
// every thread and arrive_barrier by lane 0 of every warp. Their own file
// and header (TkgpuTmaOps.h) so that the users of TkgpuDialect.h do not
// depend on them.
//
//===----------------------------------------------------------------------===//
#ifndef TKGPU_TMA_OPS_TD
#define TKGPU_TMA_OPS_TD

include "TkgpuDialect.td"
include "TkgpuTypes.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Tkgpu_TmaSharedMemory : Resource<"::mlir::tkgpu::SharedMemory">;

// A TMA descriptor: the address of a CUtensorMap in global memory (a tk
// pointer; TkTypes.td cannot be included from here, its own includes being
// relative to dialects/tk), or a `__grid_constant__` kernel parameter.
def Tkgpu_TensorMapPtr : Type<CPred<"::mlir::isa<::mlir::tk::PtrType>($_self)">,
                              "!tk.ptr", "::mlir::tk::PtrType">;
def Tkgpu_TensorMapDesc : AnyTypeOf<[Tkgpu_TensorMapPtr, Tkgpu_TensorMapType]>;

def Tkgpu_InitBarrierOp : Tkgpu_Op<"init_barrier", [
    MemoryEffects<[MemWrite<Tkgpu_TmaSharedMemory>]>]> {
  let summary = "initialize an mbarrier expecting `count` arrivals per phase";
  let description = [{
    `mbarrier.init.shared.b64 [bar], count` by thread 0; the barrier is
    in phase 0. A CTA barrier must separate it from the barrier's uses in
    other threads.
  }];
  let arguments = (ins Tkgpu_MemDescType:$barrier,
                   ConfinedAttr<I32Attr, [IntMinValue<1>]>:$count);
  let assemblyFormat = "$barrier `,` $count attr-dict `:` qualified(type($barrier))";
  let hasVerifier = 1;
}

def Tkgpu_BarrierExpectOp : Tkgpu_Op<"barrier_expect", [
    MemoryEffects<[MemWrite<Tkgpu_TmaSharedMemory>]>]> {
  let summary = "arrive on an mbarrier and expect `bytes` of async copies";
  let description = [{
    `mbarrier.arrive.expect_tx.shared.b64 _, [bar], bytes` by thread 0
    when `pred` holds: the current phase completes when the arrivals are
    done and the TMA copies naming the barrier have written `bytes`.
  }];
  let arguments = (ins Tkgpu_MemDescType:$barrier,
                   ConfinedAttr<I32Attr, [IntMinValue<0>]>:$bytes, I1:$pred);
  let assemblyFormat = [{
    $barrier `,` $bytes `,` $pred attr-dict `:` qualified(type($barrier))
  }];
  let hasVerifier = 1;
}

def Tkgpu_ArriveBarrierOp : Tkgpu_Op<"arrive_barrier", [
    MemoryEffects<[MemWrite<Tkgpu_TmaSharedMemory>]>]> {
  let summary = "one arrival per warp on an mbarrier";
  let description = [{
    `mbarrier.arrive.shared.b64 _, [bar]` by lane 0 of every warp that
    runs it, when `pred` holds (release semantics: the warp's earlier
    accesses, its retired wgmma reads included, happen before the phase
    completes). A barrier that N warps release is initialized with count
    N. The consumers of a tkgpu.warp_specialize free a buffer slot so.

    With `cluster`, in a kernel of cluster_size R > 1 (tk.cluster_size),
    the arrival goes to the barrier at the same offset in every CTA of the
    cluster (`mapa`, then `mbarrier.arrive.release.cluster
    .shared::cluster`): a slot that the cluster's multicast copies fill
    is free once the consumers of all R CTAs released it, and its barrier
    counts R times N.
  }];
  let arguments = (ins Tkgpu_MemDescType:$barrier, I1:$pred,
                   UnitAttr:$cluster);
  let assemblyFormat = [{
    $barrier `,` $pred attr-dict `:` qualified(type($barrier))
  }];
  let hasVerifier = 1;
}

// The waits also write: after them the thread sees bytes (the copies') it
// did not see before, and they must never be dropped as dead reads.
def Tkgpu_WaitBarrierOp : Tkgpu_Op<"wait_barrier", [
    MemoryEffects<[MemRead<Tkgpu_TmaSharedMemory>,
                   MemWrite<Tkgpu_TmaSharedMemory>]>]> {
  let summary = "wait until the mbarrier phase of parity `phase` completes";
  let description = [{
    Every thread loops on `mbarrier.try_wait.parity.shared.b64` until the
    phase with parity `phase` (0 or 1) has completed; the copies that
    completed it are then visible to the thread.
  }];
  let arguments = (ins Tkgpu_MemDescType:$barrier, I32:$phase);
  let assemblyFormat = "$barrier `,` $phase attr-dict `:` qualified(type($barrier))";
  let hasVerifier = 1;
}

def Tkgpu_InvalBarrierOp : Tkgpu_Op<"inval_barrier", [
    MemoryEffects<[MemWrite<Tkgpu_TmaSharedMemory>]>]> {
  let summary = "invalidate an mbarrier before its bytes are reused";
  let description = [{
    `mbarrier.inval.shared.b64 [bar]` by thread 0: the word may then hold
    anything else (or a new mbarrier). Every wait on it must be done.
  }];
  let arguments = (ins Tkgpu_MemDescType:$barrier);
  let assemblyFormat = "$barrier attr-dict `:` qualified(type($barrier))";
  let hasVerifier = 1;
}

def Tkgpu_AsyncTmaCopyGlobalToLocalOp : Tkgpu_Op<"async_tma_copy_global_to_local", [
    MemoryEffects<[MemRead, MemWrite<Tkgpu_TmaSharedMemory>]>]> {
  let summary = "TMA load of the box at `coords` into a shared buffer";
  let description = [{
    `cp.async.bulk.tensor.Nd.shared::cluster.global.mbarrier::complete_tx::bytes
    [result], [desc, {coords} ], [barrier]` by thread 0 when `pred` holds.
    `coords` are element offsets in the language's order (outermost
    first; the lowering passes them innermost first, as TMA counts
    dimensions). Elements outside the tensor are written as zeros. The
    buffer is a whole number of boxes: the box is the buffer's shape with
    the contiguous dimension cut to one swizzle chunk of an nvmma_shared
    buffer and the others to 256 (TMA's limits); the lowering issues one
    copy per box, at the box's coordinates and its offset in the buffer.
    A tensor of higher rank than the buffer takes one coordinate per
    dimension: the leading ones address dimensions the box spans once
    (extent 1; one head of a (Z, H, N, D) tensor into an N x D tile).

    With `multicast`, in a kernel of cluster_size R > 1, every CTA of the
    cluster loads the same block into the same buffer and barrier
    offsets, and the copies are shared: CTA r (%cluster_ctarank) issues
    the boxes whose index is r modulo R, each `.multicast::cluster` to
    all R CTAs, so every CTA's barrier receives the whole block's bytes.
    A slot may be refilled only when the consumers of every CTA released
    it (arrive_barrier's `cluster`), and the barriers must be initialized
    in every CTA before any copy (cluster_barrier).
  }];
  let arguments = (ins Tkgpu_TensorMapDesc:$desc, Variadic<I32>:$coords,
                   Tkgpu_MemDescType:$result, Tkgpu_MemDescType:$barrier,
                   I1:$pred, UnitAttr:$multicast);
  let assemblyFormat = [{
    $desc `[` $coords `]` $result `,` $barrier `,` $pred attr-dict `:`
    qualified(type($desc)) `,` qualified(type($result)) `,`
    qualified(type($barrier))
  }];
  let hasVerifier = 1;
}

def Tkgpu_AsyncTmaCopyLocalToGlobalOp : Tkgpu_Op<"async_tma_copy_local_to_global", [
    MemoryEffects<[MemRead<Tkgpu_TmaSharedMemory>, MemWrite]>]> {
  let summary = "TMA store of a shared buffer to the box at `coords`";
  let description = [{
    `cp.async.bulk.tensor.Nd.global.shared::cta.bulk_group [desc, {coords} ],
    [src]` (one per box, as for the load) then `cp.async.bulk.commit_group`,
    by thread 0. Elements outside
    the tensor are not written. The writes of the buffer must be fenced
    (fence_async_shared) and a CTA barrier passed before; the buffer may be
    reused after async_tma_store_wait (which tkgpu-membar places).
  }];
  let arguments = (ins Tkgpu_TensorMapDesc:$desc, Variadic<I32>:$coords,
                   Tkgpu_MemDescType:$src);
  let assemblyFormat = [{
    $desc `[` $coords `]` $src attr-dict `:` qualified(type($desc)) `,`
    qualified(type($src))
  }];
  let hasVerifier = 1;
}

def Tkgpu_ClusterBarrierOp : Tkgpu_Op<"cluster_barrier", [
    MemoryEffects<[MemRead<Tkgpu_TmaSharedMemory>,
                   MemWrite<Tkgpu_TmaSharedMemory>]>]> {
  let summary = "every thread of the thread-block cluster meets here";
  let description = [{
    `barrier.cluster.arrive` then `barrier.cluster.wait` (release and
    acquire by default) by every thread: no CTA of the cluster goes on
    before all its CTAs' threads arrived, and their earlier shared-memory
    accesses are visible cluster-wide. With `after_barrier_init`, first
    `fence.mbarrier_init.release.cluster`, so that the mbarriers each CTA
    initialized may take peers' arrivals and multicast bytes. A kernel
    with multicast copies meets so after initializing its barriers and
    before exiting (a peer may still write its shared memory). Without
    clusters (cluster_size 1) it is a no-op.
  }];
  let arguments = (ins UnitAttr:$after_barrier_init);
  let assemblyFormat = "attr-dict";
}

def Tkgpu_AsyncTmaStoreWaitOp : Tkgpu_Op<"async_tma_store_wait", [
    MemoryEffects<[MemRead<Tkgpu_TmaSharedMemory>,
                   MemWrite<Tkgpu_TmaSharedMemory>]>]> {
  let summary = "wait until at most `pendings` TMA store groups read their buffers";
  let description = [{
    `cp.async.bulk.wait_group.read pendings`: the shared buffers of the
    older groups may be written again.
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<0>]>:$pendings);
  let assemblyFormat = "attr-dict";
}

#endif // TKGPU_TMA_OPS_TD
