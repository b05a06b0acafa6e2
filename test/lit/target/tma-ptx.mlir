// REQUIRES: ptxas
// RUN: tk-opt %s -tkgpu-allocate-shared-memory -convert-tkgpu-to-llvm -convert-nvvm-to-llvm -canonicalize -cse -reconcile-unrealized-casts -o %t.llvm.mlir
// RUN: tk-translate --tk-to-ptx --tk-arch=sm_90a %t.llvm.mlir -o %t.sm90.ptx
// RUN: FileCheck %s < %t.sm90.ptx
// RUN: %ptxas -arch=sm_90a -O3 %t.sm90.ptx -o %t.sm90.cubin
// A TMA round trip (TkgpuTmaOps.td): a 128x64 f16 box loaded through an
// mbarrier (init, arrive.expect_tx of 16384 bytes, the bulk tensor copy,
// try_wait.parity on phase 0) and stored back through a bulk group; the
// PTX has the instructions and ptxas accepts it for sm_90a.

// CHECK-LABEL: .visible .entry tma_roundtrip(
// CHECK: setp.eq.b32 %p[[T0:[0-9]+]], %r{{[0-9]+}}, 0;
// CHECK: @%p[[T0]] mbarrier.init.shared.b64 [%r{{[0-9]+}}], 1;
// CHECK: bar.sync 0;
// CHECK: @%p[[T0]] mbarrier.arrive.expect_tx.shared.b64 _, [%r{{[0-9]+}}], 16384;
// CHECK: @%p[[T0]] cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%r{{[0-9]+}}], [%rd{{[0-9]+}}, {%r[[J:[0-9]+]],%r[[I:[0-9]+]]} ], [%r{{[0-9]+}}];
// CHECK: LAB_WAIT:
// CHECK-NEXT: mbarrier.try_wait.parity.shared.b64 P1, [%r{{[0-9]+}}], 0, 10000000;
// CHECK-NEXT: @P1 bra.uni DONE;
// CHECK-NEXT: bra.uni LAB_WAIT;
// CHECK: @%p[[T0]] cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%rd{{[0-9]+}}, {%r[[J]], %r[[I]]} ], [%r{{[0-9]+}}];
// CHECK: cp.async.bulk.commit_group;
// CHECK: cp.async.bulk.wait_group.read 0;

#bar = #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#sa = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
func.func @tma_roundtrip(%in: !tk.ptr<i8>, %out: !tk.ptr<i8>, %i: i32, %j: i32) attributes {tk.kernel} {
  %true = arith.constant true
  %phase = arith.constant 0 : i32
  %bar = tkgpu.local_alloc !tkgpu.memdesc<1xi64, #bar>
  %buf = tkgpu.local_alloc !tkgpu.memdesc<128x64xf16, #sa>
  tkgpu.init_barrier %bar, 1 : !tkgpu.memdesc<1xi64, #bar>
  tkgpu.barrier
  tkgpu.barrier_expect %bar, 16384, %true : !tkgpu.memdesc<1xi64, #bar>
  tkgpu.async_tma_copy_global_to_local %in[%i, %j] %buf, %bar, %true : !tk.ptr<i8>, !tkgpu.memdesc<128x64xf16, #sa>, !tkgpu.memdesc<1xi64, #bar>
  tkgpu.wait_barrier %bar, %phase : !tkgpu.memdesc<1xi64, #bar>
  tkgpu.async_tma_copy_local_to_global %out[%i, %j] %buf : !tk.ptr<i8>, !tkgpu.memdesc<128x64xf16, #sa>
  tkgpu.async_tma_store_wait {pendings = 0 : i32}
  return
}
}
