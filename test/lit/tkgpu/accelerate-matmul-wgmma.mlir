// RUN: tk-opt %s -split-input-file -allow-unregistered-dialect -tkgpu-accelerate-matmul -tkgpu-remove-layout-conversions -canonicalize -cse | FileCheck %s
// RUN: tk-opt %s -split-input-file -allow-unregistered-dialect -tkgpu-accelerate-matmul=mma-version=2 | FileCheck %s --check-prefix=V2
// tkgpu-accelerate-matmul on sm_90a: tk.dot -> tkgpu.warp_group_dot (#mma
// version 3) with both operands in #tkgpu.nvmma_shared buffers; shapes
// wgmma cannot take fall back to mma.sync (v2).

#la = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#lb = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#lc = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>

// The matmul loop, f16, 128x128x64 on 4 warps: one warp group along M
// ([4, 1]) doing m64n128k16 twice along M. A (K contiguous, 128-byte
// rows): 128-byte swizzle; B (N contiguous, 256-byte rows, one instruction
// reads 128 columns = 256 bytes): 128-byte swizzle too. The stores are
// fenced for the async proxy; no local_load; the loop carries the
// accumulator in #mma.
// CHECK-DAG: #[[MMA:.*]] = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
// CHECK-DAG: #[[SA:.*]] = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
// CHECK-LABEL: func.func @matmul_loop
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #[[MMA]]>
// CHECK: %[[LOOP:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (tensor<128x128xf32, #[[MMA]]>)
// CHECK-NOT: convert_layout
// CHECK: %[[MA:.*]] = tkgpu.local_alloc %{{.*}} : tensor<128x64xf16, #{{.*}}> -> !tkgpu.memdesc<128x64xf16, #[[SA]]>
// CHECK-NEXT: %[[MB:.*]] = tkgpu.local_alloc %{{.*}} : tensor<64x128xf16, #{{.*}}> -> !tkgpu.memdesc<64x128xf16, #[[SA]]>
// CHECK-NEXT: tkgpu.fence_async_shared
// CHECK-NOT: local_load
// CHECK-NEXT: %[[D:.*]] = tkgpu.warp_group_dot %[[MA]], %[[MB]], %[[ACC]] : !tkgpu.memdesc<128x64xf16, #[[SA]]> * !tkgpu.memdesc<64x128xf16, #[[SA]]> -> tensor<128x128xf32, #[[MMA]]>
// CHECK-NEXT: scf.yield %[[D]] : tensor<128x128xf32, #[[MMA]]>
// CHECK: arith.truncf %[[LOOP]] : tensor<128x128xf32, #[[MMA]]> to tensor<128x128xf16, #[[MMA]]>
// CHECK: tk.store
// V2-LABEL: func.func @matmul_loop
// V2-NOT: warp_group_dot
// V2: tkgpu.local_load
// V2: tk.dot {{.*}} -> tensor<128x128xf32, #mma>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
  func.func @matmul_loop(%pa: tensor<128x64x!tk.ptr<f16>, #la>, %pb: tensor<64x128x!tk.ptr<f16>, #lb>, %pc: tensor<128x128x!tk.ptr<f16>, #lc>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<128x128xf32, #lc>
    %acc = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x128xf32, #lc>) : i32 {
      %a = tk.load %pa : tensor<128x64x!tk.ptr<f16>, #la> -> tensor<128x64xf16, #la>
      %b = tk.load %pb : tensor<64x128x!tk.ptr<f16>, #lb> -> tensor<64x128xf16, #lb>
      %a2 = tkgpu.convert_layout %a : tensor<128x64xf16, #la> -> tensor<128x64xf16, #lc>
      %b2 = tkgpu.convert_layout %b : tensor<64x128xf16, #lb> -> tensor<64x128xf16, #lc>
      %d = tk.dot %a2, %b2, %acc : tensor<128x64xf16, #lc> * tensor<64x128xf16, #lc> -> tensor<128x128xf32, #lc>
      scf.yield %d : tensor<128x128xf32, #lc>
    }
    %h = arith.truncf %acc : tensor<128x128xf32, #lc> to tensor<128x128xf16, #lc>
    tk.store %pc, %h : tensor<128x128x!tk.ptr<f16>, #lc>, tensor<128x128xf16, #lc>
    return
  }
}

// -----

#l = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#lt = #tkgpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 8], order = [0, 1]}>

// 8 warps. 128x128: two warp groups along M ([8, 1], m64n128 each).
// 128x256: [8, 1], m64n256. 64x256: M has one group, the second goes
// along N ([4, 2], m64n128). bf16 B arriving K-contiguous (a column-major
// B, order [0, 1]): K-major, its rows along N; 32 K = 64 bytes: 64-byte
// swizzle.
// CHECK-DAG: #[[M128:.*]] = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>
// CHECK-DAG: #[[M256:.*]] = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [16, 256, 16]}>
// CHECK-DAG: #[[MN:.*]] = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 2], instrShape = [16, 128, 16]}>
// CHECK-DAG: #[[SK:.*]] = #tkgpu.nvmma_shared<{swizzle = 64, elementBitWidth = 16, order = [0, 1]}>
// CHECK-LABEL: func.func @warp_groups
// CHECK: tkgpu.warp_group_dot {{.*}} -> tensor<128x128xf32, #[[M128]]>
// CHECK: tkgpu.warp_group_dot {{.*}} -> tensor<128x256xf32, #[[M256]]>
// CHECK: tkgpu.warp_group_dot {{.*}} -> tensor<64x256xf32, #[[MN]]>
// CHECK: tkgpu.local_alloc %{{.*}} : tensor<32x128xbf16, #{{.*}}> -> !tkgpu.memdesc<32x128xbf16, #[[SK]]>
// CHECK: tkgpu.warp_group_dot {{.*}} * !tkgpu.memdesc<32x128xbf16, #[[SK]]> -> tensor<128x128xf32, #[[M128]]>
module attributes {tkgpu.num_warps = 8 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
  func.func @warp_groups(%a: tensor<128x64xf16, #l>, %b: tensor<64x128xf16, #l>, %c: tensor<128x128xf32, #l>,
                         %b2: tensor<64x256xf16, #l>, %c2: tensor<128x256xf32, #l>,
                         %a3: tensor<64x64xf16, #l>, %c3: tensor<64x256xf32, #l>,
                         %a4: tensor<128x32xbf16, #l>, %b4: tensor<32x128xbf16, #lt>) {
    %d = tk.dot %a, %b, %c : tensor<128x64xf16, #l> * tensor<64x128xf16, #l> -> tensor<128x128xf32, #l>
    %d2 = tk.dot %a, %b2, %c2 : tensor<128x64xf16, #l> * tensor<64x256xf16, #l> -> tensor<128x256xf32, #l>
    %d3 = tk.dot %a3, %b2, %c3 : tensor<64x64xf16, #l> * tensor<64x256xf16, #l> -> tensor<64x256xf32, #l>
    %d4 = tk.dot %a4, %b4, %c : tensor<128x32xbf16, #l> * tensor<32x128xbf16, #lt> -> tensor<128x128xf32, #l>
    "test.use"(%d, %d2, %d3, %d4) : (tensor<128x128xf32, #l>, tensor<128x256xf32, #l>, tensor<64x256xf32, #l>, tensor<128x128xf32, #l>) -> ()
    return
  }
}

// -----

#l = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#lt = #tkgpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>

// tf32 with both operands K-contiguous: wgmma m64n64k8 (32 K = 128
// bytes). With B N-contiguous (wgmma transposes 16-bit types only), a
// 32-row M (less than one warp group's 64), tf32x3 and i8: mma.sync.
// CHECK-DAG: #[[T:.*]] = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>
// CHECK-LABEL: func.func @fallbacks
// CHECK: tkgpu.warp_group_dot {{.*}} !tkgpu.memdesc<64x32xf32, #{{.*}}> * !tkgpu.memdesc<32x64xf32, #{{.*}}> -> tensor<64x64xf32, #[[T]]>
// CHECK-COUNT-6: tk.dot {{.*}} -> tensor<{{.*}}, #mma{{[0-9]*}}>
// CHECK-NOT: warp_group_dot
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
  func.func @fallbacks(%a: tensor<64x32xf32, #l>, %bk: tensor<32x64xf32, #lt>, %bn: tensor<32x64xf32, #l>, %c: tensor<64x64xf32, #l>,
                       %as: tensor<32x32xf16, #l>, %bs: tensor<32x64xf16, #l>, %cs: tensor<32x64xf32, #l>,
                       %ai: tensor<64x32xi8, #l>, %bi: tensor<32x64xi8, #lt>, %ci: tensor<64x64xi32, #l>) {
    %d0 = tk.dot %a, %bk, %c precision = tf32 : tensor<64x32xf32, #l> * tensor<32x64xf32, #lt> -> tensor<64x64xf32, #l>
    %d1 = tk.dot %a, %bn, %c precision = tf32 : tensor<64x32xf32, #l> * tensor<32x64xf32, #l> -> tensor<64x64xf32, #l>
    %d2 = tk.dot %as, %bs, %cs : tensor<32x32xf16, #l> * tensor<32x64xf16, #l> -> tensor<32x64xf32, #l>
    %d3 = tk.dot %a, %bk, %c precision = tf32x3 : tensor<64x32xf32, #l> * tensor<32x64xf32, #lt> -> tensor<64x64xf32, #l>
    %d4 = tk.dot %ai, %bi, %ci : tensor<64x32xi8, #l> * tensor<32x64xi8, #lt> -> tensor<64x64xi32, #l>
    "test.use"(%d0, %d1, %d2, %d3, %d4) : (tensor<64x64xf32, #l>, tensor<64x64xf32, #l>, tensor<32x64xf32, #l>, tensor<64x64xf32, #l>, tensor<64x64xi32, #l>) -> ()
    return
  }
}

// -----

#la = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#lb = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#lc = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>

// A flattened persistent loop (tk-flatten-loops) restarts the accumulator
// at each tile: select(first, zeros, acc). The loop still carries it in
// #mma; for wgmma the select becomes useC = !first (scale-d), no select
// is left, and the epilogue in the if reads the dot's result in #mma.
// mma.sync (V2) keeps the select, in #mma.
// CHECK-DAG: #[[MMA:.*]] = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
// CHECK-LABEL: func.func @flattened_restart
// CHECK-SAME: %[[FIRST:[^:]*]]: i1, %[[LAST:[^:]*]]: i1
// CHECK: %[[TRUE:.*]] = arith.constant true
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<128x128xf32, #[[MMA]]>)
// CHECK-NOT: arith.select
// CHECK: %[[KEEP:.*]] = arith.xori %[[FIRST]], %[[TRUE]] : i1
// CHECK-NEXT: %[[D:.*]] = tkgpu.warp_group_dot %{{.*}}, %{{.*}}, %[[ACC]] useC %[[KEEP]] : {{.*}} -> tensor<128x128xf32, #[[MMA]]>
// CHECK-NOT: arith.select
// CHECK: scf.if %[[LAST]] {
// CHECK: arith.truncf %[[D]] : tensor<128x128xf32, #[[MMA]]>
// CHECK: tk.store
// CHECK: scf.yield %[[D]] : tensor<128x128xf32, #[[MMA]]>
// V2-LABEL: func.func @flattened_restart
// V2: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<128x128xf32, #mma>)
// V2: %[[INIT:.*]] = tkgpu.convert_layout %{{.*}} : tensor<128x128xf32, #{{.*}}> -> tensor<128x128xf32, #mma>
// V2-NEXT: %[[CUR:.*]] = arith.select %{{.*}}, %[[INIT]], %[[ACC]] : tensor<128x128xf32, #mma>
// V2-NEXT: tk.dot %{{.*}}, %{{.*}}, %[[CUR]] {{.*}} -> tensor<128x128xf32, #mma>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
  func.func @flattened_restart(%pa: tensor<128x64x!tk.ptr<f16>, #la>, %pb: tensor<64x128x!tk.ptr<f16>, #lb>, %pc: tensor<128x128x!tk.ptr<f16>, #lc>, %n: i32, %first: i1, %last: i1) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<128x128xf32, #lc>
    %acc = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x128xf32, #lc>) : i32 {
      %cur = arith.select %first, %zero, %acc : tensor<128x128xf32, #lc>
      %a = tk.load %pa : tensor<128x64x!tk.ptr<f16>, #la> -> tensor<128x64xf16, #la>
      %b = tk.load %pb : tensor<64x128x!tk.ptr<f16>, #lb> -> tensor<64x128xf16, #lb>
      %a2 = tkgpu.convert_layout %a : tensor<128x64xf16, #la> -> tensor<128x64xf16, #lc>
      %b2 = tkgpu.convert_layout %b : tensor<64x128xf16, #lb> -> tensor<64x128xf16, #lc>
      %d = tk.dot %a2, %b2, %cur : tensor<128x64xf16, #lc> * tensor<64x128xf16, #lc> -> tensor<128x128xf32, #lc>
      scf.if %last {
        %h = arith.truncf %d : tensor<128x128xf32, #lc> to tensor<128x128xf16, #lc>
        tk.store %pc, %h : tensor<128x128x!tk.ptr<f16>, #lc>, tensor<128x128xf16, #lc>
      }
      scf.yield %d : tensor<128x128xf32, #lc>
    }
    return
  }
}

// -----

#l = #tkgpu.blocked<{sizePerThread = [1, 16], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#lt = #tkgpu.blocked<{sizePerThread = [16, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>

// fp8 operands, widened to f16 by the frontend (extf to f32, truncf to
// f16): with both K-contiguous, the wgmma reads the fp8 data itself
// (e4m3 A, e5m2 B; m64n64k32, 64-byte swizzle for the 64 K bytes) into a
// zero accumulator, and an f32 addf adds the block to the accumulator;
// with B N-contiguous (wgmma transposes 16-bit types only) it stays the
// f16 dot (m64n64k16) on the accumulator itself.
// CHECK-DAG: #[[F8:.*]] = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 32]}>
// CHECK-DAG: #[[F16:.*]] = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
// CHECK-DAG: #[[SA:.*]] = #tkgpu.nvmma_shared<{swizzle = 64, elementBitWidth = 8, order = [1, 0]}>
// CHECK-DAG: #[[SB:.*]] = #tkgpu.nvmma_shared<{swizzle = 64, elementBitWidth = 8, order = [0, 1]}>
// CHECK-LABEL: func.func @fp8
// CHECK-SAME: %{{[^:]*}}: tensor<64x64xf8E4M3FN, {{.*}}>, %{{[^:]*}}: tensor<64x64xf8E5M2, {{.*}}>, %{{[^:]*}}: tensor<64x64xf8E5M2, {{.*}}>, %[[C:[^:]*]]: tensor<64x64xf32
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #[[F8]]>
// CHECK: %[[ACC:.*]] = tkgpu.convert_layout %[[C]] : {{.*}} -> tensor<64x64xf32, #[[F8]]>
// CHECK: %[[BLOCK:.*]] = tkgpu.warp_group_dot %{{.*}}, %{{.*}}, %[[ZERO]] : !tkgpu.memdesc<64x64xf8E4M3FN, #[[SA]]> * !tkgpu.memdesc<64x64xf8E5M2, #[[SB]]> -> tensor<64x64xf32, #[[F8]]>
// CHECK: arith.addf %[[ACC]], %[[BLOCK]] : tensor<64x64xf32, #[[F8]]>
// CHECK: %[[ACC16:.*]] = tkgpu.convert_layout %[[C]] : {{.*}} -> tensor<64x64xf32, #[[F16]]>
// CHECK: tkgpu.warp_group_dot %{{.*}}, %{{.*}}, %[[ACC16]] : !tkgpu.memdesc<64x64xf16, {{.*}}> * !tkgpu.memdesc<64x64xf16, {{.*}}> -> tensor<64x64xf32, #[[F16]]>
// CHECK-NOT: arith.addf
// CHECK-NOT: tk.dot
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
  func.func @fp8(%a: tensor<64x64xf8E4M3FN, #l>, %bk: tensor<64x64xf8E5M2, #lt>, %bn: tensor<64x64xf8E5M2, #l>, %c: tensor<64x64xf32, #l>) {
    %a32 = arith.extf %a : tensor<64x64xf8E4M3FN, #l> to tensor<64x64xf32, #l>
    %a16 = arith.truncf %a32 : tensor<64x64xf32, #l> to tensor<64x64xf16, #l>
    %bk32 = arith.extf %bk : tensor<64x64xf8E5M2, #lt> to tensor<64x64xf32, #lt>
    %bk16 = arith.truncf %bk32 : tensor<64x64xf32, #lt> to tensor<64x64xf16, #lt>
    %bn32 = arith.extf %bn : tensor<64x64xf8E5M2, #l> to tensor<64x64xf32, #l>
    %bn16 = arith.truncf %bn32 : tensor<64x64xf32, #l> to tensor<64x64xf16, #l>
    %d0 = tk.dot %a16, %bk16, %c : tensor<64x64xf16, #l> * tensor<64x64xf16, #lt> -> tensor<64x64xf32, #l>
    %d1 = tk.dot %a16, %bn16, %c : tensor<64x64xf16, #l> * tensor<64x64xf16, #l> -> tensor<64x64xf32, #l>
    "test.use"(%d0, %d1) : (tensor<64x64xf32, #l>, tensor<64x64xf32, #l>) -> ()
    return
  }
}
