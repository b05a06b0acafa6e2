//===- CudaBackendTest.cpp - The real CUDA backend on a mock driver -------===//
//
// This binary's RUNPATH names the folder of the mock libcuda.so.1
// (MockCudaDriver.cpp), so libtkrt's dlopen finds the mock: the CUDA backend
// runs for real, down to the bytes each kernel parameter is passed as.
//
//===----------------------------------------------------------------------===//

#include "MockCudaDriver.h"

#include "tk/runtime.h"
#include "tk/runtime_c.h"

#include <gtest/gtest.h>

#include <cstring>
#include <dlfcn.h>

using namespace tk;

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
  ret;
}
)";

std::string vaddMetadata(const std::string &arch = "sm_80",
                         const std::string &kind = "ptx",
                         const std::string &nType = "i32",
                         const std::string &extra = "") {
  return R"({"tk_metadata_version": 1, "name": "vadd", "arch": ")" + arch +
         R"(", "num_warps": 4, "shared_bytes": 0, "binary": "vadd.)" + kind +
         R"(", "binary_kind": ")" + kind + R"(", "args": [
           {"name": "x_ptr", "type": "*f32", "spec": "div16"},
           {"name": "y_ptr", "type": "*f32", "spec": "div16"},
           {"name": "out_ptr", "type": "*f32", "spec": "div16"},
           {"name": "n", "type": ")" +
         nType + R"("}])" + extra + "}";
}

template <typename F> std::string errorOf(F &&f) {
  try {
    f();
  } catch (const Error &e) {
    return e.what();
  }
  return "";
}

class CudaBackendTest : public ::testing::Test {
protected:
  void SetUp() override {
    // Context::create() in Auto mode obeys TK_INTERPRET; these tests are
    // about the GPU path whatever the caller's environment says.
    ::unsetenv("TK_INTERPRET");
    void *driver = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!driver) // Not loaded yet: create a context once to load it.
      Context::create(Mode::Gpu);
    driver = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    ASSERT_NE(driver, nullptr);
    auto stateFn = reinterpret_cast<mockcuda::State *(*)()>(
        ::dlsym(driver, "tkMockCudaState"));
    ASSERT_NE(stateFn, nullptr)
        << "libcuda.so.1 is not the mock: the test binary's RUNPATH is wrong";
    mock = stateFn();
    *mock = mockcuda::State();
  }
  void TearDown() override {
    if (!mock)
      return; // SetUp failed (and said why).
    EXPECT_EQ(mock->contextRetains, 0);
    EXPECT_EQ(mock->loadedModules, 0);
    EXPECT_TRUE(mock->allocations.empty());
    EXPECT_EQ(mock->liveStreams, 0);
    EXPECT_EQ(mock->liveEvents, 0);
    *mock = mockcuda::State();
  }

  mockcuda::State *mock = nullptr;
};

TEST_F(CudaBackendTest, ContextQueriesTheDevice) {
  Context ctx = Context::create();
  EXPECT_EQ(ctx.backendName(), "cuda");
  EXPECT_FALSE(ctx.isInterpreter());
  const DeviceInfo &d = ctx.deviceInfo();
  EXPECT_EQ(d.name, "Mock GPU");
  EXPECT_EQ(d.computeMajor, 9);
  EXPECT_EQ(d.computeMinor, 0);
  EXPECT_EQ(d.maxGrid[0], 2147483647);
  EXPECT_EQ(d.maxGrid[1], 65535);
  EXPECT_EQ(d.maxSharedBytesPerBlock, 232448u);
  EXPECT_EQ(d.maxThreadsPerBlock, 1024);
  EXPECT_EQ(d.multiprocessorCount, 132);
  EXPECT_EQ(mock->contextRetains, 1);
}

TEST_F(CudaBackendTest, NoDevice) {
  mock->deviceCount = 0;
  EXPECT_EQ(errorOf([] { Context::create(Mode::Gpu); }),
            "no CUDA device found (the driver reports 0 devices)");
  EXPECT_EQ(errorOf([] { Context::create(); }),
            "no GPU found (no CUDA device found (the driver reports 0 "
            "devices)) and the CPU interpreter is not linked");
}

TEST_F(CudaBackendTest, VaddRunsWithParametersPackedExactly) {
  Context ctx = Context::create(Mode::Gpu);
  Kernel vadd = Module::loadFromMemory(ctx, vaddMetadata(), kVaddPtx).kernel();
  const int n = 1000;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = i * 0.5f;
    y[i] = 3.0f - i;
  }
  Buffer xb = ctx.alloc(n * 4), yb = ctx.alloc(n * 4), out = ctx.alloc(n * 4);
  xb.upload(x);
  yb.upload(y);
  out.fill(0);
  vadd.launch({(n + 127) / 128}, xb, yb.as<float>(), out, n);
  ctx.sync();
  std::vector<float> result = out.download<float>();
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(result[i], x[i] + y[i]) << i;

  ASSERT_EQ(mock->launches.size(), 1u);
  const mockcuda::Launch &l = mock->launches[0];
  EXPECT_EQ(l.kernel, "vadd");
  EXPECT_EQ(l.grid[0], 8u);
  EXPECT_EQ(l.grid[1], 1u);
  EXPECT_EQ(l.block[0], 128u); // num_warps * 32
  EXPECT_EQ(l.block[1], 1u);
  EXPECT_EQ(l.sharedBytes, 0u);
  EXPECT_FALSE(l.onStream);
  ASSERT_EQ(l.params.size(), 4u);
  uint64_t address;
  std::memcpy(&address, l.params[0].data(), 8);
  EXPECT_EQ(address, xb.ptr().address);
  ASSERT_EQ(l.params[3].size(), 4u);
  int32_t count;
  std::memcpy(&count, l.params[3].data(), 4);
  EXPECT_EQ(count, n);
}

TEST_F(CudaBackendTest, ContextsOnSeveralDevices) {
  mock->deviceCount = 2;
  Context first = Context::create(Mode::Gpu);
  Context second = Context::create(Mode::Gpu, 1);
  EXPECT_EQ(first.deviceOrdinal(), 0);
  EXPECT_EQ(second.deviceOrdinal(), 1);
  EXPECT_EQ(mock->contextRetains, 2);
  EXPECT_EQ(errorOf([] { Context::create(Mode::Gpu, 2); }),
            "there is no CUDA device 2 (the driver reports 2 devices)");
  EXPECT_EQ(errorOf([] { Context::create(Mode::Gpu, -1); }),
            "there is no CUDA device -1 (the driver reports 2 devices)");

  Kernel onFirst =
      Module::loadFromMemory(first, vaddMetadata(), kVaddPtx).kernel();
  Kernel onSecond =
      Module::loadFromMemory(second, vaddMetadata(), kVaddPtx).kernel();
  Buffer x = second.alloc(64 * 4), y = first.alloc(64 * 4);
  x.fill(0);
  y.fill(0);
  // The caller (PyTorch, say) has device 0 current: a launch on device 1
  // runs in device 1's context and gives device 0's back.
  mock->currentContext = 1;
  onSecond.launch({1}, x, x, x, 64);
  EXPECT_EQ(mock->currentContext, 1u);
  onFirst.launch({1}, y, y, y, 64);
  ASSERT_EQ(mock->launches.size(), 2u);
  EXPECT_EQ(mock->launches[0].device, 1);
  EXPECT_EQ(mock->launches[1].device, 0);
  // With the context already current, nothing is switched.
  int switches = mock->contextSwitches;
  onFirst.launch({1}, y, y, y, 64);
  EXPECT_EQ(mock->contextSwitches, switches);
  // With none current, the launch's context stays current.
  mock->currentContext = 0;
  onSecond.launch({1}, x, x, x, 64);
  EXPECT_EQ(mock->currentContext, 2u);

  tkrt_context *c = nullptr;
  EXPECT_EQ(tkrt_context_create_on_device(TKRT_MODE_GPU, 3, &c), TKRT_ERROR);
  EXPECT_EQ(c, nullptr);
  EXPECT_STREQ(tkrt_last_error(),
               "there is no CUDA device 3 (the driver reports 2 devices)");
  ASSERT_EQ(tkrt_context_create_on_device(TKRT_MODE_GPU, 1, &c), TKRT_OK);
  tkrt_context_destroy(c);
}

TEST_F(CudaBackendTest, ParametersOfEveryWidth) {
  const char *ptx = R"(.entry widths(.param .u8 a, .param .u16 b,
      .param .f32 c, .param .f64 d, .param .u64 e, .param .b16 f) { ret; })";
  std::string metadata = R"({"tk_metadata_version": 1, "name": "widths",
      "arch": "sm_80", "num_warps": 1, "shared_bytes": 0,
      "binary": "w.ptx", "binary_kind": "ptx", "args": [
      {"name": "a", "type": "i1"}, {"name": "b", "type": "i16"},
      {"name": "c", "type": "f32"}, {"name": "d", "type": "f64"},
      {"name": "e", "type": "u64"}, {"name": "f", "type": "bf16"}]})";
  Context ctx = Context::create(Mode::Gpu);
  Kernel k = Module::loadFromMemory(ctx, metadata, ptx).kernel();
  k.launch({1}, true, int16_t(-2), 1.5f, -2.25, uint64_t(1) << 63, bf16(1.0f));
  ASSERT_EQ(mock->launches.size(), 1u);
  const auto &p = mock->launches[0].params;
  EXPECT_EQ(p[0], std::vector<uint8_t>({1}));
  EXPECT_EQ(p[1], std::vector<uint8_t>({0xFE, 0xFF}));
  float c;
  std::memcpy(&c, p[2].data(), 4);
  EXPECT_EQ(c, 1.5f);
  double d;
  std::memcpy(&d, p[3].data(), 8);
  EXPECT_EQ(d, -2.25);
  EXPECT_EQ(p[4], std::vector<uint8_t>({0, 0, 0, 0, 0, 0, 0, 0x80}));
  EXPECT_EQ(p[5], std::vector<uint8_t>({0x80, 0x3F}));
  EXPECT_EQ(mock->launches[0].block[0], 32u);
}

TEST_F(CudaBackendTest, ArchitectureChecks) {
  Context ctx = Context::create(Mode::Gpu);
  std::string cubin = std::string("\x7f" "ELF") + kVaddPtx;
  // A plain sm_80 cubin does not run on sm_90; sm_80 PTX does (JIT).
  EXPECT_EQ(errorOf([&] {
              Module::loadFromMemory(ctx, vaddMetadata("sm_80", "cubin"),
                                     cubin);
            }),
            "kernel 'vadd': cubin was built for sm_80 but the device is sm_90 "
            "(a cubin runs only on devices of the same major compute "
            "capability 8.x; compile for sm_90 or ship PTX)");
  Module::loadFromMemory(ctx, vaddMetadata("sm_90a", "cubin"), cubin);
  Module::loadFromMemory(ctx, vaddMetadata("sm_80", "ptx"), kVaddPtx);

  mock->ccMajor = 8;
  Context a100 = Context::create(Mode::Gpu);
  EXPECT_EQ(errorOf([&] {
              Module::loadFromMemory(a100, vaddMetadata("sm_90a", "cubin"),
                                     cubin);
            }),
            "kernel 'vadd': cubin was built for sm_90a but the device is "
            "sm_80 (sm_90a code runs only on compute capability 9.0)");
}

TEST_F(CudaBackendTest, BinaryKindAndLoadErrors) {
  Context ctx = Context::create(Mode::Gpu);
  EXPECT_EQ(errorOf([&] {
              Module::loadFromMemory(ctx, vaddMetadata("sm_90a", "cubin"),
                                     kVaddPtx);
            }),
            "kernel 'vadd': the in-memory binary is not a cubin (no ELF or "
            "fatbin header), but the metadata says binary_kind cubin");
  EXPECT_EQ(errorOf([&] {
              Module::loadFromMemory(ctx, vaddMetadata(),
                                     std::string("\x7f" "ELF") + kVaddPtx);
            }),
            "kernel 'vadd': the in-memory binary is a cubin, but the metadata "
            "says binary_kind ptx");
  EXPECT_EQ(errorOf([&] {
              Module::loadFromMemory(ctx, vaddMetadata(),
                                     "SYNTAX_ERROR .entry vadd()");
            }),
            "kernel 'vadd': loading PTX the in-memory binary failed: "
            "CUDA_ERROR_INVALID_PTX (a PTX JIT compilation failed)\n"
            "ptxas application ptx input, line 3; error   : syntax error");
  EXPECT_EQ(errorOf([&] {
              Module::loadFromMemory(ctx, vaddMetadata(),
                                     ".entry other(.param .u64 x) {}");
            }),
            "kernel 'vadd': the in-memory binary has no kernel named 'vadd'");
  EXPECT_EQ(errorOf([&] {
              Module::loadFromMemory(ctx, vaddMetadata("sm_80", "ptx", "i64"),
                                     kVaddPtx);
            }),
            "kernel 'vadd': the metadata says parameter 4 ('n') is i64 (8 "
            "bytes), but in the in-memory binary it is 4 bytes");
  EXPECT_EQ(errorOf([&] {
              Module::loadFromMemory(
                  ctx, vaddMetadata(),
                  ".entry vadd(.param .u64 a, .param .u64 b, .param .u64 c, "
                  ".param .u32 n, .param .u32 extra) {}");
            }),
            "kernel 'vadd': the metadata lists 4 parameters, but the "
            "in-memory binary has 5");
  EXPECT_EQ(errorOf([&] {
              Module::loadFromMemory(
                  ctx, vaddMetadata(),
                  ".entry vadd(.param .u64 a, .param .u64 b, .param .u64 c, "
                  ".param .u32 n) .maxntid 64 {}");
            }),
            "kernel 'vadd': num_warps 4 needs 128 threads per block, but the "
            "kernel uses 32 registers per thread, so the device runs at most "
            "64");
  EXPECT_EQ(mock->loadedModules, 0); // Failed loads unloaded what they had.
}

TEST_F(CudaBackendTest, LoadFromFiles) {
  char pattern[] = "/tmp/tkrt-cuda-test-XXXXXX";
  std::string dir = ::mkdtemp(pattern);
  auto write = [&](const std::string &name, const std::string &text) {
    std::FILE *f = std::fopen((dir + "/" + name).c_str(), "wb");
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
  };
  write("vadd.json", vaddMetadata());
  write("vadd.ptx", kVaddPtx);
  Context ctx = Context::create(Mode::Gpu);
  Kernel k = Module::load(ctx, dir + "/vadd.ptx").kernel("vadd");
  EXPECT_EQ(k.metadata().binaryKind, BinaryKind::Ptx);
  std::remove((dir + "/vadd.ptx").c_str());
  EXPECT_EQ(errorOf([&] { Module::load(ctx, dir + "/vadd.json"); }),
            "cannot read kernel binary '" + dir +
                "/vadd.ptx': No such file or directory");
  std::remove((dir + "/vadd.json").c_str());
  ::rmdir(dir.c_str());
}

TEST_F(CudaBackendTest, LargeDynamicSharedMemory) {
  Context ctx = Context::create(Mode::Gpu);
  const char *ptx = ".entry big(.param .u64 out) {}";
  auto metadata = [](int shared) {
    return R"({"tk_metadata_version": 1, "name": "big", "arch": "sm_90a",
        "num_warps": 8, "shared_bytes": )" +
           std::to_string(shared) +
           R"(, "binary": "big.ptx", "binary_kind": "ptx",
        "args": [{"name": "out", "type": "*i32"}]})";
  };
  Buffer out = ctx.alloc(64);
  Kernel small = Module::loadFromMemory(ctx, metadata(40000), ptx).kernel();
  EXPECT_EQ(mock->lastMaxDynamicShared, -1); // Under 48 KiB: not needed.
  Kernel big = Module::loadFromMemory(ctx, metadata(200000), ptx).kernel();
  EXPECT_EQ(mock->lastMaxDynamicShared, 200000);
  big.launch({3, 2}, out.as<int32_t>());
  ASSERT_EQ(mock->launches.size(), 1u);
  EXPECT_EQ(mock->launches[0].sharedBytes, 200000u);
  EXPECT_EQ(mock->launches[0].block[0], 256u);
  EXPECT_EQ(mock->launches[0].grid[1], 2u);
  EXPECT_EQ(errorOf([&] {
              Module::loadFromMemory(ctx, metadata(300000), ptx);
            }),
            "kernel 'big' needs 300000 bytes of shared memory; the device "
            "allows 232448");
}

TEST_F(CudaBackendTest, KernelFaultSurfacesAtSync) {
  Context ctx = Context::create(Mode::Gpu);
  Kernel vadd = Module::loadFromMemory(ctx, vaddMetadata(), kVaddPtx).kernel();
  Buffer good = ctx.alloc(64);
  // Launching succeeds (faults are asynchronous) ...
  vadd.launch({1}, DevicePtr(0x10), good, good, 16);
  // ... and the next synchronizing call reports it, naming the kernel.
  EXPECT_EQ(errorOf([&] { ctx.sync(); }),
            "launch of kernel 'vadd' failed: CUDA_ERROR_ILLEGAL_ADDRESS (an "
            "illegal memory access was encountered) (reported by context "
            "synchronize; 'vadd' is the last kernel launched; the CUDA context "
            "is now unusable)");
  float host[4];
  EXPECT_EQ(errorOf([&] { good.download(host, sizeof(host)); }),
            "copying 16 bytes to the host failed: CUDA_ERROR_ILLEGAL_ADDRESS "
            "(an illegal memory access was encountered); this error comes "
            "from a kernel that ran earlier, most likely 'vadd' (the last one "
            "launched); the CUDA context is now unusable");
  Stream stream(ctx);
  EXPECT_EQ(errorOf([&] { stream.sync(); }),
            "launch of kernel 'vadd' failed: CUDA_ERROR_ILLEGAL_ADDRESS (an "
            "illegal memory access was encountered) (reported by stream "
            "synchronize; 'vadd' is the last kernel launched; the CUDA context "
            "is now unusable)");
  EXPECT_EQ(errorOf([&] { vadd.launch({1}, good, good, good, 16); }),
            "launch of kernel 'vadd' failed: CUDA_ERROR_ILLEGAL_ADDRESS (an "
            "illegal memory access was encountered); this error comes from a "
            "kernel that ran earlier, most likely 'vadd' (the last one "
            "launched); the CUDA context is now unusable");
}

TEST_F(CudaBackendTest, LaunchErrors) {
  Context ctx = Context::create(Mode::Gpu);
  Kernel vadd = Module::loadFromMemory(ctx, vaddMetadata(), kVaddPtx).kernel();
  Buffer b = ctx.alloc(64);
  mock->failNextLaunch = CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
  EXPECT_EQ(errorOf([&] { vadd.launch({5, 2}, b, b, b, 16); }),
            "launch of kernel 'vadd' failed: "
            "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES (too many resources requested "
            "for launch) (grid (5,2,1), 128 threads per block, 0 bytes of "
            "dynamic shared memory)");
  ctx.sync(); // Not sticky: the context is fine.
  vadd.launch({1}, b, b, b, 16);
  EXPECT_EQ(mock->launches.size(), 1u);
}

TEST_F(CudaBackendTest, MemoryErrors) {
  Context ctx = Context::create(Mode::Gpu);
  EXPECT_EQ(errorOf([&] { ctx.alloc(size_t(1) << 40); }),
            "allocating 1099511627776 bytes of GPU memory failed: "
            "CUDA_ERROR_OUT_OF_MEMORY (out of memory)");
  Buffer zero = ctx.alloc(0);
  EXPECT_TRUE(zero.ptr());
}

TEST_F(CudaBackendTest, StreamsAndEvents) {
  Context ctx = Context::create(Mode::Gpu);
  Kernel vadd = Module::loadFromMemory(ctx, vaddMetadata(), kVaddPtx).kernel();
  Buffer b = ctx.alloc(64);
  {
    Stream stream = ctx.createStream();
    EXPECT_NE(stream.nativeHandle(), nullptr);
    Event start = ctx.createEvent(), stop = ctx.createEvent();
    start.record(stream);
    vadd.launch({1}, stream, b, b, b, 16);
    stop.record(stream);
    stream.sync();
    EXPECT_EQ(stop.elapsedMsSince(start), 0.5f);
    EXPECT_TRUE(mock->launches.at(0).onStream);
    EXPECT_EQ(mock->liveStreams, 1);
    EXPECT_EQ(mock->liveEvents, 2);
  }
  EXPECT_EQ(mock->liveStreams, 0);
  EXPECT_EQ(mock->liveEvents, 0);
}

TEST_F(CudaBackendTest, CApiOnTheGpuBackend) {
  tkrt_context *ctx = nullptr;
  ASSERT_EQ(tkrt_context_create(TKRT_MODE_GPU, &ctx), TKRT_OK);
  EXPECT_STREQ(tkrt_context_backend_name(ctx), "cuda");
  std::string metadata = vaddMetadata();
  tkrt_module *module = nullptr;
  ASSERT_EQ(tkrt_module_load_from_memory(ctx, metadata.data(),
                                         metadata.size(), kVaddPtx,
                                         std::strlen(kVaddPtx), &module),
            TKRT_OK)
      << tkrt_last_error();
  tkrt_kernel *kernel = nullptr;
  ASSERT_EQ(tkrt_module_get_kernel(module, "vadd", &kernel), TKRT_OK);
  tkrt_buffer *x = nullptr, *out = nullptr;
  ASSERT_EQ(tkrt_alloc(ctx, 16, &x), TKRT_OK);
  ASSERT_EQ(tkrt_alloc(ctx, 16, &out), TKRT_OK);
  const float ones[4] = {1, 1, 1, 1};
  ASSERT_EQ(tkrt_upload(x, ones, sizeof(ones)), TKRT_OK);
  tkrt_arg args[4];
  args[0].type = args[1].type = args[2].type = TKRT_ARG_PTR;
  args[0].value.ptr = args[1].value.ptr = tkrt_buffer_ptr(x);
  args[2].value.ptr = tkrt_buffer_ptr(out);
  args[3].type = TKRT_ARG_I32;
  args[3].value.i64 = 4;
  ASSERT_EQ(tkrt_launch(kernel, 1, 1, 1, nullptr, args, 4), TKRT_OK)
      << tkrt_last_error();
  ASSERT_EQ(tkrt_sync(ctx), TKRT_OK);
  float result[4];
  ASSERT_EQ(tkrt_download(out, result, sizeof(result)), TKRT_OK);
  EXPECT_EQ(result[3], 2.0f);
  tkrt_free(x);
  tkrt_free(out);
  tkrt_kernel_destroy(kernel);
  tkrt_module_destroy(module);
  tkrt_context_destroy(ctx);
}

} // namespace

// A kernel with a tensor map: each launch encodes it from the arguments
// (innermost dimension first, byte strides, zero fill) and passes the
// 128-byte CUtensorMap after the kernel's own parameters.
TEST_F(CudaBackendTest, TensorMapsAreEncodedAtLaunch) {
  const char *ptx = R"(.version 8.0
.target sm_90a
.address_size 64
.visible .entry tma_copy(.param .u64 a_ptr, .param .u32 M, .param .u32 K,
    .param .align 64 .b8 tensor_map_0[128]) { ret; })";
  std::string metadata = R"({"tk_metadata_version": 2, "name": "tma_copy",
      "arch": "sm_90a", "num_warps": 4, "shared_bytes": 0,
      "binary": "t.ptx", "binary_kind": "ptx", "args": [
      {"name": "a_ptr", "type": "*f16"}, {"name": "M", "type": "i32"},
      {"name": "K", "type": "i32"}],
      "tensor_maps": [{"base": "a_ptr", "dtype": "f16", "shape": ["M", "K"],
                       "strides": ["K", 1], "block": [128, 64],
                       "swizzle": 128}]})";
  Context ctx = Context::create(Mode::Gpu);
  Kernel k = Module::loadFromMemory(ctx, metadata, ptx).kernel();
  Buffer a = ctx.alloc(1000 * 520 * 2);
  k.launch({8}, a.ptr(), int32_t(1000), int32_t(520));
  ASSERT_EQ(mock->tensorMapCalls.size(), 1u);
  const mockcuda::TensorMapCall &call = mock->tensorMapCalls[0];
  EXPECT_EQ(call.dataType, CU_TENSOR_MAP_DATA_TYPE_FLOAT16);
  EXPECT_EQ(call.rank, 2u);
  EXPECT_EQ(call.address, a.ptr().address);
  EXPECT_EQ(call.dims, (std::vector<uint64_t>{520, 1000}));
  EXPECT_EQ(call.strides, (std::vector<uint64_t>{1040}));
  EXPECT_EQ(call.box, (std::vector<unsigned>{64, 128}));
  EXPECT_EQ(call.elementStrides, (std::vector<unsigned>{1, 1}));
  EXPECT_EQ(call.interleave, CU_TENSOR_MAP_INTERLEAVE_NONE);
  EXPECT_EQ(call.swizzle, CU_TENSOR_MAP_SWIZZLE_128B);
  EXPECT_EQ(call.l2Promotion, CU_TENSOR_MAP_L2_PROMOTION_L2_128B);
  EXPECT_EQ(call.oobFill, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  ASSERT_EQ(mock->launches.size(), 1u);
  const auto &params = mock->launches[0].params;
  ASSERT_EQ(params.size(), 4u);
  ASSERT_EQ(params[3].size(), 128u);
  EXPECT_EQ(params[3][0], 1); // the mock's first encoding
  uint64_t encodedAddress;
  std::memcpy(&encodedAddress, params[3].data() + 8, 8);
  EXPECT_EQ(encodedAddress, a.ptr().address);

  // A stride TMA cannot use fails before the driver sees the launch.
  EXPECT_EQ(errorOf([&] { k.launch({8}, a.ptr(), int32_t(1000), int32_t(52)); }),
            "kernel 'tma_copy': tensor map 1 (base 'a_ptr'): stride 0 ('K') "
            "is 52 elements = 104 bytes; TMA needs a multiple of 16 bytes "
            "below 2^40");
  EXPECT_EQ(mock->launches.size(), 1u);

  // The binary must have the 128-byte parameter.
  const char *noMap = R"(.entry tma_copy(.param .u64 a_ptr, .param .u32 M,
      .param .u32 K) { ret; })";
  EXPECT_EQ(errorOf([&] { Module::loadFromMemory(ctx, metadata, noMap); }),
            "kernel 'tma_copy': the metadata lists 3 parameters and 1 tensor "
            "map, but the in-memory binary has 3");
}
