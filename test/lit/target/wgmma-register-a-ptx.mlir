// REQUIRES: ptxas
// RUN: tk-opt %s -tkgpu-allocate-shared-memory -tkgpu-membar -convert-tkgpu-to-llvm -convert-nvvm-to-llvm -canonicalize -cse -reconcile-unrealized-casts -o %t.llvm.mlir
// RUN: tk-translate --tk-to-ptx --tk-arch=sm_90a %t.llvm.mlir -o %t.sm90.ptx
// RUN: FileCheck %s < %t.sm90.ptx
// RUN: %ptxas -arch=sm_90a -O3 %t.sm90.ptx -o %t.sm90.cubin
// wgmma with A in registers (attention's second dot): A (64x16 f16) is
// converted into the #dot_operand layout of the #mma v3 result, B goes to
// an nvmma_shared buffer; the PTX has the register-A form of
// wgmma.mma_async (four f16x2 words for A, a descriptor for B, N-major B)
// and ptxas accepts it.

// CHECK-LABEL: .visible .entry register_a(
// CHECK: fence.proxy.async.shared::cta;
// CHECK: bar.sync 0;
// CHECK: wgmma.fence.sync.aligned;
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%r{{[0-9]+}}, {{.*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, p, 1, 1, 1;
// CHECK-NOT: wgmma.mma_async
// CHECK: wgmma.commit_group.sync.aligned;
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK: st.global

#la = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
#lb = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#oa = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#sb = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
func.func @register_a(%a: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %b: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %c: !tk.ptr<f32> {tk.divisibility = 16 : i32}) attributes {tk.kernel} {
  // A: 64x16, row-major.
  %ai = tk.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 1, parent = #la}>>
  %aj = tk.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32, #tkgpu.slice<{dim = 0, parent = #la}>>
  %aie = tk.expand_dims %ai {axis = 1 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 1, parent = #la}>> -> tensor<64x1xi32, #la>
  %c16 = arith.constant dense<16> : tensor<64x1xi32, #la>
  %arow = arith.muli %aie, %c16 : tensor<64x1xi32, #la>
  %arb = tk.broadcast %arow : tensor<64x1xi32, #la> -> tensor<64x16xi32, #la>
  %aje = tk.expand_dims %aj {axis = 0 : i32} : tensor<16xi32, #tkgpu.slice<{dim = 0, parent = #la}>> -> tensor<1x16xi32, #la>
  %ajb = tk.broadcast %aje : tensor<1x16xi32, #la> -> tensor<64x16xi32, #la>
  %aoff = arith.addi %arb, %ajb : tensor<64x16xi32, #la>
  %as = tk.splat %a : !tk.ptr<f16> -> tensor<64x16x!tk.ptr<f16>, #la>
  %ap = tk.addptr %as, %aoff : tensor<64x16x!tk.ptr<f16>, #la>, tensor<64x16xi32, #la>
  %x = tk.load %ap : tensor<64x16x!tk.ptr<f16>, #la> -> tensor<64x16xf16, #la>
  %xa = tkgpu.convert_layout %x : tensor<64x16xf16, #la> -> tensor<64x16xf16, #oa>
  // B: 16x64, row-major (N-major for wgmma).
  %bi = tk.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32, #tkgpu.slice<{dim = 1, parent = #lb}>>
  %bj = tk.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 0, parent = #lb}>>
  %bie = tk.expand_dims %bi {axis = 1 : i32} : tensor<16xi32, #tkgpu.slice<{dim = 1, parent = #lb}>> -> tensor<16x1xi32, #lb>
  %c64 = arith.constant dense<64> : tensor<16x1xi32, #lb>
  %brow = arith.muli %bie, %c64 : tensor<16x1xi32, #lb>
  %brb = tk.broadcast %brow : tensor<16x1xi32, #lb> -> tensor<16x64xi32, #lb>
  %bje = tk.expand_dims %bj {axis = 0 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 0, parent = #lb}>> -> tensor<1x64xi32, #lb>
  %bjb = tk.broadcast %bje : tensor<1x64xi32, #lb> -> tensor<16x64xi32, #lb>
  %boff = arith.addi %brb, %bjb : tensor<16x64xi32, #lb>
  %bs = tk.splat %b : !tk.ptr<f16> -> tensor<16x64x!tk.ptr<f16>, #lb>
  %bp = tk.addptr %bs, %boff : tensor<16x64x!tk.ptr<f16>, #lb>, tensor<16x64xi32, #lb>
  %y = tk.load %bp : tensor<16x64x!tk.ptr<f16>, #lb> -> tensor<16x64xf16, #lb>
  %mb = tkgpu.local_alloc %y : tensor<16x64xf16, #lb> -> !tkgpu.memdesc<16x64xf16, #sb>
  tkgpu.fence_async_shared
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %d = tkgpu.warp_group_dot %xa, %mb, %zero : tensor<64x16xf16, #oa> * !tkgpu.memdesc<16x64xf16, #sb> -> tensor<64x64xf32, #mma>
  // C: 64x64 f32, row-major, stored from the accumulator layout.
  %ci = tk.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 1, parent = #mma}>>
  %cj = tk.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 0, parent = #mma}>>
  %cie = tk.expand_dims %ci {axis = 1 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 1, parent = #mma}>> -> tensor<64x1xi32, #mma>
  %c64c = arith.constant dense<64> : tensor<64x1xi32, #mma>
  %crow = arith.muli %cie, %c64c : tensor<64x1xi32, #mma>
  %crb = tk.broadcast %crow : tensor<64x1xi32, #mma> -> tensor<64x64xi32, #mma>
  %cje = tk.expand_dims %cj {axis = 0 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 0, parent = #mma}>> -> tensor<1x64xi32, #mma>
  %cjb = tk.broadcast %cje : tensor<1x64xi32, #mma> -> tensor<64x64xi32, #mma>
  %coff = arith.addi %crb, %cjb : tensor<64x64xi32, #mma>
  %cs = tk.splat %c : !tk.ptr<f32> -> tensor<64x64x!tk.ptr<f32>, #mma>
  %cp = tk.addptr %cs, %coff : tensor<64x64x!tk.ptr<f32>, #mma>, tensor<64x64xi32, #mma>
  tk.store %cp, %d : tensor<64x64x!tk.ptr<f32>, #mma>, tensor<64x64xf32, #mma>
  return
}
}
