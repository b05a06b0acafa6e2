// RUN: tk-opt %s -split-input-file -tk-llvm-prune-barriers | FileCheck %s
// A barrier that no shared-memory access precedes since the last barrier
// (or the entry), on any path, is removed: here the first and the last.

// CHECK-LABEL: llvm.func @straight
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.store
// CHECK-NEXT: nvvm.barrier0
// CHECK-NEXT: llvm.load
// CHECK: nvvm.barrier0
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
llvm.func @straight(%p: !llvm.ptr<3>, %v: f32) -> f32 {
  nvvm.barrier0
  llvm.store %v, %p : f32, !llvm.ptr<3>
  nvvm.barrier0
  %x = llvm.load %p : !llvm.ptr<3> -> f32
  %g = llvm.mlir.zero : !llvm.ptr<1>
  nvvm.barrier0
  nvvm.barrier0
  llvm.return %x : f32
}

// -----

// Across blocks: an access on one incoming path keeps the barrier; a
// global store is no shared-memory access.
// CHECK-LABEL: llvm.func @paths
// CHECK: ^bb1:
// CHECK-NEXT: llvm.store {{.*}} !llvm.ptr<3>
// CHECK: ^bb2:
// CHECK-NEXT: nvvm.barrier0
// CHECK: ^bb3:
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
llvm.func @paths(%c: i1, %p: !llvm.ptr<3>, %q: !llvm.ptr<1>, %v: f32) {
  llvm.cond_br %c, ^bb1, ^bb2
^bb1:
  llvm.store %v, %p : f32, !llvm.ptr<3>
  llvm.br ^bb2
^bb2:
  nvvm.barrier0
  llvm.store %v, %q : f32, !llvm.ptr<1>
  llvm.br ^bb3
^bb3:
  nvvm.barrier0
  llvm.return
}

// -----

// cp.async.wait_group is where a thread's async copies land in shared
// memory: the barrier after it (before other threads read the tile) stays,
// even though the wait takes no pointer. The one before the wait, which
// follows no access, goes.
// CHECK-LABEL: llvm.func @async_wait
// CHECK-NEXT: nvvm.cp.async.wait.group 0
// CHECK-NEXT: nvvm.barrier0
// CHECK-NEXT: llvm.load
llvm.func @async_wait(%p: !llvm.ptr<3>) -> f32 {
  nvvm.barrier0
  nvvm.cp.async.wait.group 0
  nvvm.barrier0
  %x = llvm.load %p : !llvm.ptr<3> -> f32
  llvm.return %x : f32
}

// -----

// wgmma reads shared memory through descriptors, with no pointer operand,
// until its wait_group: the barrier after the wait (before another warp
// group overwrites the operand tile) stays. The one before the wgmma,
// which follows no access, goes.
// CHECK-LABEL: llvm.func @wgmma_reads
// CHECK-NOT: nvvm.barrier0
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: nvvm.barrier0
// CHECK-NEXT: llvm.store
llvm.func @wgmma_reads(%p: !llvm.ptr<3>, %da: i64, %db: i64, %v: f32) {
  nvvm.barrier0
  nvvm.wgmma.fence.aligned
  %acc = llvm.mlir.undef : !llvm.struct<(f32, f32, f32, f32)>
  %r = nvvm.wgmma.mma_async %da, %db, %acc,
      #nvvm.shape<m = 64, n = 8, k = 16>,
      D [<f32>, #nvvm.wgmma_scale_out<one>],
      A [<f16>, #nvvm.wgmma_scale_in<one>, <row>],
      B [<f16>, #nvvm.wgmma_scale_in<one>, <col>]
      : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  nvvm.wgmma.commit.group.sync.aligned
  nvvm.wgmma.wait.group.sync.aligned 0
  nvvm.barrier0
  llvm.store %v, %p : f32, !llvm.ptr<3>
  llvm.return
}

// -----

// A named barrier with a computed id schedules warp groups (each wait is
// paired with another group's arrive): it stays although no access
// precedes it, and it orders nothing for the CTA, so the barrier after
// the store stays too. A constant id below 3 is a CTA barrier: the second
// of two after the load goes.
// CHECK-LABEL: llvm.func @scheduling
// CHECK: nvvm.barrier id = %[[ID:arg2]] number_of_threads
// CHECK-NEXT: llvm.store
// CHECK-NEXT: nvvm.barrier id = %[[ID]] number_of_threads
// CHECK-NEXT: nvvm.barrier id = %[[ONE:.*]] number_of_threads
// CHECK-NEXT: llvm.load
// CHECK-NEXT: nvvm.barrier id = %[[ONE]] number_of_threads
// CHECK-NEXT: llvm.return
llvm.func @scheduling(%p: !llvm.ptr<3>, %v: f32, %id: i32) -> f32 {
  %n = llvm.mlir.constant(256 : i32) : i32
  %one = llvm.mlir.constant(1 : i32) : i32
  nvvm.barrier id = %id number_of_threads = %n
  llvm.store %v, %p : f32, !llvm.ptr<3>
  nvvm.barrier id = %id number_of_threads = %n
  nvvm.barrier id = %one number_of_threads = %n
  %x = llvm.load %p : !llvm.ptr<3> -> f32
  nvvm.barrier id = %one number_of_threads = %n
  nvvm.barrier id = %one number_of_threads = %n
  llvm.return %x : f32
}
