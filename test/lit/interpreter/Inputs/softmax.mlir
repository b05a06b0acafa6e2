// The seed softmax (examples/softmax.tk) in tk IR, as the frontend emits it:
// one program per row, BLOCK = 1024 >= n_cols.
func.func @softmax(%out: !tk.ptr<f32>, %in: !tk.ptr<f32>, %in_stride: i32,
                   %out_stride: i32, %n_cols: i32)
    attributes {tk.kernel, tk.arg_names = ["out_ptr", "in_ptr", "in_stride", "out_stride", "n_cols"],
                tk.arg_types = ["*f32", "*f32", "i32", "i32", "i32"]} {
  %row = tk.program_id 0 : i32
  %cols = tk.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %ncols = tk.splat %n_cols : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %cols, %ncols : tensor<1024xi32>
  %in_row_offset = arith.muli %row, %in_stride : i32
  %in_row = tk.addptr %in, %in_row_offset : !tk.ptr<f32>, i32
  %in_rows = tk.splat %in_row : !tk.ptr<f32> -> tensor<1024x!tk.ptr<f32>>
  %in_ptrs = tk.addptr %in_rows, %cols : tensor<1024x!tk.ptr<f32>>, tensor<1024xi32>
  %neg_inf = arith.constant dense<0xFF800000> : tensor<1024xf32>
  %x = tk.load %in_ptrs, mask %mask, other %neg_inf : tensor<1024x!tk.ptr<f32>> -> tensor<1024xf32>, tensor<1024xi1>
  %max = tk.reduce max %x {axis = 0 : i32} : tensor<1024xf32> -> f32
  %maxs = tk.splat %max : f32 -> tensor<1024xf32>
  %shifted = arith.subf %x, %maxs : tensor<1024xf32>
  %num = math.exp %shifted : tensor<1024xf32>
  %den = tk.reduce sum %num {axis = 0 : i32} : tensor<1024xf32> -> f32
  %dens = tk.splat %den : f32 -> tensor<1024xf32>
  %y = arith.divf %num, %dens : tensor<1024xf32>
  %out_row_offset = arith.muli %row, %out_stride : i32
  %out_row = tk.addptr %out, %out_row_offset : !tk.ptr<f32>, i32
  %out_rows = tk.splat %out_row : !tk.ptr<f32> -> tensor<1024x!tk.ptr<f32>>
  %out_ptrs = tk.addptr %out_rows, %cols : tensor<1024x!tk.ptr<f32>>, tensor<1024xi32>
  tk.store %out_ptrs, %y, mask %mask : tensor<1024x!tk.ptr<f32>>, tensor<1024xf32>, tensor<1024xi1>
  return
}
