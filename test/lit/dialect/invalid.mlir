// RUN: tk-opt %s -split-input-file -verify-diagnostics
// One case per verifier rule of the tk dialect.

func.func @range_empty() {
  // expected-error @+1 {{end (0) must be greater than start (0)}}
  %r = tk.make_range {start = 0 : i32, end = 0 : i32} : tensor<1xi32>
  return
}

// -----

func.func @range_size() {
  // expected-error @+1 {{result has 64 elements but the range has 128}}
  %r = tk.make_range {start = 0 : i32, end = 128 : i32} : tensor<64xi32>
  return
}

// -----

func.func @range_pow2() {
  // expected-error @+1 {{block dimensions must be positive powers of two}}
  %r = tk.make_range {start = 0 : i32, end = 100 : i32} : tensor<100xi32>
  return
}

// -----

func.func @range_rank() {
  // expected-error @+1 {{result must be a 1-D tensor}}
  %r = tk.make_range {start = 0 : i32, end = 128 : i32} : tensor<2x64xi32>
  return
}

// -----

func.func @splat_type(%x: f32) {
  // expected-error @+1 {{result element type 'i32' differs from the scalar type 'f32'}}
  %s = tk.splat %x : f32 -> tensor<8xi32>
  return
}

// -----

func.func @splat_shape(%x: f32) {
  // expected-error @+1 {{block dimensions must be positive powers of two}}
  %s = tk.splat %x : f32 -> tensor<6xf32>
  return
}

// -----

func.func @broadcast_dim(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{dimension 1 of size 2 cannot broadcast to 8}}
  %b = tk.broadcast %x : tensor<4x2xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @broadcast_rank(%x: tensor<4xf32>) {
  // expected-error @+1 {{source rank 1 differs from result rank 2}}
  %b = tk.broadcast %x : tensor<4xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @broadcast_elt(%x: tensor<4x1xf32>) {
  // expected-error @+1 {{element types differ}}
  %b = tk.broadcast %x : tensor<4x1xf32> -> tensor<4x4xf16>
  return
}

// -----

func.func @expand_axis(%x: tensor<4xf32>) {
  // expected-error @+1 {{axis 2 is out of range for rank 1}}
  %e = tk.expand_dims %x {axis = 2 : i32} : tensor<4xf32> -> tensor<4x1xf32>
  return
}

// -----

func.func @expand_shape(%x: tensor<4xf32>) {
  // expected-error @+1 {{is not 'tensor<4xf32>' with a unit dimension at 0}}
  %e = tk.expand_dims %x {axis = 0 : i32} : tensor<4xf32> -> tensor<4x1xf32>
  return
}

// -----

func.func @reshape_count(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{cannot reshape 16 elements into 'tensor<32xf32>'}}
  %r = tk.reshape %x : tensor<4x4xf32> -> tensor<32xf32>
  return
}

// -----

func.func @reshape_elt(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{element types differ}}
  %r = tk.reshape %x : tensor<4x4xf32> -> tensor<16xi32>
  return
}

// -----

func.func @trans_perm(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{order is not a permutation of the dimensions}}
  %t = tk.trans %x {order = array<i32: 0, 0>} : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @trans_len(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{order has 3 entries for a rank-2 tensor}}
  %t = tk.trans %x {order = array<i32: 0, 1, 2>} : tensor<4x8xf32> -> tensor<8x4xf32>
  return
}

// -----

func.func @trans_shape(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{result dimension 0 must be source dimension 1}}
  %t = tk.trans %x {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @addptr_shape(%p: tensor<8x!tk.ptr<f32>>, %o: tensor<4xi32>) {
  // expected-error @+1 {{offset type 'tensor<4xi32>' does not match the shape of 'tensor<8x!tk.ptr<f32>>'}}
  %q = tk.addptr %p, %o : tensor<8x!tk.ptr<f32>>, tensor<4xi32>
  return
}

// -----

func.func @load_result(%p: tensor<8x!tk.ptr<f32>>) {
  // expected-error @+1 {{result type 'tensor<8xf16>' must be the pointee type 'tensor<8xf32>'}}
  %x = tk.load %p : tensor<8x!tk.ptr<f32>> -> tensor<8xf16>
  return
}

// -----

func.func @load_mask(%p: tensor<8x!tk.ptr<f32>>, %m: tensor<4xi1>) {
  // expected-error @+1 {{mask type 'tensor<4xi1>' does not match the shape of pointer type 'tensor<8x!tk.ptr<f32>>'}}
  %x = tk.load %p, mask %m : tensor<8x!tk.ptr<f32>> -> tensor<8xf32>, tensor<4xi1>
  return
}

// -----

func.func @store_value(%p: tensor<8x!tk.ptr<f32>>, %v: tensor<8xi32>) {
  // expected-error @+1 {{stored value type 'tensor<8xi32>' must be the pointee type 'tensor<8xf32>'}}
  tk.store %p, %v : tensor<8x!tk.ptr<f32>>, tensor<8xi32>
  return
}

// -----

func.func @store_mask(%p: !tk.ptr<f32>, %v: f32, %m: tensor<8xi1>) {
  // expected-error @+1 {{mask type 'tensor<8xi1>' does not match the shape of pointer type '!tk.ptr<f32>'}}
  tk.store %p, %v, mask %m : !tk.ptr<f32>, f32, tensor<8xi1>
  return
}

// -----

func.func @atomic_type(%p: tensor<8x!tk.ptr<f32>>, %v: tensor<8xi32>) {
  // expected-error @+1 {{value and result types must be the pointee type 'tensor<8xf32>'}}
  %o = tk.atomic_rmw add %p, %v : tensor<8x!tk.ptr<f32>>, tensor<8xi32>
  return
}

// -----

func.func @atomic_bitwise_float(%p: tensor<8x!tk.ptr<f32>>, %v: tensor<8xf32>) {
  // expected-error @+1 {{atomic and needs 32- or 64-bit integers, got 'f32'}}
  %o = tk.atomic_rmw and %p, %v : tensor<8x!tk.ptr<f32>>, tensor<8xf32>
  return
}

// -----

func.func @atomic_small_int(%p: tensor<8x!tk.ptr<i8>>, %v: tensor<8xi8>) {
  // expected-error @+1 {{atomic add does not support 'i8'}}
  %o = tk.atomic_rmw add %p, %v : tensor<8x!tk.ptr<i8>>, tensor<8xi8>
  return
}

// -----

func.func @cas_width(%p: !tk.ptr<i8>, %v: i8) {
  // expected-error @+1 {{atomic_cas needs 16-, 32- or 64-bit elements}}
  %o = tk.atomic_cas %p, %v, %v : !tk.ptr<i8>, i8
  return
}

// -----

func.func @bitcast_width(%x: tensor<8xf32>) {
  // expected-error @+1 {{bit widths differ: 'f32' vs 'i16'}}
  %b = tk.bitcast %x : tensor<8xf32> -> tensor<8xi16>
  return
}

// -----

func.func @bitcast_ptr(%p: !tk.ptr<f32>) {
  // expected-error @+1 {{cannot bitcast between pointers and numbers}}
  %b = tk.bitcast %p : !tk.ptr<f32> -> i64
  return
}

// -----

func.func @bitcast_shape(%x: tensor<8xf32>) {
  // expected-error @+1 {{source and result shapes differ}}
  %b = tk.bitcast %x : tensor<8xf32> -> tensor<4xi32>
  return
}

// -----

func.func @int_to_ptr_shape(%x: tensor<8xi64>) {
  // expected-error @+1 {{source and result shapes differ}}
  %p = tk.int_to_ptr %x : tensor<8xi64> -> tensor<4x!tk.ptr<f32>>
  return
}

// -----

func.func @ptr_to_int_shape(%p: tensor<8x!tk.ptr<f32>>) {
  // expected-error @+1 {{source and result shapes differ}}
  %x = tk.ptr_to_int %p : tensor<8x!tk.ptr<f32>> -> i64
  return
}

// -----

func.func @dot_inner(%a: tensor<16x32xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{inner dimensions differ}}
  %d = tk.dot %a, %b, %c : tensor<16x32xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  return
}

// -----

func.func @dot_acc_shape(%a: tensor<16x16xf16>, %b: tensor<16x32xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{accumulator shape 'tensor<16x16xf32>' must be 16x32}}
  %d = tk.dot %a, %b, %c : tensor<16x16xf16> * tensor<16x32xf16> -> tensor<16x16xf32>
  return
}

// -----

func.func @dot_mixed(%a: tensor<16x16xf16>, %b: tensor<16x16xbf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{operand element types differ: 'f16' vs 'bf16'}}
  %d = tk.dot %a, %b, %c : tensor<16x16xf16> * tensor<16x16xbf16> -> tensor<16x16xf32>
  return
}

// -----

func.func @dot_acc_type(%a: tensor<16x16xbf16>, %c: tensor<16x16xf16>) {
  // expected-error @+1 {{unsupported dot: 'bf16' inputs with an 'f16' accumulator}}
  %d = tk.dot %a, %a, %c : tensor<16x16xbf16> * tensor<16x16xbf16> -> tensor<16x16xf16>
  return
}

// -----

func.func @dot_rank(%a: tensor<16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{operands must be 2-D}}
  %d = tk.dot %a, %a, %c : tensor<16xf16> * tensor<16xf16> -> tensor<16x16xf32>
  return
}

// -----

func.func @reduce_axis(%x: tensor<8xf32>) {
  // expected-error @+1 {{axis 1 is out of range for rank 1}}
  %r = tk.reduce sum %x {axis = 1 : i32} : tensor<8xf32> -> f32
  return
}

// -----

func.func @reduce_result(%x: tensor<8x4xf32>) {
  // expected-error @+1 {{must have shape [4] and element type 'f32'}}
  %r = tk.reduce max %x {axis = 0 : i32} : tensor<8x4xf32> -> tensor<8xf32>
  return
}

// -----

func.func @reduce_arg_type(%x: tensor<8xf32>) {
  // expected-error @+1 {{must have shape [] and element type 'i32'}}
  %r = tk.reduce argmax %x {axis = 0 : i32} : tensor<8xf32> -> f32
  return
}

// -----

func.func @reduce_bitwise(%x: tensor<8xf32>) {
  // expected-error @+1 {{reduction xor needs integers, got 'f32'}}
  %r = tk.reduce xor %x {axis = 0 : i32} : tensor<8xf32> -> f32
  return
}

// -----

func.func @reduce_ptr(%x: tensor<8x!tk.ptr<f32>>) {
  // expected-error @+1 {{cannot reduce pointers}}
  %r = tk.reduce sum %x {axis = 0 : i32} : tensor<8x!tk.ptr<f32>> -> !tk.ptr<f32>
  return
}

// -----

func.func @scan_axis(%x: tensor<8xf32>) {
  // expected-error @+1 {{axis 1 is out of range for rank 1}}
  %r = tk.scan sum %x {axis = 1 : i32} : tensor<8xf32> -> tensor<8xf32>
  return
}

// -----

func.func @scan_type(%x: tensor<8xf32>) {
  // expected-error @+1 {{result type must equal the source type}}
  %r = tk.scan sum %x {axis = 0 : i32} : tensor<8xf32> -> tensor<8xf16>
  return
}

// -----

func.func @reduce_named_two_operands(%x: tensor<8xf32>, %y: tensor<8xf32>) {
  // expected-error @+1 {{a named kind takes one operand, got 2}}
  %r:2 = tk.reduce sum %x, %y {axis = 0 : i32} : tensor<8xf32>, tensor<8xf32> -> f32, f32
  return
}

// -----

func.func @reduce_combine_shapes(%x: tensor<8xf32>, %y: tensor<4xi32>) {
  // expected-error @+1 {{operand shapes differ}}
  %r:2 = tk.reduce combine %x, %y {axis = 0 : i32} : tensor<8xf32>, tensor<4xi32> -> f32, i32 {
  ^bb0(%a: f32, %b: i32, %c: f32, %d: i32):
    tk.combine_return %a, %b : f32, i32
  }
  return
}

// -----

func.func @reduce_combine_no_region(%x: tensor<8xf32>) {
  // expected-error @+1 {{`combine` needs a region of one block}}
  %r = tk.reduce combine %x {axis = 0 : i32} : tensor<8xf32> -> f32
  return
}

// -----

func.func @reduce_combine_arguments(%x: tensor<8xf32>) {
  // expected-error @+1 {{combiner arguments must be the element types twice (2 scalars), got 3}}
  %r = tk.reduce combine %x {axis = 0 : i32} : tensor<8xf32> -> f32 {
  ^bb0(%a: f32, %b: f32, %c: f32):
    tk.combine_return %a : f32
  }
  return
}

// -----

func.func @reduce_combine_return(%x: tensor<8xf32>) {
  %r = tk.reduce combine %x {axis = 0 : i32} : tensor<8xf32> -> f32 {
  ^bb0(%a: f32, %b: f32):
    %c = arith.fptosi %a : f32 to i32
    // expected-error @+1 {{must return the operands' element types}}
    tk.combine_return %c : i32
  }
  return
}

// -----

func.func @reduce_named_region(%x: tensor<8xf32>) {
  // expected-error @+1 {{only the `combine` kind has a region}}
  %r = tk.reduce sum %x {axis = 0 : i32} : tensor<8xf32> -> f32 {
  ^bb0(%a: f32, %b: f32):
    tk.combine_return %a : f32
  }
  return
}

// -----

func.func @reduce_combine_effects(%x: tensor<8xf32>) {
  // expected-error @+1 {{the combiner must not have side effects, but contains 'tk.print'}}
  %r = tk.reduce combine %x {axis = 0 : i32} : tensor<8xf32> -> f32 {
  ^bb0(%a: f32, %b: f32):
    tk.print " a: " %a : f32
    tk.combine_return %a : f32
  }
  return
}

// -----

func.func @scan_combine_results(%x: tensor<8xf32>, %y: tensor<8xi32>) {
  // expected-error @+1 {{has 2 operands but 1 results}}
  %r = tk.scan combine %x, %y {axis = 0 : i32} : tensor<8xf32>, tensor<8xi32> -> tensor<8xf32> {
  ^bb0(%a: f32, %b: i32, %c: f32, %d: i32):
    tk.combine_return %a, %b : f32, i32
  }
  return
}

// -----

func.func @combine_return_parent(%x: f32) {
  // expected-error @+1 {{expects parent op to be one of 'tk.reduce, tk.scan'}}
  tk.combine_return %x : f32
}

// -----

func.func @hint_rank(%x: tensor<8x8xi32>) {
  // expected-error @+1 {{hint needs 2 entries, got 1}}
  %h = tk.hint %x {divisibility = array<i32: 16>} : tensor<8x8xi32>
  return
}

// -----

func.func @hint_value(%x: tensor<8xi32>) {
  // expected-error @+1 {{hint values must be positive powers of two}}
  %h = tk.hint %x {contiguity = array<i32: 3>} : tensor<8xi32>
  return
}

// -----

// expected-error @+1 {{!tk.ptr must point to an integer or float type}}
func.func @ptr_to_ptr(%p: !tk.ptr<!tk.ptr<f32>>) {
  return
}

// -----

func.func @program_id_axis() {
  // expected-error @+1 {{attribute 'axis' failed to satisfy constraint}}
  %p = tk.program_id 3 : i32
  return
}

// -----

func.func @descriptor_rank(%p: !tk.ptr<f32>, %n: i64, %i: i32) {
  // expected-error @+1 {{needs 2 shape, stride and index operands (one per dimension), got 1, 2 and 2}}
  %x = tk.descriptor_load %p[%i, %i] shape[%n] strides[%n, %n] : !tk.ptr<f32> -> tensor<16x16xf32>
  return
}

// -----

func.func @descriptor_element(%p: !tk.ptr<f16>, %n: i64, %i: i32) {
  // expected-error @+1 {{base points to 'f16' but the block holds 'f32'}}
  %x = tk.descriptor_load %p[%i] shape[%n] strides[%n] : !tk.ptr<f16> -> tensor<16xf32>
  return
}

// -----

func.func @descriptor_pow2(%p: !tk.ptr<f32>, %n: i64, %i: i32, %v: tensor<12xf32>) {
  // expected-error @+1 {{block dimensions must be positive powers of two}}
  tk.descriptor_store %p[%i], %v shape[%n] strides[%n] : !tk.ptr<f32>, tensor<12xf32>
  return
}

// -----

func.func @descriptor_rank6(%p: !tk.ptr<f32>, %n: i64, %i: i32) {
  // expected-error @+1 {{blocks have 1 to 5 dimensions}}
  %x = tk.descriptor_load %p[%i, %i, %i, %i, %i, %i] shape[%n, %n, %n, %n, %n, %n] strides[%n, %n, %n, %n, %n, %n] : !tk.ptr<f32> -> tensor<2x2x2x2x2x2xf32>
  return
}

// -----

func.func @extern_no_symbol(%x: f32) {
  // expected-error @+1 {{needs a function symbol}}
  %r = tk.extern_elementwise ""(%x) : (f32) -> f32
  return
}

// -----

func.func @extern_pointer(%p: !tk.ptr<f32>) {
  // expected-error @+1 {{operands must be numbers, not pointers}}
  %r = tk.extern_elementwise "__nv_erfinvf"(%p) : (!tk.ptr<f32>) -> f32
  return
}

// -----

func.func @extern_shapes(%x: tensor<4xf32>, %y: tensor<8xf32>) {
  // expected-error @+1 {{all non-scalar operands/results must have the same shape}}
  %r = tk.extern_elementwise "__nv_hypotf"(%x, %y) : (tensor<4xf32>, tensor<8xf32>) -> tensor<4xf32>
  return
}
