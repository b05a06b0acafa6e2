// RUN: tk-opt %s | tk-opt | FileCheck %s
// Round trip of the tkgpu encodings, types and ops; encodings print as
// #blocked/#slice/#shared aliases.

// CHECK-DAG: #[[B1:.*]] = #tkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[B2:.*]] = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[S:.*]] = #tkgpu.slice<{dim = 1, parent = #[[B2]]}>
// CHECK-DAG: #[[SH:.*]] = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#b1 = #tkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b1x = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tkgpu.slice<{dim = 1, parent = #b2}>
#sh = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-DAG: #[[NV:.*]] = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
// CHECK-DAG: #[[NVT:.*]] = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [0, 1]}>
// CHECK-DAG: #[[SH3:.*]] = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [2, 1, 0]}>
// CHECK-DAG: #[[SH3T:.*]] = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 2, 1]}>
#nv = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
#nvt = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [0, 1]}>
#sh3 = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [2, 1, 0]}>
#sh3t = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 2, 1]}>

// CHECK: module attributes {tkgpu.num_warps = 4 : i32, tkgpu.target = "sm_90a", tkgpu.threads_per_warp = 32 : i32}
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
  // CHECK-LABEL: func.func @encodings
  func.func @encodings(%p: !tk.ptr<f32>) {
    // CHECK: tk.make_range {{.*}} : tensor<1024xi32, #[[B1]]>
    %r = tk.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32, #b1>
    // CHECK: tkgpu.convert_layout %{{.*}} : tensor<1024xi32, #[[B1]]> -> tensor<1024xi32, #{{.*}}>
    %c = tkgpu.convert_layout %r : tensor<1024xi32, #b1> -> tensor<1024xi32, #b1x>
    %ps = tk.splat %p : !tk.ptr<f32> -> tensor<1024x!tk.ptr<f32>, #b1>
    %pp = tk.addptr %ps, %r : tensor<1024x!tk.ptr<f32>, #b1>, tensor<1024xi32, #b1>
    // CHECK: tk.load %{{.*}} : tensor<1024x!tk.ptr<f32>, #[[B1]]> -> tensor<1024xf32, #[[B1]]>
    %x = tk.load %pp : tensor<1024x!tk.ptr<f32>, #b1> -> tensor<1024xf32, #b1>
    %y = arith.addf %x, %x : tensor<1024xf32, #b1>
    tk.store %pp, %y : tensor<1024x!tk.ptr<f32>, #b1>, tensor<1024xf32, #b1>
    return
  }

  // CHECK-LABEL: func.func @slices
  func.func @slices(%x: tensor<64x32xf32, #b2>) -> tensor<64x32xf32, #b2> {
    // CHECK: tk.reduce sum %{{.*}} {axis = 1 : i32} : tensor<64x32xf32, #[[B2]]> -> tensor<64xf32, #[[S]]>
    %s = tk.reduce sum %x {axis = 1 : i32} : tensor<64x32xf32, #b2> -> tensor<64xf32, #s>
    // CHECK: tk.expand_dims %{{.*}} {axis = 1 : i32} : tensor<64xf32, #[[S]]> -> tensor<64x1xf32, #[[B2]]>
    %e = tk.expand_dims %s {axis = 1 : i32} : tensor<64xf32, #s> -> tensor<64x1xf32, #b2>
    %b = tk.broadcast %e : tensor<64x1xf32, #b2> -> tensor<64x32xf32, #b2>
    return %b : tensor<64x32xf32, #b2>
  }

  // CHECK-LABEL: func.func @shared
  func.func @shared(%x: tensor<64x32xf16, #b2>) -> tensor<64x32xf16, #b2> {
    // CHECK: %[[A:.*]] = tkgpu.local_alloc %{{.*}} : tensor<64x32xf16, #[[B2]]> -> !tkgpu.memdesc<64x32xf16, #[[SH]]>
    %a = tkgpu.local_alloc %x : tensor<64x32xf16, #b2> -> !tkgpu.memdesc<64x32xf16, #sh>
    // CHECK: tkgpu.local_alloc !tkgpu.memdesc<64x32xf16, #[[SH]]>
    %e = tkgpu.local_alloc !tkgpu.memdesc<64x32xf16, #sh>
    // CHECK: tkgpu.local_store %{{.*}}, %{{.*}} : tensor<64x32xf16, #[[B2]]> -> !tkgpu.memdesc<64x32xf16, #[[SH]]>
    tkgpu.local_store %x, %e : tensor<64x32xf16, #b2> -> !tkgpu.memdesc<64x32xf16, #sh>
    // CHECK: tkgpu.local_load %[[A]] : !tkgpu.memdesc<64x32xf16, #[[SH]]> -> tensor<64x32xf16, #[[B2]]>
    %l = tkgpu.local_load %a : !tkgpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #b2>
    // CHECK: tkgpu.local_dealloc %[[A]] : !tkgpu.memdesc<64x32xf16, #[[SH]]>
    tkgpu.local_dealloc %a : !tkgpu.memdesc<64x32xf16, #sh>
    tkgpu.local_dealloc %e : !tkgpu.memdesc<64x32xf16, #sh>
    return %l : tensor<64x32xf16, #b2>
  }

  // memdesc_trans: a view with the dimensions permuted and the layout's
  // order renamed (the contiguous dimension stays the same bytes).
  // CHECK-LABEL: func.func @memdesc_trans
  func.func @memdesc_trans(%m: !tkgpu.memdesc<128x64xf16, #nv>, %t: !tkgpu.memdesc<2x4x8xf16, #sh3>) -> !tkgpu.memdesc<64x128xf16, #nvt> {
    // CHECK: %[[K:.*]] = tkgpu.memdesc_trans %{{.*}} {order = array<i32: 1, 0>} : !tkgpu.memdesc<128x64xf16, #[[NV]]> -> !tkgpu.memdesc<64x128xf16, #[[NVT]]>
    %k = tkgpu.memdesc_trans %m {order = array<i32: 1, 0>} : !tkgpu.memdesc<128x64xf16, #nv> -> !tkgpu.memdesc<64x128xf16, #nvt>
    // CHECK: tkgpu.memdesc_trans %{{.*}} {order = array<i32: 2, 0, 1>} : !tkgpu.memdesc<2x4x8xf16, #[[SH3]]> -> !tkgpu.memdesc<8x2x4xf16, #[[SH3T]]>
    %u = tkgpu.memdesc_trans %t {order = array<i32: 2, 0, 1>} : !tkgpu.memdesc<2x4x8xf16, #sh3> -> !tkgpu.memdesc<8x2x4xf16, #sh3t>
    // CHECK: return %[[K]]
    return %k : !tkgpu.memdesc<64x128xf16, #nvt>
  }
  // The ops of warp-group schedules (tkgpu-pingpong): a computed id, or a
  // constant one of the free ids (3 to 15).
  // CHECK-LABEL: func.func @named_barriers
  func.func @named_barriers() {
    // CHECK: %[[G:.*]] = tkgpu.warp_group_id
    %g = tkgpu.warp_group_id
    %c3 = arith.constant 3 : i32
    %id = arith.addi %c3, %g : i32
    // CHECK: tkgpu.named_barrier_sync %{{.*}}, 256
    tkgpu.named_barrier_sync %id, 256
    // CHECK: tkgpu.named_barrier_arrive %{{.*}}, 256
    tkgpu.named_barrier_arrive %c3, 256
    return
  }
}
