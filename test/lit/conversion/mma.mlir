// RUN: tk-opt %s -split-input-file -convert-tkgpu-to-llvm -canonicalize -cse | FileCheck %s
// local_load into #dot_operand -> nvvm.ldmatrix; tk.dot with an #mma
// result -> one nvvm.mma.sync per (M tile, N tile, K step) of a warp.

#mma = #tkgpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#sa = #tkgpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#sb = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#oa = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#ob = #tkgpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>

// f16, 64x64x32 on warps [2, 2]: a warp's tile is 32x32, i.e. 2 M tiles x
// 4 N tiles x 2 K steps = 16 m16n8k16. A (32x32 per warp, K contiguous):
// 16 words per lane = 4 ldmatrix.x4 (row); B (32x32 per warp, N
// contiguous): 4 ldmatrix.x4 with .trans (layout col).
// CHECK-LABEL: llvm.func internal @f16
// CHECK-COUNT-4: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NOT: nvvm.ldmatrix {{.*}}<row>
// CHECK-COUNT-4: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, num = 4 : i32
// CHECK-NOT: nvvm.ldmatrix
// CHECK-COUNT-16: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NOT: nvvm.mma.sync
// CHECK: llvm.return
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
  func.func @f16(%ma: !tkgpu.memdesc<64x32xf16, #sa>, %mb: !tkgpu.memdesc<32x64xf16, #sb>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %a = tkgpu.local_load %ma : !tkgpu.memdesc<64x32xf16, #sa> -> tensor<64x32xf16, #oa>
    %b = tkgpu.local_load %mb : !tkgpu.memdesc<32x64xf16, #sb> -> tensor<32x64xf16, #ob>
    %d = tk.dot %a, %b, %c : tensor<64x32xf16, #oa> * tensor<32x64xf16, #ob> -> tensor<64x64xf32, #mma>
    return %d : tensor<64x64xf32, #mma>
  }
}

// -----

#mma = #tkgpu.mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#sa = #tkgpu.shared<{vec = 8, perPhase = 4, maxPhase = 2, order = [1, 0]}>
#sb = #tkgpu.shared<{vec = 8, perPhase = 4, maxPhase = 2, order = [0, 1]}>
#oa = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#ob = #tkgpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>

// bf16, 64x8x16 on [4, 1]: one instruction per warp; A is one x4; B
// (K contiguous: no .trans) has 2 words: one x2. Operands are i32.
// CHECK-LABEL: llvm.func internal @bf16
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>, num = 4 : i32
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>, num = 2 : i32{{.*}} -> !llvm.struct<(i32, i32)>
// CHECK-COUNT-1: nvvm.mma.sync {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NOT: nvvm.mma.sync
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
  func.func @bf16(%ma: !tkgpu.memdesc<64x16xbf16, #sa>, %mb: !tkgpu.memdesc<16x8xbf16, #sb>, %c: tensor<64x8xf32, #mma>) -> tensor<64x8xf32, #mma> {
    %a = tkgpu.local_load %ma : !tkgpu.memdesc<64x16xbf16, #sa> -> tensor<64x16xbf16, #oa>
    %b = tkgpu.local_load %mb : !tkgpu.memdesc<16x8xbf16, #sb> -> tensor<16x8xbf16, #ob>
    %d = tk.dot %a, %b, %c : tensor<64x16xbf16, #oa> * tensor<16x8xbf16, #ob> -> tensor<64x8xf32, #mma>
    return %d : tensor<64x8xf32, #mma>
  }
}

// -----

#mma = #tkgpu.mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#s32 = #tkgpu.shared<{vec = 4, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#s32t = #tkgpu.shared<{vec = 4, perPhase = 2, maxPhase = 4, order = [0, 1]}>
#s8 = #tkgpu.shared<{vec = 16, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#s8t = #tkgpu.shared<{vec = 16, perPhase = 2, maxPhase = 4, order = [0, 1]}>
#ta = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 1}>
#tb = #tkgpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 1}>
#ia = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 4}>
#ib = #tkgpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 4}>

// tf32 64x16x16 on [4, 1]: 2 N tiles x 2 K steps = 4 m16n8k8 per warp;
// A (16x16 per warp: 8 words) and B (K contiguous, 8 words) by ldmatrix
// without .trans.
// CHECK-LABEL: llvm.func internal @tf32
// CHECK-COUNT-4: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>, num = 4 : i32
// CHECK-NOT: nvvm.ldmatrix
// CHECK-COUNT-4: nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<tf32>, multiplicandBPtxType = #nvvm.mma_type<tf32>, shape = #nvvm.shape<m = 16, n = 8, k = 8>} : (i32, i32, f32)
// CHECK-NOT: nvvm.mma.sync
// s8 64x16x64 on [4, 1]: 2 N tiles x 2 K steps of m16n8k32, s32
// accumulators, wrapping; A (16x64 bytes per warp) and B (64x16) are 8
// words each.
// CHECK-LABEL: llvm.func internal @i8
// CHECK-COUNT-4: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>, num = 4 : i32
// CHECK-NOT: nvvm.ldmatrix
// CHECK-COUNT-4: nvvm.mma.sync {{.*}}intOverflowBehavior = #nvvm.mma_int_overflow<wrapped>{{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 32>} : (i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NOT: nvvm.mma.sync
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
  func.func @tf32(%ma: !tkgpu.memdesc<64x16xf32, #s32>, %mb: !tkgpu.memdesc<16x16xf32, #s32t>, %c: tensor<64x16xf32, #mma>) -> tensor<64x16xf32, #mma> {
    %a = tkgpu.local_load %ma : !tkgpu.memdesc<64x16xf32, #s32> -> tensor<64x16xf32, #ta>
    %b = tkgpu.local_load %mb : !tkgpu.memdesc<16x16xf32, #s32t> -> tensor<16x16xf32, #tb>
    %d = tk.dot %a, %b, %c : tensor<64x16xf32, #ta> * tensor<16x16xf32, #tb> -> tensor<64x16xf32, #mma>
    return %d : tensor<64x16xf32, #mma>
  }
  func.func @i8(%ma: !tkgpu.memdesc<64x64xi8, #s8>, %mb: !tkgpu.memdesc<64x16xi8, #s8t>, %c: tensor<64x16xi32, #mma>) -> tensor<64x16xi32, #mma> {
    %a = tkgpu.local_load %ma : !tkgpu.memdesc<64x64xi8, #s8> -> tensor<64x64xi8, #ia>
    %b = tkgpu.local_load %mb : !tkgpu.memdesc<64x16xi8, #s8t> -> tensor<64x16xi8, #ib>
    %d = tk.dot %a, %b, %c : tensor<64x64xi8, #ia> * tensor<64x16xi8, #ib> -> tensor<64x16xi32, #mma>
    return %d : tensor<64x16xi32, #mma>
  }
}


// -----

// ldmatrix of a k-slice window (tkgpu-prefetch's form): columns 16-31 of a
// 64x32 f16 A tile whose swizzle (2 rows per 128 bytes, 4 phases) moves
// column chunks by the row. Column 16 is chunk 2, which the swizzle xors
// with the phase: the origin's image 16 is xored into each ldmatrix's
// address (groups 0 and 1024: 16 and 1040), where the whole tile's first
// K-slice uses the thread part itself and adds 1024 (bits it never sets).
// CHECK-LABEL: llvm.func internal @window
// CHECK-DAG: %[[G1:.*]] = llvm.mlir.constant(1040 : i32) : i32
// CHECK-DAG: %[[G0:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK: %[[T0:.*]] = llvm.xor %[[THREAD:.*]], %[[G0]] : i32
// CHECK: llvm.getelementptr %arg0[%[[T0]]]
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>, num = 4 : i32
// CHECK: %[[T1:.*]] = llvm.xor %[[THREAD]], %[[G1]] : i32
// CHECK: llvm.getelementptr %arg0[%[[T1]]]
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>, num = 4 : i32
// CHECK-NOT: nvvm.ldmatrix
// CHECK-LABEL: llvm.func internal @first_slice
// CHECK-DAG: %[[F1:.*]] = llvm.mlir.constant(1024 : i32) : i32
// CHECK: %[[P0:.*]] = llvm.getelementptr %arg0[%[[FT:[0-9]+]]]
// CHECK: nvvm.ldmatrix %[[P0]]
// CHECK: %[[FT1:.*]] = llvm.add %[[FT]], %[[F1]] : i32
// CHECK: nvvm.ldmatrix
// CHECK-NOT: nvvm.ldmatrix
#mma = #tkgpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#dA = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#sh = #tkgpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
  func.func @window(%buf: !tkgpu.memdesc<64x32xf16, #sh>) -> tensor<64x16xf16, #dA> {
    %a = tkgpu.local_load %buf at [0, 16] : !tkgpu.memdesc<64x32xf16, #sh> -> tensor<64x16xf16, #dA>
    return %a : tensor<64x16xf16, #dA>
  }
  func.func @first_slice(%buf: !tkgpu.memdesc<64x32xf16, #sh>) -> tensor<64x16xf16, #dA> {
    %a = tkgpu.local_load %buf at [0, 0] : !tkgpu.memdesc<64x32xf16, #sh> -> tensor<64x16xf16, #dA>
    return %a : tensor<64x16xf16, #dA>
  }
}

// -----

#mma = #tkgpu.mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#oa = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#ob = #tkgpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>

// A register A operand (attention's P): the conversion from the f16
// accumulator fragment to the A fragment is register moves only: no
// shared memory, no shuffle, no barrier before the 4 x 8 mmas of a warp's
// 16x64 tile (K = 64: 4 steps).
// CHECK-LABEL: llvm.func internal @register_a
// CHECK-NOT: llvm.store
// CHECK-NOT: llvm.load
// CHECK-NOT: nvvm.shfl.sync
// CHECK-NOT: nvvm.barrier
// CHECK-NOT: nvvm.ldmatrix
// CHECK-COUNT-32: nvvm.mma.sync
// CHECK-NOT: nvvm.mma.sync
// CHECK: llvm.return
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
  func.func @register_a(%s: tensor<64x64xf32, #mma>, %v: tensor<64x64xf16, #ob>, %acc: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %p = arith.truncf %s : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
    %a = tkgpu.convert_layout %p : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #oa>
    %d = tk.dot %a, %v, %acc : tensor<64x64xf16, #oa> * tensor<64x64xf16, #ob> -> tensor<64x64xf32, #mma>
    return %d : tensor<64x64xf32, #mma>
  }
}

// -----

#mma = #tkgpu.mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#oa = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#ob = #tkgpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>

// K-slices of a register A operand (tkgpu.extract_slice) are register
// picks: no memory access, no shuffle; 8 mmas per slice on a 16x64 warp
// tile.
// CHECK-LABEL: llvm.func internal @register_slices
// CHECK-NOT: llvm.store
// CHECK-NOT: llvm.load
// CHECK-NOT: nvvm.shfl.sync
// CHECK-COUNT-16: nvvm.mma.sync
// CHECK-NOT: nvvm.mma.sync
// CHECK: llvm.return
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
  func.func @register_slices(%a: tensor<64x32xf16, #oa>, %b0: tensor<16x64xf16, #ob>, %b1: tensor<16x64xf16, #ob>, %acc: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %a0 = tkgpu.extract_slice %a at [0, 0] : tensor<64x32xf16, #oa> -> tensor<64x16xf16, #oa>
    %a1 = tkgpu.extract_slice %a at [0, 16] : tensor<64x32xf16, #oa> -> tensor<64x16xf16, #oa>
    %d0 = tk.dot %a0, %b0, %acc : tensor<64x16xf16, #oa> * tensor<16x64xf16, #ob> -> tensor<64x64xf32, #mma>
    %d1 = tk.dot %a1, %b1, %d0 : tensor<64x16xf16, #oa> * tensor<16x64xf16, #ob> -> tensor<64x64xf32, #mma>
    return %d1 : tensor<64x64xf32, #mma>
  }
}
