// RUN: tk-translate --tk-to-ptx --tk-arch=sm_90a %s | FileCheck %s --check-prefix=SM90
// RUN: tk-translate --tk-to-ptx --tk-arch=sm_80 %s | FileCheck %s --check-prefix=SM80
// RUN: tk-translate --tk-to-llvmir %s | FileCheck %s --check-prefix=LLVM
// Back end alone: a hand-written LLVM/NVVM-dialect kernel to PTX in process.

// LLVM: target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
// LLVM: target triple = "nvptx64-nvidia-cuda"
// LLVM: define ptx_kernel void @scale(

// SM90: .version 8.4
// SM90: .target sm_90a
// SM80: .target sm_80
// SM90: .extern .shared .align 16 .b8 tk_smem[];
// SM90-LABEL: .visible .entry scale(
// SM90: .maxntid 128, 1, 1
// SM90: mov.u32 {{.*}}%ctaid.x;
// SM90: ld.global.v4.b32
// SM90: bar.sync 0;
// SM90: st.global.v4.b32

module {
  llvm.mlir.global external @tk_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>

  llvm.func @scale(%out: !llvm.ptr<1> {llvm.align = 16 : i64},
                   %in: !llvm.ptr<1> {llvm.align = 16 : i64}, %factor: f32)
      attributes {nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>} {
    %pid = nvvm.read.ptx.sreg.ctaid.x : i32
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %c512 = llvm.mlir.constant(512 : i32) : i32
    %c4 = llvm.mlir.constant(4 : i32) : i32
    %base = llvm.mul %pid, %c512 : i32
    %lane = llvm.mul %tid, %c4 : i32
    %off = llvm.add %base, %lane : i32
    %src = llvm.getelementptr %in[%off] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %v = llvm.inline_asm has_side_effects "ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l" %src : (!llvm.ptr<1>) -> !llvm.struct<(i32, i32, i32, i32)>
    %i0 = llvm.extractvalue %v[0] : !llvm.struct<(i32, i32, i32, i32)>
    %f0 = llvm.bitcast %i0 : i32 to f32
    %s0 = llvm.fmul %f0, %factor : f32
    // A round trip through the dynamic shared memory, fenced by barriers.
    %smem = llvm.mlir.addressof @tk_smem : !llvm.ptr<3>
    %slot = llvm.getelementptr %smem[%tid] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
    llvm.store %s0, %slot : f32, !llvm.ptr<3>
    nvvm.barrier0
    %c1 = llvm.mlir.constant(1 : i32) : i32
    %c127 = llvm.mlir.constant(127 : i32) : i32
    %next = llvm.add %tid, %c1 : i32
    %wrapped = llvm.and %next, %c127 : i32
    %nslot = llvm.getelementptr %smem[%wrapped] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
    %r = llvm.load %nslot : !llvm.ptr<3> -> f32
    %ri = llvm.bitcast %r : f32 to i32
    %dst = llvm.getelementptr %out[%off] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    llvm.inline_asm has_side_effects "st.global.v4.b32 [$0], {$1, $2, $3, $4};", "l,r,r,r,r" %dst, %ri, %ri, %ri, %ri : (!llvm.ptr<1>, i32, i32, i32, i32) -> ()
    llvm.return
  }
}
