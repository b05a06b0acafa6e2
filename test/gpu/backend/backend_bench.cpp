// Bandwidth of tk cubins on the seed benchmark shapes: median of 50 timed
// launches, each after clearing L2 (as triton.testing.do_bench). Kernels come
// from test/gpu/backend/build.sh.
#include <cuda.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>
#define CK(x) do { CUresult r = (x); if (r != CUDA_SUCCESS) { const char *s; cuGetErrorString(r, &s); fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, s); exit(1);} } while (0)
static std::string dir = ".";
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
struct Kernel { CUmodule mod; CUfunction fn; int warps = 4; int smem = 0; };
static Kernel load(const std::string &name, const char *entry) {
  Kernel k; readLaunchConfig(name, k.warps, k.smem);
  std::ifstream f(dir + "/" + name + ".cubin", std::ios::binary); std::string bytes((std::istreambuf_iterator<char>(f)), {});
  CK(cuModuleLoadData(&k.mod, bytes.data())); CK(cuModuleGetFunction(&k.fn, k.mod, entry));
  if (k.smem > 48 * 1024) CK(cuFuncSetAttribute(k.fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, k.smem));
  return k; }
struct Arg { std::vector<char> b; };
template <typename T> Arg A(T v) { Arg a; a.b.resize(sizeof(T)); memcpy(a.b.data(), &v, sizeof(T)); return a; }
static CUdeviceptr flushBuf = 0;
static double timeMs(Kernel &k, unsigned grid, std::vector<Arg> args) {
  // Like triton.testing.do_bench: clear L2 (256 MB memset) before each timed launch,
  // so neither cached inputs nor the write-back of the previous outputs count.
  if (!flushBuf) CK(cuMemAlloc(&flushBuf, 256u << 20));
  std::vector<void *> p; for (auto &a : args) p.push_back(a.b.data());
  for (int i = 0; i < 10; ++i) CK(cuLaunchKernel(k.fn, grid, 1, 1, k.warps * 32, 1, 1, k.smem, 0, p.data(), nullptr));
  CK(cuCtxSynchronize());
  std::vector<float> t; CUevent a, b; CK(cuEventCreate(&a, 0)); CK(cuEventCreate(&b, 0));
  for (int i = 0; i < 50; ++i) {
    CK(cuMemsetD32Async(flushBuf, 0, (256u << 20) / 4, 0));
    CK(cuEventRecord(a, 0)); CK(cuLaunchKernel(k.fn, grid, 1, 1, k.warps * 32, 1, 1, k.smem, 0, p.data(), nullptr)); CK(cuEventRecord(b, 0));
    CK(cuEventSynchronize(b)); float ms; CK(cuEventElapsedTime(&ms, a, b)); t.push_back(ms); }
  std::sort(t.begin(), t.end()); return t[t.size() / 2]; }
static CUdeviceptr alloc(size_t bytes) { CUdeviceptr d; CK(cuMemAlloc(&d, bytes)); CK(cuMemsetD8(d, 0x3c, bytes)); return d; }
int main(int argc, char **argv) {
  if (argc > 1) dir = argv[1];
  CK(cuInit(0)); CUdevice dev; CK(cuDeviceGet(&dev, 0)); CUcontext ctx; CK(cuCtxCreate(&ctx, nullptr, 0, dev));
  int n = 1 << 28;
  CUdeviceptr x = alloc((size_t)n * 4), y = alloc((size_t)n * 4), o = alloc((size_t)n * 4);
  for (auto [name, block] : {std::pair<const char *, int>{"b_add1k", 1024}, {"b_add4k", 4096}}) {
    Kernel k = load(name, "add"); double ms = timeMs(k, n / block, {A(x), A(y), A(o), A(n)});
    printf("tk %s add 2^28: %.0f GB/s\n", name, 3.0 * n * 4 / ms / 1e6); }
  for (auto [name, block] : {std::pair<const char *, int>{"b_gelu1k", 1024}, {"b_gelu2k", 2048}}) {
    Kernel k = load(name, "gelu"); double ms = timeMs(k, n / block, {A(x), A(o), A(n)});
    printf("tk %s gelu 2^28: %.0f GB/s\n", name, 2.0 * n * 4 / ms / 1e6); }
  struct S { int rows, cols; const char *kern; };
  for (S s : {S{4096, 4096, "b_sm4k"}, S{32768, 1024, "b_sm1k"}, S{16384, 4096, "b_sm4k"}, S{4096, 16384, "b_sm16k"}, S{1823, 781, "b_sm781"}}) {
    Kernel k = load(s.kern, "softmax"); double ms = timeMs(k, s.rows, {A(o), A(x), A(s.cols), A(s.cols), A(s.cols)});
    printf("tk %s softmax %dx%d: %.0f GB/s\n", s.kern, s.rows, s.cols, 2.0 * s.rows * s.cols * 4 / ms / 1e6); }
  for (S s : {S{16384, 4096, "b_rms4k"}, S{8192, 8192, "b_rms8k"}}) {
    Kernel k = load(s.kern, "rmsnorm"); float eps = 1e-6f;
    double ms = timeMs(k, s.rows, {A(x), A(y), A(o), A(s.cols), A(s.cols), A(eps)});
    printf("tk %s rmsnorm %dx%d: %.0f GB/s\n", s.kern, s.rows, s.cols, (2.0 * s.rows * s.cols * 2 + s.cols * 2) / ms / 1e6); }
  return 0; }
