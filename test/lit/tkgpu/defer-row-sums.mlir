// RUN: tk-opt %s -split-input-file -tkgpu-defer-row-sums | FileCheck %s

// The online softmax's running row sum over a wgmma accumulator of 64
// columns: the loop carries 64x8 partial sums in the 8-column wgmma
// layout (in the row sum's place), folds p's eight 8-column blocks into
// them with seven adds in column order (no reduce in the loop), and
// reduces them once after the loop. The zero start stays a zero constant.
#mma = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#rows = #tkgpu.slice<{dim = 1, parent = #mma}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
  // CHECK: #[[MMA8:.*]] = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]}>
  // CHECK: #[[ROWS:.*]] = #tkgpu.slice<{dim = 1, parent = #mma}>
  // CHECK: #[[ROWS8:.*]] = #tkgpu.slice<{dim = 1, parent = #[[MMA8]]}>
  // CHECK-LABEL: func.func @running_sum
  // CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<64x8xf32, #[[MMA8]]>
  // CHECK: %[[LOOP:.*]]:2 = scf.for {{.*}} iter_args(%[[LP:.*]] = %[[ZERO]], %[[M:.*]] = %{{.*}}) -> (tensor<64x8xf32, #[[MMA8]]>, tensor<64xf32, #[[ROWS]]>)
  // CHECK-NOT: tk.reduce sum
  // CHECK: tk.reduce max
  // CHECK-NOT: tk.reduce sum
  // CHECK: %[[B0:.*]] = tkgpu.extract_slice %[[P:.*]] at [0, 0] : tensor<64x64xf32, #mma> -> tensor<64x8xf32, #[[MMA8]]>
  // CHECK: %[[B1:.*]] = tkgpu.extract_slice %[[P]] at [0, 8]
  // CHECK: %[[F1:.*]] = arith.addf %[[B0]], %[[B1]] : tensor<64x8xf32, #[[MMA8]]>
  // CHECK: %[[B2:.*]] = tkgpu.extract_slice %[[P]] at [0, 16]
  // CHECK: %[[F2:.*]] = arith.addf %[[F1]], %[[B2]]
  // CHECK: tkgpu.extract_slice %[[P]] at [0, 24]
  // CHECK: tkgpu.extract_slice %[[P]] at [0, 32]
  // CHECK: tkgpu.extract_slice %[[P]] at [0, 40]
  // CHECK: tkgpu.extract_slice %[[P]] at [0, 48]
  // CHECK: %[[B7:.*]] = tkgpu.extract_slice %[[P]] at [0, 56]
  // CHECK: %[[F7:.*]] = arith.addf %{{.*}}, %[[B7]] : tensor<64x8xf32, #[[MMA8]]>
  // CHECK-NOT: tkgpu.convert_layout
  // CHECK: %[[AE:.*]] = tk.expand_dims %[[ALPHA:.*]] {axis = 1 : i32} : tensor<64xf32, #[[ROWS]]> -> tensor<64x1xf32, #mma>
  // CHECK: %[[AW:.*]] = tk.broadcast %[[AE]] : tensor<64x1xf32, #mma> -> tensor<64x64xf32, #mma>
  // CHECK: %[[AB:.*]] = tkgpu.extract_slice %[[AW]] at [0, 0] : tensor<64x64xf32, #mma> -> tensor<64x8xf32, #[[MMA8]]>
  // CHECK: %[[SC:.*]] = arith.mulf %[[LP]], %[[AB]]
  // CHECK: %[[NEW:.*]] = arith.addf %[[SC]], %[[F7]] : tensor<64x8xf32, #[[MMA8]]>
  // CHECK: scf.yield %[[NEW]], %{{.*}} : tensor<64x8xf32, #[[MMA8]]>, tensor<64xf32, #[[ROWS]]>
  // CHECK: %[[TOT:.*]] = tk.reduce sum %[[LOOP]]#0 {axis = 1 : i32} : tensor<64x8xf32, #[[MMA8]]> -> tensor<64xf32, #[[ROWS8]]>
  // CHECK: %[[BACK:.*]] = tkgpu.convert_layout %[[TOT]] : tensor<64xf32, #[[ROWS8]]> -> tensor<64xf32, #[[ROWS]]>
  // CHECK: return %[[BACK]]
  func.func @running_sum(%n: i32, %s: tensor<64x64xf32, #mma>) -> tensor<64xf32, #rows> attributes {tk.kernel} {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.0> : tensor<64xf32, #rows>
    %ninf = arith.constant dense<0xFF800000> : tensor<64xf32, #rows>
    %r:2 = scf.for %i = %c0 to %n step %c64 iter_args(%l = %zero, %m = %ninf) -> (tensor<64xf32, #rows>, tensor<64xf32, #rows>) : i32 {
      %mx = tk.reduce max %s {axis = 1 : i32} : tensor<64x64xf32, #mma> -> tensor<64xf32, #rows>
      %mnew = arith.maximumf %m, %mx : tensor<64xf32, #rows>
      %me = tk.expand_dims %mnew {axis = 1 : i32} : tensor<64xf32, #rows> -> tensor<64x1xf32, #mma>
      %mb = tk.broadcast %me : tensor<64x1xf32, #mma> -> tensor<64x64xf32, #mma>
      %d = arith.subf %s, %mb : tensor<64x64xf32, #mma>
      %p = math.exp2 %d : tensor<64x64xf32, #mma>
      %dm = arith.subf %m, %mnew : tensor<64xf32, #rows>
      %alpha = math.exp2 %dm : tensor<64xf32, #rows>
      %scaled = arith.mulf %l, %alpha : tensor<64xf32, #rows>
      %ps = tk.reduce sum %p {axis = 1 : i32} : tensor<64x64xf32, #mma> -> tensor<64xf32, #rows>
      %lnew = arith.addf %scaled, %ps : tensor<64xf32, #rows>
      scf.yield %lnew, %mnew : tensor<64xf32, #rows>, tensor<64xf32, #rows>
    }
    return %r#0 : tensor<64xf32, #rows>
  }
}

// -----

// A start that is not zero (the second key loop of causal attention
// continues from the first): each of the 8 columns starts at l0 / 8.
// mma.sync's layout (version 2, 16x8 instructions) keeps its encoding.
#mma = #tkgpu.mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#rows = #tkgpu.slice<{dim = 1, parent = #mma}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
  // CHECK: #[[VROWS:.*]] = #tkgpu.slice<{dim = 1, parent = #mma}>
  // CHECK-LABEL: func.func @continued_sum
  // CHECK: %[[EIGHTH:.*]] = arith.constant dense<1.250000e-01> : tensor<64xf32, #[[VROWS]]>
  // CHECK: %[[PART:.*]] = arith.mulf %[[L0:.*]], %[[EIGHTH]]
  // CHECK: %[[EXP:.*]] = tk.expand_dims %[[PART]]
  // CHECK: %[[WIDE:.*]] = tk.broadcast %[[EXP]] : tensor<64x1xf32, #mma> -> tensor<64x32xf32, #mma>
  // CHECK: %[[INIT:.*]] = tkgpu.extract_slice %[[WIDE]] at [0, 0] : tensor<64x32xf32, #mma> -> tensor<64x8xf32, #mma>
  // CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[INIT]]) -> (tensor<64x8xf32, #mma>)
  // CHECK-COUNT-4: tkgpu.extract_slice %arg
  // CHECK-NOT: tk.reduce
  // CHECK: scf.yield
  // CHECK: %[[TOT:.*]] = tk.reduce sum %{{.*}} {axis = 1 : i32} : tensor<64x8xf32, #mma>
  // CHECK-NEXT: return %[[TOT]]
  func.func @continued_sum(%n: i32, %l0: tensor<64xf32, #rows>, %p: tensor<64x32xf32, #mma>, %alpha: tensor<64xf32, #rows>) -> tensor<64xf32, #rows> attributes {tk.kernel} {
    %c0 = arith.constant 0 : i32
    %c32 = arith.constant 32 : i32
    %r = scf.for %i = %c0 to %n step %c32 iter_args(%l = %l0) -> (tensor<64xf32, #rows>) : i32 {
      %ps = tk.reduce sum %p {axis = 1 : i32} : tensor<64x32xf32, #mma> -> tensor<64xf32, #rows>
      %scaled = arith.mulf %alpha, %l : tensor<64xf32, #rows>
      %lnew = arith.addf %ps, %scaled : tensor<64xf32, #rows>
      scf.yield %lnew : tensor<64xf32, #rows>
    }
    return %r : tensor<64xf32, #rows>
  }
}

// -----

// Left alone: the running value read elsewhere in the loop (it must be
// whole in every iteration), a block of only 8 columns (nothing to fold),
// and a blocked layout (no 8-column form).
#mma = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#mma8 = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]}>
#rows = #tkgpu.slice<{dim = 1, parent = #mma}>
#rows8 = #tkgpu.slice<{dim = 1, parent = #mma8}>
#blocked = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#brows = #tkgpu.slice<{dim = 1, parent = #blocked}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
  // CHECK-LABEL: func.func @read_elsewhere
  // CHECK-NOT: tkgpu.extract_slice
  // CHECK: tk.reduce sum %{{.*}} {axis = 1 : i32} : tensor<64x64xf32, #mma>
  // CHECK: scf.yield
  func.func @read_elsewhere(%n: i32, %p: tensor<64x64xf32, #mma>, %alpha: tensor<64xf32, #rows>, %out: tensor<64x!tk.ptr<f32>, #rows>) -> tensor<64xf32, #rows> attributes {tk.kernel} {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.0> : tensor<64xf32, #rows>
    %r = scf.for %i = %c0 to %n step %c64 iter_args(%l = %zero) -> (tensor<64xf32, #rows>) : i32 {
      tk.store %out, %l : tensor<64x!tk.ptr<f32>, #rows>, tensor<64xf32, #rows>
      %ps = tk.reduce sum %p {axis = 1 : i32} : tensor<64x64xf32, #mma> -> tensor<64xf32, #rows>
      %scaled = arith.mulf %l, %alpha : tensor<64xf32, #rows>
      %lnew = arith.addf %scaled, %ps : tensor<64xf32, #rows>
      scf.yield %lnew : tensor<64xf32, #rows>
    }
    return %r : tensor<64xf32, #rows>
  }
  // CHECK-LABEL: func.func @eight_columns
  // CHECK-NOT: tkgpu.extract_slice
  // CHECK: tk.reduce sum %{{.*}} {axis = 1 : i32} : tensor<64x8xf32, #mma1>
  // CHECK: scf.yield
  func.func @eight_columns(%n: i32, %p: tensor<64x8xf32, #mma8>, %alpha: tensor<64xf32, #rows8>) -> tensor<64xf32, #rows8> attributes {tk.kernel} {
    %c0 = arith.constant 0 : i32
    %c8 = arith.constant 8 : i32
    %zero = arith.constant dense<0.0> : tensor<64xf32, #rows8>
    %r = scf.for %i = %c0 to %n step %c8 iter_args(%l = %zero) -> (tensor<64xf32, #rows8>) : i32 {
      %ps = tk.reduce sum %p {axis = 1 : i32} : tensor<64x8xf32, #mma8> -> tensor<64xf32, #rows8>
      %scaled = arith.mulf %l, %alpha : tensor<64xf32, #rows8>
      %lnew = arith.addf %scaled, %ps : tensor<64xf32, #rows8>
      scf.yield %lnew : tensor<64xf32, #rows8>
    }
    return %r : tensor<64xf32, #rows8>
  }
  // CHECK-LABEL: func.func @blocked
  // CHECK-NOT: tkgpu.extract_slice
  // CHECK: tk.reduce sum %{{.*}} {axis = 1 : i32} : tensor<64x32xf32, #blocked>
  // CHECK: scf.yield
  func.func @blocked(%n: i32, %p: tensor<64x32xf32, #blocked>, %alpha: tensor<64xf32, #brows>) -> tensor<64xf32, #brows> attributes {tk.kernel} {
    %c0 = arith.constant 0 : i32
    %c32 = arith.constant 32 : i32
    %zero = arith.constant dense<0.0> : tensor<64xf32, #brows>
    %r = scf.for %i = %c0 to %n step %c32 iter_args(%l = %zero) -> (tensor<64xf32, #brows>) : i32 {
      %ps = tk.reduce sum %p {axis = 1 : i32} : tensor<64x32xf32, #blocked> -> tensor<64xf32, #brows>
      %scaled = arith.mulf %l, %alpha : tensor<64xf32, #brows>
      %lnew = arith.addf %scaled, %ps : tensor<64xf32, #brows>
      scf.yield %lnew : tensor<64xf32, #brows>
    }
    return %r : tensor<64xf32, #brows>
  }
}

// -----

// Left alone: a loop that carries a dot computed afresh (attention's
// AHEAD order: the next block's scores in flight across the back edge),
// where the partial sums' registers were measured to spill.
#mma = #tkgpu.mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#rows = #tkgpu.slice<{dim = 1, parent = #mma}>
#opa = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#opb = #tkgpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
  // CHECK-LABEL: func.func @scores_ahead
  // CHECK-NOT: tkgpu.extract_slice
  // CHECK: tk.reduce sum %{{.*}} {axis = 1 : i32} : tensor<64x32xf32, #mma>
  // CHECK: scf.yield
  func.func @scores_ahead(%n: i32, %q: tensor<64x16xf16, #opa>, %k: tensor<16x32xf16, #opb>, %s0: tensor<64x32xf32, #mma>, %alpha: tensor<64xf32, #rows>) -> tensor<64xf32, #rows> attributes {tk.kernel} {
    %c0 = arith.constant 0 : i32
    %c32 = arith.constant 32 : i32
    %zero = arith.constant dense<0.0> : tensor<64xf32, #rows>
    %zacc = arith.constant dense<0.0> : tensor<64x32xf32, #mma>
    %r:2 = scf.for %i = %c0 to %n step %c32 iter_args(%l = %zero, %s = %s0) -> (tensor<64xf32, #rows>, tensor<64x32xf32, #mma>) : i32 {
      %next = tk.dot %q, %k, %zacc : tensor<64x16xf16, #opa> * tensor<16x32xf16, #opb> -> tensor<64x32xf32, #mma>
      %p = math.exp2 %s : tensor<64x32xf32, #mma>
      %ps = tk.reduce sum %p {axis = 1 : i32} : tensor<64x32xf32, #mma> -> tensor<64xf32, #rows>
      %scaled = arith.mulf %l, %alpha : tensor<64xf32, #rows>
      %lnew = arith.addf %scaled, %ps : tensor<64xf32, #rows>
      scf.yield %lnew, %next : tensor<64xf32, #rows>, tensor<64x32xf32, #mma>
    }
    return %r#0 : tensor<64xf32, #rows>
  }
}
