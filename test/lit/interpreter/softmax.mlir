// The seed softmax (Inputs/softmax.mlir) on 1823 x 781 values made by a
// fill kernel, checked by a kernel that asserts each row sums to 1 and that
// every output is in (0, 1].

// RUN: tk-run %S/Inputs/fill.mlir --grid 1823 --arg out_ptr=zeros:1823x781 \
// RUN:   --arg n_cols=781 --write out_ptr=%t.x.npy
// RUN: tk-run %S/Inputs/softmax.mlir --grid 1823 --arg in_ptr=%t.x.npy \
// RUN:   --arg out_ptr=zeros:1823x781 --arg in_stride=781 --arg out_stride=781 \
// RUN:   --arg n_cols=781 --write out_ptr=%t.y.npy
// RUN: tk-run %s --grid 1823 --arg y_ptr=%t.y.npy --arg n_cols=781

func.func @check_rows(%y: !tk.ptr<f32>, %n_cols: i32)
    attributes {tk.kernel, tk.arg_names = ["y_ptr", "n_cols"]} {
  %row = tk.program_id 0 : i32
  %cols = tk.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %ncols = tk.splat %n_cols : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %cols, %ncols : tensor<1024xi32>
  %offset = arith.muli %row, %n_cols : i32
  %base = tk.addptr %y, %offset : !tk.ptr<f32>, i32
  %bases = tk.splat %base : !tk.ptr<f32> -> tensor<1024x!tk.ptr<f32>>
  %ptrs = tk.addptr %bases, %cols : tensor<1024x!tk.ptr<f32>>, tensor<1024xi32>
  %zero = arith.constant dense<0.0> : tensor<1024xf32>
  %v = tk.load %ptrs, mask %mask, other %zero : tensor<1024x!tk.ptr<f32>> -> tensor<1024xf32>, tensor<1024xi1>
  %sum = tk.reduce sum %v {axis = 0 : i32} : tensor<1024xf32> -> f32
  %one = arith.constant 1.0 : f32
  %err = arith.subf %sum, %one : f32
  %abs = math.absf %err : f32
  %tol = arith.constant 1.0e-5 : f32
  %ok = arith.cmpf olt, %abs, %tol : f32
  tk.assert %ok, "row sums to 1" : i1
  %positive = arith.cmpf ogt, %v, %zero : tensor<1024xf32>
  %ones = arith.constant dense<1.0> : tensor<1024xf32>
  %at_most_one = arith.cmpf ole, %v, %ones : tensor<1024xf32>
  %in_range = arith.andi %positive, %at_most_one : tensor<1024xi1>
  %masked_ok = arith.cmpi ule, %mask, %in_range : tensor<1024xi1>
  tk.assert %masked_ok, "softmax output in (0, 1]" : tensor<1024xi1>
  return
}
