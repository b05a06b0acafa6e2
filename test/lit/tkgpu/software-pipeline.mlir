// RUN: tk-opt %s -split-input-file -tkgpu-pipeline | FileCheck %s
// RUN: tk-opt %s -split-input-file -tkgpu-pipeline=num-stages=4 | FileCheck %s --check-prefix=S4
// RUN: tk-opt %s -split-input-file -tkgpu-pipeline=num-stages=1 | FileCheck %s --check-prefix=S1
// RUN: tk-opt %s -split-input-file -tkgpu-pipeline -canonicalize -cse | FileCheck %s --check-prefix=CANON
// tkgpu-pipeline: the operand loads of dot loops become num_stages-deep
// cp.async multi-buffers, fetched num_stages iterations ahead at the end of
// the body (the default is 3: 2 prologue fetches, a wait for 1 group, the
// third fetch; in the loop, the body, a wait for 1 group, a fetch).

// A matmul K loop in accelerate-matmul's form, with a run-time trip count
// cdiv(K, 32): A's tile goes straight to local_alloc, B's through a
// convert_layout; both are 16-byte pieces (8 x f16, K divisible by 16).
// CHECK-DAG: #[[SH3:.*]] = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [2, 1, 0]}>
// CHECK-DAG: #[[SH2:.*]] = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-LABEL: func.func @matmul(
// CHECK: %[[UB:.*]] = arith.divsi
// CHECK: %[[BUFA:.*]] = tkgpu.local_alloc !tkgpu.memdesc<3x64x32xf16, #[[SH3]]>
// CHECK: %[[BUFB:.*]] = tkgpu.local_alloc !tkgpu.memdesc<3x32x64xf16, #[[SH3]]>
// Prologue, iteration 0 into slot 0, masked with 0 < trip count.
// CHECK: %[[SLOT0:.*]] = arith.constant 0 : i32
// CHECK: %[[PA1:.*]] = tk.addptr %[[PA0:[^,]*]], %{{.*}} : tensor<64x32x!tk.ptr<f16>
// CHECK: %[[PB1:.*]] = tk.addptr %[[PB0:[^,]*]], %{{.*}} : tensor<32x64x!tk.ptr<f16>
// CHECK: %[[HAS0:.*]] = arith.cmpi slt, %[[LB:c0_i32]], %[[UB]] : i32
// CHECK: %[[E0:.*]] = tk.splat %[[HAS0]] : i1 -> tensor<64x32xi1
// CHECK: %[[M0:.*]] = arith.andi %{{.*}}, %[[E0]] : tensor<64x32xi1
// CHECK: %[[DA0:.*]] = tkgpu.memdesc_index %[[BUFA]][%[[SLOT0]]] : !tkgpu.memdesc<3x64x32xf16, #[[SH3]]> -> !tkgpu.memdesc<64x32xf16, #[[SH2]]>
// CHECK: tkgpu.async_copy_global_to_local %[[PA0]], %[[DA0]] mask %[[M0]]
// CHECK: %[[EB0:.*]] = tk.splat %[[HAS0]] : i1 -> tensor<32x64xi1
// CHECK: %[[MB0:.*]] = arith.andi %{{.*}}, %[[EB0]] : tensor<32x64xi1
// CHECK: %[[DB0:.*]] = tkgpu.memdesc_index %[[BUFB]][%[[SLOT0]]]
// CHECK: tkgpu.async_copy_global_to_local %[[PB0]], %[[DB0]] mask %[[MB0]] : tensor<32x64x!tk.ptr<f16>
// CHECK: tkgpu.async_commit_group
// Iteration 1 into slot 1, from the advanced pointers.
// CHECK: %[[IV1:.*]] = arith.addi %[[LB]], %{{.*}} : i32
// CHECK: %[[SLOT1:.*]] = arith.constant 1 : i32
// CHECK: %[[PA2:.*]] = tk.addptr %[[PA1]],
// CHECK: %[[PB2:.*]] = tk.addptr %[[PB1]],
// CHECK: %[[HAS1:.*]] = arith.cmpi slt, %[[IV1]], %[[UB]] : i32
// CHECK: tk.splat %[[HAS1]]
// CHECK: tkgpu.memdesc_index %[[BUFA]][%[[SLOT1]]]
// CHECK: tkgpu.async_copy_global_to_local %[[PA1]],
// CHECK: tkgpu.memdesc_index %[[BUFB]][%[[SLOT1]]]
// CHECK: tkgpu.async_copy_global_to_local %[[PB1]],
// CHECK: tkgpu.async_commit_group
// Iteration 0 has landed; then iteration 2 into slot 2.
// CHECK-NEXT: tkgpu.async_wait 1
// CHECK: %[[IV2:.*]] = arith.addi %[[LB]], %{{.*}} : i32
// CHECK: %[[SLOT2:.*]] = arith.constant 2 : i32
// CHECK: %[[PA3:.*]] = tk.addptr %[[PA2]],
// CHECK: %[[PB3:.*]] = tk.addptr %[[PB2]],
// CHECK: %[[HAS2:.*]] = arith.cmpi slt, %[[IV2]], %[[UB]] : i32
// CHECK: tkgpu.memdesc_index %[[BUFA]][%[[SLOT2]]]
// CHECK: tkgpu.async_copy_global_to_local %[[PA2]],
// CHECK: tkgpu.memdesc_index %[[BUFB]][%[[SLOT2]]]
// CHECK: tkgpu.async_copy_global_to_local %[[PB2]],
// CHECK: tkgpu.async_commit_group
// CHECK-NOT: tkgpu.async_copy_global_to_local
// CHECK-NOT: tkgpu.async_commit_group
// The loop carries the pointers of iteration i + 3 and one slot.
// CHECK: %[[R:.*]]:4 = scf.for %[[IV:[^ ]*]] = %[[LB]] to %[[UB]] step %{{[^ ]*}} iter_args(%[[ACC:[^ ]*]] = %{{[^,]*}}, %[[PA:[^ ]*]] = %[[PA3]], %[[PB:[^ ]*]] = %[[PB3]], %[[SLOT:[^ ]*]] = %c0_i32_{{[0-9]+}})
// The old body first, reading this iteration's slot: nothing to wait for.
// CHECK-NEXT: %[[VA:.*]] = tkgpu.memdesc_index %[[BUFA]][%[[SLOT]]]
// CHECK-NEXT: %[[VB:.*]] = tkgpu.memdesc_index %[[BUFB]][%[[SLOT]]]
// CHECK-NEXT: %[[OA:.*]] = tkgpu.local_load %[[VA]] : !tkgpu.memdesc<64x32xf16, #[[SH2]]> -> tensor<64x32xf16, #dot_op>
// CHECK-NEXT: %[[OB:.*]] = tkgpu.local_load %[[VB]] : !tkgpu.memdesc<32x64xf16, #[[SH2]]> -> tensor<32x64xf16, #dot_op1>
// CHECK-NEXT: %[[D:.*]] = tk.dot %[[OA]], %[[OB]], %[[ACC]]
// Then iteration i + 1 has landed, and iteration i + 3 goes into the slot
// just read, masked with i + 3 < ub.
// CHECK-NEXT: tkgpu.async_wait 1
// CHECK-NEXT: %[[C3:.*]] = arith.constant 3 : i32
// CHECK-NEXT: %[[DIST:.*]] = arith.muli %{{.*}}, %[[C3]] : i32
// CHECK-NEXT: %[[IVF:.*]] = arith.addi %[[IV]], %[[DIST]] : i32
// CHECK: %[[NA:.*]] = tk.addptr %[[PA]],
// CHECK: %[[NB:.*]] = tk.addptr %[[PB]],
// CHECK: %[[HAS:.*]] = arith.cmpi slt, %[[IVF]], %[[UB]] : i32
// CHECK: %[[E:.*]] = tk.splat %[[HAS]] : i1 -> tensor<64x32xi1
// CHECK: %[[M:.*]] = arith.andi %{{.*}}, %[[E]] : tensor<64x32xi1
// CHECK: %[[DA:.*]] = tkgpu.memdesc_index %[[BUFA]][%[[SLOT]]]
// CHECK: tkgpu.async_copy_global_to_local %[[PA]], %[[DA]] mask %[[M]]
// CHECK: %[[DB:.*]] = tkgpu.memdesc_index %[[BUFB]][%[[SLOT]]]
// CHECK: tkgpu.async_copy_global_to_local %[[PB]], %[[DB]] mask
// CHECK-NEXT: tkgpu.async_commit_group
// CHECK-NOT: tk.load
// CHECK-NOT: tkgpu.local_alloc
// CHECK-NOT: tkgpu.async_copy_global_to_local
// The slot advances modulo 3.
// CHECK: %[[SLOT1:.*]] = arith.addi %[[SLOT]], %{{.*}} : i32
// CHECK-NEXT: %[[C3S:.*]] = arith.constant 3 : i32
// CHECK-NEXT: %[[WRAP:.*]] = arith.cmpi eq, %[[SLOT1]], %[[C3S]] : i32
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[NEXT:.*]] = arith.select %[[WRAP]], %[[Z]], %[[SLOT1]] : i32
// CHECK-NEXT: scf.yield %[[D]], %[[NA]], %[[NB]], %[[NEXT]] :
// CHECK-NEXT: }
// Epilogue: nothing in flight when the buffers die.
// CHECK-NEXT: tkgpu.async_wait 0
// CHECK-NEXT: tkgpu.local_dealloc %[[BUFA]] : !tkgpu.memdesc<3x64x32xf16, #[[SH3]]>
// CHECK-NEXT: tkgpu.local_dealloc %[[BUFB]] : !tkgpu.memdesc<3x32x64xf16, #[[SH3]]>
// CHECK-NEXT: return %[[R]]#0

// num-stages=4: four buffers, three prologue fetches, a wait leaving 2
// groups pending, the fourth fetch; the loop waits for 2 after its body.
// S4-LABEL: func.func @matmul(
// S4: tkgpu.local_alloc !tkgpu.memdesc<4x64x32xf16
// S4: tkgpu.local_alloc !tkgpu.memdesc<4x32x64xf16
// S4: tkgpu.async_copy_global_to_local {{.*}} : tensor<64x32x!tk.ptr<f16>
// S4: tkgpu.async_copy_global_to_local {{.*}} : tensor<32x64x!tk.ptr<f16>
// S4-NEXT: tkgpu.async_commit_group
// S4: tkgpu.async_copy_global_to_local {{.*}} : tensor<64x32x!tk.ptr<f16>
// S4: tkgpu.async_copy_global_to_local {{.*}} : tensor<32x64x!tk.ptr<f16>
// S4-NEXT: tkgpu.async_commit_group
// S4: tkgpu.async_copy_global_to_local {{.*}} : tensor<64x32x!tk.ptr<f16>
// S4: tkgpu.async_copy_global_to_local {{.*}} : tensor<32x64x!tk.ptr<f16>
// S4-NEXT: tkgpu.async_commit_group
// S4-NEXT: tkgpu.async_wait 2
// S4: tkgpu.async_copy_global_to_local {{.*}} : tensor<64x32x!tk.ptr<f16>
// S4: tkgpu.async_copy_global_to_local {{.*}} : tensor<32x64x!tk.ptr<f16>
// S4-NEXT: tkgpu.async_commit_group
// S4-NOT: tkgpu.async_copy_global_to_local
// S4-NOT: tkgpu.async_commit_group
// S4: scf.for {{.*}} iter_args({{.*}}, %{{[^ ]*}} = %c0_i32_{{[0-9]+}})
// S4: tk.dot
// S4-NEXT: tkgpu.async_wait 2
// S4-NEXT: arith.constant 4 : i32
// S4: tkgpu.async_copy_global_to_local
// S4: tkgpu.async_copy_global_to_local
// S4-NEXT: tkgpu.async_commit_group
// S4: arith.constant 4 : i32
// S4: scf.yield
// S4-NEXT: }
// S4-NEXT: tkgpu.async_wait 0

// num-stages=1: no pipelining.
// S1-LABEL: func.func @matmul(
// S1-NOT: tkgpu.async_copy_global_to_local
// S1: tk.load
// S1: tk.load
// S1: tkgpu.local_alloc %
// S1: tkgpu.local_alloc %
// S1-NOT: tkgpu.async_copy_global_to_local

// After canonicalize and cse, the prologue is three fetches of straight-line
// code and the loop keeps its shape.
// CANON-LABEL: func.func @matmul(
// CANON-COUNT-2: tkgpu.async_commit_group
// CANON-NEXT: tkgpu.async_wait 1
// CANON: tkgpu.async_commit_group
// CANON: scf.for
// CANON-NOT: tkgpu.async_wait
// CANON: tk.dot
// CANON-NEXT: tkgpu.async_wait 1
// CANON: tkgpu.async_commit_group
// CANON: scf.yield
// CANON-NEXT: }
// CANON-NEXT: tkgpu.async_wait 0

#bA = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#bB = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#bB2 = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tkgpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#dA = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#dB = #tkgpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
#sh = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
  func.func @matmul(%a: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %b: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %K: i32 {tk.divisibility = 16 : i32}) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c31 = arith.constant 31 : i32
    %c32 = arith.constant 32 : i32
    %zeroA = arith.constant dense<0.0> : tensor<64x32xf16, #bA>
    %zeroB = arith.constant dense<0.0> : tensor<32x64xf16, #bB>
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %rm = tk.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 1, parent = #bA}>>
    %rm2 = tk.expand_dims %rm {axis = 1 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 1, parent = #bA}>> -> tensor<64x1xi32, #bA>
    %sK = tk.splat %K : i32 -> tensor<64x1xi32, #bA>
    %rowOff = arith.muli %rm2, %sK : tensor<64x1xi32, #bA>
    %rk = tk.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tkgpu.slice<{dim = 0, parent = #bA}>>
    %rk2 = tk.expand_dims %rk {axis = 0 : i32} : tensor<32xi32, #tkgpu.slice<{dim = 0, parent = #bA}>> -> tensor<1x32xi32, #bA>
    %rowOffB = tk.broadcast %rowOff : tensor<64x1xi32, #bA> -> tensor<64x32xi32, #bA>
    %rkB = tk.broadcast %rk2 : tensor<1x32xi32, #bA> -> tensor<64x32xi32, #bA>
    %offA = arith.addi %rowOffB, %rkB : tensor<64x32xi32, #bA>
    %pa = tk.splat %a : !tk.ptr<f16> -> tensor<64x32x!tk.ptr<f16>, #bA>
    %aPtrs = tk.addptr %pa, %offA : tensor<64x32x!tk.ptr<f16>, #bA>, tensor<64x32xi32, #bA>
    %kb = tk.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tkgpu.slice<{dim = 1, parent = #bB}>>
    %kb2 = tk.expand_dims %kb {axis = 1 : i32} : tensor<32xi32, #tkgpu.slice<{dim = 1, parent = #bB}>> -> tensor<32x1xi32, #bB>
    %c64s = arith.constant dense<64> : tensor<32x1xi32, #bB>
    %kOff = arith.muli %kb2, %c64s : tensor<32x1xi32, #bB>
    %nb = tk.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 0, parent = #bB}>>
    %nb2 = tk.expand_dims %nb {axis = 0 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 0, parent = #bB}>> -> tensor<1x64xi32, #bB>
    %kOffB = tk.broadcast %kOff : tensor<32x1xi32, #bB> -> tensor<32x64xi32, #bB>
    %nbB = tk.broadcast %nb2 : tensor<1x64xi32, #bB> -> tensor<32x64xi32, #bB>
    %offB = arith.addi %kOffB, %nbB : tensor<32x64xi32, #bB>
    %pb = tk.splat %b : !tk.ptr<f16> -> tensor<32x64x!tk.ptr<f16>, #bB>
    %bPtrs = tk.addptr %pb, %offB : tensor<32x64x!tk.ptr<f16>, #bB>, tensor<32x64xi32, #bB>
    %kp = arith.addi %K, %c31 : i32
    %n = arith.divsi %kp, %c32 : i32
    %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0, %pA = %aPtrs, %pB = %bPtrs) -> (tensor<64x64xf32, #mma>, tensor<64x32x!tk.ptr<f16>, #bA>, tensor<32x64x!tk.ptr<f16>, #bB>) : i32 {
      %kr = arith.muli %k, %c32 : i32
      %rem = arith.subi %K, %kr : i32
      %remA = tk.splat %rem : i32 -> tensor<1x32xi32, #bA>
      %mA1 = arith.cmpi slt, %rk2, %remA : tensor<1x32xi32, #bA>
      %mA = tk.broadcast %mA1 : tensor<1x32xi1, #bA> -> tensor<64x32xi1, #bA>
      %x = tk.load %pA, mask %mA, other %zeroA : tensor<64x32x!tk.ptr<f16>, #bA> -> tensor<64x32xf16, #bA>, tensor<64x32xi1, #bA>
      %remB = tk.splat %rem : i32 -> tensor<32x1xi32, #bB>
      %mB1 = arith.cmpi slt, %kb2, %remB : tensor<32x1xi32, #bB>
      %mB = tk.broadcast %mB1 : tensor<32x1xi1, #bB> -> tensor<32x64xi1, #bB>
      %y = tk.load %pB, mask %mB, other %zeroB : tensor<32x64x!tk.ptr<f16>, #bB> -> tensor<32x64xf16, #bB>, tensor<32x64xi1, #bB>
      %xs = tkgpu.local_alloc %x : tensor<64x32xf16, #bA> -> !tkgpu.memdesc<64x32xf16, #sh>
      %xo = tkgpu.local_load %xs : !tkgpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #dA>
      %yc = tkgpu.convert_layout %y : tensor<32x64xf16, #bB> -> tensor<32x64xf16, #bB2>
      %ys = tkgpu.local_alloc %yc : tensor<32x64xf16, #bB2> -> !tkgpu.memdesc<32x64xf16, #sh>
      %yo = tkgpu.local_load %ys : !tkgpu.memdesc<32x64xf16, #sh> -> tensor<32x64xf16, #dB>
      %d = tk.dot %xo, %yo, %acc : tensor<64x32xf16, #dA> * tensor<32x64xf16, #dB> -> tensor<64x64xf32, #mma>
      %stepA = tk.splat %c32 : i32 -> tensor<64x32xi32, #bA>
      %nA = tk.addptr %pA, %stepA : tensor<64x32x!tk.ptr<f16>, #bA>, tensor<64x32xi32, #bA>
      %stepB = arith.constant dense<2048> : tensor<32x64xi32, #bB>
      %nB = tk.addptr %pB, %stepB : tensor<32x64x!tk.ptr<f16>, #bB>, tensor<32x64xi32, #bB>
      scf.yield %d, %nA, %nB : tensor<64x64xf32, #mma>, tensor<64x32x!tk.ptr<f16>, #bA>, tensor<32x64x!tk.ptr<f16>, #bB>
    }
    return %r#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// The loop's own tk.num_stages (2) overrides the option (3, 4 and 1), and
// is consumed: two buffers, one prologue fetch, wait for 0 groups.
// CHECK-LABEL: func.func @loop_stages_2(
// CHECK: tkgpu.local_alloc !tkgpu.memdesc<2x64x32xf16
// CHECK: tkgpu.local_alloc !tkgpu.memdesc<2x32x64xf16
// CHECK: tkgpu.async_copy_global_to_local
// CHECK: tkgpu.async_copy_global_to_local
// CHECK: tkgpu.async_commit_group
// CHECK-NEXT: tkgpu.async_wait 0
// CHECK: tkgpu.async_commit_group
// CHECK-NOT: tkgpu.async_commit_group
// CHECK: scf.for {{.*}} iter_args({{.*}}, %{{[^ ]*}} = %c0_i32_{{[0-9]+}})
// CHECK: tk.dot
// CHECK-NEXT: tkgpu.async_wait 0
// CHECK: tkgpu.async_commit_group
// CHECK: arith.constant 2 : i32
// CHECK: scf.yield
// CHECK-NEXT: {{^ *}}}{{$}}
// CHECK-NEXT: tkgpu.async_wait 0
// S4-LABEL: func.func @loop_stages_2(
// S4: tkgpu.local_alloc !tkgpu.memdesc<2x64x32xf16
// S4: tkgpu.async_wait 0
// S1-LABEL: func.func @loop_stages_2(
// S1: tkgpu.local_alloc !tkgpu.memdesc<2x64x32xf16
// S1: tkgpu.async_wait 0

#bA = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#bB = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#bB2 = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tkgpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#dA = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#dB = #tkgpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
#sh = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
  func.func @loop_stages_2(%a: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %b: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %K: i32 {tk.divisibility = 16 : i32}) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c31 = arith.constant 31 : i32
    %c32 = arith.constant 32 : i32
    %zeroA = arith.constant dense<0.0> : tensor<64x32xf16, #bA>
    %zeroB = arith.constant dense<0.0> : tensor<32x64xf16, #bB>
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %rm = tk.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 1, parent = #bA}>>
    %rm2 = tk.expand_dims %rm {axis = 1 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 1, parent = #bA}>> -> tensor<64x1xi32, #bA>
    %sK = tk.splat %K : i32 -> tensor<64x1xi32, #bA>
    %rowOff = arith.muli %rm2, %sK : tensor<64x1xi32, #bA>
    %rk = tk.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tkgpu.slice<{dim = 0, parent = #bA}>>
    %rk2 = tk.expand_dims %rk {axis = 0 : i32} : tensor<32xi32, #tkgpu.slice<{dim = 0, parent = #bA}>> -> tensor<1x32xi32, #bA>
    %rowOffB = tk.broadcast %rowOff : tensor<64x1xi32, #bA> -> tensor<64x32xi32, #bA>
    %rkB = tk.broadcast %rk2 : tensor<1x32xi32, #bA> -> tensor<64x32xi32, #bA>
    %offA = arith.addi %rowOffB, %rkB : tensor<64x32xi32, #bA>
    %pa = tk.splat %a : !tk.ptr<f16> -> tensor<64x32x!tk.ptr<f16>, #bA>
    %aPtrs = tk.addptr %pa, %offA : tensor<64x32x!tk.ptr<f16>, #bA>, tensor<64x32xi32, #bA>
    %kb = tk.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tkgpu.slice<{dim = 1, parent = #bB}>>
    %kb2 = tk.expand_dims %kb {axis = 1 : i32} : tensor<32xi32, #tkgpu.slice<{dim = 1, parent = #bB}>> -> tensor<32x1xi32, #bB>
    %c64s = arith.constant dense<64> : tensor<32x1xi32, #bB>
    %kOff = arith.muli %kb2, %c64s : tensor<32x1xi32, #bB>
    %nb = tk.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 0, parent = #bB}>>
    %nb2 = tk.expand_dims %nb {axis = 0 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 0, parent = #bB}>> -> tensor<1x64xi32, #bB>
    %kOffB = tk.broadcast %kOff : tensor<32x1xi32, #bB> -> tensor<32x64xi32, #bB>
    %nbB = tk.broadcast %nb2 : tensor<1x64xi32, #bB> -> tensor<32x64xi32, #bB>
    %offB = arith.addi %kOffB, %nbB : tensor<32x64xi32, #bB>
    %pb = tk.splat %b : !tk.ptr<f16> -> tensor<32x64x!tk.ptr<f16>, #bB>
    %bPtrs = tk.addptr %pb, %offB : tensor<32x64x!tk.ptr<f16>, #bB>, tensor<32x64xi32, #bB>
    %kp = arith.addi %K, %c31 : i32
    %n = arith.divsi %kp, %c32 : i32
    %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0, %pA = %aPtrs, %pB = %bPtrs) -> (tensor<64x64xf32, #mma>, tensor<64x32x!tk.ptr<f16>, #bA>, tensor<32x64x!tk.ptr<f16>, #bB>) : i32 {
      %kr = arith.muli %k, %c32 : i32
      %rem = arith.subi %K, %kr : i32
      %remA = tk.splat %rem : i32 -> tensor<1x32xi32, #bA>
      %mA1 = arith.cmpi slt, %rk2, %remA : tensor<1x32xi32, #bA>
      %mA = tk.broadcast %mA1 : tensor<1x32xi1, #bA> -> tensor<64x32xi1, #bA>
      %x = tk.load %pA, mask %mA, other %zeroA : tensor<64x32x!tk.ptr<f16>, #bA> -> tensor<64x32xf16, #bA>, tensor<64x32xi1, #bA>
      %remB = tk.splat %rem : i32 -> tensor<32x1xi32, #bB>
      %mB1 = arith.cmpi slt, %kb2, %remB : tensor<32x1xi32, #bB>
      %mB = tk.broadcast %mB1 : tensor<32x1xi1, #bB> -> tensor<32x64xi1, #bB>
      %y = tk.load %pB, mask %mB, other %zeroB : tensor<32x64x!tk.ptr<f16>, #bB> -> tensor<32x64xf16, #bB>, tensor<32x64xi1, #bB>
      %xs = tkgpu.local_alloc %x : tensor<64x32xf16, #bA> -> !tkgpu.memdesc<64x32xf16, #sh>
      %xo = tkgpu.local_load %xs : !tkgpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #dA>
      %yc = tkgpu.convert_layout %y : tensor<32x64xf16, #bB> -> tensor<32x64xf16, #bB2>
      %ys = tkgpu.local_alloc %yc : tensor<32x64xf16, #bB2> -> !tkgpu.memdesc<32x64xf16, #sh>
      %yo = tkgpu.local_load %ys : !tkgpu.memdesc<32x64xf16, #sh> -> tensor<32x64xf16, #dB>
      %d = tk.dot %xo, %yo, %acc : tensor<64x32xf16, #dA> * tensor<32x64xf16, #dB> -> tensor<64x64xf32, #mma>
      %stepA = tk.splat %c32 : i32 -> tensor<64x32xi32, #bA>
      %nA = tk.addptr %pA, %stepA : tensor<64x32x!tk.ptr<f16>, #bA>, tensor<64x32xi32, #bA>
      %stepB = arith.constant dense<2048> : tensor<32x64xi32, #bB>
      %nB = tk.addptr %pB, %stepB : tensor<32x64x!tk.ptr<f16>, #bB>, tensor<32x64xi32, #bB>
      scf.yield %d, %nA, %nB : tensor<64x64xf32, #mma>, tensor<64x32x!tk.ptr<f16>, #bA>, tensor<32x64x!tk.ptr<f16>, #bB>
    } {tk.num_stages = 2 : i32}
    return %r#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// tk.num_stages = 1 on the loop: left alone whatever the option says.
// CHECK-LABEL: func.func @loop_stages_1(
// CHECK-NOT: tkgpu.async_copy_global_to_local
// CHECK: tk.load
// CHECK: tkgpu.local_alloc %
// CHECK-NOT: tkgpu.async_copy_global_to_local
// S4-LABEL: func.func @loop_stages_1(
// S4-NOT: tkgpu.async_copy_global_to_local
// S4: tk.load
// S4-NOT: tkgpu.async_copy_global_to_local

#bA = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#bB = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#bB2 = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tkgpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#dA = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#dB = #tkgpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
#sh = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
  func.func @loop_stages_1(%a: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %b: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %K: i32 {tk.divisibility = 16 : i32}) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c31 = arith.constant 31 : i32
    %c32 = arith.constant 32 : i32
    %zeroA = arith.constant dense<0.0> : tensor<64x32xf16, #bA>
    %zeroB = arith.constant dense<0.0> : tensor<32x64xf16, #bB>
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %rm = tk.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 1, parent = #bA}>>
    %rm2 = tk.expand_dims %rm {axis = 1 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 1, parent = #bA}>> -> tensor<64x1xi32, #bA>
    %sK = tk.splat %K : i32 -> tensor<64x1xi32, #bA>
    %rowOff = arith.muli %rm2, %sK : tensor<64x1xi32, #bA>
    %rk = tk.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tkgpu.slice<{dim = 0, parent = #bA}>>
    %rk2 = tk.expand_dims %rk {axis = 0 : i32} : tensor<32xi32, #tkgpu.slice<{dim = 0, parent = #bA}>> -> tensor<1x32xi32, #bA>
    %rowOffB = tk.broadcast %rowOff : tensor<64x1xi32, #bA> -> tensor<64x32xi32, #bA>
    %rkB = tk.broadcast %rk2 : tensor<1x32xi32, #bA> -> tensor<64x32xi32, #bA>
    %offA = arith.addi %rowOffB, %rkB : tensor<64x32xi32, #bA>
    %pa = tk.splat %a : !tk.ptr<f16> -> tensor<64x32x!tk.ptr<f16>, #bA>
    %aPtrs = tk.addptr %pa, %offA : tensor<64x32x!tk.ptr<f16>, #bA>, tensor<64x32xi32, #bA>
    %kb = tk.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tkgpu.slice<{dim = 1, parent = #bB}>>
    %kb2 = tk.expand_dims %kb {axis = 1 : i32} : tensor<32xi32, #tkgpu.slice<{dim = 1, parent = #bB}>> -> tensor<32x1xi32, #bB>
    %c64s = arith.constant dense<64> : tensor<32x1xi32, #bB>
    %kOff = arith.muli %kb2, %c64s : tensor<32x1xi32, #bB>
    %nb = tk.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 0, parent = #bB}>>
    %nb2 = tk.expand_dims %nb {axis = 0 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 0, parent = #bB}>> -> tensor<1x64xi32, #bB>
    %kOffB = tk.broadcast %kOff : tensor<32x1xi32, #bB> -> tensor<32x64xi32, #bB>
    %nbB = tk.broadcast %nb2 : tensor<1x64xi32, #bB> -> tensor<32x64xi32, #bB>
    %offB = arith.addi %kOffB, %nbB : tensor<32x64xi32, #bB>
    %pb = tk.splat %b : !tk.ptr<f16> -> tensor<32x64x!tk.ptr<f16>, #bB>
    %bPtrs = tk.addptr %pb, %offB : tensor<32x64x!tk.ptr<f16>, #bB>, tensor<32x64xi32, #bB>
    %kp = arith.addi %K, %c31 : i32
    %n = arith.divsi %kp, %c32 : i32
    %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0, %pA = %aPtrs, %pB = %bPtrs) -> (tensor<64x64xf32, #mma>, tensor<64x32x!tk.ptr<f16>, #bA>, tensor<32x64x!tk.ptr<f16>, #bB>) : i32 {
      %kr = arith.muli %k, %c32 : i32
      %rem = arith.subi %K, %kr : i32
      %remA = tk.splat %rem : i32 -> tensor<1x32xi32, #bA>
      %mA1 = arith.cmpi slt, %rk2, %remA : tensor<1x32xi32, #bA>
      %mA = tk.broadcast %mA1 : tensor<1x32xi1, #bA> -> tensor<64x32xi1, #bA>
      %x = tk.load %pA, mask %mA, other %zeroA : tensor<64x32x!tk.ptr<f16>, #bA> -> tensor<64x32xf16, #bA>, tensor<64x32xi1, #bA>
      %remB = tk.splat %rem : i32 -> tensor<32x1xi32, #bB>
      %mB1 = arith.cmpi slt, %kb2, %remB : tensor<32x1xi32, #bB>
      %mB = tk.broadcast %mB1 : tensor<32x1xi1, #bB> -> tensor<32x64xi1, #bB>
      %y = tk.load %pB, mask %mB, other %zeroB : tensor<32x64x!tk.ptr<f16>, #bB> -> tensor<32x64xf16, #bB>, tensor<32x64xi1, #bB>
      %xs = tkgpu.local_alloc %x : tensor<64x32xf16, #bA> -> !tkgpu.memdesc<64x32xf16, #sh>
      %xo = tkgpu.local_load %xs : !tkgpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #dA>
      %yc = tkgpu.convert_layout %y : tensor<32x64xf16, #bB> -> tensor<32x64xf16, #bB2>
      %ys = tkgpu.local_alloc %yc : tensor<32x64xf16, #bB2> -> !tkgpu.memdesc<32x64xf16, #sh>
      %yo = tkgpu.local_load %ys : !tkgpu.memdesc<32x64xf16, #sh> -> tensor<32x64xf16, #dB>
      %d = tk.dot %xo, %yo, %acc : tensor<64x32xf16, #dA> * tensor<32x64xf16, #dB> -> tensor<64x64xf32, #mma>
      %stepA = tk.splat %c32 : i32 -> tensor<64x32xi32, #bA>
      %nA = tk.addptr %pA, %stepA : tensor<64x32x!tk.ptr<f16>, #bA>, tensor<64x32xi32, #bA>
      %stepB = arith.constant dense<2048> : tensor<32x64xi32, #bB>
      %nB = tk.addptr %pB, %stepB : tensor<32x64x!tk.ptr<f16>, #bB>, tensor<32x64xi32, #bB>
      scf.yield %d, %nA, %nB : tensor<64x64xf32, #mma>, tensor<64x32x!tk.ptr<f16>, #bA>, tensor<32x64x!tk.ptr<f16>, #bB>
    } {tk.num_stages = 1 : i32}
    return %r#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// cp.async fills masked lanes with zeros, not with 1.0: left alone.
// CHECK-LABEL: func.func @nonzero_other(
// S4-LABEL: func.func @nonzero_other(
// CHECK-NOT: tkgpu.async_copy_global_to_local
// CHECK: tk.load %{{.*}}, mask %{{.*}}, other %cst_
// CHECK: tkgpu.local_alloc %
// CHECK-NOT: tkgpu.async_copy_global_to_local

#bA = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#bB = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#bB2 = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tkgpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#dA = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#dB = #tkgpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
#sh = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
  func.func @nonzero_other(%a: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %b: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %K: i32 {tk.divisibility = 16 : i32}) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c31 = arith.constant 31 : i32
    %c32 = arith.constant 32 : i32
    %zeroA = arith.constant dense<0.0> : tensor<64x32xf16, #bA>
    %oneA = arith.constant dense<1.0> : tensor<64x32xf16, #bA>
    %zeroB = arith.constant dense<0.0> : tensor<32x64xf16, #bB>
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %rm = tk.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 1, parent = #bA}>>
    %rm2 = tk.expand_dims %rm {axis = 1 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 1, parent = #bA}>> -> tensor<64x1xi32, #bA>
    %sK = tk.splat %K : i32 -> tensor<64x1xi32, #bA>
    %rowOff = arith.muli %rm2, %sK : tensor<64x1xi32, #bA>
    %rk = tk.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tkgpu.slice<{dim = 0, parent = #bA}>>
    %rk2 = tk.expand_dims %rk {axis = 0 : i32} : tensor<32xi32, #tkgpu.slice<{dim = 0, parent = #bA}>> -> tensor<1x32xi32, #bA>
    %rowOffB = tk.broadcast %rowOff : tensor<64x1xi32, #bA> -> tensor<64x32xi32, #bA>
    %rkB = tk.broadcast %rk2 : tensor<1x32xi32, #bA> -> tensor<64x32xi32, #bA>
    %offA = arith.addi %rowOffB, %rkB : tensor<64x32xi32, #bA>
    %pa = tk.splat %a : !tk.ptr<f16> -> tensor<64x32x!tk.ptr<f16>, #bA>
    %aPtrs = tk.addptr %pa, %offA : tensor<64x32x!tk.ptr<f16>, #bA>, tensor<64x32xi32, #bA>
    %kb = tk.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tkgpu.slice<{dim = 1, parent = #bB}>>
    %kb2 = tk.expand_dims %kb {axis = 1 : i32} : tensor<32xi32, #tkgpu.slice<{dim = 1, parent = #bB}>> -> tensor<32x1xi32, #bB>
    %c64s = arith.constant dense<64> : tensor<32x1xi32, #bB>
    %kOff = arith.muli %kb2, %c64s : tensor<32x1xi32, #bB>
    %nb = tk.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 0, parent = #bB}>>
    %nb2 = tk.expand_dims %nb {axis = 0 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 0, parent = #bB}>> -> tensor<1x64xi32, #bB>
    %kOffB = tk.broadcast %kOff : tensor<32x1xi32, #bB> -> tensor<32x64xi32, #bB>
    %nbB = tk.broadcast %nb2 : tensor<1x64xi32, #bB> -> tensor<32x64xi32, #bB>
    %offB = arith.addi %kOffB, %nbB : tensor<32x64xi32, #bB>
    %pb = tk.splat %b : !tk.ptr<f16> -> tensor<32x64x!tk.ptr<f16>, #bB>
    %bPtrs = tk.addptr %pb, %offB : tensor<32x64x!tk.ptr<f16>, #bB>, tensor<32x64xi32, #bB>
    %kp = arith.addi %K, %c31 : i32
    %n = arith.divsi %kp, %c32 : i32
    %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0, %pA = %aPtrs, %pB = %bPtrs) -> (tensor<64x64xf32, #mma>, tensor<64x32x!tk.ptr<f16>, #bA>, tensor<32x64x!tk.ptr<f16>, #bB>) : i32 {
      %kr = arith.muli %k, %c32 : i32
      %rem = arith.subi %K, %kr : i32
      %remA = tk.splat %rem : i32 -> tensor<1x32xi32, #bA>
      %mA1 = arith.cmpi slt, %rk2, %remA : tensor<1x32xi32, #bA>
      %mA = tk.broadcast %mA1 : tensor<1x32xi1, #bA> -> tensor<64x32xi1, #bA>
      %x = tk.load %pA, mask %mA, other %oneA : tensor<64x32x!tk.ptr<f16>, #bA> -> tensor<64x32xf16, #bA>, tensor<64x32xi1, #bA>
      %remB = tk.splat %rem : i32 -> tensor<32x1xi32, #bB>
      %mB1 = arith.cmpi slt, %kb2, %remB : tensor<32x1xi32, #bB>
      %mB = tk.broadcast %mB1 : tensor<32x1xi1, #bB> -> tensor<32x64xi1, #bB>
      %y = tk.load %pB, mask %mB, other %zeroB : tensor<32x64x!tk.ptr<f16>, #bB> -> tensor<32x64xf16, #bB>, tensor<32x64xi1, #bB>
      %xs = tkgpu.local_alloc %x : tensor<64x32xf16, #bA> -> !tkgpu.memdesc<64x32xf16, #sh>
      %xo = tkgpu.local_load %xs : !tkgpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #dA>
      %yc = tkgpu.convert_layout %y : tensor<32x64xf16, #bB> -> tensor<32x64xf16, #bB2>
      %ys = tkgpu.local_alloc %yc : tensor<32x64xf16, #bB2> -> !tkgpu.memdesc<32x64xf16, #sh>
      %yo = tkgpu.local_load %ys : !tkgpu.memdesc<32x64xf16, #sh> -> tensor<32x64xf16, #dB>
      %d = tk.dot %xo, %yo, %acc : tensor<64x32xf16, #dA> * tensor<32x64xf16, #dB> -> tensor<64x64xf32, #mma>
      %stepA = tk.splat %c32 : i32 -> tensor<64x32xi32, #bA>
      %nA = tk.addptr %pA, %stepA : tensor<64x32x!tk.ptr<f16>, #bA>, tensor<64x32xi32, #bA>
      %stepB = arith.constant dense<2048> : tensor<32x64xi32, #bB>
      %nB = tk.addptr %pB, %stepB : tensor<32x64x!tk.ptr<f16>, #bB>, tensor<32x64xi32, #bB>
      scf.yield %d, %nA, %nB : tensor<64x64xf32, #mma>, tensor<64x32x!tk.ptr<f16>, #bA>, tensor<32x64x!tk.ptr<f16>, #bB>
    }
    return %r#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// K without divisibility: A's rows may start anywhere, so each f16 is its
// own 2-byte piece, which no cp.async moves: left alone.
// CHECK-LABEL: func.func @narrow_pieces(
// CHECK-NOT: tkgpu.async_copy_global_to_local
// CHECK: tk.load
// CHECK: tkgpu.local_alloc %
// CHECK-NOT: tkgpu.async_copy_global_to_local

#bA = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#bB = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#bB2 = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tkgpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#dA = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#dB = #tkgpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
#sh = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
  func.func @narrow_pieces(%a: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %b: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %K: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c31 = arith.constant 31 : i32
    %c32 = arith.constant 32 : i32
    %zeroA = arith.constant dense<0.0> : tensor<64x32xf16, #bA>
    %zeroB = arith.constant dense<0.0> : tensor<32x64xf16, #bB>
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %rm = tk.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 1, parent = #bA}>>
    %rm2 = tk.expand_dims %rm {axis = 1 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 1, parent = #bA}>> -> tensor<64x1xi32, #bA>
    %sK = tk.splat %K : i32 -> tensor<64x1xi32, #bA>
    %rowOff = arith.muli %rm2, %sK : tensor<64x1xi32, #bA>
    %rk = tk.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tkgpu.slice<{dim = 0, parent = #bA}>>
    %rk2 = tk.expand_dims %rk {axis = 0 : i32} : tensor<32xi32, #tkgpu.slice<{dim = 0, parent = #bA}>> -> tensor<1x32xi32, #bA>
    %rowOffB = tk.broadcast %rowOff : tensor<64x1xi32, #bA> -> tensor<64x32xi32, #bA>
    %rkB = tk.broadcast %rk2 : tensor<1x32xi32, #bA> -> tensor<64x32xi32, #bA>
    %offA = arith.addi %rowOffB, %rkB : tensor<64x32xi32, #bA>
    %pa = tk.splat %a : !tk.ptr<f16> -> tensor<64x32x!tk.ptr<f16>, #bA>
    %aPtrs = tk.addptr %pa, %offA : tensor<64x32x!tk.ptr<f16>, #bA>, tensor<64x32xi32, #bA>
    %kb = tk.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tkgpu.slice<{dim = 1, parent = #bB}>>
    %kb2 = tk.expand_dims %kb {axis = 1 : i32} : tensor<32xi32, #tkgpu.slice<{dim = 1, parent = #bB}>> -> tensor<32x1xi32, #bB>
    %c64s = arith.constant dense<64> : tensor<32x1xi32, #bB>
    %kOff = arith.muli %kb2, %c64s : tensor<32x1xi32, #bB>
    %nb = tk.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 0, parent = #bB}>>
    %nb2 = tk.expand_dims %nb {axis = 0 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 0, parent = #bB}>> -> tensor<1x64xi32, #bB>
    %kOffB = tk.broadcast %kOff : tensor<32x1xi32, #bB> -> tensor<32x64xi32, #bB>
    %nbB = tk.broadcast %nb2 : tensor<1x64xi32, #bB> -> tensor<32x64xi32, #bB>
    %offB = arith.addi %kOffB, %nbB : tensor<32x64xi32, #bB>
    %pb = tk.splat %b : !tk.ptr<f16> -> tensor<32x64x!tk.ptr<f16>, #bB>
    %bPtrs = tk.addptr %pb, %offB : tensor<32x64x!tk.ptr<f16>, #bB>, tensor<32x64xi32, #bB>
    %kp = arith.addi %K, %c31 : i32
    %n = arith.divsi %kp, %c32 : i32
    %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0, %pA = %aPtrs, %pB = %bPtrs) -> (tensor<64x64xf32, #mma>, tensor<64x32x!tk.ptr<f16>, #bA>, tensor<32x64x!tk.ptr<f16>, #bB>) : i32 {
      %kr = arith.muli %k, %c32 : i32
      %rem = arith.subi %K, %kr : i32
      %remA = tk.splat %rem : i32 -> tensor<1x32xi32, #bA>
      %mA1 = arith.cmpi slt, %rk2, %remA : tensor<1x32xi32, #bA>
      %mA = tk.broadcast %mA1 : tensor<1x32xi1, #bA> -> tensor<64x32xi1, #bA>
      %x = tk.load %pA, mask %mA, other %zeroA : tensor<64x32x!tk.ptr<f16>, #bA> -> tensor<64x32xf16, #bA>, tensor<64x32xi1, #bA>
      %remB = tk.splat %rem : i32 -> tensor<32x1xi32, #bB>
      %mB1 = arith.cmpi slt, %kb2, %remB : tensor<32x1xi32, #bB>
      %mB = tk.broadcast %mB1 : tensor<32x1xi1, #bB> -> tensor<32x64xi1, #bB>
      %y = tk.load %pB, mask %mB, other %zeroB : tensor<32x64x!tk.ptr<f16>, #bB> -> tensor<32x64xf16, #bB>, tensor<32x64xi1, #bB>
      %xs = tkgpu.local_alloc %x : tensor<64x32xf16, #bA> -> !tkgpu.memdesc<64x32xf16, #sh>
      %xo = tkgpu.local_load %xs : !tkgpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #dA>
      %yc = tkgpu.convert_layout %y : tensor<32x64xf16, #bB> -> tensor<32x64xf16, #bB2>
      %ys = tkgpu.local_alloc %yc : tensor<32x64xf16, #bB2> -> !tkgpu.memdesc<32x64xf16, #sh>
      %yo = tkgpu.local_load %ys : !tkgpu.memdesc<32x64xf16, #sh> -> tensor<32x64xf16, #dB>
      %d = tk.dot %xo, %yo, %acc : tensor<64x32xf16, #dA> * tensor<32x64xf16, #dB> -> tensor<64x64xf32, #mma>
      %stepA = tk.splat %c32 : i32 -> tensor<64x32xi32, #bA>
      %nA = tk.addptr %pA, %stepA : tensor<64x32x!tk.ptr<f16>, #bA>, tensor<64x32xi32, #bA>
      %stepB = arith.constant dense<2048> : tensor<32x64xi32, #bB>
      %nB = tk.addptr %pB, %stepB : tensor<32x64x!tk.ptr<f16>, #bB>, tensor<32x64xi32, #bB>
      scf.yield %d, %nA, %nB : tensor<64x64xf32, #mma>, tensor<64x32x!tk.ptr<f16>, #bA>, tensor<32x64x!tk.ptr<f16>, #bB>
    }
    return %r#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// The loop's A pointers are used after it: carrying the pointers of a later
// iteration would change them, so the loop is left alone.
// CHECK-LABEL: func.func @pointer_used_after_loop(
// CHECK-NOT: tkgpu.async_copy_global_to_local
// CHECK: tk.load
// CHECK: tkgpu.local_alloc %
// CHECK-NOT: tkgpu.async_copy_global_to_local

#bA = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#bB = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#bB2 = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tkgpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#dA = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#dB = #tkgpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
#sh = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
  func.func @pointer_used_after_loop(%a: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %b: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %K: i32 {tk.divisibility = 16 : i32}) -> (tensor<64x64xf32, #mma>, tensor<64x32x!tk.ptr<f16>, #bA>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c31 = arith.constant 31 : i32
    %c32 = arith.constant 32 : i32
    %zeroA = arith.constant dense<0.0> : tensor<64x32xf16, #bA>
    %zeroB = arith.constant dense<0.0> : tensor<32x64xf16, #bB>
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %rm = tk.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 1, parent = #bA}>>
    %rm2 = tk.expand_dims %rm {axis = 1 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 1, parent = #bA}>> -> tensor<64x1xi32, #bA>
    %sK = tk.splat %K : i32 -> tensor<64x1xi32, #bA>
    %rowOff = arith.muli %rm2, %sK : tensor<64x1xi32, #bA>
    %rk = tk.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tkgpu.slice<{dim = 0, parent = #bA}>>
    %rk2 = tk.expand_dims %rk {axis = 0 : i32} : tensor<32xi32, #tkgpu.slice<{dim = 0, parent = #bA}>> -> tensor<1x32xi32, #bA>
    %rowOffB = tk.broadcast %rowOff : tensor<64x1xi32, #bA> -> tensor<64x32xi32, #bA>
    %rkB = tk.broadcast %rk2 : tensor<1x32xi32, #bA> -> tensor<64x32xi32, #bA>
    %offA = arith.addi %rowOffB, %rkB : tensor<64x32xi32, #bA>
    %pa = tk.splat %a : !tk.ptr<f16> -> tensor<64x32x!tk.ptr<f16>, #bA>
    %aPtrs = tk.addptr %pa, %offA : tensor<64x32x!tk.ptr<f16>, #bA>, tensor<64x32xi32, #bA>
    %kb = tk.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tkgpu.slice<{dim = 1, parent = #bB}>>
    %kb2 = tk.expand_dims %kb {axis = 1 : i32} : tensor<32xi32, #tkgpu.slice<{dim = 1, parent = #bB}>> -> tensor<32x1xi32, #bB>
    %c64s = arith.constant dense<64> : tensor<32x1xi32, #bB>
    %kOff = arith.muli %kb2, %c64s : tensor<32x1xi32, #bB>
    %nb = tk.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 0, parent = #bB}>>
    %nb2 = tk.expand_dims %nb {axis = 0 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 0, parent = #bB}>> -> tensor<1x64xi32, #bB>
    %kOffB = tk.broadcast %kOff : tensor<32x1xi32, #bB> -> tensor<32x64xi32, #bB>
    %nbB = tk.broadcast %nb2 : tensor<1x64xi32, #bB> -> tensor<32x64xi32, #bB>
    %offB = arith.addi %kOffB, %nbB : tensor<32x64xi32, #bB>
    %pb = tk.splat %b : !tk.ptr<f16> -> tensor<32x64x!tk.ptr<f16>, #bB>
    %bPtrs = tk.addptr %pb, %offB : tensor<32x64x!tk.ptr<f16>, #bB>, tensor<32x64xi32, #bB>
    %kp = arith.addi %K, %c31 : i32
    %n = arith.divsi %kp, %c32 : i32
    %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0, %pA = %aPtrs, %pB = %bPtrs) -> (tensor<64x64xf32, #mma>, tensor<64x32x!tk.ptr<f16>, #bA>, tensor<32x64x!tk.ptr<f16>, #bB>) : i32 {
      %kr = arith.muli %k, %c32 : i32
      %rem = arith.subi %K, %kr : i32
      %remA = tk.splat %rem : i32 -> tensor<1x32xi32, #bA>
      %mA1 = arith.cmpi slt, %rk2, %remA : tensor<1x32xi32, #bA>
      %mA = tk.broadcast %mA1 : tensor<1x32xi1, #bA> -> tensor<64x32xi1, #bA>
      %x = tk.load %pA, mask %mA, other %zeroA : tensor<64x32x!tk.ptr<f16>, #bA> -> tensor<64x32xf16, #bA>, tensor<64x32xi1, #bA>
      %remB = tk.splat %rem : i32 -> tensor<32x1xi32, #bB>
      %mB1 = arith.cmpi slt, %kb2, %remB : tensor<32x1xi32, #bB>
      %mB = tk.broadcast %mB1 : tensor<32x1xi1, #bB> -> tensor<32x64xi1, #bB>
      %y = tk.load %pB, mask %mB, other %zeroB : tensor<32x64x!tk.ptr<f16>, #bB> -> tensor<32x64xf16, #bB>, tensor<32x64xi1, #bB>
      %xs = tkgpu.local_alloc %x : tensor<64x32xf16, #bA> -> !tkgpu.memdesc<64x32xf16, #sh>
      %xo = tkgpu.local_load %xs : !tkgpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #dA>
      %yc = tkgpu.convert_layout %y : tensor<32x64xf16, #bB> -> tensor<32x64xf16, #bB2>
      %ys = tkgpu.local_alloc %yc : tensor<32x64xf16, #bB2> -> !tkgpu.memdesc<32x64xf16, #sh>
      %yo = tkgpu.local_load %ys : !tkgpu.memdesc<32x64xf16, #sh> -> tensor<32x64xf16, #dB>
      %d = tk.dot %xo, %yo, %acc : tensor<64x32xf16, #dA> * tensor<32x64xf16, #dB> -> tensor<64x64xf32, #mma>
      %stepA = tk.splat %c32 : i32 -> tensor<64x32xi32, #bA>
      %nA = tk.addptr %pA, %stepA : tensor<64x32x!tk.ptr<f16>, #bA>, tensor<64x32xi32, #bA>
      %stepB = arith.constant dense<2048> : tensor<32x64xi32, #bB>
      %nB = tk.addptr %pB, %stepB : tensor<32x64x!tk.ptr<f16>, #bB>, tensor<32x64xi32, #bB>
      scf.yield %d, %nA, %nB : tensor<64x64xf32, #mma>, tensor<64x32x!tk.ptr<f16>, #bA>, tensor<32x64x!tk.ptr<f16>, #bB>
    }
    return %r#0, %r#1 : tensor<64x64xf32, #mma>, tensor<64x32x!tk.ptr<f16>, #bA>
  }
}

// -----

// for k in range(0, K, 32) on unsigned bounds: iterations exist while
// lb + j*step < ub, compared unsigned, and the fetch runs 3 steps ahead.
// CHECK-LABEL: func.func @unsigned_step(
// CHECK-SAME: %[[K:arg2]]: i32
// CHECK: %[[HAS0:.*]] = arith.cmpi ult, %[[LB:c0_i32]], %[[K]] : i32
// CHECK: tkgpu.async_commit_group
// CHECK: %[[D1:.*]] = arith.muli %[[STEP:c32_i32]], %{{.*}} : i32
// CHECK: %[[IV1:.*]] = arith.addi %[[LB]], %[[D1]] : i32
// CHECK: arith.cmpi ult, %[[IV1]], %[[K]] : i32
// CHECK: tkgpu.async_commit_group
// CHECK: tkgpu.async_commit_group
// CHECK: scf.for unsigned %[[IV:[^ ]*]] = %[[LB]] to %[[K]] step %[[STEP]]
// CHECK: %[[C3:.*]] = arith.constant 3 : i32
// CHECK: %[[D:.*]] = arith.muli %[[STEP]], %[[C3]] : i32
// CHECK: %[[IVF:.*]] = arith.addi %[[IV]], %[[D]] : i32
// CHECK: arith.cmpi ult, %[[IVF]], %[[K]] : i32

#bA = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#bB = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#bB2 = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tkgpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#dA = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#dB = #tkgpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
#sh = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
  func.func @unsigned_step(%a: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %b: !tk.ptr<f16> {tk.divisibility = 16 : i32}, %K: i32 {tk.divisibility = 16 : i32}) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c31 = arith.constant 31 : i32
    %c32 = arith.constant 32 : i32
    %zeroA = arith.constant dense<0.0> : tensor<64x32xf16, #bA>
    %zeroB = arith.constant dense<0.0> : tensor<32x64xf16, #bB>
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %rm = tk.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 1, parent = #bA}>>
    %rm2 = tk.expand_dims %rm {axis = 1 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 1, parent = #bA}>> -> tensor<64x1xi32, #bA>
    %sK = tk.splat %K : i32 -> tensor<64x1xi32, #bA>
    %rowOff = arith.muli %rm2, %sK : tensor<64x1xi32, #bA>
    %rk = tk.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tkgpu.slice<{dim = 0, parent = #bA}>>
    %rk2 = tk.expand_dims %rk {axis = 0 : i32} : tensor<32xi32, #tkgpu.slice<{dim = 0, parent = #bA}>> -> tensor<1x32xi32, #bA>
    %rowOffB = tk.broadcast %rowOff : tensor<64x1xi32, #bA> -> tensor<64x32xi32, #bA>
    %rkB = tk.broadcast %rk2 : tensor<1x32xi32, #bA> -> tensor<64x32xi32, #bA>
    %offA = arith.addi %rowOffB, %rkB : tensor<64x32xi32, #bA>
    %pa = tk.splat %a : !tk.ptr<f16> -> tensor<64x32x!tk.ptr<f16>, #bA>
    %aPtrs = tk.addptr %pa, %offA : tensor<64x32x!tk.ptr<f16>, #bA>, tensor<64x32xi32, #bA>
    %kb = tk.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tkgpu.slice<{dim = 1, parent = #bB}>>
    %kb2 = tk.expand_dims %kb {axis = 1 : i32} : tensor<32xi32, #tkgpu.slice<{dim = 1, parent = #bB}>> -> tensor<32x1xi32, #bB>
    %c64s = arith.constant dense<64> : tensor<32x1xi32, #bB>
    %kOff = arith.muli %kb2, %c64s : tensor<32x1xi32, #bB>
    %nb = tk.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 0, parent = #bB}>>
    %nb2 = tk.expand_dims %nb {axis = 0 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 0, parent = #bB}>> -> tensor<1x64xi32, #bB>
    %kOffB = tk.broadcast %kOff : tensor<32x1xi32, #bB> -> tensor<32x64xi32, #bB>
    %nbB = tk.broadcast %nb2 : tensor<1x64xi32, #bB> -> tensor<32x64xi32, #bB>
    %offB = arith.addi %kOffB, %nbB : tensor<32x64xi32, #bB>
    %pb = tk.splat %b : !tk.ptr<f16> -> tensor<32x64x!tk.ptr<f16>, #bB>
    %bPtrs = tk.addptr %pb, %offB : tensor<32x64x!tk.ptr<f16>, #bB>, tensor<32x64xi32, #bB>
    %kp = arith.addi %K, %c31 : i32
    %n = arith.divsi %kp, %c32 : i32
    %r:3 = scf.for unsigned %k = %c0 to %K step %c32 iter_args(%acc = %acc0, %pA = %aPtrs, %pB = %bPtrs) -> (tensor<64x64xf32, #mma>, tensor<64x32x!tk.ptr<f16>, #bA>, tensor<32x64x!tk.ptr<f16>, #bB>) : i32 {
      %kr = arith.addi %k, %c0 : i32
      %rem = arith.subi %K, %kr : i32
      %remA = tk.splat %rem : i32 -> tensor<1x32xi32, #bA>
      %mA1 = arith.cmpi slt, %rk2, %remA : tensor<1x32xi32, #bA>
      %mA = tk.broadcast %mA1 : tensor<1x32xi1, #bA> -> tensor<64x32xi1, #bA>
      %x = tk.load %pA, mask %mA, other %zeroA : tensor<64x32x!tk.ptr<f16>, #bA> -> tensor<64x32xf16, #bA>, tensor<64x32xi1, #bA>
      %remB = tk.splat %rem : i32 -> tensor<32x1xi32, #bB>
      %mB1 = arith.cmpi slt, %kb2, %remB : tensor<32x1xi32, #bB>
      %mB = tk.broadcast %mB1 : tensor<32x1xi1, #bB> -> tensor<32x64xi1, #bB>
      %y = tk.load %pB, mask %mB, other %zeroB : tensor<32x64x!tk.ptr<f16>, #bB> -> tensor<32x64xf16, #bB>, tensor<32x64xi1, #bB>
      %xs = tkgpu.local_alloc %x : tensor<64x32xf16, #bA> -> !tkgpu.memdesc<64x32xf16, #sh>
      %xo = tkgpu.local_load %xs : !tkgpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #dA>
      %yc = tkgpu.convert_layout %y : tensor<32x64xf16, #bB> -> tensor<32x64xf16, #bB2>
      %ys = tkgpu.local_alloc %yc : tensor<32x64xf16, #bB2> -> !tkgpu.memdesc<32x64xf16, #sh>
      %yo = tkgpu.local_load %ys : !tkgpu.memdesc<32x64xf16, #sh> -> tensor<32x64xf16, #dB>
      %d = tk.dot %xo, %yo, %acc : tensor<64x32xf16, #dA> * tensor<32x64xf16, #dB> -> tensor<64x64xf32, #mma>
      %stepA = tk.splat %c32 : i32 -> tensor<64x32xi32, #bA>
      %nA = tk.addptr %pA, %stepA : tensor<64x32x!tk.ptr<f16>, #bA>, tensor<64x32xi32, #bA>
      %stepB = arith.constant dense<2048> : tensor<32x64xi32, #bB>
      %nB = tk.addptr %pB, %stepB : tensor<32x64x!tk.ptr<f16>, #bB>, tensor<32x64xi32, #bB>
      scf.yield %d, %nA, %nB : tensor<64x64xf32, #mma>, tensor<64x32x!tk.ptr<f16>, #bA>, tensor<32x64x!tk.ptr<f16>, #bB>
    }
    return %r#0 : tensor<64x64xf32, #mma>
  }
}
