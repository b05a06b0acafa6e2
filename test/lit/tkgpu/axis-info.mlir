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
  // Either offs (runs of 128 consecutive values) or n: runs of 1, and an
  // element of offs is not divisible by anything.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
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

// -----

// Division and remainder by run-time values known to be multiples of 16
// (tutorial 03's `% M`), max/min, and loads through broadcast pointers.
// expected-remark @below {{arg 0: contiguity = [1], divisibility = [16], constancy = [1]}}
// expected-remark @below {{arg 1: contiguity = [1], divisibility = [1], constancy = [1]}}
// expected-remark @below {{arg 2: contiguity = [1], divisibility = [16], constancy = [1]}}
func.func @runtime_divisors(%m: i32 {tk.divisibility = 16 : i32}, %u: i32, %p: !tk.ptr<i32> {tk.divisibility = 16 : i32}) {
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %pid = tk.program_id 0 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [128], constancy = [1], constant = 128}}
  %c128 = arith.constant 128 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [128], constancy = [1]}}
  %base = arith.muli %pid, %c128 : i32
  // expected-remark @below {{contiguity = [128], divisibility = [1073741824], constancy = [1]}}
  %r = tk.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [128], constancy = [128]}}
  %bs = tk.splat %base : i32 -> tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [128], constancy = [1]}}
  %offs = arith.addi %bs, %r : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128]}}
  %ms = tk.splat %m : i32 -> tensor<128xi32>
  // offs % m: an aligned run of 16 never crosses a multiple of m.
  // expected-remark @below {{contiguity = [16], divisibility = [16], constancy = [1]}}
  %rem = arith.remsi %offs, %ms : tensor<128xi32>
  // offs / m: constant over the same runs of 16.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16]}}
  %q = arith.divui %offs, %ms : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [128]}}
  %us = tk.splat %u : i32 -> tensor<128xi32>
  // Nothing known about u: neither survives.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %remu = arith.remsi %offs, %us : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %qu = arith.divsi %offs, %us : tensor<128xi32>
  // base % m: divisible by gcd(128, 16), constant like both sides.
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128]}}
  %rs = arith.remui %bs, %ms : tensor<128xi32>
  // A constant divisor need not be a power of two: 48 is a multiple of 16.
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128], constant = 48}}
  %c48 = arith.constant dense<48> : tensor<128xi32>
  // expected-remark @below {{contiguity = [16], divisibility = [16], constancy = [1]}}
  %rem48 = arith.remsi %offs, %c48 : tensor<128xi32>
  // x % 1 and 0 / x.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [128], constant = 1}}
  %one = arith.constant dense<1> : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1073741824], constancy = [128], constant = 0}}
  %rem1 = arith.remsi %offs, %one : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1073741824], constancy = [128], constant = 0}}
  %zero = arith.divsi %rem1, %ms : tensor<128xi32>
  // max of two consecutive runs is consecutive over the shorter run.
  // expected-remark @below {{contiguity = [16], divisibility = [16], constancy = [1]}}
  %mx = arith.maxsi %offs, %rem : tensor<128xi32>
  // Against a splat: nothing but what divides both elementwise.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %mn = arith.minsi %offs, %ms : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128]}}
  %mn2 = arith.minui %bs, %ms : tensor<128xi32>
  // Loads through one broadcast address give one value.
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128]}}
  %ps = tk.splat %p : !tk.ptr<i32> -> tensor<128x!tk.ptr<i32>>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [128]}}
  %ld = tk.load %ps : tensor<128x!tk.ptr<i32>> -> tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16]}}
  %mask = arith.cmpi slt, %offs, %ms : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16]}}
  %ldm = tk.load %ps, mask %mask, other %ld : tensor<128x!tk.ptr<i32>> -> tensor<128xi32>, tensor<128xi1>
  // expected-remark @below {{contiguity = [128], divisibility = [16], constancy = [1]}}
  %pa = tk.addptr %ps, %offs : tensor<128x!tk.ptr<i32>>, tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %ldv = tk.load %pa : tensor<128x!tk.ptr<i32>> -> tensor<128xi32>
  // Booleans are 0 and 1.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant = 1}}
  %t = arith.constant true
  return
}

// -----

// Where runs of different lengths meet (here the join at an if), the
// longer side's runs start inside its old ones: divisibility is capped.
// expected-remark @below {{arg 0: contiguity = [1], divisibility = [1], constancy = [1]}}
func.func @merged_runs(%b: i1) {
  // expected-remark @below {{contiguity = [64], divisibility = [1073741824], constancy = [1]}}
  %r = tk.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [64], constant = 4}}
  %c4 = arith.constant dense<4> : tensor<64xi32>
  // expected-remark @below {{contiguity = [4], divisibility = [4], constancy = [1]}}
  %r4 = arith.remsi %r, %c4 : tensor<64xi32>
  // expected-remark @below {{contiguity = [4], divisibility = [4], constancy = [1]}}
  %v = scf.if %b -> (tensor<64xi32>) {
    scf.yield %r : tensor<64xi32>
  } else {
    scf.yield %r4 : tensor<64xi32>
  }
  // expected-remark @below {{contiguity = [4], divisibility = [4], constancy = [1]}}
  %s = arith.select %b, %r, %r4 : tensor<64xi32>
  return
}

// -----

// tk.reshape: unit dimensions added or dropped (block pointers' offsets)
// keep the other dimensions' facts; a real reshape keeps the runs of the
// last dimension that the new last dimension cuts.
func.func @reshape() {
  // expected-remark @below {{contiguity = [64], divisibility = [1073741824], constancy = [1]}}
  %r = tk.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  // expected-remark @below {{contiguity = [64, 1], divisibility = [1073741824, 1], constancy = [1, 1]}}
  %col = tk.reshape %r : tensor<64xi32> -> tensor<64x1xi32>
  // expected-remark @below {{contiguity = [1, 64], divisibility = [1, 1073741824], constancy = [1, 1]}}
  %row = tk.reshape %r : tensor<64xi32> -> tensor<1x64xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [1073741824], constancy = [1]}}
  %back = tk.reshape %row : tensor<1x64xi32> -> tensor<64xi32>
  // expected-remark @below {{contiguity = [1, 16], divisibility = [1, 16], constancy = [1, 1]}}
  %tiles = tk.reshape %r : tensor<64xi32> -> tensor<4x16xi32>
  return
}
