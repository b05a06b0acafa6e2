// The seed matmul (examples/matmul.tk) in tk IR: C = A @ B, f32, blocks of
// 64x64 with K steps of 32, the K loop an scf.for with a run-time bound.
func.func @matmul(%a: !tk.ptr<f32>, %b: !tk.ptr<f32>, %c: !tk.ptr<f32>,
                  %M: i32, %N: i32, %K: i32,
                  %sam: i32, %sak: i32, %sbk: i32, %sbn: i32, %scm: i32, %scn: i32)
    attributes {tk.kernel,
                tk.arg_names = ["a_ptr", "b_ptr", "c_ptr", "M", "N", "K",
                                "stride_am", "stride_ak", "stride_bk", "stride_bn",
                                "stride_cm", "stride_cn"]} {
  %pid = tk.program_id 0 : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %c64 = arith.constant 64 : i32
  %num_pid_n = arith.ceildivsi %N, %c64 : i32
  %pid_m = arith.divsi %pid, %num_pid_n : i32
  %pid_n = arith.remsi %pid, %num_pid_n : i32
  %r64 = tk.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %r32 = tk.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>

  %m_base = arith.muli %pid_m, %c64 : i32
  %m_bases = tk.splat %m_base : i32 -> tensor<64xi32>
  %offs_cm = arith.addi %m_bases, %r64 : tensor<64xi32>
  %Ms = tk.splat %M : i32 -> tensor<64xi32>
  %offs_am = arith.remsi %offs_cm, %Ms : tensor<64xi32>
  %n_base = arith.muli %pid_n, %c64 : i32
  %n_bases = tk.splat %n_base : i32 -> tensor<64xi32>
  %offs_cn = arith.addi %n_bases, %r64 : tensor<64xi32>
  %Ns = tk.splat %N : i32 -> tensor<64xi32>
  %offs_bn = arith.remsi %offs_cn, %Ns : tensor<64xi32>

  // a_ptrs = a + offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak
  %am_col = tk.expand_dims %offs_am {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %sams = tk.splat %sam : i32 -> tensor<64x1xi32>
  %am_scaled = arith.muli %am_col, %sams : tensor<64x1xi32>
  %am_full = tk.broadcast %am_scaled : tensor<64x1xi32> -> tensor<64x32xi32>
  %k_row = tk.expand_dims %r32 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %saks = tk.splat %sak : i32 -> tensor<1x32xi32>
  %k_row_scaled = arith.muli %k_row, %saks : tensor<1x32xi32>
  %k_row_full = tk.broadcast %k_row_scaled : tensor<1x32xi32> -> tensor<64x32xi32>
  %a_offsets = arith.addi %am_full, %k_row_full : tensor<64x32xi32>
  %a_base = tk.splat %a : !tk.ptr<f32> -> tensor<64x32x!tk.ptr<f32>>
  %a_ptrs = tk.addptr %a_base, %a_offsets : tensor<64x32x!tk.ptr<f32>>, tensor<64x32xi32>

  // b_ptrs = b + offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn
  %k_col = tk.expand_dims %r32 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %sbks = tk.splat %sbk : i32 -> tensor<32x1xi32>
  %k_col_scaled = arith.muli %k_col, %sbks : tensor<32x1xi32>
  %k_col_full = tk.broadcast %k_col_scaled : tensor<32x1xi32> -> tensor<32x64xi32>
  %bn_row = tk.expand_dims %offs_bn {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %sbns = tk.splat %sbn : i32 -> tensor<1x64xi32>
  %bn_scaled = arith.muli %bn_row, %sbns : tensor<1x64xi32>
  %bn_full = tk.broadcast %bn_scaled : tensor<1x64xi32> -> tensor<32x64xi32>
  %b_offsets = arith.addi %k_col_full, %bn_full : tensor<32x64xi32>
  %b_base = tk.splat %b : !tk.ptr<f32> -> tensor<32x64x!tk.ptr<f32>>
  %b_ptrs = tk.addptr %b_base, %b_offsets : tensor<32x64x!tk.ptr<f32>>, tensor<32x64xi32>

  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32>
  %zero_a = arith.constant dense<0.0> : tensor<64x32xf32>
  %zero_b = arith.constant dense<0.0> : tensor<32x64xf32>
  %k_tiles = arith.ceildivsi %K, %c32 : i32
  %a_step = arith.muli %sak, %c32 : i32
  %a_steps = tk.splat %a_step : i32 -> tensor<64x32xi32>
  %b_step = arith.muli %sbk, %c32 : i32
  %b_steps = tk.splat %b_step : i32 -> tensor<32x64xi32>
  %res:3 = scf.for %k = %c0 to %k_tiles step %c1
      iter_args(%acc = %acc0, %ap = %a_ptrs, %bp = %b_ptrs)
      -> (tensor<64x64xf32>, tensor<64x32x!tk.ptr<f32>>, tensor<32x64x!tk.ptr<f32>>) : i32 {
    %k_done = arith.muli %k, %c32 : i32
    %k_left = arith.subi %K, %k_done : i32
    %k_lefts_a = tk.splat %k_left : i32 -> tensor<1x32xi32>
    %a_mask_row = arith.cmpi slt, %k_row, %k_lefts_a : tensor<1x32xi32>
    %a_mask = tk.broadcast %a_mask_row : tensor<1x32xi1> -> tensor<64x32xi1>
    %av = tk.load %ap, mask %a_mask, other %zero_a : tensor<64x32x!tk.ptr<f32>> -> tensor<64x32xf32>, tensor<64x32xi1>
    %k_lefts_b = tk.splat %k_left : i32 -> tensor<32x1xi32>
    %b_mask_col = arith.cmpi slt, %k_col, %k_lefts_b : tensor<32x1xi32>
    %b_mask = tk.broadcast %b_mask_col : tensor<32x1xi1> -> tensor<32x64xi1>
    %bv = tk.load %bp, mask %b_mask, other %zero_b : tensor<32x64x!tk.ptr<f32>> -> tensor<32x64xf32>, tensor<32x64xi1>
    %acc_next = tk.dot %av, %bv, %acc : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
    %ap_next = tk.addptr %ap, %a_steps : tensor<64x32x!tk.ptr<f32>>, tensor<64x32xi32>
    %bp_next = tk.addptr %bp, %b_steps : tensor<32x64x!tk.ptr<f32>>, tensor<32x64xi32>
    scf.yield %acc_next, %ap_next, %bp_next : tensor<64x64xf32>, tensor<64x32x!tk.ptr<f32>>, tensor<32x64x!tk.ptr<f32>>
  }

  // c_ptrs = c + offs_cm[:, None] * stride_cm + offs_cn[None, :] * stride_cn
  %cm_col = tk.expand_dims %offs_cm {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %scms = tk.splat %scm : i32 -> tensor<64x1xi32>
  %cm_scaled = arith.muli %cm_col, %scms : tensor<64x1xi32>
  %cm_full = tk.broadcast %cm_scaled : tensor<64x1xi32> -> tensor<64x64xi32>
  %cn_row = tk.expand_dims %offs_cn {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %scns = tk.splat %scn : i32 -> tensor<1x64xi32>
  %cn_scaled = arith.muli %cn_row, %scns : tensor<1x64xi32>
  %cn_full = tk.broadcast %cn_scaled : tensor<1x64xi32> -> tensor<64x64xi32>
  %c_offsets = arith.addi %cm_full, %cn_full : tensor<64x64xi32>
  %c_base = tk.splat %c : !tk.ptr<f32> -> tensor<64x64x!tk.ptr<f32>>
  %c_ptrs = tk.addptr %c_base, %c_offsets : tensor<64x64x!tk.ptr<f32>>, tensor<64x64xi32>
  %Mcol = tk.splat %M : i32 -> tensor<64x1xi32>
  %m_ok = arith.cmpi slt, %cm_col, %Mcol : tensor<64x1xi32>
  %m_ok_full = tk.broadcast %m_ok : tensor<64x1xi1> -> tensor<64x64xi1>
  %Nrow = tk.splat %N : i32 -> tensor<1x64xi32>
  %n_ok = arith.cmpi slt, %cn_row, %Nrow : tensor<1x64xi32>
  %n_ok_full = tk.broadcast %n_ok : tensor<1x64xi1> -> tensor<64x64xi1>
  %c_mask = arith.andi %m_ok_full, %n_ok_full : tensor<64x64xi1>
  tk.store %c_ptrs, %res#0, mask %c_mask : tensor<64x64x!tk.ptr<f32>>, tensor<64x64xf32>, tensor<64x64xi1>
  return
}
