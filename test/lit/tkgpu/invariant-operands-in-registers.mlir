// RUN: tk-opt %s -split-input-file -tkgpu-invariant-operands-in-registers=always=true | FileCheck %s
// RUN: tk-opt %s -split-input-file -tkgpu-invariant-operands-in-registers | FileCheck %s --check-prefix=OFF
// RUN: tk-opt %s -split-input-file -tkgpu-invariant-operands-in-registers=automatic=true | FileCheck %s --check-prefix=AUTO
// RUN: tk-opt %s -split-input-file -tkgpu-invariant-operands-in-registers="automatic=true report=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// Attention's two key loops read Q (the A operand of Q K^T) from one
// shared buffer that neither loop writes: one local_load into the wgmma
// register-A layout before the first loop serves both; P @ V (A already
// in registers) and the B operands stay as they are.
#sa = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
#mma = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#opA = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
  // CHECK: #[[DOTOP:.*]] = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
  // CHECK-LABEL: func.func @two_loops
  // CHECK: %[[Q:.*]] = tkgpu.local_alloc
  // CHECK: %[[QR:.*]] = tkgpu.local_load %[[Q]] : !tkgpu.memdesc<64x64xf16, #{{.*}}> -> tensor<64x64xf16, #[[DOTOP]]>
  // CHECK-NEXT: scf.for
  // CHECK: tkgpu.warp_group_dot %[[QR]], %{{.*}}, %{{.*}} : tensor<64x64xf16,
  // CHECK: tkgpu.warp_group_dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x64xf16,
  // CHECK: scf.for
  // CHECK-NOT: tkgpu.local_load
  // CHECK: tkgpu.warp_group_dot %[[QR]], %{{.*}}, %{{.*}} : tensor<64x64xf16,
  // CHECK: return
  // OFF-LABEL: func.func @two_loops
  // OFF-NOT: tkgpu.local_load
  // OFF: tkgpu.warp_group_dot %{{.*}}, %{{.*}}, %{{.*}} : !tkgpu.memdesc<64x64xf16
  func.func @two_loops(%n: i32, %p: tensor<64x64x!tk.ptr<f32>, #mma>, %pv: tensor<64x64xf16, #opA>) attributes {tk.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %q = tkgpu.local_alloc !tkgpu.memdesc<64x64xf16, #sa>
    %k = tkgpu.local_alloc !tkgpu.memdesc<64x64xf16, #sa>
    %v = tkgpu.local_alloc !tkgpu.memdesc<64x64xf16, #sa>
    %a1 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %s = tkgpu.warp_group_dot %q, %k, %zero : !tkgpu.memdesc<64x64xf16, #sa> * !tkgpu.memdesc<64x64xf16, #sa> -> tensor<64x64xf32, #mma>
      %x = arith.addf %s, %acc : tensor<64x64xf32, #mma>
      %d = tkgpu.warp_group_dot %pv, %v, %x : tensor<64x64xf16, #opA> * !tkgpu.memdesc<64x64xf16, #sa> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    %a2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a1) -> (tensor<64x64xf32, #mma>) : i32 {
      %s = tkgpu.warp_group_dot %q, %k, %acc : !tkgpu.memdesc<64x64xf16, #sa> * !tkgpu.memdesc<64x64xf16, #sa> -> tensor<64x64xf32, #mma>
      scf.yield %s : tensor<64x64xf32, #mma>
    }
    tk.store %p, %a2 : tensor<64x64x!tk.ptr<f32>, #mma>, tensor<64x64xf32, #mma>
    return
  }
}

// -----

// Left in shared memory: an A buffer the loop writes (local_store into it,
// or through a view of it), one the loop defines (a multi-buffer slot), and
// a 32-bit A (tf32 wgmma takes A from shared memory only). In a nest, the
// load goes before the outer loop only when that loop does not write the
// buffer either.
#sa = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
#s3 = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [2, 1, 0]}>
#sf = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 32, order = [1, 0]}>
#mma = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>
#blocked = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
  // CHECK-LABEL: func.func @kept
  // CHECK: %[[W:.*]] = tkgpu.local_alloc
  // CHECK: %[[M:.*]] = tkgpu.local_alloc {{.*}}<2x64x64xf16
  // CHECK: %[[N:.*]] = tkgpu.local_alloc
  // CHECK: %[[F:.*]] = tkgpu.local_alloc {{.*}}<64x32xf32
  // CHECK: scf.for
  // CHECK: %[[NR:.*]] = tkgpu.local_load %[[N]]
  // CHECK-NEXT: scf.for
  // CHECK: tkgpu.warp_group_dot %[[W]], {{.*}} : !tkgpu.memdesc<64x64xf16
  // CHECK: tkgpu.local_store {{.*}}, %[[W]]
  // CHECK: %[[SLOT:.*]] = tkgpu.memdesc_index %[[M]]
  // CHECK: tkgpu.warp_group_dot %[[SLOT]], {{.*}} : !tkgpu.memdesc<64x64xf16
  // CHECK: tkgpu.warp_group_dot %[[F]], {{.*}} : !tkgpu.memdesc<64x32xf32
  // CHECK: tkgpu.warp_group_dot %[[NR]], {{.*}} : tensor<64x64xf16
  // CHECK: }
  // CHECK: tkgpu.local_store {{.*}}, %[[N]]
  func.func @kept(%n: i32, %t: tensor<64x64xf16, #blocked>, %p: tensor<64x64x!tk.ptr<f32>, #mma>) attributes {tk.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %w = tkgpu.local_alloc !tkgpu.memdesc<64x64xf16, #sa>
    %m = tkgpu.local_alloc !tkgpu.memdesc<2x64x64xf16, #s3>
    %nb = tkgpu.local_alloc !tkgpu.memdesc<64x64xf16, #sa>
    %f = tkgpu.local_alloc !tkgpu.memdesc<64x32xf32, #sf>
    %k = tkgpu.local_alloc !tkgpu.memdesc<64x64xf16, #sa>
    %kf = tkgpu.local_alloc !tkgpu.memdesc<32x64xf32, #sf>
    %r = scf.for %j = %c0 to %n step %c1 iter_args(%outer = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %a = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %outer) -> (tensor<64x64xf32, #mma>) : i32 {
        %s = tkgpu.warp_group_dot %w, %k, %acc : !tkgpu.memdesc<64x64xf16, #sa> * !tkgpu.memdesc<64x64xf16, #sa> -> tensor<64x64xf32, #mma>
        tkgpu.local_store %t, %w : tensor<64x64xf16, #blocked> -> !tkgpu.memdesc<64x64xf16, #sa>
        %slot = tkgpu.memdesc_index %m[%i] : !tkgpu.memdesc<2x64x64xf16, #s3> -> !tkgpu.memdesc<64x64xf16, #sa>
        %s2 = tkgpu.warp_group_dot %slot, %k, %s : !tkgpu.memdesc<64x64xf16, #sa> * !tkgpu.memdesc<64x64xf16, #sa> -> tensor<64x64xf32, #mma>
        %s3 = tkgpu.warp_group_dot %f, %kf, %s2 : !tkgpu.memdesc<64x32xf32, #sf> * !tkgpu.memdesc<32x64xf32, #sf> -> tensor<64x64xf32, #mma>
        %s4 = tkgpu.warp_group_dot %nb, %k, %s3 : !tkgpu.memdesc<64x64xf16, #sa> * !tkgpu.memdesc<64x64xf16, #sa> -> tensor<64x64xf32, #mma>
        scf.yield %s4 : tensor<64x64xf32, #mma>
      }
      tkgpu.local_store %t, %nb : tensor<64x64xf16, #blocked> -> !tkgpu.memdesc<64x64xf16, #sa>
      scf.yield %a : tensor<64x64xf32, #mma>
    }
    tk.store %p, %r : tensor<64x64x!tk.ptr<f32>, #mma>, tensor<64x64xf32, #mma>
    return
  }
}

// -----

// The automatic choice (`automatic`, tkc's default). Q K^T on 4 warps
// reads Q from one buffer and K from a 3-slot multi-buffer; the estimate
// of the loop's busiest point is the carried accumulator (64 x 64 f32 over
// 128 threads: 32 registers) with the new scores (32) and the index tensor
// converted to f32 (32), plus the copy of Q (64 x 64 f16 in the
// register-A layout: 16), so 112;
// with the reserve of 40 that fits the 248 registers a 128-thread program
// has (getEntryRegisters), and Q is loaded before the loop. The constant
// the loop reads from outside costs nothing, and the integer index tensor
// is left to the reserve.
#sa = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
#s3 = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [2, 1, 0]}>
#mma = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
  // REMARK: :[[@LINE+13]]:12: remark: invariant A in registers: yes (peak 112 registers with the copy's 16, reserve 40, budget 248; 3 slots of B, at least 3)
  // AUTO-LABEL: func.func @fits
  // AUTO: %[[QR:.*]] = tkgpu.local_load %{{.*}} -> tensor<64x64xf16,
  // AUTO-NEXT: scf.for
  // AUTO: tkgpu.warp_group_dot %[[QR]], %{{.*}} : tensor<64x64xf16,
  func.func @fits(%n: i32, %idx: tensor<64x64xi32, #mma>, %p: tensor<64x64x!tk.ptr<f32>, #mma>) attributes {tk.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %q = tkgpu.local_alloc !tkgpu.memdesc<64x64xf16, #sa>
    %k = tkgpu.local_alloc !tkgpu.memdesc<3x64x64xf16, #s3>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %slot = tkgpu.memdesc_index %k[%i] : !tkgpu.memdesc<3x64x64xf16, #s3> -> !tkgpu.memdesc<64x64xf16, #sa>
      %s = tkgpu.warp_group_dot %q, %slot, %zero : !tkgpu.memdesc<64x64xf16, #sa> * !tkgpu.memdesc<64x64xf16, #sa> -> tensor<64x64xf32, #mma>
      %f = arith.sitofp %idx : tensor<64x64xi32, #mma> to tensor<64x64xf32, #mma>
      %x = arith.addf %s, %acc : tensor<64x64xf32, #mma>
      %y = arith.addf %x, %f : tensor<64x64xf32, #mma>
      scf.yield %y : tensor<64x64xf32, #mma>
    }
    tk.store %p, %r : tensor<64x64x!tk.ptr<f32>, #mma>, tensor<64x64xf32, #mma>
    return
  }
}

// -----

// The same loop with two slots of K: left in shared memory (every kernel
// whose dots read B from two slots lost with the copy on the H200).
#sa = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
#s3 = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [2, 1, 0]}>
#mma = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
  // REMARK: :[[@LINE+12]]:12: remark: invariant A in registers: no (peak 48 registers with the copy's 16, reserve 40, budget 248; 2 slots of B, at least 3)
  // AUTO-LABEL: func.func @two_slots
  // AUTO-NOT: tkgpu.local_load
  // AUTO: tkgpu.warp_group_dot %{{.*}} : !tkgpu.memdesc<64x64xf16
  func.func @two_slots(%n: i32, %p: tensor<64x64x!tk.ptr<f32>, #mma>) attributes {tk.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %q = tkgpu.local_alloc !tkgpu.memdesc<64x64xf16, #sa>
    %k = tkgpu.local_alloc !tkgpu.memdesc<2x64x64xf16, #s3>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %slot = tkgpu.memdesc_index %k[%i] : !tkgpu.memdesc<2x64x64xf16, #s3> -> !tkgpu.memdesc<64x64xf16, #sa>
      %s = tkgpu.warp_group_dot %q, %slot, %acc : !tkgpu.memdesc<64x64xf16, #sa> * !tkgpu.memdesc<64x64xf16, #sa> -> tensor<64x64xf32, #mma>
      scf.yield %s : tensor<64x64xf32, #mma>
    }
    tk.store %p, %r : tensor<64x64x!tk.ptr<f32>, #mma>, tensor<64x64xf32, #mma>
    return
  }
}

// -----

// Three slots, but the loop runs in a consumer partition of 96 registers
// and carries four accumulators (128 registers): 144 with the copy, over
// 96 - 40. Left in shared memory.
#sa = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
#s3 = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [2, 1, 0]}>
#mma = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.total_num_warps = 8 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
  // REMARK: :[[@LINE+15]]:14: remark: invariant A in registers: no (peak 144 registers with the copy's 16, reserve 40, budget 96; 3 slots of B, at least 3)
  // AUTO-LABEL: func.func @over_budget
  // AUTO-NOT: tkgpu.local_load
  // AUTO: tkgpu.warp_group_dot %{{.*}} : !tkgpu.memdesc<64x64xf16
  func.func @over_budget(%n: i32, %p: tensor<64x64x!tk.ptr<f32>, #mma>) attributes {tk.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %q = tkgpu.local_alloc !tkgpu.memdesc<64x64xf16, #sa>
    %k = tkgpu.local_alloc !tkgpu.memdesc<3x64x64xf16, #s3>
    tkgpu.warp_specialize producer(registers = 40) {
      tkgpu.warp_yield
    } consumer(registers = 96) {
      %r:4 = scf.for %i = %c0 to %n step %c1 iter_args(%a0 = %zero, %a1 = %zero, %a2 = %zero, %a3 = %zero) -> (tensor<64x64xf32, #mma>, tensor<64x64xf32, #mma>, tensor<64x64xf32, #mma>, tensor<64x64xf32, #mma>) : i32 {
        %slot = tkgpu.memdesc_index %k[%i] : !tkgpu.memdesc<3x64x64xf16, #s3> -> !tkgpu.memdesc<64x64xf16, #sa>
        %s = tkgpu.warp_group_dot %q, %slot, %a0 : !tkgpu.memdesc<64x64xf16, #sa> * !tkgpu.memdesc<64x64xf16, #sa> -> tensor<64x64xf32, #mma>
        scf.yield %a1, %a2, %a3, %s : tensor<64x64xf32, #mma>, tensor<64x64xf32, #mma>, tensor<64x64xf32, #mma>, tensor<64x64xf32, #mma>
      }
      tk.store %p, %r#3 : tensor<64x64x!tk.ptr<f32>, #mma>, tensor<64x64xf32, #mma>
      tkgpu.warp_yield
    }
    return
  }
}
