// RUN: tk-opt %s -tkgpu-allocate-shared-memory -tkgpu-membar -convert-tkgpu-to-llvm -tk-llvm-prune-barriers -canonicalize -cse -tk-llvm-sink-unpacking -reconcile-unrealized-casts -o %t.llvm.mlir
// RUN: tk-translate --tk-to-ptx --tk-arch=sm_90a %t.llvm.mlir -o %t.sm90.ptx
// RUN: FileCheck %s < %t.sm90.ptx
// RUN: tk-translate --tk-to-ptx --tk-arch=sm_80 %t.llvm.mlir -o %t.sm80.ptx
// RUN: FileCheck %s --check-prefix=SM80 < %t.sm80.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -O3 %t.sm90.ptx -o %t.sm90.cubin %}
// RUN: %if ptxas %{ %ptxas -arch=sm_80 -O3 %t.sm80.ptx -o %t.sm80.cubin %}
// RUN: %if ptxas %{ tk-translate --tk-ptxas-stats --tk-arch=sm_90a %t.llvm.mlir | FileCheck %s --check-prefix=STATS %}
// From tkgpu to PTX: the instructions each lowering is meant to produce,
// and ptxas accepting the result for both targets.

// SM80: .target sm_80
// STATS: cubin: {{[0-9]+}} bytes, ELF yes
// STATS-DAG: softmax: {{[0-9]+}} registers, 0 bytes spill stores, 0 bytes spill loads, 0 bytes stack
// STATS-DAG: add: {{[0-9]+}} registers, 0 bytes spill stores

#v4 = #tkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#v1 = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#row = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #tkgpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>

// CHECK: .target sm_90a
// CHECK: .extern .shared .align 16 .b8 tk_smem[];
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {

// 16-byte aligned add: 128-bit accesses.
// CHECK-LABEL: .visible .entry add(
// CHECK: .reqntid 128, 1, 1
// CHECK: @%p{{[0-9]+}} ld.global.v4.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [ %rd{{[0-9]+}} + 0 ];
// CHECK: @%p{{[0-9]+}} ld.global.v4.b32
// CHECK: add.f32
// CHECK: @%p{{[0-9]+}} st.global.v4.b32 [ %rd{{[0-9]+}} + 0 ], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
// CHECK: ret;
func.func @add(%x: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %y: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %o: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %n: i32 {tk.divisibility = 16 : i32}) attributes {tk.kernel} {
  %pid = tk.program_id 0 : i32
  %c1024 = arith.constant 1024 : i32
  %base = arith.muli %pid, %c1024 : i32
  %r = tk.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32, #v4>
  %bs = tk.splat %base : i32 -> tensor<1024xi32, #v4>
  %offs = arith.addi %bs, %r : tensor<1024xi32, #v4>
  %ns = tk.splat %n : i32 -> tensor<1024xi32, #v4>
  %m = arith.cmpi slt, %offs, %ns : tensor<1024xi32, #v4>
  %xs = tk.splat %x : !tk.ptr<f32> -> tensor<1024x!tk.ptr<f32>, #v4>
  %xp = tk.addptr %xs, %offs : tensor<1024x!tk.ptr<f32>, #v4>, tensor<1024xi32, #v4>
  %xv = tk.load %xp, mask %m : tensor<1024x!tk.ptr<f32>, #v4> -> tensor<1024xf32, #v4>, tensor<1024xi1, #v4>
  %ys = tk.splat %y : !tk.ptr<f32> -> tensor<1024x!tk.ptr<f32>, #v4>
  %yp = tk.addptr %ys, %offs : tensor<1024x!tk.ptr<f32>, #v4>, tensor<1024xi32, #v4>
  %yv = tk.load %yp, mask %m : tensor<1024x!tk.ptr<f32>, #v4> -> tensor<1024xf32, #v4>, tensor<1024xi1, #v4>
  %s = arith.addf %xv, %yv : tensor<1024xf32, #v4>
  %os = tk.splat %o : !tk.ptr<f32> -> tensor<1024x!tk.ptr<f32>, #v4>
  %op = tk.addptr %os, %offs : tensor<1024x!tk.ptr<f32>, #v4>, tensor<1024xi32, #v4>
  tk.store %op, %s, mask %m : tensor<1024x!tk.ptr<f32>, #v4>, tensor<1024xf32, #v4>, tensor<1024xi1, #v4>
  return
}

// One row of softmax: butterfly shuffles, ex2.approx.ftz, the per-warp partials
// through shared memory between barriers, and the barrier that keeps the
// second reduction from overwriting partials the first is still reading.
// CHECK-LABEL: .visible .entry softmax(
// CHECK: ld.global.v4.b32
// CHECK: shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
// CHECK: shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
// CHECK: st.shared.b32
// CHECK: bar.sync 0;
// CHECK: ld.shared.v4.b32
// CHECK: ex2.approx.ftz.f32
// CHECK: bar.sync 0;
// CHECK: st.shared.b32
// CHECK: bar.sync 0;
// CHECK: div.rn.f32
// CHECK: st.global.v4.b32
func.func @softmax(%in: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %out: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %stride: i32 {tk.divisibility = 16 : i32}, %n: i32 {tk.divisibility = 16 : i32}) attributes {tk.kernel} {
  %row = tk.program_id 0 : i32
  %start = arith.muli %row, %stride : i32
  %inRow = tk.addptr %in, %start : !tk.ptr<f32>, i32
  %outRow = tk.addptr %out, %start : !tk.ptr<f32>, i32
  %cols = tk.make_range {start = 0 : i32, end = 2048 : i32} : tensor<2048xi32, #v4>
  %ns = tk.splat %n : i32 -> tensor<2048xi32, #v4>
  %m = arith.cmpi slt, %cols, %ns : tensor<2048xi32, #v4>
  %ip = tk.splat %inRow : !tk.ptr<f32> -> tensor<2048x!tk.ptr<f32>, #v4>
  %ia = tk.addptr %ip, %cols : tensor<2048x!tk.ptr<f32>, #v4>, tensor<2048xi32, #v4>
  %ninf = arith.constant dense<0xFF800000> : tensor<2048xf32, #v4>
  %x = tk.load %ia, mask %m, other %ninf : tensor<2048x!tk.ptr<f32>, #v4> -> tensor<2048xf32, #v4>, tensor<2048xi1, #v4>
  %mx = tk.reduce max %x {axis = 0 : i32} : tensor<2048xf32, #v4> -> f32
  %mxs = tk.splat %mx : f32 -> tensor<2048xf32, #v4>
  %d = arith.subf %x, %mxs : tensor<2048xf32, #v4>
  %e = math.exp %d : tensor<2048xf32, #v4>
  %sum = tk.reduce sum %e {axis = 0 : i32} : tensor<2048xf32, #v4> -> f32
  %sums = tk.splat %sum : f32 -> tensor<2048xf32, #v4>
  %y = arith.divf %e, %sums : tensor<2048xf32, #v4>
  %op = tk.splat %outRow : !tk.ptr<f32> -> tensor<2048x!tk.ptr<f32>, #v4>
  %oa = tk.addptr %op, %cols : tensor<2048x!tk.ptr<f32>, #v4>, tensor<2048xi32, #v4>
  tk.store %oa, %y, mask %m : tensor<2048x!tk.ptr<f32>, #v4>, tensor<2048xf32, #v4>, tensor<2048xi1, #v4>
  return
}

// bf16 in, f32 math, bf16 out: 8 elements per 128-bit access.
// CHECK-LABEL: .visible .entry bf16_scale(
// CHECK: ld.global.v4.b32
// CHECK: cvt.f32.bf16
// CHECK: cvt.rn.bf16x2.f32
// CHECK: st.global.v4.b32
func.func @bf16_scale(%x: !tk.ptr<bf16> {tk.divisibility = 16 : i32}, %s: f32) attributes {tk.kernel} {
  %r = tk.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32, #tkgpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
  %xs = tk.splat %x : !tk.ptr<bf16> -> tensor<1024x!tk.ptr<bf16>, #tkgpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
  %xp = tk.addptr %xs, %r : tensor<1024x!tk.ptr<bf16>, #tkgpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>, tensor<1024xi32, #tkgpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
  %v = tk.load %xp : tensor<1024x!tk.ptr<bf16>, #tkgpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>> -> tensor<1024xbf16, #tkgpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
  %f = arith.extf %v : tensor<1024xbf16, #tkgpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>> to tensor<1024xf32, #tkgpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
  %ss = tk.splat %s : f32 -> tensor<1024xf32, #tkgpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
  %p = arith.mulf %f, %ss : tensor<1024xf32, #tkgpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
  %t = arith.truncf %p : tensor<1024xf32, #tkgpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>> to tensor<1024xbf16, #tkgpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
  tk.store %xp, %t : tensor<1024x!tk.ptr<bf16>, #tkgpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>, tensor<1024xbf16, #tkgpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
  return
}

// Histogram-style atomics and a transposing layout conversion.
// CHECK-LABEL: .visible .entry atomics(
// CHECK: atom.acq_rel.gpu.global.add.u32
// CHECK: atom.relaxed.gpu.global.max.s32
// CHECK: atom.relaxed.gpu.global.min.u32
func.func @atomics(%bins: tensor<128x!tk.ptr<i32>, #v1>, %p: tensor<128x!tk.ptr<f32>, #v1>, %v: tensor<128xf32, #v1>) attributes {tk.kernel} {
  %one = arith.constant dense<1> : tensor<128xi32, #v1>
  %a = tk.atomic_rmw add %bins, %one : tensor<128x!tk.ptr<i32>, #v1>, tensor<128xi32, #v1>
  %b = tk.atomic_rmw max %p, %v sem = relaxed : tensor<128x!tk.ptr<f32>, #v1>, tensor<128xf32, #v1>
  return
}

// CHECK-LABEL: .visible .entry convert(
// CHECK: st.shared.v4.b32
// CHECK: bar.sync 0;
// CHECK: ld.shared.b32
func.func @convert(%x: tensor<32x32xf32, #row>, %o: tensor<32x32x!tk.ptr<f32>, #col>) attributes {tk.kernel} {
  %c = tkgpu.convert_layout %x : tensor<32x32xf32, #row> -> tensor<32x32xf32, #col>
  tk.store %o, %c : tensor<32x32x!tk.ptr<f32>, #col>, tensor<32x32xf32, #col>
  return
}
}
