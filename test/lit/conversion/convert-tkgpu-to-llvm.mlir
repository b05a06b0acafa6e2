// RUN: tk-opt %s -convert-tkgpu-to-llvm -canonicalize -cse -reconcile-unrealized-casts | FileCheck %s
// One kernel per op family; the PTX that comes out is checked by
// test/lit/target/tkgpu-to-ptx.mlir.

#v4 = #tkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#v1 = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#row = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #tkgpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>

// The dynamic shared memory, and the scratch the largest op needed.
// CHECK: module attributes {{{.*}}tkgpu.shared_bytes = [[BYTES:[0-9]+]] : i32
// CHECK: llvm.mlir.global external @tk_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {

// Kernel attributes; 16-byte divisible pointers become llvm.align; 128-bit
// predicated loads and stores.
// CHECK-LABEL: llvm.func @add(
// CHECK-SAME: %{{.*}}: !llvm.ptr<1> {llvm.align = 16 : i64}
// CHECK-SAME: nvvm.kernel, nvvm.reqntid = array<i32: 128, 1, 1>
// CHECK-SAME: tk.grid_rank = 1 : i32
// CHECK: nvvm.read.ptx.sreg.ctaid.x
// CHECK: nvvm.read.ptx.sreg.tid.x
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "@$4 ld.global.v4.b32 {$0, $1, $2, $3}, [ $5 + 0 ];", "=r,=r,=r,=r,b,l"
// CHECK: llvm.fadd
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "@$0 st.global.v4.b32 [ $1 + 0 ], {$2, $3, $4, $5};", "b,l,r,r,r,r"
func.func @add(%x: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %o: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %n: i32 {tk.divisibility = 16 : i32}) attributes {tk.kernel} {
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
  %v = tk.load %xp, mask %m : tensor<1024x!tk.ptr<f32>, #v4> -> tensor<1024xf32, #v4>, tensor<1024xi1, #v4>
  %s = arith.addf %v, %v : tensor<1024xf32, #v4>
  %os = tk.splat %o : !tk.ptr<f32> -> tensor<1024x!tk.ptr<f32>, #v4>
  %op = tk.addptr %os, %offs : tensor<1024x!tk.ptr<f32>, #v4>, tensor<1024xi32, #v4>
  tk.store %op, %s, mask %m : tensor<1024x!tk.ptr<f32>, #v4>, tensor<1024xf32, #v4>, tensor<1024xi1, #v4>
  return
}

// Unknown alignment: one element per access; masked-off lanes take `other`.
// CHECK-LABEL: llvm.func @load_other(
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "@!$1 mov.b32 $0, $3;\0A\09@$1 ld.global.b32 $0, [ $2 + 0 ];", "=r,b,l,r"
func.func @load_other(%x: !tk.ptr<f32>, %o: !tk.ptr<f32>, %n: i32) attributes {tk.kernel} {
  %r = tk.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32, #v1>
  %ns = tk.splat %n : i32 -> tensor<128xi32, #v1>
  %m = arith.cmpi slt, %r, %ns : tensor<128xi32, #v1>
  %xs = tk.splat %x : !tk.ptr<f32> -> tensor<128x!tk.ptr<f32>, #v1>
  %xp = tk.addptr %xs, %r : tensor<128x!tk.ptr<f32>, #v1>, tensor<128xi32, #v1>
  %other = arith.constant dense<0xFF800000> : tensor<128xf32, #v1>
  %v = tk.load %xp, mask %m, other %other : tensor<128x!tk.ptr<f32>, #v1> -> tensor<128xf32, #v1>, tensor<128xi1, #v1>
  %os = tk.splat %o : !tk.ptr<f32> -> tensor<128x!tk.ptr<f32>, #v1>
  %op = tk.addptr %os, %r : tensor<128x!tk.ptr<f32>, #v1>, tensor<128xi32, #v1>
  tk.store %op, %v : tensor<128x!tk.ptr<f32>, #v1>, tensor<128xf32, #v1>
  return
}

// A full reduction: in-thread, five butterfly shuffles, one partial per warp
// through shared memory. The scalar store is done by thread 0 only.
// CHECK-LABEL: llvm.func @reduce_max(
// CHECK-COUNT-3: llvm.intr.maximum
// CHECK: nvvm.shfl.sync bfly
// CHECK: nvvm.shfl.sync bfly
// CHECK: nvvm.shfl.sync bfly
// CHECK: nvvm.shfl.sync bfly
// CHECK: nvvm.shfl.sync bfly
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "@$0 st.shared.b32 [ $1 + 0 ], $2;"
// CHECK: nvvm.barrier0
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK: llvm.icmp "eq" %{{.*}}, %{{.*}} : i32
// CHECK: "@$0 st.global.b32 [ $1 + 0 ], $2;"
func.func @reduce_max(%x: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %o: !tk.ptr<f32>) attributes {tk.kernel} {
  %r = tk.make_range {start = 0 : i32, end = 512 : i32} : tensor<512xi32, #v4>
  %xs = tk.splat %x : !tk.ptr<f32> -> tensor<512x!tk.ptr<f32>, #v4>
  %xp = tk.addptr %xs, %r : tensor<512x!tk.ptr<f32>, #v4>, tensor<512xi32, #v4>
  %v = tk.load %xp : tensor<512x!tk.ptr<f32>, #v4> -> tensor<512xf32, #v4>
  %m = tk.reduce max %v {axis = 0 : i32} : tensor<512xf32, #v4> -> f32
  tk.store %o, %m : !tk.ptr<f32>, f32
  return
}

// A row reduction of a 2-D tensor stays within each warp (lanes along the
// axis are bits 0..2); argmax carries the index along.
// CHECK-LABEL: llvm.func @argmax_rows(
// CHECK-NOT: nvvm.barrier0
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : f32 -> f32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : i32 -> i32
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
func.func @argmax_rows(%x: tensor<16x32xf32, #row>, %o: !tk.ptr<i32>) attributes {tk.kernel} {
  %a = tk.reduce argmax %x {axis = 1 : i32} : tensor<16x32xf32, #row> -> tensor<16xi32, #tkgpu.slice<{dim = 1, parent = #row}>>
  %r = tk.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32, #tkgpu.slice<{dim = 1, parent = #row}>>
  %os = tk.splat %o : !tk.ptr<i32> -> tensor<16x!tk.ptr<i32>, #tkgpu.slice<{dim = 1, parent = #row}>>
  %op = tk.addptr %os, %r : tensor<16x!tk.ptr<i32>, #tkgpu.slice<{dim = 1, parent = #row}>>, tensor<16xi32, #tkgpu.slice<{dim = 1, parent = #row}>>
  tk.store %op, %a : tensor<16x!tk.ptr<i32>, #tkgpu.slice<{dim = 1, parent = #row}>>, tensor<16xi32, #tkgpu.slice<{dim = 1, parent = #row}>>
  return
}

// Fast math: exp is ex2.approx.ftz of x * log2(e); tanh and erf are our own f32
// approximations; bf16 computes in f32.
// CHECK-LABEL: llvm.func @math(
// CHECK: llvm.fmul %{{.*}}, %{{.*}} : f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// CHECK: llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"
// CHECK: llvm.call_intrinsic "llvm.nvvm.rsqrt.approx.f"
// CHECK: llvm.call_intrinsic "llvm.nvvm.sin.approx.f"
// CHECK: llvm.fpext %{{.*}} : bf16 to f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// CHECK: llvm.fptrunc %{{.*}} : f32 to bf16
// CHECK: llvm.intr.sqrt
// CHECK: llvm.fdiv
// CHECK: llvm.call_intrinsic "llvm.nvvm.div.full"
func.func @math(%x: f32, %y: bf16, %o: !tk.ptr<f32>, %ob: !tk.ptr<bf16>) attributes {tk.kernel} {
  %e = math.exp %x : f32
  %l = math.log %e : f32
  %r = math.rsqrt %l : f32
  %s = math.sin %r : f32
  %t = math.tanh %s : f32
  %f = math.erf %t : f32
  %b = math.exp %y : bf16
  %q = math.sqrt %f : f32
  %d = arith.divf %q, %x : f32
  %dd = arith.divf %d, %x fastmath<afn> : f32
  tk.store %o, %dd : !tk.ptr<f32>, f32
  tk.store %ob, %b : !tk.ptr<bf16>, bf16
  return
}

// A layout conversion that moves data between threads goes through shared
// memory (the barrier before the store is dropped: nothing used shared
// memory before it).
// CHECK-LABEL: llvm.func @convert(
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
func.func @convert(%x: tensor<32x32xf32, #row>, %o: tensor<32x32x!tk.ptr<f32>, #col>) attributes {tk.kernel} {
  %c = tkgpu.convert_layout %x : tensor<32x32xf32, #row> -> tensor<32x32xf32, #col>
  tk.store %o, %c : tensor<32x32x!tk.ptr<f32>, #col>, tensor<32x32xf32, #col>
  return
}

// Atomics return the old value; float max uses signed-max / unsigned-min
// integer atomics by sign.
// CHECK-LABEL: llvm.func @atomics(
// CHECK: "mov.b32 $0, 0;\0A\09@$1 atom.acq_rel.gpu.global.add.f32 $0, [ $2 + 0 ], $3;"
// CHECK: atom.relaxed.cta.global.max.s32 $0, [ $3 + 0 ], $4;\0A\09@$2 atom.relaxed.cta.global.min.u32
// CHECK: "mov.b32 $0, 0;\0A\09@$1 atom.acq_rel.gpu.global.cas.b32 $0, [ $2 + 0 ], $3, $4;"
func.func @atomics(%p: tensor<128x!tk.ptr<f32>, #v1>, %v: tensor<128xf32, #v1>, %q: !tk.ptr<i32>, %o: tensor<128x!tk.ptr<f32>, #v1>) attributes {tk.kernel} {
  %old = tk.atomic_rmw add %p, %v : tensor<128x!tk.ptr<f32>, #v1>, tensor<128xf32, #v1>
  %old2 = tk.atomic_rmw max %p, %old sem = relaxed scope = cta : tensor<128x!tk.ptr<f32>, #v1>, tensor<128xf32, #v1>
  tk.store %o, %old2 : tensor<128x!tk.ptr<f32>, #v1>, tensor<128xf32, #v1>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c = tk.atomic_cas %q, %c0, %c1 : !tk.ptr<i32>, i32
  tk.store %q, %c : !tk.ptr<i32>, i32
  return
}

// A scan along lanes: shfl.sync.idx from the end of the lower half.
// CHECK-LABEL: llvm.func @cumsum(
// CHECK: nvvm.shfl.sync idx
// CHECK: llvm.select
func.func @cumsum(%x: tensor<128xi32, #v1>, %o: tensor<128x!tk.ptr<i32>, #v1>) attributes {tk.kernel} {
  %s = tk.scan sum %x {axis = 0 : i32} : tensor<128xi32, #v1> -> tensor<128xi32, #v1>
  tk.store %o, %s : tensor<128x!tk.ptr<i32>, #v1>, tensor<128xi32, #v1>
  return
}

// device_print and device_assert call the CUDA device runtime.
// CHECK-LABEL: llvm.func @debug(
// CHECK: llvm.call @vprintf(
// CHECK: llvm.call @__assertfail(
func.func @debug(%x: tensor<128xi32, #v1>) attributes {tk.kernel} {
  tk.print " x: " %x : tensor<128xi32, #v1>
  %c = arith.constant dense<100> : tensor<128xi32, #v1>
  %ok = arith.cmpi slt, %x, %c : tensor<128xi32, #v1>
  tk.assert %ok, "x < 100" : tensor<128xi1, #v1>
  return
}

// The slow dot path: operands through shared memory, one FMA per
// accumulator and k.
// CHECK-LABEL: llvm.func @dot(
// CHECK: nvvm.barrier0
// CHECK: llvm.intr.fma
// CHECK: llvm.br
func.func @dot(%a: tensor<16x16xf32, #row>, %b: tensor<16x16xf32, #row>, %c: tensor<16x16xf32, #row>, %o: tensor<16x16x!tk.ptr<f32>, #row>) attributes {tk.kernel} {
  %d = tk.dot %a, %b, %c precision = ieee : tensor<16x16xf32, #row> * tensor<16x16xf32, #row> -> tensor<16x16xf32, #row>
  tk.store %o, %d : tensor<16x16x!tk.ptr<f32>, #row>, tensor<16x16xf32, #row>
  return
}

// Loops: tensors flow through block arguments as structs.
// CHECK-LABEL: llvm.func @loop(
// CHECK: llvm.br ^bb1(%{{.*}}, %{{.*}} : i32, !llvm.struct<(f32, f32, f32, f32)>)
// CHECK: ^bb1(%{{.*}}: i32, %{{.*}}: !llvm.struct<(f32, f32, f32, f32)>):
func.func @loop(%x: tensor<512xf32, #v4>, %n: i32, %o: tensor<512x!tk.ptr<f32>, #v4>) attributes {tk.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<512xf32, #v4>) : i32 {
    %a = arith.addf %acc, %x : tensor<512xf32, #v4>
    scf.yield %a : tensor<512xf32, #v4>
  }
  tk.store %o, %r : tensor<512x!tk.ptr<f32>, #v4>, tensor<512xf32, #v4>
  return
}
}
