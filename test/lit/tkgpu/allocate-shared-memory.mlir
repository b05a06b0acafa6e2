// RUN: tk-opt %s -split-input-file -tkgpu-allocate-shared-memory | FileCheck %s
// Offsets of explicit buffers (tkgpu.offset) and scratch
// (tkgpu.scratch_offset) and the module total. Sizes: a 64x32xf16 buffer is
// 4096 bytes (aligned to 128); the 32x32xf32 #row -> #col conversion uses
// rows padded by 4 elements: (31 * 36 + 32) * 4 = 4592 bytes.

#b2 = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>

// Disjoint lifetimes: the second buffer reuses the first one's bytes.
// CHECK: module attributes {tkgpu.shared_bytes = 4096 : i32}
// CHECK-LABEL: func.func @disjoint
// CHECK: tkgpu.local_alloc {{.*}} {tkgpu.offset = 0 : i64}
// CHECK: tkgpu.local_alloc {{.*}} {tkgpu.offset = 0 : i64}
func.func @disjoint(%x: tensor<64x32xf16, #b2>) -> (tensor<64x32xf16, #b2>, tensor<64x32xf16, #b2>) {
  %a = tkgpu.local_alloc %x : tensor<64x32xf16, #b2> -> !tkgpu.memdesc<64x32xf16, #sh>
  %l = tkgpu.local_load %a : !tkgpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #b2>
  %b = tkgpu.local_alloc %x : tensor<64x32xf16, #b2> -> !tkgpu.memdesc<64x32xf16, #sh>
  %m = tkgpu.local_load %b : !tkgpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #b2>
  return %l, %m : tensor<64x32xf16, #b2>, tensor<64x32xf16, #b2>
}

// -----

#b2 = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>

// Overlapping lifetimes: separate bytes.
// CHECK: module attributes {tkgpu.shared_bytes = 8192 : i32}
// CHECK-LABEL: func.func @overlapping
// CHECK: tkgpu.local_alloc {{.*}} {tkgpu.offset = 0 : i64}
// CHECK: tkgpu.local_alloc {{.*}} {tkgpu.offset = 4096 : i64}
func.func @overlapping(%x: tensor<64x32xf16, #b2>) -> (tensor<64x32xf16, #b2>, tensor<64x32xf16, #b2>) {
  %a = tkgpu.local_alloc %x : tensor<64x32xf16, #b2> -> !tkgpu.memdesc<64x32xf16, #sh>
  %b = tkgpu.local_alloc %x : tensor<64x32xf16, #b2> -> !tkgpu.memdesc<64x32xf16, #sh>
  %l = tkgpu.local_load %a : !tkgpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #b2>
  %m = tkgpu.local_load %b : !tkgpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #b2>
  return %l, %m : tensor<64x32xf16, #b2>, tensor<64x32xf16, #b2>
}

// -----

#row = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #tkgpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>

// Scratch lives at its op only: two conversions share offset 0; an op
// that needs none gets no interval.
// CHECK: module attributes {tkgpu.shared_bytes = 4592 : i32}
// CHECK-LABEL: func.func @scratch_reuse
// CHECK: tkgpu.convert_layout {{.*}} {tkgpu.scratch_offset = 0 : i64}
// CHECK: tkgpu.convert_layout {{.*}} {tkgpu.scratch_offset = 0 : i64}
// CHECK-NOT: tkgpu.scratch_offset
func.func @scratch_reuse(%x: tensor<32x32xf32, #row>) -> (tensor<32x32xf32, #row>, tensor<32x32xf32, #row>) {
  %c = tkgpu.convert_layout %x : tensor<32x32xf32, #row> -> tensor<32x32xf32, #col>
  %d = tkgpu.convert_layout %c : tensor<32x32xf32, #col> -> tensor<32x32xf32, #row>
  %e = arith.addf %d, %x : tensor<32x32xf32, #row>
  return %d, %e : tensor<32x32xf32, #row>, tensor<32x32xf32, #row>
}

// -----

#row = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #tkgpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#b2 = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>

// A buffer used inside a loop is live for the whole loop: the conversions
// in the body, after the buffer's last use in program order, must not take
// its bytes (the next iteration reads the buffer again). After the loop the
// buffer is dead and the second conversion reuses offset 0... which the
// first one took, being the largest: the buffer goes above it, at
// alignTo(4592, 128) = 4608.
// CHECK: module attributes {tkgpu.shared_bytes = 8704 : i32}
// CHECK-LABEL: func.func @loop
// CHECK: tkgpu.local_alloc {{.*}} {tkgpu.offset = 4608 : i64}
// CHECK: scf.for
// CHECK: tkgpu.local_load
// CHECK: tkgpu.convert_layout {{.*}} {tkgpu.scratch_offset = 0 : i64}
// CHECK: scf.yield
// CHECK: tkgpu.convert_layout {{.*}} {tkgpu.scratch_offset = 0 : i64}
func.func @loop(%x: tensor<64x32xf16, #b2>, %y: tensor<32x32xf32, #row>, %n: index) -> (tensor<32x32xf32, #col>, tensor<64x32xf16, #b2>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tkgpu.local_alloc %x : tensor<64x32xf16, #b2> -> !tkgpu.memdesc<64x32xf16, #sh>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %y, %v = %x) -> (tensor<32x32xf32, #row>, tensor<64x32xf16, #b2>) {
    %l = tkgpu.local_load %a : !tkgpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #b2>
    %c = tkgpu.convert_layout %acc : tensor<32x32xf32, #row> -> tensor<32x32xf32, #col>
    %d = tkgpu.convert_layout %c : tensor<32x32xf32, #col> -> tensor<32x32xf32, #row>
    scf.yield %d, %l : tensor<32x32xf32, #row>, tensor<64x32xf16, #b2>
  }
  %e = tkgpu.convert_layout %r#0 : tensor<32x32xf32, #row> -> tensor<32x32xf32, #col>
  return %e, %r#1 : tensor<32x32xf32, #col>, tensor<64x32xf16, #b2>
}

// -----

#b2 = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#sh3 = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [2, 1, 0]}>

// A multi-buffer stays live while a slot carried by the loop is used; a
// buffer allocated after the loop reuses its bytes.
// CHECK: module attributes {tkgpu.shared_bytes = 16384 : i32}
// CHECK-LABEL: func.func @multibuffer
// CHECK: tkgpu.local_alloc {tkgpu.offset = 0 : i64} !tkgpu.memdesc<4x64x32xf16
// CHECK: tkgpu.local_alloc {{.*}} {tkgpu.offset = 0 : i64}
func.func @multibuffer(%x: tensor<64x32xf16, #b2>, %n: index) -> tensor<64x32xf16, #b2> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i32
  %buf = tkgpu.local_alloc !tkgpu.memdesc<4x64x32xf16, #sh3>
  %s0 = tkgpu.memdesc_index %buf[%z] : !tkgpu.memdesc<4x64x32xf16, #sh3> -> !tkgpu.memdesc<64x32xf16, #sh>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%slot = %s0, %v = %x) -> (!tkgpu.memdesc<64x32xf16, #sh>, tensor<64x32xf16, #b2>) {
    %l = tkgpu.local_load %slot : !tkgpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #b2>
    %ii = arith.index_cast %i : index to i32
    %next = tkgpu.memdesc_index %buf[%ii] : !tkgpu.memdesc<4x64x32xf16, #sh3> -> !tkgpu.memdesc<64x32xf16, #sh>
    scf.yield %next, %l : !tkgpu.memdesc<64x32xf16, #sh>, tensor<64x32xf16, #b2>
  }
  tkgpu.local_dealloc %buf : !tkgpu.memdesc<4x64x32xf16, #sh3>
  %b = tkgpu.local_alloc %r#1 : tensor<64x32xf16, #b2> -> !tkgpu.memdesc<64x32xf16, #sh>
  %m = tkgpu.local_load %b : !tkgpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #b2>
  return %m : tensor<64x32xf16, #b2>
}

// -----

#b2 = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nv = #tkgpu.nvmma_shared<{swizzle = 64, elementBitWidth = 16, order = [1, 0]}>

// A buffer a TMA store reads stays live to the end of the store's block
// (the copy reads it until a wait membar places as late as it can), so
// the second staging buffer does not take the first's bytes: offsets 0
// and 4096, 8192 bytes in all. A buffer only read by a local_load before
// it (%t) is dead after that load, and the first staging buffer reuses
// its bytes.
// CHECK: module attributes {tkgpu.shared_bytes = 8192 : i32}
// CHECK-LABEL: func.func @tma_store_staging
// CHECK: tkgpu.local_alloc %{{.*}} {tkgpu.offset = 0 : i64}
// CHECK: tkgpu.local_load
// CHECK: tkgpu.local_alloc %{{.*}} {tkgpu.offset = 0 : i64}
// CHECK: tkgpu.async_tma_copy_local_to_global
// CHECK: tkgpu.local_alloc %{{.*}} {tkgpu.offset = 4096 : i64}
// CHECK: tkgpu.async_tma_copy_local_to_global
func.func @tma_store_staging(%desc: !tkgpu.tensor_map, %x: tensor<64x32xf16, #b2>, %i: i32) {
  %t = tkgpu.local_alloc %x : tensor<64x32xf16, #b2> -> !tkgpu.memdesc<64x32xf16, #nv>
  %l = tkgpu.local_load %t : !tkgpu.memdesc<64x32xf16, #nv> -> tensor<64x32xf16, #b2>
  %a = tkgpu.local_alloc %l : tensor<64x32xf16, #b2> -> !tkgpu.memdesc<64x32xf16, #nv>
  tkgpu.async_tma_copy_local_to_global %desc[%i, %i] %a : !tkgpu.tensor_map, !tkgpu.memdesc<64x32xf16, #nv>
  %b = tkgpu.local_alloc %x : tensor<64x32xf16, #b2> -> !tkgpu.memdesc<64x32xf16, #nv>
  tkgpu.async_tma_copy_local_to_global %desc[%i, %i] %b : !tkgpu.tensor_map, !tkgpu.memdesc<64x32xf16, #nv>
  return
}
