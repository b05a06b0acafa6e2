// RUN: tk-opt %s -split-input-file -convert-tkgpu-to-llvm -canonicalize -cse -reconcile-unrealized-casts | FileCheck %s
// mbarriers and TMA copies (TkgpuTmaOps.td) become NVVM ops: the barrier
// and buffer addresses are their shared-memory pointers, the issuing ops
// are predicated on thread 0 (and their own predicate), coordinates go
// innermost first, the descriptor is a generic address.

#bar = #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#sa = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>

// CHECK-LABEL: llvm.func {{.*}}@tma_load(
// CHECK-SAME: %[[DESC:[^:]+]]: !llvm.ptr<1>, %[[I:[^:]+]]: i32, %[[J:[^:]+]]: i32, %[[PRED:[^:]+]]: i1, %[[PHASE:[^:]+]]: i32
// CHECK-DAG: %[[C1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-DAG: %[[C0:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-DAG: %[[BYTES:.*]] = llvm.mlir.constant(16384 : i32) : i32
// CHECK-DAG: %[[TICKS:.*]] = llvm.mlir.constant(10000000 : i32) : i32
// CHECK: %[[SMEM:.*]] = llvm.mlir.addressof @tk_smem : !llvm.ptr<3>
// CHECK: %[[BUF:.*]] = llvm.getelementptr %[[SMEM]][1024] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[FIRST:.*]] = llvm.icmp "eq" %[[TID]], %[[C0]] : i32
// CHECK: nvvm.mbarrier.init %[[SMEM]], %[[C1]], predicate = %[[FIRST]] : !llvm.ptr<3>, i32, i1
// CHECK: %[[P:.*]] = llvm.and %[[FIRST]], %[[PRED]] : i1
// CHECK: nvvm.mbarrier.arrive.expect_tx %[[SMEM]], %[[BYTES]], predicate = %[[P]] : !llvm.ptr<3>, i32, i1
// CHECK: %[[G:.*]] = llvm.addrspacecast %[[DESC]] : !llvm.ptr<1> to !llvm.ptr
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[BUF]], %[[G]], %[[SMEM]], box[%[[J]], %[[I]]] predicate = %[[P]] : !llvm.ptr<3>, !llvm.ptr
// CHECK: nvvm.mbarrier.try_wait.parity %[[SMEM]], %[[PHASE]], %[[TICKS]] : !llvm.ptr<3>, i32, i32
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
func.func @tma_load(%desc: !tk.ptr<i8>, %i: i32, %j: i32, %pred: i1, %phase: i32) {
  %bar = tkgpu.local_alloc {tkgpu.offset = 0 : i64} !tkgpu.memdesc<1xi64, #bar>
  %buf = tkgpu.local_alloc {tkgpu.offset = 1024 : i64} !tkgpu.memdesc<128x64xf16, #sa>
  tkgpu.init_barrier %bar, 1 : !tkgpu.memdesc<1xi64, #bar>
  tkgpu.barrier_expect %bar, 16384, %pred : !tkgpu.memdesc<1xi64, #bar>
  tkgpu.async_tma_copy_global_to_local %desc[%i, %j] %buf, %bar, %pred : !tk.ptr<i8>, !tkgpu.memdesc<128x64xf16, #sa>, !tkgpu.memdesc<1xi64, #bar>
  tkgpu.wait_barrier %bar, %phase : !tkgpu.memdesc<1xi64, #bar>
  return
}
}

// -----

#sa = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>

// A TMA store: the copy on thread 0, a commit group on every thread, then
// the wait for the group's reads of the buffer.
// CHECK-LABEL: llvm.func {{.*}}@tma_store(
// CHECK-SAME: %[[DESC:[^:]+]]: !llvm.ptr<1>, %[[I:[^:]+]]: i32, %[[J:[^:]+]]: i32, %[[K:[^:]+]]: i32
// CHECK: %[[BUF:.*]] = llvm.mlir.addressof @tk_smem : !llvm.ptr<3>
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[FIRST:.*]] = llvm.icmp "eq" %[[TID]], %{{.*}} : i32
// CHECK: %[[G:.*]] = llvm.addrspacecast %[[DESC]] : !llvm.ptr<1> to !llvm.ptr
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %[[G]], %[[BUF]], box[%[[K]], %[[J]], %[[I]]], predicate = %[[FIRST]] : !llvm.ptr, <3>
// CHECK-NEXT: nvvm.cp.async.bulk.commit.group
// CHECK-NEXT: nvvm.cp.async.bulk.wait_group 1 {read}
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
func.func @tma_store(%desc: !tk.ptr<i8>, %i: i32, %j: i32, %k: i32) {
  %buf = tkgpu.local_alloc {tkgpu.offset = 0 : i64} !tkgpu.memdesc<2x64x64xf16, #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [2, 1, 0]}>>
  tkgpu.async_tma_copy_local_to_global %desc[%i, %j, %k] %buf : !tk.ptr<i8>, !tkgpu.memdesc<2x64x64xf16, #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [2, 1, 0]}>>
  tkgpu.async_tma_store_wait {pendings = 1 : i32}
  return
}
}
