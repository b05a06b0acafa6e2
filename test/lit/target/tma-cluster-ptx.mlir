// REQUIRES: ptxas
// RUN: tk-opt %s -tkgpu-allocate-shared-memory -convert-tkgpu-to-llvm -convert-nvvm-to-llvm -canonicalize -cse -reconcile-unrealized-casts -o %t.llvm.mlir
// RUN: tk-translate --tk-to-ptx --tk-arch=sm_90a %t.llvm.mlir -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a -O3 %t.ptx -o %t.cubin
// The cluster ops of TkgpuTmaOps.td in a kernel of cluster_size 2 (steps
// 3 to 5 of docs/tma.md's multicast plan, as tkgpu-warp-specialize emits
// them): the barrier initialized, then fenced for the cluster and met by every CTA;
// a 64x256 f16 block (four 64x64 boxes of a 128-byte swizzle) loaded
// with `multicast`: CTA r issues boxes r and r + 2, each to both CTAs
// (mask 3); a `cluster` arrival on the barrier of both CTAs (mapa to ranks
// 0 and 1), with the default CTA-scope release, not a cluster-scope one
// (a MEMBAR.ALL.GPU each); the closing cluster barrier. ptxas accepts
// it for sm_90a.

// CHECK-LABEL: .visible .entry tma_multicast(
// CHECK: .explicitcluster
// CHECK-NEXT: .reqnctapercluster 2, 1, 1
// CHECK: mbarrier.init.shared.b64
// CHECK: fence.mbarrier_init.release.cluster;
// CHECK-NEXT: barrier.cluster.arrive;
// CHECK-NEXT: barrier.cluster.wait;
// CHECK: mov.u32 %r[[RANK:[0-9]+]], %cluster_ctarank;
// CHECK-COUNT-4: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%r{{[0-9]+}}], [%rd{{[0-9]+}}, {{{.*}}} ], [%r{{[0-9]+}}], 3;
// CHECK-DAG: mapa.shared::cluster.u64 %rd[[R0:[0-9]+]], %rd[[BAR:[0-9]+]], 0;
// CHECK-DAG: mapa.shared::cluster.u64 %rd[[R1:[0-9]+]], %rd[[BAR]], 1;
// CHECK-DAG: mbarrier.arrive.shared::cluster.b64 _, [%rd[[R0]]]
// CHECK-DAG: mbarrier.arrive.shared::cluster.b64 _, [%rd[[R1]]]
// CHECK-NOT: mbarrier.arrive.release.cluster
// CHECK: barrier.cluster.arrive;
// CHECK-NEXT: barrier.cluster.wait;

#bar = #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#sb = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
module attributes {tk.cluster_size = 2 : i32, tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
func.func @tma_multicast(%in: !tk.ptr<i8>, %i: i32, %j: i32) attributes {tk.kernel} {
  %true = arith.constant true
  %phase = arith.constant 0 : i32
  %bar = tkgpu.local_alloc !tkgpu.memdesc<1xi64, #bar>
  %buf = tkgpu.local_alloc !tkgpu.memdesc<64x256xf16, #sb>
  tkgpu.init_barrier %bar, 1 : !tkgpu.memdesc<1xi64, #bar>
  tkgpu.cluster_barrier {after_barrier_init}
  tkgpu.barrier_expect %bar, 32768, %true : !tkgpu.memdesc<1xi64, #bar>
  tkgpu.async_tma_copy_global_to_local %in[%i, %j] %buf, %bar, %true {multicast} : !tk.ptr<i8>, !tkgpu.memdesc<64x256xf16, #sb>, !tkgpu.memdesc<1xi64, #bar>
  tkgpu.wait_barrier %bar, %phase : !tkgpu.memdesc<1xi64, #bar>
  tkgpu.arrive_barrier %bar, %true {cluster} : !tkgpu.memdesc<1xi64, #bar>
  tkgpu.cluster_barrier
  return
}
}
