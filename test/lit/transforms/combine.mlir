// RUN: tk-opt %s -tk-combine | FileCheck %s

// CHECK-LABEL: func.func @nested_addptr
func.func @nested_addptr(%p: tensor<8x!tk.ptr<f32>>, %a: tensor<8xi32>, %b: tensor<8xi32>) -> tensor<8x!tk.ptr<f32>> {
  // CHECK: %[[SUM:.*]] = arith.addi %arg1, %arg2 : tensor<8xi32>
  // CHECK-NEXT: %[[P:.*]] = tk.addptr %arg0, %[[SUM]]
  // CHECK-NEXT: return %[[P]]
  %q = tk.addptr %p, %a : tensor<8x!tk.ptr<f32>>, tensor<8xi32>
  %r = tk.addptr %q, %b : tensor<8x!tk.ptr<f32>>, tensor<8xi32>
  return %r : tensor<8x!tk.ptr<f32>>
}

// CHECK-LABEL: func.func @broadcast_of_splat
func.func @broadcast_of_splat(%x: f32) -> tensor<4x8xf32> {
  // CHECK: %[[S:.*]] = tk.splat %arg0 : f32 -> tensor<4x8xf32>
  // CHECK-NEXT: return %[[S]]
  %s = tk.splat %x : f32 -> tensor<4x1xf32>
  %b = tk.broadcast %s : tensor<4x1xf32> -> tensor<4x8xf32>
  return %b : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @select_of_load
func.func @select_of_load(%p: tensor<8x!tk.ptr<f32>>, %m: tensor<8xi1>, %o: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK: %[[L:.*]] = tk.load %arg0, mask %arg1, other %arg2
  // CHECK-NOT: arith.select
  // CHECK: return %[[L]]
  %x = tk.load %p, mask %m : tensor<8x!tk.ptr<f32>> -> tensor<8xf32>, tensor<8xi1>
  %y = arith.select %m, %x, %o : tensor<8xi1>, tensor<8xf32>
  return %y : tensor<8xf32>
}

// CHECK-LABEL: func.func @add_into_dot
func.func @add_into_dot(%a: tensor<16x16xf16>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  // CHECK: %[[D:.*]] = tk.dot %arg0, %arg0, %arg1
  // CHECK-NOT: arith.addf
  // CHECK: return %[[D]]
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  %d = tk.dot %a, %a, %z : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %e = arith.addf %d, %c : tensor<16x16xf32>
  return %e : tensor<16x16xf32>
}

// A dot whose accumulator is not zero keeps its add.
// CHECK-LABEL: func.func @add_into_dot_nonzero
func.func @add_into_dot_nonzero(%a: tensor<16x16xf16>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  // CHECK: tk.dot %arg0, %arg0, %arg1
  // CHECK: arith.addf
  %d = tk.dot %a, %a, %c : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %e = arith.addf %d, %c : tensor<16x16xf32>
  return %e : tensor<16x16xf32>
}
