// Vector add with a masked tail, device_print, --dump, and an .npy round
// trip: the output written by one run is the input of the next.

// RUN: tk-run %s --grid 2 --arg 'x_ptr=[1, 2, 3, 4, 5, 6]' \
// RUN:   --arg 'y_ptr=[10, 20, 30, 40, 50, 60.5]' --arg out_ptr=zeros:6 \
// RUN:   --arg n=6 --dump out_ptr --write out_ptr=%t.npy | FileCheck %s
// RUN: not tk-run %s --grid 2 --arg x_ptr=%t.npy --arg x_ptr2=%t.npy 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UNKNOWN
// RUN: tk-run %s --grid 2 --arg x_ptr=%t.npy --arg y_ptr=%t.npy \
// RUN:   --arg out_ptr=zeros:6 --arg n=6 --dump out_ptr \
// RUN:   | FileCheck %s --check-prefix=TWICE

// CHECK: pid (0, 0, 0) idx (0) s: 11
// CHECK-NEXT: pid (0, 0, 0) idx (1) s: 22
// CHECK-NEXT: pid (0, 0, 0) idx (2) s: 33
// CHECK-NEXT: pid (0, 0, 0) idx (3) s: 44
// CHECK-NEXT: pid (1, 0, 0) idx (0) s: 55
// CHECK-NEXT: pid (1, 0, 0) idx (1) s: 66.5
// Masked lanes load 0 (no `other`).
// CHECK-NEXT: pid (1, 0, 0) idx (2) s: 0
// CHECK-NEXT: pid (1, 0, 0) idx (3) s: 0
// CHECK-NEXT: out_ptr: f32[6]
// CHECK-NEXT:   11 22 33 44 55 66.5

// UNKNOWN: tk-run: error: kernel 'add' has no parameter 'x_ptr2' (parameters: x_ptr, y_ptr, out_ptr, n)

// TWICE: out_ptr: f32[6]
// TWICE-NEXT: 22 44 66 88 110 133

func.func @add(%x: !tk.ptr<f32>, %y: !tk.ptr<f32>, %out: !tk.ptr<f32>, %n: i32)
    attributes {tk.kernel, tk.arg_names = ["x_ptr", "y_ptr", "out_ptr", "n"]} {
  %pid = tk.program_id 0 : i32
  %c4 = arith.constant 4 : i32
  %base = arith.muli %pid, %c4 : i32
  %lanes = tk.make_range {start = 0 : i32, end = 4 : i32} : tensor<4xi32>
  %bases = tk.splat %base : i32 -> tensor<4xi32>
  %offsets = arith.addi %bases, %lanes : tensor<4xi32>
  %ns = tk.splat %n : i32 -> tensor<4xi32>
  %mask = arith.cmpi slt, %offsets, %ns : tensor<4xi32>
  %xs = tk.splat %x : !tk.ptr<f32> -> tensor<4x!tk.ptr<f32>>
  %xp = tk.addptr %xs, %offsets : tensor<4x!tk.ptr<f32>>, tensor<4xi32>
  %ys = tk.splat %y : !tk.ptr<f32> -> tensor<4x!tk.ptr<f32>>
  %yp = tk.addptr %ys, %offsets : tensor<4x!tk.ptr<f32>>, tensor<4xi32>
  %a = tk.load %xp, mask %mask : tensor<4x!tk.ptr<f32>> -> tensor<4xf32>, tensor<4xi1>
  %b = tk.load %yp, mask %mask : tensor<4x!tk.ptr<f32>> -> tensor<4xf32>, tensor<4xi1>
  %s = arith.addf %a, %b : tensor<4xf32>
  tk.print " s: " %s : tensor<4xf32>
  %outs = tk.splat %out : !tk.ptr<f32> -> tensor<4x!tk.ptr<f32>>
  %outp = tk.addptr %outs, %offsets : tensor<4x!tk.ptr<f32>>, tensor<4xi32>
  tk.store %outp, %s, mask %mask : tensor<4x!tk.ptr<f32>>, tensor<4xf32>, tensor<4xi1>
  return
}
