// RUN: tk-opt %s -split-input-file -convert-tkgpu-to-llvm -canonicalize -cse -reconcile-unrealized-casts | FileCheck %s
// Explicit shared memory: local_alloc at its tkgpu.offset, local_store /
// local_load through the shared layout's LinearLayout (swizzle xors,
// vector widths), memdesc_index, local_dealloc, barrier.

#blocked = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#swizzled = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>

// 64x64xf16, rows of 64, the 8-element vectors of row r xored with r % 8.
// Registers 0-7 are 8 consecutive columns (one 16-byte vector); lane bits
// 0-1 are columns 8, 16, lane bits 2-4 rows 1, 2, 4 (offsets 64 ^ 8,
// 128 ^ 16, 256 ^ 32), warps rows 8, 16 (512, 1024). Register bit 3 is
// column 32, which the lane part also sets through the swizzle of row 4:
// an xor; register bit 4 is row 32 (2048, no swizzle bit): an add.
// The buffer is at tk_smem + 1024; the module needs 1024 + 8192 bytes.
// CHECK: tkgpu.shared_bytes = 9216 : i32
// CHECK-LABEL: llvm.func {{.*}}@store_swizzled(
// CHECK-DAG: llvm.mlir.constant(72 : i32)
// CHECK-DAG: llvm.mlir.constant(144 : i32)
// CHECK-DAG: llvm.mlir.constant(288 : i32)
// CHECK-DAG: %[[C32:.*]] = llvm.mlir.constant(32 : i32) : i32
// CHECK-DAG: %[[C2048:.*]] = llvm.mlir.constant(2048 : i32) : i32
// CHECK: %[[SMEM:.*]] = llvm.mlir.addressof @tk_smem : !llvm.ptr<3>
// CHECK: %[[BASE:.*]] = llvm.getelementptr %[[SMEM]][1024] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: %[[X:.*]] = llvm.xor %[[T:[0-9]+]], %[[C32]] : i32
// CHECK: %[[R32:.*]] = llvm.add %[[T]], %[[C2048]] : i32
// CHECK: %[[XR32:.*]] = llvm.add %[[X]], %[[C2048]] : i32
// CHECK: %[[P0:.*]] = llvm.getelementptr %[[BASE]][%[[T]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
// CHECK: llvm.store %{{.*}}, %[[P0]] {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
// CHECK: %[[P1:.*]] = llvm.getelementptr %[[BASE]][%[[X]]]
// CHECK: llvm.store %{{.*}}, %[[P1]] {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
// CHECK: %[[P2:.*]] = llvm.getelementptr %[[BASE]][%[[R32]]]
// CHECK: llvm.store %{{.*}}, %[[P2]] {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
// CHECK: %[[P3:.*]] = llvm.getelementptr %[[BASE]][%[[XR32]]]
// CHECK: llvm.store %{{.*}}, %[[P3]] {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
// CHECK-NOT: llvm.store
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
func.func @store_swizzled(%x: tensor<64x64xf16, #blocked>) {
  %m = tkgpu.local_alloc %x : tensor<64x64xf16, #blocked> -> {tkgpu.offset = 1024 : i64} !tkgpu.memdesc<64x64xf16, #swizzled>
  tkgpu.local_dealloc %m : !tkgpu.memdesc<64x64xf16, #swizzled>
  return
}
}

// -----

// Slot %i of a 4-buffer allocation is 64 * 64 * 2 = 8192 bytes further;
// the load mirrors the store: four 16-byte vectors.
#blocked = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#swizzled = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#swizzled3 = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [2, 1, 0]}>
// CHECK: tkgpu.shared_bytes = 32768 : i32
// CHECK-LABEL: llvm.func {{.*}}@load_slot(
// CHECK-SAME: %[[I:.*]]: i32
// CHECK-DAG: %[[SMEM:.*]] = llvm.mlir.addressof @tk_smem : !llvm.ptr<3>
// CHECK-DAG: %[[C8192:.*]] = llvm.mlir.constant(8192 : i32) : i32
// CHECK: %[[BYTES:.*]] = llvm.mul %[[I]], %[[C8192]] : i32
// CHECK: %[[SLOT:.*]] = llvm.getelementptr %[[SMEM]][%[[BYTES]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-COUNT-4: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
// CHECK-NOT: llvm.load
// CHECK: llvm.return
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
func.func @load_slot(%i: i32) -> tensor<64x64xf16, #blocked> {
  %buf = tkgpu.local_alloc !tkgpu.memdesc<4x64x64xf16, #swizzled3>
  %s = tkgpu.memdesc_index %buf[%i] : !tkgpu.memdesc<4x64x64xf16, #swizzled3> -> !tkgpu.memdesc<64x64xf16, #swizzled>
  %v = tkgpu.local_load %s : !tkgpu.memdesc<64x64xf16, #swizzled> -> tensor<64x64xf16, #blocked>
  return %v : tensor<64x64xf16, #blocked>
}
}

// -----

// A column-major layout (4 consecutive rows per thread): vectors of 4 f32
// into a column-major buffer, single elements into a row-major one (rows
// of 16: offsets 0, 16, 32, 48 from the thread's).
#col = #tkgpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#colmajor = #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
#rowmajor = #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// CHECK-LABEL: llvm.func {{.*}}@column_major(
// CHECK-DAG: %[[C16:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK-DAG: %[[C32:.*]] = llvm.mlir.constant(32 : i32) : i32
// CHECK-DAG: %[[C48:.*]] = llvm.mlir.constant(48 : i32) : i32
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// CHECK-NOT: llvm.store {{.*}}vector
// CHECK: %[[B:.*]] = llvm.getelementptr %{{.*}}[2048] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: %[[O1:.*]] = llvm.add %[[T:[0-9]+]], %[[C16]] : i32
// CHECK: %[[O2:.*]] = llvm.add %[[T]], %[[C32]] : i32
// CHECK: %[[O3:.*]] = llvm.add %[[T]], %[[C48]] : i32
// CHECK: %[[P0:.*]] = llvm.getelementptr %[[B]][%[[T]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK: llvm.store %{{.*}}, %[[P0]] {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK: %[[P1:.*]] = llvm.getelementptr %[[B]][%[[O1]]]
// CHECK: llvm.store %{{.*}}, %[[P1]] {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK: %[[P2:.*]] = llvm.getelementptr %[[B]][%[[O2]]]
// CHECK: llvm.store %{{.*}}, %[[P2]] {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK: %[[P3:.*]] = llvm.getelementptr %[[B]][%[[O3]]]
// CHECK: llvm.store %{{.*}}, %[[P3]] {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK-NOT: llvm.store
// CHECK: llvm.return
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
func.func @column_major(%x: tensor<32x16xf32, #col>) {
  %a = tkgpu.local_alloc !tkgpu.memdesc<32x16xf32, #colmajor>
  tkgpu.local_store %x, %a : tensor<32x16xf32, #col> -> !tkgpu.memdesc<32x16xf32, #colmajor>
  %b = tkgpu.local_alloc {tkgpu.offset = 2048 : i64} !tkgpu.memdesc<32x16xf32, #rowmajor>
  tkgpu.local_store %x, %b : tensor<32x16xf32, #col> -> !tkgpu.memdesc<32x16xf32, #rowmajor>
  return
}
}

// -----

// 16 elements on 128 threads: lanes 16-31 and warps 1-3 repeat lanes 0-15
// of warp 0, which alone store (predicated); every thread loads. A barrier
// is bar.sync 0.
#v1 = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#plain = #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// CHECK-LABEL: llvm.func {{.*}}@replicated(
// CHECK-DAG: %[[C16:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK-DAG: %[[C3:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK: llvm.and %{{.*}}, %[[C16]] : i32
// CHECK: llvm.and %{{.*}}, %[[C3]] : i32
// CHECK: %[[OWNER:.*]] = llvm.and %{{.*}}, %{{.*}} : i1
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "@$0 st.shared.b32 [ $1 + 0 ], $2;", "b,l,r" %[[OWNER]]
// CHECK-NEXT: nvvm.barrier0
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK: llvm.return
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
func.func @replicated(%x: tensor<16xf32, #v1>) -> tensor<16xf32, #v1> {
  %a = tkgpu.local_alloc !tkgpu.memdesc<16xf32, #plain>
  tkgpu.local_store %x, %a : tensor<16xf32, #v1> -> !tkgpu.memdesc<16xf32, #plain>
  tkgpu.barrier
  %y = tkgpu.local_load %a : !tkgpu.memdesc<16xf32, #plain> -> tensor<16xf32, #v1>
  return %y : tensor<16xf32, #v1>
}
}

// -----

// A window (local_load with offsets) of a swizzled 64x64 buffer: the
// window's origin (32, 32) is row 32 (offset 2048) and column chunk 4,
// which the swizzle (phase over chunk bits 0-1) never moves: the origin's
// image, 2080, adds to the thread part (no xor), and the 16-byte vectors
// of the whole-buffer load stay.
// CHECK-LABEL: llvm.func internal @window
// CHECK-DAG: %[[ORIGIN:.*]] = llvm.mlir.constant(2080 : i32) : i32
// CHECK: %[[OFF:.*]] = llvm.add %{{.*}}, %[[ORIGIN]] : i32
// CHECK: %[[PTR:.*]] = llvm.getelementptr %arg0[%[[OFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
// CHECK: llvm.load %[[PTR]] {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
// CHECK-NOT: llvm.load
// CHECK: llvm.return
#bl = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #tkgpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
  func.func @window(%buf: !tkgpu.memdesc<64x64xf16, #sh>) -> tensor<32x32xf16, #bl> {
    %a = tkgpu.local_load %buf at [32, 32] : !tkgpu.memdesc<64x64xf16, #sh> -> tensor<32x32xf16, #bl>
    return %a : tensor<32x32xf16, #bl>
  }
}

// -----

// memdesc_trans is the source's address: a 32x16 row-major buffer seen as
// 16x32 with dimension 0 contiguous. Loading the view with 4 elements of
// view dimension 0 per thread reads 4 consecutive floats of a source row
// (one 16-byte vector, lanes 2-4 one source row of 16 apart, warps 8 rows);
// with 4 of view dimension 1 it reads down a source column (offsets 16,
// 32, 48, then 256 + those for the second 16 rows). Both straight from
// %arg0, the source buffer.
#rowmajor = #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#colmajor = #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
#vcol = #tkgpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#vrow = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: llvm.func internal @trans_view(
// CHECK-SAME: %[[SRC:[^:]*]]: !llvm.ptr<3>
// CHECK-DAG: %[[C16:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK-DAG: %[[C32:.*]] = llvm.mlir.constant(32 : i32) : i32
// CHECK-DAG: %[[C48:.*]] = llvm.mlir.constant(48 : i32) : i32
// CHECK-DAG: %[[C256:.*]] = llvm.mlir.constant(256 : i32) : i32
// CHECK: %[[V:.*]] = llvm.getelementptr %[[SRC]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: llvm.load %[[V]] {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK-NOT: llvm.load {{.*}}vector
// CHECK: llvm.add %[[T:[0-9]+]], %[[C16]] : i32
// CHECK-NEXT: llvm.add %[[T]], %[[C32]] : i32
// CHECK-NEXT: llvm.add %[[T]], %[[C48]] : i32
// CHECK-NEXT: llvm.add %[[T]], %[[C256]] : i32
// CHECK: llvm.getelementptr %[[SRC]][%[[T]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK-COUNT-7: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK-NOT: llvm.load
// CHECK: llvm.return
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
func.func @trans_view(%buf: !tkgpu.memdesc<32x16xf32, #rowmajor>) -> (tensor<16x32xf32, #vcol>, tensor<16x32xf32, #vrow>) {
  %v = tkgpu.memdesc_trans %buf {order = array<i32: 1, 0>} : !tkgpu.memdesc<32x16xf32, #rowmajor> -> !tkgpu.memdesc<16x32xf32, #colmajor>
  %a = tkgpu.local_load %v : !tkgpu.memdesc<16x32xf32, #colmajor> -> tensor<16x32xf32, #vcol>
  %b = tkgpu.local_load %v : !tkgpu.memdesc<16x32xf32, #colmajor> -> tensor<16x32xf32, #vrow>
  return %a, %b : tensor<16x32xf32, #vcol>, tensor<16x32xf32, #vrow>
}
}
