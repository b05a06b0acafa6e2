// RUN: tk-opt %s -split-input-file -verify-diagnostics
// Every tkgpu verifier error, one per split.

// expected-error @+1 {{blocked layout: sizePerThread, threadsPerWarp, warpsPerCTA and order must have the same rank}}
#b = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// -----

// expected-error @+1 {{blocked layout: order must be a permutation of the dimensions}}
#b = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 1]}>

// -----

// expected-error @+1 {{blocked layout: sizes must be powers of two}}
#b = #tkgpu.blocked<{sizePerThread = [3], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// -----

// expected-error @+1 {{expected 'warpsPerCTA' to be an array of integers}}
#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], order = [0]}>

// -----

// expected-error @+1 {{unknown key 'size'}}
#b = #tkgpu.blocked<{size = [1], sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// -----

#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// expected-error @+1 {{slice dim 1 is out of range for a rank-1 parent}}
#s = #tkgpu.slice<{dim = 1, parent = #b}>

// -----

#sh = #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// expected-error @+1 {{slice layout needs a distributed parent layout}}
#s = #tkgpu.slice<{dim = 0, parent = #sh}>

// -----

// expected-error @+1 {{shared layout: vec, perPhase and maxPhase must be powers of two}}
#sh = #tkgpu.shared<{vec = 6, perPhase = 1, maxPhase = 1, order = [0]}>

// -----

#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// expected-error @+1 {{rank-2 tensor cannot have the rank-1 layout}}
func.func private @rank(tensor<4x4xf32, #b>)

// -----

#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// expected-error @+1 {{tensors with a layout need power-of-two dimensions, got 6}}
func.func private @pow2(tensor<6xf32, #b>)

// -----

#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// expected-error @+1 {{memdesc needs a shared-memory layout}}
func.func private @memdesc(!tkgpu.memdesc<16xf32, #b>)

// -----

#b8 = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32} {
  func.func @warps() {
    // expected-error @+1 {{has 8 warps (product of warpsPerCTA) but the module has tkgpu.num_warps = 4}}
    %r = tk.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32, #b8>
    return
  }
}

// -----

#b16 = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  // expected-error @+1 {{has 16 threads per warp (product of threadsPerWarp) but the module has tkgpu.threads_per_warp = 32}}
  func.func @lanes(%x: tensor<64xf32, #b16>) {
    return
  }
}

// -----

// expected-error @+1 {{'tkgpu.num_warps' must be a positive power-of-two i32, got 3 : i32}}
module attributes {tkgpu.num_warps = 3 : i32} {}

// -----

// expected-error @+1 {{'tkgpu.target' must be a string like "sm_90a", got "gfx90a"}}
module attributes {tkgpu.target = "gfx90a"} {}

// -----

// expected-error @+1 {{'tkgpu.num_warps' belongs on the module}}
func.func @not_module() attributes {tkgpu.num_warps = 4 : i32} {
  return
}

// -----

#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @convert_no_layout(%x: tensor<128xf32>) {
  // expected-error @+1 {{source 'tensor<128xf32>' needs a distributed layout encoding}}
  %y = tkgpu.convert_layout %x : tensor<128xf32> -> tensor<128xf32, #b>
  return
}

// -----

#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#c = #tkgpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @convert_shape(%x: tensor<128xf32, #b>) {
  // expected-error @+1 {{requires the same shape for all operands and results}}
  %y = tkgpu.convert_layout %x : tensor<128xf32, #b> -> tensor<256xf32, #c>
  return
}

// -----

#b = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @local_load(%m: !tkgpu.memdesc<16x16xf32, #sh>) {
  // expected-error @+1 {{differ in shape or element type}}
  %x = tkgpu.local_load %m : !tkgpu.memdesc<16x16xf32, #sh> -> tensor<16x16xf16, #b>
  return
}

// -----

#b = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @local_load_window_unaligned(%m: !tkgpu.memdesc<16x32xf32, #sh>) {
  // expected-error @+1 {{window offset 8 of dimension 1 must be a multiple of the window's extent 16 inside the buffer's 32}}
  %x = tkgpu.local_load %m at [0, 8] : !tkgpu.memdesc<16x32xf32, #sh> -> tensor<16x16xf32, #b>
  return
}

// -----

#b = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @local_load_window_outside(%m: !tkgpu.memdesc<16x32xf32, #sh>) {
  // expected-error @+1 {{window offset 32 of dimension 1 must be a multiple of the window's extent 16 inside the buffer's 32}}
  %x = tkgpu.local_load %m at [0, 32] : !tkgpu.memdesc<16x32xf32, #sh> -> tensor<16x16xf32, #b>
  return
}

// -----

#b = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @local_load_window_rank(%m: !tkgpu.memdesc<16x32xf32, #sh>) {
  // expected-error @+1 {{at 1 offsets does not match the rank and element type}}
  %x = tkgpu.local_load %m at [0] : !tkgpu.memdesc<16x32xf32, #sh> -> tensor<16x16xf32, #b>
  return
}

// -----

#b = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @extract_slice_unaligned(%x: tensor<64x64xf32, #b>) {
  // expected-error @+1 {{window [8, 24) of dimension 1 is not an aligned window of 64 elements}}
  %y = tkgpu.extract_slice %x at [0, 8] : tensor<64x64xf32, #b> -> tensor<64x16xf32, #b>
  return
}

// -----

// warp_group_dot operands of two types: only e4m3 with e5m2.
#mma = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#s16 = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
#s16t = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [0, 1]}>
func.func @warp_group_dot_types(%a: !tkgpu.memdesc<64x64xf16, #s16>, %b: !tkgpu.memdesc<64x64xbf16, #s16t>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{A and B must have the same element type (or both be fp8)}}
  %d = tkgpu.warp_group_dot %a, %b, %c : !tkgpu.memdesc<64x64xf16, #s16> * !tkgpu.memdesc<64x64xbf16, #s16t> -> tensor<64x64xf32, #mma>
  return
}

// -----

module attributes {tkgpu.num_warps = 4 : i32, tkgpu.total_num_warps = 8 : i32} {
func.func @ws_registers() {
  // expected-error @+1 {{register counts must be multiples of 8 from 24 to 256 (setmaxnreg), got 42}}
  tkgpu.warp_specialize producer(registers = 42) {
    tkgpu.warp_yield
  } consumer(registers = 232) {
    tkgpu.warp_yield
  }
  return
}
}

// -----

module attributes {tkgpu.num_warps = 4 : i32} {
func.func @ws_total() {
  // expected-error @+1 {{needs tkgpu.num_warps a multiple of 4 and tkgpu.total_num_warps = num_warps + 4, got 4 and 4}}
  tkgpu.warp_specialize producer(registers = 40) {
    tkgpu.warp_yield
  } consumer(registers = 232) {
    tkgpu.warp_yield
  }
  return
}
}

// -----

// 384 threads start with 168 registers each (64512); 40 * 128 + 240 * 256
// is more.
module attributes {tkgpu.num_warps = 8 : i32, tkgpu.total_num_warps = 12 : i32} {
func.func @ws_pool() {
  // expected-error @+1 {{the partitions ask for 66560 registers; the program holds 64512}}
  tkgpu.warp_specialize producer(registers = 40) {
    tkgpu.warp_yield
  } consumer(registers = 240) {
    tkgpu.warp_yield
  }
  return
}
}

// -----

module attributes {tkgpu.num_warps = 4 : i32, tkgpu.total_num_warps = 8 : i32} {
func.func @ws_nested(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    // expected-error @+1 {{must be in a function's body, not nested in other ops}}
    tkgpu.warp_specialize producer(registers = 40) {
      tkgpu.warp_yield
    } consumer(registers = 232) {
      tkgpu.warp_yield
    }
  }
  return
}
}

// -----

// expected-error @+1 {{'tkgpu.total_num_warps' must be an i32 from num_warps to 32, got 2 : i32}}
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.total_num_warps = 2 : i32} {
}

// -----

// memdesc_trans: the order must be a permutation.
#nv = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
#nvt = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [0, 1]}>
func.func @memdesc_trans_repeated(%m: !tkgpu.memdesc<128x64xf16, #nv>) {
  // expected-error @+1 {{order must be a permutation of the 2 dimensions}}
  %t = tkgpu.memdesc_trans %m {order = array<i32: 1, 1>} : !tkgpu.memdesc<128x64xf16, #nv> -> !tkgpu.memdesc<64x128xf16, #nvt>
  return
}

// -----

#nv = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
#nvt = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [0, 1]}>
func.func @memdesc_trans_out_of_range(%m: !tkgpu.memdesc<128x64xf16, #nv>) {
  // expected-error @+1 {{order must be a permutation of the 2 dimensions}}
  %t = tkgpu.memdesc_trans %m {order = array<i32: 0, 2>} : !tkgpu.memdesc<128x64xf16, #nv> -> !tkgpu.memdesc<64x128xf16, #nvt>
  return
}

// -----

// A permutation of 3 dimensions on a rank-2 buffer.
#nv = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
#nvt = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [0, 1]}>
func.func @memdesc_trans_rank(%m: !tkgpu.memdesc<128x64xf16, #nv>) {
  // expected-error @+1 {{result '!tkgpu.memdesc<64x128xf16, #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [0, 1]}>>' is not '!tkgpu.memdesc<128x64xf16, #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>>' with its dimensions permuted}}
  %t = tkgpu.memdesc_trans %m {order = array<i32: 2, 1, 0>} : !tkgpu.memdesc<128x64xf16, #nv> -> !tkgpu.memdesc<64x128xf16, #nvt>
  return
}

// -----

// The same bytes: the element type stays.
#nv = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
#nvt = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [0, 1]}>
func.func @memdesc_trans_element(%m: !tkgpu.memdesc<128x64xf16, #nv>) {
  // expected-error @+1 {{result '!tkgpu.memdesc<64x128xbf16, #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [0, 1]}>>' is not '!tkgpu.memdesc<128x64xf16, #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>>' with its dimensions permuted}}
  %t = tkgpu.memdesc_trans %m {order = array<i32: 1, 0>} : !tkgpu.memdesc<128x64xf16, #nv> -> !tkgpu.memdesc<64x128xbf16, #nvt>
  return
}

// -----

// Result dimension i is source dimension order[i]: 128x64 becomes 64x128.
#nv = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
#nvt = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [0, 1]}>
func.func @memdesc_trans_shape(%m: !tkgpu.memdesc<128x64xf16, #nv>) {
  // expected-error @+1 {{result dimension 0 must be source dimension 1}}
  %t = tkgpu.memdesc_trans %m {order = array<i32: 1, 0>} : !tkgpu.memdesc<128x64xf16, #nv> -> !tkgpu.memdesc<128x64xf16, #nvt>
  return
}

// -----

// The layout's order names the permuted dimensions: [1, 0] becomes
// [0, 1] (the same dimension stays contiguous in memory), not [1, 0].
#nv = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
func.func @memdesc_trans_order_kept(%m: !tkgpu.memdesc<128x64xf16, #nv>) {
  // expected-error @+1 {{result layout #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}> is not the permuted source layout #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [0, 1]}>}}
  %t = tkgpu.memdesc_trans %m {order = array<i32: 1, 0>} : !tkgpu.memdesc<128x64xf16, #nv> -> !tkgpu.memdesc<64x128xf16, #nv>
  return
}

// -----

// The swizzle stays.
#nv = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
#nvt64 = #tkgpu.nvmma_shared<{swizzle = 64, elementBitWidth = 16, order = [0, 1]}>
func.func @memdesc_trans_swizzle(%m: !tkgpu.memdesc<128x64xf16, #nv>) {
  // expected-error @+1 {{result layout #tkgpu.nvmma_shared<{swizzle = 64, elementBitWidth = 16, order = [0, 1]}> is not the permuted source layout #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [0, 1]}>}}
  %t = tkgpu.memdesc_trans %m {order = array<i32: 1, 0>} : !tkgpu.memdesc<128x64xf16, #nv> -> !tkgpu.memdesc<64x128xf16, #nvt64>
  return
}

// -----

// So does the kind of layout.
#s = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#nvt = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [0, 1]}>
func.func @memdesc_trans_kind(%m: !tkgpu.memdesc<128x64xf16, #s>) {
  // expected-error @+1 {{result layout #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [0, 1]}> is not the permuted source layout #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]}>}}
  %t = tkgpu.memdesc_trans %m {order = array<i32: 1, 0>} : !tkgpu.memdesc<128x64xf16, #s> -> !tkgpu.memdesc<64x128xf16, #nvt>
  return
}

// -----

// Rank 3, order [2, 0, 1]: source dimension d is result dimension
// inverse[d] (0 -> 1, 1 -> 2, 2 -> 0), so the order [2, 1, 0] is renamed
// [0, 2, 1], not permuted like the shape ([2, 0, 1] here).
#s3 = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [2, 1, 0]}>
#s3x = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [2, 0, 1]}>
func.func @memdesc_trans_rank3(%m: !tkgpu.memdesc<2x4x8xf16, #s3>) {
  // expected-error @+1 {{result layout #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [2, 0, 1]}> is not the permuted source layout #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 2, 1]}>}}
  %t = tkgpu.memdesc_trans %m {order = array<i32: 2, 0, 1>} : !tkgpu.memdesc<2x4x8xf16, #s3> -> !tkgpu.memdesc<8x2x4xf16, #s3x>
  return
}

// -----

// Named barriers 0 to 2 are the lowering's (CTA and partition barriers).
func.func @named_barrier_taken_id() {
  %c1 = arith.constant 1 : i32
  // expected-error @+1 {{barrier ids 3 to 15 are free for schedules (lower ones are the CTA's and the partitions'), got 1}}
  tkgpu.named_barrier_sync %c1, 256
  return
}

// -----

func.func @named_barrier_partial_warp(%id: i32) {
  // expected-error @+1 {{counts whole warps: the thread count must be a multiple of 32, got 100}}
  tkgpu.named_barrier_arrive %id, 100
  return
}
