// RUN: tk-opt %s -split-input-file -allow-unregistered-dialect -tkgpu-accelerate-matmul=mma-version=2 -tkgpu-remove-layout-conversions -canonicalize -cse | FileCheck %s
// mma.sync (v2); mma-version=2 keeps it on sm_90a too (wgmma:
// accelerate-matmul-wgmma.mlir).

#la = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#lb = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#lc = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>

// The matmul loop, f16: 4 warps on 128x128 split into 64x64 warp tiles
// ([2, 2]); A (128x32, rows of 64 bytes) swizzled with 2 rows per phase
// and 4 phases, B (32x128, rows of 256 bytes) with 8 phases; the loop
// carries the accumulator in #mma, with no conversion inside; the epilogue
// (leaky ReLU, truncation) runs on #mma and one conversion feeds the store.
// CHECK-DAG: #[[MMA:.*]] = #tkgpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-DAG: #[[SA:.*]] = #tkgpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
// CHECK-DAG: #[[SB:.*]] = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-DAG: #[[OA:.*]] = #tkgpu.dot_operand<{opIdx = 0, parent = #[[MMA]], kWidth = 2}>
// CHECK-DAG: #[[OB:.*]] = #tkgpu.dot_operand<{opIdx = 1, parent = #[[MMA]], kWidth = 2}>
// CHECK-LABEL: func.func @matmul_loop
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #[[MMA]]>
// CHECK: %[[LOOP:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (tensor<128x128xf32, #[[MMA]]>)
// CHECK-NOT: convert_layout
// CHECK: %[[MA:.*]] = tkgpu.local_alloc %{{.*}} : tensor<128x32xf16, #{{.*}}> -> !tkgpu.memdesc<128x32xf16, #[[SA]]>
// CHECK-NEXT: %[[A:.*]] = tkgpu.local_load %[[MA]] : !tkgpu.memdesc<128x32xf16, #[[SA]]> -> tensor<128x32xf16, #[[OA]]>
// CHECK-NEXT: %[[MB:.*]] = tkgpu.local_alloc %{{.*}} : tensor<32x128xf16, #{{.*}}> -> !tkgpu.memdesc<32x128xf16, #[[SB]]>
// CHECK-NEXT: %[[B:.*]] = tkgpu.local_load %[[MB]] : !tkgpu.memdesc<32x128xf16, #[[SB]]> -> tensor<32x128xf16, #[[OB]]>
// CHECK-NOT: convert_layout
// CHECK-NEXT: %[[D:.*]] = tk.dot %[[A]], %[[B]], %[[ACC]] : tensor<128x32xf16, #[[OA]]> * tensor<32x128xf16, #[[OB]]> -> tensor<128x128xf32, #[[MMA]]>
// CHECK-NEXT: scf.yield %[[D]] : tensor<128x128xf32, #[[MMA]]>
// CHECK: arith.cmpf oge, %[[LOOP]], %{{.*}} : tensor<128x128xf32, #[[MMA]]>
// CHECK: arith.select {{.*}} : tensor<128x128xi1, #[[MMA]]>, tensor<128x128xf32, #[[MMA]]>
// CHECK: %[[H:.*]] = arith.truncf {{.*}} : tensor<128x128xf32, #[[MMA]]> to tensor<128x128xf16, #[[MMA]]>
// CHECK: %[[HS:.*]] = tkgpu.convert_layout %[[H]] : tensor<128x128xf16, #[[MMA]]> -> tensor<128x128xf16, #{{.*}}>
// CHECK-NOT: convert_layout
// CHECK: tk.store %{{.*}}, %[[HS]]
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
  func.func @matmul_loop(%pa: tensor<128x32x!tk.ptr<f16>, #la>, %pb: tensor<32x128x!tk.ptr<f16>, #lb>, %pc: tensor<128x128x!tk.ptr<f16>, #lc>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<128x128xf32, #lc>
    %slope = arith.constant dense<0.01> : tensor<128x128xf32, #lc>
    %acc = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x128xf32, #lc>) : i32 {
      %a = tk.load %pa : tensor<128x32x!tk.ptr<f16>, #la> -> tensor<128x32xf16, #la>
      %b = tk.load %pb : tensor<32x128x!tk.ptr<f16>, #lb> -> tensor<32x128xf16, #lb>
      %a2 = tkgpu.convert_layout %a : tensor<128x32xf16, #la> -> tensor<128x32xf16, #lc>
      %b2 = tkgpu.convert_layout %b : tensor<32x128xf16, #lb> -> tensor<32x128xf16, #lc>
      %d = tk.dot %a2, %b2, %acc : tensor<128x32xf16, #lc> * tensor<32x128xf16, #lc> -> tensor<128x128xf32, #lc>
      scf.yield %d : tensor<128x128xf32, #lc>
    }
    %pos = arith.cmpf oge, %acc, %zero : tensor<128x128xf32, #lc>
    %neg = arith.mulf %acc, %slope : tensor<128x128xf32, #lc>
    %act = arith.select %pos, %acc, %neg : tensor<128x128xi1, #lc>, tensor<128x128xf32, #lc>
    %h = arith.truncf %act : tensor<128x128xf32, #lc> to tensor<128x128xf16, #lc>
    tk.store %pc, %h : tensor<128x128x!tk.ptr<f16>, #lc>, tensor<128x128xf16, #lc>
    return
  }
}

// -----

#l = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#lt = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>

// bf16: kWidth 2. 64x16 on 4 warps: [4, 1] (16x16 warp tiles). B arrives
// K-contiguous (order [0, 1], a column-major B): its shared layout keeps
// that order (columns of 32 K, 64 bytes: 2 per bank line, 4 phases).
// CHECK-DAG: #[[MMA:.*]] = #tkgpu.mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
// CHECK-DAG: #[[SB:.*]] = #tkgpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [0, 1]}>
// CHECK-DAG: #[[OA:.*]] = #tkgpu.dot_operand<{opIdx = 0, parent = #[[MMA]], kWidth = 2}>
// CHECK-DAG: #[[OB:.*]] = #tkgpu.dot_operand<{opIdx = 1, parent = #[[MMA]], kWidth = 2}>
// CHECK-LABEL: func.func @bf16_k_contiguous_b
// CHECK: tkgpu.local_alloc %{{.*}} : tensor<32x16xbf16, #{{.*}}> -> !tkgpu.memdesc<32x16xbf16, #[[SB]]>
// CHECK: tk.dot {{.*}} : tensor<64x32xbf16, #[[OA]]> * tensor<32x16xbf16, #[[OB]]> -> tensor<64x16xf32, #[[MMA]]>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
  func.func @bf16_k_contiguous_b(%a: tensor<64x32xbf16, #l>, %b: tensor<32x16xbf16, #lt>, %c: tensor<64x16xf32, #l>) -> tensor<64x16xf32, #l> {
    %d = tk.dot %a, %b, %c : tensor<64x32xbf16, #l> * tensor<32x16xbf16, #lt> -> tensor<64x16xf32, #l>
    return %d : tensor<64x16xf32, #l>
  }
}

// -----

#l = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>

// f32 with the default precision (tf32): kWidth 1, 4-element vectors; M =
// 128, N = 16 gives [4, 1]. i8: kWidth 4, 16-element vectors, an i32
// accumulator; 64x32 gives [4, 1] too (M first on ties: 16x32 warp tiles).
// CHECK-DAG: #[[S32:.*]] = #tkgpu.shared<{vec = 4, perPhase = 2, maxPhase = 4, order = [1, 0]}>
// CHECK-DAG: #[[S8:.*]] = #tkgpu.shared<{vec = 16, perPhase = 2, maxPhase = 4, order = [1, 0]}>
// CHECK-DAG: #[[M41:.*]] = #tkgpu.mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
// CHECK-DAG: #[[TA:.*]] = #tkgpu.dot_operand<{opIdx = 0, parent = #[[M41]], kWidth = 1}>
// CHECK-DAG: #[[IA:.*]] = #tkgpu.dot_operand<{opIdx = 0, parent = #[[M41]], kWidth = 4}>
// CHECK-DAG: #[[IB:.*]] = #tkgpu.dot_operand<{opIdx = 1, parent = #[[M41]], kWidth = 4}>
// CHECK-LABEL: func.func @tf32
// CHECK: tkgpu.local_alloc {{.*}} -> !tkgpu.memdesc<128x16xf32, #[[S32]]>
// CHECK: tk.dot {{.*}} : tensor<128x16xf32, #[[TA]]> * {{.*}} -> tensor<128x16xf32, #[[M41]]>
// CHECK-LABEL: func.func @i8
// CHECK: tkgpu.local_alloc {{.*}} -> !tkgpu.memdesc<64x64xi8, #[[S8]]>
// CHECK: tk.dot {{.*}} : tensor<64x64xi8, #[[IA]]> * tensor<64x32xi8, #[[IB]]> -> tensor<64x32xi32, #[[M41]]>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
  func.func @tf32(%a: tensor<128x16xf32, #l>, %b: tensor<16x16xf32, #l>, %c: tensor<128x16xf32, #l>) -> tensor<128x16xf32, #l> {
    %d = tk.dot %a, %b, %c : tensor<128x16xf32, #l> * tensor<16x16xf32, #l> -> tensor<128x16xf32, #l>
    return %d : tensor<128x16xf32, #l>
  }
  func.func @i8(%a: tensor<64x64xi8, #l>, %b: tensor<64x32xi8, #l>, %c: tensor<64x32xi32, #l>) -> tensor<64x32xi32, #l> {
    %d = tk.dot %a, %b, %c : tensor<64x64xi8, #l> * tensor<64x32xi8, #l> -> tensor<64x32xi32, #l>
    return %d : tensor<64x32xi32, #l>
  }
}

// -----

#l = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>

// tf32x3: each operand loaded once and split into big (tf32-rounded bits)
// and small = x - big; three tf32 dots, the small terms first.
// CHECK-LABEL: func.func @tf32x3
// CHECK-DAG: %[[ROUND:.*]] = arith.constant dense<4096> : tensor<64x32xi32
// CHECK-DAG: %[[MASK:.*]] = arith.constant dense<-8192> : tensor<64x32xi32
// CHECK-COUNT-2: tkgpu.local_load
// CHECK-NOT: tkgpu.local_load
// CHECK: %[[ABITS:.*]] = arith.bitcast %[[A:.*]] : tensor<64x32xf32, #{{.*}}> to tensor<64x32xi32
// CHECK: %[[AR:.*]] = arith.addi %[[ABITS]], %[[ROUND]]
// CHECK: %[[ABB:.*]] = arith.andi %[[AR]], %[[MASK]]
// CHECK: %[[ABIG:.*]] = arith.bitcast %[[ABB]]
// CHECK: %[[ASMALL:.*]] = arith.subf %[[A]], %[[ABIG]]
// CHECK: %[[BBIG:.*]] = arith.bitcast %{{.*}} : tensor<32x32xi32, #{{.*}}> to tensor<32x32xf32
// CHECK: %[[BSMALL:.*]] = arith.subf %{{.*}}, %[[BBIG]]
// CHECK: %[[D1:.*]] = tk.dot %[[ASMALL]], %[[BBIG]], %{{.*}} :
// CHECK: %[[D2:.*]] = tk.dot %[[ABIG]], %[[BSMALL]], %[[D1]] :
// CHECK: %[[D3:.*]] = tk.dot %[[ABIG]], %[[BBIG]], %[[D2]] :
// CHECK-NOT: tk.dot
// CHECK: tkgpu.convert_layout %[[D3]]
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
  func.func @tf32x3(%a: tensor<64x32xf32, #l>, %b: tensor<32x32xf32, #l>, %c: tensor<64x32xf32, #l>) -> tensor<64x32xf32, #l> {
    %d = tk.dot %a, %b, %c precision = tf32x3 : tensor<64x32xf32, #l> * tensor<32x32xf32, #l> -> tensor<64x32xf32, #l>
    return %d : tensor<64x32xf32, #l>
  }
}

// -----

#l = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>

// Left on the FMA path: precision ieee, f64, an f16 accumulator, a tile
// too small for one 16x8 tile per warp (16x16 on 4 warps), K below one
// instruction (f16, K = 8).
// CHECK-LABEL: func.func @untouched
// CHECK-NOT: tkgpu.mma
// CHECK-NOT: local_alloc
// CHECK-COUNT-5: tk.dot {{.*}} -> tensor<{{.*}}, #blocked>
// CHECK-NOT: tkgpu.mma
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
  func.func @untouched(%a: tensor<64x32xf32, #l>, %b: tensor<32x32xf32, #l>, %c: tensor<64x32xf32, #l>,
                       %a64: tensor<64x32xf64, #l>, %b64: tensor<32x32xf64, #l>, %c64: tensor<64x32xf64, #l>,
                       %ah: tensor<64x32xf16, #l>, %bh: tensor<32x32xf16, #l>, %ch: tensor<64x32xf16, #l>,
                       %as: tensor<16x16xf16, #l>, %bs: tensor<16x16xf16, #l>, %cs: tensor<16x16xf32, #l>,
                       %ak: tensor<64x8xf16, #l>, %bk: tensor<8x32xf16, #l>, %ck: tensor<64x32xf32, #l>) {
    %d0 = tk.dot %a, %b, %c precision = ieee : tensor<64x32xf32, #l> * tensor<32x32xf32, #l> -> tensor<64x32xf32, #l>
    %d1 = tk.dot %a64, %b64, %c64 : tensor<64x32xf64, #l> * tensor<32x32xf64, #l> -> tensor<64x32xf64, #l>
    %d2 = tk.dot %ah, %bh, %ch : tensor<64x32xf16, #l> * tensor<32x32xf16, #l> -> tensor<64x32xf16, #l>
    %d3 = tk.dot %as, %bs, %cs : tensor<16x16xf16, #l> * tensor<16x16xf16, #l> -> tensor<16x16xf32, #l>
    %d4 = tk.dot %ak, %bk, %ck : tensor<64x8xf16, #l> * tensor<8x32xf16, #l> -> tensor<64x32xf32, #l>
    "test.use"(%d0, %d1, %d2, %d3, %d4) : (tensor<64x32xf32, #l>, tensor<64x32xf64, #l>, tensor<64x32xf16, #l>, tensor<16x16xf32, #l>, tensor<64x32xf32, #l>) -> ()
    return
  }
}

// -----

#l = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>

// sm_75 has no m16n8k16 for these types in our lowering: untouched.
// CHECK-LABEL: func.func @sm75
// CHECK-NOT: tkgpu.mma
// CHECK: tk.dot {{.*}} -> tensor<64x32xf32, #blocked>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_75"} {
  func.func @sm75(%a: tensor<64x32xf16, #l>, %b: tensor<32x32xf16, #l>, %c: tensor<64x32xf32, #l>) -> tensor<64x32xf32, #l> {
    %d = tk.dot %a, %b, %c : tensor<64x32xf16, #l> * tensor<32x32xf16, #l> -> tensor<64x32xf32, #l>
    return %d : tensor<64x32xf32, #l>
  }
}

// -----

#la = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#lb = #tkgpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#lc = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>

// A loop-invariant operand (attention's Q, loaded before the K loop) is
// staged in shared memory and read into dot_operand registers once, before
// the loop; only the loop-varying B goes through shared memory per
// iteration.
// CHECK-DAG: #[[OA:.*]] = #tkgpu.dot_operand<{opIdx = 0, parent = #{{.*}}, kWidth = 2}>
// CHECK-LABEL: func.func @invariant_operand
// CHECK: %[[Q:.*]] = tk.load
// CHECK-NEXT: %[[MQ:.*]] = tkgpu.local_alloc %[[Q]]
// CHECK-NEXT: %[[A:.*]] = tkgpu.local_load %[[MQ]] : {{.*}} -> tensor<128x64xf16, #[[OA]]>
// CHECK: scf.for
// CHECK-NOT: local_alloc %[[Q]]
// CHECK: %[[MB:.*]] = tkgpu.local_alloc
// CHECK-NEXT: %[[B:.*]] = tkgpu.local_load %[[MB]]
// CHECK-NEXT: tk.dot %[[A]], %[[B]]
// CHECK: scf.yield
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
  func.func @invariant_operand(%pq: tensor<128x64x!tk.ptr<f16>, #la>, %pk: tensor<64x64x!tk.ptr<f16>, #lb>, %po: tensor<128x64x!tk.ptr<f32>, #lc>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<128x64xf32, #lc>
    %q = tk.load %pq : tensor<128x64x!tk.ptr<f16>, #la> -> tensor<128x64xf16, #la>
    %q2 = tkgpu.convert_layout %q : tensor<128x64xf16, #la> -> tensor<128x64xf16, #lc>
    %acc = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x64xf32, #lc>) : i32 {
      %k = tk.load %pk : tensor<64x64x!tk.ptr<f16>, #lb> -> tensor<64x64xf16, #lb>
      %k2 = tkgpu.convert_layout %k : tensor<64x64xf16, #lb> -> tensor<64x64xf16, #lc>
      %d = tk.dot %q2, %k2, %acc : tensor<128x64xf16, #lc> * tensor<64x64xf16, #lc> -> tensor<128x64xf32, #lc>
      scf.yield %d : tensor<128x64xf32, #lc>
    }
    tk.store %po, %acc : tensor<128x64x!tk.ptr<f32>, #lc>, tensor<128x64xf32, #lc>
    return
  }
}

// -----

#l = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>

// Chained dots (S = Q K^T, P = exp2(S) in P @ V) on 8 warps: both split
// warps along M only ([8, 1], 16 rows per warp) instead of the [4, 2] a
// lone 128x64 dot gets, so that a warp holds whole rows of P.
// CHECK-DAG: #[[M81:.*]] = #tkgpu.mma<{versionMajor = 2, warpsPerCTA = [8, 1], instrShape = [16, 8]}>
// CHECK-DAG: #[[M42:.*]] = #tkgpu.mma<{versionMajor = 2, warpsPerCTA = [4, 2], instrShape = [16, 8]}>
// CHECK-LABEL: func.func @chained
// CHECK: tk.dot {{.*}} -> tensor<128x64xf32, #[[M81]]>
// CHECK: tk.dot {{.*}} -> tensor<128x64xf32, #[[M81]]>
// CHECK-LABEL: func.func @lone
// CHECK: tk.dot {{.*}} -> tensor<128x64xf32, #[[M42]]>
module attributes {tkgpu.num_warps = 8 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
  func.func @chained(%q: tensor<128x64xf16, #l>, %kt: tensor<64x64xf16, #l>, %v: tensor<64x64xf16, #l>, %acc: tensor<128x64xf32, #l>) -> tensor<128x64xf32, #l> {
    %zero = arith.constant dense<0.0> : tensor<128x64xf32, #l>
    %s = tk.dot %q, %kt, %zero : tensor<128x64xf16, #l> * tensor<64x64xf16, #l> -> tensor<128x64xf32, #l>
    %e = math.exp2 %s : tensor<128x64xf32, #l>
    %p = arith.truncf %e : tensor<128x64xf32, #l> to tensor<128x64xf16, #l>
    %o = tk.dot %p, %v, %acc : tensor<128x64xf16, #l> * tensor<64x64xf16, #l> -> tensor<128x64xf32, #l>
    return %o : tensor<128x64xf32, #l>
  }
  func.func @lone(%q: tensor<128x64xf16, #l>, %kt: tensor<64x64xf16, #l>) -> tensor<128x64xf32, #l> {
    %zero = arith.constant dense<0.0> : tensor<128x64xf32, #l>
    %s = tk.dot %q, %kt, %zero : tensor<128x64xf16, #l> * tensor<64x64xf16, #l> -> tensor<128x64xf32, #l>
    return %s : tensor<128x64xf32, #l>
  }
}
