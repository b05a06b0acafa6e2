// RUN: tk-opt %s -split-input-file -verify-diagnostics -convert-tkgpu-to-llvm -canonicalize -cse -reconcile-unrealized-casts | FileCheck %s
// tk.reduce / tk.scan `combine`: the combiner's ops are cloned at every
// combine (in the thread, after each shuffle, after shared memory); no
// region and no tk op is left.

#row = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
// A (value, index) pair along rows of 32: 4 registers per thread (3
// combines), then lanes 1, 2 and 4 apart (bits 0..2 of the lane move along
// the axis), both values shuffled at each distance; no shared memory.
// CHECK-LABEL: llvm.func @argmax_pair(
// CHECK-DAG: %[[C1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-DAG: %[[C2:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-DAG: %[[C4:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-COUNT-3: llvm.fcmp "ogt"
// CHECK-NOT: nvvm.shfl
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[C1]], %{{.*}} : f32 -> f32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[C1]], %{{.*}} : i32 -> i32
// CHECK: llvm.fcmp "ogt"
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[C2]], %{{.*}} : f32 -> f32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[C2]], %{{.*}} : i32 -> i32
// CHECK: llvm.fcmp "ogt"
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[C4]], %{{.*}} : f32 -> f32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[C4]], %{{.*}} : i32 -> i32
// CHECK: llvm.fcmp "ogt"
// CHECK-NOT: nvvm.shfl
// CHECK-NOT: nvvm.barrier0
// CHECK-NOT: tk.
// CHECK: llvm.return
func.func @argmax_pair(%x: tensor<16x32xf32, #row>, %i: tensor<16x32xi32, #row>, %o: tensor<16x!tk.ptr<i32>, #tkgpu.slice<{dim = 1, parent = #row}>>) attributes {tk.kernel} {
  %v, %a = tk.reduce combine %x, %i {axis = 1 : i32} : tensor<16x32xf32, #row>, tensor<16x32xi32, #row> -> tensor<16xf32, #tkgpu.slice<{dim = 1, parent = #row}>>, tensor<16xi32, #tkgpu.slice<{dim = 1, parent = #row}>> {
  ^bb0(%v1: f32, %i1: i32, %v2: f32, %i2: i32):
    %gt = arith.cmpf ogt, %v1, %v2 : f32
    %vm = arith.select %gt, %v1, %v2 : f32
    %im = arith.select %gt, %i1, %i2 : i32
    tk.combine_return %vm, %im : f32, i32
  }
  tk.store %o, %a : tensor<16x!tk.ptr<i32>, #tkgpu.slice<{dim = 1, parent = #row}>>, tensor<16xi32, #tkgpu.slice<{dim = 1, parent = #row}>>
  return
}
}

// -----

#v1 = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
// A product over 128 elements: lanes 16, 8, 4, 2 and 1 apart, then the 4
// warps' partials through shared memory, combined with the same multiply.
// CHECK-LABEL: llvm.func @product(
// CHECK-DAG: %[[C1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-DAG: %[[C2:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-DAG: %[[C4:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-DAG: %[[C8:.*]] = llvm.mlir.constant(8 : i32) : i32
// CHECK-DAG: %[[C16:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[C1]], %{{.*}} : i32 -> i32
// CHECK-NEXT: llvm.mul
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[C2]], %{{.*}} : i32 -> i32
// CHECK-NEXT: llvm.mul
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[C4]], %{{.*}} : i32 -> i32
// CHECK-NEXT: llvm.mul
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[C8]], %{{.*}} : i32 -> i32
// CHECK-NEXT: llvm.mul
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[C16]], %{{.*}} : i32 -> i32
// CHECK-NEXT: llvm.mul
// CHECK: st.shared
// CHECK: nvvm.barrier0
// CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK-COUNT-3: llvm.mul
// CHECK-NOT: tk.
// CHECK: llvm.return
func.func @product(%x: tensor<128xi32, #v1>, %o: !tk.ptr<i32>) attributes {tk.kernel} {
  %p = tk.reduce combine %x {axis = 0 : i32} : tensor<128xi32, #v1> -> i32 {
  ^bb0(%a: i32, %b: i32):
    %m = arith.muli %a, %b : i32
    tk.combine_return %m : i32
  }
  tk.store %o, %p : !tk.ptr<i32>, i32
  return
}
}

// -----

#v1 = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
// A two-operand scan (x[t] = a[t] * x[t-1] + b[t]): levels 0..4 read the
// partner of both operands from another lane (shfl.sync.idx), levels 5 and
// 6 through two planes of shared memory; every level runs the combiner.
// CHECK-LABEL: llvm.func @recurrence(
// CHECK-COUNT-5: nvvm.shfl.sync idx %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : f32 -> f32
// CHECK: llvm.fmul
// CHECK: nvvm.shfl.sync idx %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : f32 -> f32
// CHECK: nvvm.barrier0
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK: llvm.fmul
// CHECK: nvvm.barrier0
// CHECK: nvvm.barrier0
// CHECK: llvm.fmul
// CHECK-NOT: tk.
// CHECK: llvm.return
func.func @recurrence(%a: tensor<128xf32, #v1>, %b: tensor<128xf32, #v1>, %o: tensor<128x!tk.ptr<f32>, #v1>) attributes {tk.kernel} {
  %ra, %rb = tk.scan combine %a, %b {axis = 0 : i32} : tensor<128xf32, #v1>, tensor<128xf32, #v1> -> tensor<128xf32, #v1>, tensor<128xf32, #v1> {
  ^bb0(%a1: f32, %b1: f32, %a2: f32, %b2: f32):
    %aa = arith.mulf %a1, %a2 : f32
    %ba = arith.mulf %b1, %a2 : f32
    %bb = arith.addf %ba, %b2 : f32
    tk.combine_return %aa, %bb : f32, f32
  }
  tk.store %o, %rb : tensor<128x!tk.ptr<f32>, #v1>, tensor<128xf32, #v1>
  return
}
}

// -----

#v1 = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
// Run-time control flow in a combine function is a located error.
func.func @control_flow(%x: tensor<128xf32, #v1>, %o: !tk.ptr<f32>) attributes {tk.kernel} {
  // expected-error @+2 {{a combine function with run-time control flow is not supported by the GPU lowering; use where() instead of `if`}}
  // expected-error @+1 {{failed to legalize operation 'tk.reduce'}}
  %m = tk.reduce combine %x {axis = 0 : i32} : tensor<128xf32, #v1> -> f32 {
  ^bb0(%l: f32, %r: f32):
    %gt = arith.cmpf ogt, %l, %r : f32
    %s = scf.if %gt -> f32 {
      scf.yield %l : f32
    } else {
      scf.yield %r : f32
    }
    tk.combine_return %s : f32
  }
  tk.store %o, %m : !tk.ptr<f32>, f32
  return
}
}
