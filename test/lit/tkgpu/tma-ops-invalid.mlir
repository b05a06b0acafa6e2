// RUN: tk-opt %s -split-input-file -verify-diagnostics
// The verifiers of the mbarrier and TMA ops (TkgpuTmaOps.td).

#bar = #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
func.func @barrier_type() {
  %bar = tkgpu.local_alloc !tkgpu.memdesc<2xi64, #bar>
  // expected-error @+1 {{the barrier must be a memdesc of one i64}}
  tkgpu.init_barrier %bar, 1 : !tkgpu.memdesc<2xi64, #bar>
  return
}

// -----

#bar = #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#sa = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
func.func @coords(%desc: !tk.ptr<i8>, %i: i32, %p: i1) {
  %bar = tkgpu.local_alloc !tkgpu.memdesc<1xi64, #bar>
  %buf = tkgpu.local_alloc !tkgpu.memdesc<128x64xf16, #sa>
  // expected-error @+1 {{needs 2 to 5 coordinates (one per tensor dimension, the buffer's last), got 1}}
  tkgpu.async_tma_copy_global_to_local %desc[%i] %buf, %bar, %p : !tk.ptr<i8>, !tkgpu.memdesc<128x64xf16, #sa>, !tkgpu.memdesc<1xi64, #bar>
  return
}

// -----

#s = #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @layout(%desc: !tkgpu.tensor_map, %i: i32) {
  %buf = tkgpu.local_alloc !tkgpu.memdesc<64x64xf16, #s>
  // expected-error @+1 {{a TMA buffer needs an nvmma_shared layout contiguous along its last dimension}}
  tkgpu.async_tma_copy_local_to_global %desc[%i, %i] %buf : !tkgpu.tensor_map, !tkgpu.memdesc<64x64xf16, #s>
  return
}

// -----

#bar = #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
func.func @inval_type() {
  %bar = tkgpu.local_alloc !tkgpu.memdesc<1xi32, #bar>
  // expected-error @+1 {{the barrier must be a memdesc of one i64}}
  tkgpu.inval_barrier %bar : !tkgpu.memdesc<1xi32, #bar>
  return
}
