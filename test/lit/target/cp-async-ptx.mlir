// REQUIRES: ptxas
// RUN: tk-opt %s -convert-tkgpu-to-llvm -canonicalize -cse -reconcile-unrealized-casts -o %t.llvm.mlir
// RUN: tk-translate --tk-to-ptx --tk-arch=sm_80 %t.llvm.mlir -o %t.sm80.ptx
// RUN: FileCheck %s < %t.sm80.ptx
// RUN: tk-translate --tk-to-ptx --tk-arch=sm_90a %t.llvm.mlir -o %t.sm90.ptx
// RUN: FileCheck %s < %t.sm90.ptx
// RUN: %ptxas -arch=sm_80 -O3 %t.sm80.ptx -o %t.sm80.cubin
// RUN: %ptxas -arch=sm_90a -O3 %t.sm90.ptx -o %t.sm90.cubin
// A tile staged through a swizzled shared buffer with cp.async (16-byte
// .cg copies, zero-filled where masked), waited for, read back with
// 16-byte ld.shared and stored: the PTX of the explicit shared-memory
// lowering, accepted by ptxas for sm_80 and sm_90a.

// CHECK-LABEL: .visible .entry tile_copy(
// CHECK-COUNT-4: cp.async.cg.shared.global [%rd{{[0-9]+}}{{(\+[0-9]+)?}}], [%rd{{[0-9]+}}{{(\+[0-9]+)?}}], 16, %r{{[0-9]+}};
// CHECK: cp.async.commit_group;
// CHECK: cp.async.wait_group 0;
// CHECK: bar.sync 0;
// CHECK-COUNT-4: ld.shared.v4.b32
// CHECK: st.global

#blocked = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#swizzled = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#sliceRow = #tkgpu.slice<{dim = 1, parent = #blocked}>
#sliceCol = #tkgpu.slice<{dim = 0, parent = #blocked}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
func.func @tile_copy(%a: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %b: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %n: i32) attributes {tk.kernel} {
  %i = tk.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #sliceRow>
  %j = tk.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #sliceCol>
  %ie = tk.expand_dims %i {axis = 1 : i32} : tensor<64xi32, #sliceRow> -> tensor<64x1xi32, #blocked>
  %c64 = arith.constant dense<64> : tensor<64x1xi32, #blocked>
  %rows = arith.muli %ie, %c64 : tensor<64x1xi32, #blocked>
  %rb = tk.broadcast %rows : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
  %je = tk.expand_dims %j {axis = 0 : i32} : tensor<64xi32, #sliceCol> -> tensor<1x64xi32, #blocked>
  %jb = tk.broadcast %je : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
  %off = arith.addi %rb, %jb : tensor<64x64xi32, #blocked>
  %as = tk.splat %a : !tk.ptr<f16> -> tensor<64x64x!tk.ptr<f16>, #blocked>
  %p = tk.addptr %as, %off : tensor<64x64x!tk.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
  %ns = tk.splat %n : i32 -> tensor<64x1xi32, #blocked>
  %m1 = arith.cmpi slt, %ie, %ns : tensor<64x1xi32, #blocked>
  %m = tk.broadcast %m1 : tensor<64x1xi1, #blocked> -> tensor<64x64xi1, #blocked>
  %buf = tkgpu.local_alloc !tkgpu.memdesc<64x64xf16, #swizzled>
  tkgpu.async_copy_global_to_local %p, %buf mask %m : tensor<64x64x!tk.ptr<f16>, #blocked> -> !tkgpu.memdesc<64x64xf16, #swizzled>, tensor<64x64xi1, #blocked>
  tkgpu.async_commit_group
  tkgpu.async_wait 0
  tkgpu.barrier
  %v = tkgpu.local_load %buf : !tkgpu.memdesc<64x64xf16, #swizzled> -> tensor<64x64xf16, #blocked>
  tkgpu.local_dealloc %buf : !tkgpu.memdesc<64x64xf16, #swizzled>
  %bs = tk.splat %b : !tk.ptr<f16> -> tensor<64x64x!tk.ptr<f16>, #blocked>
  %q = tk.addptr %bs, %off : tensor<64x64x!tk.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
  tk.store %q, %v : tensor<64x64x!tk.ptr<f16>, #blocked>, tensor<64x64xf16, #blocked>
  return
}
}
