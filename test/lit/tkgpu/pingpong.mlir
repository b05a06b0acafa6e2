// RUN: tk-opt %s -split-input-file -tkgpu-pingpong | FileCheck %s

// Two consumer warp groups, two key loops of two dots each (attention's
// unmasked and masked loops): group g waits at barrier 3 + g before each
// loop and before each P @ V, and releases the other group (barrier
// 4 - g) after each QK^T and after each loop but the last. Group 1 gives
// group 0 the first turn; after the last loop group 0 releases group 1
// and both wait at barrier 3.
#bar = #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#sa = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
#mma = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [16, 64, 16]}>
module attributes {tkgpu.num_warps = 8 : i32, tkgpu.total_num_warps = 12 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
  // CHECK-LABEL: func.func @attention
  // CHECK: } consumer(registers = 240) {
  // CHECK-NEXT: %[[G:.*]] = tkgpu.warp_group_id
  // CHECK-NEXT: %[[C3:.*]] = arith.constant 3 : i32
  // CHECK-NEXT: %[[MINE:.*]] = arith.addi %[[C3]], %[[G]]
  // CHECK-NEXT: %[[C4:.*]] = arith.constant 4 : i32
  // CHECK-NEXT: %[[OTHER:.*]] = arith.subi %[[C4]], %[[G]]
  // CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : i32
  // CHECK-NEXT: %[[G1:.*]] = arith.cmpi ne, %[[G]], %[[C0]]
  // CHECK-NEXT: scf.if %[[G1]] {
  // CHECK-NEXT: tkgpu.named_barrier_arrive %[[C3]], 256
  // CHECK-NEXT: }
  // CHECK-NEXT: tkgpu.named_barrier_sync %[[MINE]], 256
  // CHECK-NEXT: %[[L1:.*]] = scf.for
  // CHECK-NEXT: tkgpu.wait_barrier
  // CHECK-NEXT: %[[S:.*]] = tkgpu.warp_group_dot %[[Q:.*]], %[[K:.*]], %{{.*}} {isAsync}
  // CHECK-NEXT: tkgpu.named_barrier_arrive %[[OTHER]], 256
  // CHECK-NEXT: tkgpu.warp_group_dot_wait %[[S]] {pendings = 0 : i32}
  // CHECK-NEXT: arith.addf
  // CHECK-NEXT: tkgpu.named_barrier_sync %[[MINE]], 256
  // CHECK-NEXT: tkgpu.warp_group_dot %[[Q]], %[[V:.*]], %{{.*}} {isAsync}
  // CHECK-NEXT: scf.yield
  // CHECK-NEXT: }
  // CHECK-NEXT: tkgpu.named_barrier_arrive %[[OTHER]], 256
  // CHECK-NEXT: tkgpu.warp_group_dot_wait %[[L1]] {pendings = 0 : i32}
  // CHECK-NEXT: tkgpu.named_barrier_sync %[[MINE]], 256
  // CHECK-NEXT: %[[L2:.*]] = scf.for
  // CHECK-NEXT: tkgpu.wait_barrier
  // CHECK-NEXT: tkgpu.warp_group_dot
  // CHECK-NEXT: tkgpu.named_barrier_arrive %[[OTHER]], 256
  // CHECK-NEXT: tkgpu.warp_group_dot_wait
  // CHECK-NEXT: arith.addf
  // CHECK-NEXT: tkgpu.named_barrier_sync %[[MINE]], 256
  // CHECK-NEXT: tkgpu.warp_group_dot
  // CHECK-NEXT: scf.yield
  // CHECK-NEXT: }
  // After the last loop only group 0 releases the other's last turn; then
  // both groups wait at T0 (group 1's last release of group 0 is that
  // wait: each group waits at as many barriers as the other).
  // CHECK-NEXT: %[[G0:.*]] = arith.cmpi eq, %[[G]], %[[C0]]
  // CHECK-NEXT: scf.if %[[G0]] {
  // CHECK-NEXT: tkgpu.named_barrier_arrive %[[OTHER]], 256
  // CHECK-NEXT: }
  // CHECK-NEXT: tkgpu.named_barrier_sync %[[C3]], 256
  // CHECK-NEXT: tkgpu.warp_group_dot_wait %[[L2]] {pendings = 0 : i32}
  // CHECK-NOT: tkgpu.named_barrier
  // CHECK: tkgpu.warp_yield
  func.func @attention(%n: i32, %p: tensor<128x64x!tk.ptr<f32>, #mma>) attributes {tk.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %full = tkgpu.local_alloc {tkgpu.offset = 0 : i64} !tkgpu.memdesc<1xi64, #bar>
    %q = tkgpu.local_alloc {tkgpu.offset = 1024 : i64} !tkgpu.memdesc<128x64xf16, #sa>
    %k = tkgpu.local_alloc {tkgpu.offset = 17408 : i64} !tkgpu.memdesc<64x64xf16, #sa>
    %v = tkgpu.local_alloc {tkgpu.offset = 25600 : i64} !tkgpu.memdesc<64x64xf16, #sa>
    tkgpu.warp_specialize producer(registers = 24) {
      tkgpu.warp_yield
    } consumer(registers = 240) {
      %a1 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x64xf32, #mma>) : i32 {
        tkgpu.wait_barrier %full, %c0 : !tkgpu.memdesc<1xi64, #bar>
        %s = tkgpu.warp_group_dot %q, %k, %zero {isAsync} : !tkgpu.memdesc<128x64xf16, #sa> * !tkgpu.memdesc<64x64xf16, #sa> -> tensor<128x64xf32, #mma>
        %sw = tkgpu.warp_group_dot_wait %s {pendings = 0 : i32} : tensor<128x64xf32, #mma>
        %r = arith.addf %sw, %acc : tensor<128x64xf32, #mma>
        %d = tkgpu.warp_group_dot %q, %v, %r {isAsync} : !tkgpu.memdesc<128x64xf16, #sa> * !tkgpu.memdesc<64x64xf16, #sa> -> tensor<128x64xf32, #mma>
        scf.yield %d : tensor<128x64xf32, #mma>
      }
      %w1 = tkgpu.warp_group_dot_wait %a1 {pendings = 0 : i32} : tensor<128x64xf32, #mma>
      %a2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %w1) -> (tensor<128x64xf32, #mma>) : i32 {
        tkgpu.wait_barrier %full, %c0 : !tkgpu.memdesc<1xi64, #bar>
        %s = tkgpu.warp_group_dot %q, %k, %zero {isAsync} : !tkgpu.memdesc<128x64xf16, #sa> * !tkgpu.memdesc<64x64xf16, #sa> -> tensor<128x64xf32, #mma>
        %sw = tkgpu.warp_group_dot_wait %s {pendings = 0 : i32} : tensor<128x64xf32, #mma>
        %r = arith.addf %sw, %acc : tensor<128x64xf32, #mma>
        %d = tkgpu.warp_group_dot %q, %v, %r {isAsync} : !tkgpu.memdesc<128x64xf16, #sa> * !tkgpu.memdesc<64x64xf16, #sa> -> tensor<128x64xf32, #mma>
        scf.yield %d : tensor<128x64xf32, #mma>
      }
      %w2 = tkgpu.warp_group_dot_wait %a2 {pendings = 0 : i32} : tensor<128x64xf32, #mma>
      tk.store %p, %w2 : tensor<128x64x!tk.ptr<f32>, #mma>, tensor<128x64xf32, #mma>
      tkgpu.warp_yield
    }
    return
  }
}

// -----

// One warp group of consumers: nothing to alternate with.
#bar = #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#sa = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
#mma = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.total_num_warps = 8 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
  // CHECK-LABEL: func.func @one_group
  // CHECK-NOT: tkgpu.warp_group_id
  // CHECK-NOT: tkgpu.named_barrier
  // CHECK: return
  func.func @one_group(%n: i32, %p: tensor<64x64x!tk.ptr<f32>, #mma>) attributes {tk.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %q = tkgpu.local_alloc {tkgpu.offset = 1024 : i64} !tkgpu.memdesc<64x64xf16, #sa>
    %k = tkgpu.local_alloc {tkgpu.offset = 9216 : i64} !tkgpu.memdesc<64x64xf16, #sa>
    tkgpu.warp_specialize producer(registers = 24) {
      tkgpu.warp_yield
    } consumer(registers = 240) {
      %a1 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
        %s = tkgpu.warp_group_dot %q, %k, %acc {isAsync} : !tkgpu.memdesc<64x64xf16, #sa> * !tkgpu.memdesc<64x64xf16, #sa> -> tensor<64x64xf32, #mma>
        %d = tkgpu.warp_group_dot %q, %k, %s {isAsync} : !tkgpu.memdesc<64x64xf16, #sa> * !tkgpu.memdesc<64x64xf16, #sa> -> tensor<64x64xf32, #mma>
        scf.yield %d : tensor<64x64xf32, #mma>
      }
      %w1 = tkgpu.warp_group_dot_wait %a1 {pendings = 0 : i32} : tensor<64x64xf32, #mma>
      tk.store %p, %w1 : tensor<64x64x!tk.ptr<f32>, #mma>, tensor<64x64xf32, #mma>
      tkgpu.warp_yield
    }
    return
  }
}

// -----

// A loop of one dot (a matmul's K loop) has no window; a loop with a CTA
// barrier in it (here one tkgpu-membar placed for a shared-memory
// exchange) would deadlock a group that reaches it inside its window
// while the other waits for its turn; a loop whose first dot is carried
// overlaps it with its own softmax already: the kernel is left alone.
#sa = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
#mma = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [16, 64, 16]}>
module attributes {tkgpu.num_warps = 8 : i32, tkgpu.total_num_warps = 12 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
  // CHECK-LABEL: func.func @not_scheduled
  // CHECK-NOT: tkgpu.warp_group_id
  // CHECK-NOT: tkgpu.named_barrier
  // CHECK: return
  func.func @not_scheduled(%n: i32, %p: tensor<128x64x!tk.ptr<f32>, #mma>) attributes {tk.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %q = tkgpu.local_alloc {tkgpu.offset = 1024 : i64} !tkgpu.memdesc<128x64xf16, #sa>
    %k = tkgpu.local_alloc {tkgpu.offset = 17408 : i64} !tkgpu.memdesc<64x64xf16, #sa>
    tkgpu.warp_specialize producer(registers = 24) {
      tkgpu.warp_yield
    } consumer(registers = 240) {
      %a1 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x64xf32, #mma>) : i32 {
        %d = tkgpu.warp_group_dot %q, %k, %acc {isAsync} : !tkgpu.memdesc<128x64xf16, #sa> * !tkgpu.memdesc<64x64xf16, #sa> -> tensor<128x64xf32, #mma>
        scf.yield %d : tensor<128x64xf32, #mma>
      }
      %a2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a1) -> (tensor<128x64xf32, #mma>) : i32 {
        %s = tkgpu.warp_group_dot %q, %k, %acc {isAsync} : !tkgpu.memdesc<128x64xf16, #sa> * !tkgpu.memdesc<64x64xf16, #sa> -> tensor<128x64xf32, #mma>
        tkgpu.barrier
        %d = tkgpu.warp_group_dot %q, %k, %s {isAsync} : !tkgpu.memdesc<128x64xf16, #sa> * !tkgpu.memdesc<64x64xf16, #sa> -> tensor<128x64xf32, #mma>
        scf.yield %d : tensor<128x64xf32, #mma>
      }
      // S of the next block issued first and carried (attention's AHEAD
      // order): the group's own softmax already runs beside it.
      %a3:2 = scf.for %i = %c0 to %n step %c1 iter_args(%s = %zero, %acc = %a2) -> (tensor<128x64xf32, #mma>, tensor<128x64xf32, #mma>) : i32 {
        %next = tkgpu.warp_group_dot %q, %k, %zero {isAsync} : !tkgpu.memdesc<128x64xf16, #sa> * !tkgpu.memdesc<64x64xf16, #sa> -> tensor<128x64xf32, #mma>
        %r = arith.addf %s, %acc : tensor<128x64xf32, #mma>
        %d = tkgpu.warp_group_dot %q, %k, %r {isAsync} : !tkgpu.memdesc<128x64xf16, #sa> * !tkgpu.memdesc<64x64xf16, #sa> -> tensor<128x64xf32, #mma>
        %nw = tkgpu.warp_group_dot_wait %next {pendings = 1 : i32} : tensor<128x64xf32, #mma>
        scf.yield %nw, %d : tensor<128x64xf32, #mma>, tensor<128x64xf32, #mma>
      }
      %w = tkgpu.warp_group_dot_wait %a3#1 {pendings = 0 : i32} : tensor<128x64xf32, #mma>
      tk.store %p, %w : tensor<128x64x!tk.ptr<f32>, #mma>, tensor<128x64xf32, #mma>
      tkgpu.warp_yield
    }
    return
  }
}
