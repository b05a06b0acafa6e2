// Correctness of the tkgpu -> LLVM -> PTX -> cubin back end on the GPU:
// every op family (loads/stores and their vector widths, reductions, scans,
// layout conversions, shape ops, atomics, the slow dot, fast math, print)
// through the seed kernels and small kernels in kernels/, against CPU
// references. Raw CUDA driver API, so it depends on nothing of tk; the
// kernels come from test/gpu/backend/build.sh. Exit status 1 on a failure.
#include <cuda.h>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>
#include <algorithm>
#include <chrono>

#define CK(x) do { CUresult r = (x); if (r != CUDA_SUCCESS) { const char *s; cuGetErrorString(r, &s); fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, s); exit(1);} } while (0)

static std::string dir = ".";
static int failures = 0;

/// num_warps and shared_bytes from NAME.json (the metadata tkc writes).
static void readLaunchConfig(const std::string &name, int &warps, int &smem) {
  std::ifstream f(dir + "/" + name + ".json");
  std::string json((std::istreambuf_iterator<char>(f)), {});
  auto field = [&](const char *key) {
    size_t at = json.find(std::string("\"") + key + "\":");
    if (at == std::string::npos) { fprintf(stderr, "%s.json: no %s\n", name.c_str(), key); exit(1); }
    return atoi(json.c_str() + at + strlen(key) + 3);
  };
  warps = field("num_warps");
  smem = field("shared_bytes");
}
struct Kernel {
  CUmodule mod; CUfunction fn; int warps = 4; int smem = 0;
};
static Kernel load(const std::string &name, const std::string &entry) {
  Kernel k;
  readLaunchConfig(name, k.warps, k.smem);
  std::ifstream f(dir + "/" + name + ".cubin", std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(f)), {});
  CK(cuModuleLoadData(&k.mod, bytes.data()));
  CK(cuModuleGetFunction(&k.fn, k.mod, entry.c_str()));
  if (k.smem > 48 * 1024)
    CK(cuFuncSetAttribute(k.fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, k.smem));
  return k;
}
struct Arg { std::vector<char> bytes; };
template <typename T> Arg A(T v) { Arg a; a.bytes.resize(sizeof(T)); memcpy(a.bytes.data(), &v, sizeof(T)); return a; }
static float launch(Kernel &k, unsigned gx, std::vector<Arg> args, unsigned gy = 1, int reps = 1) {
  std::vector<void *> ptrs;
  for (auto &a : args) ptrs.push_back(a.bytes.data());
  CUevent e0, e1; CK(cuEventCreate(&e0, 0)); CK(cuEventCreate(&e1, 0));
  CK(cuLaunchKernel(k.fn, gx, gy, 1, k.warps * 32, 1, 1, k.smem, 0, ptrs.data(), nullptr));
  CK(cuCtxSynchronize());
  CK(cuEventRecord(e0, 0));
  for (int i = 1; i < reps; ++i)
    CK(cuLaunchKernel(k.fn, gx, gy, 1, k.warps * 32, 1, 1, k.smem, 0, ptrs.data(), nullptr));
  CK(cuEventRecord(e1, 0));
  CK(cuCtxSynchronize());
  float ms = 0; CK(cuEventElapsedTime(&ms, e0, e1));
  return reps > 1 ? ms / (reps - 1) : 0;
}
template <typename T> struct Buf {
  std::vector<T> h; CUdeviceptr d = 0;
  explicit Buf(size_t n, T init = T()) : h(n, init) { CK(cuMemAlloc(&d, std::max<size_t>(n, 1) * sizeof(T))); up(); }
  void up() { CK(cuMemcpyHtoD(d, h.data(), h.size() * sizeof(T))); }
  void down() { CK(cuMemcpyDtoH(h.data(), d, h.size() * sizeof(T))); }
  ~Buf() { cuMemFree(d); }
  Arg arg() { return A(d); }
};
static std::mt19937 rng(42);
static float randn() { static std::normal_distribution<float> n(0, 1); return n(rng); }
static float randu(float a, float b) { return std::uniform_real_distribution<float>(a, b)(rng); }

static void check(const char *what, bool ok, const std::string &detail = "") {
  printf("%s %s %s\n", ok ? "PASS" : "FAIL", what, detail.c_str());
  if (!ok) ++failures;
}
template <typename T, typename R>
static void compare(const char *what, const std::vector<T> &got, const std::vector<R> &want, double rtol, double atol) {
  size_t bad = 0, first = (size_t)-1; double worst = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    double g = (double)got[i], w = (double)want[i];
    double err = std::fabs(g - w);
    bool ok = err <= atol + rtol * std::fabs(w) || (std::isnan(g) && std::isnan(w)) || (std::isinf(g) && g == w);
    if (!ok) { if (first == (size_t)-1) first = i; ++bad; }
    if (std::isfinite(err)) worst = std::max(worst, err);
  }
  std::ostringstream os;
  os << "n=" << want.size() << " maxerr=" << worst;
  if (bad) os << " bad=" << bad << " first=" << first << " got=" << (double)got[first] << " want=" << (double)want[first];
  check(what, bad == 0, os.str());
}
static uint16_t toBf16(float f) { uint32_t u; memcpy(&u, &f, 4); uint32_t r = u + 0x7fff + ((u >> 16) & 1); return r >> 16; }
static float fromBf16(uint16_t b) { uint32_t u = (uint32_t)b << 16; float f; memcpy(&f, &u, 4); return f; }
static uint16_t toHalf(float f) { // round to nearest even, normal range only
  uint32_t u; memcpy(&u, &f, 4); uint32_t s = (u >> 16) & 0x8000; int e = ((u >> 23) & 0xff) - 127 + 15; uint32_t m = u & 0x7fffff;
  if (e <= 0) return s; if (e >= 31) return s | 0x7c00;
  uint32_t r = (e << 10) | (m >> 13); uint32_t rem = m & 0x1fff; if (rem > 0x1000 || (rem == 0x1000 && (r & 1))) ++r; return s | r; }
static float fromHalf(uint16_t h) { uint32_t s = (h & 0x8000) << 16; int e = (h >> 10) & 0x1f; uint32_t m = h & 0x3ff; uint32_t u;
  if (e == 0) { float f = std::ldexp((float)m, -24); return s ? -f : f; } if (e == 31) u = s | 0x7f800000 | (m << 13); else u = s | ((e - 15 + 127) << 23) | (m << 13);
  float f; memcpy(&f, &u, 4); return f; }

static void testAdd(const char *name, int block, int n, bool bench) {
  Kernel k = load(name, "add");
  Buf<float> x(n), y(n), out(n, -1.f);
  for (int i = 0; i < n; ++i) { x.h[i] = randn(); y.h[i] = randn(); }
  x.up(); y.up();
  float ms = launch(k, (n + block - 1) / block, {x.arg(), y.arg(), out.arg(), A(n)}, 1, bench ? 20 : 1);
  out.down();
  std::vector<float> want(n); for (int i = 0; i < n; ++i) want[i] = x.h[i] + y.h[i];
  compare(name, out.h, want, 0, 0);
  if (bench) printf("  %s: %.3f ms, %.0f GB/s\n", name, ms, 3.0 * n * 4 / ms / 1e6);
}
static void testGelu(int n, bool bench) {
  Kernel k = load("gelu", "gelu");
  Buf<float> x(n), y(n);
  for (int i = 0; i < n; ++i) x.h[i] = randn() * 1.5f;
  x.up();
  float ms = launch(k, (n + 2047) / 2048, {x.arg(), y.arg(), A(n)}, 1, bench ? 20 : 1);
  y.down();
  std::vector<double> want(n);
  for (int i = 0; i < n; ++i) { double v = x.h[i]; want[i] = 0.5 * v * (1 + std::tanh(0.79788456 * (v + 0.044715 * v * v * v))); }
  compare("gelu", y.h, want, 1e-5, 1e-6);
  if (bench) printf("  gelu: %.3f ms, %.0f GB/s\n", ms, 2.0 * n * 4 / ms / 1e6);
}
static void testSoftmax(const char *name, int rows, int cols, bool bench) {
  Kernel k = load(name, "softmax");
  int stride = (cols + 15) / 16 * 16;
  Buf<float> in((size_t)rows * stride), out((size_t)rows * stride, -7.f);
  for (auto &v : in.h) v = randn() * 2;
  in.up();
  float ms = launch(k, rows, {out.arg(), in.arg(), A(stride), A(stride), A(cols)}, 1, bench ? 20 : 1);
  out.down();
  std::vector<double> want((size_t)rows * stride, -7.0);
  for (int r = 0; r < rows; ++r) {
    double m = -INFINITY, s = 0;
    for (int c = 0; c < cols; ++c) m = std::max(m, (double)in.h[(size_t)r * stride + c]);
    for (int c = 0; c < cols; ++c) s += std::exp(in.h[(size_t)r * stride + c] - m);
    for (int c = 0; c < cols; ++c) want[(size_t)r * stride + c] = std::exp(in.h[(size_t)r * stride + c] - m) / s;
  }
  std::string what = std::string(name) + " cols=" + std::to_string(cols);
  compare(what.c_str(), out.h, want, 1e-4, 1e-7);
  if (bench) printf("  %s: %.3f ms, %.0f GB/s\n", what.c_str(), ms, 2.0 * rows * cols * 4 / ms / 1e6);
}
static void testSoftmaxOnline(int rows, int cols) {
  Kernel k = load("smo", "softmax_online");
  int stride = (cols + 15) / 16 * 16;
  Buf<float> in((size_t)rows * stride), out((size_t)rows * stride, -7.f);
  for (auto &v : in.h) v = randn() * 2;
  in.up();
  launch(k, rows, {out.arg(), in.arg(), A(stride), A(stride), A(cols)});
  out.down();
  std::vector<double> want((size_t)rows * stride, -7.0);
  for (int r = 0; r < rows; ++r) {
    double m = -INFINITY, s = 0;
    for (int c = 0; c < cols; ++c) m = std::max(m, (double)in.h[(size_t)r * stride + c]);
    for (int c = 0; c < cols; ++c) s += std::exp(in.h[(size_t)r * stride + c] - m);
    for (int c = 0; c < cols; ++c) want[(size_t)r * stride + c] = std::exp(in.h[(size_t)r * stride + c] - m) / s;
  }
  compare("softmax_online", out.h, want, 1e-4, 1e-7);
}
static void testLayerNorm(int rows, int cols) {
  Kernel k = load("ln", "layernorm");
  int stride = 4096;
  Buf<float> x((size_t)rows * stride), w(cols), b(cols), y((size_t)rows * stride, -7.f);
  for (auto &v : x.h) v = randn() * 2 + 1;
  for (int i = 0; i < cols; ++i) { w.h[i] = randn(); b.h[i] = randn(); }
  x.up(); w.up(); b.up();
  float eps = 1e-5f;
  launch(k, rows, {x.arg(), w.arg(), b.arg(), y.arg(), A(stride), A(cols), A(eps)});
  y.down();
  std::vector<double> want((size_t)rows * stride, -7.0);
  for (int r = 0; r < rows; ++r) {
    double mean = 0, var = 0;
    for (int c = 0; c < cols; ++c) mean += x.h[(size_t)r * stride + c];
    mean /= cols;
    for (int c = 0; c < cols; ++c) { double d = x.h[(size_t)r * stride + c] - mean; var += d * d; }
    var /= cols;
    double rstd = 1 / std::sqrt(var + eps);
    for (int c = 0; c < cols; ++c) want[(size_t)r * stride + c] = (x.h[(size_t)r * stride + c] - mean) * rstd * w.h[c] + b.h[c];
  }
  std::string what = "layernorm cols=" + std::to_string(cols);
  compare(what.c_str(), y.h, want, 1e-4, 1e-4);
}
static void testRmsNorm(int rows, int cols, bool bench) {
  Kernel k = load("rms", "rmsnorm");
  int stride = 4096;
  Buf<uint16_t> x((size_t)rows * stride), w(cols), y((size_t)rows * stride, 0);
  for (auto &v : x.h) v = toBf16(randn());
  for (auto &v : w.h) v = toBf16(randn());
  x.up(); w.up();
  float eps = 1e-6f;
  float ms = launch(k, rows, {x.arg(), w.arg(), y.arg(), A(stride), A(cols), A(eps)}, 1, bench ? 20 : 1);
  y.down();
  std::vector<double> want((size_t)rows * stride, 0.0); std::vector<float> got(want.size());
  for (int r = 0; r < rows; ++r) {
    double ss = 0;
    for (int c = 0; c < cols; ++c) { double v = fromBf16(x.h[(size_t)r * stride + c]); ss += v * v; }
    double rstd = 1 / std::sqrt(ss / cols + eps);
    for (int c = 0; c < cols; ++c) want[(size_t)r * stride + c] = fromBf16(x.h[(size_t)r * stride + c]) * rstd * fromBf16(w.h[c]);
  }
  for (size_t i = 0; i < got.size(); ++i) got[i] = fromBf16(y.h[i]);
  std::string what = "rmsnorm cols=" + std::to_string(cols);
  compare(what.c_str(), got, want, 1.6e-2, 1e-3);
  if (bench) printf("  rmsnorm: %.3f ms, %.0f GB/s\n", ms, 2.0 * rows * cols * 2 / ms / 1e6);
}
static void testHistogram(int n) {
  Kernel k = load("hist", "histogram");
  Buf<float> x(n); Buf<int32_t> bins(256, 0);
  for (auto &v : x.h) v = randu(-0.1f, 1.1f);
  x.up();
  launch(k, (n + 1023) / 1024, {x.arg(), bins.arg(), A(n)});
  bins.down();
  std::vector<int> want(256, 0);
  for (float v : x.h) { int b = (int)(v * 256); b = std::min(std::max(b, 0), 255); want[b]++; }
  compare("histogram", bins.h, want, 0, 0);
}
static void testMatmul(int M, int N, int K) {
  Kernel k = load("mm", "matmul");
  Buf<uint16_t> a((size_t)M * K), b((size_t)K * N), c((size_t)M * N, 0);
  for (auto &v : a.h) v = toHalf(randn());
  for (auto &v : b.h) v = toHalf(randn());
  a.up(); b.up();
  int grid = ((M + 63) / 64) * ((N + 63) / 64);
  launch(k, grid, {a.arg(), b.arg(), c.arg(), A(M), A(N), A(K), A(K), A(1), A(N), A(1), A(N), A(1)});
  c.down();
  std::vector<double> want((size_t)M * N); std::vector<float> got(want.size());
  for (int i = 0; i < M; ++i) for (int j = 0; j < N; ++j) {
    double s = 0; for (int kk = 0; kk < K; ++kk) s += (double)fromHalf(a.h[(size_t)i * K + kk]) * fromHalf(b.h[(size_t)kk * N + j]);
    if (s < 0) s *= 0.01;
    want[(size_t)i * N + j] = s; }
  for (size_t i = 0; i < got.size(); ++i) got[i] = fromHalf(c.h[i]);
  compare("matmul (slow FMA dot)", got, want, 2e-3, 2e-2);
}
static void testRed2d(const char *name, int M, int N) {
  Kernel k = load(name, "red2d");
  Buf<float> x((size_t)M * N), rsum(M), cmax(N), tot(1); Buf<int32_t> rarg(M), carg(N);
  for (auto &v : x.h) v = std::round(randn() * 8) / 4; // many ties
  x.up();
  launch(k, 1, {x.arg(), rsum.arg(), cmax.arg(), rarg.arg(), carg.arg(), tot.arg()});
  rsum.down(); cmax.down(); rarg.down(); carg.down(); tot.down();
  std::vector<double> ws(M, 0), wm(N, -INFINITY); std::vector<int> wa(M, 0), wc(N, 0); double wt = 0;
  for (int i = 0; i < M; ++i) for (int j = 0; j < N; ++j) {
    float v = x.h[(size_t)i * N + j]; ws[i] += v; wt += v; wm[j] = std::max(wm[j], (double)v);
    if (v > x.h[(size_t)i * N + wa[i]]) wa[i] = j;
    if (v < x.h[(size_t)wc[j] * N + j]) wc[j] = i; }
  std::string p = name;
  compare((p + " sum axis=1").c_str(), rsum.h, ws, 1e-5, 1e-4);
  compare((p + " max axis=0").c_str(), cmax.h, wm, 0, 0);
  compare((p + " argmax axis=1").c_str(), rarg.h, wa, 0, 0);
  compare((p + " argmin axis=0").c_str(), carg.h, wc, 0, 0);
  compare((p + " sum all").c_str(), tot.h, std::vector<double>{wt}, 1e-5, 1e-3);
}
static void testScan() {
  {
    Kernel k = load("scan1d", "scan1d");
    int n = 1024;
    Buf<float> x(n), y(n), r(n); Buf<int32_t> xi(n), yi(n);
    for (int i = 0; i < n; ++i) { x.h[i] = std::round(randn() * 4); xi.h[i] = rng() % 100 - 50; }
    x.up(); xi.up();
    launch(k, 1, {x.arg(), y.arg(), r.arg(), xi.arg(), yi.arg()});
    y.down(); r.down(); yi.down();
    std::vector<double> wy(n), wr(n); std::vector<int> wi(n);
    double s = 0; int si = 0; for (int i = 0; i < n; ++i) { s += x.h[i]; wy[i] = s; si += xi.h[i]; wi[i] = si; }
    s = 0; for (int i = n - 1; i >= 0; --i) { s += x.h[i]; wr[i] = s; }
    compare("cumsum 1d f32", y.h, wy, 0, 0);
    compare("cumsum 1d reverse", r.h, wr, 0, 0);
    compare("cumsum 1d i32", yi.h, wi, 0, 0);
  }
  {
    Kernel k = load("scan2d", "scan2d");
    int M = 32, N = 64;
    Buf<float> x(M * N), a0(M * N), a1(M * N);
    for (auto &v : x.h) v = std::round(randn() * 4);
    x.up();
    launch(k, 1, {x.arg(), a0.arg(), a1.arg()});
    a0.down(); a1.down();
    std::vector<double> w0(M * N), w1(M * N);
    for (int j = 0; j < N; ++j) { double s = 0; for (int i = 0; i < M; ++i) { s += x.h[i * N + j]; w0[i * N + j] = s; } }
    for (int i = 0; i < M; ++i) { double s = 0; for (int j = 0; j < N; ++j) { s += x.h[i * N + j]; w1[i * N + j] = s; } }
    compare("cumsum 2d axis=0", a0.h, w0, 0, 0);
    compare("cumsum 2d axis=1", a1.h, w1, 0, 0);
  }
}
static void testShapes() {
  Kernel k = load("shapes", "shapes");
  int M = 64, N = 32;
  Buf<float> x(M * N), y(M + N), t(M * N), o(M * N);
  for (auto &v : x.h) v = randn();
  for (auto &v : y.h) v = randn();
  x.up(); y.up();
  launch(k, 1, {x.arg(), y.arg(), t.arg(), o.arg()});
  t.down(); o.down();
  std::vector<float> wt(M * N), wo(M * N);
  for (int i = 0; i < M; ++i) for (int j = 0; j < N; ++j) { wt[j * M + i] = x.h[i * N + j]; wo[i * N + j] = y.h[i] + y.h[M + j]; }
  compare("trans", t.h, wt, 0, 0);
  compare("outer broadcast", o.h, wo, 0, 0);
}
static void testAtoms() {
  Kernel k = load("atoms", "atoms");
  int n = 512, programs = 8;
  Buf<float> x(n), fmax(1, -1000.f), fmin(1, 1000.f), fadd(16, 0.f); Buf<int32_t> cnt(1, 0), old(n * programs, -1), cas(1, 0), casold(programs, -1);
  for (auto &v : x.h) v = randn() * 10;
  x.up();
  // old_ptr is offset per program below: launch one program at a time for the counter check.
  std::vector<int> allOld;
  for (int p = 0; p < programs; ++p) {
    Arg oldArg = A(old.d + (CUdeviceptr)(p * n * 4));
    // program_id(0) is 0 in each launch; casold slot 0
    Arg casoldArg = A(casold.d + (CUdeviceptr)(p * 4));
    launch(k, 1, {x.arg(), fmax.arg(), fmin.arg(), cnt.arg(), oldArg, fadd.arg(), cas.arg(), casoldArg});
  }
  fmax.down(); fmin.down(); cnt.down(); old.down(); fadd.down(); cas.down(); casold.down();
  float wmax = *std::max_element(x.h.begin(), x.h.end()), wmin = *std::min_element(x.h.begin(), x.h.end());
  compare("atomic_max f32", fmax.h, std::vector<float>{wmax}, 0, 0);
  compare("atomic_min f32", fmin.h, std::vector<float>{wmin}, 0, 0);
  compare("atomic_add counter", cnt.h, std::vector<int>{n * programs}, 0, 0);
  std::vector<int> sorted = old.h; std::sort(sorted.begin(), sorted.end());
  std::vector<int> iota(n * programs); for (int i = 0; i < n * programs; ++i) iota[i] = i;
  compare("atomic_add returns distinct old values", sorted, iota, 0, 0);
  std::vector<double> wadd(16, 0); for (int p = 0; p < programs; ++p) for (int i = 0; i < n; ++i) wadd[i % 16] += x.h[i];
  compare("atomic_add f32", fadd.h, wadd, 1e-4, 1e-3);
  std::vector<int> wcas(programs, 7); wcas[0] = 0;
  compare("atomic_cas old values", casold.h, wcas, 0, 0);
  compare("atomic_cas final", cas.h, std::vector<int>{7}, 0, 0);
}
static void testDot() {
  Kernel k = load("dotk", "dotk");
  int M = 32, N = 64, K = 32;
  Buf<uint16_t> a(M * K), b(K * N); Buf<float> c(M * N), af(M * K), bf(K * N), cf(M * N);
  for (int i = 0; i < M * K; ++i) { a.h[i] = toHalf(randn()); af.h[i] = randn(); }
  for (int i = 0; i < K * N; ++i) { b.h[i] = toHalf(randn()); bf.h[i] = randn(); }
  a.up(); b.up(); af.up(); bf.up();
  launch(k, 1, {a.arg(), b.arg(), c.arg(), af.arg(), bf.arg(), cf.arg()});
  c.down(); cf.down();
  std::vector<double> w(M * N), wf(M * N);
  for (int i = 0; i < M; ++i) for (int j = 0; j < N; ++j) { double s = 0, sf = 0;
    for (int kk = 0; kk < K; ++kk) { s += (double)fromHalf(a.h[i * K + kk]) * fromHalf(b.h[kk * N + j]); sf += (double)af.h[i * K + kk] * bf.h[kk * N + j]; }
    w[i * N + j] = s; wf[i * N + j] = sf; }
  compare("dot f16->f32", c.h, w, 1e-5, 1e-4);
  compare("dot f32 ieee", cf.h, wf, 1e-5, 1e-4);
}
static void testMath() {
  Kernel k = load("mathk", "mathk");
  int n = 100000;
  Buf<float> x(n), y(n * 10);
  for (int i = 0; i < n; ++i) x.h[i] = i < 1000 ? (i - 500) * 0.01f : randn() * 4;
  x.up();
  launch(k, (n + 511) / 512, {x.arg(), y.arg(), A(n)});
  y.down();
  const char *names[] = {"exp", "log", "sin", "cos", "tanh", "erf", "rsqrt", "sqrt", "sigmoid", "exp2"};
  double rtol[] = {4e-6, 2e-6, 0, 0, 3e-7, 3e-7, 2e-6, 2e-7, 4e-6, 4e-6};
  double atol[] = {0, 2e-7, 3e-6, 3e-6, 1e-7, 1e-7, 0, 0, 1e-7, 0};
  for (int f = 0; f < 10; ++f) {
    std::vector<float> got(n); std::vector<double> want(n);
    for (int i = 0; i < n; ++i) {
      double v = x.h[i]; got[i] = y.h[i * 10 + f];
      switch (f) { case 0: want[i] = std::exp(v); break; case 1: want[i] = std::log(std::fabs(v) + 1); break;
        case 2: want[i] = std::sin(v); break; case 3: want[i] = std::cos(v); break; case 4: want[i] = std::tanh(v); break;
        case 5: want[i] = std::erf(v); break; case 6: want[i] = 1 / std::sqrt(std::fabs(v) + 1); break;
        case 7: want[i] = std::sqrt(std::fabs(v)); break; case 8: want[i] = 1 / (1 + std::exp(-v)); break; case 9: want[i] = std::exp2(v); break; }
    }
    std::string what = std::string("math ") + names[f];
    compare(what.c_str(), got, want, rtol[f], atol[f]);
  }
}
static void testPrint() {
  Kernel k = load("printk", "printk");
  Buf<float> x(4); x.h = {1.5f, 2.5f, 3.5f, 4.5f}; x.up();
  launch(k, 1, {x.arg()});
  check("device_print ran", true);
}

static void testSoftmax2d(const char *name, int M, int N) {
  Kernel k = load(name, "softmax2d");
  Buf<float> x(M * N), y(M * N);
  for (auto &v : x.h) v = randn() * 3;
  x.up();
  launch(k, 1, {x.arg(), y.arg()});
  y.down();
  std::vector<double> w(M * N);
  for (int i = 0; i < M; ++i) { double m = -INFINITY, s = 0;
    for (int j = 0; j < N; ++j) m = std::max(m, (double)x.h[i * N + j]);
    for (int j = 0; j < N; ++j) s += std::exp(x.h[i * N + j] - m);
    for (int j = 0; j < N; ++j) w[i * N + j] = std::exp(x.h[i * N + j] - m) / s; }
  compare(name, y.h, w, 1e-5, 1e-7);
}
static void testColnorm() {
  Kernel k = load("colnorm", "colnorm");
  int M = 64, N = 32;
  Buf<float> x(M * N), y(M * N);
  for (auto &v : x.h) v = randn();
  x.up();
  launch(k, 1, {x.arg(), y.arg()});
  y.down();
  std::vector<double> w(M * N);
  for (int j = 0; j < N; ++j) { double s = 0; for (int i = 0; i < M; ++i) s += x.h[i * N + j];
    for (int i = 0; i < M; ++i) w[i * N + j] = x.h[i * N + j] - s / M; }
  compare("colnorm (sum axis=0, [None, :])", y.h, w, 1e-5, 1e-5);
}
static void testReshape() {
  Kernel k = load("reshapek", "reshapek");
  int M = 16, N = 64;
  Buf<float> x(M * N), y(M);
  for (auto &v : x.h) v = std::round(randn() * 8);
  x.up();
  launch(k, 1, {x.arg(), y.arg()});
  y.down();
  std::vector<double> w(M, 0);
  for (int i = 0; i < M * N; ++i) w[i / N] += x.h[i];
  compare("reshape + sum", y.h, w, 0, 0);
}
static void testLoops() {
  Kernel k = load("loops", "loops");
  int B = 256;
  for (int n : {1, 3}) {
    Buf<int32_t> x(B * 4), y(B);
    for (auto &v : x.h) v = rng() % 1000;
    x.up();
    launch(k, 1, {x.arg(), y.arg(), A(n)});
    y.down();
    std::vector<int> w(B, 0);
    for (int i = 0; i < n; ++i) for (int j = 0; j < B; ++j) w[j] += x.h[i * B + j];
    for (int j = 0; j < B; ++j) w[j] = n > 2 ? w[j] * 2 : w[j] - 1;
    compare(n > 2 ? "while + if (taken)" : "while + if (else)", y.h, w, 0, 0);
  }
}
static void testTypes() {
  Kernel k = load("types", "types");
  int B = 256;
  Buf<uint8_t> b(B); Buf<int8_t> c(B); Buf<int64_t> d(B); Buf<uint16_t> h(B); Buf<int32_t> o(4);
  std::vector<int8_t> c0(B); std::vector<int64_t> d0(B); std::vector<float> h0(B);
  for (int i = 0; i < B; ++i) { c.h[i] = c0[i] = (int8_t)(rng() % 100 - 50); d.h[i] = d0[i] = (int64_t)(rng() % 100000) - 50000; h0[i] = std::round(randn() * 16) / 8; h.h[i] = toHalf(h0[i]); b.h[i] = 7; }
  b.up(); c.up(); d.up(); h.up();
  launch(k, 1, {b.arg(), c.arg(), d.arg(), h.arg(), o.arg()});
  b.down(); c.down(); d.down(); h.down(); o.down();
  std::vector<int> wb(B), wc(B), gc(B), gb(B); std::vector<double> wd(B), gd(B), wh(B), gh(B);
  int sumc = 0, argmaxd = 0, argminh = 0; int64_t mind = INT64_MAX;
  for (int i = 0; i < B; ++i) {
    wb[i] = c0[i] > 0; gb[i] = b.h[i]; wc[i] = (int8_t)(c0[i] * 2); gc[i] = c.h[i];
    wd[i] = (double)(d0[i] * 3 + 1); gd[i] = (double)d.h[i]; wh[i] = h0[i] * 2; gh[i] = fromHalf(h.h[i]);
    sumc += c0[i]; mind = std::min(mind, d0[i]); if (d0[i] > d0[argmaxd]) argmaxd = i; if (h0[i] < h0[argminh]) argminh = i; }
  compare("i1 store (bytes 0/1)", gb, wb, 0, 0);
  compare("i8 load/store", gc, wc, 0, 0);
  compare("i64 load/store", gd, wd, 0, 0);
  compare("f16 load/store", gh, wh, 0, 0);
  compare("sum i8 / min i64 / argmax i64 / argmin f16", o.h, std::vector<int>{sumc, (int)mind, argmaxd, argminh}, 0, 0);
}
static void testAtoms64() {
  Kernel k = load("atoms64", "atoms64");
  int B = 256, programs = 4;
  Buf<double> d(4, 0.0); Buf<int64_t> l(1, -1000); Buf<uint16_t> h(8, toHalf(0.f)); Buf<int32_t> s(1, 0), o(programs, -1);
  for (int p = 0; p < programs; ++p) {
    Arg oa = A(o.d + (CUdeviceptr)(p * 4));
    launch(k, 1, {d.arg(), l.arg(), h.arg(), s.arg(), oa});
  }
  d.down(); l.down(); h.down(); s.down(); o.down();
  std::vector<double> wd(4, 0); for (int p = 0; p < programs; ++p) for (int i = 0; i < B; ++i) wd[i % 4] += i;
  compare("atomic_add f64", d.h, wd, 0, 0);
  compare("atomic_max i64", std::vector<double>{(double)l.h[0]}, std::vector<double>{155.0}, 0, 0);
  std::vector<float> gh(8); for (int i = 0; i < 8; ++i) gh[i] = fromHalf(h.h[i]);
  compare("atomic_add f16", gh, std::vector<float>(8, 128.f), 0, 0);
  std::vector<int> wo(programs); for (int p = 0; p < programs; ++p) wo[p] = 5 * p;
  compare("scalar atomic_add returns old", o.h, wo, 0, 0);
}
static void testScan8() {
  Kernel k = load("scan8", "scan8");
  int M = 32, N = 64;
  Buf<float> x(M * N), a0(M * N), a1(M * N);
  for (auto &v : x.h) v = std::round(randn() * 4);
  x.up();
  launch(k, 1, {x.arg(), a0.arg(), a1.arg()});
  a0.down(); a1.down();
  std::vector<double> w0(M * N), w1(M * N);
  for (int j = 0; j < N; ++j) { double s = 0; for (int i = M - 1; i >= 0; --i) { s += x.h[i * N + j]; w0[i * N + j] = s; } }
  for (int i = 0; i < M; ++i) { double s = 0; for (int j = 0; j < N; ++j) { s += x.h[i * N + j]; w1[i * N + j] = s; } }
  compare("cumsum 2d axis=0 reverse, 8 warps", a0.h, w0, 0, 0);
  compare("cumsum 2d axis=1, 8 warps", a1.h, w1, 0, 0);
}

static void testDups() {
  Kernel k = load("dups", "dups");
  int B = 64, programs = 3;
  Buf<float> x(B), y(B), s(B + 1); Buf<int32_t> cnt(1, 0), old(B * programs, -1);
  for (auto &v : x.h) v = std::round(randn() * 8);
  x.up();
  for (int p = 0; p < programs; ++p)
    launch(k, 1, {x.arg(), y.arg(), cnt.arg(), A(old.d + (CUdeviceptr)(p * B * 4)), s.arg()});
  y.down(); cnt.down(); old.down(); s.down();
  std::vector<double> wy(B), ws(B + 1); double t = 0;
  for (int i = 0; i < B; ++i) { wy[i] = x.h[i] * 2; t += x.h[i]; ws[i + 1] = t; }
  ws[0] = t;
  compare("replicated layout: store", y.h, wy, 0, 0);
  compare("replicated layout: atomic once per element", cnt.h, std::vector<int>{B * programs}, 0, 0);
  std::vector<int> sorted = old.h; std::sort(sorted.begin(), sorted.end());
  std::vector<int> iota(B * programs); for (int i = 0; i < B * programs; ++i) iota[i] = i;
  compare("replicated layout: atomic old values", sorted, iota, 0, 0);
  compare("replicated layout: sum + cumsum", s.h, ws, 0, 0);
}

static void testConvert() {
  Kernel k = load("convert", "convert");
  Buf<float> x(64 * 64), y(64 * 64, -1.f), z(64 * 64, -1.f);
  for (auto &v : x.h) v = randn();
  x.up();
  launch(k, 1, {x.arg(), y.arg(), z.arg()});
  y.down(); z.down();
  compare("convert_layout row -> col", y.h, x.h, 0, 0);
  compare("convert_layout row -> 1-per-thread columns", z.h, x.h, 0, 0);
}

int main(int argc, char **argv) {
  if (argc > 1) dir = argv[1];
  bool bench = argc > 2;
  CK(cuInit(0)); CUdevice dev; CK(cuDeviceGet(&dev, 0)); CUcontext ctx; CK(cuCtxCreate(&ctx, nullptr, 0, dev));
  testAdd("add_a", 4096, 1 << 24, bench);
  testAdd("add_u", 1024, 1000003, false);
  testGelu(1 << 22, bench);
  testSoftmax("sm16k", 64, 16384, bench);
  testSoftmax("sm16k", 64, 10000, false);
  testSoftmax("sm1k", 1823, 781, bench);
  testSoftmaxOnline(37, 10000);
  testLayerNorm(64, 4096);
  testLayerNorm(64, 3000);
  testRmsNorm(256, 4096, bench);
  testRmsNorm(64, 1000, false);
  testHistogram(1 << 20);
  testMatmul(256, 192, 200);
  testRed2d("red2d", 64, 128);
  testRed2d("red2d8", 16, 512);
  testScan();
  testShapes();
  testAtoms();
  testDot();
  testMath();
  testPrint();
  testSoftmax2d("softmax2d", 32, 64);
  testSoftmax2d("softmax2d8", 16, 256);
  testColnorm();
  testReshape();
  testLoops();
  testTypes();
  testAtoms64();
  testScan8();
  testDups();
  testConvert();
  printf("%d failure(s)\n", failures);
  return failures != 0;
}
