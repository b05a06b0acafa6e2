// An unmasked lane outside every bound buffer stops the run with the .tk
// position, the program, the lane and the offset relative to the buffer.

// RUN: not tk-run %s --grid 4 --arg in_ptr=zeros:781 --arg out_ptr=zeros:1024 \
// RUN:   --arg n=1024 2>&1 | FileCheck %s --check-prefix=LOAD
// RUN: not tk-run %s --grid 4 --arg in_ptr=zeros:1024 --arg out_ptr=zeros:1000 \
// RUN:   --arg n=1024 2>&1 | FileCheck %s --check-prefix=STORE
// RUN: tk-run %s --grid 4 --arg in_ptr=zeros:1024 --arg out_ptr=zeros:1000 \
// RUN:   --arg n=1000

// LOAD: softmax.tk:9:9: error: out-of-bounds load in program (3, 0, 0): lane 13 reads byte offset 3124 past the end of a 3124-byte buffer (in_ptr + 781 elements)
// STORE: softmax.tk:14:5: error: out-of-bounds store in program (3, 0, 0): lane 232 writes byte offset 4000 past the end of a 4000-byte buffer (out_ptr + 1000 elements)

func.func @copy(%in: !tk.ptr<f32>, %out: !tk.ptr<f32>, %n: i32)
    attributes {tk.kernel, tk.arg_names = ["in_ptr", "out_ptr", "n"]} {
  %pid = tk.program_id 0 : i32
  %c256 = arith.constant 256 : i32
  %base = arith.muli %pid, %c256 : i32
  %lanes = tk.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
  %bases = tk.splat %base : i32 -> tensor<256xi32>
  %offsets = arith.addi %bases, %lanes : tensor<256xi32>
  %ns = tk.splat %n : i32 -> tensor<256xi32>
  %mask = arith.cmpi slt, %offsets, %ns : tensor<256xi32>
  %ins = tk.splat %in : !tk.ptr<f32> -> tensor<256x!tk.ptr<f32>>
  %inp = tk.addptr %ins, %offsets : tensor<256x!tk.ptr<f32>>, tensor<256xi32>
  %x = tk.load %inp, mask %mask : tensor<256x!tk.ptr<f32>> -> tensor<256xf32>, tensor<256xi1> loc("softmax.tk":9:9)
  %outs = tk.splat %out : !tk.ptr<f32> -> tensor<256x!tk.ptr<f32>>
  %outp = tk.addptr %outs, %offsets : tensor<256x!tk.ptr<f32>>, tensor<256xi32>
  tk.store %outp, %x, mask %mask : tensor<256x!tk.ptr<f32>>, tensor<256xf32>, tensor<256xi1> loc("softmax.tk":14:5)
  return
}
