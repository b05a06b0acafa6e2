// RUN: tk-opt %s -convert-tkgpu-to-llvm -canonicalize -cse -reconcile-unrealized-casts | FileCheck %s
// The math that neither a PTX instruction nor our approximations cover
// becomes a call of libdevice (declared once per function name); f32 exp
// keeps its fast path, f64 exp goes to __nv_exp, f16 computes in f32.

// CHECK-DAG: llvm.func @__nv_powf(f32, f32) -> f32
// CHECK-DAG: llvm.func @__nv_exp(f64) -> f64
// CHECK-DAG: llvm.func @__nv_atan2(f64, f64) -> f64
// CHECK-DAG: llvm.func @__nv_tanf(f32) -> f32
// CHECK-NOT: llvm.func @__nv_expf
// CHECK-LABEL: llvm.func @libdevice(
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// CHECK: llvm.call @__nv_powf(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK: llvm.call @__nv_powf(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK: llvm.call @__nv_exp(%{{.*}}) : (f64) -> f64
// CHECK: llvm.call @__nv_atan2(%{{.*}}, %{{.*}}) : (f64, f64) -> f64
// CHECK: llvm.fpext %{{.*}} : f16 to f32
// CHECK: llvm.call @__nv_tanf(%{{.*}}) : (f32) -> f32
// CHECK: llvm.fptrunc %{{.*}} : f32 to f16
module attributes {tkgpu.num_warps = 4 : i32, tkgpu.threads_per_warp = 32 : i32, tkgpu.target = "sm_90a"} {
func.func @libdevice(%x: f32, %d: f64, %h: f16, %o: !tk.ptr<f32>, %od: !tk.ptr<f64>, %oh: !tk.ptr<f16>) attributes {tk.kernel} {
  %e = math.exp %x : f32
  %p = math.powf %e, %x : f32
  %p2 = math.powf %p, %e : f32
  %ed = math.exp %d : f64
  %ad = math.atan2 %ed, %d : f64
  %th = math.tan %h : f16
  tk.store %o, %p2 : !tk.ptr<f32>, f32
  tk.store %od, %ad : !tk.ptr<f64>, f64
  tk.store %oh, %th : !tk.ptr<f16>, f16
  return
}
}
