//===- ControlFlowTest.cpp - scf, calls, grids, print and assert ----------===//
#include "KernelHarness.h"

using namespace tk::interp;
using namespace tk::interp::test;

namespace {

/// Runs a kernel whose only parameter is an i32 output pointer; returns the
/// first `count` values written.
std::vector<int32_t> runInts(const std::string &ir, size_t count,
                             LaunchGrid grid = {1, 1, 1},
                             std::string *printed = nullptr) {
  KernelHarness harness(ir);
  EXPECT_TRUE(harness.loaded()) << harness.loadError();
  if (!harness.loaded())
    return {};
  uint64_t out = harness.buffer(std::vector<int32_t>(count, 0));
  EXPECT_EQ(harness.run(grid, {out}), "");
  if (printed)
    *printed = harness.printed();
  return harness.read<int32_t>(out, count);
}

TEST(ControlFlowTest, ForLoopWithSwappedIterArgs) {
  // (a, b) -> (b, a + b) ten times: Fibonacci; the yield swaps slots.
  std::string ir = R"(
func.func @k(%out: !tk.ptr<i32>) attributes {tk.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c10 = arith.constant 10 : i32
  %r:2 = scf.for %i = %c0 to %c10 step %c1 iter_args(%a = %c0, %b = %c1) -> (i32, i32) : i32 {
    %s = arith.addi %a, %b : i32
    scf.yield %b, %s : i32, i32
  }
  %r2:2 = scf.for %i = %c0 to %c10 step %c1 iter_args(%a = %c0, %b = %c1) -> (i32, i32) : i32 {
    scf.yield %b, %a : i32, i32
  }
  tk.store %out, %r#0 : !tk.ptr<i32>, i32
  %p1 = tk.addptr %out, %c1 : !tk.ptr<i32>, i32
  tk.store %p1, %r2#1 : !tk.ptr<i32>, i32
  return
}
)";
  EXPECT_EQ(runInts(ir, 2), (std::vector<int32_t>{55, 1}));
}

TEST(ControlFlowTest, ZeroTripLoopsAndI64Counters) {
  std::string ir = R"(
func.func @k(%out: !tk.ptr<i32>) attributes {tk.kernel} {
  %c1 = arith.constant 1 : i32
  %c5 = arith.constant 5 : i32
  %c7 = arith.constant 7 : i32
  %none = scf.for %i = %c5 to %c5 step %c1 iter_args(%a = %c7) -> (i32) : i32 {
    %z = arith.constant 0 : i32
    scf.yield %z : i32
  }
  tk.store %out, %none : !tk.ptr<i32>, i32
  %lb = arith.constant 9223372036854775800 : i64
  %ub = arith.constant 9223372036854775807 : i64
  %st = arith.constant 3 : i64
  %n = scf.for %i = %lb to %ub step %st iter_args(%a = %c5) -> (i32) : i64 {
    %s = arith.addi %a, %c1 : i32
    scf.yield %s : i32
  }
  %p1 = tk.addptr %out, %c1 : !tk.ptr<i32>, i32
  tk.store %p1, %n : !tk.ptr<i32>, i32
  return
}
)";
  // The second loop runs for i = ...800, ...803, ...806 and stops without
  // overflowing.
  EXPECT_EQ(runInts(ir, 2), (std::vector<int32_t>{7, 8}));
}

TEST(ControlFlowTest, WhileAndIf) {
  std::string ir = R"(
func.func @k(%out: !tk.ptr<i32>) attributes {tk.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c100 = arith.constant 100 : i32
  // Double until >= 100, counting odd/even steps with an scf.if.
  %r:2 = scf.while (%v = %c1, %odd = %c0) : (i32, i32) -> (i32, i32) {
    %go = arith.cmpi slt, %v, %c100 : i32
    scf.condition(%go) %v, %odd : i32, i32
  } do {
  ^bb0(%v: i32, %odd: i32):
    %next = arith.muli %v, %c2 : i32
    %rem = arith.remsi %next, %c100 : i32
    %isBig = arith.cmpi sgt, %rem, %c1 : i32
    %count = scf.if %isBig -> (i32) {
      %o = arith.addi %odd, %c1 : i32
      scf.yield %o : i32
    } else {
      scf.yield %odd : i32
    }
    scf.yield %next, %count : i32, i32
  }
  tk.store %out, %r#0 : !tk.ptr<i32>, i32
  %p1 = tk.addptr %out, %c1 : !tk.ptr<i32>, i32
  tk.store %p1, %r#1 : !tk.ptr<i32>, i32
  %never = arith.cmpi sgt, %c0, %c1 : i32
  scf.if %never {
    %p2 = tk.addptr %out, %c2 : !tk.ptr<i32>, i32
    tk.store %p2, %c100 : !tk.ptr<i32>, i32
  }
  return
}
)";
  // 1 -> 2 -> 4 -> ... -> 128; every step's value mod 100 is > 1.
  EXPECT_EQ(runInts(ir, 3), (std::vector<int32_t>{128, 7, 0}));
}

TEST(ControlFlowTest, CallsAreInlinedAndRecursionRejected) {
  std::string ir = R"(
func.func private @twice(%x: i32) -> i32 {
  %s = arith.addi %x, %x : i32
  return %s : i32
}
func.func private @quad(%x: i32) -> i32 {
  %a = func.call @twice(%x) : (i32) -> i32
  %b = func.call @twice(%a) : (i32) -> i32
  return %b : i32
}
func.func @k(%out: !tk.ptr<i32>) attributes {tk.kernel} {
  %c3 = arith.constant 3 : i32
  %q = func.call @quad(%c3) : (i32) -> i32
  %t = func.call @twice(%q) : (i32) -> i32
  tk.store %out, %t : !tk.ptr<i32>, i32
  return
}
)";
  EXPECT_EQ(runInts(ir, 1), (std::vector<int32_t>{24}));

  std::string recursive = R"(
func.func private @f(%x: i32) -> i32 {
  %y = func.call @f(%x) : (i32) -> i32
  return %y : i32
}
func.func @k(%out: !tk.ptr<i32>) attributes {tk.kernel} {
  %c3 = arith.constant 3 : i32
  %q = func.call @f(%c3) : (i32) -> i32
  return
}
)";
  KernelHarness harness(recursive, "rec.mlir");
  EXPECT_FALSE(harness.loaded());
  EXPECT_EQ(harness.loadError(),
            "rec.mlir:3:8: error: recursive call to 'f' cannot be interpreted\n"
            "rec.mlir:8:8: note: inlined from here");
}

TEST(ControlFlowTest, GridRunsInRowMajorOrderWithZFastest) {
  std::string ir = R"(
func.func @k(%out: !tk.ptr<i32>) attributes {tk.kernel} {
  %x = tk.program_id 0 : i32
  %y = tk.program_id 1 : i32
  %z = tk.program_id 2 : i32
  %nz = tk.num_programs 2 : i32
  %ny = tk.num_programs 1 : i32
  %c1 = arith.constant 1 : i32
  %c100 = arith.constant 100 : i32
  %c10 = arith.constant 10 : i32
  %xs = arith.muli %x, %c100 : i32
  %ys = arith.muli %y, %c10 : i32
  %id0 = arith.addi %xs, %ys : i32
  %id = arith.addi %id0, %z : i32
  // Append id at out[1 + counter], counter in out[0].
  %slot = tk.atomic_rmw add %out, %c1 : !tk.ptr<i32>, i32
  %at = arith.addi %slot, %c1 : i32
  %p = tk.addptr %out, %at : !tk.ptr<i32>, i32
  tk.store %p, %id : !tk.ptr<i32>, i32
  tk.print " grid: " %ny, %nz : i32, i32
  return
}
)";
  std::string printed;
  EXPECT_EQ(runInts(ir, 9, {2, 2, 2}, &printed),
            (std::vector<int32_t>{8, 0, 1, 10, 11, 100, 101, 110, 111}));
  EXPECT_EQ(printed.substr(0, printed.find('\n', printed.find('\n') + 1) + 1),
            "pid (0, 0, 0) idx () grid: (operand 0) 2\n"
            "pid (0, 0, 0) idx () grid: (operand 1) 2\n");
}

TEST(ControlFlowTest, DevicePrintFormat) {
  std::string ir = R"(
func.func @k(%out: !tk.ptr<i32>) attributes {tk.kernel} {
  %v = arith.constant dense<[1.5, -0.25, 1.0e+20, 0x7FC00000]> : tensor<4xf32>
  tk.print " x: " %v : tensor<4xf32>
  %m = arith.constant dense<[[1, 2], [3, -4]]> : tensor<2x2xi32>
  tk.print " m: " {hex} %m : tensor<2x2xi32>
  %h = arith.constant 2.5 : f16
  tk.print " h: " %h : f16
  tk.print " done"
  return
}
)";
  std::string printed;
  runInts(ir, 1, {1, 2, 1}, &printed);
  std::string expected = "pid (0, 0, 0) idx (0) x: 1.5\n"
                         "pid (0, 0, 0) idx (1) x: -0.25\n"
                         "pid (0, 0, 0) idx (2) x: 1e+20\n"
                         "pid (0, 0, 0) idx (3) x: nan\n"
                         "pid (0, 0, 0) idx (0, 0) m: 0x00000001\n"
                         "pid (0, 0, 0) idx (0, 1) m: 0x00000002\n"
                         "pid (0, 0, 0) idx (1, 0) m: 0x00000003\n"
                         "pid (0, 0, 0) idx (1, 1) m: 0xfffffffc\n"
                         "pid (0, 0, 0) idx () h: 2.5\n"
                         "pid (0, 0, 0) done\n";
  EXPECT_EQ(printed.substr(0, expected.size()), expected);
  EXPECT_NE(printed.find("pid (0, 1, 0) idx (0) x: 1.5\n"), std::string::npos);
}

TEST(ControlFlowTest, DeviceAssertReportsSourceProgramAndLane) {
  std::string ir = R"(
func.func @k(%out: !tk.ptr<i32>) attributes {tk.kernel} {
  %pid = tk.program_id 0 : i32
  %r = tk.make_range {start = 0 : i32, end = 4 : i32} : tensor<4xi32>
  %ps = tk.splat %pid : i32 -> tensor<4xi32>
  %s = arith.addi %r, %ps : tensor<4xi32>
  %c5 = arith.constant dense<5> : tensor<4xi32>
  %ok = arith.cmpi slt, %s, %c5 : tensor<4xi32>
  tk.assert %ok, "index in range" : tensor<4xi1> loc(callsite("helpers.tk":4:5 at "kernel.tk":20:3))
  return
}
)";
  KernelHarness harness(ir);
  ASSERT_TRUE(harness.loaded()) << harness.loadError();
  uint64_t out = harness.buffer(std::vector<int32_t>(1));
  EXPECT_EQ(harness.run({4, 1, 1}, {out}),
            "helpers.tk:4:5: error: device_assert failed in program (2, 0, 0), "
            "lane 3: index in range\n"
            "kernel.tk:20:3: note: inlined from here");
}

TEST(ControlFlowTest, StepMustBePositive) {
  std::string ir = R"(
func.func @k(%out: !tk.ptr<i32>, %step: i32) attributes {tk.kernel} {
  %c0 = arith.constant 0 : i32
  %c9 = arith.constant 9 : i32
  scf.for %i = %c0 to %c9 step %step : i32 {
    tk.store %out, %i : !tk.ptr<i32>, i32
  }
  return
}
)";
  KernelHarness harness(ir, "loop.mlir");
  ASSERT_TRUE(harness.loaded()) << harness.loadError();
  uint64_t out = harness.buffer(std::vector<int32_t>(1));
  EXPECT_EQ(harness.run({1, 1, 1}, {out, 0}),
            "loop.mlir:5:3: error: scf.for step must be positive, got 0");
  EXPECT_EQ(harness.run({1, 1, 1}, {out, 4}), "");
  EXPECT_EQ(harness.read<int32_t>(out, 1)[0], 8);
}

TEST(ControlFlowTest, UnsupportedOperationsAreReportedWhenLoading) {
  std::string ir = R"(
func.func @k(%out: !tk.ptr<i32>, %a: i32) attributes {tk.kernel} {
  %l, %h = arith.mului_extended %a, %a : i32
  return
}
)";
  KernelHarness harness(ir, "bad.mlir");
  EXPECT_FALSE(harness.loaded());
  EXPECT_EQ(harness.loadError(), "bad.mlir:3:12: error: the interpreter does "
                                 "not support 'arith.mului_extended'");
  KernelHarness syntax("func.func @k( {", "syntax.mlir");
  EXPECT_FALSE(syntax.loaded());
  EXPECT_NE(syntax.loadError().find("syntax.mlir:1:"), std::string::npos)
      << syntax.loadError();
}

TEST(ControlFlowTest, ArgumentCountAndGrid) {
  KernelHarness harness(R"(
func.func @k(%out: !tk.ptr<i32>) attributes {tk.kernel} {
  return
}
)");
  ASSERT_TRUE(harness.loaded());
  EXPECT_EQ(harness.run({1, 1, 1}, {}), "kernel 'k' takes 1 arguments, got 0");
  EXPECT_EQ(harness.run({0, 5, 5}, {0}), ""); // empty grid: nothing runs
  EXPECT_EQ(harness.get().params()[0].name, "arg0");
  EXPECT_EQ(harness.get().params()[0].sourceType, "*i32");
}

} // namespace
