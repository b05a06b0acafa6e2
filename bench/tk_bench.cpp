//===- tk_bench.cpp - GB/s of tk's memory-bound kernels on the GPU --------===//
//
// Measures the kernels of DESIGN.md's table the way Triton's do_bench does,
// so the numbers stand next to triton_ref.py's from the same run: CUDA
// events around each launch, warm-up first, the L2 flushed before every
// timed launch, the median over ~300 ms of launches. Inputs are fresh random
// data, outputs are poisoned before the checked launch and compared with a
// CPU reference on sampled rows, so a fast wrong kernel is reported, not
// timed.
//
// Usage: tk-bench KERNEL_DIR OUT.json
//
//===----------------------------------------------------------------------===//
#include "tk/runtime.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

namespace {

std::string kernelDir;
int failures = 0;

/// Fills `out` with normal(0, scale) floats using all cores: inputs of 2^28
/// elements would take seconds on one thread.
void fillRandom(std::vector<float> &out, uint64_t seed, float scale = 1.0f) {
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> pool;
  size_t chunk = (out.size() + threads - 1) / threads;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      std::mt19937_64 rng(seed * 1000003 + t);
      std::normal_distribution<float> dist(0.0f, scale);
      size_t end = std::min(out.size(), (t + 1) * chunk);
      for (size_t i = t * chunk; i < end; ++i)
        out[i] = dist(rng);
    });
  for (auto &th : pool)
    th.join();
}

tk::Kernel loadKernel(tk::Context &ctx, const std::string &name) {
  return tk::Module::load(ctx, kernelDir + "/" + name + ".json").kernel();
}

/// Median time in ms of `launch`, do_bench style: 256 MB written between
/// launches evicts the 60 MB L2 so every launch reads from HBM.
template <typename F>
double benchMs(tk::Context &ctx, tk::Buffer &flush, F launch) {
  for (int i = 0; i < 10; ++i)
    launch();
  ctx.sync();
  tk::Event start = ctx.createEvent(), stop = ctx.createEvent();
  // Estimate one launch to size the repetitions to ~300 ms.
  start.record();
  for (int i = 0; i < 5; ++i)
    launch();
  stop.record();
  stop.sync();
  double estimate = stop.elapsedMsSince(start) / 5;
  int reps = (int)std::clamp(300.0 / std::max(estimate, 1e-3), 20.0, 1000.0);
  std::vector<double> times;
  for (int i = 0; i < reps; ++i) {
    flush.fill(uint8_t(i));
    start.record();
    launch();
    stop.record();
    stop.sync();
    times.push_back(stop.elapsedMsSince(start));
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

void check(bool ok, const std::string &what) {
  if (!ok) {
    ++failures;
    std::printf("FAIL %s\n", what.c_str());
  }
}

double relErr(const std::vector<double> &ref, const std::vector<double> &got) {
  double num = 0, den = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    double d = got[i] - ref[i];
    if (std::isnan(got[i]))
      return INFINITY;
    num += d * d;
    den += ref[i] * ref[i];
  }
  return std::sqrt(num / std::max(den, 1e-300));
}

double benchAdd(tk::Context &ctx, tk::Buffer &flush) {
  const int n = 1 << 28;
  std::vector<float> x(n), y(n);
  fillRandom(x, 1);
  fillRandom(y, 2);
  tk::Buffer dx = ctx.alloc(n * 4ull), dy = ctx.alloc(n * 4ull),
             dout = ctx.alloc(n * 4ull);
  dx.upload(x);
  dy.upload(y);
  dout.fill(0xFF);
  tk::Kernel k = loadKernel(ctx, "add_b1024");
  auto launch = [&] {
    k.launch({(uint32_t)((n + 1023) / 1024)}, dx.as<float>(), dy.as<float>(),
             dout.as<float>(), n);
  };
  launch();
  ctx.sync();
  std::vector<float> out = dout.download<float>();
  size_t bad = 0;
  for (int i = 0; i < n; ++i)
    bad += out[i] != x[i] + y[i];
  check(bad == 0, "add: " + std::to_string(bad) + " wrong elements");
  double ms = benchMs(ctx, flush, launch);
  return 3.0 * n * 4 / ms / 1e6;
}

double benchGelu(tk::Context &ctx, tk::Buffer &flush) {
  const int n = 1 << 28;
  std::vector<float> x(n);
  fillRandom(x, 3);
  tk::Buffer dx = ctx.alloc(n * 4ull), dy = ctx.alloc(n * 4ull);
  dx.upload(x);
  dy.fill(0xFF);
  tk::Kernel k = loadKernel(ctx, "gelu_b1024");
  auto launch = [&] {
    k.launch({(uint32_t)((n + 1023) / 1024)}, dx.as<float>(), dy.as<float>(),
             n);
  };
  launch();
  ctx.sync();
  std::vector<float> out = dy.download<float>();
  std::vector<double> ref, got;
  for (int i = 0; i < n; i += 997) {
    double v = x[i];
    ref.push_back(0.5 * v *
                  (1 + std::tanh(0.7978845608 * (v + 0.044715 * v * v * v))));
    got.push_back(out[i]);
  }
  double err = relErr(ref, got);
  check(err < 1e-5, "gelu: relative error " + std::to_string(err));
  double ms = benchMs(ctx, flush, launch);
  return 2.0 * n * 4 / ms / 1e6;
}

/// Triton's softmax benchmark picks num_warps from the block size; the
/// kernels directory has one cubin per (BLOCK, warps) it needs.
std::string softmaxKernelName(int cols) {
  int block = 1;
  while (block < cols)
    block *= 2;
  int warps = block <= 2048 ? 4 : block <= 8192 ? 8 : 16;
  // Like Triton's JIT, the kernel is specialized on strides and n_cols being
  // multiples of 16; "_u" is the build without that assumption.
  return "softmax_b" + std::to_string(block) + "_w" + std::to_string(warps) +
         (cols % 16 == 0 ? "" : "_u");
}

double benchSoftmax(tk::Context &ctx, tk::Buffer &flush, int rows, int cols,
                    const std::string &kernelName) {
  size_t count = (size_t)rows * cols;
  std::vector<float> x(count);
  fillRandom(x, 4 + rows + cols, 10.0f);
  tk::Buffer dx = ctx.alloc(count * 4), dout = ctx.alloc(count * 4);
  dx.upload(x);
  dout.fill(0xFF);
  tk::Kernel k = loadKernel(ctx, kernelName);
  auto launch = [&] {
    k.launch({(uint32_t)rows}, dout.as<float>(), dx.as<float>(), cols, cols,
             cols);
  };
  launch();
  ctx.sync();
  std::vector<float> out = dout.download<float>();
  std::vector<double> ref, got;
  for (int r = 0; r < rows; r += std::max(1, rows / 64)) {
    const float *row = &x[(size_t)r * cols];
    double mx = -INFINITY, sum = 0;
    for (int c = 0; c < cols; ++c)
      mx = std::max(mx, (double)row[c]);
    for (int c = 0; c < cols; ++c)
      sum += std::exp(row[c] - mx);
    for (int c = 0; c < cols; ++c) {
      ref.push_back(std::exp(row[c] - mx) / sum);
      got.push_back(out[(size_t)r * cols + c]);
    }
  }
  double err = relErr(ref, got);
  check(err < 1e-5, kernelName + " " + std::to_string(rows) + "x" +
                        std::to_string(cols) + ": relative error " +
                        std::to_string(err));
  double ms = benchMs(ctx, flush, launch);
  return 2.0 * count * 4 / ms / 1e6;
}

double benchRmsnorm(tk::Context &ctx, tk::Buffer &flush, int rows, int cols) {
  size_t count = (size_t)rows * cols;
  std::vector<float> xf(count), wf(cols);
  fillRandom(xf, 5 + rows);
  std::vector<tk::bf16> x(count), w(cols);
  for (size_t i = 0; i < count; ++i)
    x[i] = tk::bf16(xf[i]);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(0.5f, 1.5f);
  for (int c = 0; c < cols; ++c)
    w[c] = tk::bf16(u(rng));
  tk::Buffer dx = ctx.alloc(count * 2), dw = ctx.alloc(cols * 2ull),
             dy = ctx.alloc(count * 2);
  dx.upload(x);
  dw.upload(w);
  dy.fill(0xFF);
  std::string name = "rmsnorm_b" + std::to_string(cols) + "_w8";
  tk::Kernel k = loadKernel(ctx, name);
  auto launch = [&] {
    k.launch({(uint32_t)rows}, dx.as<tk::bf16>(), dw.as<tk::bf16>(),
             dy.as<tk::bf16>(), cols, cols, 1e-6f);
  };
  launch();
  ctx.sync();
  std::vector<tk::bf16> out = dy.download<tk::bf16>();
  std::vector<double> ref, got;
  for (int r = 0; r < rows; r += std::max(1, rows / 64)) {
    double ss = 0;
    for (int c = 0; c < cols; ++c) {
      double v = x[(size_t)r * cols + c].toFloat();
      ss += v * v;
    }
    double rstd = 1.0 / std::sqrt(ss / cols + 1e-6);
    for (int c = 0; c < cols; ++c) {
      ref.push_back(x[(size_t)r * cols + c].toFloat() * rstd * w[c].toFloat());
      got.push_back(out[(size_t)r * cols + c].toFloat());
    }
  }
  double err = relErr(ref, got);
  check(err < 1e-2, "rmsnorm " + std::to_string(rows) + "x" +
                        std::to_string(cols) + ": relative error " +
                        std::to_string(err));
  double ms = benchMs(ctx, flush, launch);
  return (2.0 * count * 2 + cols * 2.0) / ms / 1e6;
}

/// Back-to-back launches of a tiny kernel, wall clock, as triton_ref.py
/// measures Triton's and PyTorch's launch cost.
double benchLaunchUs(tk::Context &ctx) {
  tk::Buffer x = ctx.alloc(4096), y = ctx.alloc(4096), o = ctx.alloc(4096);
  x.fill(0);
  y.fill(0);
  tk::Kernel k = loadKernel(ctx, "add_b1024");
  for (int i = 0; i < 100; ++i)
    k.launch({1}, x.as<float>(), y.as<float>(), o.as<float>(), 1024);
  ctx.sync();
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 10000; ++i)
    k.launch({1}, x.as<float>(), y.as<float>(), o.as<float>(), 1024);
  ctx.sync();
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::micro>(t1 - t0).count() / 10000;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: tk-bench KERNEL_DIR OUT.json\n");
    return 1;
  }
  kernelDir = argv[1];
  std::ostringstream json;
  try {
    tk::Context ctx = tk::Context::create(tk::Mode::Gpu);
    tk::Buffer flush = ctx.alloc(256ull << 20);
    std::map<std::string, double> softmax, rmsnorm, variants;
    double add = benchAdd(ctx, flush);
    double gelu = benchGelu(ctx, flush);
    for (auto [rows, cols] : std::vector<std::pair<int, int>>{
             {4096, 4096}, {32768, 1024}, {16384, 4096}, {4096, 16384},
             {1823, 781}})
      softmax[std::to_string(rows) + "x" + std::to_string(cols)] =
          benchSoftmax(ctx, flush, rows, cols, softmaxKernelName(cols));
    // Other warp counts than Triton's heuristic, same shapes.
    for (auto [rows, cols, kernel] :
         std::vector<std::tuple<int, int, std::string>>{
             {4096, 4096, "softmax_b4096_w4"},
             {4096, 4096, "softmax_b4096_w16"},
             {16384, 4096, "softmax_b4096_w4"},
             {32768, 1024, "softmax_b1024_w2"},
             {1823, 781, "softmax_b1024_w2_u"}})
      variants[kernel + "@" + std::to_string(rows) + "x" +
               std::to_string(cols)] =
          benchSoftmax(ctx, flush, rows, cols, kernel);
    for (auto [rows, cols] :
         std::vector<std::pair<int, int>>{{16384, 4096}, {8192, 8192}})
      rmsnorm[std::to_string(rows) + "x" + std::to_string(cols)] =
          benchRmsnorm(ctx, flush, rows, cols);
    double launch = benchLaunchUs(ctx);
    auto dict = [](const std::map<std::string, double> &m) {
      std::ostringstream o;
      o << "{";
      bool first = true;
      for (auto &[k, v] : m) {
        o << (first ? "" : ", ") << "\"" << k << "\": " << v;
        first = false;
      }
      o << "}";
      return o.str();
    };
    json << "{\"add_GBps\": " << add << ", \"gelu_GBps\": " << gelu
         << ", \"softmax_GBps\": " << dict(softmax)
         << ", \"rmsnorm_GBps\": " << dict(rmsnorm)
         << ", \"softmax_variants_GBps\": " << dict(variants)
         << ", \"launch_us\": " << launch << ", \"correct\": "
         << (failures == 0 ? "true" : "false") << "}\n";
  } catch (const tk::Error &e) {
    std::fprintf(stderr, "tk-bench: error: %s\n", e.what());
    return 1;
  }
  std::ofstream(argv[2]) << json.str();
  std::printf("%s", json.str().c_str());
  return failures ? 1 : 0;
}
