// RUN: tk-opt %s -split-input-file -tkgpu-balance-exp2 | FileCheck %s
// RUN: tk-opt %s -split-input-file -tkgpu-balance-exp2=every=3 | FileCheck %s --check-prefix=EVERY3
// RUN: tk-opt %s -split-input-file -tkgpu-balance-exp2=every=0 | FileCheck %s --check-prefix=NONE

// Attention at HEAD_DIM 64: per iteration Q K^T (128x64 by 64x64) and
// P @ V (128x64 by 64x64) are 2 * 2 * 128 * 64 * 64 = 2^21 FLOPs, the
// 128x64 scores 8192 exp2s: 256 FLOPs per exp2, as many MUFU clocks as
// tensor-core clocks, so one exp2 element in 4 goes to the FMA units.
// The row-vector exp2 (alpha, a slice layout) is left to the MUFU.
#sa = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
#mma = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [16, 64, 16]}>
#row = #tkgpu.slice<{dim = 1, parent = #mma}>
module attributes {tkgpu.num_warps = 8 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
  // CHECK-LABEL: func.func @head_dim_64
  // CHECK: scf.for
  // CHECK: math.exp2 %{{.*}} {tkgpu.exp2_fma_every = 4 : i32} : tensor<128x64xf32, #mma>
  // CHECK-NOT: tkgpu.exp2_fma_every
  // CHECK: math.exp2 %{{.*}} : tensor<128xf32, #slice>
  // CHECK: scf.yield
  // EVERY3-LABEL: func.func @head_dim_64
  // EVERY3: math.exp2 %{{.*}} {tkgpu.exp2_fma_every = 3 : i32} : tensor<128x64xf32, #mma>
  // NONE-LABEL: func.func @head_dim_64
  // NONE-NOT: tkgpu.exp2_fma_every
  func.func @head_dim_64(%n: i32, %m: tensor<128xf32, #row>, %p: tensor<128x64x!tk.ptr<f32>, #mma>) attributes {tk.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %q = tkgpu.local_alloc !tkgpu.memdesc<128x64xf16, #sa>
    %k = tkgpu.local_alloc !tkgpu.memdesc<64x64xf16, #sa>
    %v = tkgpu.local_alloc !tkgpu.memdesc<64x64xf16, #sa>
    %a, %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %mi = %m) -> (tensor<128x64xf32, #mma>, tensor<128xf32, #row>) : i32 {
      %s = tkgpu.warp_group_dot %q, %k, %zero : !tkgpu.memdesc<128x64xf16, #sa> * !tkgpu.memdesc<64x64xf16, #sa> -> tensor<128x64xf32, #mma>
      %e = math.exp2 %s : tensor<128x64xf32, #mma>
      %alpha = math.exp2 %mi : tensor<128xf32, #row>
      %x = arith.addf %e, %acc : tensor<128x64xf32, #mma>
      %d = tkgpu.warp_group_dot %q, %v, %x : !tkgpu.memdesc<128x64xf16, #sa> * !tkgpu.memdesc<64x64xf16, #sa> -> tensor<128x64xf32, #mma>
      scf.yield %d, %alpha : tensor<128x64xf32, #mma>, tensor<128xf32, #row>
    }
    tk.store %p, %a : tensor<128x64x!tk.ptr<f32>, #mma>, tensor<128x64xf32, #mma>
    return
  }
}

// -----

// HEAD_DIM 128: 512 FLOPs per exp2, the MUFU has slack and keeps every
// exp2; `every` forces the split anyway. An exp2 outside a loop, or on a
// blocked tensor, is never marked.
#sa = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
#mma = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>
#blocked = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {tkgpu.num_warps = 8 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
  // CHECK-LABEL: func.func @head_dim_128
  // CHECK-NOT: tkgpu.exp2_fma_every
  // CHECK: return
  // EVERY3-LABEL: func.func @head_dim_128
  // EVERY3: math.exp2 %{{.*}} : tensor<128x128xf32, #mma>
  // EVERY3: scf.for
  // EVERY3: math.exp2 %{{.*}} {tkgpu.exp2_fma_every = 3 : i32} : tensor<128x128xf32, #mma>
  // EVERY3: math.exp2 %{{.*}} : tensor<128x128xf32, #blocked>
  // EVERY3: scf.yield
  func.func @head_dim_128(%n: i32, %p: tensor<128x128x!tk.ptr<f32>, #mma>, %b: tensor<128x128xf32, #blocked>, %pb: tensor<128x128x!tk.ptr<f32>, #blocked>) attributes {tk.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<128x128xf32, #mma>
    %once = math.exp2 %zero : tensor<128x128xf32, #mma>
    %q = tkgpu.local_alloc !tkgpu.memdesc<128x128xf16, #sa>
    %k = tkgpu.local_alloc !tkgpu.memdesc<128x128xf16, #sa>
    %v = tkgpu.local_alloc !tkgpu.memdesc<128x128xf16, #sa>
    %a, %ab = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %once, %bacc = %b) -> (tensor<128x128xf32, #mma>, tensor<128x128xf32, #blocked>) : i32 {
      %s = tkgpu.warp_group_dot %q, %k, %zero : !tkgpu.memdesc<128x128xf16, #sa> * !tkgpu.memdesc<128x128xf16, #sa> -> tensor<128x128xf32, #mma>
      %e = math.exp2 %s : tensor<128x128xf32, #mma>
      %eb = math.exp2 %bacc : tensor<128x128xf32, #blocked>
      %x = arith.addf %e, %acc : tensor<128x128xf32, #mma>
      %d = tkgpu.warp_group_dot %q, %v, %x : !tkgpu.memdesc<128x128xf16, #sa> * !tkgpu.memdesc<128x128xf16, #sa> -> tensor<128x128xf32, #mma>
      scf.yield %d, %eb : tensor<128x128xf32, #mma>, tensor<128x128xf32, #blocked>
    }
    tk.store %p, %a : tensor<128x128x!tk.ptr<f32>, #mma>, tensor<128x128xf32, #mma>
    tk.store %pb, %ab : tensor<128x128x!tk.ptr<f32>, #blocked>, tensor<128x128xf32, #blocked>
    return
  }
}
