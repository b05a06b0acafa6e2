// RUN: tk-opt %s -split-input-file -allow-unregistered-dialect -tkgpu-pipeline | FileCheck %s
// RUN: tk-opt %s -split-input-file -allow-unregistered-dialect -tkgpu-pipeline=num-stages=2 | FileCheck %s --check-prefix=S2
// RUN: tk-opt %s -split-input-file -allow-unregistered-dialect -tkgpu-pipeline=num-stages=4 -canonicalize -cse -tkgpu-allocate-shared-memory -tkgpu-membar | FileCheck %s --check-prefix=MEMBAR
// tkgpu-pipeline feeding warp_group_dot (accelerate-matmul's sm_90a form)
// straight from the cp.async slots: the dot becomes async, a
// warp_group_dot_wait keeps one wgmma in flight across iterations (so the
// fetch at the end of iteration i is of i + num_stages - 1, into the slot
// of the previous iteration, whose wgmma the wait retired),
// fence_async_shared after each async_wait.

// num_stages 3: three buffers, one prologue fetch, a wait for 0 groups and
// a fence, the fetch of iteration 1; in the loop the dot first (nothing to
// wait for), one wgmma in flight, then wait, fence, fetch of i + 2 into
// the insert slot (which starts at 2 and trails the slot read by one).
// CHECK-DAG: #[[NV3:.*]] = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [2, 1, 0]}>
// CHECK-DAG: #[[NV:.*]] = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
// CHECK-LABEL: func.func @matmul(
// CHECK: %[[BUFA:.*]] = tkgpu.local_alloc !tkgpu.memdesc<3x64x64xf16, #[[NV3]]>
// CHECK: %[[BUFB:.*]] = tkgpu.local_alloc !tkgpu.memdesc<3x64x64xf16, #[[NV3]]>
// CHECK: tkgpu.async_copy_global_to_local
// CHECK: tkgpu.async_copy_global_to_local
// CHECK-NEXT: tkgpu.async_commit_group
// CHECK-NEXT: tkgpu.async_wait 0
// CHECK-NEXT: tkgpu.fence_async_shared
// CHECK: tkgpu.async_copy_global_to_local
// CHECK: tkgpu.async_copy_global_to_local
// CHECK-NEXT: tkgpu.async_commit_group
// CHECK-NOT: tkgpu.async_commit_group
// CHECK: %[[R:.*]]:5 = scf.for {{.*}} iter_args(%[[ACC:[^ ]*]] = %{{[^,]*}}, %{{[^ ]*}} = %{{[^,]*}}, %{{[^ ]*}} = %{{[^,]*}}, %[[EXT:[^ ]*]] = %c0_i32{{[_0-9]*}}, %[[INS:[^ ]*]] = %c2_i32{{[_0-9]*}})
// CHECK-NEXT: %[[VA:.*]] = tkgpu.memdesc_index %[[BUFA]][%[[EXT]]] : !tkgpu.memdesc<3x64x64xf16, #[[NV3]]> -> !tkgpu.memdesc<64x64xf16, #[[NV]]>
// CHECK-NEXT: %[[VB:.*]] = tkgpu.memdesc_index %[[BUFB]][%[[EXT]]]
// The non-pipelined form's fence covered only the replaced stores.
// CHECK-NOT: tkgpu.fence_async_shared
// CHECK-NEXT: %[[D:.*]] = tkgpu.warp_group_dot %[[VA]], %[[VB]], %[[ACC]] {isAsync}
// CHECK-NEXT: %[[W:.*]] = tkgpu.warp_group_dot_wait %[[D]] {pendings = 1 : i32}
// CHECK-NEXT: tkgpu.async_wait 0
// CHECK-NEXT: tkgpu.fence_async_shared
// CHECK: tkgpu.memdesc_index %[[BUFA]][%[[INS]]]
// CHECK: tkgpu.async_copy_global_to_local
// CHECK: tkgpu.memdesc_index %[[BUFB]][%[[INS]]]
// CHECK: tkgpu.async_copy_global_to_local
// CHECK-NEXT: tkgpu.async_commit_group
// CHECK: scf.yield %[[W]],
// CHECK-NEXT: }
// After the loop: the last wgmma completes before its result is used and
// the buffers die.
// CHECK-NEXT: %[[DONE:.*]] = tkgpu.warp_group_dot_wait %[[R]]#0 {pendings = 0 : i32}
// CHECK-NEXT: tkgpu.async_wait 0
// CHECK-NEXT: tkgpu.local_dealloc %[[BUFA]]
// CHECK-NEXT: tkgpu.local_dealloc %[[BUFB]]
// CHECK-NEXT: return %[[DONE]]

// num_stages 2: no wgmma stays in flight (the slot read now is refilled at
// the end of this iteration): wait 0 after each dot, then the wait for the
// copies, one slot carried.
// S2-LABEL: func.func @matmul(
// S2: tkgpu.local_alloc !tkgpu.memdesc<2x64x64xf16
// S2: scf.for {{.*}} iter_args({{.*}}, %{{[^ ]*}} = %c0_i32{{[_0-9]*}}) ->
// S2: tkgpu.warp_group_dot {{.*}} {isAsync}
// S2-NEXT: tkgpu.warp_group_dot_wait %{{.*}} {pendings = 0 : i32}
// S2-NEXT: tkgpu.async_wait 0
// S2-NEXT: tkgpu.fence_async_shared
// S2: scf.yield
// S2-NEXT: }
// S2-NEXT: tkgpu.async_wait 0

// num_stages 4 through allocation and membar: one barrier per iteration,
// after the dot wait, the async wait (leaving 1 group) and the fence, and
// before the copies; none before the dot, which reads a slot whose copies
// landed before the previous iteration's barrier.
// MEMBAR-LABEL: func.func @matmul(
// MEMBAR: tkgpu.local_alloc {tkgpu.offset = 0 : i64} !tkgpu.memdesc<4x64x64xf16
// MEMBAR: tkgpu.local_alloc {tkgpu.offset = 32768 : i64} !tkgpu.memdesc<4x64x64xf16
// MEMBAR: scf.for
// MEMBAR-NOT: tkgpu.barrier
// MEMBAR: tkgpu.warp_group_dot
// MEMBAR-NEXT: tkgpu.warp_group_dot_wait %{{.*}} {pendings = 1 : i32}
// MEMBAR-NEXT: tkgpu.async_wait 1
// MEMBAR-NEXT: tkgpu.fence_async_shared
// MEMBAR-NOT: tkgpu.barrier
// MEMBAR: tkgpu.barrier
// MEMBAR-NEXT: tkgpu.async_copy_global_to_local
// MEMBAR-NOT: tkgpu.barrier
// MEMBAR: scf.yield
#bA = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nv = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
  func.func @matmul(%a: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %b: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %step = arith.constant dense<64> : tensor<64x64xi32, #bA>
    %rm = tk.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 1, parent = #bA}>>
    %rm2 = tk.expand_dims %rm {axis = 1 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 1, parent = #bA}>> -> tensor<64x1xi32, #bA>
    %c64 = arith.constant dense<64> : tensor<64x1xi32, #bA>
    %rowOff = arith.muli %rm2, %c64 : tensor<64x1xi32, #bA>
    %rk = tk.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 0, parent = #bA}>>
    %rk2 = tk.expand_dims %rk {axis = 0 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 0, parent = #bA}>> -> tensor<1x64xi32, #bA>
    %rowOffB = tk.broadcast %rowOff : tensor<64x1xi32, #bA> -> tensor<64x64xi32, #bA>
    %rkB = tk.broadcast %rk2 : tensor<1x64xi32, #bA> -> tensor<64x64xi32, #bA>
    %off = arith.addi %rowOffB, %rkB : tensor<64x64xi32, #bA>
    %pa = tk.splat %a : !tk.ptr<f16> -> tensor<64x64x!tk.ptr<f16>, #bA>
    %aPtrs = tk.addptr %pa, %off : tensor<64x64x!tk.ptr<f16>, #bA>, tensor<64x64xi32, #bA>
    %pb = tk.splat %b : !tk.ptr<f16> -> tensor<64x64x!tk.ptr<f16>, #bA>
    %bPtrs = tk.addptr %pb, %off : tensor<64x64x!tk.ptr<f16>, #bA>, tensor<64x64xi32, #bA>
    %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0, %pA = %aPtrs, %pB = %bPtrs) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tk.ptr<f16>, #bA>, tensor<64x64x!tk.ptr<f16>, #bA>) : i32 {
      %x = tk.load %pA : tensor<64x64x!tk.ptr<f16>, #bA> -> tensor<64x64xf16, #bA>
      %y = tk.load %pB : tensor<64x64x!tk.ptr<f16>, #bA> -> tensor<64x64xf16, #bA>
      %ma = tkgpu.local_alloc %x : tensor<64x64xf16, #bA> -> !tkgpu.memdesc<64x64xf16, #nv>
      %mb = tkgpu.local_alloc %y : tensor<64x64xf16, #bA> -> !tkgpu.memdesc<64x64xf16, #nv>
      tkgpu.fence_async_shared
      %d = tkgpu.warp_group_dot %ma, %mb, %acc : !tkgpu.memdesc<64x64xf16, #nv> * !tkgpu.memdesc<64x64xf16, #nv> -> tensor<64x64xf32, #mma>
      %nA = tk.addptr %pA, %step : tensor<64x64x!tk.ptr<f16>, #bA>, tensor<64x64xi32, #bA>
      %nB = tk.addptr %pB, %step : tensor<64x64x!tk.ptr<f16>, #bA>, tensor<64x64xi32, #bA>
      scf.yield %d, %nA, %nB : tensor<64x64xf32, #mma>, tensor<64x64x!tk.ptr<f16>, #bA>, tensor<64x64x!tk.ptr<f16>, #bA>
    }
    return %r#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// A dot whose result is used inside the loop (here by a store of the
// running sum) must be complete at the end of the iteration: wait 0, the
// fetch runs num_stages ahead, into the slot just read.
// CHECK-LABEL: func.func @used_in_loop(
// CHECK: tkgpu.async_commit_group
// CHECK: tkgpu.async_commit_group
// CHECK-NEXT: tkgpu.async_wait 1
// CHECK: tkgpu.async_commit_group
// CHECK: scf.for
// CHECK: tkgpu.warp_group_dot {{.*}} {isAsync}
// CHECK-NEXT: tkgpu.warp_group_dot_wait %{{.*}} {pendings = 0 : i32}
// CHECK: "test.use"
// CHECK-NOT: tkgpu.warp_group_dot_wait
// CHECK: return
#bA = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nv = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
  func.func @used_in_loop(%a: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %step = arith.constant dense<64> : tensor<64x64xi32, #bA>
    %rm = tk.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 1, parent = #bA}>>
    %rm2 = tk.expand_dims %rm {axis = 1 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 1, parent = #bA}>> -> tensor<64x1xi32, #bA>
    %c64 = arith.constant dense<64> : tensor<64x1xi32, #bA>
    %rowOff = arith.muli %rm2, %c64 : tensor<64x1xi32, #bA>
    %rk = tk.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 0, parent = #bA}>>
    %rk2 = tk.expand_dims %rk {axis = 0 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 0, parent = #bA}>> -> tensor<1x64xi32, #bA>
    %rowOffB = tk.broadcast %rowOff : tensor<64x1xi32, #bA> -> tensor<64x64xi32, #bA>
    %rkB = tk.broadcast %rk2 : tensor<1x64xi32, #bA> -> tensor<64x64xi32, #bA>
    %off = arith.addi %rowOffB, %rkB : tensor<64x64xi32, #bA>
    %pa = tk.splat %a : !tk.ptr<f16> -> tensor<64x64x!tk.ptr<f16>, #bA>
    %aPtrs = tk.addptr %pa, %off : tensor<64x64x!tk.ptr<f16>, #bA>, tensor<64x64xi32, #bA>
    %r:2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0, %pA = %aPtrs) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tk.ptr<f16>, #bA>) : i32 {
      %x = tk.load %pA : tensor<64x64x!tk.ptr<f16>, #bA> -> tensor<64x64xf16, #bA>
      %ma = tkgpu.local_alloc %x : tensor<64x64xf16, #bA> -> !tkgpu.memdesc<64x64xf16, #nv>
      tkgpu.fence_async_shared
      %d = tkgpu.warp_group_dot %ma, %ma, %acc : !tkgpu.memdesc<64x64xf16, #nv> * !tkgpu.memdesc<64x64xf16, #nv> -> tensor<64x64xf32, #mma>
      "test.use"(%d) : (tensor<64x64xf32, #mma>) -> ()
      %nA = tk.addptr %pA, %step : tensor<64x64x!tk.ptr<f16>, #bA>, tensor<64x64xi32, #bA>
      scf.yield %d, %nA : tensor<64x64xf32, #mma>, tensor<64x64x!tk.ptr<f16>, #bA>
    }
    return %r#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// Attention's form: S is read in the iteration (wait 0 right after it),
// the second dot is only carried, and the next iteration reads its result
// by more than its accumulator operand (acc * S, like acc * alpha). With 3
// stages the carried dot gets no wait in its iteration: the next one waits
// for the carried value right before that reader, with the one dot issued
// before it allowed to stay pending; the fetch runs S - 1 ahead (one
// prologue fetch, wait 0); one wait 0 after the loop. With 2 stages both
// dots wait 0 right after issue.
// CHECK-LABEL: func.func @carried(
// CHECK: tkgpu.async_commit_group
// CHECK-NEXT: tkgpu.async_wait 0
// CHECK: tkgpu.async_commit_group
// CHECK-NOT: tkgpu.async_commit_group
// CHECK: scf.for
// CHECK: %[[S:.*]] = tkgpu.warp_group_dot {{.*}} {isAsync}
// CHECK-NEXT: %[[SW:.*]] = tkgpu.warp_group_dot_wait %[[S]] {pendings = 0 : i32}
// CHECK-NEXT: %[[ACC:.*]] = tkgpu.warp_group_dot_wait %arg{{[0-9]+}} {pendings = 1 : i32}
// CHECK-NEXT: %[[SCALED:.*]] = arith.mulf %[[ACC]], %[[SW]]
// CHECK-NEXT: %[[D:.*]] = tkgpu.warp_group_dot {{.*}}, %[[SCALED]] {isAsync}
// CHECK-NOT: tkgpu.warp_group_dot_wait
// CHECK: tkgpu.async_wait 0
// CHECK-NOT: tkgpu.warp_group_dot_wait
// CHECK: scf.yield %[[D]],
// CHECK: tkgpu.warp_group_dot_wait %{{.*}}#0 {pendings = 0 : i32}
// CHECK: return
// S2-LABEL: func.func @carried(
// S2: scf.for
// S2: tkgpu.warp_group_dot {{.*}} {isAsync}
// S2-NEXT: tkgpu.warp_group_dot_wait %{{.*}} {pendings = 0 : i32}
// S2-NEXT: arith.mulf
// S2-NEXT: tkgpu.warp_group_dot {{.*}} {isAsync}
// S2-NEXT: tkgpu.warp_group_dot_wait %{{.*}} {pendings = 0 : i32}
#bA = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nv = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
  func.func @carried(%a: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %step = arith.constant dense<64> : tensor<64x64xi32, #bA>
    %rm = tk.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 1, parent = #bA}>>
    %rm2 = tk.expand_dims %rm {axis = 1 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 1, parent = #bA}>> -> tensor<64x1xi32, #bA>
    %c64 = arith.constant dense<64> : tensor<64x1xi32, #bA>
    %rowOff = arith.muli %rm2, %c64 : tensor<64x1xi32, #bA>
    %rk = tk.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 0, parent = #bA}>>
    %rk2 = tk.expand_dims %rk {axis = 0 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 0, parent = #bA}>> -> tensor<1x64xi32, #bA>
    %rowOffB = tk.broadcast %rowOff : tensor<64x1xi32, #bA> -> tensor<64x64xi32, #bA>
    %rkB = tk.broadcast %rk2 : tensor<1x64xi32, #bA> -> tensor<64x64xi32, #bA>
    %off = arith.addi %rowOffB, %rkB : tensor<64x64xi32, #bA>
    %pa = tk.splat %a : !tk.ptr<f16> -> tensor<64x64x!tk.ptr<f16>, #bA>
    %aPtrs = tk.addptr %pa, %off : tensor<64x64x!tk.ptr<f16>, #bA>, tensor<64x64xi32, #bA>
    %r:2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0, %pA = %aPtrs) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tk.ptr<f16>, #bA>) : i32 {
      %x = tk.load %pA : tensor<64x64x!tk.ptr<f16>, #bA> -> tensor<64x64xf16, #bA>
      %ma = tkgpu.local_alloc %x : tensor<64x64xf16, #bA> -> !tkgpu.memdesc<64x64xf16, #nv>
      tkgpu.fence_async_shared
      %s = tkgpu.warp_group_dot %ma, %ma, %acc0 : !tkgpu.memdesc<64x64xf16, #nv> * !tkgpu.memdesc<64x64xf16, #nv> -> tensor<64x64xf32, #mma>
      %scaled = arith.mulf %acc, %s : tensor<64x64xf32, #mma>
      %d = tkgpu.warp_group_dot %ma, %ma, %scaled : !tkgpu.memdesc<64x64xf16, #nv> * !tkgpu.memdesc<64x64xf16, #nv> -> tensor<64x64xf32, #mma>
      %nA = tk.addptr %pA, %step : tensor<64x64x!tk.ptr<f16>, #bA>, tensor<64x64xi32, #bA>
      scf.yield %d, %nA : tensor<64x64xf32, #mma>, tensor<64x64x!tk.ptr<f16>, #bA>
    }
    return %r#0 : tensor<64x64xf32, #mma>
  }
}
