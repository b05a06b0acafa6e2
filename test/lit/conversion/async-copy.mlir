// RUN: tk-opt %s -split-input-file -convert-tkgpu-to-llvm -canonicalize -cse -reconcile-unrealized-casts | FileCheck %s
// cp.async: the width of each copy is what is contiguous and aligned both
// in global memory (AxisInfo) and in the buffer (its shared layout);
// masked elements copy 0 source bytes (zero fill); commit and wait groups.

#blocked = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#swizzled = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#sliceRow = #tkgpu.slice<{dim = 1, parent = #blocked}>
#sliceCol = #tkgpu.slice<{dim = 0, parent = #blocked}>

// A row-major 64x64xf16 tile (rows 64 elements apart, 16-byte aligned
// base): 8 contiguous f16 per register run in global memory and in the
// swizzled buffer, so 4 copies of 16 bytes (.cg) per thread, the 2nd and
// 4th at the swizzle xor (column 32), the 3rd and 4th 2048 elements (row
// 32) further. The mask (row < n) is constant along a row: cpSize.
// CHECK: tkgpu.shared_bytes = 10240 : i32
// CHECK-LABEL: llvm.func {{.*}}@tile_f16(
// CHECK-DAG: llvm.mlir.constant(16 : i32) : i32
// CHECK-DAG: %[[C32:.*]] = llvm.mlir.constant(32 : i32) : i32
// CHECK-DAG: %[[C2048:.*]] = llvm.mlir.constant(2048 : i32) : i32
// CHECK-DAG: %[[SMEM:.*]] = llvm.mlir.addressof @tk_smem : !llvm.ptr<3>
// CHECK: %[[BUF:.*]] = llvm.getelementptr %[[SMEM]][2048] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: %[[X:.*]] = llvm.xor %[[T:[0-9]+]], %[[C32]] : i32
// CHECK: %[[R32:.*]] = llvm.add %[[T]], %[[C2048]] : i32
// CHECK: %[[XR32:.*]] = llvm.add %[[X]], %[[C2048]] : i32
// CHECK: %[[D0:.*]] = llvm.getelementptr %[[BUF]][%[[T]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
// CHECK: %[[S0:.*]] = llvm.select %{{.*}}, %[[C16:.*]], %[[C0:.*]] : i1, i32
// CHECK: nvvm.cp.async.shared.global %[[D0]], %{{.*}}, 16, cache = cg, %[[S0]] : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK: %[[D1:.*]] = llvm.getelementptr %[[BUF]][%[[X]]]
// CHECK: nvvm.cp.async.shared.global %[[D1]], %{{.*}}, 16, cache = cg, %[[S0]]
// CHECK: %[[D2:.*]] = llvm.getelementptr %[[BUF]][%[[R32]]]
// CHECK: %[[S2:.*]] = llvm.select %{{.*}}, %[[C16]], %[[C0]] : i1, i32
// CHECK: nvvm.cp.async.shared.global %[[D2]], %{{.*}}, 16, cache = cg, %[[S2]]
// CHECK: %[[D3:.*]] = llvm.getelementptr %[[BUF]][%[[XR32]]]
// CHECK: nvvm.cp.async.shared.global %[[D3]], %{{.*}}, 16, cache = cg, %[[S2]]
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvvm.cp.async.wait.group 1
// CHECK: nvvm.cp.async.wait.group 0
// CHECK: llvm.return
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
func.func @tile_f16(%a: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %n: i32) {
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
  %zero = arith.constant dense<0.0> : tensor<64x64xf16, #blocked>
  %buf = tkgpu.local_alloc {tkgpu.offset = 2048 : i64} !tkgpu.memdesc<64x64xf16, #swizzled>
  tkgpu.async_copy_global_to_local %p, %buf mask %m other %zero : tensor<64x64x!tk.ptr<f16>, #blocked> -> !tkgpu.memdesc<64x64xf16, #swizzled>, tensor<64x64xi1, #blocked>, tensor<64x64xf16, #blocked>
  tkgpu.async_commit_group
  tkgpu.async_wait 1
  tkgpu.async_wait 0
  return
}
}

// -----

#v1 = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#v2 = #tkgpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#plain = #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>

// One f32 per thread: 4-byte copies (.ca), no mask: no cpSize. Then two
// f32 per register run: 8-byte copies at offset 2 * thread.
// CHECK-LABEL: llvm.func {{.*}}@narrow_f32(
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 4, cache = ca : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 8, cache = ca : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK: llvm.return
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
func.func @narrow_f32(%a: !tk.ptr<f32> {tk.divisibility = 16 : i32}) {
  %r = tk.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32, #v1>
  %as = tk.splat %a : !tk.ptr<f32> -> tensor<128x!tk.ptr<f32>, #v1>
  %p = tk.addptr %as, %r : tensor<128x!tk.ptr<f32>, #v1>, tensor<128xi32, #v1>
  %buf = tkgpu.local_alloc !tkgpu.memdesc<128xf32, #plain>
  tkgpu.async_copy_global_to_local %p, %buf : tensor<128x!tk.ptr<f32>, #v1> -> !tkgpu.memdesc<128xf32, #plain>
  tkgpu.async_commit_group
  %r2 = tk.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32, #v2>
  %as2 = tk.splat %a : !tk.ptr<f32> -> tensor<256x!tk.ptr<f32>, #v2>
  %p2 = tk.addptr %as2, %r2 : tensor<256x!tk.ptr<f32>, #v2>, tensor<256xi32, #v2>
  %buf2 = tkgpu.local_alloc !tkgpu.memdesc<256xf32, #plain>
  tkgpu.async_copy_global_to_local %p2, %buf2 : tensor<256x!tk.ptr<f32>, #v2> -> !tkgpu.memdesc<256xf32, #plain>
  return
}
}
