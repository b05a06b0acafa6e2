// RUN: tk-opt %s | tk-opt | FileCheck %s
// Round trip: every tk op prints in a form the parser reads back.

// CHECK-LABEL: func.func @all_ops
func.func @all_ops(%p: !tk.ptr<f32>, %n: i32, %i64: i64) attributes {tk.kernel} {
  // CHECK: tk.program_id 0 : i32
  %pid = tk.program_id 0 : i32
  // CHECK: tk.num_programs 2 : i32
  %np = tk.num_programs 2 : i32
  // CHECK: tk.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %r = tk.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  // CHECK: tk.splat %{{.*}} : !tk.ptr<f32> -> tensor<128x!tk.ptr<f32>>
  %ps = tk.splat %p : !tk.ptr<f32> -> tensor<128x!tk.ptr<f32>>
  // CHECK: tk.addptr %{{.*}}, %{{.*}} : tensor<128x!tk.ptr<f32>>, tensor<128xi32>
  %pp = tk.addptr %ps, %r : tensor<128x!tk.ptr<f32>>, tensor<128xi32>
  %ns = tk.splat %n : i32 -> tensor<128xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<128xi32>
  %zero = arith.constant dense<0.0> : tensor<128xf32>
  // CHECK: tk.load %{{.*}}, mask %{{.*}}, other %{{.*}} : tensor<128x!tk.ptr<f32>> -> tensor<128xf32>, tensor<128xi1>
  %x = tk.load %pp, mask %m, other %zero : tensor<128x!tk.ptr<f32>> -> tensor<128xf32>, tensor<128xi1>
  // CHECK: tk.load %{{.*}} : tensor<128x!tk.ptr<f32>> -> tensor<128xf32>
  %x2 = tk.load %pp : tensor<128x!tk.ptr<f32>> -> tensor<128xf32>
  // CHECK: tk.store %{{.*}}, %{{.*}}, mask %{{.*}} : tensor<128x!tk.ptr<f32>>, tensor<128xf32>, tensor<128xi1>
  tk.store %pp, %x, mask %m : tensor<128x!tk.ptr<f32>>, tensor<128xf32>, tensor<128xi1>
  // CHECK: tk.expand_dims %{{.*}} {axis = 1 : i32} : tensor<128xf32> -> tensor<128x1xf32>
  %e = tk.expand_dims %x {axis = 1 : i32} : tensor<128xf32> -> tensor<128x1xf32>
  // CHECK: tk.broadcast %{{.*}} : tensor<128x1xf32> -> tensor<128x64xf32>
  %b = tk.broadcast %e : tensor<128x1xf32> -> tensor<128x64xf32>
  // CHECK: tk.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<128x64xf32> -> tensor<64x128xf32>
  %t = tk.trans %b {order = array<i32: 1, 0>} : tensor<128x64xf32> -> tensor<64x128xf32>
  // CHECK: tk.reshape %{{.*}} : tensor<64x128xf32> -> tensor<8192xf32>
  %rs = tk.reshape %t : tensor<64x128xf32> -> tensor<8192xf32>
  // CHECK: tk.reduce sum %{{.*}} {axis = 0 : i32} : tensor<128x64xf32> -> tensor<64xf32>
  %red = tk.reduce sum %b {axis = 0 : i32} : tensor<128x64xf32> -> tensor<64xf32>
  // CHECK: tk.reduce argmax %{{.*}} {axis = 0 : i32} : tensor<128xf32> -> i32
  %am = tk.reduce argmax %x {axis = 0 : i32} : tensor<128xf32> -> i32
  // CHECK: tk.scan sum %{{.*}} {axis = 0 : i32} : tensor<128xf32> -> tensor<128xf32>
  %cs = tk.scan sum %x {axis = 0 : i32} : tensor<128xf32> -> tensor<128xf32>
  // A combine function: the region's block takes the left and the right
  // values and returns the combined ones.
  // CHECK: tk.reduce combine %{{.*}}, %{{.*}} {axis = 0 : i32} : tensor<128xf32>, tensor<128xi32> -> f32, i32 {
  // CHECK-NEXT: ^bb0(%{{.*}}: f32, %{{.*}}: i32, %{{.*}}: f32, %{{.*}}: i32):
  // CHECK: tk.combine_return %{{.*}}, %{{.*}} : f32, i32
  %idx = tk.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  %mv:2 = tk.reduce combine %x, %idx {axis = 0 : i32} : tensor<128xf32>, tensor<128xi32> -> f32, i32 {
  ^bb0(%v1: f32, %i1: i32, %v2: f32, %i2: i32):
    %gt = arith.cmpf ogt, %v2, %v1 : f32
    %v = arith.select %gt, %v2, %v1 : f32
    %i = arith.select %gt, %i2, %i1 : i32
    tk.combine_return %v, %i : f32, i32
  }
  // CHECK: tk.scan combine %{{.*}} {axis = 0 : i32, reverse} : tensor<128xf32> -> tensor<128xf32> {
  %rs2 = tk.scan combine %x {axis = 0 : i32, reverse} : tensor<128xf32> -> tensor<128xf32> {
  ^bb0(%lhs: f32, %rhs: f32):
    %sum = arith.addf %lhs, %rhs : f32
    tk.combine_return %sum : f32
  }
  // CHECK: tk.atomic_rmw add %{{.*}}, %{{.*}}, mask %{{.*}} : tensor<128x!tk.ptr<f32>>, tensor<128xf32>, tensor<128xi1>
  %old = tk.atomic_rmw add %pp, %x, mask %m : tensor<128x!tk.ptr<f32>>, tensor<128xf32>, tensor<128xi1>
  // CHECK: tk.atomic_rmw max %{{.*}}, %{{.*}} sem = relaxed scope = cta :
  %old2 = tk.atomic_rmw max %pp, %x sem = relaxed scope = cta : tensor<128x!tk.ptr<f32>>, tensor<128xf32>
  %ip = tk.splat %i64 : i64 -> tensor<128xi64>
  // CHECK: tk.int_to_ptr %{{.*}} : tensor<128xi64> -> tensor<128x!tk.ptr<i32>>
  %q = tk.int_to_ptr %ip : tensor<128xi64> -> tensor<128x!tk.ptr<i32>>
  // CHECK: tk.ptr_to_int %{{.*}} : tensor<128x!tk.ptr<i32>> -> tensor<128xi64>
  %qi = tk.ptr_to_int %q : tensor<128x!tk.ptr<i32>> -> tensor<128xi64>
  %c = tk.splat %n : i32 -> tensor<128xi32>
  // CHECK: tk.atomic_cas %{{.*}}, %{{.*}}, %{{.*}} : tensor<128x!tk.ptr<i32>>, tensor<128xi32>
  %cas = tk.atomic_cas %q, %c, %c : tensor<128x!tk.ptr<i32>>, tensor<128xi32>
  // CHECK: tk.bitcast %{{.*}} : tensor<128xf32> -> tensor<128xi32>
  %bc = tk.bitcast %x : tensor<128xf32> -> tensor<128xi32>
  // CHECK: tk.extern_elementwise "__nv_ldexpf"(%{{.*}}, %{{.*}}) : (tensor<128xf32>, tensor<128xi32>) -> tensor<128xf32>
  %ld = tk.extern_elementwise "__nv_ldexpf"(%x, %bc) : (tensor<128xf32>, tensor<128xi32>) -> tensor<128xf32>
  // CHECK: tk.hint %{{.*}} {contiguity = array<i32: 128>, divisibility = array<i32: 16>} : tensor<128xi32>
  %h = tk.hint %r {divisibility = array<i32: 16>, contiguity = array<i32: 128>} : tensor<128xi32>
  %a16 = arith.constant dense<1.0> : tensor<64x32xf16>
  %b16 = arith.constant dense<1.0> : tensor<32x16xf16>
  %acc = arith.constant dense<0.0> : tensor<64x16xf32>
  // CHECK: tk.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xf16> * tensor<32x16xf16> -> tensor<64x16xf32>
  %d = tk.dot %a16, %b16, %acc : tensor<64x32xf16> * tensor<32x16xf16> -> tensor<64x16xf32>
  // CHECK: tk.dot %{{.*}}, %{{.*}}, %{{.*}} precision = ieee :
  %af = arith.constant dense<1.0> : tensor<16x16xf32>
  %df = tk.dot %af, %af, %af precision = ieee : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  // CHECK: tk.print " x: " {hex} %{{.*}} : tensor<128xf32>
  tk.print " x: " {hex} %x : tensor<128xf32>
  // CHECK: tk.assert %{{.*}}, "n in range" : tensor<128xi1>
  tk.assert %m, "n in range" : tensor<128xi1>
  return
}
