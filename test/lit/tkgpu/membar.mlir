// RUN: tk-opt %s -split-input-file -tkgpu-membar | FileCheck %s
// Barriers between conflicting shared-memory accesses, from the allocation
// attributes (written here by hand): %a at 0 and %b at 4096, 4096 bytes
// each.

#b2 = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>

// Read after write of one buffer: a barrier between.
// CHECK-LABEL: func.func @raw
// CHECK: tkgpu.local_store
// CHECK-NEXT: tkgpu.barrier{{$}}
// CHECK-NEXT: tkgpu.local_load
func.func @raw(%x: tensor<64x32xf16, #b2>) -> tensor<64x32xf16, #b2> {
  %a = tkgpu.local_alloc {tkgpu.offset = 0 : i64} !tkgpu.memdesc<64x32xf16, #sh>
  tkgpu.local_store %x, %a : tensor<64x32xf16, #b2> -> !tkgpu.memdesc<64x32xf16, #sh>
  %l = tkgpu.local_load %a : !tkgpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #b2>
  return %l : tensor<64x32xf16, #b2>
}

// Disjoint intervals, two reads, an existing barrier: nothing to add.
// CHECK-LABEL: func.func @no_conflict
// CHECK: tkgpu.local_store
// CHECK-NEXT: tkgpu.local_load
// CHECK-NEXT: tkgpu.local_load
// CHECK-NEXT: tkgpu.barrier{{$}}
// CHECK-NEXT: tkgpu.local_load
// CHECK-NOT: tkgpu.barrier{{$}}
// CHECK: return
func.func @no_conflict(%x: tensor<64x32xf16, #b2>) -> (tensor<64x32xf16, #b2>, tensor<64x32xf16, #b2>, tensor<64x32xf16, #b2>) {
  %a = tkgpu.local_alloc {tkgpu.offset = 0 : i64} !tkgpu.memdesc<64x32xf16, #sh>
  %b = tkgpu.local_alloc %x : tensor<64x32xf16, #b2> -> {tkgpu.offset = 4096 : i64} !tkgpu.memdesc<64x32xf16, #sh>
  tkgpu.barrier
  tkgpu.local_store %x, %a : tensor<64x32xf16, #b2> -> !tkgpu.memdesc<64x32xf16, #sh>
  %l = tkgpu.local_load %b : !tkgpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #b2>
  %m = tkgpu.local_load %b : !tkgpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #b2>
  tkgpu.barrier
  %n = tkgpu.local_load %a : !tkgpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #b2>
  return %l, %m, %n : tensor<64x32xf16, #b2>, tensor<64x32xf16, #b2>, tensor<64x32xf16, #b2>
}

// Write after read (local_alloc with a value writes its buffer).
// CHECK-LABEL: func.func @war
// CHECK: tkgpu.local_alloc
// CHECK-NEXT: tkgpu.barrier{{$}}
// CHECK-NEXT: tkgpu.local_load
// CHECK-NEXT: tkgpu.barrier{{$}}
// CHECK-NEXT: tkgpu.local_store
func.func @war(%x: tensor<64x32xf16, #b2>) -> tensor<64x32xf16, #b2> {
  %a = tkgpu.local_alloc %x : tensor<64x32xf16, #b2> -> {tkgpu.offset = 0 : i64} !tkgpu.memdesc<64x32xf16, #sh>
  %l = tkgpu.local_load %a : !tkgpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #b2>
  tkgpu.local_store %x, %a : tensor<64x32xf16, #b2> -> !tkgpu.memdesc<64x32xf16, #sh>
  return %l : tensor<64x32xf16, #b2>
}

// -----

#row = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #tkgpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>

// Scratch ops read and write their interval: two conversions through the
// same bytes need a barrier (their lowerings no longer put one first); at
// disjoint offsets they do not.
// CHECK-LABEL: func.func @scratch
// CHECK: tkgpu.convert_layout
// CHECK-NEXT: tkgpu.barrier{{$}}
// CHECK-NEXT: tkgpu.convert_layout
// CHECK-NEXT: tkgpu.convert_layout
// CHECK-NEXT: return
func.func @scratch(%x: tensor<32x32xf32, #row>) -> tensor<32x32xf32, #col> {
  %c = tkgpu.convert_layout %x {tkgpu.scratch_offset = 0 : i64} : tensor<32x32xf32, #row> -> tensor<32x32xf32, #col>
  %d = tkgpu.convert_layout %c {tkgpu.scratch_offset = 0 : i64} : tensor<32x32xf32, #col> -> tensor<32x32xf32, #row>
  %e = tkgpu.convert_layout %d {tkgpu.scratch_offset = 8192 : i64} : tensor<32x32xf32, #row> -> tensor<32x32xf32, #col>
  return %e : tensor<32x32xf32, #col>
}

// -----

#b2 = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>

// The store at the top of the body conflicts only with the previous
// iteration's store (the back edge); the load of %b never does.
// CHECK-LABEL: func.func @loop
// CHECK: scf.for
// CHECK-NEXT: tkgpu.barrier{{$}}
// CHECK-NEXT: tkgpu.local_store
// CHECK-NEXT: tkgpu.local_load
// CHECK-NEXT: scf.yield
// CHECK-NOT: tkgpu.barrier{{$}}
// CHECK: return
func.func @loop(%x: tensor<64x32xf16, #b2>, %n: index) -> tensor<64x32xf16, #b2> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tkgpu.local_alloc {tkgpu.offset = 0 : i64} !tkgpu.memdesc<64x32xf16, #sh>
  %b = tkgpu.local_alloc {tkgpu.offset = 4096 : i64} !tkgpu.memdesc<64x32xf16, #sh>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%v = %x) -> (tensor<64x32xf16, #b2>) {
    tkgpu.local_store %v, %a : tensor<64x32xf16, #b2> -> !tkgpu.memdesc<64x32xf16, #sh>
    %l = tkgpu.local_load %b : !tkgpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #b2>
    scf.yield %l : tensor<64x32xf16, #b2>
  }
  return %r : tensor<64x32xf16, #b2>
}

// A buffer written before a loop and only read in it (attention's Q
// tile): the barrier goes before the loop, to run once, not in the body,
// where every iteration would run it.
// CHECK-LABEL: func.func @hoisted
// CHECK: tkgpu.local_store
// CHECK-NEXT: tkgpu.barrier{{$}}
// CHECK-NEXT: scf.for
// CHECK-NOT: tkgpu.barrier{{$}}
// CHECK: return
func.func @hoisted(%x: tensor<64x32xf16, #b2>, %n: index) -> tensor<64x32xf16, #b2> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tkgpu.local_alloc {tkgpu.offset = 0 : i64} !tkgpu.memdesc<64x32xf16, #sh>
  tkgpu.local_store %x, %a : tensor<64x32xf16, #b2> -> !tkgpu.memdesc<64x32xf16, #sh>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%v = %x) -> (tensor<64x32xf16, #b2>) {
    %l = tkgpu.local_load %a : !tkgpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #b2>
    %s = arith.addf %l, %v : tensor<64x32xf16, #b2>
    scf.yield %s : tensor<64x32xf16, #b2>
  }
  return %r : tensor<64x32xf16, #b2>
}

// The body rewrites the buffer it reads, so its barriers are needed in
// every iteration anyway (the back edge): none is added before the loop.
// CHECK-LABEL: func.func @not_hoisted
// CHECK: tkgpu.local_store
// CHECK-NEXT: scf.for
// CHECK-NEXT: tkgpu.barrier{{$}}
// CHECK-NEXT: tkgpu.local_load
// CHECK-NEXT: tkgpu.barrier{{$}}
// CHECK-NEXT: tkgpu.local_store
// CHECK-NEXT: scf.yield
func.func @not_hoisted(%x: tensor<64x32xf16, #b2>, %n: index) -> tensor<64x32xf16, #b2> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tkgpu.local_alloc {tkgpu.offset = 0 : i64} !tkgpu.memdesc<64x32xf16, #sh>
  tkgpu.local_store %x, %a : tensor<64x32xf16, #b2> -> !tkgpu.memdesc<64x32xf16, #sh>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%v = %x) -> (tensor<64x32xf16, #b2>) {
    %l = tkgpu.local_load %a : !tkgpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #b2>
    tkgpu.local_store %l, %a : tensor<64x32xf16, #b2> -> !tkgpu.memdesc<64x32xf16, #sh>
    scf.yield %l : tensor<64x32xf16, #b2>
  }
  return %r : tensor<64x32xf16, #b2>
}

// A dynamic slot of a multi-buffer is the whole multi-buffer; a constant
// one is its slot.
// CHECK-LABEL: func.func @slots
// CHECK: tkgpu.local_store
// CHECK-NEXT: tkgpu.local_load
// CHECK-NEXT: tkgpu.barrier{{$}}
// CHECK-NEXT: tkgpu.local_load
#sh3 = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [2, 1, 0]}>
func.func @slots(%x: tensor<64x32xf16, #b2>, %i: i32) -> (tensor<64x32xf16, #b2>, tensor<64x32xf16, #b2>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %buf = tkgpu.local_alloc {tkgpu.offset = 0 : i64} !tkgpu.memdesc<2x64x32xf16, #sh3>
  %s0 = tkgpu.memdesc_index %buf[%c0] : !tkgpu.memdesc<2x64x32xf16, #sh3> -> !tkgpu.memdesc<64x32xf16, #sh>
  %s1 = tkgpu.memdesc_index %buf[%c1] : !tkgpu.memdesc<2x64x32xf16, #sh3> -> !tkgpu.memdesc<64x32xf16, #sh>
  %si = tkgpu.memdesc_index %buf[%i] : !tkgpu.memdesc<2x64x32xf16, #sh3> -> !tkgpu.memdesc<64x32xf16, #sh>
  tkgpu.local_store %x, %s0 : tensor<64x32xf16, #b2> -> !tkgpu.memdesc<64x32xf16, #sh>
  %l = tkgpu.local_load %s1 : !tkgpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #b2>
  %m = tkgpu.local_load %si : !tkgpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #b2>
  return %l, %m : tensor<64x32xf16, #b2>, tensor<64x32xf16, #b2>
}

// -----

#b2 = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#sh3 = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [2, 1, 0]}>

// The pipelined loop with the next slot read before the copies into the
// current one (tkgpu-prefetch): slot %next = select(%s + 1 == 3, 0, %s + 1)
// differs from %s, so the copy after the read needs no barrier of its
// own: one per iteration, after the wait. A copy into the slot just read
// (%next itself) still gets one.
// CHECK-LABEL: func.func @distinct_slots
// CHECK: scf.for
// CHECK: tkgpu.async_wait 1
// CHECK: tkgpu.barrier{{$}}
// CHECK-NEXT: tkgpu.local_load
// CHECK-NEXT: tkgpu.memdesc_index
// CHECK-NEXT: tkgpu.async_copy_global_to_local
// CHECK-NEXT: tkgpu.async_commit_group
// CHECK-NEXT: tkgpu.barrier{{$}}
// CHECK-NEXT: tkgpu.async_copy_global_to_local
// CHECK-NOT: tkgpu.barrier{{$}}
// CHECK: scf.yield
func.func @distinct_slots(%p: tensor<64x32x!tk.ptr<f16>, #b2>, %n: i32) -> tensor<64x32xf16, #b2> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %x0 = arith.constant dense<0.0> : tensor<64x32xf16, #b2>
  %buf = tkgpu.local_alloc {tkgpu.offset = 0 : i64} !tkgpu.memdesc<3x64x32xf16, #sh3>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%x = %x0, %s = %c0) -> (tensor<64x32xf16, #b2>, i32) : i32 {
    tkgpu.async_wait 1
    %t = arith.addi %s, %c1 : i32
    %w = arith.cmpi eq, %t, %c3 : i32
    %next = arith.select %w, %c0, %t : i32
    %read = tkgpu.memdesc_index %buf[%next] : !tkgpu.memdesc<3x64x32xf16, #sh3> -> !tkgpu.memdesc<64x32xf16, #sh>
    %l = tkgpu.local_load %read : !tkgpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #b2>
    %fill = tkgpu.memdesc_index %buf[%s] : !tkgpu.memdesc<3x64x32xf16, #sh3> -> !tkgpu.memdesc<64x32xf16, #sh>
    tkgpu.async_copy_global_to_local %p, %fill : tensor<64x32x!tk.ptr<f16>, #b2> -> !tkgpu.memdesc<64x32xf16, #sh>
    tkgpu.async_commit_group
    tkgpu.async_copy_global_to_local %p, %read : tensor<64x32x!tk.ptr<f16>, #b2> -> !tkgpu.memdesc<64x32xf16, #sh>
    scf.yield %l, %next : tensor<64x32xf16, #b2>, i32
  }
  tkgpu.async_wait 0
  return %r#0 : tensor<64x32xf16, #b2>
}

// -----

#b2 = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#sh3 = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [2, 1, 0]}>

// Slots are told apart within one iteration only: the read of slot %next
// at the end of an iteration and the copy into slot %s at the top of the
// next are the same slot (%s there is %next here), so the copy waits for
// a barrier (write after read). Were the slots not forgotten at the back
// edge, %s and %next would look distinct there and this barrier would be
// missing; the copy is never pending, so nothing else places it.
// CHECK-LABEL: func.func @slots_across_iterations
// CHECK: scf.for
// CHECK-NEXT: tkgpu.memdesc_index
// CHECK-NEXT: tkgpu.barrier{{$}}
// CHECK-NEXT: tkgpu.async_copy_global_to_local
// CHECK-NEXT: tkgpu.async_commit_group
// CHECK-NEXT: tkgpu.async_wait 0
// CHECK: tkgpu.barrier{{$}}
// CHECK-NEXT: tkgpu.local_load
// CHECK-NEXT: scf.yield
func.func @slots_across_iterations(%p: tensor<64x32x!tk.ptr<f16>, #b2>, %x: tensor<64x32xf16, #b2>, %n: i32) -> tensor<64x32xf16, #b2> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %buf = tkgpu.local_alloc {tkgpu.offset = 0 : i64} !tkgpu.memdesc<2x64x32xf16, #sh3>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x, %s = %c0) -> (tensor<64x32xf16, #b2>, i32) : i32 {
    %fill = tkgpu.memdesc_index %buf[%s] : !tkgpu.memdesc<2x64x32xf16, #sh3> -> !tkgpu.memdesc<64x32xf16, #sh>
    tkgpu.async_copy_global_to_local %p, %fill : tensor<64x32x!tk.ptr<f16>, #b2> -> !tkgpu.memdesc<64x32xf16, #sh>
    tkgpu.async_commit_group
    tkgpu.async_wait 0
    %t = arith.addi %s, %c1 : i32
    %w = arith.cmpi eq, %t, %c2 : i32
    %next = arith.select %w, %c0, %t : i32
    %other = tkgpu.memdesc_index %buf[%next] : !tkgpu.memdesc<2x64x32xf16, #sh3> -> !tkgpu.memdesc<64x32xf16, #sh>
    %l = tkgpu.local_load %other : !tkgpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #b2>
    scf.yield %l, %next : tensor<64x32xf16, #b2>, i32
  }
  return %r#0 : tensor<64x32xf16, #b2>
}

// -----

#b2 = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>

// Both branches flow into the load after the if: the write in one of them
// needs the barrier; nothing is placed for the read-only if.
// CHECK-LABEL: func.func @branches
// CHECK: scf.if
// CHECK-NEXT: tkgpu.local_store
// CHECK: } else {
// CHECK-NEXT: tkgpu.local_load
// CHECK: }
// CHECK-NEXT: tkgpu.barrier{{$}}
// CHECK-NEXT: tkgpu.local_load
// CHECK-NEXT: scf.if
// CHECK-NEXT: tkgpu.local_load
// CHECK-NOT: tkgpu.barrier{{$}}
// CHECK: return
func.func @branches(%x: tensor<64x32xf16, #b2>, %c: i1) -> tensor<64x32xf16, #b2> {
  %a = tkgpu.local_alloc {tkgpu.offset = 0 : i64} !tkgpu.memdesc<64x32xf16, #sh>
  %r = scf.if %c -> tensor<64x32xf16, #b2> {
    tkgpu.local_store %x, %a : tensor<64x32xf16, #b2> -> !tkgpu.memdesc<64x32xf16, #sh>
    scf.yield %x : tensor<64x32xf16, #b2>
  } else {
    %l = tkgpu.local_load %a : !tkgpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #b2>
    scf.yield %l : tensor<64x32xf16, #b2>
  }
  %m = tkgpu.local_load %a : !tkgpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #b2>
  scf.if %c {
    %n = tkgpu.local_load %a : !tkgpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #b2>
  }
  %o = tkgpu.local_load %a : !tkgpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #b2>
  return %m : tensor<64x32xf16, #b2>
}

// -----

#b2 = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>

// An access whose buffer is unknown (not allocated) is all of shared memory.
// CHECK-LABEL: func.func @unknown
// CHECK: tkgpu.local_store
// CHECK-NEXT: tkgpu.barrier{{$}}
// CHECK-NEXT: tkgpu.local_load
func.func @unknown(%x: tensor<64x32xf16, #b2>) -> tensor<64x32xf16, #b2> {
  %a = tkgpu.local_alloc {tkgpu.offset = 0 : i64} !tkgpu.memdesc<64x32xf16, #sh>
  %b = tkgpu.local_alloc !tkgpu.memdesc<64x32xf16, #sh>
  tkgpu.local_store %x, %a : tensor<64x32xf16, #b2> -> !tkgpu.memdesc<64x32xf16, #sh>
  %l = tkgpu.local_load %b : !tkgpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #b2>
  return %l : tensor<64x32xf16, #b2>
}

// -----

#b2 = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>

// cp.async: a thread's copies land at its async_wait, and other threads see
// them only after a barrier: none before the wait or the commit, one after
// the wait before the read. A copy into a buffer that was read since the
// last barrier (write after read) gets one before it.
// CHECK-LABEL: func.func @async_copies
// CHECK: tkgpu.async_copy_global_to_local
// CHECK-NEXT: tkgpu.async_commit_group
// CHECK-NEXT: tkgpu.async_wait 0
// CHECK-NEXT: tkgpu.barrier{{$}}
// CHECK-NEXT: tkgpu.local_load
// CHECK-NEXT: tkgpu.barrier{{$}}
// CHECK-NEXT: tkgpu.async_copy_global_to_local
// CHECK-NOT: tkgpu.barrier{{$}}
// CHECK: return
func.func @async_copies(%p: tensor<64x32x!tk.ptr<f16>, #b2>) -> tensor<64x32xf16, #b2> {
  %a = tkgpu.local_alloc {tkgpu.offset = 0 : i64} !tkgpu.memdesc<64x32xf16, #sh>
  tkgpu.async_copy_global_to_local %p, %a : tensor<64x32x!tk.ptr<f16>, #b2> -> !tkgpu.memdesc<64x32xf16, #sh>
  tkgpu.async_commit_group
  tkgpu.async_wait 0
  %l = tkgpu.local_load %a : !tkgpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #b2>
  tkgpu.async_copy_global_to_local %p, %a : tensor<64x32x!tk.ptr<f16>, #b2> -> !tkgpu.memdesc<64x32xf16, #sh>
  tkgpu.async_commit_group
  return %l : tensor<64x32xf16, #b2>
}

// -----

#b2 = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#bar = #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nv = #tkgpu.nvmma_shared<{swizzle = 64, elementBitWidth = 16, order = [1, 0]}>

// warp_specialize: the inits and the store before it get one barrier
// (every warp is still there); the partitions are analysed apart, so the
// consumers' read of the buffer the producer's TMA copy fills needs none
// (the mbarrier orders them), while their own store-then-read of another
// buffer gets one inside the consumer region.
// CHECK-LABEL: func.func @partitions
// CHECK: tkgpu.local_store
// CHECK-NEXT: tkgpu.barrier{{$}}
// CHECK-NEXT: tkgpu.warp_specialize
// CHECK-NOT: tkgpu.barrier{{$}}
// CHECK: tkgpu.async_tma_copy_global_to_local
// CHECK-NOT: tkgpu.barrier{{$}}
// CHECK: } consumer
// CHECK-NEXT: tkgpu.wait_barrier
// CHECK-NEXT: tkgpu.local_load
// CHECK-NEXT: tkgpu.local_store
// CHECK-NEXT: tkgpu.barrier{{$}}
// CHECK-NEXT: tkgpu.local_load
// CHECK-NEXT: tkgpu.arrive_barrier
// CHECK-NEXT: tkgpu.warp_yield
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.total_num_warps = 8 : i32} {
func.func @partitions(%desc: !tkgpu.tensor_map, %x: tensor<64x32xf16, #b2>, %i: i32, %p: i32, %t: i1) {
  %full = tkgpu.local_alloc {tkgpu.offset = 0 : i64} !tkgpu.memdesc<1xi64, #bar>
  %empty = tkgpu.local_alloc {tkgpu.offset = 8 : i64} !tkgpu.memdesc<1xi64, #bar>
  %a = tkgpu.local_alloc {tkgpu.offset = 1024 : i64} !tkgpu.memdesc<64x32xf16, #nv>
  %b = tkgpu.local_alloc {tkgpu.offset = 8192 : i64} !tkgpu.memdesc<64x32xf16, #sh>
  tkgpu.init_barrier %full, 1 : !tkgpu.memdesc<1xi64, #bar>
  tkgpu.init_barrier %empty, 4 : !tkgpu.memdesc<1xi64, #bar>
  tkgpu.local_store %x, %b : tensor<64x32xf16, #b2> -> !tkgpu.memdesc<64x32xf16, #sh>
  tkgpu.warp_specialize producer(registers = 40) {
    tkgpu.wait_barrier %empty, %p : !tkgpu.memdesc<1xi64, #bar>
    tkgpu.barrier_expect %full, 4096, %t : !tkgpu.memdesc<1xi64, #bar>
    tkgpu.async_tma_copy_global_to_local %desc[%i, %i] %a, %full, %t : !tkgpu.tensor_map, !tkgpu.memdesc<64x32xf16, #nv>, !tkgpu.memdesc<1xi64, #bar>
    tkgpu.warp_yield
  } consumer(registers = 256) {
    tkgpu.wait_barrier %full, %p : !tkgpu.memdesc<1xi64, #bar>
    %l = tkgpu.local_load %a : !tkgpu.memdesc<64x32xf16, #nv> -> tensor<64x32xf16, #b2>
    tkgpu.local_store %l, %b : tensor<64x32xf16, #b2> -> !tkgpu.memdesc<64x32xf16, #sh>
    %m = tkgpu.local_load %b : !tkgpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #b2>
    tkgpu.arrive_barrier %empty, %t : !tkgpu.memdesc<1xi64, #bar>
    tkgpu.warp_yield
  }
  return
}
}

// -----

#b2 = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#nv = #tkgpu.nvmma_shared<{swizzle = 64, elementBitWidth = 16, order = [1, 0]}>

// A TMA store's read of its buffer lasts until async_tma_store_wait, which
// membar places (tkgpu-lower-tma issues the store without one): the store
// at the bottom of a persistent loop is waited for only before the next
// iteration's write of the same bytes, with the barrier after the wait;
// the write of other bytes before it needs no wait, and the loop's own
// barrier does not end the read. After the loop, one wait before return.
// CHECK-LABEL: func.func @tma_store_loop
// CHECK-NOT: tkgpu.async_tma_store_wait
// CHECK: scf.for
// CHECK-NEXT: tkgpu.local_alloc %{{.*}} {tkgpu.offset = 8192 : i64}
// CHECK-NEXT: tkgpu.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: tkgpu.barrier{{$}}
// CHECK-NEXT: tkgpu.local_alloc %{{.*}} {tkgpu.offset = 0 : i64}
// CHECK-NEXT: tkgpu.fence_async_shared
// CHECK-NEXT: tkgpu.barrier{{$}}
// CHECK-NEXT: tkgpu.async_tma_copy_local_to_global
// CHECK-NEXT: tkgpu.barrier{{$}}
// CHECK-NEXT: }
// CHECK-NEXT: tkgpu.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: return
module attributes {tkgpu.num_warps = 4 : i32} {
func.func @tma_store_loop(%desc: !tkgpu.tensor_map, %x: tensor<64x32xf16, #b2>, %i: i32, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %k = %c0 to %n step %c1 {
    %other = tkgpu.local_alloc %x : tensor<64x32xf16, #b2> -> {tkgpu.offset = 8192 : i64} !tkgpu.memdesc<64x32xf16, #sh>
    %buf = tkgpu.local_alloc %x : tensor<64x32xf16, #b2> -> {tkgpu.offset = 0 : i64} !tkgpu.memdesc<64x32xf16, #nv>
    tkgpu.async_tma_copy_local_to_global %desc[%i, %i] %buf : !tkgpu.tensor_map, !tkgpu.memdesc<64x32xf16, #nv>
    tkgpu.barrier
  }
  return
}
}

// -----

#b2 = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#nv = #tkgpu.nvmma_shared<{swizzle = 64, elementBitWidth = 16, order = [1, 0]}>

// A store in the consumer partition is waited for at the partition's end;
// an explicit wait already there retires it (no second one), and a read
// of the stored bytes needs no wait (both only read).
// CHECK-LABEL: func.func @tma_store_partition
// CHECK: } consumer
// CHECK: tkgpu.async_tma_copy_local_to_global
// CHECK-NEXT: tkgpu.local_load
// CHECK-NEXT: tkgpu.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: tkgpu.warp_yield
// CHECK-NEXT: }
// CHECK-NEXT: tkgpu.barrier{{$}}
// CHECK-NEXT: tkgpu.local_alloc
// CHECK-NEXT: tkgpu.fence_async_shared
// CHECK-NEXT: tkgpu.barrier{{$}}
// CHECK-NEXT: tkgpu.async_tma_copy_local_to_global
// CHECK-NEXT: tkgpu.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NOT: tkgpu.async_tma_store_wait
// CHECK: return
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.total_num_warps = 8 : i32} {
func.func @tma_store_partition(%desc: !tkgpu.tensor_map, %x: tensor<64x32xf16, #b2>, %i: i32) {
  tkgpu.warp_specialize producer(registers = 40) {
    tkgpu.warp_yield
  } consumer(registers = 256) {
    %buf = tkgpu.local_alloc %x : tensor<64x32xf16, #b2> -> {tkgpu.offset = 0 : i64} !tkgpu.memdesc<64x32xf16, #nv>
    tkgpu.async_tma_copy_local_to_global %desc[%i, %i] %buf : !tkgpu.tensor_map, !tkgpu.memdesc<64x32xf16, #nv>
    %l = tkgpu.local_load %buf : !tkgpu.memdesc<64x32xf16, #nv> -> tensor<64x32xf16, #b2>
    tkgpu.warp_yield
  }
  %c = tkgpu.local_alloc %x : tensor<64x32xf16, #b2> -> {tkgpu.offset = 0 : i64} !tkgpu.memdesc<64x32xf16, #nv>
  tkgpu.async_tma_copy_local_to_global %desc[%i, %i] %c : !tkgpu.tensor_map, !tkgpu.memdesc<64x32xf16, #nv>
  tkgpu.async_tma_store_wait {pendings = 0 : i32}
  return
}
}

// -----

#b2 = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#nv = #tkgpu.nvmma_shared<{swizzle = 64, elementBitWidth = 16, order = [1, 0]}>
#nv3 = #tkgpu.nvmma_shared<{swizzle = 64, elementBitWidth = 16, order = [2, 1, 0]}>

// A store staged through a ring of two slots (tkgpu-subtile-tma-stores),
// three blocks per iteration: slots 0, 1, 0. Each store is one bulk group,
// and a write waits only for the groups up to the most recent one that
// reads its bytes: block 0 for the previous iteration's last store (slot
// 0, the most recent group: pendings 0), block 1 for nothing (the slot-1
// store of the previous iteration is already retired by that wait), block
// 2 for block 0's store but not block 1's (pendings 1). Without the count
// every wait would be {pendings = 0}.
// CHECK-LABEL: func.func @store_ring
// CHECK: scf.for
// CHECK-NEXT: tkgpu.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: tkgpu.barrier{{$}}
// CHECK-NEXT: tkgpu.local_store %{{.*}}, %[[S0:[^ ]*]]
// CHECK-NEXT: tkgpu.fence_async_shared
// CHECK-NEXT: tkgpu.barrier{{$}}
// CHECK-NEXT: tkgpu.async_tma_copy_local_to_global %{{.*}} %[[S0]]
// CHECK-NEXT: tkgpu.local_store %{{.*}}, %[[S1:[^ ]*]]
// CHECK-NEXT: tkgpu.fence_async_shared
// CHECK-NEXT: tkgpu.barrier{{$}}
// CHECK-NEXT: tkgpu.async_tma_copy_local_to_global %{{.*}} %[[S1]]
// CHECK-NEXT: tkgpu.async_tma_store_wait {pendings = 1 : i32}
// CHECK-NEXT: tkgpu.barrier{{$}}
// CHECK-NEXT: tkgpu.local_store %{{.*}}, %[[S0]]
// CHECK-NEXT: tkgpu.fence_async_shared
// CHECK-NEXT: tkgpu.barrier{{$}}
// CHECK-NEXT: tkgpu.async_tma_copy_local_to_global %{{.*}} %[[S0]]
// CHECK-NEXT: }
// CHECK-NEXT: tkgpu.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: return
module attributes {tkgpu.num_warps = 4 : i32} {
func.func @store_ring(%desc: !tkgpu.tensor_map, %x: tensor<64x32xf16, #b2>, %i: i32, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s0 = arith.constant 0 : i32
  %s1 = arith.constant 1 : i32
  %ring = tkgpu.local_alloc {tkgpu.offset = 0 : i64} !tkgpu.memdesc<2x64x32xf16, #nv3>
  %slot0 = tkgpu.memdesc_index %ring[%s0] : !tkgpu.memdesc<2x64x32xf16, #nv3> -> !tkgpu.memdesc<64x32xf16, #nv>
  %slot1 = tkgpu.memdesc_index %ring[%s1] : !tkgpu.memdesc<2x64x32xf16, #nv3> -> !tkgpu.memdesc<64x32xf16, #nv>
  scf.for %k = %c0 to %n step %c1 {
    tkgpu.local_store %x, %slot0 : tensor<64x32xf16, #b2> -> !tkgpu.memdesc<64x32xf16, #nv>
    tkgpu.async_tma_copy_local_to_global %desc[%i, %i] %slot0 : !tkgpu.tensor_map, !tkgpu.memdesc<64x32xf16, #nv>
    tkgpu.local_store %x, %slot1 : tensor<64x32xf16, #b2> -> !tkgpu.memdesc<64x32xf16, #nv>
    tkgpu.async_tma_copy_local_to_global %desc[%i, %i] %slot1 : !tkgpu.tensor_map, !tkgpu.memdesc<64x32xf16, #nv>
    tkgpu.local_store %x, %slot0 : tensor<64x32xf16, #b2> -> !tkgpu.memdesc<64x32xf16, #nv>
    tkgpu.async_tma_copy_local_to_global %desc[%i, %i] %slot0 : !tkgpu.tensor_map, !tkgpu.memdesc<64x32xf16, #nv>
  }
  return
}
}

// -----

#b2 = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#bar = #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nv = #tkgpu.nvmma_shared<{swizzle = 64, elementBitWidth = 16, order = [1, 0]}>

// In clusters of two, tkgpu.cluster_barrier orders the CTA's accesses as a
// barrier does and is no access itself: no barrier on either side of it,
// none between the store before it and the load after it, and the TMA
// copies in the loop after it get no proxy fence.
// CHECK-LABEL: func.func @cluster_meet
// CHECK: tkgpu.local_store
// CHECK-NEXT: tkgpu.cluster_barrier {after_barrier_init}
// CHECK-NEXT: tkgpu.local_load
// CHECK-NOT: tkgpu.barrier{{$}}
// CHECK-NOT: tkgpu.fence_async_shared
// CHECK: return
module attributes {tk.cluster_size = 2 : i32, tkgpu.num_warps = 4 : i32} {
func.func @cluster_meet(%desc: !tkgpu.tensor_map, %x: tensor<64x32xf16, #b2>, %i: i32, %t: i1, %n: index) -> tensor<64x32xf16, #b2> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %full = tkgpu.local_alloc {tkgpu.offset = 0 : i64} !tkgpu.memdesc<1xi64, #bar>
  %a = tkgpu.local_alloc {tkgpu.offset = 1024 : i64} !tkgpu.memdesc<64x32xf16, #nv>
  %b = tkgpu.local_alloc {tkgpu.offset = 8192 : i64} !tkgpu.memdesc<64x32xf16, #sh>
  tkgpu.init_barrier %full, 1 : !tkgpu.memdesc<1xi64, #bar>
  tkgpu.local_store %x, %b : tensor<64x32xf16, #b2> -> !tkgpu.memdesc<64x32xf16, #sh>
  tkgpu.cluster_barrier {after_barrier_init}
  %l = tkgpu.local_load %b : !tkgpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #b2>
  scf.for %k = %c0 to %n step %c1 {
    tkgpu.async_tma_copy_global_to_local %desc[%i, %i] %a, %full, %t {multicast} : !tkgpu.tensor_map, !tkgpu.memdesc<64x32xf16, #nv>, !tkgpu.memdesc<1xi64, #bar>
  }
  return %l : tensor<64x32xf16, #b2>
}
}

// -----

#b2 = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>

// Without clusters the cluster barrier lowers to nothing: the store and
// the load still need a barrier of their own.
// CHECK-LABEL: func.func @no_cluster
// CHECK: tkgpu.local_store
// CHECK-NEXT: tkgpu.cluster_barrier
// CHECK-NEXT: tkgpu.barrier{{$}}
// CHECK-NEXT: tkgpu.local_load
module attributes {tkgpu.num_warps = 4 : i32} {
func.func @no_cluster(%x: tensor<64x32xf16, #b2>) -> tensor<64x32xf16, #b2> {
  %b = tkgpu.local_alloc {tkgpu.offset = 0 : i64} !tkgpu.memdesc<64x32xf16, #sh>
  tkgpu.local_store %x, %b : tensor<64x32xf16, #b2> -> !tkgpu.memdesc<64x32xf16, #sh>
  tkgpu.cluster_barrier
  %l = tkgpu.local_load %b : !tkgpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #b2>
  return %l : tensor<64x32xf16, #b2>
}
}
