// RUN: tk-opt %s -split-input-file -verify-diagnostics -convert-tkgpu-to-llvm -canonicalize -cse | FileCheck %s
// warp_group_dot -> nvvm.wgmma.fence / mma_async / commit / wait;
// warp_group_dot_wait -> nvvm.wgmma.wait.group plus the accumulator
// registers tied through an empty asm; fence_async_shared ->
// nvvm.fence.proxy async.shared::cta.

#mma = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#sa = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>

// f16 128x128x64 on one warp group: 2 blocks along M x 4 K steps = 8
// m64n128k16. Descriptors: A (K-major, 128-byte swizzle): LBO 1 (16 B),
// SBO 64 (1024 B), mode 1: 2^62 + 64 * 2^32 + 2^16 = 4611686293305360384;
// B (64x128, N-major: two 128-byte chunks of 64 K rows): LBO 8192 B = 512,
// SBO 1024 B: 2^62 + 64 * 2^32 + 512 * 2^16 = 4611686293338849280. Steps
// (in 16-byte units): A +2 per k16 (32 B inside the swizzled row), +512
// for the second 64 rows; B +128 per k16 (16 K rows of 128 B). The buffer
// is aligned to 1024 bytes, so is tk_smem. The start address is masked to
// its 14-bit field (16383): in a cluster, shared addresses carry the
// CTA's rank in higher bits, which would otherwise spill into LBO.
// CHECK: llvm.mlir.global external @tk_smem() {addr_space = 3 : i32, alignment = 1024 : i64}
// CHECK-LABEL: llvm.func internal @f16
// CHECK-DAG: %[[BASEA:.*]] = llvm.mlir.constant(4611686293305360384 : i64) : i64
// CHECK-DAG: %[[BASEB:.*]] = llvm.mlir.constant(4611686293338849280 : i64) : i64
// CHECK-DAG: %[[K16B:.*]] = llvm.mlir.constant(128 : i64) : i64
// CHECK-DAG: %[[K16A:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK-DAG: %[[M64A:.*]] = llvm.mlir.constant(512 : i64) : i64
// CHECK-DAG: %[[FIELD:.*]] = llvm.mlir.constant(16383 : i64) : i64
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK: %[[ADDR:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<3> to i64
// CHECK: %[[SHIFTED:.*]] = llvm.lshr %[[ADDR]], %{{.*}} : i64
// CHECK: %[[START:.*]] = llvm.and %[[SHIFTED]], %[[FIELD]] : i64
// CHECK: %[[DA0:.*]] = llvm.or %[[START]], %[[BASEA]] : i64
// CHECK: %[[DB0:.*]] = llvm.or %[[START]], %[[BASEB]] : i64
// The two bases pass one empty asm (so that the per-instruction sums are
// not hoisted out of a loop and kept live there), then the sums follow.
// CHECK: %[[PIN:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "", "=l,=l,0,1" %[[DB0]], %[[DA0]]
// CHECK: %[[DB:.*]] = llvm.extractvalue %[[PIN]][0]
// CHECK: %[[DA:.*]] = llvm.extractvalue %[[PIN]][1]
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NOT: nvvm.wgmma.fence.aligned
// CHECK: nvvm.wgmma.mma_async %[[DA]], %[[DB]], %{{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>]
// CHECK: %[[DA1:.*]] = llvm.add %[[DA]], %[[K16A]] : i64
// CHECK: %[[DB1:.*]] = llvm.add %[[DB]], %[[K16B]] : i64
// CHECK: nvvm.wgmma.mma_async %[[DA1]], %[[DB1]],
// CHECK-COUNT-2: nvvm.wgmma.mma_async
// CHECK: %[[DA4:.*]] = llvm.add %[[DA]], %[[M64A]] : i64
// CHECK: nvvm.wgmma.mma_async %[[DA4]], %[[DB]],
// CHECK-COUNT-3: nvvm.wgmma.mma_async
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "", "=f,=f,{{.*}},0,1,2,{{.*}},127"
// CHECK-NOT: nvvm.wgmma.wait.group.sync.aligned
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
  func.func @f16(%c: tensor<128x128xf32, #mma>) -> tensor<128x128xf32, #mma> {
    %ma = tkgpu.local_alloc !tkgpu.memdesc<128x64xf16, #sa>
    %mb = tkgpu.local_alloc !tkgpu.memdesc<64x128xf16, #sa>
    tkgpu.fence_async_shared
    %d = tkgpu.warp_group_dot %ma, %mb, %c {isAsync} : !tkgpu.memdesc<128x64xf16, #sa> * !tkgpu.memdesc<64x128xf16, #sa> -> tensor<128x128xf32, #mma>
    %w = tkgpu.warp_group_dot_wait %d {pendings = 1 : i32} : tensor<128x128xf32, #mma>
    return %w : tensor<128x128xf32, #mma>
  }
}

// -----

#mma = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [16, 64, 8]}>
#sa = #tkgpu.nvmma_shared<{swizzle = 64, elementBitWidth = 32, order = [1, 0]}>
#sb = #tkgpu.nvmma_shared<{swizzle = 64, elementBitWidth = 32, order = [0, 1]}>

// tf32, 128x64x16 on two warp groups ([8, 1]): each group one m64n64k8
// block, 2 K steps; warp group 1 (warp bit 2) starts 64 rows of 64 bytes
// = 4096 bytes further into A. A and B K-major (B: order [0, 1]), 64-byte
// swizzle.
// Synchronous: the op waits for its own group.
// CHECK-LABEL: llvm.func internal @tf32
// CHECK-DAG: %[[ROWS:.*]] = llvm.mlir.constant(4096 : i64) : i64
// CHECK: %[[BIT:.*]] = llvm.and %{{.*}}, %{{.*}} : i64
// CHECK: llvm.mul %[[BIT]], %[[ROWS]] : i64
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-2: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 64, k = 8>, D[<f32>, <one>], A[<tf32>, <one>, <row>], B[<tf32>, <one>, <col>]
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
module attributes {tkgpu.num_warps = 8 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
  func.func @tf32(%c: tensor<128x64xf32, #mma>) -> tensor<128x64xf32, #mma> {
    %ma = tkgpu.local_alloc !tkgpu.memdesc<128x16xf32, #sa>
    %mb = tkgpu.local_alloc !tkgpu.memdesc<16x64xf32, #sb>
    %d = tkgpu.warp_group_dot %ma, %mb, %c : !tkgpu.memdesc<128x16xf32, #sa> * !tkgpu.memdesc<16x64xf32, #sb> -> tensor<128x64xf32, #mma>
    return %d : tensor<128x64xf32, #mma>
  }
}

// -----

#mma = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [16, 64, 8]}>
#sa = #tkgpu.nvmma_shared<{swizzle = 64, elementBitWidth = 32, order = [1, 0]}>
#sb = #tkgpu.nvmma_shared<{swizzle = 64, elementBitWidth = 32, order = [0, 1]}>

// A constant zero accumulator (attention's S = QK^T) is not materialized:
// the first K step of each tile runs with scale-d = 0 (D[<f32>, <zero>])
// on undefined registers, the second accumulates; no pinning asm of
// accumulators before the fence (only the descriptor bases', "=l").
// CHECK-LABEL: llvm.func internal @zero_acc
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "", "=l,=l,0,1"
// CHECK-NOT: llvm.inline_asm
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: nvvm.wgmma.mma_async {{.*}}, %{{.*}}, %[[UNDEF:.*]], <m = 64, n = 64, k = 8>, D[<f32>, <zero>]
// CHECK-NEXT: llvm.add
// CHECK-NEXT: llvm.add
// CHECK-NEXT: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 64, k = 8>, D[<f32>, <one>]
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
module attributes {tkgpu.num_warps = 8 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
  func.func @zero_acc() -> tensor<128x64xf32, #mma> {
    %ma = tkgpu.local_alloc !tkgpu.memdesc<128x16xf32, #sa>
    %mb = tkgpu.local_alloc !tkgpu.memdesc<16x64xf32, #sb>
    %c = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %d = tkgpu.warp_group_dot %ma, %mb, %c : !tkgpu.memdesc<128x16xf32, #sa> * !tkgpu.memdesc<16x64xf32, #sb> -> tensor<128x64xf32, #mma>
    return %d : tensor<128x64xf32, #mma>
  }
}

// -----

#mma = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#oa = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#sb = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>

// A in registers, f16 64x32 x 32x64: 2 K steps of the register-A form
// (inline PTX: {32 accumulators}, {4 f16x2 words of A}, B's descriptor,
// scale-d, imm-scale-a, imm-scale-b, imm-trans-b = 1 for N-major B), the
// second one's B descriptor 16 K rows (128 in 16-byte units) further.
// Every register wgmma reads is final before wgmma.fence (else ptxas
// injects a warpgroup.arrive per instruction, warning C7519): A's 8 f16x2
// words are packed and, with the 32 accumulators, pinned by one empty asm
// before the fence; after it only descriptors are computed, and scale-d
// is an immediate.
// CHECK-LABEL: llvm.func internal @register_a
// CHECK: %[[BASE:.*]] = llvm.or %{{.*}}, %{{.*}} : i64
// CHECK: %[[B0:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "", "=l,0" %[[BASE]]
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "", "{{(=f,)+}}=r,=r,=r,=r,=r,=r,=r,=r,0,1,
// CHECK-NOT: llvm.bitcast
// CHECK-NOT: llvm.insertelement
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NOT: llvm.bitcast
// CHECK-NOT: llvm.insertelement
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, $69, 0;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{.*}}, $31}, {$64, $65, $66, $67}, $68, p, 1, 1, 1;\0A}", "=f,{{.*}},=f,0,1,{{.*}},31,r,r,r,r,l,n"
// CHECK-SAME: %[[B0]]
// CHECK-NOT: llvm.bitcast
// CHECK-NOT: llvm.insertelement
// CHECK: %[[B1:.*]] = llvm.add %[[B0]], %{{.*}} : i64
// CHECK: llvm.inline_asm {{.*}}wgmma.mma_async{{.*}} %[[B1]]
// CHECK-NOT: wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
  func.func @register_a(%a: tensor<64x32xf16, #oa>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %mb = tkgpu.local_alloc !tkgpu.memdesc<32x64xf16, #sb>
    %d = tkgpu.warp_group_dot %a, %mb, %c : tensor<64x32xf16, #oa> * !tkgpu.memdesc<32x64xf16, #sb> -> tensor<64x64xf32, #mma>
    return %d : tensor<64x64xf32, #mma>
  }
}

// -----

#mma = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>
#oa = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 1}>
#sb = #tkgpu.nvmma_shared<{swizzle = 32, elementBitWidth = 32, order = [0, 1]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
  func.func @register_a_tf32(%a: tensor<64x8xf32, #oa>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %mb = tkgpu.local_alloc !tkgpu.memdesc<8x64xf32, #sb>
    // A located error (the conversion then reports the op it could not
    // lower).
    // expected-error @+2 {{warp_group_dot: A in registers needs f16 or bf16, got 'f32'}}
    // expected-error @+1 {{failed to legalize operation 'tkgpu.warp_group_dot'}}
    %d = tkgpu.warp_group_dot %a, %mb, %c : tensor<64x8xf32, #oa> * !tkgpu.memdesc<8x64xf32, #sb> -> tensor<64x64xf32, #mma>
    return %d : tensor<64x64xf32, #mma>
  }
}

// -----

#mma = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#sa = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>

// useC (a flattened loop's restart): the first instruction of each of the
// two m64n128 tiles takes scale-d from the run-time i1 (widened, as the
// predicate p), by inline PTX with the same descriptors, K-major A and
// N-major B (imm-trans-b 1); the other K steps are nvvm.wgmma.mma_async
// accumulating.
// CHECK-LABEL: llvm.func internal @use_c
// CHECK-SAME: %{{[^:]*}}: !llvm.struct<{{.*}}>, %[[KEEP:[^:]*]]: i1
// CHECK: %[[SCALE:.*]] = llvm.zext %[[KEEP]] : i1 to i32
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, $130, 0;\0Awgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$0, {{.*}}, $63}, $128, $129, p, 1, 1, 0, 1;\0A}", "=f,{{.*}},l,l,r"
// CHECK-SAME: %[[SCALE]] :
// CHECK-COUNT-3: nvvm.wgmma.mma_async
// CHECK: llvm.inline_asm {{.*}}setp.ne.b32 p, $130
// CHECK-SAME: %[[SCALE]] :
// CHECK-COUNT-3: nvvm.wgmma.mma_async
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
  func.func @use_c(%c: tensor<128x128xf32, #mma>, %keep: i1) -> tensor<128x128xf32, #mma> {
    %ma = tkgpu.local_alloc !tkgpu.memdesc<128x64xf16, #sa>
    %mb = tkgpu.local_alloc !tkgpu.memdesc<64x128xf16, #sa>
    tkgpu.fence_async_shared
    %d = tkgpu.warp_group_dot %ma, %mb, %c useC %keep {isAsync} : !tkgpu.memdesc<128x64xf16, #sa> * !tkgpu.memdesc<64x128xf16, #sa> -> tensor<128x128xf32, #mma>
    %w = tkgpu.warp_group_dot_wait %d {pendings = 0 : i32} : tensor<128x128xf32, #mma>
    return %w : tensor<128x128xf32, #mma>
  }
}

// -----

#mma = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 32]}>
#sa = #tkgpu.nvmma_shared<{swizzle = 64, elementBitWidth = 8, order = [1, 0]}>
#sb = #tkgpu.nvmma_shared<{swizzle = 64, elementBitWidth = 8, order = [0, 1]}>

// fp8, e4m3 A times e5m2 B, 64x64x64 on one warp group: m64n64k32, two K
// steps, each 32 bytes (+2 in 16-byte units) further into both K-major
// operands (B 4096 bytes after A).
// CHECK-LABEL: llvm.func internal @fp8
// CHECK-DAG: %[[K32:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: nvvm.wgmma.mma_async %[[DA:[^,]*]], %[[DB:[^,]*]], %{{.*}}, <m = 64, n = 64, k = 32>, D[<f32>, <one>], A[<e4m3>, <one>, <row>], B[<e5m2>, <one>, <col>]
// CHECK: %[[DA1:.*]] = llvm.add %[[DA]], %[[K32]] : i64
// CHECK: %[[DB1:.*]] = llvm.add %[[DB]], %[[K32]] : i64
// CHECK: nvvm.wgmma.mma_async %[[DA1]], %[[DB1]], %{{.*}}, <m = 64, n = 64, k = 32>, D[<f32>, <one>], A[<e4m3>, <one>, <row>], B[<e5m2>, <one>, <col>]
// CHECK-NOT: nvvm.wgmma.mma_async
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
  func.func @fp8(%c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %ma = tkgpu.local_alloc !tkgpu.memdesc<64x64xf8E4M3FN, #sa>
    %mb = tkgpu.local_alloc {tkgpu.offset = 4096 : i64} !tkgpu.memdesc<64x64xf8E5M2, #sb>
    %d = tkgpu.warp_group_dot %ma, %mb, %c : !tkgpu.memdesc<64x64xf8E4M3FN, #sa> * !tkgpu.memdesc<64x64xf8E5M2, #sb> -> tensor<64x64xf32, #mma>
    return %d : tensor<64x64xf32, #mma>
  }
}

// -----

#mma = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#sa = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
#sat = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [0, 1]}>

// B stored N x K (128 rows of 64 f16, as TMA lands attention's K or an
// fp8 B^T) and read through a memdesc_trans view: the view lowers to
// nothing, B's descriptor starts at the buffer itself (tk_smem + 16384),
// and it is K-major (B <col>), with A's constant (LBO 1, SBO 64, 128-byte
// swizzle: 4611686293305360384) and A's K step (+2 per k16, not the +128
// of an N-major B).
// CHECK-LABEL: llvm.func internal @trans_view_b
// CHECK-DAG: %[[KMAJOR:.*]] = llvm.mlir.constant(4611686293305360384 : i64) : i64
// CHECK-DAG: %[[K16:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK-DAG: %[[SHIFT:.*]] = llvm.mlir.constant(4 : i64) : i64
// CHECK: %[[SMEM:.*]] = llvm.mlir.addressof @tk_smem : !llvm.ptr<3>
// CHECK-NEXT: %[[BT:.*]] = llvm.getelementptr %[[SMEM]][16384] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT: nvvm.fence.proxy
// CHECK-NEXT: %[[PA:.*]] = llvm.ptrtoint %[[SMEM]] : !llvm.ptr<3> to i64
// CHECK-NEXT: %[[PB:.*]] = llvm.ptrtoint %[[BT]] : !llvm.ptr<3> to i64
// CHECK-NEXT: %[[SA:.*]] = llvm.lshr %[[PA]], %[[SHIFT]] : i64
// CHECK-NEXT: %[[MA:.*]] = llvm.and %[[SA]], %[[FIELD:.*]] : i64
// CHECK-NEXT: %[[DA0:.*]] = llvm.or %[[MA]], %[[KMAJOR]] : i64
// CHECK-NEXT: %[[SB:.*]] = llvm.lshr %[[PB]], %[[SHIFT]] : i64
// CHECK-NEXT: %[[MB:.*]] = llvm.and %[[SB]], %[[FIELD]] : i64
// CHECK-NEXT: %[[DB0:.*]] = llvm.or %[[MB]], %[[KMAJOR]] : i64
// CHECK-NEXT: %[[PIN:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "", "=l,=l,0,1" %[[DB0]], %[[DA0]]
// CHECK-NEXT: %[[DB:.*]] = llvm.extractvalue %[[PIN]][0]
// CHECK-NEXT: %[[DA:.*]] = llvm.extractvalue %[[PIN]][1]
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: nvvm.wgmma.mma_async %[[DA]], %[[DB]], %{{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
// CHECK-NEXT: %[[DA1:.*]] = llvm.add %[[DA]], %[[K16]] : i64
// CHECK-NEXT: %[[DB1:.*]] = llvm.add %[[DB]], %[[K16]] : i64
// CHECK-NEXT: nvvm.wgmma.mma_async %[[DA1]], %[[DB1]], %{{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
// CHECK-COUNT-6: nvvm.wgmma.mma_async {{.*}}B[<f16>, <one>, <col>]
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
  func.func @trans_view_b(%c: tensor<128x128xf32, #mma>) -> tensor<128x128xf32, #mma> {
    %ma = tkgpu.local_alloc {tkgpu.offset = 0 : i64} !tkgpu.memdesc<128x64xf16, #sa>
    %mbt = tkgpu.local_alloc {tkgpu.offset = 16384 : i64} !tkgpu.memdesc<128x64xf16, #sa>
    %mb = tkgpu.memdesc_trans %mbt {order = array<i32: 1, 0>} : !tkgpu.memdesc<128x64xf16, #sa> -> !tkgpu.memdesc<64x128xf16, #sat>
    tkgpu.fence_async_shared
    %d = tkgpu.warp_group_dot %ma, %mb, %c {isAsync} : !tkgpu.memdesc<128x64xf16, #sa> * !tkgpu.memdesc<64x128xf16, #sat> -> tensor<128x128xf32, #mma>
    %w = tkgpu.warp_group_dot_wait %d {pendings = 0 : i32} : tensor<128x128xf32, #mma>
    return %w : tensor<128x128xf32, #mma>
  }
}
