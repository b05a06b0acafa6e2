// RUN: tk-opt %s -split-input-file -tkgpu-remove-layout-conversions -canonicalize -cse | FileCheck %s

#def = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#vec = #tkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Softmax after coalescing: pointers, mask and `other` are rematerialized
// in the load/store layout, and the loaded row's conversion sinks through
// the reductions and elementwise ops until it cancels at the store.
// CHECK: #[[VEC:.*]] = #tkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @softmax
// CHECK-NOT: convert_layout
// CHECK: tk.make_range {{.*}} : tensor<1024xi32, #[[VEC]]>
// CHECK: %[[X:.*]] = tk.load {{.*}} -> tensor<1024xf32, #[[VEC]]>
// CHECK: tk.reduce max %[[X]] {axis = 0 : i32} : tensor<1024xf32, #[[VEC]]> -> f32
// CHECK: arith.subf %[[X]], %{{.*}} : tensor<1024xf32, #[[VEC]]>
// CHECK: math.exp %{{.*}} : tensor<1024xf32, #[[VEC]]>
// CHECK: tk.reduce sum %{{.*}} : tensor<1024xf32, #[[VEC]]> -> f32
// CHECK: arith.divf %{{.*}} : tensor<1024xf32, #[[VEC]]>
// CHECK: tk.store {{.*}} : tensor<1024x!tk.ptr<f32>, #[[VEC]]>, tensor<1024xf32, #[[VEC]]>, tensor<1024xi1, #[[VEC]]>
// CHECK-NOT: convert_layout
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @softmax(%out: !tk.ptr<f32>, %in: !tk.ptr<f32>, %n: i32) {
    %cols = tk.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #def>
    %ns = tk.splat %n : i32 -> tensor<1024xi32, #def>
    %mask = arith.cmpi slt, %cols, %ns : tensor<1024xi32, #def>
    %ins = tk.splat %in : !tk.ptr<f32> -> tensor<1024x!tk.ptr<f32>, #def>
    %ia = tk.addptr %ins, %cols : tensor<1024x!tk.ptr<f32>, #def>, tensor<1024xi32, #def>
    %ninf = arith.constant dense<0xFF800000> : tensor<1024xf32, #def>
    %ia_v = tkgpu.convert_layout %ia : tensor<1024x!tk.ptr<f32>, #def> -> tensor<1024x!tk.ptr<f32>, #vec>
    %mask_v = tkgpu.convert_layout %mask : tensor<1024xi1, #def> -> tensor<1024xi1, #vec>
    %ninf_v = tkgpu.convert_layout %ninf : tensor<1024xf32, #def> -> tensor<1024xf32, #vec>
    %x_v = tk.load %ia_v, mask %mask_v, other %ninf_v : tensor<1024x!tk.ptr<f32>, #vec> -> tensor<1024xf32, #vec>, tensor<1024xi1, #vec>
    %x = tkgpu.convert_layout %x_v : tensor<1024xf32, #vec> -> tensor<1024xf32, #def>
    %mx = tk.reduce max %x {axis = 0 : i32} : tensor<1024xf32, #def> -> f32
    %mxs = tk.splat %mx : f32 -> tensor<1024xf32, #def>
    %xs = arith.subf %x, %mxs : tensor<1024xf32, #def>
    %num = math.exp %xs : tensor<1024xf32, #def>
    %den = tk.reduce sum %num {axis = 0 : i32} : tensor<1024xf32, #def> -> f32
    %dens = tk.splat %den : f32 -> tensor<1024xf32, #def>
    %y = arith.divf %num, %dens : tensor<1024xf32, #def>
    %outs = tk.splat %out : !tk.ptr<f32> -> tensor<1024x!tk.ptr<f32>, #def>
    %oa = tk.addptr %outs, %cols : tensor<1024x!tk.ptr<f32>, #def>, tensor<1024xi32, #def>
    %oa_v = tkgpu.convert_layout %oa : tensor<1024x!tk.ptr<f32>, #def> -> tensor<1024x!tk.ptr<f32>, #vec>
    %y_v = tkgpu.convert_layout %y : tensor<1024xf32, #def> -> tensor<1024xf32, #vec>
    %mask_v2 = tkgpu.convert_layout %mask : tensor<1024xi1, #def> -> tensor<1024xi1, #vec>
    tk.store %oa_v, %y_v, mask %mask_v2 : tensor<1024x!tk.ptr<f32>, #vec>, tensor<1024xf32, #vec>, tensor<1024xi1, #vec>
    return
  }
}

// -----

#def = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#vec = #tkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#other = #tkgpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Conversion chains fold; a conversion between two anchors (loads in
// different layouts feeding one add) is inherent: exactly one remains.
// CHECK-LABEL: func.func @chains_and_anchors
// CHECK-SAME: %[[A:[^:]*]]: tensor<1024xf32, #[[VEC:[^>]*]]>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @chains_and_anchors(%a: tensor<1024xf32, #vec>, %p: tensor<1024x!tk.ptr<f32>, #vec>, %q: tensor<1024x!tk.ptr<f32>, #other>) -> tensor<1024xf32, #vec> {
    // CHECK-NOT: convert_layout %[[A]]
    %c1 = tkgpu.convert_layout %a : tensor<1024xf32, #vec> -> tensor<1024xf32, #def>
    %c2 = tkgpu.convert_layout %c1 : tensor<1024xf32, #def> -> tensor<1024xf32, #other>
    %c3 = tkgpu.convert_layout %c2 : tensor<1024xf32, #other> -> tensor<1024xf32, #vec>
    // CHECK: %[[X:.*]] = tk.load %{{.*}} : tensor<1024x!tk.ptr<f32>, #[[VEC]]>
    // CHECK: %[[Y:.*]] = tk.load %{{.*}} : tensor<1024x!tk.ptr<f32>, #[[OTHER:[^>]*]]>
    %x = tk.load %p : tensor<1024x!tk.ptr<f32>, #vec> -> tensor<1024xf32, #vec>
    %y = tk.load %q : tensor<1024x!tk.ptr<f32>, #other> -> tensor<1024xf32, #other>
    %xd = tkgpu.convert_layout %x : tensor<1024xf32, #vec> -> tensor<1024xf32, #def>
    %yd = tkgpu.convert_layout %y : tensor<1024xf32, #other> -> tensor<1024xf32, #def>
    // CHECK: %[[YC:.*]] = tkgpu.convert_layout %[[Y]] : tensor<1024xf32, #[[OTHER]]> -> tensor<1024xf32, #[[VEC]]>
    // CHECK: %[[S:.*]] = arith.addf %[[X]], %[[YC]] : tensor<1024xf32, #[[VEC]]>
    %s = arith.addf %xd, %yd : tensor<1024xf32, #def>
    %sv = tkgpu.convert_layout %s : tensor<1024xf32, #def> -> tensor<1024xf32, #vec>
    // CHECK: %[[R:.*]] = arith.addf %[[S]], %[[A]]
    %r = arith.addf %sv, %c3 : tensor<1024xf32, #vec>
    // CHECK-NOT: convert_layout
    // CHECK: return %[[R]]
    return %r : tensor<1024xf32, #vec>
  }
}

// -----

#l1 = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#d2 = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#c2 = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
#sd = #tkgpu.slice<{dim = 1, parent = #d2}>
#sc = #tkgpu.slice<{dim = 1, parent = #c2}>

// Row-wise 2-D normalization: x / sum(x, axis=1)[:, None]. The reduction
// moves to the load's layout; its slice result feeds expand_dims and
// broadcast in that layout, so no conversion is left.
// CHECK-DAG: #[[B2:.*]] = #tkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-DAG: #[[S:.*]] = #tkgpu.slice<{dim = 1, parent = #[[B2]]}>
// CHECK-LABEL: func.func @rows
// CHECK-NOT: convert_layout
// CHECK: %[[X:.*]] = tk.load %{{.*}} -> tensor<16x256xf32, #[[B2]]>
// CHECK: %[[SUM:.*]] = tk.reduce sum %[[X]] {axis = 1 : i32} : tensor<16x256xf32, #[[B2]]> -> tensor<16xf32, #[[S]]>
// CHECK: %[[E:.*]] = tk.expand_dims %[[SUM]] {axis = 1 : i32} : tensor<16xf32, #[[S]]> -> tensor<16x1xf32, #[[B2]]>
// CHECK: %[[B:.*]] = tk.broadcast %[[E]] : tensor<16x1xf32, #[[B2]]> -> tensor<16x256xf32, #[[B2]]>
// CHECK: arith.divf %[[X]], %[[B]] : tensor<16x256xf32, #[[B2]]>
// CHECK-NOT: convert_layout
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @rows(%p: tensor<16x256x!tk.ptr<f32>, #b2>) {
    %xv = tk.load %p : tensor<16x256x!tk.ptr<f32>, #b2> -> tensor<16x256xf32, #b2>
    %x = tkgpu.convert_layout %xv : tensor<16x256xf32, #b2> -> tensor<16x256xf32, #d2>
    %sum = tk.reduce sum %x {axis = 1 : i32} : tensor<16x256xf32, #d2> -> tensor<16xf32, #sd>
    %s1 = tkgpu.convert_layout %sum : tensor<16xf32, #sd> -> tensor<16xf32, #l1>
    %s2 = tkgpu.convert_layout %s1 : tensor<16xf32, #l1> -> tensor<16xf32, #sc>
    %e = tk.expand_dims %s2 {axis = 1 : i32} : tensor<16xf32, #sc> -> tensor<16x1xf32, #c2>
    %ec = tkgpu.convert_layout %e : tensor<16x1xf32, #c2> -> tensor<16x1xf32, #d2>
    %b = tk.broadcast %ec : tensor<16x1xf32, #d2> -> tensor<16x256xf32, #d2>
    %y = arith.divf %x, %b : tensor<16x256xf32, #d2>
    %yv = tkgpu.convert_layout %y : tensor<16x256xf32, #d2> -> tensor<16x256xf32, #b2>
    tk.store %p, %yv : tensor<16x256x!tk.ptr<f32>, #b2>, tensor<16x256xf32, #b2>
    return
  }
}

// -----

#def = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#vec = #tkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Loop-carried values keep their layout (conservative): the conversion in
// the body and the one of the loop's result stay; the constant stored after
// the loop is rebuilt in the store's layout.
// CHECK-LABEL: func.func @loop
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @loop(%p: tensor<1024x!tk.ptr<f32>, #vec>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<1024xf32, #def>
    // CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<1024xf32, #[[VEC:.*]]>
    // CHECK: %[[ACC:.*]] = scf.for {{.*}} -> (tensor<1024xf32, #[[DEF:.*]]>)
    %acc = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero) -> (tensor<1024xf32, #def>) : i32 {
      %x = tk.load %p : tensor<1024x!tk.ptr<f32>, #vec> -> tensor<1024xf32, #vec>
      // CHECK: tkgpu.convert_layout %{{.*}} : tensor<1024xf32, #[[VEC]]> -> tensor<1024xf32, #[[DEF]]>
      %xd = tkgpu.convert_layout %x : tensor<1024xf32, #vec> -> tensor<1024xf32, #def>
      %s = arith.addf %a, %xd : tensor<1024xf32, #def>
      scf.yield %s : tensor<1024xf32, #def>
    }
    // CHECK: %[[ACCV:.*]] = tkgpu.convert_layout %[[ACC]] : tensor<1024xf32, #[[DEF]]> -> tensor<1024xf32, #[[VEC]]>
    // CHECK: tk.store %{{.*}}, %[[ACCV]]
    %accv = tkgpu.convert_layout %acc : tensor<1024xf32, #def> -> tensor<1024xf32, #vec>
    tk.store %p, %accv : tensor<1024x!tk.ptr<f32>, #vec>, tensor<1024xf32, #vec>
    // CHECK: tk.store %{{.*}}, %[[Z]] : tensor<1024x!tk.ptr<f32>, #[[VEC]]>
    %zv = tkgpu.convert_layout %zero : tensor<1024xf32, #def> -> tensor<1024xf32, #vec>
    tk.store %p, %zv : tensor<1024x!tk.ptr<f32>, #vec>, tensor<1024xf32, #vec>
    return
  }
}

// -----

#def = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#vec = #tkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Pointers advanced each iteration and converted for a load are carried in
// the load's layout: no conversion is left in the loop.
// CHECK-LABEL: func.func @loop_pointers
// CHECK: %[[P0:.*]] = tk.addptr %{{.*}} : tensor<1024x!tk.ptr<f32>, #[[VEC:[^>]*]]>
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[P:.*]] = %[[P0]]) -> (tensor<1024xf32, #[[VEC]]>, tensor<1024x!tk.ptr<f32>, #[[VEC]]>)
// CHECK-NOT: convert_layout
// CHECK: %[[X:.*]] = tk.load %[[P]] : tensor<1024x!tk.ptr<f32>, #[[VEC]]>
// CHECK: %[[NEXT:.*]] = tk.addptr %[[P]], %{{.*}} : tensor<1024x!tk.ptr<f32>, #[[VEC]]>
// CHECK: scf.yield %{{.*}}, %[[NEXT]]
// CHECK-NOT: convert_layout
// CHECK: return
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @loop_pointers(%base: !tk.ptr<f32>, %out: tensor<1024x!tk.ptr<f32>, #vec>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = tk.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #def>
    %bs = tk.splat %base : !tk.ptr<f32> -> tensor<1024x!tk.ptr<f32>, #def>
    %p0 = tk.addptr %bs, %r : tensor<1024x!tk.ptr<f32>, #def>, tensor<1024xi32, #def>
    %step = arith.constant dense<1024> : tensor<1024xi32, #def>
    %zero = arith.constant dense<0.0> : tensor<1024xf32, #vec>
    %acc, %p = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero, %q = %p0) -> (tensor<1024xf32, #vec>, tensor<1024x!tk.ptr<f32>, #def>) : i32 {
      %qv = tkgpu.convert_layout %q : tensor<1024x!tk.ptr<f32>, #def> -> tensor<1024x!tk.ptr<f32>, #vec>
      %x = tk.load %qv : tensor<1024x!tk.ptr<f32>, #vec> -> tensor<1024xf32, #vec>
      %s = arith.addf %a, %x : tensor<1024xf32, #vec>
      %next = tk.addptr %q, %step : tensor<1024x!tk.ptr<f32>, #def>, tensor<1024xi32, #def>
      scf.yield %s, %next : tensor<1024xf32, #vec>, tensor<1024x!tk.ptr<f32>, #def>
    }
    tk.store %out, %acc : tensor<1024x!tk.ptr<f32>, #vec>, tensor<1024xf32, #vec>
    return
  }
}

// -----

// Attention's online softmax after accelerate-matmul: the row max and sum
// of the QK^T dot come out in a slice of #mma, the carried m_i, l_i and acc
// are blocked. The loop carries m_i and l_i in the slice and acc in #mma,
// and the body has no conversion left (the row statistics broadcast along
// the #mma rows where they were reduced).
// CHECK-DAG: #[[MMA:.*]] = #tkgpu.mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
// CHECK-DAG: #[[ROW:.*]] = #tkgpu.slice<{dim = 1, parent = #[[MMA]]}>
// CHECK-LABEL: func.func @online_softmax
// CHECK: scf.for {{.*}} -> (tensor<64xf32, #[[ROW]]>, tensor<64xf32, #[[ROW]]>, tensor<64x64xf32, #[[MMA]]>)
// CHECK-NOT: convert_layout
// CHECK: tk.reduce max {{.*}} -> tensor<64xf32, #[[ROW]]>
// CHECK-NOT: convert_layout
// CHECK: tk.reduce sum {{.*}} -> tensor<64xf32, #[[ROW]]>
// CHECK-NOT: convert_layout
// CHECK: tk.dot {{.*}} -> tensor<64x64xf32, #[[MMA]]>
// CHECK-NOT: convert_layout
// CHECK: scf.yield {{.*}} : tensor<64xf32, #[[ROW]]>, tensor<64xf32, #[[ROW]]>, tensor<64x64xf32, #[[MMA]]>
// CHECK-NEXT: }
// CHECK: arith.divf {{.*}} : tensor<64x64xf32, #[[MMA]]>
#mma = #tkgpu.mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#dA = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#dB = #tkgpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
#row = #tkgpu.slice<{dim = 1, parent = #mma}>
#b1 = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#s2 = #tkgpu.slice<{dim = 1, parent = #b2}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
  func.func @online_softmax(%q: tensor<64x16xf16, #dA>, %k: tensor<16x64xf16, #dB>, %p16: tensor<64x16xf16, #dA>, %v: tensor<16x64xf16, #dB>, %po: tensor<64x64x!tk.ptr<f32>, #b2>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zmma = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %minf = arith.constant dense<0xFF800000> : tensor<64xf32, #b1>
    %zrow = arith.constant dense<0.0> : tensor<64xf32, #b1>
    %zacc = arith.constant dense<0.0> : tensor<64x64xf32, #b2>
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%m = %minf, %l = %zrow, %acc = %zacc) -> (tensor<64xf32, #b1>, tensor<64xf32, #b1>, tensor<64x64xf32, #b2>) : i32 {
      %qk = tk.dot %q, %k, %zmma : tensor<64x16xf16, #dA> * tensor<16x64xf16, #dB> -> tensor<64x64xf32, #mma>
      %rmax = tk.reduce max %qk {axis = 1 : i32} : tensor<64x64xf32, #mma> -> tensor<64xf32, #row>
      %rmaxb = tkgpu.convert_layout %rmax : tensor<64xf32, #row> -> tensor<64xf32, #b1>
      %mnew = arith.maximumf %m, %rmaxb : tensor<64xf32, #b1>
      %mnews = tkgpu.convert_layout %mnew : tensor<64xf32, #b1> -> tensor<64xf32, #s2>
      %mx = tk.expand_dims %mnews {axis = 1 : i32} : tensor<64xf32, #s2> -> tensor<64x1xf32, #b2>
      %mb = tk.broadcast %mx : tensor<64x1xf32, #b2> -> tensor<64x64xf32, #b2>
      %mbm = tkgpu.convert_layout %mb : tensor<64x64xf32, #b2> -> tensor<64x64xf32, #mma>
      %sub = arith.subf %qk, %mbm : tensor<64x64xf32, #mma>
      %p = math.exp2 %sub : tensor<64x64xf32, #mma>
      %dm = arith.subf %m, %mnew : tensor<64xf32, #b1>
      %alpha = math.exp2 %dm : tensor<64xf32, #b1>
      %rsum = tk.reduce sum %p {axis = 1 : i32} : tensor<64x64xf32, #mma> -> tensor<64xf32, #row>
      %rsumb = tkgpu.convert_layout %rsum : tensor<64xf32, #row> -> tensor<64xf32, #b1>
      %ls = arith.mulf %l, %alpha : tensor<64xf32, #b1>
      %l2 = arith.addf %ls, %rsumb : tensor<64xf32, #b1>
      %alphas = tkgpu.convert_layout %alpha : tensor<64xf32, #b1> -> tensor<64xf32, #s2>
      %ax = tk.expand_dims %alphas {axis = 1 : i32} : tensor<64xf32, #s2> -> tensor<64x1xf32, #b2>
      %ab = tk.broadcast %ax : tensor<64x1xf32, #b2> -> tensor<64x64xf32, #b2>
      %acc2 = arith.mulf %acc, %ab : tensor<64x64xf32, #b2>
      %accm = tkgpu.convert_layout %acc2 : tensor<64x64xf32, #b2> -> tensor<64x64xf32, #mma>
      %d = tk.dot %p16, %v, %accm : tensor<64x16xf16, #dA> * tensor<16x64xf16, #dB> -> tensor<64x64xf32, #mma>
      %db = tkgpu.convert_layout %d : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #b2>
      scf.yield %mnew, %l2, %db : tensor<64xf32, #b1>, tensor<64xf32, #b1>, tensor<64x64xf32, #b2>
    }
    %ls = tkgpu.convert_layout %r#1 : tensor<64xf32, #b1> -> tensor<64xf32, #s2>
    %lx = tk.expand_dims %ls {axis = 1 : i32} : tensor<64xf32, #s2> -> tensor<64x1xf32, #b2>
    %lb = tk.broadcast %lx : tensor<64x1xf32, #b2> -> tensor<64x64xf32, #b2>
    %o = arith.divf %r#2, %lb : tensor<64x64xf32, #b2>
    tk.store %po, %o : tensor<64x64x!tk.ptr<f32>, #b2>, tensor<64x64xf32, #b2>
    return
  }
}

// -----

#ld = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#def = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tkgpu.mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>

// A transposed load (attention's backward: dO^T on its way into a dot):
// the trans runs in the load's layout permuted, a register renaming, and
// the conversion moves after it. A trans of a non-blocked layout (#mma)
// keeps its conversion in front.
// CHECK-DAG: #[[LD:.*]] = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[LDT:.*]] = #tkgpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: func.func @trans_of_load
// CHECK: %[[X:.*]] = tk.load {{.*}} -> tensor<32x64xf16, #[[LD]]>
// CHECK-NOT: convert_layout
// CHECK: %[[T:.*]] = tk.trans %[[X]] {order = array<i32: 1, 0>} : tensor<32x64xf16, #[[LD]]> -> tensor<64x32xf16, #[[LDT]]>
// CHECK: tkgpu.convert_layout %[[T]] : tensor<64x32xf16, #[[LDT]]> -> tensor<64x32xf16, #
// CHECK-LABEL: func.func @trans_of_mma
// CHECK: %[[C:.*]] = tkgpu.convert_layout %{{.*}} : tensor<32x64xf32, #{{.*}}> -> tensor<32x64xf32, #
// CHECK: tk.trans %[[C]]
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @trans_of_load(%p: tensor<32x64x!tk.ptr<f16>, #ld>) -> tensor<64x32xf16, #def> {
    %x = tk.load %p : tensor<32x64x!tk.ptr<f16>, #ld> -> tensor<32x64xf16, #ld>
    %c = tkgpu.convert_layout %x : tensor<32x64xf16, #ld> -> tensor<32x64xf16, #def>
    %t = tk.trans %c {order = array<i32: 1, 0>} : tensor<32x64xf16, #def> -> tensor<64x32xf16, #def>
    return %t : tensor<64x32xf16, #def>
  }
  func.func @trans_of_mma(%x: tensor<32x64xf32, #mma>) -> tensor<64x32xf32, #def> {
    %c = tkgpu.convert_layout %x : tensor<32x64xf32, #mma> -> tensor<32x64xf32, #def>
    %t = tk.trans %c {order = array<i32: 1, 0>} : tensor<32x64xf32, #def> -> tensor<64x32xf32, #def>
    return %t : tensor<64x32xf32, #def>
  }
}

// -----

#ld = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#def = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tkgpu.mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#sh = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>

// Attention's backward: the scores (#mma, a dot's result) minus a row
// vector loaded in the loop, exponentiated and staged for the next dot.
// The tile's conversion sinks: the vector is converted instead (from its
// load to a slice of #mma), the math runs in #mma, and the staging stores
// the #mma registers without a conversion.
// CHECK-DAG: #[[MMA:.*]] = #tkgpu.mma<
// CHECK-DAG: #[[SL:.*]] = #tkgpu.slice<{dim = 0, parent = #[[MMA]]}>
// CHECK-LABEL: func.func @scores_minus_loaded_row
// CHECK: %[[M:.*]] = tk.load {{.*}} -> tensor<32xf32, #
// CHECK: %[[MC:.*]] = tkgpu.convert_layout %[[M]] : tensor<32xf32, #{{.*}}> -> tensor<32xf32, #[[SL]]>
// CHECK-NOT: convert_layout
// CHECK: arith.subf %{{.*}} : tensor<128x32xf32, #[[MMA]]>
// CHECK: math.exp2 %{{.*}} : tensor<128x32xf32, #[[MMA]]>
// CHECK: %[[P:.*]] = arith.truncf %{{.*}} : tensor<128x32xf32, #[[MMA]]> to tensor<128x32xf16, #[[MMA]]>
// CHECK-NOT: convert_layout
// CHECK: tkgpu.local_alloc %[[P]] : tensor<128x32xf16, #[[MMA]]>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @scores_minus_loaded_row(%s: tensor<128x32xf32, #mma>, %mp: tensor<32x!tk.ptr<f32>, #ld>) -> !tkgpu.memdesc<128x32xf16, #sh> {
    %m = tk.load %mp : tensor<32x!tk.ptr<f32>, #ld> -> tensor<32xf32, #ld>
    %mc = tkgpu.convert_layout %m : tensor<32xf32, #ld> -> tensor<32xf32, #tkgpu.slice<{dim = 0, parent = #def}>>
    %me = tk.expand_dims %mc {axis = 0 : i32} : tensor<32xf32, #tkgpu.slice<{dim = 0, parent = #def}>> -> tensor<1x32xf32, #def>
    %mb = tk.broadcast %me : tensor<1x32xf32, #def> -> tensor<128x32xf32, #def>
    %sc = tkgpu.convert_layout %s : tensor<128x32xf32, #mma> -> tensor<128x32xf32, #def>
    %d = arith.subf %sc, %mb : tensor<128x32xf32, #def>
    %p = math.exp2 %d : tensor<128x32xf32, #def>
    %ph = arith.truncf %p : tensor<128x32xf32, #def> to tensor<128x32xf16, #def>
    %buf = tkgpu.local_alloc %ph : tensor<128x32xf16, #def> -> !tkgpu.memdesc<128x32xf16, #sh>
    return %buf : !tkgpu.memdesc<128x32xf16, #sh>
  }
}

// -----

// The same on Hopper: the dot is a warp_group_dot with an #mma v3 result;
// the running row max is carried in its row slice, with no conversion in
// the body.
// CHECK-DAG: #[[MMA3:.*]] = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
// CHECK-DAG: #[[ROW3:.*]] = #tkgpu.slice<{dim = 1, parent = #[[MMA3]]}>
// CHECK-LABEL: func.func @wgmma_row_max
// CHECK: scf.for {{.*}} -> (tensor<64xf32, #[[ROW3]]>)
// CHECK-NOT: convert_layout
// CHECK: tk.reduce max {{.*}} -> tensor<64xf32, #[[ROW3]]>
// CHECK-NOT: convert_layout
// CHECK: scf.yield {{.*}} : tensor<64xf32, #[[ROW3]]>
#mma = #tkgpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#row = #tkgpu.slice<{dim = 1, parent = #mma}>
#b1 = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#sa = #tkgpu.nvmma_shared<{swizzle = 128, elementBitWidth = 16, order = [1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
  func.func @wgmma_row_max(%a: !tkgpu.memdesc<64x64xf16, #sa>, %b: !tkgpu.memdesc<64x64xf16, #sa>, %out: tensor<64x!tk.ptr<f32>, #b1>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %minf = arith.constant dense<0xFF800000> : tensor<64xf32, #b1>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%m = %minf) -> (tensor<64xf32, #b1>) : i32 {
      %s = tkgpu.warp_group_dot %a, %b, %z : !tkgpu.memdesc<64x64xf16, #sa> * !tkgpu.memdesc<64x64xf16, #sa> -> tensor<64x64xf32, #mma>
      %rmax = tk.reduce max %s {axis = 1 : i32} : tensor<64x64xf32, #mma> -> tensor<64xf32, #row>
      %rb = tkgpu.convert_layout %rmax : tensor<64xf32, #row> -> tensor<64xf32, #b1>
      %mn = arith.maximumf %m, %rb : tensor<64xf32, #b1>
      scf.yield %mn : tensor<64xf32, #b1>
    }
    tk.store %out, %r : tensor<64x!tk.ptr<f32>, #b1>, tensor<64xf32, #b1>
    return
  }
}

// -----

#ld = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#mma = #tkgpu.mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#sl = #tkgpu.slice<{dim = 0, parent = #mma}>

// A small load (no more elements than the program has threads: here 32 of
// 4 warps * 32 = 128) is rematerializable like a cheap producer: the row
// vector converted from its load's layout to a slice of #mma is loaded in
// the slice instead, its pointers (make_range, splat, addptr) rebuilt
// there; no conversion through scratch memory is left. Attention's
// backward loads M and delta of each query block this way.
// CHECK-DAG: #[[MMA:.*]] = #tkgpu.mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
// CHECK-DAG: #[[SL:.*]] = #tkgpu.slice<{dim = 0, parent = #[[MMA]]}>
// CHECK-LABEL: func.func @small_load
// CHECK-SAME: (%[[BASE:[^:]*]]: !tk.ptr<f32>, %[[S:[^:]*]]: tensor<32xf32, #[[SL]]>)
// CHECK-NOT: convert_layout
// CHECK: %[[R:.*]] = tk.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #[[SL]]>
// CHECK-NEXT: %[[BS:.*]] = tk.splat %[[BASE]] : !tk.ptr<f32> -> tensor<32x!tk.ptr<f32>, #[[SL]]>
// CHECK-NEXT: %[[P:.*]] = tk.addptr %[[BS]], %[[R]] : tensor<32x!tk.ptr<f32>, #[[SL]]>, tensor<32xi32, #[[SL]]>
// CHECK-NEXT: %[[M:.*]] = tk.load %[[P]] : tensor<32x!tk.ptr<f32>, #[[SL]]> -> tensor<32xf32, #[[SL]]>
// CHECK-NEXT: %[[D:.*]] = arith.subf %[[S]], %[[M]] : tensor<32xf32, #[[SL]]>
// CHECK-NEXT: return %[[D]] : tensor<32xf32, #[[SL]]>
// CHECK-NOT: tk.load
// CHECK-NOT: convert_layout
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @small_load(%base: !tk.ptr<f32>, %s: tensor<32xf32, #sl>) -> tensor<32xf32, #sl> {
    %r = tk.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ld>
    %bs = tk.splat %base : !tk.ptr<f32> -> tensor<32x!tk.ptr<f32>, #ld>
    %p = tk.addptr %bs, %r : tensor<32x!tk.ptr<f32>, #ld>, tensor<32xi32, #ld>
    %m = tk.load %p : tensor<32x!tk.ptr<f32>, #ld> -> tensor<32xf32, #ld>
    %mc = tkgpu.convert_layout %m : tensor<32xf32, #ld> -> tensor<32xf32, #sl>
    %d = arith.subf %s, %mc : tensor<32xf32, #sl>
    return %d : tensor<32xf32, #sl>
  }
}

// -----

#ld = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#sl = #tkgpu.slice<{dim = 0, parent = #b2}>
#ld2 = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>

// The threshold, with 4 warps (128 threads): a load of 128 elements is
// still loaded again in the slice of #b2; one of 256, and a 64 x 64 tile,
// keep their conversion (reloading them would cost more requests than
// one conversion).
// CHECK-DAG: #[[LD:.*]] = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[B2:.*]] = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[SL:.*]] = #tkgpu.slice<{dim = 0, parent = #[[B2]]}>
// CHECK-DAG: #[[LD2:.*]] = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @load_of_128
// CHECK-NOT: convert_layout
// CHECK: %[[P:.*]] = tk.addptr %{{.*}} : tensor<128x!tk.ptr<f32>, #[[SL]]>, tensor<128xi32, #[[SL]]>
// CHECK-NEXT: %[[M:.*]] = tk.load %[[P]] : tensor<128x!tk.ptr<f32>, #[[SL]]> -> tensor<128xf32, #[[SL]]>
// CHECK-NEXT: arith.subf %{{.*}}, %[[M]] : tensor<128xf32, #[[SL]]>
// CHECK-NOT: convert_layout
// CHECK-LABEL: func.func @load_of_256
// CHECK: %[[P:.*]] = tk.addptr %{{.*}} : tensor<256x!tk.ptr<f32>, #[[LD]]>, tensor<256xi32, #[[LD]]>
// CHECK-NEXT: %[[M:.*]] = tk.load %[[P]] : tensor<256x!tk.ptr<f32>, #[[LD]]> -> tensor<256xf32, #[[LD]]>
// CHECK-NEXT: %[[MC:.*]] = tkgpu.convert_layout %[[M]] : tensor<256xf32, #[[LD]]> -> tensor<256xf32, #[[SL]]>
// CHECK-NEXT: arith.subf %{{.*}}, %[[MC]] : tensor<256xf32, #[[SL]]>
// CHECK-LABEL: func.func @load_of_tile
// CHECK: %[[X:.*]] = tk.load %{{.*}} : tensor<64x64x!tk.ptr<f16>, #[[LD2]]> -> tensor<64x64xf16, #[[LD2]]>
// CHECK-NEXT: %[[XC:.*]] = tkgpu.convert_layout %[[X]] : tensor<64x64xf16, #[[LD2]]> -> tensor<64x64xf16, #[[B2]]>
// CHECK-NEXT: arith.addf %{{.*}}, %[[XC]] : tensor<64x64xf16, #[[B2]]>
// A 2-D tile of 1 x 64 (64 elements, under the 128 threads) is not a
// vector: only rank-1 loads are loaded again in their user's layout.
// CHECK-LABEL: func.func @small_tile
// CHECK: %[[T:.*]] = tk.load %{{.*}} : tensor<1x64x!tk.ptr<f16>, #[[LD2]]> -> tensor<1x64xf16, #[[LD2]]>
// CHECK-NEXT: %[[TC:.*]] = tkgpu.convert_layout %[[T]] : tensor<1x64xf16, #[[LD2]]> -> tensor<1x64xf16, #[[B2]]>
// CHECK-NEXT: arith.addf %{{.*}}, %[[TC]] : tensor<1x64xf16, #[[B2]]>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @load_of_128(%base: !tk.ptr<f32>, %s: tensor<128xf32, #sl>) -> tensor<128xf32, #sl> {
    %r = tk.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ld>
    %bs = tk.splat %base : !tk.ptr<f32> -> tensor<128x!tk.ptr<f32>, #ld>
    %p = tk.addptr %bs, %r : tensor<128x!tk.ptr<f32>, #ld>, tensor<128xi32, #ld>
    %m = tk.load %p : tensor<128x!tk.ptr<f32>, #ld> -> tensor<128xf32, #ld>
    %mc = tkgpu.convert_layout %m : tensor<128xf32, #ld> -> tensor<128xf32, #sl>
    %d = arith.subf %s, %mc : tensor<128xf32, #sl>
    return %d : tensor<128xf32, #sl>
  }
  func.func @load_of_256(%base: !tk.ptr<f32>, %s: tensor<256xf32, #sl>) -> tensor<256xf32, #sl> {
    %r = tk.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #ld>
    %bs = tk.splat %base : !tk.ptr<f32> -> tensor<256x!tk.ptr<f32>, #ld>
    %p = tk.addptr %bs, %r : tensor<256x!tk.ptr<f32>, #ld>, tensor<256xi32, #ld>
    %m = tk.load %p : tensor<256x!tk.ptr<f32>, #ld> -> tensor<256xf32, #ld>
    %mc = tkgpu.convert_layout %m : tensor<256xf32, #ld> -> tensor<256xf32, #sl>
    %d = arith.subf %s, %mc : tensor<256xf32, #sl>
    return %d : tensor<256xf32, #sl>
  }
  func.func @load_of_tile(%base: !tk.ptr<f16>, %s: tensor<64x64xf16, #b2>) -> tensor<64x64xf16, #b2> {
    %r = tk.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 0, parent = #ld2}>>
    %re = tk.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 0, parent = #ld2}>> -> tensor<1x64xi32, #ld2>
    %rb = tk.broadcast %re : tensor<1x64xi32, #ld2> -> tensor<64x64xi32, #ld2>
    %bs = tk.splat %base : !tk.ptr<f16> -> tensor<64x64x!tk.ptr<f16>, #ld2>
    %p = tk.addptr %bs, %rb : tensor<64x64x!tk.ptr<f16>, #ld2>, tensor<64x64xi32, #ld2>
    %x = tk.load %p : tensor<64x64x!tk.ptr<f16>, #ld2> -> tensor<64x64xf16, #ld2>
    %xc = tkgpu.convert_layout %x : tensor<64x64xf16, #ld2> -> tensor<64x64xf16, #b2>
    %y = arith.addf %s, %xc : tensor<64x64xf16, #b2>
    return %y : tensor<64x64xf16, #b2>
  }
  func.func @small_tile(%base: !tk.ptr<f16>, %s: tensor<1x64xf16, #b2>) -> tensor<1x64xf16, #b2> {
    %r = tk.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 0, parent = #ld2}>>
    %re = tk.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #tkgpu.slice<{dim = 0, parent = #ld2}>> -> tensor<1x64xi32, #ld2>
    %bs = tk.splat %base : !tk.ptr<f16> -> tensor<1x64x!tk.ptr<f16>, #ld2>
    %p = tk.addptr %bs, %re : tensor<1x64x!tk.ptr<f16>, #ld2>, tensor<1x64xi32, #ld2>
    %x = tk.load %p : tensor<1x64x!tk.ptr<f16>, #ld2> -> tensor<1x64xf16, #ld2>
    %xc = tkgpu.convert_layout %x : tensor<1x64xf16, #ld2> -> tensor<1x64xf16, #b2>
    %y = arith.addf %s, %xc : tensor<1x64xf16, #b2>
    return %y : tensor<1x64xf16, #b2>
  }
}

// -----

#ld = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
#b2 = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
#sl = #tkgpu.slice<{dim = 0, parent = #b2}>

// The number of threads comes from the module's tkgpu.num_warps: with 8
// warps (256 threads) the load of 256 elements is loaded again in the
// slice.
// CHECK-DAG: #[[B2:.*]] = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
// CHECK-DAG: #[[SL:.*]] = #tkgpu.slice<{dim = 0, parent = #[[B2]]}>
// CHECK-LABEL: func.func @load_of_256_8_warps
// CHECK-NOT: convert_layout
// CHECK: %[[P:.*]] = tk.addptr %{{.*}} : tensor<256x!tk.ptr<f32>, #[[SL]]>, tensor<256xi32, #[[SL]]>
// CHECK-NEXT: %[[M:.*]] = tk.load %[[P]] : tensor<256x!tk.ptr<f32>, #[[SL]]> -> tensor<256xf32, #[[SL]]>
// CHECK-NEXT: arith.subf %{{.*}}, %[[M]] : tensor<256xf32, #[[SL]]>
// CHECK-NOT: convert_layout
module attributes {tkgpu.num_warps = 8 : i32, tkgpu.threads_per_warp = 32 : i32} {
  func.func @load_of_256_8_warps(%base: !tk.ptr<f32>, %s: tensor<256xf32, #sl>) -> tensor<256xf32, #sl> {
    %r = tk.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #ld>
    %bs = tk.splat %base : !tk.ptr<f32> -> tensor<256x!tk.ptr<f32>, #ld>
    %p = tk.addptr %bs, %r : tensor<256x!tk.ptr<f32>, #ld>, tensor<256xi32, #ld>
    %m = tk.load %p : tensor<256x!tk.ptr<f32>, #ld> -> tensor<256xf32, #ld>
    %mc = tkgpu.convert_layout %m : tensor<256xf32, #ld> -> tensor<256xf32, #sl>
    %d = arith.subf %s, %mc : tensor<256xf32, #sl>
    return %d : tensor<256xf32, #sl>
  }
}

// -----

// An online softmax that rescales only when a block-wide test holds
// (attention_fwd.tk's online_softmax_lazy): acc and l_i are updated inside
// an scf.if. The if returns them in the dot's layout and its row slice
// (the slice found nearest, not the column slice of the key vector that
// the rescale also reads, further back), so the loop carries them there;
// what is left to convert is that key vector, once, where it is used.
// CHECK-DAG: #[[MMA:.*]] = #tkgpu.mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
// CHECK-DAG: #[[ROW:.*]] = #tkgpu.slice<{dim = 1, parent = #[[MMA]]}>
// CHECK-DAG: #[[COL:.*]] = #tkgpu.slice<{dim = 0, parent = #[[MMA]]}>
// CHECK-LABEL: func.func @rescale_under_if
// CHECK: scf.for {{.*}} -> (tensor<64xf32, #[[ROW]]>, tensor<64x64xf32, #[[MMA]]>)
// CHECK-NOT: convert_layout
// CHECK: scf.if {{.*}} -> (tensor<64xf32, #[[ROW]]>, tensor<64x64xf32, #[[MMA]]>)
// CHECK: tkgpu.convert_layout {{.*}} : tensor<64xf32, #[[COL]]> -> tensor<64xf32, #[[ROW]]>
// CHECK-NOT: convert_layout
// CHECK: arith.mulf {{.*}} : tensor<64x64xf32, #[[MMA]]>
// CHECK-NOT: convert_layout
// CHECK: scf.yield {{.*}} : tensor<64xf32, #[[ROW]]>, tensor<64x64xf32, #[[MMA]]>
// CHECK-NOT: convert_layout
// CHECK: tk.dot {{.*}} -> tensor<64x64xf32, #[[MMA]]>
// CHECK-NOT: convert_layout
// CHECK: scf.yield {{.*}} : tensor<64xf32, #[[ROW]]>, tensor<64x64xf32, #[[MMA]]>
// CHECK-NEXT: }
#mma = #tkgpu.mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#dA = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#dB = #tkgpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
#row = #tkgpu.slice<{dim = 1, parent = #mma}>
#col = #tkgpu.slice<{dim = 0, parent = #mma}>
#b1 = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#s2 = #tkgpu.slice<{dim = 1, parent = #b2}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
  func.func @rescale_under_if(%q: tensor<64x16xf16, #dA>, %k: tensor<16x64xf16, #dB>, %p16: tensor<64x16xf16, #dA>, %v: tensor<16x64xf16, #dB>, %po: tensor<64x64x!tk.ptr<f32>, #b2>, %n: i32, %keys: tensor<64xf32, #col>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c8 = arith.constant 8.0 : f32
    %zmma = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %zrow = arith.constant dense<0.0> : tensor<64xf32, #b1>
    %zacc = arith.constant dense<0.0> : tensor<64x64xf32, #b2>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%l = %zrow, %acc = %zacc) -> (tensor<64xf32, #b1>, tensor<64x64xf32, #b2>) : i32 {
      %qk = tk.dot %q, %k, %zmma : tensor<64x16xf16, #dA> * tensor<16x64xf16, #dB> -> tensor<64x64xf32, #mma>
      %rmax = tk.reduce max %qk {axis = 1 : i32} : tensor<64x64xf32, #mma> -> tensor<64xf32, #row>
      %big = tk.reduce max %rmax {axis = 0 : i32} : tensor<64xf32, #row> -> f32
      %cond = arith.cmpf ogt, %big, %c8 : f32
      %colb = tkgpu.convert_layout %keys : tensor<64xf32, #col> -> tensor<64xf32, #b1>
      %rmaxb = tkgpu.convert_layout %rmax : tensor<64xf32, #row> -> tensor<64xf32, #b1>
      %res:2 = scf.if %cond -> (tensor<64xf32, #b1>, tensor<64x64xf32, #b2>) {
        %decoy = arith.mulf %colb, %colb : tensor<64xf32, #b1>
        %shift = arith.subf %rmaxb, %decoy : tensor<64xf32, #b1>
        %alpha = math.exp2 %shift : tensor<64xf32, #b1>
        %ls = arith.mulf %l, %alpha : tensor<64xf32, #b1>
        %as = tkgpu.convert_layout %alpha : tensor<64xf32, #b1> -> tensor<64xf32, #s2>
        %ax = tk.expand_dims %as {axis = 1 : i32} : tensor<64xf32, #s2> -> tensor<64x1xf32, #b2>
        %ab = tk.broadcast %ax : tensor<64x1xf32, #b2> -> tensor<64x64xf32, #b2>
        %acc2 = arith.mulf %acc, %ab : tensor<64x64xf32, #b2>
        scf.yield %ls, %acc2 : tensor<64xf32, #b1>, tensor<64x64xf32, #b2>
      } else {
        scf.yield %l, %acc : tensor<64xf32, #b1>, tensor<64x64xf32, #b2>
      }
      %rsumb = tkgpu.convert_layout %rmax : tensor<64xf32, #row> -> tensor<64xf32, #b1>
      %l2 = arith.addf %res#0, %rsumb : tensor<64xf32, #b1>
      %accm = tkgpu.convert_layout %res#1 : tensor<64x64xf32, #b2> -> tensor<64x64xf32, #mma>
      %d = tk.dot %p16, %v, %accm : tensor<64x16xf16, #dA> * tensor<16x64xf16, #dB> -> tensor<64x64xf32, #mma>
      %db = tkgpu.convert_layout %d : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #b2>
      scf.yield %l2, %db : tensor<64xf32, #b1>, tensor<64x64xf32, #b2>
    }
    %ls = tkgpu.convert_layout %r#0 : tensor<64xf32, #b1> -> tensor<64xf32, #s2>
    %lx = tk.expand_dims %ls {axis = 1 : i32} : tensor<64xf32, #s2> -> tensor<64x1xf32, #b2>
    %lb = tk.broadcast %lx : tensor<64x1xf32, #b2> -> tensor<64x64xf32, #b2>
    %o = arith.divf %r#1, %lb : tensor<64x64xf32, #b2>
    tk.store %po, %o : tensor<64x64x!tk.ptr<f32>, #b2>, tensor<64x64xf32, #b2>
    return
  }
}

// -----

// The same if, but the other branch yields a tile that comes from outside
// the loop in a blocked layout: returning the result in #mma would only
// move the conversion into that branch, so the if is left as it is.
// CHECK-DAG: #[[B2:.*]] = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @if_left_alone
// CHECK: scf.if {{.*}} -> (tensor<64x64xf32, #[[B2]]>)
// CHECK: } else {
// CHECK-NEXT: scf.yield %{{.*}} : tensor<64x64xf32, #[[B2]]>
#mma = #tkgpu.mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#dA = #tkgpu.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#dB = #tkgpu.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
#b2 = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_80"} {
  func.func @if_left_alone(%q: tensor<64x16xf16, #dA>, %k: tensor<16x64xf16, #dB>, %po: tensor<64x64x!tk.ptr<f32>, #b2>, %other: tensor<64x64xf32, #b2>, %n: i32, %c: i1) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zmma = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %qk = tk.dot %q, %k, %zmma : tensor<64x16xf16, #dA> * tensor<16x64xf16, #dB> -> tensor<64x64xf32, #mma>
      %r = scf.if %c -> (tensor<64x64xf32, #b2>) {
        %e = math.exp2 %qk : tensor<64x64xf32, #mma>
        %eb = tkgpu.convert_layout %e : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #b2>
        scf.yield %eb : tensor<64x64xf32, #b2>
      } else {
        scf.yield %other : tensor<64x64xf32, #b2>
      }
      tk.store %po, %r : tensor<64x64x!tk.ptr<f32>, #b2>, tensor<64x64xf32, #b2>
    }
    return
  }
}
