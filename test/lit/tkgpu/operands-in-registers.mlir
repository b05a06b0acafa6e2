// RUN: tk-opt %s -split-input-file -tkgpu-operands-in-registers | FileCheck %s
// local_load(local_alloc(x)) into a dot operand becomes convert_layout(x)
// where the LinearLayouts show that no data moves between threads.

#mma = #tkgpu.mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#oa = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#ob = #tkgpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
#sh = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#bl = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>

// Attention's P: the f16 accumulator fragment of the m16n8 dot is the A
// fragment of m16n8k16 on the same warps. The staging (and the conversion
// to the blocked layout in front of it) goes; the conversion left is a
// register permutation.
// CHECK-DAG: #[[OA:.*]] = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
// CHECK-LABEL: func.func @p_as_a
// CHECK-NOT: tkgpu.local_alloc
// CHECK-NOT: tkgpu.local_load
// CHECK: %[[P:.*]] = arith.truncf
// CHECK-NEXT: %[[A:.*]] = tkgpu.convert_layout %[[P]] : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #[[OA]]>
// CHECK-NEXT: tk.dot %[[A]], %arg1, %arg2
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
  func.func @p_as_a(%s: tensor<64x64xf32, #mma>, %v: tensor<64x64xf16, #ob>, %acc: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %p = arith.truncf %s : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
    %pb = tkgpu.convert_layout %p : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #bl>
    %m = tkgpu.local_alloc %pb : tensor<64x64xf16, #bl> -> !tkgpu.memdesc<64x64xf16, #sh>
    %a = tkgpu.local_load %m : !tkgpu.memdesc<64x64xf16, #sh> -> tensor<64x64xf16, #oa>
    %d = tk.dot %a, %v, %acc : tensor<64x64xf16, #oa> * tensor<64x64xf16, #ob> -> tensor<64x64xf32, #mma>
    return %d : tensor<64x64xf32, #mma>
  }
}

// -----

#mma = #tkgpu.mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#ob = #tkgpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
#sh = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>

// As a B operand the accumulator fragment is in the wrong threads (B's
// K runs over lanes): the shared-memory staging stays.
// CHECK-LABEL: func.func @p_as_b
// CHECK: tkgpu.local_alloc
// CHECK-NEXT: tkgpu.local_load
// CHECK-NOT: tkgpu.convert_layout
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
  func.func @p_as_b(%p: tensor<64x64xf16, #mma>) -> tensor<64x64xf16, #ob> {
    %m = tkgpu.local_alloc %p : tensor<64x64xf16, #mma> -> !tkgpu.memdesc<64x64xf16, #sh>
    %b = tkgpu.local_load %m : !tkgpu.memdesc<64x64xf16, #sh> -> tensor<64x64xf16, #ob>
    return %b : tensor<64x64xf16, #ob>
  }
}

// -----

#mma22 = #tkgpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#mma41 = #tkgpu.mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#oa = #tkgpu.dot_operand<{opIdx = 0, parent = #mma41, kWidth = 2}>
#sh = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>

// Different warps ([2, 2] accumulator, [4, 1] operand): the rows of a warp
// differ, so the data must move; the staging stays.
// CHECK-LABEL: func.func @other_warps
// CHECK: tkgpu.local_alloc
// CHECK-NEXT: tkgpu.local_load
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
  func.func @other_warps(%p: tensor<64x64xf16, #mma22>) -> tensor<64x64xf16, #oa> {
    %m = tkgpu.local_alloc %p : tensor<64x64xf16, #mma22> -> !tkgpu.memdesc<64x64xf16, #sh>
    %a = tkgpu.local_load %m : !tkgpu.memdesc<64x64xf16, #sh> -> tensor<64x64xf16, #oa>
    return %a : tensor<64x64xf16, #oa>
  }
}

// -----

#mma = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#sa = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>

// wgmma: P (the f16 v3 accumulator of the previous dot, same warp group)
// is the m64nNk16 A fragment, so A goes to registers; B stays in shared
// memory, and so does its fence.
// CHECK-DAG: #[[OA3:.*]] = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
// CHECK-LABEL: func.func @p_as_wgmma_a
// CHECK: %[[P:.*]] = arith.truncf
// CHECK-NEXT: %[[MB:.*]] = tkgpu.local_alloc %arg1
// CHECK-NEXT: tkgpu.fence_async_shared
// CHECK-NEXT: %[[A:.*]] = tkgpu.convert_layout %[[P]] : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #[[OA3]]>
// CHECK-NEXT: tkgpu.warp_group_dot %[[A]], %[[MB]], %arg2 : tensor<64x64xf16, #[[OA3]]> * !tkgpu.memdesc
// CHECK-NOT: tkgpu.local_alloc
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
  func.func @p_as_wgmma_a(%s: tensor<64x64xf32, #mma>, %v: tensor<64x64xf16, #mma>, %acc: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %p = arith.truncf %s : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
    %ma = tkgpu.local_alloc %p : tensor<64x64xf16, #mma> -> !tkgpu.memdesc<64x64xf16, #sa>
    %mb = tkgpu.local_alloc %v : tensor<64x64xf16, #mma> -> !tkgpu.memdesc<64x64xf16, #sa>
    tkgpu.fence_async_shared
    %d = tkgpu.warp_group_dot %ma, %mb, %acc : !tkgpu.memdesc<64x64xf16, #sa> * !tkgpu.memdesc<64x64xf16, #sa> -> tensor<64x64xf32, #mma>
    return %d : tensor<64x64xf32, #mma>
  }
}

// -----

#mma = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#bl = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sa = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>

// A tile as loaded (blocked, coalesced rows): its threads do not hold the
// fragment, so A stays in shared memory.
// CHECK-LABEL: func.func @blocked_wgmma_a
// CHECK: tkgpu.local_alloc %arg0
// CHECK-NOT: tkgpu.convert_layout
// CHECK: tkgpu.warp_group_dot %{{.*}} : !tkgpu.memdesc<64x64xf16
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
  func.func @blocked_wgmma_a(%x: tensor<64x64xf16, #bl>, %mb: !tkgpu.memdesc<64x64xf16, #sa>, %acc: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %ma = tkgpu.local_alloc %x : tensor<64x64xf16, #bl> -> !tkgpu.memdesc<64x64xf16, #sa>
    tkgpu.fence_async_shared
    %d = tkgpu.warp_group_dot %ma, %mb, %acc : !tkgpu.memdesc<64x64xf16, #sa> * !tkgpu.memdesc<64x64xf16, #sa> -> tensor<64x64xf32, #mma>
    return %d : tensor<64x64xf32, #mma>
  }
}

// -----

#mma = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#mma16 = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 16, 16]}>
#bl = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sa = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
#s32 = #tkgpu.nvmma_shared<{swizzle = 32, elementBitWidth = 16, order = [1, 0]}>

// One P, converted towards the staging layout once (CSE), read by two
// wgmmas of different N: both take it from registers, each converted
// from the accumulator itself, and the shared conversion goes with its
// last staging.
// CHECK-LABEL: func.func @p_for_two_wgmmas
// CHECK: %[[P:.*]] = arith.truncf
// CHECK-NEXT: %[[A1:.*]] = tkgpu.convert_layout %[[P]] : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #dot_op>
// CHECK-NEXT: tkgpu.warp_group_dot %[[A1]], %arg1, %arg3 : tensor<64x64xf16, #dot_op> *
// CHECK-NEXT: %[[A2:.*]] = tkgpu.convert_layout %[[P]] : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #dot_op1>
// CHECK-NEXT: tkgpu.warp_group_dot %[[A2]], %arg2, %arg4 : tensor<64x64xf16, #dot_op1> *
// CHECK-NEXT: return
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
  func.func @p_for_two_wgmmas(%s: tensor<64x64xf32, #mma>, %mones: !tkgpu.memdesc<64x16xf16, #s32>, %mv: !tkgpu.memdesc<64x64xf16, #sa>, %l: tensor<64x16xf32, #mma16>, %acc: tensor<64x64xf32, #mma>) -> (tensor<64x16xf32, #mma16>, tensor<64x64xf32, #mma>) {
    %p = arith.truncf %s : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
    %pb = tkgpu.convert_layout %p : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #bl>
    %m1 = tkgpu.local_alloc %pb : tensor<64x64xf16, #bl> -> !tkgpu.memdesc<64x64xf16, #sa>
    %d1 = tkgpu.warp_group_dot %m1, %mones, %l : !tkgpu.memdesc<64x64xf16, #sa> * !tkgpu.memdesc<64x16xf16, #s32> -> tensor<64x16xf32, #mma16>
    %m2 = tkgpu.local_alloc %pb : tensor<64x64xf16, #bl> -> !tkgpu.memdesc<64x64xf16, #sa>
    %d2 = tkgpu.warp_group_dot %m2, %mv, %acc : !tkgpu.memdesc<64x64xf16, #sa> * !tkgpu.memdesc<64x64xf16, #sa> -> tensor<64x64xf32, #mma>
    return %d1, %d2 : tensor<64x16xf32, #mma16>, tensor<64x64xf32, #mma>
  }
}
