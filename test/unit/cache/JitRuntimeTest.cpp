//===- JitRuntimeTest.cpp - JIT-compiled kernels launched via libtkrt -----===//
//
// compile -> loadModule -> launch, on libtkrt's interpreter backend (this
// binary links TkInterpreterAutoRegister), first freshly compiled and then
// from the cache. Compiled with exceptions: libtkrt throws tk::Error.
//
//===----------------------------------------------------------------------===//
#include "compiler/driver/JitRuntime.h"
#include "compiler/driver/AutotuneRuntime.h"
#include "compiler/driver/KernelCache.h"
#include "test/unit/cache/TestCacheDir.h"

#include <gtest/gtest.h>

#include <map>
#include <vector>

using namespace tk;
using namespace tk::jit;

namespace {

const char *const kScaleSource = R"(
@kernel
def scale(x_ptr: *f32, out_ptr: *f32, n: i32, factor: f32, BLOCK: constexpr):
    offsets = program_id(0) * BLOCK + arange(0, BLOCK)
    mask = offsets < n
    store(out_ptr + offsets, load(x_ptr + offsets, mask=mask) * factor,
          mask=mask)
)";

// Config 2 fails to compile (static_assert), so the tuner must skip it.
const char *const kTunedSource = R"(
@autotune(configs=[Config(BLOCK=4), Config(BLOCK=2, num_warps=2),
                   Config(BLOCK=64)], key=["n"])
@kernel
def scale(x_ptr: *f32, out_ptr: *f32, n: i32, factor: f32, BLOCK: constexpr):
    static_assert(BLOCK <= 8, "BLOCK must be at most 8")
    offsets = program_id(0) * BLOCK + arange(0, BLOCK)
    mask = offsets < n
    store(out_ptr + offsets, load(x_ptr + offsets, mask=mask) * factor,
          mask=mask)
)";

class AutotuneTest : public ::testing::Test {
protected:
  AutotuneTest() : context(Context::createWithBackend("interpreter")) {
    KernelCacheConfig config;
    config.directory = root.path + "/cache";
    config.warningHandler = warnings.handler();
    cache = std::make_unique<KernelCache>(config);
    options.artifact = ArtifactKind::TkIr;
    options.cache = cache.get();
    input = context.alloc(8 * sizeof(float));
    output = context.alloc(8 * sizeof(float));
    std::vector<float> values = {1, 2, 3, 4, 5, 6, 7, 8};
    input.upload(values.data(), values.size() * sizeof(float));
  }
  /// Tunes for n, counting the launches of each BLOCK.
  llvm::Expected<TunedKernel> tune(int n, const char *source = kTunedSource) {
    return autotune(context, {"scale.tk", source}, "scale", options,
                    {std::to_string(n)},
                    [&](const Kernel &kernel, Stream &stream) {
                      int64_t block = constexprValue(kernel, "BLOCK", 1);
                      ++launches[block];
                      kernel.launch(Grid((n + block - 1) / block), stream,
                                    input, output, int32_t(n), 2.0f);
                    });
  }

  test::TemporaryDirectory root;
  test::WarningLog warnings;
  std::unique_ptr<KernelCache> cache;
  JitOptions options;
  Context context;
  Buffer input, output;
  std::map<int64_t, int> launches;
};

} // namespace

TEST_F(AutotuneTest, TimesEveryConfigOnceThenRemembers) {
  try {
    auto first = tune(6);
    ASSERT_TRUE(bool(first)) << llvm::toString(first.takeError());
    EXPECT_FALSE(first->fromRecord);
    EXPECT_LT(first->config, 2u); // config 2 cannot compile
    ASSERT_EQ(first->timesMs.size(), 3u);
    EXPECT_GE(first->timesMs[0], 0);
    EXPECT_GE(first->timesMs[1], 0);
    EXPECT_LT(first->timesMs[2], 0);
    EXPECT_EQ(launches[4], 6); // warmup 1 + repeats 5
    EXPECT_EQ(launches[2], 6);
    EXPECT_EQ(launches.count(64), 0u);
    EXPECT_EQ(first->compiled.autotuneKey, std::vector<std::string>{"n"});
    ASSERT_EQ(first->compiled.autotuneConfigs.size(), 3u);
    EXPECT_EQ(first->compiled.autotuneConfigs[1], "BLOCK=2, num_warps=2");

    // The winner computes the right thing.
    Kernel kernel = first->module.kernel();
    int64_t block = constexprValue(kernel, "BLOCK");
    kernel.launch(Grid((6 + block - 1) / block), input, output, int32_t(6),
                  0.5f);
    context.sync();
    std::vector<float> result(6);
    output.download(result.data(), result.size() * sizeof(float));
    EXPECT_EQ(result, (std::vector<float>{0.5, 1, 1.5, 2, 2.5, 3}));

    // Remembered: no launches the second time, in a new cache object too.
    launches.clear();
    KernelCacheConfig config;
    config.directory = root.path + "/cache";
    KernelCache another(config);
    options.cache = &another;
    auto second = tune(6);
    ASSERT_TRUE(bool(second)) << llvm::toString(second.takeError());
    EXPECT_TRUE(second->fromRecord);
    EXPECT_EQ(second->config, first->config);
    EXPECT_EQ(second->timesMs.size(), 3u);
    EXPECT_TRUE(second->compiled.fromCache);
    EXPECT_TRUE(launches.empty());

    // Another key value: timed anew.
    auto third = tune(7);
    ASSERT_TRUE(bool(third)) << llvm::toString(third.takeError());
    EXPECT_FALSE(third->fromRecord);
    EXPECT_EQ(launches[4], 6);
    EXPECT_TRUE(warnings.take().empty());
  } catch (const Error &error) {
    FAIL() << error.what();
  }
}

TEST_F(AutotuneTest, BadRecordIsIgnored) {
  try {
    auto key = computeAutotuneCacheKey({"scale.tk", kTunedSource}, "scale",
                                       options, {"6"});
    ASSERT_TRUE(bool(key)) << llvm::toString(key.takeError());
    // Well-formed for the cache, but naming a config that does not exist.
    ASSERT_TRUE(cache->store(*key, {{"autotune.json", "{\"config\": 9}"}}));
    auto tuned = tune(6);
    ASSERT_TRUE(bool(tuned)) << llvm::toString(tuned.takeError());
    EXPECT_FALSE(tuned->fromRecord);
    std::vector<std::string> lines = warnings.take();
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_NE(lines[0].find("names no config of the 3"), std::string::npos)
        << lines[0];
    // Replaced by the new result.
    launches.clear();
    auto again = tune(6);
    ASSERT_TRUE(bool(again)) << llvm::toString(again.takeError());
    EXPECT_TRUE(again->fromRecord);
    EXPECT_TRUE(launches.empty());
  } catch (const Error &error) {
    FAIL() << error.what();
  }
}

TEST_F(AutotuneTest, WrongNumberOfKeyValues) {
  auto tuned = autotune(context, {"scale.tk", kTunedSource}, "scale", options,
                        {}, [](const Kernel &, Stream &) {});
  ASSERT_FALSE(bool(tuned));
  EXPECT_EQ(llvm::toString(tuned.takeError()),
            "tk: error: kernel 'scale' is tuned on 1 key values (n), got 0");
}

TEST_F(AutotuneTest, KernelWithoutAutotune) {
  options.defines = {{"BLOCK", "4"}};
  auto tuned = tune(6, kScaleSource);
  ASSERT_TRUE(bool(tuned)) << llvm::toString(tuned.takeError());
  EXPECT_TRUE(tuned->timesMs.empty());
  EXPECT_TRUE(launches.empty());
  EXPECT_TRUE(tuned->compiled.autotuneConfigs.empty());
}

TEST_F(AutotuneTest, EveryConfigFails) {
  const char *source = R"(
@autotune(configs=[Config(BLOCK=64), Config(BLOCK=128)], key=["n"])
@kernel
def scale(x_ptr: *f32, out_ptr: *f32, n: i32, factor: f32, BLOCK: constexpr):
    static_assert(BLOCK <= 8, "BLOCK must be at most 8")
    store(out_ptr + arange(0, BLOCK), load(x_ptr + arange(0, BLOCK)))
)";
  auto tuned = tune(6, source);
  ASSERT_FALSE(bool(tuned));
  std::string message = llvm::toString(tuned.takeError());
  EXPECT_NE(message.find("tk: error: every @autotune config of kernel "
                         "'scale' failed:\n  config 0: "),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("BLOCK must be at most 8"), std::string::npos)
      << message;
}

TEST(JitRuntimeTest, LaunchFreshAndCached) {
  test::TemporaryDirectory root;
  KernelCacheConfig config;
  config.directory = root.path + "/cache";
  KernelCache cache(config);
  JitOptions options;
  options.defines = {{"BLOCK", "4"}};
  options.artifact = ArtifactKind::TkIr;
  options.cache = &cache;

  for (bool expectCached : {false, true}) {
    auto compiled = compile({"scale.tk", kScaleSource}, "scale", options);
    ASSERT_TRUE(bool(compiled)) << llvm::toString(compiled.takeError());
    EXPECT_EQ(compiled->fromCache, expectCached);
    try {
      Context context = Context::createWithBackend("interpreter");
      Module module = loadModule(context, *compiled);
      EXPECT_EQ(module.metadata().name, "scale");
      std::vector<float> input = {1, 2, 3, 4, 5, 6};
      std::vector<float> output(input.size(), 0);
      Buffer x = context.alloc(input.size() * sizeof(float));
      Buffer out = context.alloc(output.size() * sizeof(float));
      x.upload(input.data(), input.size() * sizeof(float));
      module.kernel().launch(Grid(2), x, out, int32_t(6), 0.5f);
      context.sync();
      out.download(output.data(), output.size() * sizeof(float));
      EXPECT_EQ(output, (std::vector<float>{0.5, 1, 1.5, 2, 2.5, 3}));
    } catch (const Error &error) {
      FAIL() << error.what();
    }
  }
}

TEST(JitRuntimeTest, BadMetadataIsATkError) {
  CompiledKernel broken;
  broken.origin = "broken.tk";
  broken.metadataJson = "{ not json";
  broken.artifact = ArtifactKind::TkIr;
  try {
    Context context = Context::createWithBackend("interpreter");
    loadModule(context, broken);
    FAIL() << "loaded broken metadata";
  } catch (const Error &error) {
    EXPECT_NE(std::string(error.what()).find("broken.tk"), std::string::npos)
        << error.what();
  }
}
