//===- ArgCheckTest.cpp - Launch arguments checked against metadata -------===//
//
// Through the public API (Module::loadFromMemory + Kernel::launch) on a fake
// backend that records what a real backend would receive.
//
//===----------------------------------------------------------------------===//

#include "FakeBackend.h"

#include "tk/runtime.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>

using namespace tk;
using namespace tk::testing;

namespace {

const char *kSoftmaxArgs = R"([
  {"name": "out_ptr", "type": "*f32", "spec": "div16"},
  {"name": "in_ptr", "type": "*f32", "spec": "div16"},
  {"name": "in_stride", "type": "i32"},
  {"name": "out_stride", "type": "i32"},
  {"name": "n_cols", "type": "i32"},
  {"name": "scale", "type": "f32"}])";

class ArgCheckTest : public ::testing::Test {
protected:
  void SetUp() override {
    state = registerFakeBackend("fake");
    ctx.emplace(Context::createWithBackend("fake"));
  }
  void TearDown() override {
    ctx.reset();
    unregisterBackend("fake");
  }

  Kernel load(const std::string &name, const std::string &args,
              const std::string &extra = "") {
    return Module::loadFromMemory(*ctx, metadataJson(name, args, extra),
                                  "\x7f" "ELF")
        .kernel(name);
  }

  /// The message of the Error `f` throws, or "" if none.
  template <typename F> static std::string errorOf(F &&f) {
    try {
      f();
    } catch (const Error &e) {
      return e.what();
    }
    return "";
  }

  std::shared_ptr<FakeState> state;
  std::optional<Context> ctx;
};

TEST_F(ArgCheckTest, GoodLaunchReachesTheBackendNormalized) {
  Kernel k = load("softmax", kSoftmaxArgs);
  Buffer out = ctx->alloc(1024), in = ctx->alloc(1024);
  k.launch({7}, out, in.as<float>(), 256, int32_t(256), 100, 0.5f);
  ASSERT_EQ(state->launches.size(), 1u);
  const LaunchRecord &r = state->launches[0];
  EXPECT_EQ(r.kernel, "softmax");
  EXPECT_EQ(r.grid.x, 7);
  EXPECT_EQ(r.grid.y, 1);
  EXPECT_EQ(r.grid.z, 1);
  EXPECT_FALSE(r.onStream);
  ASSERT_EQ(r.args.size(), 6u);
  // Every value now has exactly the declared type.
  EXPECT_EQ(r.args[0].type, ArgType::pointerTo(ScalarKind::F32));
  EXPECT_TRUE(r.args[0].pointeeKnown);
  EXPECT_EQ(r.args[0].asPointer(), out.ptr());
  EXPECT_EQ(r.args[1].asPointer(), in.ptr());
  EXPECT_EQ(r.args[2].type, ArgType::value(ScalarKind::I32));
  EXPECT_FALSE(r.args[2].anyInteger);
  EXPECT_EQ(r.args[2].asSigned(), 256);
  EXPECT_EQ(r.args[4].asSigned(), 100);
  EXPECT_EQ(r.args[5].type, ArgType::value(ScalarKind::F32));
  EXPECT_EQ(r.args[5].asF32(), 0.5f);
  EXPECT_EQ(r.args[5].bits, 0x3F000000u);
}

TEST_F(ArgCheckTest, Count) {
  Kernel k = load("softmax", kSoftmaxArgs);
  Buffer out = ctx->alloc(64), in = ctx->alloc(64);
  EXPECT_EQ(errorOf([&] { k.launch({1}, out, in, 1, 1, 1); }),
            "kernel 'softmax' expects 6 arguments, got 5; its parameters are "
            "(out_ptr: *f32, in_ptr: *f32, in_stride: i32, out_stride: i32, "
            "n_cols: i32, scale: f32)");
  Kernel one = load("one", R"([{"name": "x", "type": "*f32"}])");
  EXPECT_EQ(errorOf([&] { one.launch({1}); }),
            "kernel 'one' expects 1 argument, got 0; its parameters are (x: "
            "*f32)");
  EXPECT_TRUE(state->launches.empty());
}

TEST_F(ArgCheckTest, TypeMismatches) {
  Kernel k = load("softmax", kSoftmaxArgs);
  Buffer out = ctx->alloc(64), in = ctx->alloc(64);
  EXPECT_EQ(errorOf([&] { k.launch({1}, out, in, 1.0f, 1, 1, 0.5f); }),
            "kernel 'softmax': argument 3 'in_stride' expects i32, got f32 "
            "(pass an int32_t)");
  EXPECT_EQ(errorOf([&] { k.launch({1}, out, in, int64_t(1), 1, 1, 0.5f); }),
            "kernel 'softmax': argument 3 'in_stride' expects i32, got i64 "
            "(pass an int32_t)");
  EXPECT_EQ(errorOf([&] { k.launch({1}, out, in, 1u, 1, 1, 0.5f); }),
            "kernel 'softmax': argument 3 'in_stride' expects i32, got u32 "
            "(pass an int32_t)");
  EXPECT_EQ(errorOf([&] { k.launch({1}, out, in, 1, 1, 1, 0.5); }),
            "kernel 'softmax': argument 6 'scale' expects f32, got f64 (pass "
            "a float, e.g. 1.0f)");
  EXPECT_EQ(errorOf([&] { k.launch({1}, out, in, 1, 1, 1, 1); }),
            "kernel 'softmax': argument 6 'scale' expects f32, got int (pass "
            "a float, e.g. 1.0f)");
  EXPECT_EQ(errorOf([&] { k.launch({1}, 5, in, 1, 1, 1, 0.5f); }),
            "kernel 'softmax': argument 1 'out_ptr' expects *f32, got int "
            "(pass a tk::DevicePtr, a tk::Buffer or a device pointer)");
  EXPECT_EQ(errorOf([&] { k.launch({1}, out, in, in, 1, 1, 0.5f); }),
            "kernel 'softmax': argument 3 'in_stride' expects i32, got a "
            "pointer (pass an int32_t)");
  EXPECT_EQ(errorOf([&] { k.launch({1}, out, in.as<half>(), 1, 1, 1, 0.5f); }),
            "kernel 'softmax': argument 2 'in_ptr' expects *f32, got *f16 "
            "(pass a tk::DevicePtr, a tk::Buffer or a device pointer)");
  EXPECT_EQ(errorOf([&] { k.launch({1}, out, in, 1, 1, 1, half(0.5f)); }),
            "kernel 'softmax': argument 6 'scale' expects f32, got f16 (pass "
            "a float, e.g. 1.0f)");
  EXPECT_TRUE(state->launches.empty());
}

TEST_F(ArgCheckTest, NullPointer) {
  Kernel k = load("softmax", kSoftmaxArgs);
  Buffer out = ctx->alloc(64);
  Buffer empty;
  EXPECT_EQ(errorOf([&] { k.launch({1}, out, empty, 1, 1, 1, 0.5f); }),
            "kernel 'softmax': argument 'in_ptr' is a null pointer");
  EXPECT_EQ(errorOf([&] {
              k.launch({1}, out, DevicePtr(), 1, 1, 1, 0.5f);
            }),
            "kernel 'softmax': argument 'in_ptr' is a null pointer");
  EXPECT_EQ(errorOf([&] {
              k.launch({1}, out, static_cast<float *>(nullptr), 1, 1, 1,
                       0.5f);
            }),
            "kernel 'softmax': argument 'in_ptr' is a null pointer");
}

TEST_F(ArgCheckTest, PointerAlignmentSpec) {
  Kernel add = load("add", R"([{"name": "x_ptr", "type": "*f32",
                               "spec": "div16"},
                              {"name": "y_ptr", "type": "*f32"}])");
  Buffer x = ctx->alloc(256);
  std::string expected = "kernel 'add': pointer argument 'x_ptr' is not "
                         "16-byte aligned but the kernel was compiled "
                         "assuming it (spec div16); its address is 0x";
  std::string message =
      errorOf([&] { add.launch({1}, x.as<float>() + 1, x); });
  EXPECT_EQ(message.substr(0, expected.size()), expected);
  char address[32];
  std::snprintf(address, sizeof(address), "%llx",
                static_cast<unsigned long long>(x.ptr().address + 4));
  EXPECT_EQ(message.substr(expected.size()), address);
  // Without the spec, any address is fine; with it, aligned ones are.
  add.launch({1}, x.as<float>() + 4, x.as<float>() + 1);
  EXPECT_EQ(state->launches.size(), 1u);
}

TEST_F(ArgCheckTest, IntegerSpecs) {
  Kernel k = load("k", R"([{"name": "n", "type": "i32", "spec": "one"},
                          {"name": "m", "type": "i64", "spec": "div16"},
                          {"name": "u", "type": "u32", "spec": "div16"}])");
  EXPECT_EQ(errorOf([&] { k.launch({1}, 3, int64_t(32), 16u); }),
            "kernel 'k': integer argument 'n' must equal 1 (compiled with "
            "spec one), got 3");
  EXPECT_EQ(errorOf([&] { k.launch({1}, 1, int64_t(100), 16u); }),
            "kernel 'k': integer argument 'm' must be divisible by 16 "
            "(compiled with spec div16), got 100");
  EXPECT_EQ(errorOf([&] { k.launch({1}, 1, -33, 16u); }),
            "kernel 'k': integer argument 'm' must be divisible by 16 "
            "(compiled with spec div16), got -33");
  EXPECT_EQ(errorOf([&] { k.launch({1}, 1, 32, 4294967295u); }),
            "kernel 'k': integer argument 'u' must be divisible by 16 "
            "(compiled with spec div16), got 4294967295");
  k.launch({1}, 1, -32, 0u);
  ASSERT_EQ(state->launches.size(), 1u);
  EXPECT_EQ(state->launches[0].args[1].asSigned(), -32);
}

TEST_F(ArgCheckTest, PlainIntFitsAnyIntegerType) {
  Kernel k = load("k", R"([{"name": "a", "type": "i64"},
                          {"name": "b", "type": "u8"},
                          {"name": "c", "type": "i16"},
                          {"name": "d", "type": "u64"},
                          {"name": "e", "type": "i1"}])");
  k.launch({1}, -5, 255, -32768, 7, 1);
  ASSERT_EQ(state->launches.size(), 1u);
  const auto &args = state->launches[0].args;
  EXPECT_EQ(args[0].type, ArgType::value(ScalarKind::I64));
  EXPECT_EQ(args[0].asSigned(), -5);
  EXPECT_EQ(args[1].type, ArgType::value(ScalarKind::U8));
  EXPECT_EQ(args[1].bits, 255u);
  EXPECT_EQ(args[2].asSigned(), -32768);
  EXPECT_EQ(args[3].asUnsigned(), 7u);
  EXPECT_EQ(args[4].bits, 1u);
  for (const ArgValue &a : args)
    EXPECT_FALSE(a.anyInteger);

  EXPECT_EQ(errorOf([&] { k.launch({1}, 0, 256, 0, 0, 0); }),
            "kernel 'k': argument 2 'b' expects u8, got int 256, which does "
            "not fit");
  EXPECT_EQ(errorOf([&] { k.launch({1}, 0, 0, 40000, 0, 0); }),
            "kernel 'k': argument 3 'c' expects i16, got int 40000, which "
            "does not fit");
  EXPECT_EQ(errorOf([&] { k.launch({1}, 0, 0, 0, -1, 0); }),
            "kernel 'k': argument 4 'd' expects u64, got int -1, which does "
            "not fit");
  EXPECT_EQ(errorOf([&] { k.launch({1}, 0, 0, 0, 0, 2); }),
            "kernel 'k': argument 5 'e' expects i1, got int 2, which does "
            "not fit");
  // Other C++ integer types must match exactly.
  EXPECT_EQ(errorOf([&] { k.launch({1}, 0, uint16_t(1), 0, 0, 0); }),
            "kernel 'k': argument 2 'b' expects u8, got u16 (pass a "
            "uint8_t)");
  EXPECT_EQ(errorOf([&] { k.launch({1}, 0, 0, 0, int64_t(1), 0); }),
            "kernel 'k': argument 4 'd' expects u64, got i64 (pass a "
            "uint64_t)");
  k.launch({1}, int64_t(1) << 40, uint8_t(9), int16_t(-1), size_t(12), true);
  EXPECT_EQ(state->launches.back().args[0].asSigned(), int64_t(1) << 40);
  EXPECT_EQ(state->launches.back().args[3].asUnsigned(), 12u);
}

TEST_F(ArgCheckTest, EveryScalarType) {
  Kernel k = load("all", R"([
      {"name": "a", "type": "i1"}, {"name": "b", "type": "i8"},
      {"name": "c", "type": "i16"}, {"name": "d", "type": "i32"},
      {"name": "e", "type": "i64"}, {"name": "f", "type": "u8"},
      {"name": "g", "type": "u16"}, {"name": "h", "type": "u32"},
      {"name": "i", "type": "u64"}, {"name": "j", "type": "f16"},
      {"name": "k", "type": "bf16"}, {"name": "l", "type": "f32"},
      {"name": "m", "type": "f64"}, {"name": "n", "type": "*i8"},
      {"name": "o", "type": "*u64"}, {"name": "p", "type": "*bf16"}])");
  Buffer buf = ctx->alloc(64);
  k.launch({2, 3, 4}, false, int8_t(-2), int16_t(-3), int32_t(-4),
           int64_t(-5), uint8_t(6), uint16_t(7), uint32_t(8), uint64_t(9),
           half(1.0f), bf16(2.0f), 3.0f, 4.0, buf.as<int8_t>(),
           reinterpret_cast<uint64_t *>(buf.ptr().address),
           reinterpret_cast<void *>(buf.ptr().address));
  ASSERT_EQ(state->launches.size(), 1u);
  const LaunchRecord &r = state->launches[0];
  EXPECT_EQ(r.grid.x, 2);
  EXPECT_EQ(r.grid.y, 3);
  EXPECT_EQ(r.grid.z, 4);
  const auto &a = r.args;
  EXPECT_EQ(a[0].bits, 0u);
  // Signed values are sign-extended, so the low bytes are the C value.
  EXPECT_EQ(a[1].bits, 0xFFFFFFFFFFFFFFFEull);
  EXPECT_EQ(a[2].asSigned(), -3);
  EXPECT_EQ(a[3].asSigned(), -4);
  EXPECT_EQ(a[4].asSigned(), -5);
  EXPECT_EQ(a[5].bits, 6u);
  EXPECT_EQ(a[8].bits, 9u);
  EXPECT_EQ(a[9].asBits16(), 0x3C00);
  EXPECT_EQ(a[10].asBits16(), 0x4000);
  EXPECT_EQ(a[11].asF32(), 3.0f);
  EXPECT_EQ(a[12].asF64(), 4.0);
  EXPECT_EQ(a[13].type, ArgType::pointerTo(ScalarKind::I8));
  EXPECT_EQ(a[15].type, ArgType::pointerTo(ScalarKind::BF16));
  EXPECT_EQ(a[15].asPointer(), buf.ptr());
  for (size_t i = 0; i < a.size(); ++i)
    EXPECT_EQ(a[i].type.paramByteSize(),
              std::vector<size_t>({1, 1, 2, 4, 8, 1, 2, 4, 8, 2, 2, 4, 8, 8, 8,
                                   8})[i]);
}

TEST_F(ArgCheckTest, PackedArgumentsAreCanonicalized) {
  Kernel k = load("k", R"([{"name": "a", "type": "i8"},
                          {"name": "b", "type": "u16"},
                          {"name": "c", "type": "i1"},
                          {"name": "p", "type": "*f16"}])");
  std::vector<ArgValue> args(4);
  args[0].type = ArgType::value(ScalarKind::I8);
  args[0].bits = 0x12345680; // Only the low byte counts: -128.
  args[1].type = ArgType::value(ScalarKind::U16);
  args[1].bits = 0xABCDFFFF;
  args[2].type = ArgType::value(ScalarKind::I1);
  args[2].bits = 0x100; // Low byte 0: false.
  args[3] = ArgValue::pointer(DevicePtr(0x1000));
  k.launchPacked(Grid(1), nullptr, args);
  const auto &a = state->launches.at(0).args;
  EXPECT_EQ(a[0].asSigned(), -128);
  EXPECT_EQ(a[1].bits, 0xFFFFu);
  EXPECT_EQ(a[2].bits, 0u);
  EXPECT_EQ(a[3].type, ArgType::pointerTo(ScalarKind::F16));
  EXPECT_TRUE(a[3].pointeeKnown);
  // checkArguments is usable on its own, e.g. by tools.
  EXPECT_EQ(checkArguments(k.metadata(), args)[0].asSigned(), -128);
}

// cluster_size: the cubin declares the cluster, so the backend launches as
// usual; a grid x that is not a multiple of it is refused before.
TEST_F(ArgCheckTest, ClusterGrid) {
  Kernel k = load("x", R"([{"name": "n", "type": "i32"}])",
                  R"(, "cluster_size": 2)");
  EXPECT_EQ(k.metadata().clusterSize, 2);
  EXPECT_EQ(errorOf([&] { k.launch({3}, 1); }),
            "kernel 'x' runs in thread-block clusters of 2 programs along x "
            "(cluster_size=); grid (3,1,1) has 3 along x, not a multiple of "
            "2");
  EXPECT_TRUE(state->launches.empty());
  k.launch({4, 3}, 1);
  ASSERT_EQ(state->launches.size(), 1u);
  // Without the field: any grid.
  load("y", R"([{"name": "n", "type": "i32"}])").launch({3}, 1);
  EXPECT_EQ(state->launches.size(), 2u);
}

TEST_F(ArgCheckTest, Grid) {
  Kernel k = load("x", R"([{"name": "n", "type": "i32"}])");
  EXPECT_EQ(errorOf([&] { k.launch({2147483648ll}, 1); }),
            "kernel 'x': grid (2147483648,1,1) exceeds the device limit "
            "(2147483647, 65535, 65535)");
  EXPECT_EQ(errorOf([&] { k.launch({1, 65536}, 1); }),
            "kernel 'x': grid (1,65536,1) exceeds the device limit "
            "(2147483647, 65535, 65535)");
  EXPECT_EQ(errorOf([&] { k.launch({-1}, 1); }),
            "kernel 'x': grid (-1,1,1) has a negative dimension");
  EXPECT_EQ(errorOf([&] { k.launch({~size_t(0)}, 1); }),
            "kernel 'x': grid (9223372036854775807,1,1) exceeds the device "
            "limit (2147483647, 65535, 65535)");
  // An empty grid launches nothing, but the arguments are still checked.
  k.launch({0}, 1);
  k.launch({size_t(5), 0, 3}, 1);
  EXPECT_TRUE(state->launches.empty());
  EXPECT_EQ(errorOf([&] { k.launch({0}, 1.0f); }),
            "kernel 'x': argument 1 'n' expects i32, got f32 (pass an "
            "int32_t)");
  k.launch({2147483647ll, 65535, 65535}, 1);
  EXPECT_EQ(state->launches.size(), 1u);
}

TEST_F(ArgCheckTest, KernelMustFitTheDevice) {
  std::string message = errorOf([&] {
    Module::loadFromMemory(
        *ctx,
        metadataJson("x", "[]").replace(
            metadataJson("x", "[]").find("4096"), 4, "300000"),
        "");
  });
  EXPECT_EQ(message, "kernel 'x' needs 300000 bytes of shared memory; the "
                     "device allows 232448");
  state->device.maxThreadsPerBlock = 64;
  Context small = Context::createWithBackend("fake");
  EXPECT_EQ(errorOf([&] {
              Module::loadFromMemory(small, metadataJson("x", "[]"), "");
            }),
            "kernel 'x' needs 128 threads per block (num_warps 4); the device "
            "allows 64");
  EXPECT_EQ(state->liveModules, 0);
}

TEST_F(ArgCheckTest, KernelNames) {
  Module m = Module::loadFromMemory(*ctx, metadataJson("softmax", "[]"), "");
  EXPECT_EQ(m.kernel().name(), "softmax");
  EXPECT_EQ(errorOf([&] { m.kernel("softmaxx"); }),
            "no kernel named 'softmaxx' in this module; it holds only "
            "'softmax'");
}

TEST_F(ArgCheckTest, Streams) {
  Kernel k = load("x", R"([{"name": "n", "type": "i32"}])");
  Stream stream(*ctx);
  k.launch({1}, stream, 5);
  ASSERT_EQ(state->launches.size(), 1u);
  EXPECT_TRUE(state->launches[0].onStream);
  stream.sync();

  auto otherState = registerFakeBackend("fake2");
  Context other = Context::createWithBackend("fake2");
  Stream foreign(other);
  EXPECT_EQ(errorOf([&] { k.launch({1}, foreign, 5); }),
            "kernel 'x': the stream belongs to a different context than the "
            "module");
  unregisterBackend("fake2");
}

TEST_F(ArgCheckTest, SyncErrorsPropagate) {
  state->syncFailure = "launch of kernel 'x' failed: boom";
  EXPECT_EQ(errorOf([&] { ctx->sync(); }),
            "launch of kernel 'x' failed: boom");
  ctx->sync();
}

TEST_F(ArgCheckTest, ModuleAndBuffersKeepTheBackendAlive) {
  std::optional<Kernel> k;
  std::optional<Buffer> b;
  {
    Context local = Context::createWithBackend("fake");
    k = Module::loadFromMemory(local, metadataJson("x", "[]"), "").kernel();
    b = local.alloc(16);
  }
  EXPECT_EQ(state->liveModules, 1);
  EXPECT_EQ(state->liveAllocations, 1);
  k->launch({1});
  EXPECT_EQ(state->launches.size(), 1u);
  k.reset();
  b.reset();
  EXPECT_EQ(state->liveModules, 0);
  EXPECT_EQ(state->liveAllocations, 0);
}

TEST_F(ArgCheckTest, Buffers) {
  Buffer b = ctx->alloc(16);
  EXPECT_EQ(b.size(), 16u);
  EXPECT_EQ(b.ptr().address % 256, 0u);
  std::vector<float> values = {1, 2, 3, 4};
  b.upload(values);
  EXPECT_EQ(b.download<float>(), values);
  float two[2];
  b.download(two, sizeof(two), 8);
  EXPECT_EQ(two[0], 3.0f);
  b.fill(0);
  EXPECT_EQ(b.download<float>(), std::vector<float>(4, 0.0f));
  EXPECT_EQ(errorOf([&] { b.upload(values.data(), 20); }),
            "upload of 20 bytes at offset 0 is out of bounds of a buffer of "
            "16 bytes");
  EXPECT_EQ(errorOf([&] { b.download(two, 8, 12); }),
            "download of 8 bytes at offset 12 is out of bounds of a buffer of "
            "16 bytes");
  EXPECT_EQ(errorOf([&] { b.download(two, 1, ~size_t(0)); }),
            "download of 1 bytes at offset 18446744073709551615 is out of "
            "bounds of a buffer of 16 bytes");

  Buffer moved = std::move(b);
  EXPECT_EQ(b.size(), 0u);
  EXPECT_FALSE(b.ptr());
  EXPECT_EQ(errorOf([&] { b.upload(values.data(), 4); }),
            "cannot upload an empty tk::Buffer");
  EXPECT_EQ(state->liveAllocations, 1);
  Buffer zero = ctx->alloc(0);
  EXPECT_TRUE(zero.ptr()); // Passable to a kernel that reads nothing.
  EXPECT_EQ(zero.size(), 0u);
  moved.reset();
  zero = Buffer();
  EXPECT_EQ(state->liveAllocations, 0);
}

TEST_F(ArgCheckTest, EventsOnTheDefaultHostClock) {
  Event start(*ctx), stop(*ctx);
  start.record();
  stop.record();
  EXPECT_GE(stop.elapsedMsSince(start), 0.0f);
}

class TempDir {
public:
  TempDir() {
    char pattern[] = "/tmp/tkrt-test-XXXXXX";
    path = ::mkdtemp(pattern);
  }
  ~TempDir() { std::system(("rm -rf '" + path + "'").c_str()); }
  void write(const std::string &name, const std::string &contents) const {
    std::FILE *f = std::fopen((path + "/" + name).c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::fwrite(contents.data(), 1, contents.size(), f);
    std::fclose(f);
  }
  std::string path;
};

TEST_F(ArgCheckTest, LoadFromFiles) {
  TempDir dir;
  dir.write("softmax.json", metadataJson("softmax", kSoftmaxArgs));
  dir.write("softmax.cubin", "\x7f" "ELF cubin bytes");

  Module byJson = Module::load(*ctx, dir.path + "/softmax.json");
  ASSERT_EQ(state->loadedImages.size(), 1u);
  const ModuleImage &image = state->loadedImages[0];
  EXPECT_EQ(image.directory, dir.path);
  EXPECT_EQ(image.origin, dir.path + "/softmax.json");
  EXPECT_FALSE(image.binaryData);
  EXPECT_EQ(image.binaryPath(), dir.path + "/softmax.cubin");
  EXPECT_EQ(image.readBinary(), "\x7f" "ELF cubin bytes");
  EXPECT_EQ(image.tkIrPath(), dir.path + "/");
  EXPECT_EQ(errorOf([&] { image.readTkIr(); }),
            "kernel 'softmax': " + dir.path +
                "/softmax.json names no tk IR file (field 'tk_ir'), which the "
                "CPU interpreter needs");

  // The binary's path works too: the .json beside it is used.
  Module byCubin = Module::load(*ctx, dir.path + "/softmax.cubin");
  EXPECT_EQ(byCubin.metadata().name, "softmax");
  EXPECT_EQ(state->loadedImages.back().origin, dir.path + "/softmax.json");

  EXPECT_EQ(errorOf([&] { Module::load(*ctx, dir.path + "/add.cubin"); }),
            "no metadata file '" + dir.path + "/add.json' beside '" +
                dir.path +
                "/add.cubin' (tkc writes NAME.json next to NAME.cubin or "
                "NAME.ptx)");
  EXPECT_EQ(errorOf([&] { Module::load(*ctx, dir.path + "/add.json"); }),
            "cannot read metadata file '" + dir.path +
                "/add.json': No such file or directory");

  // A metadata file naming a missing binary: the backend's read fails.
  dir.write("gone.json", metadataJson("gone", "[]"));
  Module gone = Module::load(*ctx, dir.path + "/gone.json");
  EXPECT_EQ(errorOf([&] { state->loadedImages.back().readBinary(); }),
            "cannot read kernel binary '" + dir.path +
                "/gone.cubin': No such file or directory");
}

TEST_F(ArgCheckTest, LoadFromMemoryKeepsTheBinary) {
  Module m = Module::loadFromMemory(*ctx, metadataJson("k", "[]"),
                                    std::string("a\0b", 3));
  ASSERT_EQ(state->loadedImages.size(), 1u);
  EXPECT_EQ(state->loadedImages[0].origin, "<memory>");
  EXPECT_EQ(state->loadedImages[0].readBinary(), std::string("a\0b", 3));
  EXPECT_EQ(errorOf([&] {
              Module::loadFromMemory(*ctx, "{\"name\": 1}", "");
            }),
            "<memory>: missing field 'tk_metadata_version'");
}

} // namespace
