// RUN: tk-opt %s -split-input-file -convert-tkgpu-to-llvm -canonicalize -cse -reconcile-unrealized-casts | FileCheck %s
// tkgpu.warp_specialize becomes the branch into its partitions: the
// producer warp group (threads 128..255 here) lowers its register limit
// and runs the region on its first warp, whose thread 128 issues the
// mbarrier expect and the TMA copy; the four compute warps raise theirs,
// synchronise on named barrier 1 over their 128 threads and arrive on an
// mbarrier once per warp. The loop carrying a tensor inside the consumer
// region has its block arguments converted like the function's.

#bar = #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#sa = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
#blocked = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// The launch runs 8 warps; ptxas gives each thread 248 registers to start.
// CHECK-LABEL: llvm.func @ws(
// CHECK-SAME: nvvm.maxnreg = 248 : i32
// CHECK-SAME: nvvm.reqntid = array<i32: 256, 1, 1>
// CHECK-DAG: %[[C128:.*]] = llvm.mlir.constant(128 : i32) : i32
// CHECK-DAG: %[[C4:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-DAG: %[[C5:.*]] = llvm.mlir.constant(5 : i32) : i32
// CHECK-DAG: %[[C1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: nvvm.mbarrier.init %{{.*}}, %[[C4]], predicate
// All warps pass the barrier after the init, then part.
// CHECK: nvvm.barrier0
// CHECK: %[[ISP:.*]] = llvm.icmp "uge" %[[TID]], %[[C128]] : i32
// CHECK: llvm.cond_br %[[ISP]], ^[[PGATE:bb[0-9]+]], ^[[CGATE:bb[0-9]+]]
// CHECK: ^[[PGATE]]:
// CHECK-NEXT: nvvm.setmaxregister decrease 40
// CHECK-NEXT: %[[WARP:.*]] = llvm.lshr %[[TID]], %[[C5]] : i32
// CHECK-NEXT: %[[FIRSTWARP:.*]] = llvm.icmp "eq" %[[WARP]], %[[C4]] : i32
// CHECK-NEXT: llvm.cond_br %[[FIRSTWARP]], ^[[PRODUCER:bb[0-9]+]], ^[[AFTER:bb[0-9]+]]
// CHECK: ^[[CGATE]]:
// CHECK-NEXT: nvvm.setmaxregister increase 256
// CHECK-NEXT: llvm.br ^[[CONSUMER:bb[0-9]+]]
// CHECK: ^[[PRODUCER]]:
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: %[[ISSUER:.*]] = llvm.icmp "eq" %[[TID]], %[[C128]] : i32
// CHECK: %[[ISSUE:.*]] = llvm.and %[[ISSUER]], %{{.*}} : i1
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %{{.*}}, predicate = %[[ISSUE]]
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} predicate = %[[ISSUE]]
// CHECK: llvm.br ^[[AFTER]]
// CHECK: ^[[CONSUMER]]:
// CHECK: llvm.br ^[[LOOP:bb[0-9]+]](%{{.*}}, %{{.*}} : i32, !llvm.struct<(f32)>)
// CHECK: ^[[LOOP]](%{{.*}}: i32, %{{.*}}: !llvm.struct<(f32)>):
// CHECK: nvvm.barrier id = %[[C1]] number_of_threads = %[[C128]]
// CHECK: %[[LANE:.*]] = llvm.and %[[TID]], %{{.*}} : i32
// CHECK: %[[LANE0:.*]] = llvm.icmp "eq" %[[LANE]], %{{.*}} : i32
// CHECK: %[[ARRIVES:.*]] = llvm.and %[[LANE0]], %{{.*}} : i1
// CHECK: llvm.cond_br %[[ARRIVES]], ^[[ARRIVE:bb[0-9]+]], ^
// CHECK: ^[[ARRIVE]]:
// CHECK-NEXT: nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
// CHECK: ^[[AFTER]]:
// CHECK-NEXT: llvm.return
// CHECK-NOT: tkgpu.
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.total_num_warps = 8 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
func.func @ws(%desc: !tkgpu.tensor_map, %n: i32, %p: tensor<128x!tk.ptr<f32>, #blocked>) attributes {tk.kernel} {
  %true = arith.constant true
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<128xf32, #blocked>
  %full = tkgpu.local_alloc {tkgpu.offset = 0 : i64} !tkgpu.memdesc<1xi64, #bar>
  %empty = tkgpu.local_alloc {tkgpu.offset = 8 : i64} !tkgpu.memdesc<1xi64, #bar>
  %buf = tkgpu.local_alloc {tkgpu.offset = 1024 : i64} !tkgpu.memdesc<64x64xf16, #sa>
  tkgpu.init_barrier %full, 1 : !tkgpu.memdesc<1xi64, #bar>
  tkgpu.init_barrier %empty, 4 : !tkgpu.memdesc<1xi64, #bar>
  tkgpu.barrier
  tkgpu.warp_specialize producer(registers = 40) {
    scf.for %i = %c0 to %n step %c1 : i32 {
      tkgpu.wait_barrier %empty, %c1 : !tkgpu.memdesc<1xi64, #bar>
      tkgpu.barrier_expect %full, 8192, %true : !tkgpu.memdesc<1xi64, #bar>
      tkgpu.async_tma_copy_global_to_local %desc[%i, %c0] %buf, %full, %true : !tkgpu.tensor_map, !tkgpu.memdesc<64x64xf16, #sa>, !tkgpu.memdesc<1xi64, #bar>
    }
    tkgpu.warp_yield
  } consumer(registers = 256) {
    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128xf32, #blocked>) : i32 {
      tkgpu.wait_barrier %full, %c0 : !tkgpu.memdesc<1xi64, #bar>
      tkgpu.barrier
      tkgpu.arrive_barrier %empty, %true : !tkgpu.memdesc<1xi64, #bar>
      %next = arith.addf %acc, %acc : tensor<128xf32, #blocked>
      scf.yield %next : tensor<128xf32, #blocked>
    }
    tk.store %p, %sum : tensor<128x!tk.ptr<f32>, #blocked>, tensor<128xf32, #blocked>
    tkgpu.warp_yield
  }
  return
}
}

// -----

// The ops of tkgpu-pingpong's schedule: the warp group is tid.x / 128,
// and the named barriers keep their computed id and count.
// CHECK: {{//[ ]-----}}
// CHECK-LABEL: llvm.func @turns(
// CHECK-DAG: %[[C7:.*]] = llvm.mlir.constant(7 : i32) : i32
// CHECK-DAG: %[[C256:.*]] = llvm.mlir.constant(256 : i32) : i32
// CHECK-DAG: %[[C3:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[G:.*]] = llvm.lshr %[[TID]], %[[C7]] : i32
// CHECK: %[[ID:.*]] = llvm.add %[[G]], %[[C3]] : i32
// CHECK: nvvm.barrier id = %[[ID]] number_of_threads = %[[C256]]
// CHECK: nvvm.barrier.arrive id = %[[C3]] number_of_threads = %[[C256]]
module attributes {tkgpu.num_warps = 8 : i32, tkgpu.total_num_warps = 12 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
func.func @turns() attributes {tk.kernel} {
  tkgpu.warp_specialize producer(registers = 24) {
    tkgpu.warp_yield
  } consumer(registers = 240) {
    %g = tkgpu.warp_group_id
    %c3 = arith.constant 3 : i32
    %id = arith.addi %g, %c3 : i32
    tkgpu.named_barrier_sync %id, 256
    tkgpu.named_barrier_arrive %c3, 256
    tkgpu.warp_yield
  }
  return
}
}
