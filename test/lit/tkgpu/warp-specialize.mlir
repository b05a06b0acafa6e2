// RUN: tk-opt %s -split-input-file -tkgpu-warp-specialize=num-stages=3 -verify-diagnostics \
// RUN:   -canonicalize -cse | FileCheck %s
// RUN: tk-opt %s -split-input-file -tkgpu-warp-specialize=num-stages=3 -verify-diagnostics \
// RUN:   -canonicalize -cse -tkgpu-allocate-shared-memory -tkgpu-membar | FileCheck %s --check-prefix=MEMBAR
// tkgpu-warp-specialize: a TMA loop (tkgpu-lower-tma's form, from
// examples/matmul_desc.tk at 64x64x32 on 4 warps) split into a producer
// warp group that fills 3 slots and the 4 compute warps that wait, multiply
// and free them; and the loops it leaves alone, with their warnings.

#bar = #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#a = #tkgpu.nvmma_shared<{swizzle = 64, elementBitWidth = 16, order = [1, 0]}>
#b = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
#mma = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
// The launch adds the producer warp group.
// CHECK: module attributes {{{.*}}tkgpu.total_num_warps = 8 : i32
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.target = "sm_90a", tkgpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: func.func @matmul
  // CHECK-SAME: %[[K:arg3]]: i32, %[[DA:arg4]]: !tkgpu.tensor_map, %[[DB:arg5]]: !tkgpu.tensor_map
  // What the producer needs stays before the op: the tile row.
  // CHECK: %[[PID:.*]] = tk.program_id 0
  // CHECK: %[[A:.*]] = tkgpu.local_alloc !tkgpu.memdesc<3x64x32xf16
  // CHECK: %[[B:.*]] = tkgpu.local_alloc !tkgpu.memdesc<3x32x64xf16
  // CHECK: %[[FULL:.*]] = tkgpu.local_alloc !tkgpu.memdesc<3x1xi64
  // CHECK-COUNT-3: tkgpu.init_barrier %{{.*}}, 1 :
  // CHECK: %[[EMPTY:.*]] = tkgpu.local_alloc !tkgpu.memdesc<3x1xi64
  // CHECK-COUNT-3: tkgpu.init_barrier %{{.*}}, 4 :
  // CHECK-NEXT: tkgpu.warp_specialize producer(registers = 24) {
  // CHECK-NEXT: scf.for %[[I:.*]] = %{{.*}} to %[[K]] step %{{.*}} iter_args(%[[PSLOT:.*]] = %c0_i32, %[[PPHASE:.*]] = %c0_i32) -> (i32, i32)
  // CHECK-NEXT: %[[PREV:.*]] = arith.xori %[[PPHASE]], %c1_i32
  // CHECK-NEXT: %[[E:.*]] = tkgpu.memdesc_index %[[EMPTY]][%[[PSLOT]]]
  // CHECK-NEXT: tkgpu.wait_barrier %[[E]], %[[PREV]]
  // CHECK: %[[F:.*]] = tkgpu.memdesc_index %[[FULL]][%[[PSLOT]]]
  // CHECK-NEXT: tkgpu.barrier_expect %[[F]], 8192, %true
  // CHECK-NEXT: %[[SA:.*]] = tkgpu.memdesc_index %[[A]][%[[PSLOT]]]
  // CHECK-NEXT: tkgpu.async_tma_copy_global_to_local %[[DA]][%{{.*}}, %[[I]]] %[[SA]], %[[F]], %true
  // CHECK-NEXT: %[[SB:.*]] = tkgpu.memdesc_index %[[B]][%[[PSLOT]]]
  // CHECK-NEXT: tkgpu.async_tma_copy_global_to_local %[[DB]][%[[I]], %c0_i32] %[[SB]], %[[F]], %true
  // CHECK: scf.yield
  // CHECK-NOT: tkgpu.
  // CHECK: tkgpu.warp_yield
  // CHECK-NEXT: } consumer(registers = 256) {
  // CHECK-NEXT: %[[LOOP:.*]]:3 = scf.for %[[J:.*]] = %c0_i32 to %[[K]] step %c32_i32 iter_args(%[[ACC:.*]] = %cst, %[[SLOT:.*]] = %c0_i32, %[[PHASE:.*]] = %c0_i32)
  // CHECK-NEXT: %[[F2:.*]] = tkgpu.memdesc_index %[[FULL]][%[[SLOT]]]
  // CHECK-NEXT: tkgpu.wait_barrier %[[F2]], %[[PHASE]]
  // CHECK-NEXT: %[[TA:.*]] = tkgpu.memdesc_index %[[A]][%[[SLOT]]]
  // CHECK-NEXT: %[[TB:.*]] = tkgpu.memdesc_index %[[B]][%[[SLOT]]]
  // CHECK-NEXT: %[[D:.*]] = tkgpu.warp_group_dot %[[TA]], %[[TB]], %[[ACC]] {isAsync}
  // CHECK-NEXT: %[[W:.*]] = tkgpu.warp_group_dot_wait %[[D]] {pendings = 1 : i32}
  // The previous iteration's slot, from the second iteration on.
  // CHECK-NEXT: %[[FIRST:.*]] = arith.cmpi eq, %[[SLOT]], %c0_i32
  // CHECK-NEXT: %[[BEFORE:.*]] = arith.subi %[[SLOT]], %c1_i32
  // CHECK-NEXT: %[[REL:.*]] = arith.select %[[FIRST]], %c2_i32, %[[BEFORE]]
  // CHECK-NEXT: %[[LATER:.*]] = arith.cmpi ne, %[[J]], %c0_i32
  // CHECK-NEXT: %[[E2:.*]] = tkgpu.memdesc_index %[[EMPTY]][%[[REL]]]
  // CHECK-NEXT: tkgpu.arrive_barrier %[[E2]], %[[LATER]]
  // CHECK: arith.cmpi eq, %{{.*}}, %c3_i32
  // CHECK: scf.yield %[[W]],
  // The epilogue moved in, with what it needs.
  // CHECK: %[[DONE:.*]] = tkgpu.warp_group_dot_wait %[[LOOP]]#0 {pendings = 0 : i32}
  // CHECK-NEXT: arith.muli %[[PID]], %c64_i32
  // CHECK-NEXT: arith.truncf %[[DONE]]
  // CHECK: tkgpu.async_tma_copy_local_to_global
  // CHECK-NEXT: tkgpu.async_tma_store_wait
  // CHECK-NEXT: tkgpu.warp_yield
  // CHECK-NEXT: }
  // CHECK-NEXT: return
  // No software pipelining and no CTA barrier in either loop.
  // MEMBAR-LABEL: func.func @matmul
  // MEMBAR-COUNT-6: tkgpu.init_barrier
  // MEMBAR-NEXT: tkgpu.barrier{{$}}
  // MEMBAR-NEXT: tkgpu.warp_specialize
  // MEMBAR-NOT: tkgpu.barrier{{$}}
  // MEMBAR: tkgpu.warp_group_dot_wait %{{.*}} {pendings = 0 : i32}
  // The epilogue's buffer reuses the slots' bytes: it waits for both warp
  // groups' reads; then the fence and barrier of the TMA store.
  // MEMBAR: tkgpu.barrier{{$}}
  // MEMBAR-NEXT: tkgpu.local_alloc %{{.*}} -> {tkgpu.offset = 0 : i64}
  // MEMBAR-NEXT: tkgpu.fence_async_shared
  // MEMBAR-NEXT: tkgpu.barrier{{$}}
  // MEMBAR-NEXT: tkgpu.async_tma_copy_local_to_global
  // MEMBAR: tkgpu.warp_yield
  func.func @matmul(%a_ptr: !tk.ptr<f16>, %b_ptr: !tk.ptr<f16>, %c_ptr: !tk.ptr<f16>, %K: i32,
                    %da: !tkgpu.tensor_map, %db: !tkgpu.tensor_map, %dc: !tkgpu.tensor_map) attributes {tk.kernel} {
    %true = arith.constant true
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %c32_i32 = arith.constant 32 : i32
    %c0_i32 = arith.constant 0 : i32
    %c64_i32 = arith.constant 64 : i32
    %pid = tk.program_id 0 : i32
    %acc = scf.for %k = %c0_i32 to %K step %c32_i32 iter_args(%arg = %cst) -> (tensor<64x64xf32, #mma>) : i32 {
      %row = arith.muli %pid, %c64_i32 : i32
      %b0 = tkgpu.local_alloc !tkgpu.memdesc<1xi64, #bar>
      tkgpu.init_barrier %b0, 1 : !tkgpu.memdesc<1xi64, #bar>
      %ta = tkgpu.local_alloc !tkgpu.memdesc<64x32xf16, #a>
      tkgpu.barrier_expect %b0, 4096, %true : !tkgpu.memdesc<1xi64, #bar>
      tkgpu.async_tma_copy_global_to_local %da[%row, %k] %ta, %b0, %true : !tkgpu.tensor_map, !tkgpu.memdesc<64x32xf16, #a>, !tkgpu.memdesc<1xi64, #bar>
      tkgpu.wait_barrier %b0, %c0_i32 : !tkgpu.memdesc<1xi64, #bar>
      tkgpu.inval_barrier %b0 : !tkgpu.memdesc<1xi64, #bar>
      %b1 = tkgpu.local_alloc !tkgpu.memdesc<1xi64, #bar>
      tkgpu.init_barrier %b1, 1 : !tkgpu.memdesc<1xi64, #bar>
      %tb = tkgpu.local_alloc !tkgpu.memdesc<32x64xf16, #b>
      tkgpu.barrier_expect %b1, 4096, %true : !tkgpu.memdesc<1xi64, #bar>
      tkgpu.async_tma_copy_global_to_local %db[%k, %c0_i32] %tb, %b1, %true : !tkgpu.tensor_map, !tkgpu.memdesc<32x64xf16, #b>, !tkgpu.memdesc<1xi64, #bar>
      tkgpu.wait_barrier %b1, %c0_i32 : !tkgpu.memdesc<1xi64, #bar>
      tkgpu.inval_barrier %b1 : !tkgpu.memdesc<1xi64, #bar>
      tkgpu.fence_async_shared
      %d = tkgpu.warp_group_dot %ta, %tb, %arg : !tkgpu.memdesc<64x32xf16, #a> * !tkgpu.memdesc<32x64xf16, #b> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    } {tk.warp_specialize}
    %row = arith.muli %pid, %c64_i32 : i32
    %h = arith.truncf %acc : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
    %out = tkgpu.local_alloc %h : tensor<64x64xf16, #mma> -> !tkgpu.memdesc<64x64xf16, #b>
    tkgpu.async_tma_copy_local_to_global %dc[%row, %c0_i32] %out : !tkgpu.tensor_map, !tkgpu.memdesc<64x64xf16, #b>
    tkgpu.async_tma_store_wait {pendings = 0 : i32}
    return
  }
}

// -----

// A loop under an scf.if stays as it is (the partitions start once per
// program, in its body or its tile loop).
#bar = #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#a = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
#mma = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.target = "sm_90a", tkgpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: func.func @nested
  // CHECK-NOT: tkgpu.warp_specialize
  // CHECK-NOT: tk.warp_specialize
  // CHECK: return
  func.func @nested(%K: i32, %n: i32, %c: i1, %da: !tkgpu.tensor_map) attributes {tk.kernel} {
    %true = arith.constant true
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %c1 = arith.constant 1 : i32
    %c32_i32 = arith.constant 32 : i32
    %c0_i32 = arith.constant 0 : i32
    scf.if %c {
      // expected-warning @+1 {{warp_specialize=True ignored: the loop must be in the kernel's body, or in a loop there (a persistent kernel's tile loop)}}
      %acc = scf.for %k = %c0_i32 to %K step %c32_i32 iter_args(%arg = %cst) -> (tensor<64x64xf32, #mma>) : i32 {
        %b0 = tkgpu.local_alloc !tkgpu.memdesc<1xi64, #bar>
        tkgpu.init_barrier %b0, 1 : !tkgpu.memdesc<1xi64, #bar>
        %ta = tkgpu.local_alloc !tkgpu.memdesc<64x64xf16, #a>
        tkgpu.barrier_expect %b0, 8192, %true : !tkgpu.memdesc<1xi64, #bar>
        tkgpu.async_tma_copy_global_to_local %da[%n, %k] %ta, %b0, %true : !tkgpu.tensor_map, !tkgpu.memdesc<64x64xf16, #a>, !tkgpu.memdesc<1xi64, #bar>
        tkgpu.wait_barrier %b0, %c0_i32 : !tkgpu.memdesc<1xi64, #bar>
        tkgpu.inval_barrier %b0 : !tkgpu.memdesc<1xi64, #bar>
        %d = tkgpu.warp_group_dot %ta, %ta, %arg : !tkgpu.memdesc<64x64xf16, #a> * !tkgpu.memdesc<64x64xf16, #a> -> tensor<64x64xf32, #mma>
        scf.yield %d : tensor<64x64xf32, #mma>
      } {tk.warp_specialize}
    }
    return
  }
}

// -----

// A bound the producer would have to load from memory.
#bar = #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#a = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
#mma = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.target = "sm_90a", tkgpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: func.func @loaded_bound
  // CHECK-NOT: tkgpu.warp_specialize
  func.func @loaded_bound(%kp: !tk.ptr<i32>, %da: !tkgpu.tensor_map) attributes {tk.kernel} {
    %true = arith.constant true
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %c32_i32 = arith.constant 32 : i32
    %c0_i32 = arith.constant 0 : i32
    %K = tk.load %kp : !tk.ptr<i32> -> i32
    // expected-warning @+1 {{warp_specialize=True ignored: the TMA coordinates, bounds or descriptors depend on 'tk.load', which touches memory}}
    %acc = scf.for %k = %c0_i32 to %K step %c32_i32 iter_args(%arg = %cst) -> (tensor<64x64xf32, #mma>) : i32 {
      %b0 = tkgpu.local_alloc !tkgpu.memdesc<1xi64, #bar>
      tkgpu.init_barrier %b0, 1 : !tkgpu.memdesc<1xi64, #bar>
      %ta = tkgpu.local_alloc !tkgpu.memdesc<64x64xf16, #a>
      tkgpu.barrier_expect %b0, 8192, %true : !tkgpu.memdesc<1xi64, #bar>
      tkgpu.async_tma_copy_global_to_local %da[%c0_i32, %k] %ta, %b0, %true : !tkgpu.tensor_map, !tkgpu.memdesc<64x64xf16, #a>, !tkgpu.memdesc<1xi64, #bar>
      tkgpu.wait_barrier %b0, %c0_i32 : !tkgpu.memdesc<1xi64, #bar>
      tkgpu.inval_barrier %b0 : !tkgpu.memdesc<1xi64, #bar>
      %d = tkgpu.warp_group_dot %ta, %ta, %arg : !tkgpu.memdesc<64x64xf16, #a> * !tkgpu.memdesc<64x64xf16, #a> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    } {tk.warp_specialize}
    return
  }
}

// -----

// Loads that are not TMA loads feeding dots.
#blocked = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.target = "sm_90a", tkgpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: func.func @pointer_loads
  // CHECK-NOT: tkgpu.warp_specialize
  func.func @pointer_loads(%p: !tk.ptr<f32>, %n: i32) attributes {tk.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant 0.0 : f32
    // expected-warning @+1 {{warp_specialize=True ignored: its loads must be tensor-descriptor (TMA) loads that only feed tensor-core dots}}
    %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) : i32 {
      %q = tk.addptr %p, %i : !tk.ptr<f32>, i32
      %v = tk.load %q : !tk.ptr<f32> -> f32
      %t = arith.addf %acc, %v : f32
      scf.yield %t : f32
    } {tk.warp_specialize}
    tk.store %p, %s : !tk.ptr<f32>, f32
    return
  }
}

// -----

// A persistent kernel: the tile loop around the marked loop. Both
// partitions walk the tiles; the producer recomputes the tile row, the slot
// and phase run on across tiles, and the consumers free each tile's last
// slot after its last dot (when the tile had any K block), before the
// epilogue, so that the producer fills the next tile meanwhile.
#bar = #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#a = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
#mma = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.target = "sm_90a", tkgpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: func.func @persistent
  // CHECK-SAME: %[[K:arg0]]: i32, %[[TILES:arg1]]: i32,
  // CHECK: %[[PID:.*]] = tk.program_id 0
  // CHECK: tkgpu.warp_specialize producer(registers = 24) {
  // CHECK-NEXT: %[[PW:.*]]:2 = scf.for %[[T:.*]] = %[[PID]] to %[[TILES]] step %c132_i32 iter_args(%[[S0:.*]] = %c0_i32, %[[P0:.*]] = %c0_i32)
  // CHECK-NEXT: %[[ROW:.*]] = arith.muli %[[T]], %c64_i32
  // CHECK-NEXT: %[[PF:.*]]:2 = scf.for %[[I:.*]] = %c0_i32 to %[[K]] step %c64_i32 iter_args(%{{.*}} = %[[S0]], %{{.*}} = %[[P0]])
  // CHECK: tkgpu.async_tma_copy_global_to_local %{{.*}}[%[[ROW]], %[[I]]]
  // CHECK: scf.yield %[[PF]]#0, %[[PF]]#1
  // CHECK: } consumer(registers = 256) {
  // CHECK-NEXT: scf.for %[[CT:.*]] = %[[PID]] to %[[TILES]] step %c132_i32 iter_args(%[[CS:.*]] = %c0_i32, %[[CP:.*]] = %c0_i32)
  // CHECK: %[[L:.*]]:3 = scf.for {{.*}} iter_args(%{{.*}} = %cst, %{{.*}} = %[[CS]], %{{.*}} = %[[CP]])
  // CHECK: tkgpu.arrive_barrier
  // CHECK: %[[DONE:.*]] = tkgpu.warp_group_dot_wait %[[L]]#0 {pendings = 0 : i32}
  // CHECK-NEXT: %[[RAN:.*]] = arith.cmpi sgt, %[[K]], %c0_i32
  // CHECK-NEXT: %[[WRAP:.*]] = arith.cmpi eq, %[[L]]#1, %c0_i32
  // CHECK-NEXT: %[[BEFORE:.*]] = arith.subi %[[L]]#1, %c1_i32
  // CHECK-NEXT: %[[LAST:.*]] = arith.select %[[WRAP]], %c2_i32, %[[BEFORE]]
  // CHECK-NEXT: %[[E:.*]] = tkgpu.memdesc_index %{{.*}}[%[[LAST]]]
  // CHECK-NEXT: tkgpu.arrive_barrier %[[E]], %[[RAN]]
  // CHECK-NEXT: arith.muli %[[CT]], %c64_i32
  // CHECK-NEXT: arith.truncf %[[DONE]]
  // CHECK: tkgpu.async_tma_copy_local_to_global
  // CHECK-NEXT: tkgpu.async_tma_store_wait
  // CHECK-NEXT: scf.yield %[[L]]#1, %[[L]]#2
  // MEMBAR-LABEL: func.func @persistent
  // The epilogue's buffer lives beside the slots: the producer fills them
  // while it is written.
  // MEMBAR: tkgpu.local_alloc {tkgpu.offset = 0 : i64} !tkgpu.memdesc<3x64x64xf16
  // MEMBAR: tkgpu.local_alloc %{{.*}} -> {tkgpu.offset = 24576 : i64}
  func.func @persistent(%K: i32, %tiles: i32, %da: !tkgpu.tensor_map, %dc: !tkgpu.tensor_map) attributes {tk.kernel} {
    %true = arith.constant true
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %c64_i32 = arith.constant 64 : i32
    %c132_i32 = arith.constant 132 : i32
    %c0_i32 = arith.constant 0 : i32
    %pid = tk.program_id 0 : i32
    scf.for %t = %pid to %tiles step %c132_i32 : i32 {
      %row = arith.muli %t, %c64_i32 : i32
      %acc = scf.for %k = %c0_i32 to %K step %c64_i32 iter_args(%arg = %cst) -> (tensor<64x64xf32, #mma>) : i32 {
        %b0 = tkgpu.local_alloc !tkgpu.memdesc<1xi64, #bar>
        tkgpu.init_barrier %b0, 1 : !tkgpu.memdesc<1xi64, #bar>
        %ta = tkgpu.local_alloc !tkgpu.memdesc<64x64xf16, #a>
        tkgpu.barrier_expect %b0, 8192, %true : !tkgpu.memdesc<1xi64, #bar>
        tkgpu.async_tma_copy_global_to_local %da[%row, %k] %ta, %b0, %true : !tkgpu.tensor_map, !tkgpu.memdesc<64x64xf16, #a>, !tkgpu.memdesc<1xi64, #bar>
        tkgpu.wait_barrier %b0, %c0_i32 : !tkgpu.memdesc<1xi64, #bar>
        tkgpu.inval_barrier %b0 : !tkgpu.memdesc<1xi64, #bar>
        %d = tkgpu.warp_group_dot %ta, %ta, %arg : !tkgpu.memdesc<64x64xf16, #a> * !tkgpu.memdesc<64x64xf16, #a> -> tensor<64x64xf32, #mma>
        scf.yield %d : tensor<64x64xf32, #mma>
      } {tk.warp_specialize}
      %crow = arith.muli %t, %c64_i32 : i32
      %h = arith.truncf %acc : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
      %out = tkgpu.local_alloc %h : tensor<64x64xf16, #mma> -> !tkgpu.memdesc<64x64xf16, #a>
      tkgpu.async_tma_copy_local_to_global %dc[%crow, %c0_i32] %out : !tkgpu.tensor_map, !tkgpu.memdesc<64x64xf16, #a>
      tkgpu.async_tma_store_wait {pendings = 0 : i32}
    }
    return
  }
}

// -----

// Two marked loops one after the other (attention's unmasked and masked
// key loops): one warp_specialize whose partitions run both over one set
// of slots, slot and phase carried from the first loop into the second.
// The second loop's bound, computed between them, moves before the op;
// the consumers free the first loop's last slot after it (its dot stayed
// in flight), since the second loop's fills wrap round to it.
#bar = #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#a = #tkgpu.nvmma_shared<{swizzle = 64, elementBitWidth = 16, order = [1, 0]}>
#b = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
#mma = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.target = "sm_90a", tkgpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: func.func @two_loops
  // CHECK: %[[HI:.*]] = arith.addi %[[K:arg3]], %c64_i32
  // CHECK: tkgpu.local_alloc !tkgpu.memdesc<3x64x32xf16
  // CHECK: tkgpu.local_alloc !tkgpu.memdesc<3x32x64xf16
  // CHECK-NOT: tkgpu.local_alloc !tkgpu.memdesc<3x64x32xf16
  // CHECK: tkgpu.warp_specialize producer(registers = 24) {
  // CHECK-NEXT: %[[P1:.*]]:2 = scf.for %{{.*}} = %c0_i32 to %[[K]] step %c32_i32 iter_args(%{{.*}} = %c0_i32, %{{.*}} = %c0_i32)
  // CHECK: tkgpu.async_tma_copy_global_to_local
  // CHECK: %[[P2:.*]]:2 = scf.for %{{.*}} = %[[K]] to %[[HI]] step %c32_i32 iter_args(%{{.*}} = %[[P1]]#0, %{{.*}} = %[[P1]]#1)
  // CHECK: tkgpu.async_tma_copy_global_to_local
  // CHECK: tkgpu.warp_yield
  // CHECK-NEXT: } consumer(registers = 256) {
  // CHECK-NEXT: %[[C1:.*]]:3 = scf.for %{{.*}} = %c0_i32 to %[[K]] step %c32_i32 iter_args(%{{.*}} = %cst, %{{.*}} = %c0_i32, %{{.*}} = %c0_i32)
  // CHECK: tkgpu.warp_group_dot_wait %{{.*}} {pendings = 1 : i32}
  // CHECK: %[[R1:.*]] = tkgpu.warp_group_dot_wait %[[C1]]#0 {pendings = 0 : i32}
  // The first loop's last slot, when it ran.
  // CHECK-NEXT: %[[RAN:.*]] = arith.cmpi sgt, %[[K]], %c0_i32
  // CHECK-NEXT: %[[ISFIRST:.*]] = arith.cmpi eq, %[[C1]]#1, %c0_i32
  // CHECK-NEXT: %[[BEFORE:.*]] = arith.subi %[[C1]]#1, %c1_i32
  // CHECK-NEXT: %[[LAST:.*]] = arith.select %[[ISFIRST]], %c2_i32, %[[BEFORE]]
  // CHECK-NEXT: %[[E:.*]] = tkgpu.memdesc_index %{{.*}}[%[[LAST]]]
  // CHECK-NEXT: tkgpu.arrive_barrier %[[E]], %[[RAN]]
  // CHECK-NEXT: %[[C2:.*]]:3 = scf.for %{{.*}} = %[[K]] to %[[HI]] step %c32_i32 iter_args(%{{.*}} = %[[R1]], %{{.*}} = %[[C1]]#1, %{{.*}} = %[[C1]]#2)
  // CHECK: tkgpu.warp_group_dot_wait %[[C2]]#0 {pendings = 0 : i32}
  // The last loop's last slot is not freed: no fill waits for it.
  // CHECK-NOT: tkgpu.arrive_barrier
  // CHECK: tkgpu.warp_yield
  // MEMBAR-LABEL: func.func @two_loops
  // MEMBAR: tkgpu.warp_specialize
  // MEMBAR-NOT: tkgpu.barrier{{$}}
  // MEMBAR: tkgpu.warp_yield
  func.func @two_loops(%a_ptr: !tk.ptr<f16>, %b_ptr: !tk.ptr<f16>, %c_ptr: !tk.ptr<f16>, %K: i32,
                       %da: !tkgpu.tensor_map, %db: !tkgpu.tensor_map, %dc: !tkgpu.tensor_map) attributes {tk.kernel} {
    %true = arith.constant true
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %c32_i32 = arith.constant 32 : i32
    %c0_i32 = arith.constant 0 : i32
    %c64_i32 = arith.constant 64 : i32
    %acc = scf.for %k = %c0_i32 to %K step %c32_i32 iter_args(%arg = %cst) -> (tensor<64x64xf32, #mma>) : i32 {
      %b0 = tkgpu.local_alloc !tkgpu.memdesc<1xi64, #bar>
      tkgpu.init_barrier %b0, 1 : !tkgpu.memdesc<1xi64, #bar>
      %ta = tkgpu.local_alloc !tkgpu.memdesc<64x32xf16, #a>
      tkgpu.barrier_expect %b0, 4096, %true : !tkgpu.memdesc<1xi64, #bar>
      tkgpu.async_tma_copy_global_to_local %da[%c0_i32, %k] %ta, %b0, %true : !tkgpu.tensor_map, !tkgpu.memdesc<64x32xf16, #a>, !tkgpu.memdesc<1xi64, #bar>
      tkgpu.wait_barrier %b0, %c0_i32 : !tkgpu.memdesc<1xi64, #bar>
      tkgpu.inval_barrier %b0 : !tkgpu.memdesc<1xi64, #bar>
      %b1 = tkgpu.local_alloc !tkgpu.memdesc<1xi64, #bar>
      tkgpu.init_barrier %b1, 1 : !tkgpu.memdesc<1xi64, #bar>
      %tb = tkgpu.local_alloc !tkgpu.memdesc<32x64xf16, #b>
      tkgpu.barrier_expect %b1, 4096, %true : !tkgpu.memdesc<1xi64, #bar>
      tkgpu.async_tma_copy_global_to_local %db[%k, %c0_i32] %tb, %b1, %true : !tkgpu.tensor_map, !tkgpu.memdesc<32x64xf16, #b>, !tkgpu.memdesc<1xi64, #bar>
      tkgpu.wait_barrier %b1, %c0_i32 : !tkgpu.memdesc<1xi64, #bar>
      tkgpu.inval_barrier %b1 : !tkgpu.memdesc<1xi64, #bar>
      %d = tkgpu.warp_group_dot %ta, %tb, %arg : !tkgpu.memdesc<64x32xf16, #a> * !tkgpu.memdesc<32x64xf16, #b> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    } {tk.warp_specialize}
    %hi = arith.addi %K, %c64_i32 : i32
    %acc2 = scf.for %k = %K to %hi step %c32_i32 iter_args(%arg = %acc) -> (tensor<64x64xf32, #mma>) : i32 {
      %b0 = tkgpu.local_alloc !tkgpu.memdesc<1xi64, #bar>
      tkgpu.init_barrier %b0, 1 : !tkgpu.memdesc<1xi64, #bar>
      %ta = tkgpu.local_alloc !tkgpu.memdesc<64x32xf16, #a>
      tkgpu.barrier_expect %b0, 4096, %true : !tkgpu.memdesc<1xi64, #bar>
      tkgpu.async_tma_copy_global_to_local %da[%c0_i32, %k] %ta, %b0, %true : !tkgpu.tensor_map, !tkgpu.memdesc<64x32xf16, #a>, !tkgpu.memdesc<1xi64, #bar>
      tkgpu.wait_barrier %b0, %c0_i32 : !tkgpu.memdesc<1xi64, #bar>
      tkgpu.inval_barrier %b0 : !tkgpu.memdesc<1xi64, #bar>
      %b1 = tkgpu.local_alloc !tkgpu.memdesc<1xi64, #bar>
      tkgpu.init_barrier %b1, 1 : !tkgpu.memdesc<1xi64, #bar>
      %tb = tkgpu.local_alloc !tkgpu.memdesc<32x64xf16, #b>
      tkgpu.barrier_expect %b1, 4096, %true : !tkgpu.memdesc<1xi64, #bar>
      tkgpu.async_tma_copy_global_to_local %db[%k, %c0_i32] %tb, %b1, %true : !tkgpu.tensor_map, !tkgpu.memdesc<32x64xf16, #b>, !tkgpu.memdesc<1xi64, #bar>
      tkgpu.wait_barrier %b1, %c0_i32 : !tkgpu.memdesc<1xi64, #bar>
      tkgpu.inval_barrier %b1 : !tkgpu.memdesc<1xi64, #bar>
      %d = tkgpu.warp_group_dot %ta, %tb, %arg : !tkgpu.memdesc<64x32xf16, #a> * !tkgpu.memdesc<32x64xf16, #b> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    } {tk.warp_specialize}
    %h = arith.truncf %acc2 : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
    %o = tkgpu.local_alloc %h : tensor<64x64xf16, #mma> -> !tkgpu.memdesc<64x64xf16, #b>
    tkgpu.async_tma_copy_local_to_global %dc[%c0_i32, %c0_i32] %o : !tkgpu.tensor_map, !tkgpu.memdesc<64x64xf16, #b>
    tkgpu.async_tma_store_wait {pendings = 0 : i32}
    return
  }
}

// -----

// A second marked loop whose tiles differ from the first's (B with another
// swizzle here) cannot share its slots: it is left to tkgpu-pipeline, and
// the first loop is specialized alone.
// CHECK-LABEL: func.func @unlike_tiles
// CHECK: tkgpu.warp_specialize
// CHECK: } consumer
// CHECK: scf.for
// CHECK: scf.for
// CHECK-NOT: tkgpu.warp_specialize
#bar = #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#a = #tkgpu.nvmma_shared<{swizzle = 64, elementBitWidth = 16, order = [1, 0]}>
#b = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
#mma = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.target = "sm_90a", tkgpu.threads_per_warp = 32 : i32} {
  func.func @unlike_tiles(%a_ptr: !tk.ptr<f16>, %b_ptr: !tk.ptr<f16>, %c_ptr: !tk.ptr<f16>, %K: i32,
                       %da: !tkgpu.tensor_map, %db: !tkgpu.tensor_map, %dc: !tkgpu.tensor_map) attributes {tk.kernel} {
    %true = arith.constant true
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %c32_i32 = arith.constant 32 : i32
    %c0_i32 = arith.constant 0 : i32
    %c64_i32 = arith.constant 64 : i32
    %acc = scf.for %k = %c0_i32 to %K step %c32_i32 iter_args(%arg = %cst) -> (tensor<64x64xf32, #mma>) : i32 {
      %b0 = tkgpu.local_alloc !tkgpu.memdesc<1xi64, #bar>
      tkgpu.init_barrier %b0, 1 : !tkgpu.memdesc<1xi64, #bar>
      %ta = tkgpu.local_alloc !tkgpu.memdesc<64x32xf16, #a>
      tkgpu.barrier_expect %b0, 4096, %true : !tkgpu.memdesc<1xi64, #bar>
      tkgpu.async_tma_copy_global_to_local %da[%c0_i32, %k] %ta, %b0, %true : !tkgpu.tensor_map, !tkgpu.memdesc<64x32xf16, #a>, !tkgpu.memdesc<1xi64, #bar>
      tkgpu.wait_barrier %b0, %c0_i32 : !tkgpu.memdesc<1xi64, #bar>
      tkgpu.inval_barrier %b0 : !tkgpu.memdesc<1xi64, #bar>
      %b1 = tkgpu.local_alloc !tkgpu.memdesc<1xi64, #bar>
      tkgpu.init_barrier %b1, 1 : !tkgpu.memdesc<1xi64, #bar>
      %tb = tkgpu.local_alloc !tkgpu.memdesc<32x64xf16, #b>
      tkgpu.barrier_expect %b1, 4096, %true : !tkgpu.memdesc<1xi64, #bar>
      tkgpu.async_tma_copy_global_to_local %db[%k, %c0_i32] %tb, %b1, %true : !tkgpu.tensor_map, !tkgpu.memdesc<32x64xf16, #b>, !tkgpu.memdesc<1xi64, #bar>
      tkgpu.wait_barrier %b1, %c0_i32 : !tkgpu.memdesc<1xi64, #bar>
      tkgpu.inval_barrier %b1 : !tkgpu.memdesc<1xi64, #bar>
      %d = tkgpu.warp_group_dot %ta, %tb, %arg : !tkgpu.memdesc<64x32xf16, #a> * !tkgpu.memdesc<32x64xf16, #b> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    } {tk.warp_specialize}
    %hi = arith.addi %K, %c64_i32 : i32
    // expected-warning @+1 {{warp_specialize=True ignored: its TMA tiles differ from those of the kernel's first warp-specialized loop, whose slots it would share}}
    %acc2 = scf.for %k = %K to %hi step %c32_i32 iter_args(%arg = %acc) -> (tensor<64x64xf32, #mma>) : i32 {
      %b0 = tkgpu.local_alloc !tkgpu.memdesc<1xi64, #bar>
      tkgpu.init_barrier %b0, 1 : !tkgpu.memdesc<1xi64, #bar>
      %ta = tkgpu.local_alloc !tkgpu.memdesc<64x32xf16, #a>
      tkgpu.barrier_expect %b0, 4096, %true : !tkgpu.memdesc<1xi64, #bar>
      tkgpu.async_tma_copy_global_to_local %da[%c0_i32, %k] %ta, %b0, %true : !tkgpu.tensor_map, !tkgpu.memdesc<64x32xf16, #a>, !tkgpu.memdesc<1xi64, #bar>
      tkgpu.wait_barrier %b0, %c0_i32 : !tkgpu.memdesc<1xi64, #bar>
      tkgpu.inval_barrier %b0 : !tkgpu.memdesc<1xi64, #bar>
      %b1 = tkgpu.local_alloc !tkgpu.memdesc<1xi64, #bar>
      tkgpu.init_barrier %b1, 1 : !tkgpu.memdesc<1xi64, #bar>
      %tb = tkgpu.local_alloc !tkgpu.memdesc<32x64xf16, #a>
      tkgpu.barrier_expect %b1, 4096, %true : !tkgpu.memdesc<1xi64, #bar>
      tkgpu.async_tma_copy_global_to_local %db[%k, %c0_i32] %tb, %b1, %true : !tkgpu.tensor_map, !tkgpu.memdesc<32x64xf16, #a>, !tkgpu.memdesc<1xi64, #bar>
      tkgpu.wait_barrier %b1, %c0_i32 : !tkgpu.memdesc<1xi64, #bar>
      tkgpu.inval_barrier %b1 : !tkgpu.memdesc<1xi64, #bar>
      %d = tkgpu.warp_group_dot %ta, %tb, %arg : !tkgpu.memdesc<64x32xf16, #a> * !tkgpu.memdesc<32x64xf16, #a> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    } {tk.warp_specialize}
    %h = arith.truncf %acc2 : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
    %o = tkgpu.local_alloc %h : tensor<64x64xf16, #mma> -> !tkgpu.memdesc<64x64xf16, #b>
    tkgpu.async_tma_copy_local_to_global %dc[%c0_i32, %c0_i32] %o : !tkgpu.tensor_map, !tkgpu.memdesc<64x64xf16, #b>
    tkgpu.async_tma_store_wait {pendings = 0 : i32}
    return
  }
}


// -----

// A carried dot whose accumulator is read before the next dot (attention's
// acc * alpha before P @ V): its wait moves to that reader in the next
// iteration (it leaves no dot pending: none was issued before it), the
// previous iteration's slot is freed right after that wait, and the loop's
// results wait after it.
#bar = #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#a = #tkgpu.nvmma_shared<{swizzle = 64, elementBitWidth = 16, order = [1, 0]}>
#b = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
#mma = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.target = "sm_90a", tkgpu.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: func.func @deferred
  // CHECK: } consumer(registers = 256) {
  // CHECK-NEXT: %[[L:.*]]:3 = scf.for %[[J:.*]] = %c0_i32 to %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[SLOT:.*]] = %c0_i32, %{{.*}} = %c0_i32)
  // CHECK-NEXT: tkgpu.memdesc_index
  // CHECK-NEXT: tkgpu.wait_barrier
  // CHECK-NEXT: tkgpu.memdesc_index
  // CHECK-NEXT: tkgpu.memdesc_index
  // CHECK-NEXT: %[[W:.*]] = tkgpu.warp_group_dot_wait %[[ACC]] {pendings = 0 : i32}
  // CHECK-NEXT: %[[FIRST:.*]] = arith.cmpi eq, %[[SLOT]], %c0_i32
  // CHECK-NEXT: %[[BEFORE:.*]] = arith.subi %[[SLOT]], %c1_i32
  // CHECK-NEXT: %[[REL:.*]] = arith.select %[[FIRST]], %c2_i32, %[[BEFORE]]
  // CHECK-NEXT: %[[LATER:.*]] = arith.cmpi ne, %[[J]], %c0_i32
  // CHECK-NEXT: %[[E:.*]] = tkgpu.memdesc_index %{{.*}}[%[[REL]]]
  // CHECK-NEXT: tkgpu.arrive_barrier %[[E]], %[[LATER]]
  // CHECK-NEXT: %[[S:.*]] = arith.mulf %[[W]], %{{.*}}
  // CHECK-NEXT: %[[D:.*]] = tkgpu.warp_group_dot %{{.*}}, %{{.*}}, %[[S]] {isAsync}
  // CHECK-NOT: tkgpu.warp_group_dot_wait
  // CHECK: scf.yield %[[D]],
  // CHECK: tkgpu.warp_group_dot_wait %[[L]]#0 {pendings = 0 : i32}
  func.func @deferred(%a_ptr: !tk.ptr<f16>, %b_ptr: !tk.ptr<f16>, %c_ptr: !tk.ptr<f16>, %K: i32,
                      %da: !tkgpu.tensor_map, %db: !tkgpu.tensor_map, %dc: !tkgpu.tensor_map) attributes {tk.kernel} {
    %true = arith.constant true
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %half = arith.constant dense<5.000000e-01> : tensor<64x64xf32, #mma>
    %c32_i32 = arith.constant 32 : i32
    %c0_i32 = arith.constant 0 : i32
    %acc = scf.for %k = %c0_i32 to %K step %c32_i32 iter_args(%arg = %cst) -> (tensor<64x64xf32, #mma>) : i32 {
      %b0 = tkgpu.local_alloc !tkgpu.memdesc<1xi64, #bar>
      tkgpu.init_barrier %b0, 1 : !tkgpu.memdesc<1xi64, #bar>
      %ta = tkgpu.local_alloc !tkgpu.memdesc<64x32xf16, #a>
      tkgpu.barrier_expect %b0, 4096, %true : !tkgpu.memdesc<1xi64, #bar>
      tkgpu.async_tma_copy_global_to_local %da[%c0_i32, %k] %ta, %b0, %true : !tkgpu.tensor_map, !tkgpu.memdesc<64x32xf16, #a>, !tkgpu.memdesc<1xi64, #bar>
      tkgpu.wait_barrier %b0, %c0_i32 : !tkgpu.memdesc<1xi64, #bar>
      tkgpu.inval_barrier %b0 : !tkgpu.memdesc<1xi64, #bar>
      %b1 = tkgpu.local_alloc !tkgpu.memdesc<1xi64, #bar>
      tkgpu.init_barrier %b1, 1 : !tkgpu.memdesc<1xi64, #bar>
      %tb = tkgpu.local_alloc !tkgpu.memdesc<32x64xf16, #b>
      tkgpu.barrier_expect %b1, 4096, %true : !tkgpu.memdesc<1xi64, #bar>
      tkgpu.async_tma_copy_global_to_local %db[%k, %c0_i32] %tb, %b1, %true : !tkgpu.tensor_map, !tkgpu.memdesc<32x64xf16, #b>, !tkgpu.memdesc<1xi64, #bar>
      tkgpu.wait_barrier %b1, %c0_i32 : !tkgpu.memdesc<1xi64, #bar>
      tkgpu.inval_barrier %b1 : !tkgpu.memdesc<1xi64, #bar>
      %scaled = arith.mulf %arg, %half : tensor<64x64xf32, #mma>
      %d = tkgpu.warp_group_dot %ta, %tb, %scaled : !tkgpu.memdesc<64x32xf16, #a> * !tkgpu.memdesc<32x64xf16, #b> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    } {tk.warp_specialize}
    %h = arith.truncf %acc : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
    %o = tkgpu.local_alloc %h : tensor<64x64xf16, #mma> -> !tkgpu.memdesc<64x64xf16, #b>
    tkgpu.async_tma_copy_local_to_global %dc[%c0_i32, %c0_i32] %o : !tkgpu.tensor_map, !tkgpu.memdesc<64x64xf16, #b>
    tkgpu.async_tma_store_wait {pendings = 0 : i32}
    return
  }
}
