// RUN: tk-opt %s -split-input-file -tkgpu-pipeline | FileCheck %s
// RUN: tk-opt %s -split-input-file -tkgpu-pipeline -canonicalize -cse -tkgpu-allocate-shared-memory -tkgpu-membar | FileCheck %s --check-prefix=MEMBAR
// tkgpu-pipeline on a flattened persistent loop (tk-flatten-loops, then
// accelerate-matmul's wgmma form): one iteration per (tile, K block); the
// K block and tile come from the induction variable by unsigned div/rem
// by a run-time count (memory-effect free, not speculatable: the fetch
// stage takes them anyway), the dot restarts its accumulator with useC,
// and the epilogue (scf.if at the last K block) reads the dot's result.

// num_stages 3: the fetch runs 2 iterations ahead (one wgmma in flight),
// recomputing tile and K block of t + 2, so it crosses into the next tile
// like any other iteration; the epilogue first waits for all wgmma groups.
// CHECK-LABEL: func.func @flattened
// CHECK: %[[BUFA:.*]] = tkgpu.local_alloc !tkgpu.memdesc<3x64x64xf16
// CHECK: %[[BUFB:.*]] = tkgpu.local_alloc !tkgpu.memdesc<3x64x64xf16
// The prologue: fetches of t = 0 and t = 1.
// CHECK: arith.remui %c0_i32
// CHECK: tkgpu.async_copy_global_to_local
// CHECK: tkgpu.async_copy_global_to_local
// CHECK-NEXT: tkgpu.async_commit_group
// CHECK-NEXT: tkgpu.async_wait 0
// CHECK-NEXT: tkgpu.fence_async_shared
// CHECK: arith.remui
// CHECK: tkgpu.async_copy_global_to_local
// CHECK: tkgpu.async_copy_global_to_local
// CHECK-NEXT: tkgpu.async_commit_group
// CHECK: %[[R:.*]]:3 = scf.for %[[T:.*]] = {{.*}} iter_args(%[[ACC:[^ ]*]] = %{{[^,]*}}, %[[EXT:[^ ]*]] = %c0_i32{{[_0-9]*}}, %[[INS:[^ ]*]] = %c2_i32{{[_0-9]*}})
// CHECK: %[[KB:.*]] = arith.remui %[[T]], %[[NK:[^ ]*]] : i32
// CHECK: %[[D:.*]] = tkgpu.warp_group_dot %{{.*}}, %{{.*}}, %[[ACC]] useC %{{.*}} {isAsync}
// CHECK-NEXT: %[[W:.*]] = tkgpu.warp_group_dot_wait %[[D]] {pendings = 1 : i32}
// CHECK-NEXT: scf.if %{{.*}} {
// CHECK-NEXT: %[[DONE:.*]] = tkgpu.warp_group_dot_wait %[[W]] {pendings = 0 : i32}
// CHECK-NEXT: arith.truncf %[[DONE]]
// CHECK-NEXT: tk.store
// CHECK-NEXT: }
// CHECK-NEXT: tkgpu.async_wait 0
// CHECK-NEXT: tkgpu.fence_async_shared
// The fetch of t + 2: its own K block.
// CHECK: %[[AHEAD:.*]] = arith.addi %[[T]], %{{.*}} : i32
// CHECK-NEXT: arith.divui %[[AHEAD]], %[[NK]]
// CHECK-NEXT: arith.remui %[[AHEAD]], %[[NK]]
// CHECK: tkgpu.memdesc_index %[[BUFA]][%[[INS]]]
// CHECK: tkgpu.async_copy_global_to_local
// CHECK: tkgpu.memdesc_index %[[BUFB]][%[[INS]]]
// CHECK: tkgpu.async_copy_global_to_local
// CHECK-NEXT: tkgpu.async_commit_group
// CHECK: scf.yield %[[W]],
// CHECK-NEXT: }
// CHECK-NEXT: tkgpu.warp_group_dot_wait %[[R]]#0 {pendings = 0 : i32}
// CHECK-NEXT: tkgpu.async_wait 0

// Through allocation and membar: one barrier per iteration before the
// copies, none in the epilogue (no shared memory there) nor before the dot.
// MEMBAR-LABEL: func.func @flattened
// MEMBAR: scf.for
// MEMBAR-NOT: tkgpu.barrier
// MEMBAR: tkgpu.warp_group_dot
// MEMBAR-NOT: tkgpu.barrier
// MEMBAR: tk.store
// MEMBAR-NOT: tkgpu.barrier
// MEMBAR: tkgpu.fence_async_shared
// MEMBAR-NOT: tkgpu.barrier
// MEMBAR: tkgpu.barrier
// MEMBAR-NEXT: tkgpu.async_copy_global_to_local
// MEMBAR-NOT: tkgpu.barrier
// MEMBAR: scf.yield
#bA = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nv = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
  func.func @flattened(%a: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %b: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %c: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %total: i32, %nk: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %true = arith.constant true
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %lastK = arith.subi %nk, %c1 : i32
    %rm = tk.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 1, parent = #bA}>>
    %rm2 = tk.expand_dims %rm {axis = 1 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 1, parent = #bA}>> -> tensor<64x1xi32, #bA>
    %c64t = arith.constant dense<64> : tensor<64x1xi32, #bA>
    %rowOff = arith.muli %rm2, %c64t : tensor<64x1xi32, #bA>
    %rk = tk.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 0, parent = #bA}>>
    %rk2 = tk.expand_dims %rk {axis = 0 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 0, parent = #bA}>> -> tensor<1x64xi32, #bA>
    %rowOffB = tk.broadcast %rowOff : tensor<64x1xi32, #bA> -> tensor<64x64xi32, #bA>
    %rkB = tk.broadcast %rk2 : tensor<1x64xi32, #bA> -> tensor<64x64xi32, #bA>
    %off = arith.addi %rowOffB, %rkB : tensor<64x64xi32, #bA>
    %pa = tk.splat %a : !tk.ptr<f16> -> tensor<64x64x!tk.ptr<f16>, #bA>
    %pb = tk.splat %b : !tk.ptr<f16> -> tensor<64x64x!tk.ptr<f16>, #bA>
    %pc = tk.splat %c : !tk.ptr<f16> -> tensor<64x64x!tk.ptr<f16>, #mma>
    %r = scf.for %t = %c0 to %total step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma>) : i32 {
      %tile = arith.divui %t, %nk : i32
      %kb = arith.remui %t, %nk : i32
      %first = arith.cmpi eq, %kb, %c0 : i32
      %keep = arith.xori %first, %true : i1
      %last = arith.cmpi eq, %kb, %lastK : i32
      %tileOff = arith.muli %tile, %c64 : i32
      %kOff = arith.muli %kb, %c64 : i32
      %base = arith.addi %tileOff, %kOff : i32
      %baseT = tk.splat %base : i32 -> tensor<64x64xi32, #bA>
      %offT = arith.addi %off, %baseT : tensor<64x64xi32, #bA>
      %aPtrs = tk.addptr %pa, %offT : tensor<64x64x!tk.ptr<f16>, #bA>, tensor<64x64xi32, #bA>
      %bPtrs = tk.addptr %pb, %offT : tensor<64x64x!tk.ptr<f16>, #bA>, tensor<64x64xi32, #bA>
      %x = tk.load %aPtrs : tensor<64x64x!tk.ptr<f16>, #bA> -> tensor<64x64xf16, #bA>
      %y = tk.load %bPtrs : tensor<64x64x!tk.ptr<f16>, #bA> -> tensor<64x64xf16, #bA>
      %ma = tkgpu.local_alloc %x : tensor<64x64xf16, #bA> -> !tkgpu.memdesc<64x64xf16, #nv>
      %mb = tkgpu.local_alloc %y : tensor<64x64xf16, #bA> -> !tkgpu.memdesc<64x64xf16, #nv>
      tkgpu.fence_async_shared
      %d = tkgpu.warp_group_dot %ma, %mb, %acc useC %keep : !tkgpu.memdesc<64x64xf16, #nv> * !tkgpu.memdesc<64x64xf16, #nv> -> tensor<64x64xf32, #mma>
      scf.if %last {
        %h = arith.truncf %d : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
        tk.store %pc, %h : tensor<64x64x!tk.ptr<f16>, #mma>, tensor<64x64xf16, #mma>
      }
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    return
  }
}
