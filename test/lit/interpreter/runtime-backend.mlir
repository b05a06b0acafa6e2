// tk-run --gpu runs kernels through libtkrt: device buffers, arguments typed
// and checked against the metadata, Kernel::launchPacked. The same path with
// libtkrt's "interpreter" backend (--runtime-backend, a testing option) runs
// here without a GPU.

// RUN: tk-run %s --runtime-backend=interpreter --grid 2 --arg 'x_ptr=[1, -2, 3, 4, 5, 6]' \
// RUN:   --arg out_ptr=zeros:6 --arg n=6 --arg scale=-3 --arg bias=0.5 --dump out_ptr \
// RUN:   --write out_ptr=%t.npy | FileCheck %s
// CHECK: out_ptr: f32[6]
// CHECK-NEXT: -2.5 6.5 -8.5 -11.5 -14.5 -17.5

// RUN: tk-run %s --runtime-backend=interpreter --grid 2 --arg x_ptr=%t.npy \
// RUN:   --arg out_ptr=zeros:6 --arg n=6 --arg scale=1 --arg bias=0 --dump out_ptr \
// RUN:   | FileCheck %s --check-prefix=AGAIN
// AGAIN: -2.5 6.5 -8.5 -11.5 -14.5 -17.5

// Out-of-bounds accesses are caught by the backend too (its buffers are
// the registered ones).
// RUN: not tk-run %s --runtime-backend=interpreter --grid 2 --arg 'x_ptr=[1, 2, 3, 4, 5]' \
// RUN:   --arg out_ptr=zeros:6 --arg n=6 --arg scale=1 --arg bias=0 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OOB
// OOB: scale.tk:5:9: error: out-of-bounds load in program (1, 0, 0): lane 1 reads byte offset 20 past the end of a 20-byte buffer (x_ptr + 5 elements)

// RUN: not tk-run %s --runtime-backend=nonesuch --grid 2 --arg 'x_ptr=[1]' \
// RUN:   --arg out_ptr=zeros:1 --arg n=1 --arg scale=1 --arg bias=0 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOBACKEND
// NOBACKEND: tk-run: error: no backend named 'nonesuch' is registered

func.func @scale(%x: !tk.ptr<f32>, %out: !tk.ptr<f32>, %n: i32, %scale: i8, %bias: f32)
    attributes {tk.kernel, tk.arg_names = ["x_ptr", "out_ptr", "n", "scale", "bias"],
                tk.arg_types = ["*f32", "*f32", "i32", "i8", "f32"],
                tk.arg_specs = ["none", "none", "none", "none", "none"]} {
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
  %v = tk.load %xp, mask %mask : tensor<4x!tk.ptr<f32>> -> tensor<4xf32>, tensor<4xi1> loc("scale.tk":5:9)
  %sf = arith.sitofp %scale : i8 to f32
  %sfs = tk.splat %sf : f32 -> tensor<4xf32>
  %bs = tk.splat %bias : f32 -> tensor<4xf32>
  %m = arith.mulf %v, %sfs : tensor<4xf32>
  %r = arith.addf %m, %bs : tensor<4xf32>
  %outs = tk.splat %out : !tk.ptr<f32> -> tensor<4x!tk.ptr<f32>>
  %outp = tk.addptr %outs, %offsets : tensor<4x!tk.ptr<f32>>, tensor<4xi32>
  tk.store %outp, %r, mask %mask : tensor<4x!tk.ptr<f32>>, tensor<4xf32>, tensor<4xi1>
  return
}
