// RUN: tk-opt %s -split-input-file -tkgpu-prefetch=before-copies=false | FileCheck %s
// RUN: tk-opt %s -split-input-file -tkgpu-prefetch | FileCheck %s --check-prefix=COPIES
// tkgpu-prefetch: mma dots over whole-tile local_loads become chains over
// k-slices of one instruction's K (window loads); in tkgpu-pipeline's loop
// form the first slice is loaded a loop iteration ahead.

// The pipeliner's form, BLOCK_K = 64 in f16: four slices of K = 16. Slice
// 0 of slot 0 is loaded before the loop, slice 0 of the next slot after
// the wait at the end of the body; both travel as iter_args. Slices 1-3
// are window loads at K offsets 16, 32, 48 (A: columns, B: rows).
// CHECK-LABEL: func.func @pipelined(
// CHECK: %[[BUFA:.*]] = tkgpu.local_alloc !tkgpu.memdesc<3x64x64xf16
// CHECK: %[[BUFB:.*]] = tkgpu.local_alloc !tkgpu.memdesc<3x64x64xf16
// CHECK-NEXT: tkgpu.async_wait 1
// CHECK-NEXT: %[[IA:.*]] = tkgpu.memdesc_index %[[BUFA]][%[[C0:.*]]] :
// CHECK-NEXT: %[[A0:.*]] = tkgpu.local_load %[[IA]] at [0, 0] : !tkgpu.memdesc<64x64xf16, #{{.*}}> -> tensor<64x16xf16, #dot_op>
// CHECK-NEXT: %[[IB:.*]] = tkgpu.memdesc_index %[[BUFB]][%[[C0]]] :
// CHECK-NEXT: %[[B0:.*]] = tkgpu.local_load %[[IB]] at [0, 0] : !tkgpu.memdesc<64x64xf16, #{{.*}}> -> tensor<16x64xf16, #dot_op1>
// CHECK-NEXT: %[[R:.*]]:4 = scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[SLOT:.*]] = %[[C0]], %[[PA:.*]] = %[[A0]], %[[PB:.*]] = %[[B0]])
// CHECK-NEXT: %[[TA:.*]] = tkgpu.memdesc_index %[[BUFA]][%[[SLOT]]]
// CHECK-NEXT: %[[TB:.*]] = tkgpu.memdesc_index %[[BUFB]][%[[SLOT]]]
// CHECK-NEXT: %[[D0:.*]] = tk.dot %[[PA]], %[[PB]], %[[ACC]] : tensor<64x16xf16, #dot_op> * tensor<16x64xf16, #dot_op1>
// CHECK-NEXT: %[[A1:.*]] = tkgpu.local_load %[[TA]] at [0, 16]
// CHECK-NEXT: %[[B1:.*]] = tkgpu.local_load %[[TB]] at [16, 0]
// CHECK-NEXT: %[[D1:.*]] = tk.dot %[[A1]], %[[B1]], %[[D0]]
// CHECK-NEXT: %[[A2:.*]] = tkgpu.local_load %[[TA]] at [0, 32]
// CHECK-NEXT: %[[B2:.*]] = tkgpu.local_load %[[TB]] at [32, 0]
// CHECK-NEXT: %[[D2:.*]] = tk.dot %[[A2]], %[[B2]], %[[D1]]
// CHECK-NEXT: %[[A3:.*]] = tkgpu.local_load %[[TA]] at [0, 48]
// CHECK-NEXT: %[[B3:.*]] = tkgpu.local_load %[[TB]] at [48, 0]
// CHECK-NEXT: %[[D3:.*]] = tk.dot %[[A3]], %[[B3]], %[[D2]]
// CHECK-NEXT: tkgpu.async_wait 1
// CHECK: %[[NEXT:.*]] = arith.select
// CHECK-NEXT: %[[NA:.*]] = tkgpu.memdesc_index %[[BUFA]][%[[NEXT]]]
// CHECK-NEXT: %[[NA0:.*]] = tkgpu.local_load %[[NA]] at [0, 0]
// CHECK-NEXT: %[[NB:.*]] = tkgpu.memdesc_index %[[BUFB]][%[[NEXT]]]
// CHECK-NEXT: %[[NB0:.*]] = tkgpu.local_load %[[NB]] at [0, 0]
// CHECK-NEXT: scf.yield %[[D3]], %[[NEXT]], %[[NA0]], %[[NB0]] :
// CHECK-NOT: tkgpu.local_load
// CHECK: return %[[R]]#0
#mma = #tkgpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#dA = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#dB = #tkgpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
#sh = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#sh3 = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [2, 1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
  func.func @pipelined(%n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c3 = arith.constant 3 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %bufA = tkgpu.local_alloc !tkgpu.memdesc<3x64x64xf16, #sh3>
    %bufB = tkgpu.local_alloc !tkgpu.memdesc<3x64x64xf16, #sh3>
    tkgpu.async_wait 1
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %slot = %c0) -> (tensor<64x64xf32, #mma>, i32) : i32 {
      %tA = tkgpu.memdesc_index %bufA[%slot] : !tkgpu.memdesc<3x64x64xf16, #sh3> -> !tkgpu.memdesc<64x64xf16, #sh>
      %tB = tkgpu.memdesc_index %bufB[%slot] : !tkgpu.memdesc<3x64x64xf16, #sh3> -> !tkgpu.memdesc<64x64xf16, #sh>
      %a = tkgpu.local_load %tA : !tkgpu.memdesc<64x64xf16, #sh> -> tensor<64x64xf16, #dA>
      %b = tkgpu.local_load %tB : !tkgpu.memdesc<64x64xf16, #sh> -> tensor<64x64xf16, #dB>
      %d = tk.dot %a, %b, %acc : tensor<64x64xf16, #dA> * tensor<64x64xf16, #dB> -> tensor<64x64xf32, #mma>
      tkgpu.async_wait 1
      %s1 = arith.addi %slot, %c1 : i32
      %w = arith.cmpi eq, %s1, %c3 : i32
      %next = arith.select %w, %c0, %s1 : i32
      scf.yield %d, %next : tensor<64x64xf32, #mma>, i32
    }
    tkgpu.async_wait 0
    tkgpu.local_dealloc %bufA : !tkgpu.memdesc<3x64x64xf16, #sh3>
    tkgpu.local_dealloc %bufB : !tkgpu.memdesc<3x64x64xf16, #sh3>
    return %r#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// With the pipeliner's copies after the wait (slot %slot refilled while
// slot %next is read next), before-copies loads the next iteration's first
// slices right after the wait, ahead of the copies: ptxas does not move an
// ldmatrix above a cp.async, and there the loads overlap the last slice's
// mma. With before-copies=false they stay at the end of the body. The copy
// of the second case writes slot %next itself, so its loads stay at the
// end either way; the third case's operands are i8, where before-copies
// (the default for f16/bf16) leaves them at the end too.
// CHECK-LABEL: func.func @before_copies(
// CHECK: tkgpu.async_wait 1
// CHECK: tkgpu.async_commit_group
// CHECK: tkgpu.local_load {{.*}} at [0, 0]
// CHECK: tkgpu.local_load {{.*}} at [0, 0]
// CHECK-NEXT: scf.yield
// COPIES-LABEL: func.func @before_copies(
// COPIES: scf.for
// COPIES: tk.dot
// COPIES: tk.dot
// COPIES-NEXT: tkgpu.async_wait 1
// COPIES: %[[NEXT:.*]] = arith.select
// COPIES-NEXT: tkgpu.memdesc_index %{{.*}}[%[[NEXT]]]
// COPIES-NEXT: tkgpu.local_load {{.*}} at [0, 0]
// COPIES-NEXT: tkgpu.memdesc_index %{{.*}}[%[[NEXT]]]
// COPIES-NEXT: tkgpu.local_load {{.*}} at [0, 0]
// COPIES-NEXT: tkgpu.memdesc_index
// COPIES-NEXT: tkgpu.async_copy_global_to_local
// COPIES-NEXT: tkgpu.memdesc_index
// COPIES-NEXT: tkgpu.async_copy_global_to_local
// COPIES-NEXT: tkgpu.async_commit_group
// COPIES-NEXT: scf.yield
// COPIES-LABEL: func.func @same_slot(
// COPIES: tkgpu.async_wait 1
// COPIES: tkgpu.async_copy_global_to_local
// COPIES-NEXT: tkgpu.async_commit_group
// COPIES: tkgpu.local_load {{.*}} at [0, 0]
// COPIES: tkgpu.local_load {{.*}} at [0, 0]
// COPIES-NEXT: scf.yield
// COPIES-LABEL: func.func @i8_stays(
// COPIES: scf.for
// COPIES: tkgpu.async_wait 1
// COPIES-NOT: tkgpu.local_load
// COPIES: tkgpu.async_commit_group
// COPIES: tkgpu.local_load {{.*}} at [0, 0]
// COPIES: tkgpu.local_load {{.*}} at [0, 0]
// COPIES-NEXT: scf.yield
#mma = #tkgpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#dA = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#dB = #tkgpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
#bl = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#sh3 = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [2, 1, 0]}>
#mmai = #tkgpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#dAi = #tkgpu.dot_operand<{opIdx = 0, parent = #mmai, kWidth = 4}>
#dBi = #tkgpu.dot_operand<{opIdx = 1, parent = #mmai, kWidth = 4}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
  func.func @before_copies(%n: i32, %pa: tensor<64x32x!tk.ptr<f16>, #bl>, %pb: tensor<32x64x!tk.ptr<f16>, #bl>) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c3 = arith.constant 3 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %bufA = tkgpu.local_alloc !tkgpu.memdesc<3x64x32xf16, #sh3>
    %bufB = tkgpu.local_alloc !tkgpu.memdesc<3x32x64xf16, #sh3>
    tkgpu.async_wait 1
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %slot = %c0) -> (tensor<64x64xf32, #mma>, i32) : i32 {
      %tA = tkgpu.memdesc_index %bufA[%slot] : !tkgpu.memdesc<3x64x32xf16, #sh3> -> !tkgpu.memdesc<64x32xf16, #sh>
      %tB = tkgpu.memdesc_index %bufB[%slot] : !tkgpu.memdesc<3x32x64xf16, #sh3> -> !tkgpu.memdesc<32x64xf16, #sh>
      %a = tkgpu.local_load %tA : !tkgpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #dA>
      %b = tkgpu.local_load %tB : !tkgpu.memdesc<32x64xf16, #sh> -> tensor<32x64xf16, #dB>
      %d = tk.dot %a, %b, %acc : tensor<64x32xf16, #dA> * tensor<32x64xf16, #dB> -> tensor<64x64xf32, #mma>
      tkgpu.async_wait 1
      %fA = tkgpu.memdesc_index %bufA[%slot] : !tkgpu.memdesc<3x64x32xf16, #sh3> -> !tkgpu.memdesc<64x32xf16, #sh>
      tkgpu.async_copy_global_to_local %pa, %fA : tensor<64x32x!tk.ptr<f16>, #bl> -> !tkgpu.memdesc<64x32xf16, #sh>
      %fB = tkgpu.memdesc_index %bufB[%slot] : !tkgpu.memdesc<3x32x64xf16, #sh3> -> !tkgpu.memdesc<32x64xf16, #sh>
      tkgpu.async_copy_global_to_local %pb, %fB : tensor<32x64x!tk.ptr<f16>, #bl> -> !tkgpu.memdesc<32x64xf16, #sh>
      tkgpu.async_commit_group
      %s1 = arith.addi %slot, %c1 : i32
      %w = arith.cmpi eq, %s1, %c3 : i32
      %next = arith.select %w, %c0, %s1 : i32
      scf.yield %d, %next : tensor<64x64xf32, #mma>, i32
    }
    tkgpu.async_wait 0
    return %r#0 : tensor<64x64xf32, #mma>
  }
  func.func @same_slot(%n: i32, %pa: tensor<64x32x!tk.ptr<f16>, #bl>) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c3 = arith.constant 3 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %bufA = tkgpu.local_alloc !tkgpu.memdesc<3x64x32xf16, #sh3>
    %bufB = tkgpu.local_alloc !tkgpu.memdesc<3x32x64xf16, #sh3>
    tkgpu.async_wait 1
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %slot = %c0) -> (tensor<64x64xf32, #mma>, i32) : i32 {
      %tA = tkgpu.memdesc_index %bufA[%slot] : !tkgpu.memdesc<3x64x32xf16, #sh3> -> !tkgpu.memdesc<64x32xf16, #sh>
      %tB = tkgpu.memdesc_index %bufB[%slot] : !tkgpu.memdesc<3x32x64xf16, #sh3> -> !tkgpu.memdesc<32x64xf16, #sh>
      %a = tkgpu.local_load %tA : !tkgpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #dA>
      %b = tkgpu.local_load %tB : !tkgpu.memdesc<32x64xf16, #sh> -> tensor<32x64xf16, #dB>
      %d = tk.dot %a, %b, %acc : tensor<64x32xf16, #dA> * tensor<32x64xf16, #dB> -> tensor<64x64xf32, #mma>
      tkgpu.async_wait 1
      %s1 = arith.addi %slot, %c1 : i32
      %w = arith.cmpi eq, %s1, %c3 : i32
      %next = arith.select %w, %c0, %s1 : i32
      %fA = tkgpu.memdesc_index %bufA[%next] : !tkgpu.memdesc<3x64x32xf16, #sh3> -> !tkgpu.memdesc<64x32xf16, #sh>
      tkgpu.async_copy_global_to_local %pa, %fA : tensor<64x32x!tk.ptr<f16>, #bl> -> !tkgpu.memdesc<64x32xf16, #sh>
      tkgpu.async_commit_group
      scf.yield %d, %next : tensor<64x64xf32, #mma>, i32
    }
    tkgpu.async_wait 0
    return %r#0 : tensor<64x64xf32, #mma>
  }
  func.func @i8_stays(%n: i32, %pa: tensor<64x32x!tk.ptr<i8>, #bl>, %pb: tensor<32x64x!tk.ptr<i8>, #bl>) -> tensor<64x64xi32, #mmai> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c3 = arith.constant 3 : i32
    %acc0 = arith.constant dense<0> : tensor<64x64xi32, #mmai>
    %bufA = tkgpu.local_alloc !tkgpu.memdesc<3x64x32xi8, #sh3>
    %bufB = tkgpu.local_alloc !tkgpu.memdesc<3x32x64xi8, #sh3>
    tkgpu.async_wait 1
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %slot = %c0) -> (tensor<64x64xi32, #mmai>, i32) : i32 {
      %tA = tkgpu.memdesc_index %bufA[%slot] : !tkgpu.memdesc<3x64x32xi8, #sh3> -> !tkgpu.memdesc<64x32xi8, #sh>
      %tB = tkgpu.memdesc_index %bufB[%slot] : !tkgpu.memdesc<3x32x64xi8, #sh3> -> !tkgpu.memdesc<32x64xi8, #sh>
      %a = tkgpu.local_load %tA : !tkgpu.memdesc<64x32xi8, #sh> -> tensor<64x32xi8, #dAi>
      %b = tkgpu.local_load %tB : !tkgpu.memdesc<32x64xi8, #sh> -> tensor<32x64xi8, #dBi>
      %d = tk.dot %a, %b, %acc : tensor<64x32xi8, #dAi> * tensor<32x64xi8, #dBi> -> tensor<64x64xi32, #mmai>
      tkgpu.async_wait 1
      %fA = tkgpu.memdesc_index %bufA[%slot] : !tkgpu.memdesc<3x64x32xi8, #sh3> -> !tkgpu.memdesc<64x32xi8, #sh>
      tkgpu.async_copy_global_to_local %pa, %fA : tensor<64x32x!tk.ptr<i8>, #bl> -> !tkgpu.memdesc<64x32xi8, #sh>
      %fB = tkgpu.memdesc_index %bufB[%slot] : !tkgpu.memdesc<3x32x64xi8, #sh3> -> !tkgpu.memdesc<32x64xi8, #sh>
      tkgpu.async_copy_global_to_local %pb, %fB : tensor<32x64x!tk.ptr<i8>, #bl> -> !tkgpu.memdesc<32x64xi8, #sh>
      tkgpu.async_commit_group
      %s1 = arith.addi %slot, %c1 : i32
      %w = arith.cmpi eq, %s1, %c3 : i32
      %next = arith.select %w, %c0, %s1 : i32
      scf.yield %d, %next : tensor<64x64xi32, #mmai>, i32
    }
    tkgpu.async_wait 0
    return %r#0 : tensor<64x64xi32, #mmai>
  }
}

// -----

// A wait before the loads in the body: loading at the end of the previous
// iteration would read before the copies land, so the slices stay in the
// body (split, not carried).
// CHECK-LABEL: func.func @wait_first(
// CHECK: scf.for {{.*}} iter_args(%{{[^ ]*}} = %{{[^,]*}}, %{{[^ ]*}} = %{{[^)]*}}) -> (tensor<64x64xf32, #mma>, i32)
// CHECK-NEXT: tkgpu.async_wait 1
// CHECK: tkgpu.local_load %{{.*}} at [0, 0] : {{.*}} -> tensor<64x16xf16, #dot_op>
// CHECK: tkgpu.local_load %{{.*}} at [0, 0] : {{.*}} -> tensor<16x64xf16, #dot_op1>
// CHECK: tk.dot
// CHECK: tkgpu.local_load %{{.*}} at [0, 16]
// CHECK: tkgpu.local_load %{{.*}} at [16, 0]
// CHECK: tk.dot
// CHECK-NOT: tkgpu.local_load
// CHECK: scf.yield
#mma = #tkgpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#dA = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#dB = #tkgpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
#sh = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#sh3 = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [2, 1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
  func.func @wait_first(%n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c3 = arith.constant 3 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %bufA = tkgpu.local_alloc !tkgpu.memdesc<3x64x32xf16, #sh3>
    %bufB = tkgpu.local_alloc !tkgpu.memdesc<3x32x64xf16, #sh3>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %slot = %c0) -> (tensor<64x64xf32, #mma>, i32) : i32 {
      tkgpu.async_wait 1
      %tA = tkgpu.memdesc_index %bufA[%slot] : !tkgpu.memdesc<3x64x32xf16, #sh3> -> !tkgpu.memdesc<64x32xf16, #sh>
      %tB = tkgpu.memdesc_index %bufB[%slot] : !tkgpu.memdesc<3x32x64xf16, #sh3> -> !tkgpu.memdesc<32x64xf16, #sh>
      %a = tkgpu.local_load %tA : !tkgpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #dA>
      %b = tkgpu.local_load %tB : !tkgpu.memdesc<32x64xf16, #sh> -> tensor<32x64xf16, #dB>
      %d = tk.dot %a, %b, %acc : tensor<64x32xf16, #dA> * tensor<32x64xf16, #dB> -> tensor<64x64xf32, #mma>
      %s1 = arith.addi %slot, %c1 : i32
      %w = arith.cmpi eq, %s1, %c3 : i32
      %next = arith.select %w, %c0, %s1 : i32
      scf.yield %d, %next : tensor<64x64xf32, #mma>, i32
    }
    tkgpu.local_dealloc %bufA : !tkgpu.memdesc<3x64x32xf16, #sh3>
    tkgpu.local_dealloc %bufB : !tkgpu.memdesc<3x32x64xf16, #sh3>
    return %r#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// No loop (num_stages = 1's form): tf32 (kWidth 1) slices of K = 8, two of
// them for K = 16, straight from the local_allocs.
// CHECK-LABEL: func.func @straight_tf32(
// CHECK: %[[SA:.*]] = tkgpu.local_alloc %arg0
// CHECK: %[[SB:.*]] = tkgpu.local_alloc %arg1
// CHECK-NEXT: %[[A0:.*]] = tkgpu.local_load %[[SA]] at [0, 0] : {{.*}} -> tensor<64x8xf32, #dot_op>
// CHECK-NEXT: %[[B0:.*]] = tkgpu.local_load %[[SB]] at [0, 0] : {{.*}} -> tensor<8x64xf32, #dot_op1>
// CHECK-NEXT: %[[D0:.*]] = tk.dot %[[A0]], %[[B0]], %arg2
// CHECK-NEXT: %[[A1:.*]] = tkgpu.local_load %[[SA]] at [0, 8] : {{.*}} -> tensor<64x8xf32, #dot_op>
// CHECK-NEXT: %[[B1:.*]] = tkgpu.local_load %[[SB]] at [8, 0] : {{.*}} -> tensor<8x64xf32, #dot_op1>
// CHECK-NEXT: %[[D1:.*]] = tk.dot %[[A1]], %[[B1]], %[[D0]]
// CHECK-NEXT: return %[[D1]]
#mma = #tkgpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#tA = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 1}>
#tB = #tkgpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 1}>
#bl = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#shf = #tkgpu.shared<{vec = 4, perPhase = 2, maxPhase = 4, order = [1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
  func.func @straight_tf32(%x: tensor<64x16xf32, #bl>, %y: tensor<16x64xf32, #bl>, %acc: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %sa = tkgpu.local_alloc %x : tensor<64x16xf32, #bl> -> !tkgpu.memdesc<64x16xf32, #shf>
    %sb = tkgpu.local_alloc %y : tensor<16x64xf32, #bl> -> !tkgpu.memdesc<16x64xf32, #shf>
    %a = tkgpu.local_load %sa : !tkgpu.memdesc<64x16xf32, #shf> -> tensor<64x16xf32, #tA>
    %b = tkgpu.local_load %sb : !tkgpu.memdesc<16x64xf32, #shf> -> tensor<16x64xf32, #tB>
    %d = tk.dot %a, %b, %acc : tensor<64x16xf32, #tA> * tensor<16x64xf32, #tB> -> tensor<64x64xf32, #mma>
    return %d : tensor<64x64xf32, #mma>
  }
}

// -----

// An operand computed in registers (tf32x3's split terms) or a load with a
// second user: the dot stays whole.
// CHECK-LABEL: func.func @left_alone(
// CHECK: tkgpu.local_load %{{[^ ]*}} : {{.*}} -> tensor<64x32xf16, #dot_op>
// CHECK: tkgpu.local_load %{{[^ ]*}} : {{.*}} -> tensor<32x64xf16, #dot_op1>
// CHECK-NOT: at [
// CHECK: tk.dot {{.*}} : tensor<64x32xf16, #dot_op> * tensor<32x64xf16, #dot_op1>
// CHECK: tk.dot {{.*}} : tensor<64x32xf16, #dot_op> * tensor<32x64xf16, #dot_op1>
#mma = #tkgpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#dA = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#dB = #tkgpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
#sh = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
  func.func @left_alone(%sa: !tkgpu.memdesc<64x32xf16, #sh>, %sb: !tkgpu.memdesc<32x64xf16, #sh>, %acc: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %a = tkgpu.local_load %sa : !tkgpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #dA>
    %b = tkgpu.local_load %sb : !tkgpu.memdesc<32x64xf16, #sh> -> tensor<32x64xf16, #dB>
    %neg = arith.negf %a : tensor<64x32xf16, #dA>
    %d = tk.dot %neg, %b, %acc : tensor<64x32xf16, #dA> * tensor<32x64xf16, #dB> -> tensor<64x64xf32, #mma>
    %e = tk.dot %a, %b, %d : tensor<64x32xf16, #dA> * tensor<32x64xf16, #dB> -> tensor<64x64xf32, #mma>
    return %e : tensor<64x64xf32, #mma>
  }
}

// -----

// A whole-tile load hoisted out of the loop (a loop-invariant A, as
// accelerate-matmul stages attention's Q) is sliced where it is: its four
// slices are read once before the loop and stay in registers; only B's
// slices are read in the body.
// CHECK-LABEL: func.func @invariant_a(
// CHECK: %[[MA:.*]] = tkgpu.local_alloc %{{.*}} : tensor<64x64xf16
// CHECK-NEXT: %[[A0:.*]] = tkgpu.local_load %[[MA]] at [0, 0]
// CHECK-NEXT: %[[A1:.*]] = tkgpu.local_load %[[MA]] at [0, 16]
// CHECK-NEXT: %[[A2:.*]] = tkgpu.local_load %[[MA]] at [0, 32]
// CHECK-NEXT: %[[A3:.*]] = tkgpu.local_load %[[MA]] at [0, 48]
// CHECK: scf.for
// CHECK-NOT: local_load %[[MA]]
// CHECK: tk.dot %[[A0]],
// CHECK-NOT: local_load %[[MA]]
// CHECK: tk.dot %[[A1]],
// CHECK-NOT: local_load %[[MA]]
// CHECK: tk.dot %[[A2]],
// CHECK-NOT: local_load %[[MA]]
// CHECK: tk.dot %[[A3]],
// CHECK: scf.yield
#mma = #tkgpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#dA = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#dB = #tkgpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
#sh = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#bl = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
  func.func @invariant_a(%q: tensor<64x64xf16, #bl>, %kt: tensor<64x64xf16, #bl>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %mA = tkgpu.local_alloc %q : tensor<64x64xf16, #bl> -> !tkgpu.memdesc<64x64xf16, #sh>
    %a = tkgpu.local_load %mA : !tkgpu.memdesc<64x64xf16, #sh> -> tensor<64x64xf16, #dA>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma>) : i32 {
      %mB = tkgpu.local_alloc %kt : tensor<64x64xf16, #bl> -> !tkgpu.memdesc<64x64xf16, #sh>
      %b = tkgpu.local_load %mB : !tkgpu.memdesc<64x64xf16, #sh> -> tensor<64x64xf16, #dB>
      %d = tk.dot %a, %b, %acc : tensor<64x64xf16, #dA> * tensor<64x64xf16, #dB> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    return %r : tensor<64x64xf32, #mma>
  }
}

// -----

// A register A operand (attention's P after tkgpu-operands-in-registers) is
// sliced with extract_slice (register picks), B as usual: one K-slice of B
// is live at a time.
// CHECK-LABEL: func.func @register_a(
// CHECK: %[[P0:.*]] = tkgpu.extract_slice %arg0 at [0, 0] : tensor<64x64xf16, #dot_op> -> tensor<64x16xf16, #dot_op>
// CHECK-NEXT: %[[B0:.*]] = tkgpu.local_load %arg1 at [0, 0]
// CHECK-NEXT: %[[D0:.*]] = tk.dot %[[P0]], %[[B0]], %arg2
// CHECK: tkgpu.extract_slice %arg0 at [0, 16]
// CHECK: tkgpu.extract_slice %arg0 at [0, 32]
// CHECK: tkgpu.extract_slice %arg0 at [0, 48]
// CHECK-NEXT: tkgpu.local_load %arg1 at [48, 0]
// CHECK-NEXT: %[[D3:.*]] = tk.dot
// CHECK-NEXT: return %[[D3]]
#mma = #tkgpu.mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#dA = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#dB = #tkgpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
#sh = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
  func.func @register_a(%p: tensor<64x64xf16, #dA>, %mv: !tkgpu.memdesc<64x64xf16, #sh>, %acc: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %v = tkgpu.local_load %mv : !tkgpu.memdesc<64x64xf16, #sh> -> tensor<64x64xf16, #dB>
    %d = tk.dot %p, %v, %acc : tensor<64x64xf16, #dA> * tensor<64x64xf16, #dB> -> tensor<64x64xf32, #mma>
    return %d : tensor<64x64xf32, #mma>
  }
}
