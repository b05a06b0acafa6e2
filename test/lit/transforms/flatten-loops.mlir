// RUN: tk-opt %s -split-input-file -tk-flatten-loops | FileCheck %s

// A persistent-style nest: tiles %i from %pid by %nsm, a run-time number of
// K blocks, an accumulator restarting per tile, a store per tile, and a
// tile counter carried by the outer loop. One loop of To * Ti iterations
// under `Ti > 0`: tile and K block from t (unsigned div/rem, t >= 0), the
// prologue recomputed, the accumulator selected at the first K block, the
// epilogue (and the counter's update) under `K block == Ti - 1`; the
// other branch is the nest without its inner loop (acc = its init).
// CHECK-LABEL: func.func @nest
// CHECK-SAME: (%[[P:[^:]*]]: !tk.ptr<f32>, %[[PID:[^:]*]]: i32, %[[NT:[^:]*]]: i32, %[[NK:[^:]*]]: i32)
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[NSM:.*]] = arith.constant 4 : i32
// CHECK-DAG: %[[ACC0:.*]] = arith.constant dense<0.000000e+00> : tensor<16xf32>
// The trip counts: (ub - lb + step - 1) / step, 0 when ub <= lb.
// CHECK: %[[OSPAN:.*]] = arith.subi %[[NT]], %[[PID]]
// CHECK: %[[OROUND:.*]] = arith.addi %[[OSPAN]],
// CHECK: %[[ODIV:.*]] = arith.divsi %[[OROUND]], %[[NSM]]
// CHECK: %[[OEMPTY:.*]] = arith.cmpi sle, %[[NT]], %[[PID]]
// CHECK: %[[TO:.*]] = arith.select %[[OEMPTY]], %{{.*}}, %[[ODIV]]
// CHECK: %[[TI:.*]] = arith.select
// CHECK: %[[NONEMPTY:.*]] = arith.cmpi sgt, %[[TI]],
// CHECK: %[[R:.*]] = scf.if %[[NONEMPTY]] -> (i32) {
// CHECK:   %[[TOTAL:.*]] = arith.muli %[[TO]], %[[TI]] : i32
// CHECK:   %[[LASTK:.*]] = arith.subi %[[TI]], %{{.*}} : i32
// CHECK:   %[[F:.*]]:2 = scf.for %[[T:.*]] = %{{.*}} to %[[TOTAL]] step %{{.*}} iter_args(%[[CNT:.*]] = %[[ZERO]], %[[ACC:.*]] = %[[ACC0]]) -> (i32, tensor<16xf32>)
// CHECK-NEXT: %[[TILE:.*]] = arith.divui %[[T]], %[[TI]]
// CHECK-NEXT: %[[KB:.*]] = arith.remui %[[T]], %[[TI]]
// CHECK-NEXT: %[[TS:.*]] = arith.muli %[[TILE]], %[[NSM]]
// CHECK-NEXT: %[[I:.*]] = arith.addi %[[PID]], %[[TS]]
// CHECK-NEXT: %[[KS:.*]] = arith.muli %[[KB]], %[[ONE]]
// CHECK-NEXT: %[[J:.*]] = arith.addi %[[ZERO]], %[[KS]]
// CHECK-NEXT: %[[ROW:.*]] = arith.muli %[[I]], %{{.*}} : i32
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[KB]], %{{.*}} : i32
// CHECK-NEXT: %[[CUR:.*]] = arith.select %[[FIRST]], %[[ACC0]], %[[ACC]] : tensor<16xf32>
// CHECK-NEXT: %[[OFF:.*]] = arith.addi %[[ROW]], %[[J]]
// CHECK-NEXT: %[[PTR:.*]] = tk.addptr %[[P]], %[[OFF]]
// CHECK-NEXT: %[[V:.*]] = tk.load %[[PTR]]
// CHECK-NEXT: %[[VS:.*]] = tk.splat %[[V]]
// CHECK-NEXT: %[[NEXT:.*]] = arith.addf %[[CUR]], %[[VS]]
// CHECK-NEXT: %[[LAST:.*]] = arith.cmpi eq, %[[KB]], %[[LASTK]] : i32
// CHECK-NEXT: %[[E:.*]] = scf.if %[[LAST]] -> (i32) {
// CHECK-NEXT:   %[[OUT:.*]] = tk.addptr %[[P]], %[[CNT]]
// CHECK-NEXT:   %[[OUTS:.*]] = tk.splat %[[OUT]]
// CHECK-NEXT:   tk.store %[[OUTS]], %[[NEXT]]
// CHECK-NEXT:   %[[CNT2:.*]] = arith.addi %[[CNT]], %[[ONE]]
// CHECK-NEXT:   scf.yield %[[CNT2]] : i32
// CHECK-NEXT: } else {
// CHECK-NEXT:   scf.yield %[[CNT]] : i32
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield %[[E]], %[[NEXT]] : i32, tensor<16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield %[[F]]#0 : i32
// CHECK-NEXT: } else {
// CHECK-NEXT:   %[[NEST:.*]] = scf.for %{{.*}} = %[[PID]] to %[[NT]] step %[[NSM]] iter_args(%[[C2:.*]] = %[[ZERO]]) -> (i32)
// CHECK-NOT:      scf.for
// CHECK-NOT:      tk.load
// CHECK:          tk.store %{{.*}}, %[[ACC0]]
// CHECK:        scf.yield %[[NEST]] : i32
// CHECK:      return %[[R]] : i32
// CHECK-NOT: tk.flatten
func.func @nest(%p: !tk.ptr<f32>, %pid: i32, %ntiles: i32, %nk: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<16xf32>
  %r = scf.for %i = %pid to %ntiles step %c4 iter_args(%count = %c0) -> (i32) : i32 {
    %row = arith.muli %i, %c64 : i32
    %acc = scf.for %j = %c0 to %nk step %c1 iter_args(%a = %zero) -> (tensor<16xf32>) : i32 {
      %off = arith.addi %row, %j : i32
      %ptr = tk.addptr %p, %off : !tk.ptr<f32>, i32
      %v = tk.load %ptr : !tk.ptr<f32> -> f32
      %vs = tk.splat %v : f32 -> tensor<16xf32>
      %n = arith.addf %a, %vs : tensor<16xf32>
      scf.yield %n : tensor<16xf32>
    } {tk.num_stages = 4 : i32}
    %out = tk.addptr %p, %count : !tk.ptr<f32>, i32
    %outs = tk.splat %out : !tk.ptr<f32> -> tensor<16x!tk.ptr<f32>>
    tk.store %outs, %acc : tensor<16x!tk.ptr<f32>>, tensor<16xf32>
    %next = arith.addi %count, %c1 : i32
    scf.yield %next : i32
  } {tk.flatten}
  return %r : i32
}

// -----

// A constant inner trip count (3): no guard; the flattened loop takes the
// inner loop's num_stages over the outer one's.
// CHECK-LABEL: func.func @constant_inner
// CHECK-NOT: scf.if %{{.*}} -> (i32)
// CHECK: scf.for
// CHECK-NOT: scf.for
// CHECK: scf.if
// CHECK: tk.store
// CHECK: } {tk.num_stages = 2 : i32}
// CHECK-NOT: scf.for
func.func @constant_inner(%p: !tk.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %f0 = arith.constant 0.0 : f32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %s = scf.for %j = %c0 to %c3 step %c1 iter_args(%a = %f0) -> (f32) : i32 {
      %x = arith.sitofp %j : i32 to f32
      %y = arith.addf %a, %x : f32
      scf.yield %y : f32
    } {tk.num_stages = 2 : i32}
    %ptr = tk.addptr %p, %i : !tk.ptr<f32>, i32
    tk.store %ptr, %s : !tk.ptr<f32>, f32
  } {tk.flatten, tk.num_stages = 3 : i32}
  return
}

// -----

// Inner pointers carried from a prologue value: the carried initial value
// is a null pointer block, never read (the first K block selects the
// prologue's pointers).
// CHECK-LABEL: func.func @carried_pointers
// CHECK: %[[NULL:.*]] = tk.int_to_ptr %{{.*}} : tensor<4xi64> -> tensor<4x!tk.ptr<f32>>
// CHECK: scf.for {{.*}} iter_args(%[[PTRS:.*]] = %[[NULL]])
// CHECK: %[[START:.*]] = tk.addptr
// CHECK: arith.select %{{.*}}, %[[START]], %[[PTRS]] : tensor<4x!tk.ptr<f32>>
func.func @carried_pointers(%p: !tk.ptr<f32>, %n: i32, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant dense<4> : tensor<4xi32>
  scf.for %i = %c0 to %n step %c1 : i32 {
    %base = tk.splat %p : !tk.ptr<f32> -> tensor<4x!tk.ptr<f32>>
    %r = tk.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %start = tk.addptr %base, %r : tensor<4x!tk.ptr<f32>>, tensor<4xi32>
    %end = scf.for %j = %c0 to %k step %c1 iter_args(%ptrs = %start) -> (tensor<4x!tk.ptr<f32>>) : i32 {
      %x = tk.load %ptrs : tensor<4x!tk.ptr<f32>> -> tensor<4xf32>
      tk.store %ptrs, %x : tensor<4x!tk.ptr<f32>>, tensor<4xf32>
      %nx = tk.addptr %ptrs, %c4 : tensor<4x!tk.ptr<f32>>, tensor<4xi32>
      scf.yield %nx : tensor<4x!tk.ptr<f32>>
    }
  } {tk.flatten}
  return
}

// -----

// Left alone (the attribute dropped): a single loop, a prologue with a
// side effect, inner bounds computed in the outer loop, two inner loops.
// CHECK-LABEL: func.func @not_flattened
// CHECK-NOT: tk.flatten
// CHECK: scf.for
// CHECK-NEXT: arith.addf
// CHECK: scf.for
// CHECK-NEXT: tk.store
// CHECK-NEXT: scf.for
// CHECK: scf.for
// CHECK-NEXT: arith.addi
// CHECK-NEXT: scf.for
// CHECK: scf.for
// CHECK-NEXT: scf.for
// CHECK: scf.for
func.func @not_flattened(%p: !tk.ptr<f32>, %n: i32, %x: f32) -> f32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> (f32) : i32 {
    %y = arith.addf %a, %x : f32
    scf.yield %y : f32
  } {tk.flatten}
  scf.for %i = %c0 to %n step %c1 : i32 {
    tk.store %p, %x : !tk.ptr<f32>, f32
    scf.for %j = %c0 to %n step %c1 : i32 {
      tk.store %p, %x : !tk.ptr<f32>, f32
    }
  } {tk.flatten}
  scf.for %i = %c0 to %n step %c1 : i32 {
    %m = arith.addi %i, %c1 : i32
    scf.for %j = %c0 to %m step %c1 : i32 {
      tk.store %p, %x : !tk.ptr<f32>, f32
    }
  } {tk.flatten}
  scf.for %i = %c0 to %n step %c1 : i32 {
    scf.for %j = %c0 to %n step %c1 : i32 {
      tk.store %p, %x : !tk.ptr<f32>, f32
    }
    scf.for %j = %c0 to %n step %c1 : i32 {
      tk.store %p, %x : !tk.ptr<f32>, f32
    }
  } {tk.flatten}
  return %s : f32
}
