// RUN: tk-opt %s -convert-tk-to-tkgpu="num-warps=8 target=sm_80" | FileCheck %s
// RUN: tk-opt %s -convert-tk-to-tkgpu | FileCheck %s --check-prefix=DEFAULT

// Default blocked layouts: sizePerThread 1, lanes then warps spread over the
// dimensions fastest (last) first.
// CHECK-DAG: #[[L1:.*]] = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
// CHECK-DAG: #[[L2:.*]] = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 2], order = [1, 0]}>
// CHECK-DAG: #[[C2:.*]] = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [8, 1], order = [1, 0]}>
// CHECK-DAG: #[[S:.*]] = #tkgpu.slice<{dim = 1, parent = #[[L2]]}>
// CHECK-DAG: #[[SC:.*]] = #tkgpu.slice<{dim = 1, parent = #[[C2]]}>
// CHECK: module attributes {tkgpu.num_warps = 8 : i32, tkgpu.target = "sm_80", tkgpu.threads_per_warp = 32 : i32}
// DEFAULT: module attributes {tkgpu.num_warps = 4 : i32, tkgpu.target = "sm_90a", tkgpu.threads_per_warp = 32 : i32}

// CHECK-LABEL: func.func @rows
func.func @rows(%p: !tk.ptr<f32>, %n: i32) {
  // CHECK: tk.make_range {{.*}} : tensor<64xi32, #[[L1]]>
  %r = tk.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  // CHECK: arith.constant dense<1.000000e+00> : tensor<64x64xf32, #[[L2]]>
  %one = arith.constant dense<1.0> : tensor<64x64xf32>
  // Reductions produce a slice of their operand's layout.
  // CHECK: %[[SUM:.*]] = tk.reduce sum %{{.*}} {axis = 1 : i32} : tensor<64x64xf32, #[[L2]]> -> tensor<64xf32, #[[S]]>
  %sum = tk.reduce sum %one {axis = 1 : i32} : tensor<64x64xf32> -> tensor<64xf32>
  // Users that need the default layout get a conversion.
  // CHECK: %[[SUMC:.*]] = tkgpu.convert_layout %[[SUM]] : tensor<64xf32, #[[S]]> -> tensor<64xf32, #[[L1]]>
  // CHECK: arith.mulf %[[SUMC]], %[[SUMC]] : tensor<64xf32, #[[L1]]>
  %sq = arith.mulf %sum, %sum : tensor<64xf32>
  // expand_dims takes the slice of its result's layout.
  // CHECK: %[[SQC:.*]] = tkgpu.convert_layout %{{.*}} : tensor<64xf32, #[[L1]]> -> tensor<64xf32, #[[SC]]>
  // CHECK: %[[E:.*]] = tk.expand_dims %[[SQC]] {axis = 1 : i32} : tensor<64xf32, #[[SC]]> -> tensor<64x1xf32, #[[C2]]>
  %e = tk.expand_dims %sq {axis = 1 : i32} : tensor<64xf32> -> tensor<64x1xf32>
  // broadcast takes its result's layout.
  // CHECK: %[[EC:.*]] = tkgpu.convert_layout %[[E]] : tensor<64x1xf32, #[[C2]]> -> tensor<64x1xf32, #[[L2]]>
  // CHECK: tk.broadcast %[[EC]] : tensor<64x1xf32, #[[L2]]> -> tensor<64x64xf32, #[[L2]]>
  %b = tk.broadcast %e : tensor<64x1xf32> -> tensor<64x64xf32>
  // A 1-D reduction gives a scalar: nothing to lay out.
  // CHECK: tk.reduce max %{{.*}} {axis = 0 : i32} : tensor<64xf32, #[[L1]]> -> f32
  %m = tk.reduce max %sq {axis = 0 : i32} : tensor<64xf32> -> f32
  return
}

// Region arguments, results and terminators are retyped consistently.
// CHECK-LABEL: func.func @loops
func.func @loops(%n: i32, %c: i1) -> tensor<64xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64xf32>
  %x = arith.constant dense<2.0> : tensor<64x64xf32>
  // CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<64xf32, #[[L1]]>)
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64xf32>) : i32 {
    %s = tk.reduce sum %x {axis = 1 : i32} : tensor<64x64xf32> -> tensor<64xf32>
    // CHECK: %[[SC:.*]] = tkgpu.convert_layout %{{.*}} : tensor<64xf32, #[[S]]> -> tensor<64xf32, #[[L1]]>
    // CHECK: %[[NEXT:.*]] = arith.addf %[[ACC]], %[[SC]] : tensor<64xf32, #[[L1]]>
    %next = arith.addf %acc, %s : tensor<64xf32>
    // CHECK: scf.yield %[[NEXT]] : tensor<64xf32, #[[L1]]>
    scf.yield %next : tensor<64xf32>
  }
  // CHECK: scf.if {{.*}} -> (tensor<64xf32, #[[L1]]>)
  %y = scf.if %c -> (tensor<64xf32>) {
    %s = tk.reduce max %x {axis = 1 : i32} : tensor<64x64xf32> -> tensor<64xf32>
    // CHECK: %[[YC:.*]] = tkgpu.convert_layout %{{.*}} : tensor<64xf32, #[[S]]> -> tensor<64xf32, #[[L1]]>
    // CHECK: scf.yield %[[YC]] : tensor<64xf32, #[[L1]]>
    scf.yield %s : tensor<64xf32>
  } else {
    scf.yield %r : tensor<64xf32>
  }
  // The signature follows the returned value.
  // CHECK: return %{{.*}} : tensor<64xf32, #[[L1]]>
  return %y : tensor<64xf32>
}
// CHECK-LABEL: func.func @signature
// CHECK-SAME: -> tensor<64xf32, #[[L1]]>
func.func @signature() -> tensor<64xf32> {
  %zero = arith.constant dense<0.0> : tensor<64xf32>
  return %zero : tensor<64xf32>
}
