// RUN: tk-opt %s -split-input-file -convert-tkgpu-to-llvm="rebase-wgmma-descriptors=true" -canonicalize -cse | FileCheck %s
// RUN: tk-opt %s -split-input-file -convert-tkgpu-to-llvm -canonicalize -cse | FileCheck %s --check-prefix=DEFAULT
// convert-tkgpu-to-llvm's rebase-wgmma-descriptors: each descriptor's
// address is tk_smem's address taken by a `mov` of its own (an asm with
// no side effects, the offset its unused operand, so that it is not
// hoisted out of a loop the offset changes in) plus the buffer's offset
// from tk_smem. Then no address lives across the kernel, and ptxas keeps
// the descriptor arithmetic in uniform registers (the HEAD_DIM 64
// attention loop: 32 R2UR moves -> 4, 510 -> 474 SASS instructions).
// Off by default: then the address is the buffer's pointer itself.

#mma = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#sa = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>

// A at offset 0, B at 16384. The offsets: A's is 0 (tk_smem - tk_smem,
// left to LLVM to fold), B's 16384.
// CHECK-LABEL: llvm.func internal @rebase
// CHECK: %[[SMEM:.*]] = llvm.mlir.addressof @tk_smem : !llvm.ptr<3>
// CHECK: %[[BPTR:.*]] = llvm.getelementptr %[[SMEM]][16384]
// CHECK: %[[BASE:.*]] = llvm.ptrtoint %[[SMEM]] : !llvm.ptr<3> to i64
// CHECK: %[[B:.*]] = llvm.ptrtoint %[[BPTR]] : !llvm.ptr<3> to i64
// CHECK: %[[AOFF:.*]] = llvm.sub %[[BASE]], %[[BASE]] : i64
// CHECK: %[[AFRESH:.*]] = llvm.inline_asm asm_dialect = att "mov.u64 $0, tk_smem;", "=l,l" %[[AOFF]] : (i64) -> i64
// CHECK: %[[AADDR:.*]] = llvm.add %[[AFRESH]], %[[AOFF]] : i64
// CHECK: llvm.lshr %[[AADDR]]
// CHECK: %[[BOFF:.*]] = llvm.sub %[[B]], %[[BASE]] : i64
// CHECK: %[[BFRESH:.*]] = llvm.inline_asm asm_dialect = att "mov.u64 $0, tk_smem;", "=l,l" %[[BOFF]] : (i64) -> i64
// CHECK: %[[BADDR:.*]] = llvm.add %[[BFRESH]], %[[BOFF]] : i64
// CHECK: llvm.lshr %[[BADDR]]
// CHECK-COUNT-8: nvvm.wgmma.mma_async
// CHECK-NOT: mov.u64 $0, tk_smem;
// DEFAULT-LABEL: llvm.func internal @rebase
// DEFAULT-NOT: mov.u64 $0, tk_smem;
// DEFAULT: nvvm.wgmma.mma_async
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
  func.func @rebase(%c: tensor<128x128xf32, #mma>) -> tensor<128x128xf32, #mma> {
    %ma = tkgpu.local_alloc !tkgpu.memdesc<128x64xf16, #sa>
    %mb = tkgpu.local_alloc {tkgpu.offset = 16384 : i64} !tkgpu.memdesc<64x128xf16, #sa>
    tkgpu.fence_async_shared
    %d = tkgpu.warp_group_dot %ma, %mb, %c : !tkgpu.memdesc<128x64xf16, #sa> * !tkgpu.memdesc<64x128xf16, #sa> -> tensor<128x128xf32, #mma>
    return %d : tensor<128x128xf32, #mma>
  }
}
