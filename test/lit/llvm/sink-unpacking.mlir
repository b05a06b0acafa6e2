// RUN: tk-opt %s -tk-llvm-sink-unpacking | FileCheck %s
// Unpacking and widening ops move down to their first user in the block:
// the packed vector stays packed across the unrelated work in between. A
// value used in another block stays put.

// CHECK-LABEL: llvm.func @sink
// CHECK: %[[V:.*]] = llvm.load
// CHECK: %[[E:.*]] = llvm.extractelement %[[V]]
// CHECK-NEXT: llvm.br ^bb1
// CHECK: ^bb1:
// CHECK-NEXT: llvm.fmul
// CHECK-NEXT: llvm.fmul
// CHECK-NEXT: llvm.extractelement %[[V]]
// CHECK-NEXT: llvm.fpext
// CHECK-NEXT: llvm.fadd
llvm.func @sink(%p: !llvm.ptr<1>, %x: f32) -> f32 {
  %v = llvm.load %p : !llvm.ptr<1> -> vector<2xf16>
  %i0 = llvm.mlir.constant(0 : i32) : i32
  %i1 = llvm.mlir.constant(1 : i32) : i32
  %e = llvm.extractelement %v[%i0 : i32] : vector<2xf16>
  llvm.br ^bb1
^bb1:
  %h = llvm.extractelement %v[%i1 : i32] : vector<2xf16>
  %f = llvm.fpext %h : f16 to f32
  %a = llvm.fmul %x, %x : f32
  %b = llvm.fmul %a, %x : f32
  %s = llvm.fadd %b, %f : f32
  %g = llvm.fpext %e : f16 to f32
  %t = llvm.fadd %s, %g : f32
  llvm.return %t : f32
}
