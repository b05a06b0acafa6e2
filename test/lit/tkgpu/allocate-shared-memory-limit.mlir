// RUN: tk-opt %s -split-input-file -tkgpu-allocate-shared-memory -verify-diagnostics | FileCheck %s
// tkgpu-allocate-shared-memory refuses a kernel that needs more shared
// memory than its target gives one program (227 KB on sm_90a, 163 KB on
// sm_80, 99 KB on sm_86), with the error at the kernel; exactly the limit
// passes, and without a target nothing is checked.

#sh = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.target = "sm_90a"} {
  // 128 + 64 + 32 + 2 + 1 KB live together: exactly sm_90a's 227 KB.
  // CHECK: module attributes {tkgpu.num_warps = 4 : i32, tkgpu.shared_bytes = 232448 : i32
  // CHECK-LABEL: func.func @at_the_limit
  // CHECK: tkgpu.local_alloc {tkgpu.offset = 0 : i64} !tkgpu.memdesc<1024x64xf16
  // CHECK: tkgpu.local_alloc {tkgpu.offset = 231424 : i64} !tkgpu.memdesc<8x64xf16
  func.func @at_the_limit() {
    %a = tkgpu.local_alloc !tkgpu.memdesc<1024x64xf16, #sh>
    %b = tkgpu.local_alloc !tkgpu.memdesc<512x64xf16, #sh>
    %c = tkgpu.local_alloc !tkgpu.memdesc<256x64xf16, #sh>
    %d = tkgpu.local_alloc !tkgpu.memdesc<16x64xf16, #sh>
    %e = tkgpu.local_alloc !tkgpu.memdesc<8x64xf16, #sh>
    tkgpu.local_dealloc %a : !tkgpu.memdesc<1024x64xf16, #sh>
    tkgpu.local_dealloc %b : !tkgpu.memdesc<512x64xf16, #sh>
    tkgpu.local_dealloc %c : !tkgpu.memdesc<256x64xf16, #sh>
    tkgpu.local_dealloc %d : !tkgpu.memdesc<16x64xf16, #sh>
    tkgpu.local_dealloc %e : !tkgpu.memdesc<8x64xf16, #sh>
    return
  }
}

// -----

#sh = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.target = "sm_90a"} {
  // expected-error @+1 {{the kernel needs 232576 bytes of shared memory; sm_90a gives a program at most 232448 (fewer num_stages or smaller blocks need less)}}
  func.func @over_the_limit() {
    %a = tkgpu.local_alloc !tkgpu.memdesc<1024x64xf16, #sh>
    %b = tkgpu.local_alloc !tkgpu.memdesc<512x64xf16, #sh>
    %c = tkgpu.local_alloc !tkgpu.memdesc<256x64xf16, #sh>
    %d = tkgpu.local_alloc !tkgpu.memdesc<16x64xf16, #sh>
    %e = tkgpu.local_alloc !tkgpu.memdesc<8x64xf16, #sh>
    %f = tkgpu.local_alloc !tkgpu.memdesc<1x128xi8, #sh>
    tkgpu.local_dealloc %a : !tkgpu.memdesc<1024x64xf16, #sh>
    tkgpu.local_dealloc %b : !tkgpu.memdesc<512x64xf16, #sh>
    tkgpu.local_dealloc %c : !tkgpu.memdesc<256x64xf16, #sh>
    tkgpu.local_dealloc %d : !tkgpu.memdesc<16x64xf16, #sh>
    tkgpu.local_dealloc %e : !tkgpu.memdesc<8x64xf16, #sh>
    tkgpu.local_dealloc %f : !tkgpu.memdesc<1x128xi8, #sh>
    return
  }
}

// -----

#sh = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.target = "sm_80"} {
  // expected-error @+1 {{the kernel needs 196608 bytes of shared memory; sm_80 gives a program at most 166912}}
  func.func @sm80() {
    %a = tkgpu.local_alloc !tkgpu.memdesc<1024x64xf16, #sh>
    %b = tkgpu.local_alloc !tkgpu.memdesc<512x64xf16, #sh>
    tkgpu.local_dealloc %a : !tkgpu.memdesc<1024x64xf16, #sh>
    tkgpu.local_dealloc %b : !tkgpu.memdesc<512x64xf16, #sh>
    return
  }
}

// -----

#sh = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32} {
  // CHECK: module attributes {tkgpu.num_warps = 4 : i32, tkgpu.shared_bytes = 262144 : i32}
  // CHECK-LABEL: func.func @no_target
  func.func @no_target() {
    %a = tkgpu.local_alloc !tkgpu.memdesc<1024x128xf16, #sh>
    tkgpu.local_dealloc %a : !tkgpu.memdesc<1024x128xf16, #sh>
    return
  }
}
