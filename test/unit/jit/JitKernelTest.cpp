//===- JitKernelTest.cpp - the launch-time JIT handle (tk/jit.h) ----------===//
//
// Through libtkrt's interpreter backend (no GPU): results, the
// specialization each launch selects (read back from the metadata of the
// kernel it compiled), do_not_specialize, grid functions, @autotune at the
// first launch (progress lines, TK_AUTOTUNE_QUIET, TK_AUTOTUNE=off, the
// remembered winner, failing configs), errors, and the cheap path: no
// allocation on a launch whose specialization exists (counted by this
// binary's operator new, over a backend whose launch does nothing).
//
//===----------------------------------------------------------------------===//
#include "tk/jit.h"

#include "test/unit/cache/TestCacheDir.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

using namespace tk;

//===----------------------------------------------------------------------===//
// Counting allocations of this thread.
//===----------------------------------------------------------------------===//

static thread_local size_t allocationCount = 0;

// These replace the global allocation functions (malloc/free underneath);
// GCC cannot see that new and delete here are a matching pair.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

// Every unaligned form is replaced, so that no allocation made by the
// runtime's own (or a sanitizer's) operator new is freed by this file's
// delete: std::stable_sort, for one, takes its buffer with the nothrow form.
static void *countedAllocation(size_t size) noexcept {
  ++allocationCount;
  return std::malloc(size ? size : 1);
}
void *operator new(size_t size) {
  if (void *p = countedAllocation(size))
    return p;
  throw std::bad_alloc();
}
void *operator new[](size_t size) { return operator new(size); }
void *operator new(size_t size, const std::nothrow_t &) noexcept {
  return countedAllocation(size);
}
void *operator new[](size_t size, const std::nothrow_t &) noexcept {
  return countedAllocation(size);
}
void operator delete(void *p) noexcept { std::free(p); }
void operator delete(void *p, size_t) noexcept { std::free(p); }
void operator delete[](void *p) noexcept { std::free(p); }
void operator delete[](void *p, size_t) noexcept { std::free(p); }
void operator delete(void *p, const std::nothrow_t &) noexcept {
  std::free(p);
}
void operator delete[](void *p, const std::nothrow_t &) noexcept {
  std::free(p);
}

namespace {

const char *const kScale = R"(
@kernel
def scale(x_ptr: *f32, out_ptr: *f32, n: i32, factor: f32, BLOCK: constexpr):
    offsets = program_id(0) * BLOCK + arange(0, BLOCK)
    mask = offsets < n
    store(out_ptr + offsets, load(x_ptr + offsets, mask=mask) * factor,
          mask=mask)
)";

const char *const kScaleNoSpec = R"(
@kernel(do_not_specialize=["n"])
def scale(x_ptr: *f32, out_ptr: *f32, n: i32, factor: f32, BLOCK: constexpr):
    offsets = program_id(0) * BLOCK + arange(0, BLOCK)
    mask = offsets < n
    store(out_ptr + offsets, load(x_ptr + offsets, mask=mask) * factor,
          mask=mask)
)";

// Config 3 fails to compile (static_assert): the tuner must skip it.
const char *const kTuned = R"(
@autotune(configs=[Config(BLOCK=4), Config(BLOCK=8, num_warps=2),
                   Config(BLOCK=64)], key=["n"])
@kernel
def scale(x_ptr: *f32, out_ptr: *f32, n: i32, factor: f32, BLOCK: constexpr):
    static_assert(BLOCK <= 8, "BLOCK must be at most 8")
    offsets = program_id(0) * BLOCK + arange(0, BLOCK)
    mask = offsets < n
    store(out_ptr + offsets, load(x_ptr + offsets, mask=mask) * factor,
          mask=mask)
)";

ArgSpec specOf(const tk::Kernel &kernel, const std::string &name) {
  const KernelArg *arg = kernel.metadata().findArg(name);
  EXPECT_TRUE(arg) << name;
  return arg ? arg->spec : ArgSpec::None;
}

/// Sets an environment variable for one scope.
class ScopedEnv {
public:
  ScopedEnv(const char *name, const char *value) : name(name) {
    if (const char *old = std::getenv(name))
      previous = old, hadValue = true;
    setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (hadValue)
      setenv(name, previous.c_str(), 1);
    else
      unsetenv(name);
  }

private:
  const char *name;
  std::string previous;
  bool hadValue = false;
};

class JitKernelTest : public ::testing::Test {
protected:
  JitKernelTest() : context(Context::createWithBackend("interpreter")) {
    options.cacheDir = root.path + "/cache";
    options.defines = {{"BLOCK", "8"}};
    input = context.alloc(64 * sizeof(float));
    output = context.alloc(64 * sizeof(float));
    std::vector<float> values(64);
    for (int i = 0; i < 64; ++i)
      values[i] = float(i + 1);
    input.upload(values);
  }
  std::vector<float> result(int n) {
    std::vector<float> all = output.download<float>();
    return std::vector<float>(all.begin(), all.begin() + n);
  }

  test::TemporaryDirectory root;
  jit::KernelOptions options;
  Context context;
  Buffer input, output;
};

} // namespace

TEST_F(JitKernelTest, LaunchComputesAndCachesSpecializations) {
  try {
    auto k = jit::Kernel::fromSource(context, kScale, "scale", options,
                                     "scale.tk");
    EXPECT_EQ(k.name(), "scale");
    ASSERT_EQ(k.params().size(), 4u);
    EXPECT_TRUE(k.params()[0].specialized);
    EXPECT_TRUE(k.params()[2].specialized);
    EXPECT_FALSE(k.params()[3].specialized); // floats never are
    EXPECT_EQ(k.specializationCount(), 0u);

    k.launch({2}, input.as<float>(), output.as<float>(), 10, 2.0f);
    context.sync();
    EXPECT_EQ(result(11), (std::vector<float>{2, 4, 6, 8, 10, 12, 14, 16, 18,
                                              20, 0}));
    EXPECT_EQ(k.specializationCount(), 1u);
    // Same specialization (n=10 is neither 1 nor a multiple of 16).
    k.launch({2}, input.as<float>(), output.as<float>(), 11, 1.0f);
    EXPECT_EQ(k.specializationCount(), 1u);
    // n = 16: div16.
    k.launch({2}, input.as<float>(), output.as<float>(), 16, 1.0f);
    EXPECT_EQ(k.specializationCount(), 2u);
    // n = 1: equals 1.
    k.launch({1}, input.as<float>(), output.as<float>(), 1, 3.0f);
    EXPECT_EQ(k.specializationCount(), 3u);
    EXPECT_EQ(result(2), (std::vector<float>{3, 2}));

    ArgValue args[] = {ArgValue::pointer(input.ptr()),
                       ArgValue::pointer(output.ptr()), ArgValue::anyInt(32),
                       ArgValue::f32(1)};
    tk::Kernel div16 = k.select({1}, nullptr, args, 4);
    EXPECT_EQ(specOf(div16, "x_ptr"), ArgSpec::Div16);
    EXPECT_EQ(specOf(div16, "n"), ArgSpec::Div16);
    args[2] = ArgValue::anyInt(1);
    EXPECT_EQ(specOf(k.select({1}, nullptr, args, 4), "n"), ArgSpec::One);
    args[2] = ArgValue::anyInt(7);
    EXPECT_EQ(specOf(k.select({1}, nullptr, args, 4), "n"), ArgSpec::None);
    // A pointer off the 16-byte grid: its own specialization.
    args[0] = ArgValue::pointer(input.ptr() + 4);
    tk::Kernel unaligned = k.select({1}, nullptr, args, 4);
    EXPECT_EQ(specOf(unaligned, "x_ptr"), ArgSpec::None);
    EXPECT_EQ(specOf(unaligned, "out_ptr"), ArgSpec::Div16);
    EXPECT_EQ(k.specializationCount(), 4u);
  } catch (const Error &error) {
    FAIL() << error.what();
  }
}

TEST_F(JitKernelTest, DoNotSpecialize) {
  try {
    auto k = jit::Kernel::fromSource(context, kScaleNoSpec, "", options);
    EXPECT_FALSE(k.params()[2].specialized);
    for (int n : {1, 16, 17, 32})
      k.launch({4}, input, output, n, 1.0f);
    EXPECT_EQ(k.specializationCount(), 1u);
    ArgValue args[] = {ArgValue::pointer(input.ptr()),
                       ArgValue::pointer(output.ptr()), ArgValue::anyInt(16),
                       ArgValue::f32(1)};
    EXPECT_EQ(specOf(k.select({1}, nullptr, args, 4), "n"), ArgSpec::None);

    // KernelOptions::specialize = false: nothing is.
    jit::KernelOptions plain = options;
    plain.specialize = false;
    auto all = jit::Kernel::fromSource(context, kScale, "", plain);
    all.launch({4}, input, output, 16, 1.0f);
    all.launch({4}, input.ptr() + 4, output, 1, 1.0f);
    EXPECT_EQ(all.specializationCount(), 1u);
  } catch (const Error &error) {
    FAIL() << error.what();
  }
}

TEST_F(JitKernelTest, GridFunctionSeesTheConstexprs) {
  try {
    options.defines = {{"BLOCK", "4"}};
    auto k = jit::Kernel::fromSource(context, kScale, "scale", options);
    Stream stream(context);
    int n = 10;
    int64_t seenBlock = 0;
    k.launch(
        [&](const jit::LaunchMeta &meta) {
          seenBlock = meta["BLOCK"];
          return Grid((n + meta["BLOCK"] - 1) / meta["BLOCK"]);
        },
        stream, input.as<float>(), output.as<float>(), n, 0.5f);
    stream.sync();
    EXPECT_EQ(seenBlock, 4);
    EXPECT_EQ(result(10), (std::vector<float>{0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4,
                                              4.5, 5}));
    EXPECT_THROW(k.launch([](const jit::LaunchMeta &meta) {
                   return Grid(meta["NOPE"]);
                 },
                          stream, input, output, n, 0.5f),
                 Error);
  } catch (const Error &error) {
    FAIL() << error.what();
  }
}

TEST_F(JitKernelTest, Errors) {
  // A syntax error at creation, with its position.
  try {
    jit::Kernel::fromSource(context, "@kernel\ndef k(x: *f32):\n    y = (\n",
                            "", options, "bad.tk");
    FAIL() << "no error";
  } catch (const Error &error) {
    EXPECT_NE(std::string(error.what()).find("bad.tk:"), std::string::npos)
        << error.what();
  }
  try {
    jit::Kernel::fromSource(context, kScale, "nope", options, "scale.tk");
    FAIL() << "no error";
  } catch (const Error &error) {
    EXPECT_NE(std::string(error.what()).find("has no kernel named 'nope' "
                                             "(kernels: scale)"),
              std::string::npos)
        << error.what();
  }
  auto k = jit::Kernel::fromSource(context, kScale, "scale", options);
  // Wrong count: before any compile.
  try {
    k.launch({1}, input, output, 3);
    FAIL() << "no error";
  } catch (const Error &error) {
    EXPECT_NE(std::string(error.what()).find("expects 4 arguments, got 3"),
              std::string::npos)
        << error.what();
  }
  EXPECT_EQ(k.specializationCount(), 0u);
  // libtkrt's checks still apply: a double for f32.
  try {
    k.launch({1}, input, output, 3, 2.0);
    FAIL() << "no error";
  } catch (const Error &error) {
    EXPECT_NE(std::string(error.what()).find("'factor' expects f32, got f64"),
              std::string::npos)
        << error.what();
  }
  // A compile error at the first launch names the .tk position.
  jit::KernelOptions missing = options;
  missing.defines.clear();
  auto noBlock = jit::Kernel::fromSource(context, kScale, "scale", missing,
                                         "scale.tk");
  try {
    noBlock.launch({1}, input, output, 3, 2.0f);
    FAIL() << "no error";
  } catch (const Error &error) {
    EXPECT_NE(std::string(error.what()).find("BLOCK"), std::string::npos)
        << error.what();
  }
}

TEST_F(JitKernelTest, AutotuneAtFirstLaunch) {
  ScopedEnv loud("TK_AUTOTUNE_QUIET", "0");
  try {
    options.defines.clear();
    options.autotuneRepeats = 2;
    options.autotuneWarmup = 1;
    auto k = jit::Kernel::fromSource(context, kTuned, "scale", options);
    EXPECT_EQ(k.autotuneKey(), std::vector<std::string>{"n"});
    auto grid = [&](int n) {
      return [n](const jit::LaunchMeta &meta) {
        return Grid((n + meta["BLOCK"] - 1) / meta["BLOCK"]);
      };
    };
    Stream stream(context);
    ::testing::internal::CaptureStderr();
    k.launch(grid(10), stream, input, output, 10, 2.0f);
    std::string progress = ::testing::internal::GetCapturedStderr();
    EXPECT_NE(progress.find("autotune scale[10]: config 1/3 "),
              std::string::npos)
        << progress;
    EXPECT_NE(progress.find("autotune scale[10]: config 2/3 "),
              std::string::npos)
        << progress;
    EXPECT_NE(progress.find("ms (best "), std::string::npos) << progress;
    EXPECT_NE(progress.find("config 3/3 failed: "), std::string::npos)
        << progress;
    EXPECT_NE(progress.find("BLOCK must be at most 8"), std::string::npos)
        << progress;
    EXPECT_NE(progress.find("wins"), std::string::npos) << progress;
    // The real launch after tuning computed the result.
    EXPECT_EQ(result(10), (std::vector<float>{2, 4, 6, 8, 10, 12, 14, 16, 18,
                                              20}));

    // Tuned once per key: n=11 has the same specialization bits but another
    // key value, so it tunes again; n=10 again does not.
    ::testing::internal::CaptureStderr();
    k.launch(grid(10), stream, input, output, 10, 2.0f);
    EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
    ::testing::internal::CaptureStderr();
    k.launch(grid(11), stream, input, output, 11, 2.0f);
    EXPECT_NE(::testing::internal::GetCapturedStderr().find("scale[11]"),
              std::string::npos);
    EXPECT_EQ(k.specializationCount(), 2u);

    // A new handle (a new process, as far as the cache can tell) finds the
    // remembered winner: no timing, no progress.
    auto again = jit::Kernel::fromSource(context, kTuned, "scale", options);
    ::testing::internal::CaptureStderr();
    again.launch(grid(10), stream, input, output, 10, 2.0f);
    EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");

    // Quiet, by option and by environment.
    options.cacheDir = root.path + "/other";
    options.quiet = true;
    auto quiet = jit::Kernel::fromSource(context, kTuned, "scale", options);
    ::testing::internal::CaptureStderr();
    quiet.launch(grid(12), stream, input, output, 12, 2.0f);
    EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
    options.quiet = false;
    {
      ScopedEnv env("TK_AUTOTUNE_QUIET", "1");
      auto viaEnv = jit::Kernel::fromSource(context, kTuned, "scale", options);
      ::testing::internal::CaptureStderr();
      viaEnv.launch(grid(13), stream, input, output, 13, 2.0f);
      EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
    }
  } catch (const Error &error) {
    FAIL() << error.what();
  }
}

TEST_F(JitKernelTest, AutotuneOffTakesTheFirstConfig) {
  ScopedEnv off("TK_AUTOTUNE", "off");
  try {
    options.defines.clear();
    auto k = jit::Kernel::fromSource(context, kTuned, "scale", options);
    int64_t block = 0;
    Stream stream(context);
    ::testing::internal::CaptureStderr();
    k.launch(
        [&](const jit::LaunchMeta &meta) {
          block = meta["BLOCK"];
          return Grid((10 + block - 1) / block);
        },
        stream, input, output, 10, 1.0f);
    EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
    EXPECT_EQ(block, 4);
  } catch (const Error &error) {
    FAIL() << error.what();
  }
}

TEST_F(JitKernelTest, EveryConfigFailing) {
  const char *source = R"(
@autotune(configs=[Config(BLOCK=3), Config(BLOCK=5)], key=["n"])
@kernel
def k(x_ptr: *f32, n: i32, BLOCK: constexpr):
    store(x_ptr + arange(0, BLOCK), 1.0)
)";
  options.defines.clear();
  options.quiet = true;
  auto k = jit::Kernel::fromSource(context, source, "k", options);
  try {
    k.launch({1}, input, 4);
    FAIL() << "no error";
  } catch (const Error &error) {
    std::string message = error.what();
    EXPECT_NE(message.find("every config failed"), std::string::npos)
        << message;
    EXPECT_NE(message.find("config 2:"), std::string::npos) << message;
  }
}

//===----------------------------------------------------------------------===//
// The cheap path
//===----------------------------------------------------------------------===//

namespace {

/// A backend that loads anything and whose launches do nothing, so that
/// the allocations counted are those of the JIT and libtkrt alone.
class NoopKernel final : public KernelImpl {
public:
  void launch(const Grid &, StreamImpl *, const std::vector<ArgValue> &args)
      override {
    lastArgCount = args.size();
  }
  size_t lastArgCount = 0;
};
class NoopModule final : public ModuleImpl {
public:
  KernelImpl &kernel() override { return impl; }
  NoopKernel impl;
};
class NoopBackend final : public Backend {
public:
  std::string name() const override { return "noop"; }
  DeviceInfo deviceInfo() const override {
    DeviceInfo info;
    info.computeMajor = 9;
    return info;
  }
  DevicePtr alloc(size_t bytes) override {
    void *memory = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
    return DevicePtr(reinterpret_cast<uintptr_t>(memory));
  }
  void free(DevicePtr ptr) noexcept override {
    std::free(reinterpret_cast<void *>(ptr.address));
  }
  void copyToDevice(DevicePtr, const void *, size_t) override {}
  void copyToHost(void *, DevicePtr, size_t) override {}
  void memset(DevicePtr, uint8_t, size_t) override {}
  std::unique_ptr<ModuleImpl> loadModule(const ModuleImage &) override {
    return std::make_unique<NoopModule>();
  }
  void sync() override {}
};

} // namespace

TEST_F(JitKernelTest, CheapPathAllocatesNothing) {
  try {
    registerBackend("noop", [] { return std::make_unique<NoopBackend>(); });
    Context noop = Context::createWithBackend("noop");
    // A GPU-like backend: the JIT compiles for the GPU (a cubin, or PTX
    // where ptxas is missing); the noop module ignores the binary.
    options.arch = "sm_80";
    auto k = jit::Kernel::fromSource(noop, kScale, "scale", options);
    Buffer x = noop.alloc(256), y = noop.alloc(256);
    Stream stream(noop);
    k.launch({4}, stream, x, y, 100, 2.0f); // compiles
    k.launch({4}, stream, x, y, 64, 2.0f);  // compiles (div16)
    k.launch({4}, stream, x, y, 100, 2.0f); // warm: this thread's buffers
    size_t before = allocationCount;
    for (int i = 0; i < 1000; ++i) {
      k.launch({4}, stream, x, y, 100 + (i % 2) * 28, 2.0f); // 100 / 128
      k.launch({4}, stream, x, y, 33, 1.5f);
    }
    EXPECT_EQ(allocationCount - before, 0u);
    EXPECT_EQ(k.specializationCount(), 2u);
    // The counter does count: a new specialization allocates.
    before = allocationCount;
    k.launch({4}, stream, x, y, 1, 2.0f);
    EXPECT_GT(allocationCount - before, 0u);
    unregisterBackend("noop");
  } catch (const Error &error) {
    FAIL() << error.what();
  }
}

TEST_F(JitKernelTest, AutotuneCompilesGpuConfigsInParallel) {
  // Four configs through the whole GPU pipeline (cubins, or PTX without
  // ptxas) on four threads at once: the compiler must be safe to run
  // concurrently, and every config must come out.
  const char *source = R"(
@autotune(configs=[Config(BLOCK=128), Config(BLOCK=256, num_warps=2),
                   Config(BLOCK=512, num_warps=8), Config(BLOCK=1024)],
          key=["n"])
@kernel
def scale(x_ptr: *f32, out_ptr: *f32, n: i32, factor: f32, BLOCK: constexpr):
    offsets = program_id(0) * BLOCK + arange(0, BLOCK)
    mask = offsets < n
    store(out_ptr + offsets, load(x_ptr + offsets, mask=mask) * factor,
          mask=mask)
)";
  ScopedEnv loud("TK_AUTOTUNE_QUIET", "0");
  try {
    registerBackend("noop", [] { return std::make_unique<NoopBackend>(); });
    Context noop = Context::createWithBackend("noop");
    options.defines.clear();
    options.arch = "sm_90a";
    options.compileThreads = 4;
    options.autotuneRepeats = 1;
    options.autotuneWarmup = 1;
    auto k = jit::Kernel::fromSource(noop, source, "scale", options);
    Buffer x = noop.alloc(4096), y = noop.alloc(4096);
    ::testing::internal::CaptureStderr();
    k.launch({1}, x, y, 1000, 2.0f);
    std::string progress = ::testing::internal::GetCapturedStderr();
    for (int config = 1; config <= 4; ++config)
      EXPECT_NE(progress.find("config " + std::to_string(config) + "/4 "),
                std::string::npos)
          << progress;
    EXPECT_EQ(progress.find("failed"), std::string::npos) << progress;
    EXPECT_NE(progress.find("4 configs compiled in"), std::string::npos)
        << progress;
    unregisterBackend("noop");
  } catch (const Error &error) {
    FAIL() << error.what();
  }
}
