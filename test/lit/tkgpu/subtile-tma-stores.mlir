// RUN: tk-opt %s -split-input-file -tkgpu-subtile-tma-stores | FileCheck %s
// RUN: tk-opt %s -split-input-file -tkgpu-subtile-tma-stores=chunks=2 | FileCheck %s --check-prefix=TWO
// RUN: tk-opt %s -split-input-file -tkgpu-subtile-tma-stores=chunks=8 2>&1 | FileCheck %s --check-prefix=EIGHT
// tkgpu-subtile-tma-stores: a TMA store staged by its own local_alloc is
// stored in column blocks of whole TMA boxes through a ring, so that the
// staging takes one or two blocks of shared memory, by default only where
// the kernel would not fit otherwise.

// 192 KB of stages live across a 128x256 f16 store (64 KB staged): 256 KB,
// more than sm_90a's 227 KB. The store becomes four 128x64 blocks (the
// box of a 128-byte swizzle is 64 f16 wide) through two slots (32 KB):
// each block picked from the accumulator's registers as the accumulator of
// a 64-wide wgmma, stored at column j + 64c, slots 0, 1, 0, 1. With
// chunks=2: two 128x128 blocks through one slot.
// CHECK: #[[M64:[a-z0-9_]+]] = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [16, 64, 16]}>
// CHECK-LABEL: func.func @too_big(
// CHECK-SAME: %[[MAP:[^:]*]]: !tkgpu.tensor_map, %[[I:[^:]*]]: i32, %[[J:[^:]*]]: i32, %[[ACC:[^:]*]]: tensor<128x256xf16
// CHECK-NOT: tkgpu.local_alloc %
// CHECK: %[[RING:.*]] = tkgpu.local_alloc !tkgpu.memdesc<2x128x64xf16, #{{[^ ]*}}>
// CHECK-NOT: tkgpu.local_alloc
// CHECK: %[[B0:.*]] = tkgpu.extract_slice %[[ACC]] at [0, 0] : tensor<128x256xf16, #{{[^>]*}}> -> tensor<128x64xf16, #[[M64]]>
// CHECK: %[[S0:.*]] = tkgpu.memdesc_index %[[RING]][%c0_i32]
// CHECK-NEXT: tkgpu.local_store %[[B0]], %[[S0]]
// CHECK-NEXT: tkgpu.async_tma_copy_local_to_global %[[MAP]][%[[I]], %[[J]]] %[[S0]] : !tkgpu.tensor_map, !tkgpu.memdesc<128x64xf16
// CHECK: %[[B1:.*]] = tkgpu.extract_slice %[[ACC]] at [0, 64]
// CHECK: %[[S1:.*]] = tkgpu.memdesc_index %[[RING]][%c1_i32]
// CHECK-NEXT: tkgpu.local_store %[[B1]], %[[S1]]
// CHECK-NEXT: %c64_i32 = arith.constant 64 : i32
// CHECK-NEXT: %[[J1:.*]] = arith.addi %[[J]], %c64_i32
// CHECK-NEXT: tkgpu.async_tma_copy_local_to_global %[[MAP]][%[[I]], %[[J1]]] %[[S1]]
// CHECK: tkgpu.extract_slice %[[ACC]] at [0, 128]
// CHECK: tkgpu.memdesc_index %[[RING]][%c0_i32
// CHECK: arith.addi %[[J]], %c128_i32
// CHECK: tkgpu.extract_slice %[[ACC]] at [0, 192]
// CHECK: tkgpu.memdesc_index %[[RING]][%c1_i32
// CHECK: arith.addi %[[J]], %c192_i32
// CHECK-NEXT: tkgpu.async_tma_copy_local_to_global
// CHECK-NOT: tkgpu.async_tma_copy_local_to_global
// CHECK: tkgpu.local_dealloc
// Eight blocks of 32 columns would split the 64-column TMA box: the store
// stays whole, with a warning.
// EIGHT: warning: TMA store not cut into 8 column blocks: each block must be whole TMA boxes
// EIGHT-LABEL: func.func @too_big(
// EIGHT-NOT: tkgpu.extract_slice
// EIGHT: tkgpu.async_tma_copy_local_to_global {{.*}} !tkgpu.memdesc<128x256xf16
// TWO-LABEL: func.func @too_big(
// TWO: tkgpu.local_alloc !tkgpu.memdesc<1x128x128xf16
// TWO: tkgpu.extract_slice %{{.*}} at [0, 0] : {{.*}} -> tensor<128x128xf16
// TWO: tkgpu.extract_slice %{{.*}} at [0, 128] : {{.*}} -> tensor<128x128xf16
// TWO-NOT: tkgpu.extract_slice
#mma = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [16, 256, 16]}>
#nv = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
#nv3 = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [2, 1, 0]}>
module attributes {tkgpu.num_warps = 8 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
  func.func @too_big(%map: !tkgpu.tensor_map, %i: i32, %j: i32, %acc: tensor<128x256xf16, #mma>) {
    %stages = tkgpu.local_alloc !tkgpu.memdesc<6x64x256xf16, #nv3>
    %buf = tkgpu.local_alloc %acc : tensor<128x256xf16, #mma> -> !tkgpu.memdesc<128x256xf16, #nv>
    tkgpu.async_tma_copy_local_to_global %map[%i, %j] %buf : !tkgpu.tensor_map, !tkgpu.memdesc<128x256xf16, #nv>
    tkgpu.local_dealloc %stages : !tkgpu.memdesc<6x64x256xf16, #nv3>
    return
  }
}

// -----

// The same store beside 96 KB of stages fits (160 KB): left as it is by
// default; chunks=2 cuts it anyway.
// CHECK-LABEL: func.func @fits(
// CHECK-NOT: tkgpu.extract_slice
// CHECK: tkgpu.local_alloc %{{.*}} : tensor<128x256xf16, {{.*}}> -> !tkgpu.memdesc<128x256xf16
// CHECK-NEXT: tkgpu.async_tma_copy_local_to_global
// CHECK-NOT: tkgpu.extract_slice
// TWO-LABEL: func.func @fits(
// TWO: tkgpu.extract_slice %{{.*}} at [0, 128]
#mma = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [16, 256, 16]}>
#nv = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
#nv3 = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [2, 1, 0]}>
module attributes {tkgpu.num_warps = 8 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
  func.func @fits(%map: !tkgpu.tensor_map, %i: i32, %j: i32, %acc: tensor<128x256xf16, #mma>) {
    %stages = tkgpu.local_alloc !tkgpu.memdesc<3x64x256xf16, #nv3>
    %buf = tkgpu.local_alloc %acc : tensor<128x256xf16, #mma> -> !tkgpu.memdesc<128x256xf16, #nv>
    tkgpu.async_tma_copy_local_to_global %map[%i, %j] %buf : !tkgpu.tensor_map, !tkgpu.memdesc<128x256xf16, #nv>
    tkgpu.local_dealloc %stages : !tkgpu.memdesc<3x64x256xf16, #nv3>
    return
  }
}

// -----

// A tile one box wide has no column blocks to cut: left as it is even
// where the kernel does not fit (the allocation pass reports that).
// CHECK-LABEL: func.func @one_box(
// CHECK-NOT: tkgpu.extract_slice
// CHECK: tkgpu.local_alloc %{{.*}} : tensor<128x64xf16, {{.*}}> -> !tkgpu.memdesc<128x64xf16
#mma = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [16, 64, 16]}>
#nv = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
#nv3 = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [2, 1, 0]}>
module attributes {tkgpu.num_warps = 8 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
  func.func @one_box(%map: !tkgpu.tensor_map, %i: i32, %j: i32, %acc: tensor<128x64xf16, #mma>) {
    %stages = tkgpu.local_alloc !tkgpu.memdesc<8x64x256xf16, #nv3>
    %buf = tkgpu.local_alloc %acc : tensor<128x64xf16, #mma> -> !tkgpu.memdesc<128x64xf16, #nv>
    tkgpu.async_tma_copy_local_to_global %map[%i, %j] %buf : !tkgpu.tensor_map, !tkgpu.memdesc<128x64xf16, #nv>
    tkgpu.local_dealloc %stages : !tkgpu.memdesc<8x64x256xf16, #nv3>
    return
  }
}
