// RUN: tk-opt %s -convert-tk-to-tkgpu="num-warps=4" -tkgpu-coalesce -tkgpu-remove-layout-conversions -canonicalize -cse | FileCheck %s
// The passes of tk::buildTkgpuPipeline on the elementwise and row-reduction
// kernels: every global access is a 128-bit vector where the axis info
// allows (4 x f32; 8 x bf16) and no layout conversion is left, reductions
// included.

// CHECK-DAG: #[[V4:.*]] = #tkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[V8:.*]] = #tkgpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[R2:.*]] = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>

// CHECK-LABEL: func.func @add(
// CHECK-NOT: tkgpu.convert_layout
// CHECK: tk.load {{.*}}#[[V4]]>
// CHECK-NOT: tkgpu.convert_layout
// CHECK: return
func.func @add(%x: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %y: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %o: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %n: i32) attributes {tk.kernel} {
  %pid = tk.program_id 0 : i32
  %c1024 = arith.constant 1024 : i32
  %base = arith.muli %pid, %c1024 : i32
  %r = tk.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %bs = tk.splat %base : i32 -> tensor<1024xi32>
  %offs = arith.addi %bs, %r : tensor<1024xi32>
  %ns = tk.splat %n : i32 -> tensor<1024xi32>
  %m = arith.cmpi slt, %offs, %ns : tensor<1024xi32>
  %xp = tk.splat %x : !tk.ptr<f32> -> tensor<1024x!tk.ptr<f32>>
  %xa = tk.addptr %xp, %offs : tensor<1024x!tk.ptr<f32>>, tensor<1024xi32>
  %xv = tk.load %xa, mask %m : tensor<1024x!tk.ptr<f32>> -> tensor<1024xf32>, tensor<1024xi1>
  %yp = tk.splat %y : !tk.ptr<f32> -> tensor<1024x!tk.ptr<f32>>
  %ya = tk.addptr %yp, %offs : tensor<1024x!tk.ptr<f32>>, tensor<1024xi32>
  %yv = tk.load %ya, mask %m : tensor<1024x!tk.ptr<f32>> -> tensor<1024xf32>, tensor<1024xi1>
  %s = arith.addf %xv, %yv : tensor<1024xf32>
  %op = tk.splat %o : !tk.ptr<f32> -> tensor<1024x!tk.ptr<f32>>
  %oa = tk.addptr %op, %offs : tensor<1024x!tk.ptr<f32>>, tensor<1024xi32>
  tk.store %oa, %s, mask %m : tensor<1024x!tk.ptr<f32>>, tensor<1024xf32>, tensor<1024xi1>
  return
}

// CHECK-LABEL: func.func @gelu(
// CHECK-NOT: tkgpu.convert_layout
// CHECK: tk.load {{.*}}#[[V4]]>
// CHECK-NOT: tkgpu.convert_layout
// CHECK: return
func.func @gelu(%x_ptr: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %y_ptr: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %n: i32 {tk.divisibility = 16 : i32}) attributes {tk.kernel} {
  %pid = tk.program_id 0 : i32
  %c1024 = arith.constant 1024 : i32
  %base = arith.muli %pid, %c1024 : i32
  %r = tk.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %bs = tk.splat %base : i32 -> tensor<1024xi32>
  %offs = arith.addi %bs, %r : tensor<1024xi32>
  %ns = tk.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32>
  %xs = tk.splat %x_ptr : !tk.ptr<f32> -> tensor<1024x!tk.ptr<f32>>
  %xa = tk.addptr %xs, %offs : tensor<1024x!tk.ptr<f32>>, tensor<1024xi32>
  %x = tk.load %xa, mask %mask : tensor<1024x!tk.ptr<f32>> -> tensor<1024xf32>, tensor<1024xi1>
  %k0 = arith.constant dense<0.044715> : tensor<1024xf32>
  %k1 = arith.constant dense<0.79788456> : tensor<1024xf32>
  %two = arith.constant dense<2.0> : tensor<1024xf32>
  %one = arith.constant dense<1.0> : tensor<1024xf32>
  %half = arith.constant dense<0.5> : tensor<1024xf32>
  %x2 = arith.mulf %x, %x : tensor<1024xf32>
  %x3 = arith.mulf %x2, %x : tensor<1024xf32>
  %t0 = arith.mulf %k0, %x3 : tensor<1024xf32>
  %t1 = arith.addf %x, %t0 : tensor<1024xf32>
  %a = arith.mulf %k1, %t1 : tensor<1024xf32>
  %a2 = arith.mulf %two, %a : tensor<1024xf32>
  %e = math.exp %a2 : tensor<1024xf32>
  %em = arith.subf %e, %one : tensor<1024xf32>
  %ep = arith.addf %e, %one : tensor<1024xf32>
  %th = arith.divf %em, %ep : tensor<1024xf32>
  %th1 = arith.addf %one, %th : tensor<1024xf32>
  %hx = arith.mulf %half, %x : tensor<1024xf32>
  %y = arith.mulf %hx, %th1 : tensor<1024xf32>
  %ys = tk.splat %y_ptr : !tk.ptr<f32> -> tensor<1024x!tk.ptr<f32>>
  %ya = tk.addptr %ys, %offs : tensor<1024x!tk.ptr<f32>>, tensor<1024xi32>
  tk.store %ya, %y, mask %mask : tensor<1024x!tk.ptr<f32>>, tensor<1024xf32>, tensor<1024xi1>
  return
}

// CHECK-LABEL: func.func @layernorm(
// CHECK-NOT: tkgpu.convert_layout
// CHECK: tk.load {{.*}}#[[V4]]>
// CHECK-NOT: tkgpu.convert_layout
// CHECK: return
func.func @layernorm(%x_ptr: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %w_ptr: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %b_ptr: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %y_ptr: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %stride: i32 {tk.divisibility = 16 : i32}, %n_cols: i32, %eps: f32) attributes {tk.kernel} {
  %row = tk.program_id 0 : i32
  %cols = tk.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %ns = tk.splat %n_cols : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %cols, %ns : tensor<1024xi32>
  %ro = arith.muli %row, %stride : i32
  %xp = tk.addptr %x_ptr, %ro : !tk.ptr<f32>, i32
  %xps = tk.splat %xp : !tk.ptr<f32> -> tensor<1024x!tk.ptr<f32>>
  %xa = tk.addptr %xps, %cols : tensor<1024x!tk.ptr<f32>>, tensor<1024xi32>
  %zero = arith.constant dense<0.0> : tensor<1024xf32>
  %x = tk.load %xa, mask %mask, other %zero : tensor<1024x!tk.ptr<f32>> -> tensor<1024xf32>, tensor<1024xi1>
  %s = tk.reduce sum %x {axis = 0 : i32} : tensor<1024xf32> -> f32
  %nf = arith.sitofp %n_cols : i32 to f32
  %mean = arith.divf %s, %nf : f32
  %ms = tk.splat %mean : f32 -> tensor<1024xf32>
  %xm = arith.subf %x, %ms : tensor<1024xf32>
  %c = arith.select %mask, %xm, %zero : tensor<1024xi1>, tensor<1024xf32>
  %cc = arith.mulf %c, %c : tensor<1024xf32>
  %vs = tk.reduce sum %cc {axis = 0 : i32} : tensor<1024xf32> -> f32
  %var = arith.divf %vs, %nf : f32
  %ve = arith.addf %var, %eps : f32
  %rstd = math.rsqrt %ve : f32
  %rs = tk.splat %rstd : f32 -> tensor<1024xf32>
  %ws = tk.splat %w_ptr : !tk.ptr<f32> -> tensor<1024x!tk.ptr<f32>>
  %wa = tk.addptr %ws, %cols : tensor<1024x!tk.ptr<f32>>, tensor<1024xi32>
  %w = tk.load %wa, mask %mask, other %zero : tensor<1024x!tk.ptr<f32>> -> tensor<1024xf32>, tensor<1024xi1>
  %bs = tk.splat %b_ptr : !tk.ptr<f32> -> tensor<1024x!tk.ptr<f32>>
  %ba = tk.addptr %bs, %cols : tensor<1024x!tk.ptr<f32>>, tensor<1024xi32>
  %b = tk.load %ba, mask %mask, other %zero : tensor<1024x!tk.ptr<f32>> -> tensor<1024xf32>, tensor<1024xi1>
  %y0 = arith.mulf %c, %rs : tensor<1024xf32>
  %y1 = arith.mulf %y0, %w : tensor<1024xf32>
  %y = arith.addf %y1, %b : tensor<1024xf32>
  %yp = tk.addptr %y_ptr, %ro : !tk.ptr<f32>, i32
  %yps = tk.splat %yp : !tk.ptr<f32> -> tensor<1024x!tk.ptr<f32>>
  %ya = tk.addptr %yps, %cols : tensor<1024x!tk.ptr<f32>>, tensor<1024xi32>
  tk.store %ya, %y, mask %mask : tensor<1024x!tk.ptr<f32>>, tensor<1024xf32>, tensor<1024xi1>
  return
}

// CHECK-LABEL: func.func @softmax(
// CHECK-NOT: tkgpu.convert_layout
// CHECK: tk.load {{.*}}#[[V4]]>
// CHECK-NOT: tkgpu.convert_layout
// CHECK: return
func.func @softmax(%out: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %in: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %in_stride: i32 {tk.divisibility = 16 : i32}, %out_stride: i32 {tk.divisibility = 16 : i32}, %n_cols: i32) attributes {tk.kernel} {
  %row = tk.program_id 0 : i32
  %cols = tk.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %ns = tk.splat %n_cols : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %cols, %ns : tensor<1024xi32>
  %ro = arith.muli %row, %in_stride : i32
  %ip = tk.addptr %in, %ro : !tk.ptr<f32>, i32
  %ips = tk.splat %ip : !tk.ptr<f32> -> tensor<1024x!tk.ptr<f32>>
  %ia = tk.addptr %ips, %cols : tensor<1024x!tk.ptr<f32>>, tensor<1024xi32>
  %ninf = arith.constant dense<0xFF800000> : tensor<1024xf32>
  %x = tk.load %ia, mask %mask, other %ninf : tensor<1024x!tk.ptr<f32>> -> tensor<1024xf32>, tensor<1024xi1>
  %mx = tk.reduce max %x {axis = 0 : i32} : tensor<1024xf32> -> f32
  %mxs = tk.splat %mx : f32 -> tensor<1024xf32>
  %xs = arith.subf %x, %mxs : tensor<1024xf32>
  %num = math.exp %xs : tensor<1024xf32>
  %den = tk.reduce sum %num {axis = 0 : i32} : tensor<1024xf32> -> f32
  %dens = tk.splat %den : f32 -> tensor<1024xf32>
  %y = arith.divf %num, %dens : tensor<1024xf32>
  %oo = arith.muli %row, %out_stride : i32
  %op = tk.addptr %out, %oo : !tk.ptr<f32>, i32
  %ops = tk.splat %op : !tk.ptr<f32> -> tensor<1024x!tk.ptr<f32>>
  %oa = tk.addptr %ops, %cols : tensor<1024x!tk.ptr<f32>>, tensor<1024xi32>
  tk.store %oa, %y, mask %mask : tensor<1024x!tk.ptr<f32>>, tensor<1024xf32>, tensor<1024xi1>
  return
}

// CHECK-LABEL: func.func @rmsnorm(
// CHECK-NOT: tkgpu.convert_layout
// CHECK: tk.load {{.*}}#[[V8]]>
// CHECK-NOT: tkgpu.convert_layout
// CHECK: return
func.func @rmsnorm(%x_ptr: !tk.ptr<bf16> {tk.divisibility = 16 : i32}, %w_ptr: !tk.ptr<bf16> {tk.divisibility = 16 : i32}, %y_ptr: !tk.ptr<bf16> {tk.divisibility = 16 : i32}, %stride: i32 {tk.divisibility = 16 : i32}, %n_cols: i32 {tk.divisibility = 16 : i32}, %eps: f32) attributes {tk.kernel} {
  %row = tk.program_id 0 : i32
  %cols = tk.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %ns = tk.splat %n_cols : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %cols, %ns : tensor<1024xi32>
  %ro = arith.muli %row, %stride : i32
  %xp = tk.addptr %x_ptr, %ro : !tk.ptr<bf16>, i32
  %xps = tk.splat %xp : !tk.ptr<bf16> -> tensor<1024x!tk.ptr<bf16>>
  %xa = tk.addptr %xps, %cols : tensor<1024x!tk.ptr<bf16>>, tensor<1024xi32>
  %zero = arith.constant dense<0.0> : tensor<1024xbf16>
  %xb = tk.load %xa, mask %mask, other %zero : tensor<1024x!tk.ptr<bf16>> -> tensor<1024xbf16>, tensor<1024xi1>
  %x = arith.extf %xb : tensor<1024xbf16> to tensor<1024xf32>
  %wps = tk.splat %w_ptr : !tk.ptr<bf16> -> tensor<1024x!tk.ptr<bf16>>
  %wa = tk.addptr %wps, %cols : tensor<1024x!tk.ptr<bf16>>, tensor<1024xi32>
  %wb = tk.load %wa, mask %mask, other %zero : tensor<1024x!tk.ptr<bf16>> -> tensor<1024xbf16>, tensor<1024xi1>
  %w = arith.extf %wb : tensor<1024xbf16> to tensor<1024xf32>
  %xx = arith.mulf %x, %x : tensor<1024xf32>
  %ss = tk.reduce sum %xx {axis = 0 : i32} : tensor<1024xf32> -> f32
  %nf = arith.sitofp %n_cols : i32 to f32
  %mean = arith.divf %ss, %nf : f32
  %me = arith.addf %mean, %eps : f32
  %sq = math.sqrt %me : f32
  %one = arith.constant 1.0 : f32
  %rstd = arith.divf %one, %sq : f32
  %rs = tk.splat %rstd : f32 -> tensor<1024xf32>
  %y0 = arith.mulf %x, %rs : tensor<1024xf32>
  %y1 = arith.mulf %y0, %w : tensor<1024xf32>
  %yb = arith.truncf %y1 : tensor<1024xf32> to tensor<1024xbf16>
  %yp = tk.addptr %y_ptr, %ro : !tk.ptr<bf16>, i32
  %yps = tk.splat %yp : !tk.ptr<bf16> -> tensor<1024x!tk.ptr<bf16>>
  %ya = tk.addptr %yps, %cols : tensor<1024x!tk.ptr<bf16>>, tensor<1024xi32>
  tk.store %ya, %yb, mask %mask : tensor<1024x!tk.ptr<bf16>>, tensor<1024xbf16>, tensor<1024xi1>
  return
}

// CHECK-LABEL: func.func @softmax2d(
// CHECK-NOT: tkgpu.convert_layout
// CHECK: tk.load {{.*}}#[[R2]]>
// CHECK-NOT: tkgpu.convert_layout
// CHECK: return
func.func @softmax2d(%out: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %in: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %stride: i32 {tk.divisibility = 16 : i32}) attributes {tk.kernel} {
  %pid = tk.program_id 0 : i32
  %rows = tk.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
  %cols = tk.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
  %r1 = tk.expand_dims %rows {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %ss = tk.splat %stride : i32 -> tensor<16x1xi32>
  %ro = arith.muli %r1, %ss : tensor<16x1xi32>
  %rob = tk.broadcast %ro : tensor<16x1xi32> -> tensor<16x256xi32>
  %c0 = tk.expand_dims %cols {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
  %cb = tk.broadcast %c0 : tensor<1x256xi32> -> tensor<16x256xi32>
  %offs = arith.addi %rob, %cb : tensor<16x256xi32>
  %ips = tk.splat %in : !tk.ptr<f32> -> tensor<16x256x!tk.ptr<f32>>
  %ia = tk.addptr %ips, %offs : tensor<16x256x!tk.ptr<f32>>, tensor<16x256xi32>
  %x = tk.load %ia : tensor<16x256x!tk.ptr<f32>> -> tensor<16x256xf32>
  %mx = tk.reduce max %x {axis = 1 : i32} : tensor<16x256xf32> -> tensor<16xf32>
  %mxe = tk.expand_dims %mx {axis = 1 : i32} : tensor<16xf32> -> tensor<16x1xf32>
  %mxb = tk.broadcast %mxe : tensor<16x1xf32> -> tensor<16x256xf32>
  %xs = arith.subf %x, %mxb : tensor<16x256xf32>
  %num = math.exp %xs : tensor<16x256xf32>
  %den = tk.reduce sum %num {axis = 1 : i32} : tensor<16x256xf32> -> tensor<16xf32>
  %dene = tk.expand_dims %den {axis = 1 : i32} : tensor<16xf32> -> tensor<16x1xf32>
  %denb = tk.broadcast %dene : tensor<16x1xf32> -> tensor<16x256xf32>
  %y = arith.divf %num, %denb : tensor<16x256xf32>
  %ops = tk.splat %out : !tk.ptr<f32> -> tensor<16x256x!tk.ptr<f32>>
  %oa = tk.addptr %ops, %offs : tensor<16x256x!tk.ptr<f32>>, tensor<16x256xi32>
  tk.store %oa, %y : tensor<16x256x!tk.ptr<f32>>, tensor<16x256xf32>
  %rsum = tk.reduce sum %den {axis = 0 : i32} : tensor<16xf32> -> f32
  return
}
