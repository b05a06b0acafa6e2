// RUN: tk-opt %s -split-input-file -tk-unroll-loops | FileCheck %s

// A run-time trip count: the main loop steps by 2 with two bodies, a
// remainder loop takes what is left; the attribute is gone.
// CHECK-LABEL: func.func @dynamic
// CHECK: %[[C2:.*]] = arith.constant 2 : i32
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK-COUNT-2: arith.addf
// CHECK: scf.yield
// CHECK: scf.for
// CHECK-COUNT-1: arith.addf
// CHECK-NOT: tk.loop_unroll_factor
func.func @dynamic(%n: i32, %x: f32) -> f32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (f32) : i32 {
    %s = arith.addf %acc, %x : f32
    scf.yield %s : f32
  } {tk.loop_unroll_factor = 2 : i32, tk.num_stages = 2 : i32}
  return %r : f32
}

// -----

// A constant trip count that the factor divides: one loop of four bodies.
// CHECK-LABEL: func.func @constant
// CHECK: scf.for
// CHECK-COUNT-4: arith.mulf
// CHECK: scf.yield
// CHECK-NOT: scf.for
func.func @constant(%x: f32) -> f32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c16 = arith.constant 16 : i32
  %r = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %x) -> (f32) : i32 {
    %s = arith.mulf %acc, %x : f32
    scf.yield %s : f32
  } {tk.loop_unroll_factor = 4 : i32}
  return %r : f32
}

// -----

// Factor 1 leaves the loop alone.
// CHECK-LABEL: func.func @one
// CHECK: scf.for
// CHECK-COUNT-1: arith.subf
// CHECK-NOT: arith.subf
// CHECK-NOT: tk.loop_unroll_factor
func.func @one(%n: i32, %x: f32) -> f32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (f32) : i32 {
    %s = arith.subf %acc, %x : f32
    scf.yield %s : f32
  } {tk.loop_unroll_factor = 1 : i32}
  return %r : f32
}
