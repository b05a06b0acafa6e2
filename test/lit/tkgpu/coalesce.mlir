// RUN: tk-opt %s -convert-tk-to-tkgpu -tkgpu-coalesce | FileCheck %s
// RUN: tk-opt %s -convert-tk-to-tkgpu=target=sm_80 -tkgpu-coalesce | FileCheck %s --check-prefix=SM80
// Memory ops get blocked layouts for 128-bit accesses along the pointer's
// contiguous dimension, with conversions around them.

// CHECK-DAG: #[[DEF:.*]] = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[V4:.*]] = #tkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[V8:.*]] = #tkgpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[COL:.*]] = #tkgpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-DAG: #[[ATOM:.*]] = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>
// SM80-DAG: #[[ATOM80:.*]] = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>

// 16-byte aligned f32: 4 per thread (ld.global.v4.f32); the mask, `other`
// and the stored value are converted too.
// CHECK-LABEL: func.func @aligned_f32
func.func @aligned_f32(%x: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %n: i32) {
  %r = tk.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %ns = tk.splat %n : i32 -> tensor<1024xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<1024xi32>
  %xs = tk.splat %x : !tk.ptr<f32> -> tensor<1024x!tk.ptr<f32>>
  %xa = tk.addptr %xs, %r : tensor<1024x!tk.ptr<f32>>, tensor<1024xi32>
  %zero = arith.constant dense<0.0> : tensor<1024xf32>
  // CHECK: %[[P:.*]] = tkgpu.convert_layout %{{.*}} : tensor<1024x!tk.ptr<f32>, #[[DEF]]> -> tensor<1024x!tk.ptr<f32>, #[[V4]]>
  // CHECK: %[[M:.*]] = tkgpu.convert_layout %{{.*}} : tensor<1024xi1, #[[DEF]]> -> tensor<1024xi1, #[[V4]]>
  // CHECK: %[[O:.*]] = tkgpu.convert_layout %{{.*}} : tensor<1024xf32, #[[DEF]]> -> tensor<1024xf32, #[[V4]]>
  // CHECK: %[[L:.*]] = tk.load %[[P]], mask %[[M]], other %[[O]] : tensor<1024x!tk.ptr<f32>, #[[V4]]>
  // CHECK: tkgpu.convert_layout %[[L]] : tensor<1024xf32, #[[V4]]> -> tensor<1024xf32, #[[DEF]]>
  %v = tk.load %xa, mask %m, other %zero : tensor<1024x!tk.ptr<f32>> -> tensor<1024xf32>, tensor<1024xi1>
  // CHECK: tk.store %{{.*}}, %{{.*}}, mask %{{.*}} : tensor<1024x!tk.ptr<f32>, #[[V4]]>, tensor<1024xf32, #[[V4]]>, tensor<1024xi1, #[[V4]]>
  tk.store %xa, %v, mask %m : tensor<1024x!tk.ptr<f32>>, tensor<1024xf32>, tensor<1024xi1>
  return
}

// Nothing known about the pointer's alignment: scalar accesses, the
// default layout stays and nothing is converted.
// CHECK-LABEL: func.func @unaligned
func.func @unaligned(%x: !tk.ptr<f32>) {
  %r = tk.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %xs = tk.splat %x : !tk.ptr<f32> -> tensor<1024x!tk.ptr<f32>>
  %xa = tk.addptr %xs, %r : tensor<1024x!tk.ptr<f32>>, tensor<1024xi32>
  // CHECK-NOT: convert_layout
  // CHECK: tk.load %{{.*}} : tensor<1024x!tk.ptr<f32>, #[[DEF]]>
  %v = tk.load %xa : tensor<1024x!tk.ptr<f32>> -> tensor<1024xf32>
  return
}

// f16: 8 elements make 128 bits.
// CHECK-LABEL: func.func @aligned_f16
func.func @aligned_f16(%x: !tk.ptr<f16> {tk.divisibility = 16 : i32}) {
  %r = tk.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %xs = tk.splat %x : !tk.ptr<f16> -> tensor<1024x!tk.ptr<f16>>
  %xa = tk.addptr %xs, %r : tensor<1024x!tk.ptr<f16>>, tensor<1024xi32>
  // CHECK: tk.load %{{.*}} : tensor<1024x!tk.ptr<f16>, #[[V8]]>
  %v = tk.load %xa : tensor<1024x!tk.ptr<f16>> -> tensor<1024xf16>
  return
}

// 128 elements on 128 threads: one each, whatever the alignment.
// CHECK-LABEL: func.func @one_per_thread
func.func @one_per_thread(%x: !tk.ptr<f32> {tk.divisibility = 16 : i32}) {
  %r = tk.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  %xs = tk.splat %x : !tk.ptr<f32> -> tensor<128x!tk.ptr<f32>>
  %xa = tk.addptr %xs, %r : tensor<128x!tk.ptr<f32>>, tensor<128xi32>
  // CHECK-NOT: convert_layout
  // CHECK: tk.load %{{.*}} : tensor<128x!tk.ptr<f32>, #[[DEF]]>
  %v = tk.load %xa : tensor<128x!tk.ptr<f32>> -> tensor<128xf32>
  return
}

// Column-major access (x[i + j * stride]): dimension 0 is contiguous, so it
// comes first in the order and gets the vector.
// CHECK-LABEL: func.func @column_major
func.func @column_major(%x: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %stride: i32 {tk.divisibility = 16 : i32}) {
  %i = tk.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %j = tk.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %ie = tk.expand_dims %i {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %ib = tk.broadcast %ie : tensor<64x1xi32> -> tensor<64x32xi32>
  %je = tk.expand_dims %j {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %ss = tk.splat %stride : i32 -> tensor<1x32xi32>
  %js = arith.muli %je, %ss : tensor<1x32xi32>
  %jb = tk.broadcast %js : tensor<1x32xi32> -> tensor<64x32xi32>
  %off = arith.addi %ib, %jb : tensor<64x32xi32>
  %xs = tk.splat %x : !tk.ptr<f32> -> tensor<64x32x!tk.ptr<f32>>
  %xa = tk.addptr %xs, %off : tensor<64x32x!tk.ptr<f32>>, tensor<64x32xi32>
  // CHECK: tk.load %{{.*}} : tensor<64x32x!tk.ptr<f32>, #[[COL]]>
  %v = tk.load %xa : tensor<64x32x!tk.ptr<f32>> -> tensor<64x32xf32>
  // Atomics follow the contiguous dimension, one element per thread,
  // except a float add on sm_90 (the default target), which has a vector
  // form: 4 f32 per thread, as the load. On sm_80 it stays scalar.
  // CHECK: tk.atomic_rmw add %{{.*}}, %{{.*}} : tensor<64x32x!tk.ptr<f32>, #[[COL]]>, tensor<64x32xf32, #[[COL]]>
  // CHECK: tk.atomic_rmw max %{{.*}}, %{{.*}} : tensor<64x32x!tk.ptr<f32>, #[[ATOM]]>, tensor<64x32xf32, #[[ATOM]]>
  // SM80-LABEL: func.func @column_major
  // SM80: tk.atomic_rmw add %{{.*}}, %{{.*}} : tensor<64x32x!tk.ptr<f32>, #[[ATOM80]]>, tensor<64x32xf32, #[[ATOM80]]>
  %old = tk.atomic_rmw add %xa, %v : tensor<64x32x!tk.ptr<f32>>, tensor<64x32xf32>
  %old2 = tk.atomic_rmw max %xa, %v : tensor<64x32x!tk.ptr<f32>>, tensor<64x32xf32>
  return
}
