// The seed matmul (Inputs/matmul.mlir, 64x64 blocks, K loop of 32) on a
// 3x5 @ 5x2 problem: every block and K step is partial, so the masks and
// the `% M` wrap of the row offsets matter. Small integers: exact in f32.

// RUN: tk-run %S/Inputs/matmul.mlir --grid 1 \
// RUN:   --arg 'a_ptr=[1, 2, 3, 4, 5,  0, 1, 0, 1, 0,  -1, -2, -3, -4, -5]' \
// RUN:   --arg 'b_ptr=[1, 0,  0, 1,  1, 1,  2, -1,  0, 3]' \
// RUN:   --arg c_ptr=zeros:3x2 --arg M=3 --arg N=2 --arg K=5 \
// RUN:   --arg stride_am=5 --arg stride_ak=1 --arg stride_bk=2 --arg stride_bn=1 \
// RUN:   --arg stride_cm=2 --arg stride_cn=1 --dump c_ptr | FileCheck %s

// CHECK: c_ptr: f32[3x2]
// CHECK-NEXT: 12 16
// CHECK-NEXT: 2 0
// CHECK-NEXT: -12 -16

// A K loop whose bound comes from an argument (what Triton 3.6's
// interpreter could not run): K = 0 leaves C = 0.
// RUN: tk-run %S/Inputs/matmul.mlir --grid 1 --arg 'a_ptr=[1]' --arg 'b_ptr=[1]' \
// RUN:   --arg c_ptr=zeros:1 --arg M=1 --arg N=1 --arg K=0 \
// RUN:   --arg stride_am=1 --arg stride_ak=1 --arg stride_bk=1 --arg stride_bn=1 \
// RUN:   --arg stride_cm=1 --arg stride_cn=1 --dump c_ptr | FileCheck %s --check-prefix=EMPTY
// EMPTY: c_ptr: f32[1]
// EMPTY-NEXT: 0
