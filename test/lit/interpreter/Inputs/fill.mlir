// out[row, col] = sin(row * 0.37 + col * 0.011) * 5: deterministic test
// data for softmax-shaped inputs (one program per row).
func.func @fill(%out: !tk.ptr<f32>, %n_cols: i32)
    attributes {tk.kernel, tk.arg_names = ["out_ptr", "n_cols"]} {
  %row = tk.program_id 0 : i32
  %cols = tk.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %ncols = tk.splat %n_cols : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %cols, %ncols : tensor<1024xi32>
  %rowf = arith.sitofp %row : i32 to f32
  %k1 = arith.constant 0.37 : f32
  %rowv = arith.mulf %rowf, %k1 : f32
  %rows = tk.splat %rowv : f32 -> tensor<1024xf32>
  %colf = arith.sitofp %cols : tensor<1024xi32> to tensor<1024xf32>
  %k2 = arith.constant dense<0.011> : tensor<1024xf32>
  %colv = arith.mulf %colf, %k2 : tensor<1024xf32>
  %arg = arith.addf %rows, %colv : tensor<1024xf32>
  %s = math.sin %arg : tensor<1024xf32>
  %k3 = arith.constant dense<5.0> : tensor<1024xf32>
  %v = arith.mulf %s, %k3 : tensor<1024xf32>
  %offset = arith.muli %row, %n_cols : i32
  %base = tk.addptr %out, %offset : !tk.ptr<f32>, i32
  %bases = tk.splat %base : !tk.ptr<f32> -> tensor<1024x!tk.ptr<f32>>
  %ptrs = tk.addptr %bases, %cols : tensor<1024x!tk.ptr<f32>>, tensor<1024xi32>
  tk.store %ptrs, %v, mask %mask : tensor<1024x!tk.ptr<f32>>, tensor<1024xf32>, tensor<1024xi1>
  return
}
