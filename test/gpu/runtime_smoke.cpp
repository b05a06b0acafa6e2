//===- runtime_smoke.cpp - libtkrt end to end on a real GPU ---------------===//
//
// Loads hand-written PTX (sm_80, so the driver JITs it for any newer GPU)
// through the public API, launches it and checks the results; then checks
// the paths only a GPU can exercise: argument rejection on a real module,
// dynamic shared memory above 48 KiB, streams and events, launch overhead,
// and finally that an illegal memory access comes back from ctx.sync() as a
// tk::Error naming the kernel.
//
// Prints "PASS runtime_smoke" and exits 0, or "FAIL runtime_smoke: reason"
// and exits 1 (which is what happens, cleanly, on a machine without a GPU).
//
//===----------------------------------------------------------------------===//

#include "tk/runtime.h"

#include <cstdlib>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace {

const char *kVaddPtx = R"(
.version 7.0
.target sm_80
.address_size 64

.visible .entry vadd(
  .param .u64 x_ptr,
  .param .u64 y_ptr,
  .param .u64 out_ptr,
  .param .u32 n
)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<11>;

  ld.param.u64 %rd1, [x_ptr];
  ld.param.u64 %rd2, [y_ptr];
  ld.param.u64 %rd3, [out_ptr];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.s32 %r5, %r2, %r3, %r4;
  setp.ge.s32 %p1, %r5, %r1;
  @%p1 bra DONE;
  cvta.to.global.u64 %rd4, %rd1;
  cvta.to.global.u64 %rd5, %rd2;
  cvta.to.global.u64 %rd6, %rd3;
  mul.wide.s32 %rd7, %r5, 4;
  add.s64 %rd8, %rd4, %rd7;
  add.s64 %rd9, %rd5, %rd7;
  add.s64 %rd10, %rd6, %rd7;
  ld.global.f32 %f1, [%rd8];
  ld.global.f32 %f2, [%rd9];
  add.f32 %f3, %f1, %f2;
  st.global.f32 [%rd10], %f3;
DONE:
  ret;
}
)";

const char *kVaddMetadata = R"({
  "tk_metadata_version": 1, "name": "vadd", "arch": "sm_80",
  "num_warps": 4, "num_stages": 1, "shared_bytes": 0,
  "binary": "vadd.ptx", "binary_kind": "ptx",
  "args": [{"name": "x_ptr", "type": "*f32", "spec": "div16"},
           {"name": "y_ptr", "type": "*f32", "spec": "div16"},
           {"name": "out_ptr", "type": "*f32", "spec": "div16"},
           {"name": "n", "type": "i32"}],
  "grid_rank": 1})";

// Each thread stores its id near the end of a 100000-byte dynamic shared
// buffer and reads it back: only works if the launch really got that much.
const char *kBigSharedPtx = R"(
.version 7.0
.target sm_80
.address_size 64

.extern .shared .align 16 .b8 smem[];

.visible .entry big_smem(
  .param .u64 out_ptr
)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<5>;

  ld.param.u64 %rd1, [out_ptr];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, smem;
  shl.b32 %r3, %r1, 2;
  add.s32 %r4, %r2, %r3;
  st.shared.u32 [%r4+99000], %r1;
  bar.sync 0;
  ld.shared.u32 %r5, [%r4+99000];
  add.s32 %r5, %r5, 1;
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r5;
  ret;
}
)";

const char *kBigSharedMetadata = R"({
  "tk_metadata_version": 1, "name": "big_smem", "arch": "sm_80",
  "num_warps": 4, "shared_bytes": 100000,
  "binary": "big_smem.ptx", "binary_kind": "ptx",
  "args": [{"name": "out_ptr", "type": "*i32"}]})";

struct Failure {
  std::string message;
};

void check(bool condition, const std::string &message) {
  if (!condition)
    throw Failure{message};
}

std::string errorOf(const std::function<void()> &f) {
  try {
    f();
  } catch (const tk::Error &e) {
    return e.what();
  }
  return "";
}

void run() {
  tk::Context ctx = tk::Context::create(tk::Mode::Gpu);
  const tk::DeviceInfo &device = ctx.deviceInfo();
  std::printf("  device: %s (sm_%d%d, %d SMs, %llu MiB, %llu bytes of shared "
              "memory per block)\n",
              device.name.c_str(), device.computeMajor, device.computeMinor,
              device.multiprocessorCount,
              static_cast<unsigned long long>(device.totalMemoryBytes >> 20),
              static_cast<unsigned long long>(device.maxSharedBytesPerBlock));

  // Vector add.
  tk::Kernel vadd =
      tk::Module::loadFromMemory(ctx, kVaddMetadata, kVaddPtx).kernel("vadd");
  const int32_t n = 1000003; // Not a multiple of the block size.
  std::vector<float> x(n), y(n);
  for (int32_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i) * 0.5f;
    y[i] = 1.0f - static_cast<float>(i % 7);
  }
  tk::Buffer xBuf = ctx.alloc(n * sizeof(float));
  tk::Buffer yBuf = ctx.alloc(n * sizeof(float));
  tk::Buffer outBuf = ctx.alloc(n * sizeof(float));
  xBuf.upload(x);
  yBuf.upload(y);
  outBuf.fill(0xFF);
  int64_t blocks = (n + 127) / 128;
  vadd.launch({blocks}, xBuf.as<float>(), yBuf.as<float>(), outBuf, n);
  ctx.sync();
  std::vector<float> out = outBuf.download<float>();
  for (int32_t i = 0; i < n; ++i)
    check(out[i] == x[i] + y[i],
          "vadd: out[" + std::to_string(i) + "] = " + std::to_string(out[i]) +
              ", expected " + std::to_string(x[i] + y[i]));
  std::printf("  vadd: %d elements correct\n", n);

  // Rejected arguments never reach the GPU.
  std::string message = errorOf(
      [&] { vadd.launch({blocks}, xBuf, yBuf, outBuf, 1.0f); });
  check(message == "kernel 'vadd': argument 4 'n' expects i32, got f32 (pass "
                   "an int32_t)",
        "unexpected message: " + message);
  message = errorOf(
      [&] { vadd.launch({blocks}, xBuf.as<float>() + 1, yBuf, outBuf, n); });
  check(message.find("is not 16-byte aligned") != std::string::npos,
        "unexpected message: " + message);

  // On a stream, timed with events; the C-style C API path is the same.
  tk::Stream stream(ctx);
  tk::Event start(ctx), stop(ctx);
  outBuf.fill(0);
  start.record(stream);
  vadd.launch({blocks}, stream, yBuf, xBuf, outBuf, n);
  stop.record(stream);
  stream.sync();
  std::printf("  vadd on a stream: %.3f ms (%.0f GB/s)\n",
              stop.elapsedMsSince(start),
              3.0 * n * sizeof(float) / (stop.elapsedMsSince(start) * 1e-3) /
                  1e9);
  check(outBuf.download<float>()[n - 1] == x[n - 1] + y[n - 1],
        "vadd on a stream: wrong result");

  // Launch overhead, back to back, tiny grid.
  const int launches = 2000;
  vadd.launch({1}, xBuf, yBuf, outBuf, 128);
  ctx.sync();
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < launches; ++i)
    vadd.launch({1}, xBuf, yBuf, outBuf, 128);
  ctx.sync();
  double us = std::chrono::duration<double, std::micro>(
                  std::chrono::steady_clock::now() - t0)
                  .count() /
              launches;
  std::printf("  launch overhead: %.2f us per launch (tiny kernel, back to "
              "back)\n",
              us);

  // More than 48 KiB of dynamic shared memory.
  tk::Kernel big = tk::Module::loadFromMemory(ctx, kBigSharedMetadata,
                                              kBigSharedPtx)
                       .kernel();
  tk::Buffer bigOut = ctx.alloc(128 * sizeof(int32_t));
  big.launch({1}, bigOut.as<int32_t>());
  ctx.sync();
  std::vector<int32_t> ids = bigOut.download<int32_t>();
  for (int i = 0; i < 128; ++i)
    check(ids[i] == i + 1, "big_smem: out[" + std::to_string(i) + "] = " +
                               std::to_string(ids[i]));
  std::printf("  100000 bytes of dynamic shared memory: ok\n");

  // A kernel that faults: the error comes back at sync, naming the kernel.
  // This poisons the context, so it is the last check. Under
  // compute-sanitizer the fault is the point, not a finding: skip it there.
  if (std::getenv("TK_SMOKE_SKIP_FAULT"))
    return;
  vadd.launch({blocks}, tk::DevicePtr(0x10), yBuf, outBuf, n);
  message = errorOf([&] { ctx.sync(); });
  std::printf("  fault reported as: %s\n", message.c_str());
  check(message.rfind("launch of kernel 'vadd' failed: CUDA_ERROR_", 0) == 0,
        "an illegal address was not reported as a failure of 'vadd': '" +
            message + "'");
}

} // namespace

int main() {
  try {
    run();
  } catch (const Failure &failure) {
    std::printf("FAIL runtime_smoke: %s\n", failure.message.c_str());
    return 1;
  } catch (const tk::Error &error) {
    std::printf("FAIL runtime_smoke: %s\n", error.what());
    return 1;
  }
  std::printf("PASS runtime_smoke\n");
  return 0;
}
