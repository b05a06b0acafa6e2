// .npy round trips for 16-bit floats and unsigned/narrow integers: one run
// writes the buffers, a second reads them back (the dtype of each file must
// match the pointee type of its parameter).

// RUN: tk-run %s --arg 'h=[0.1, -2, 65504, 1e-7]' --arg 'b=[0.1, -2, 3e38, 1e-7]' \
// RUN:   --arg 'c=[1, -2, 127, -128]' --arg 'u=[0, 1, 18446744073709551615, 7]' \
// RUN:   --write h=%t.h.npy --write b=%t.b.npy --write c=%t.c.npy \
// RUN:   --write u=%t.u.npy --dump h --dump b --dump c --dump u | FileCheck %s
// RUN: tk-run %s --arg h=%t.h.npy --arg b=%t.b.npy --arg c=%t.c.npy \
// RUN:   --arg u=%t.u.npy --dump h --dump b --dump c --dump u \
// RUN:   | FileCheck %s --check-prefix=TWICE

// Each run negates every element.
// CHECK: h: f16[4]
// CHECK-NEXT: -0.099975586 2 -65504 -1.1920929e-07
// CHECK-NEXT: b: bf16[4]
// CHECK-NEXT: -0.100097656 2 -3.0040553e+38 -1.0011718e-07
// CHECK-NEXT: c: i8[4]
// CHECK-NEXT: -1 2 -127 -128
// CHECK-NEXT: u: u64[4]
// CHECK-NEXT: 0 18446744073709551615 1 18446744073709551609

// TWICE: h: f16[4]
// TWICE-NEXT: 0.099975586 -2 65504 1.1920929e-07
// TWICE-NEXT: b: bf16[4]
// TWICE-NEXT: 0.100097656 -2 3.0040553e+38 1.0011718e-07
// TWICE-NEXT: c: i8[4]
// TWICE-NEXT: 1 -2 127 -128
// TWICE-NEXT: u: u64[4]
// TWICE-NEXT: 0 1 18446744073709551615 7

// RUN: not tk-run %s --arg h=%t.b.npy --arg b=%t.b.npy --arg c=%t.c.npy \
// RUN:   --arg u=%t.u.npy 2>&1 | FileCheck %s --check-prefix=MISMATCH
// MISMATCH: tk-run: error: argument 'h' (*f16): {{.*}}.b.npy holds bf16 elements, but the parameter points to f16

func.func @negate(%h: !tk.ptr<f16>, %b: !tk.ptr<bf16>, %c: !tk.ptr<i8>, %u: !tk.ptr<i64>)
    attributes {tk.kernel, tk.arg_names = ["h", "b", "c", "u"],
                tk.arg_types = ["*f16", "*bf16", "*i8", "*u64"]} {
  %lanes = tk.make_range {start = 0 : i32, end = 4 : i32} : tensor<4xi32>
  %hs = tk.splat %h : !tk.ptr<f16> -> tensor<4x!tk.ptr<f16>>
  %hp = tk.addptr %hs, %lanes : tensor<4x!tk.ptr<f16>>, tensor<4xi32>
  %hv = tk.load %hp : tensor<4x!tk.ptr<f16>> -> tensor<4xf16>
  %hn = arith.negf %hv : tensor<4xf16>
  tk.store %hp, %hn : tensor<4x!tk.ptr<f16>>, tensor<4xf16>
  %bs = tk.splat %b : !tk.ptr<bf16> -> tensor<4x!tk.ptr<bf16>>
  %bp = tk.addptr %bs, %lanes : tensor<4x!tk.ptr<bf16>>, tensor<4xi32>
  %bv = tk.load %bp : tensor<4x!tk.ptr<bf16>> -> tensor<4xbf16>
  %bn = arith.negf %bv : tensor<4xbf16>
  tk.store %bp, %bn : tensor<4x!tk.ptr<bf16>>, tensor<4xbf16>
  %cs = tk.splat %c : !tk.ptr<i8> -> tensor<4x!tk.ptr<i8>>
  %cp = tk.addptr %cs, %lanes : tensor<4x!tk.ptr<i8>>, tensor<4xi32>
  %cv = tk.load %cp : tensor<4x!tk.ptr<i8>> -> tensor<4xi8>
  %zero8 = arith.constant dense<0> : tensor<4xi8>
  %cn = arith.subi %zero8, %cv : tensor<4xi8>
  tk.store %cp, %cn : tensor<4x!tk.ptr<i8>>, tensor<4xi8>
  %us = tk.splat %u : !tk.ptr<i64> -> tensor<4x!tk.ptr<i64>>
  %up = tk.addptr %us, %lanes : tensor<4x!tk.ptr<i64>>, tensor<4xi32>
  %uv = tk.load %up : tensor<4x!tk.ptr<i64>> -> tensor<4xi64>
  %zero64 = arith.constant dense<0> : tensor<4xi64>
  %un = arith.subi %zero64, %uv : tensor<4xi64>
  tk.store %up, %un : tensor<4x!tk.ptr<i64>>, tensor<4xi64>
  return
}
