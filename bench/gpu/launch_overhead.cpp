//===- launch_overhead.cpp - host cost of launching a tiny kernel ---------===//
//
// tk-launch-overhead CUBIN ADD_TK [N]: microseconds per launch of the vector
// add (n = 1024, one program) back to back, N launches (default 20000)
// enqueued then one synchronize, median of 5 rounds, for
//   raw      cuLaunchKernel on CUBIN (bench/kernels/add_b1024.cubin)
//   libtkrt  tk::Kernel::launch of the same cubin (argument checks)
//   jit      tk::jit::Kernel::launch of ADD_TK (specialization lookup +
//            libtkrt), the C++ launch-time JIT handle
//   aot      tk_add of the header tkc --emit=header wrote at build time
//            (bench/CMakeLists.txt: the same add, its variant picked from
//            the arguments at each launch, the module found per context)
// One JSON object per line, for bench/gpu/launch_overhead.py.
//
//===----------------------------------------------------------------------===//
#include "tk/jit.h"

#include <cuda.h>
#include <dlfcn.h>

#ifdef TK_LAUNCH_OVERHEAD_AOT
#include "add_tk.h"
#endif

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

namespace {

template <typename F> F symbol(void *library, const char *name) {
  void *address = dlsym(library, name);
  if (!address) {
    std::fprintf(stderr, "launch_overhead: no %s in libcuda\n", name);
    std::exit(1);
  }
  return reinterpret_cast<F>(address);
}

double microsecondsPerLaunch(int count, const std::function<void()> &launch,
                             const std::function<void()> &sync) {
  std::vector<double> rounds;
  for (int round = 0; round < 5; ++round) {
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < count; ++i)
      launch();
    sync();
    rounds.push_back(std::chrono::duration<double, std::micro>(
                         std::chrono::steady_clock::now() - start)
                         .count() /
                     count);
  }
  std::sort(rounds.begin(), rounds.end());
  return rounds[rounds.size() / 2];
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: tk-launch-overhead CUBIN ADD_TK [N]\n");
    return 2;
  }
  const char *cubin = argv[1];
  int count = argc > 3 ? std::atoi(argv[3]) : 20000;
  try {
    tk::Context context = tk::Context::create(tk::Mode::Gpu);
    tk::Stream stream(context);
    const int n = 1024;
    tk::Buffer x = context.alloc(n * 4), y = context.alloc(n * 4),
               out = context.alloc(n * 4);

    // Raw driver API on the same primary context.
    void *cuda = dlopen("libcuda.so.1", RTLD_NOW);
    auto cuModuleLoad =
        symbol<CUresult (*)(CUmodule *, const char *)>(cuda, "cuModuleLoad");
    auto cuModuleGetFunction =
        symbol<CUresult (*)(CUfunction *, CUmodule, const char *)>(
            cuda, "cuModuleGetFunction");
    auto cuLaunchKernel = symbol<CUresult (*)(
        CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
        unsigned, unsigned, CUstream, void **, void **)>(cuda,
                                                          "cuLaunchKernel");
    auto cuStreamSynchronize =
        symbol<CUresult (*)(CUstream)>(cuda, "cuStreamSynchronize");
    CUmodule module;
    CUfunction function;
    if (cuModuleLoad(&module, cubin) != CUDA_SUCCESS ||
        cuModuleGetFunction(&function, module, "add") != CUDA_SUCCESS) {
      std::fprintf(stderr, "launch_overhead: cannot load %s\n", cubin);
      return 1;
    }
    CUstream handle = static_cast<CUstream>(stream.nativeHandle());
    uint64_t px = x.ptr().address, py = y.ptr().address,
             po = out.ptr().address;
    int32_t nn = n;
    void *params[] = {&px, &py, &po, &nn};
    auto syncStream = [&] { stream.sync(); };
    double raw = microsecondsPerLaunch(
        count,
        [&] {
          cuLaunchKernel(function, 1, 1, 1, 128, 1, 1, 0, handle, params,
                         nullptr);
        },
        [&] { cuStreamSynchronize(handle); });

    tk::Kernel kernel = tk::Module::load(context, cubin).kernel("add");
    double runtime = microsecondsPerLaunch(
        count, [&] { kernel.launch({1}, stream, x, y, out, n); }, syncStream);

    tk::jit::KernelOptions options;
    options.defines = {{"BLOCK", "1024"}};
    options.numWarps = 4;
    auto jit = tk::jit::Kernel::fromFile(context, argv[2], "add", options);
    jit.launch({1}, stream, x, y, out, n); // compile (or cache hit)
    double handleUs = microsecondsPerLaunch(
        count, [&] { jit.launch({1}, stream, x, y, out, n); }, syncStream);

#ifdef TK_LAUNCH_OVERHEAD_AOT
    // The header's launcher runs in the current context: libtkrt's, which
    // its calls above left current.
    CUdeviceptr ax = x.ptr().address, ay = y.ptr().address,
                ao = out.ptr().address;
    if (tk_add(handle, 1, 1, 1, ax, ay, ao, n) != CUDA_SUCCESS) {
      std::fprintf(stderr, "launch_overhead: tk_add: %s\n",
                   tk_add_last_error());
      return 1;
    }
    double aot = microsecondsPerLaunch(
        count, [&] { tk_add(handle, 1, 1, 1, ax, ay, ao, n); },
        [&] { cuStreamSynchronize(handle); });
#endif

    std::printf("{\"what\": \"raw cuLaunchKernel\", \"us\": %.3f}\n", raw);
    std::printf("{\"what\": \"libtkrt tk::Kernel::launch\", \"us\": %.3f}\n",
                runtime);
    std::printf("{\"what\": \"tk C++ JIT handle\", \"us\": %.3f}\n", handleUs);
#ifdef TK_LAUNCH_OVERHEAD_AOT
    std::printf("{\"what\": \"tk C++ AOT header\", \"us\": %.3f}\n", aot);
#endif
  } catch (const tk::Error &error) {
    std::fprintf(stderr, "launch_overhead: %s\n", error.what());
    return 1;
  }
  return 0;
}
