#row = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #tkgpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#bc = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
  // y = x (through a transposing layout conversion), z = x (through one to a
  // layout that replicates rows over warps... 16x16 on 128 threads).
  func.func @convert(%x: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %y: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %z: !tk.ptr<f32> {tk.divisibility = 16 : i32}) attributes {tk.kernel} {
    %r = tk.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 1, parent = #row}>>
    %c = tk.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 0, parent = #row}>>
    %r2 = tk.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 1, parent = #row}>> -> tensor<64x1xi32, #row>
    %c2 = tk.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 0, parent = #row}>> -> tensor<1x64xi32, #row>
    %k64 = arith.constant dense<64> : tensor<64x1xi32, #row>
    %rm = arith.muli %r2, %k64 : tensor<64x1xi32, #row>
    %rb = tk.broadcast %rm : tensor<64x1xi32, #row> -> tensor<64x64xi32, #row>
    %cb = tk.broadcast %c2 : tensor<1x64xi32, #row> -> tensor<64x64xi32, #row>
    %off = arith.addi %rb, %cb : tensor<64x64xi32, #row>
    %xs = tk.splat %x : !tk.ptr<f32> -> tensor<64x64x!tk.ptr<f32>, #row>
    %xp = tk.addptr %xs, %off : tensor<64x64x!tk.ptr<f32>, #row>, tensor<64x64xi32, #row>
    %v = tk.load %xp : tensor<64x64x!tk.ptr<f32>, #row> -> tensor<64x64xf32, #row>
    %vc = tkgpu.convert_layout %v : tensor<64x64xf32, #row> -> tensor<64x64xf32, #col>
    %oc = tkgpu.convert_layout %off : tensor<64x64xi32, #row> -> tensor<64x64xi32, #col>
    %ys = tk.splat %y : !tk.ptr<f32> -> tensor<64x64x!tk.ptr<f32>, #col>
    %yp = tk.addptr %ys, %oc : tensor<64x64x!tk.ptr<f32>, #col>, tensor<64x64xi32, #col>
    tk.store %yp, %vc : tensor<64x64x!tk.ptr<f32>, #col>, tensor<64x64xf32, #col>
    %vb = tkgpu.convert_layout %v : tensor<64x64xf32, #row> -> tensor<64x64xf32, #bc>
    %ob = tkgpu.convert_layout %off : tensor<64x64xi32, #row> -> tensor<64x64xi32, #bc>
    %zs = tk.splat %z : !tk.ptr<f32> -> tensor<64x64x!tk.ptr<f32>, #bc>
    %zp = tk.addptr %zs, %ob : tensor<64x64x!tk.ptr<f32>, #bc>, tensor<64x64xi32, #bc>
    tk.store %zp, %vb : tensor<64x64x!tk.ptr<f32>, #bc>, tensor<64x64xf32, #bc>
    return
  }
}
