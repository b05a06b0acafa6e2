// tk-run binds arguments by name and checks them against the declared types.

// RUN: tk-run %s --arg 'p=[1, 2]' --arg u=4294967295 --arg h=0.1 --arg b=true \
// RUN:   --dump p | FileCheck %s
// CHECK: pid (0, 0, 0) idx () u h b: (operand 0) -1
// CHECK-NEXT: pid (0, 0, 0) idx () u h b: (operand 1) 0.099975586
// CHECK-NEXT: pid (0, 0, 0) idx () u h b: (operand 2) 1
// CHECK-NEXT: p: u16[2]
// CHECK-NEXT: 1 2

// RUN: not tk-run %s --arg 'p=[1, 2]' --arg u=4294967296 --arg h=1 --arg b=1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RANGE
// RANGE: tk-run: error: argument 'u' (u32): 4294967296 is out of range for u32

// RUN: not tk-run %s --arg 'p=[1, -2]' --arg u=1 --arg h=1 --arg b=1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ELEMENT
// ELEMENT: tk-run: error: argument 'p' (*u16), element 1: -2 is out of range for u16

// RUN: not tk-run %s --arg 'p=[1]' --arg u=1 --arg h=x --arg b=1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FLOAT
// FLOAT: tk-run: error: argument 'h' (f16): 'x' is not a number

// RUN: not tk-run %s --arg 'p=[1]' --arg u=1 --arg h=1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MISSING
// MISSING: tk-run: error: parameter 'b' (i1) is not bound; pass --arg b=...

// RUN: tk-run %S/vector-add.mlir --grid 1 --arg 'x_ptr=[1, 2]' --arg 'y_ptr=[3, 4]' \
// RUN:   --arg out_ptr=zeros:2 --arg n=2 --write out_ptr=%t.f32.npy > /dev/null
// RUN: not tk-run %s --arg p=%t.f32.npy --arg u=1 --arg h=1 --arg b=1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DTYPE
// DTYPE: tk-run: error: argument 'p' (*u16): {{.*}}.f32.npy holds f32 elements, but the parameter points to u16

// RUN: not tk-run %s --grid 2,0,1,4 --arg 'p=[1]' --arg u=1 --arg h=1 --arg b=1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=GRID
// GRID: tk-run: error: --grid takes X, X,Y or X,Y,Z, got '2,0,1,4'

func.func @args(%p: !tk.ptr<i16>, %u: i32, %h: f16, %b: i1)
    attributes {tk.kernel, tk.arg_names = ["p", "u", "h", "b"],
                tk.arg_types = ["*u16", "u32", "f16", "i1"]} {
  tk.print " u h b: " %u, %h, %b : i32, f16, i1
  return
}
