// RUN: tk-opt %s -split-input-file -verify-diagnostics -convert-tkgpu-to-llvm
// Copies cp.async cannot do are located errors, not legalization failures.

#v1 = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#plain = #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
func.func @two_bytes(%a: !tk.ptr<f16> {tk.divisibility = 16 : i32}) {
  %r = tk.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32, #v1>
  %as = tk.splat %a : !tk.ptr<f16> -> tensor<128x!tk.ptr<f16>, #v1>
  %p = tk.addptr %as, %r : tensor<128x!tk.ptr<f16>, #v1>, tensor<128xi32, #v1>
  %buf = tkgpu.local_alloc !tkgpu.memdesc<128xf16, #plain>
  // expected-error @+1 {{async_copy_global_to_local: each thread has only 1 contiguous, aligned element(s) of 2 byte(s)}}
  tkgpu.async_copy_global_to_local %p, %buf : tensor<128x!tk.ptr<f16>, #v1> -> !tkgpu.memdesc<128xf16, #plain>
  return
}
}

// -----

#v4 = #tkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#plain = #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
func.func @nonzero_other(%a: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %m: tensor<512xi1, #v4>) {
  %r = tk.make_range {start = 0 : i32, end = 512 : i32} : tensor<512xi32, #v4>
  %as = tk.splat %a : !tk.ptr<f32> -> tensor<512x!tk.ptr<f32>, #v4>
  %p = tk.addptr %as, %r : tensor<512x!tk.ptr<f32>, #v4>, tensor<512xi32, #v4>
  %one = arith.constant dense<1.0> : tensor<512xf32, #v4>
  %buf = tkgpu.local_alloc !tkgpu.memdesc<512xf32, #plain>
  // expected-error @+1 {{async_copy_global_to_local: `other` must be absent or a zero constant}}
  tkgpu.async_copy_global_to_local %p, %buf mask %m other %one : tensor<512x!tk.ptr<f32>, #v4> -> !tkgpu.memdesc<512xf32, #plain>, tensor<512xi1, #v4>, tensor<512xf32, #v4>
  return
}
}
