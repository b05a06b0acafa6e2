// RUN: not tk-run %s --grid 8 --arg limit=5 2>&1 | FileCheck %s

// Programs 0..5 print; program 6 fails; program 7 never runs.
// CHECK: pid (5, 0, 0) idx () pid: 5
// CHECK-NOT: pid (6
// CHECK: check.tk:3:5: error: device_assert failed in program (6, 0, 0): pid <= limit
// CHECK-NOT: pid (7

func.func @check(%limit: i32) attributes {tk.kernel, tk.arg_names = ["limit"]} {
  %pid = tk.program_id 0 : i32
  %c1 = arith.constant 1 : i32
  %bound = arith.addi %limit, %c1 : i32
  %ok = arith.cmpi slt, %pid, %bound : i32
  tk.assert %ok, "pid <= limit" : i1 loc("check.tk":3:5)
  tk.print " pid: " %pid : i32
  return
}
