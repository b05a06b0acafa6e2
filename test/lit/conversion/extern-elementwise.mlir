// RUN: tk-opt %s -split-input-file -convert-tkgpu-to-llvm -canonicalize -cse -reconcile-unrealized-casts | FileCheck %s
// tk.extern_elementwise calls its libdevice symbol once per element a
// thread holds, declared once with the op's own operand and result types
// (f32 and i32 for ldexp, f32 -> i32 for float2int_rd).

#v2 = #tkgpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: llvm.func @__nv_ldexpf(f32, i32) -> f32
// CHECK-DAG: llvm.func @__nv_float2int_rd(f32) -> i32
// CHECK-LABEL: llvm.func @tensor(
// CHECK-COUNT-2: llvm.call @__nv_ldexpf(%{{.*}}, %{{.*}}) : (f32, i32) -> f32
// CHECK-NOT: llvm.call @__nv_ldexpf
// CHECK-COUNT-2: llvm.call @__nv_float2int_rd(%{{.*}}) : (f32) -> i32
// CHECK-NOT: llvm.call @__nv_
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
func.func @tensor(%x: !tk.ptr<f32>, %o: !tk.ptr<i32>) attributes {tk.kernel} {
  %r = tk.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32, #v2>
  %xs = tk.splat %x : !tk.ptr<f32> -> tensor<256x!tk.ptr<f32>, #v2>
  %xp = tk.addptr %xs, %r : tensor<256x!tk.ptr<f32>, #v2>, tensor<256xi32, #v2>
  %v = tk.load %xp : tensor<256x!tk.ptr<f32>, #v2> -> tensor<256xf32, #v2>
  %s = tk.extern_elementwise "__nv_ldexpf"(%v, %r) : (tensor<256xf32, #v2>, tensor<256xi32, #v2>) -> tensor<256xf32, #v2>
  %i = tk.extern_elementwise "__nv_float2int_rd"(%s) : (tensor<256xf32, #v2>) -> tensor<256xi32, #v2>
  %os = tk.splat %o : !tk.ptr<i32> -> tensor<256x!tk.ptr<i32>, #v2>
  %op = tk.addptr %os, %r : tensor<256x!tk.ptr<i32>, #v2>, tensor<256xi32, #v2>
  tk.store %op, %i : tensor<256x!tk.ptr<i32>, #v2>, tensor<256xi32, #v2>
  return
}
}

// -----

// A scalar operand: one call; 64-bit integers stay i64.
// CHECK: llvm.func @__nv_umul64hi(i64, i64) -> i64
// CHECK-LABEL: llvm.func @scalar(
// CHECK: llvm.call @__nv_umul64hi(%{{.*}}, %{{.*}}) : (i64, i64) -> i64
// CHECK-NOT: llvm.call
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
func.func @scalar(%a: i64, %o: !tk.ptr<i64>) attributes {tk.kernel} {
  %h = tk.extern_elementwise "__nv_umul64hi"(%a, %a) : (i64, i64) -> i64
  tk.store %o, %h : !tk.ptr<i64>, i64
  return
}
}
