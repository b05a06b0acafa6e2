// RUN: tk-opt %s -tk-test-print-axis-info -verify-diagnostics -split-input-file
// Axis info (contiguity, divisibility, constancy) of every integer and
// pointer value; block arguments are reported on the op owning them.

// expected-remark @below {{arg 0: contiguity = [1], divisibility = [16], constancy = [1]}}
// expected-remark @below {{arg 1: contiguity = [1], divisibility = [16], constancy = [1]}}
// expected-remark @below {{arg 2: contiguity = [1], divisibility = [1], constancy = [1]}}
// expected-remark @below {{arg 3: contiguity = [1], divisibility = [1], constancy = [1]}}
func.func @rules(%p: !tk.ptr<f32> {tk.divisibility = 16 : i32}, %n: i32 {tk.divisibility = 16 : i32}, %u: i32, %b: i1) {
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %pid = tk.program_id 0 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [128], constancy = [1], constant = 128}}
  %c128 = arith.constant 128 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [128], constancy = [1]}}
  %base = arith.muli %pid, %c128 : i32
  // expected-remark @below {{contiguity = [128], divisibility = [1073741824], constancy = [1]}}
  %r = tk.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [64], constancy = [1]}}
  %r64 = tk.make_range {start = 64 : i32, end = 128 : i32} : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [128], constancy = [128]}}
  %bs = tk.splat %base : i32 -> tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [128], constancy = [1]}}
  %offs = arith.addi %bs, %r : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128]}}
  %ns = tk.splat %n : i32 -> tensor<128xi32>
  // offs < n with n divisible by 16: constant over aligned runs of 16.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16]}}
  %m = arith.cmpi slt, %offs, %ns : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [128]}}
  %us = tk.splat %u : i32 -> tensor<128xi32>
  // Nothing known about u: no constancy.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %mu = arith.cmpi slt, %offs, %us : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128]}}
  %ps = tk.splat %p : !tk.ptr<f32> -> tensor<128x!tk.ptr<f32>>
  // Pointer divisibility is in bytes: min(16, 128 * 4 bytes).
  // expected-remark @below {{contiguity = [128], divisibility = [16], constancy = [1]}}
  %pa = tk.addptr %ps, %offs : tensor<128x!tk.ptr<f32>>, tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [128], constant = 4}}
  %c4 = arith.constant dense<4> : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [2], constancy = [128], constant = 2}}
  %c2 = arith.constant dense<2> : tensor<128xi32>
  // range / 4: runs of 4 equal values; range % 4: runs of 4 consecutive.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [4]}}
  %q = arith.divsi %r, %c4 : tensor<128xi32>
  // expected-remark @below {{contiguity = [4], divisibility = [4], constancy = [1]}}
  %rem = arith.remsi %r, %c4 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1]}}
  %sh = arith.shli %r, %c2 : tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [128], constancy = [1]}}
  %sub = arith.subi %offs, %bs : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [128]}}
  %h = tk.hint %us {divisibility = array<i32: 8>, contiguity = array<i32: 1>} : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %sel = arith.select %b, %offs, %ns : tensor<128xi32>
  // expected-remark @below {{contiguity = [128, 1], divisibility = [1073741824, 1], constancy = [1, 1]}}
  %row = tk.expand_dims %r {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [128, 1]}}
  %ss = tk.splat %n : i32 -> tensor<128x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [1, 1]}}
  %rs = arith.muli %row, %ss : tensor<128x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [1, 64]}}
  %rb = tk.broadcast %rs : tensor<128x1xi32> -> tensor<128x64xi32>
  // expected-remark @below {{contiguity = [1, 64], divisibility = [1, 64], constancy = [1, 1]}}
  %col = tk.expand_dims %r64 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  // expected-remark @below {{contiguity = [1, 64], divisibility = [1, 64], constancy = [128, 1]}}
  %cb = tk.broadcast %col : tensor<1x64xi32> -> tensor<128x64xi32>
  // row * n + col: contiguous along the columns only.
  // expected-remark @below {{contiguity = [1, 64], divisibility = [1, 16], constancy = [1, 1]}}
  %o2 = arith.addi %rb, %cb : tensor<128x64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1073741824], constancy = [1], constant = 0}}
  %c0 = arith.constant 0 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = 1}}
  %c1 = arith.constant 1 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1], constant = 16}}
  %c16 = arith.constant 16 : i32
  // The loop-carried offsets keep their facts: the increment is a
  // multiple of 128; the induction variable is divisible by gcd(0, 16).
  // expected-remark @below {{arg 0: contiguity = [1], divisibility = [16], constancy = [1]}}
  // expected-remark @below {{arg 1: contiguity = [128], divisibility = [128], constancy = [1]}}
  // expected-remark @below {{contiguity = [128], divisibility = [128], constancy = [1]}}
  %last = scf.for %i = %c0 to %n step %c16 iter_args(%acc = %offs) -> (tensor<128xi32>) : i32 {
    // expected-remark @below {{contiguity = [1], divisibility = [128], constancy = [128], constant = 128}}
    %step = tk.splat %c128 : i32 -> tensor<128xi32>
    // expected-remark @below {{contiguity = [128], divisibility = [128], constancy = [1]}}
    %next = arith.addi %acc, %step : tensor<128xi32>
    scf.yield %next : tensor<128xi32>
  }
  // Join of 16 and 48: divisible by 16, no longer a constant.
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %v = scf.if %b -> (i32) {
    scf.yield %c16 : i32
  } else {
    // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1], constant = 48}}
    %c48 = arith.constant 48 : i32
    scf.yield %c48 : i32
  }
  return
}
