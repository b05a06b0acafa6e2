// RUN: tk-translate --tk-metadata --tk-arch=sm_80 %s | FileCheck %s
// The metadata JSON beside each cubin (docs/runtime.md): what the frontend
// recorded on the kernel, the module's launch configuration, and the
// dynamic shared memory the lowering needs.

// CHECK:      {
// CHECK-NEXT:   "tk_metadata_version": 1,
// CHECK-NEXT:   "name": "softmax",
// CHECK-NEXT:   "arch": "sm_80",
// CHECK-NEXT:   "num_warps": 8,
// CHECK-NEXT:   "num_stages": 2,
// CHECK-NEXT:   "shared_bytes": 32,
// CHECK-NEXT:   "binary": "softmax.cubin",
// CHECK-NEXT:   "binary_kind": "cubin",
// CHECK-NEXT:   "source": "examples/softmax.tk",
// CHECK-NEXT:   "args": [
// CHECK-NEXT:     {"name":"out_ptr","type":"*f32","spec":"div16"},
// CHECK-NEXT:     {"name":"in_ptr","type":"*f32","spec":"div16"},
// CHECK-NEXT:     {"name":"n_cols","type":"i32","spec":"none"}
// CHECK-NEXT:   ],
// CHECK-NEXT:   "constexprs": {
// CHECK-NEXT:     "BLOCK": 1024,
// CHECK-NEXT:     "EPS": 1e-05,
// CHECK-NEXT:     "SCALE": 2.0,
// CHECK-NEXT:     "USE_MASK": true
// CHECK-NEXT:   },
// CHECK-NEXT:   "grid_rank": 2
// CHECK-NEXT: }
module attributes {tk.num_warps = 8 : i32, tk.num_stages = 2 : i32, tk.source = "examples/softmax.tk", tkgpu.shared_bytes = 32 : i32} {
  llvm.func @softmax(%out: !llvm.ptr<1>, %in: !llvm.ptr<1>, %n: i32)
      attributes {nvvm.kernel, tk.kernel, tk.grid_rank = 2 : i32,
                  tk.arg_names = ["out_ptr", "in_ptr", "n_cols"],
                  tk.arg_types = ["*f32", "*f32", "i32"],
                  tk.arg_specs = ["div16", "div16", "none"],
                  tk.constexprs = {BLOCK = 1024 : i64, EPS = 1.0e-5 : f64, SCALE = 2.0 : f32, USE_MASK = true}} {
    llvm.return
  }
}
