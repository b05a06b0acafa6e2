//===- CApiTest.cpp - The C API: statuses and last-error messages ---------===//

#include "FakeBackend.h"

#include "tk/runtime_c.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <thread>

using namespace tk::testing;

namespace {

class CApiTest : public ::testing::Test {
protected:
  void SetUp() override {
    state = registerFakeBackend("fake");
    ASSERT_EQ(tkrt_context_create_with_backend("fake", &ctx), TKRT_OK);
  }
  void TearDown() override {
    tkrt_context_destroy(ctx);
    tk::unregisterBackend("fake");
  }

  tkrt_kernel *loadKernel(const std::string &args) {
    std::string json = metadataJson("k", args);
    tkrt_module *module = nullptr;
    EXPECT_EQ(tkrt_module_load_from_memory(ctx, json.data(), json.size(),
                                           "bin", 3, &module),
              TKRT_OK)
        << tkrt_last_error();
    tkrt_kernel *kernel = nullptr;
    EXPECT_EQ(tkrt_module_get_kernel(module, "k", &kernel), TKRT_OK);
    tkrt_module_destroy(module); // The kernel keeps it loaded.
    return kernel;
  }

  std::shared_ptr<FakeState> state;
  tkrt_context *ctx = nullptr;
};

TEST_F(CApiTest, GpuModeWithoutDriverReportsAnError) {
  tkrt_context *gpu = nullptr;
  int status = tkrt_context_create(TKRT_MODE_GPU, &gpu);
  if (status == TKRT_OK) {
    tkrt_context_destroy(gpu);
    GTEST_SKIP() << "a GPU is present";
  }
  EXPECT_EQ(status, TKRT_ERROR);
  EXPECT_EQ(gpu, nullptr);
  std::string message = tkrt_last_error();
  EXPECT_TRUE(message.rfind("no CUDA driver found (libcuda.so.1)", 0) == 0 ||
              message.rfind("no CUDA device found", 0) == 0)
      << message;
}

TEST_F(CApiTest, InvalidArguments) {
  EXPECT_EQ(tkrt_context_create(TKRT_MODE_AUTO, nullptr),
            TKRT_INVALID_ARGUMENT);
  EXPECT_STREQ(tkrt_last_error(), "tkrt_context_create: 'out' is NULL");
  tkrt_context *c = nullptr;
  EXPECT_EQ(tkrt_context_create(7, &c), TKRT_ERROR);
  EXPECT_STREQ(tkrt_last_error(), "tkrt_context_create: unknown mode 7");
  tkrt_module *m = nullptr;
  EXPECT_EQ(tkrt_module_load(ctx, nullptr, &m), TKRT_INVALID_ARGUMENT);
  EXPECT_STREQ(tkrt_last_error(), "tkrt_module_load: 'path' is NULL");
  EXPECT_EQ(tkrt_launch(nullptr, 1, 1, 1, nullptr, nullptr, 0),
            TKRT_INVALID_ARGUMENT);
  EXPECT_STREQ(tkrt_last_error(), "tkrt_launch: 'kernel' is NULL");
  EXPECT_EQ(tkrt_sync(nullptr), TKRT_INVALID_ARGUMENT);
  EXPECT_STREQ(tkrt_context_backend_name(nullptr), "");
  EXPECT_EQ(tkrt_buffer_ptr(nullptr), 0u);
}

TEST_F(CApiTest, LoadErrors) {
  tkrt_module *m = nullptr;
  EXPECT_EQ(tkrt_module_load(ctx, "/nonexistent/k.json", &m), TKRT_ERROR);
  EXPECT_EQ(m, nullptr);
  EXPECT_STREQ(tkrt_last_error(), "cannot read metadata file "
                                  "'/nonexistent/k.json': No such file or "
                                  "directory");
  const char *bad = "{\"tk_metadata_version\": 1,";
  EXPECT_EQ(tkrt_module_load_from_memory(ctx, bad, std::strlen(bad), "", 0,
                                         &m),
            TKRT_ERROR);
  EXPECT_STREQ(tkrt_last_error(), "<memory>:1:27 (byte 26): unexpected end "
                                  "of input, expected a string as object "
                                  "key");
  std::string json = metadataJson("k", "[]");
  ASSERT_EQ(tkrt_module_load_from_memory(ctx, json.data(), json.size(), "",
                                         0, &m),
            TKRT_OK);
  tkrt_kernel *k = nullptr;
  EXPECT_EQ(tkrt_module_get_kernel(m, "other", &k), TKRT_ERROR);
  EXPECT_STREQ(tkrt_last_error(),
               "no kernel named 'other' in this module; it holds only 'k'");
  tkrt_module_destroy(m);
}

TEST_F(CApiTest, LaunchChecksArguments) {
  tkrt_kernel *k = loadKernel(R"([{"name": "x", "type": "*f32"},
                                 {"name": "n", "type": "i32"},
                                 {"name": "s", "type": "f32"}])");
  ASSERT_NE(k, nullptr);
  tkrt_buffer *buf = nullptr;
  ASSERT_EQ(tkrt_alloc(ctx, 64, &buf), TKRT_OK);

  tkrt_arg args[3];
  args[0].type = TKRT_ARG_PTR;
  args[0].value.ptr = tkrt_buffer_ptr(buf);
  args[1].type = TKRT_ARG_INT;
  args[1].value.i64 = 42;
  args[2].type = TKRT_ARG_F32;
  args[2].value.f32 = 2.5f;
  ASSERT_EQ(tkrt_launch(k, 3, 2, 1, nullptr, args, 3), TKRT_OK)
      << tkrt_last_error();
  ASSERT_EQ(state->launches.size(), 1u);
  EXPECT_EQ(state->launches[0].grid.y, 2);
  EXPECT_EQ(state->launches[0].args[1].asSigned(), 42);
  EXPECT_EQ(state->launches[0].args[2].asF32(), 2.5f);

  EXPECT_EQ(tkrt_launch(k, 1, 1, 1, nullptr, args, 2), TKRT_ERROR);
  EXPECT_STREQ(tkrt_last_error(),
               "kernel 'k' expects 3 arguments, got 2; its parameters are "
               "(x: *f32, n: i32, s: f32)");

  args[2].type = TKRT_ARG_F64;
  args[2].value.f64 = 2.5;
  EXPECT_EQ(tkrt_launch(k, 1, 1, 1, nullptr, args, 3), TKRT_ERROR);
  EXPECT_STREQ(tkrt_last_error(), "kernel 'k': argument 3 's' expects f32, "
                                  "got f64 (pass a float, e.g. 1.0f)");
  args[2].type = TKRT_ARG_F32;

  args[0].value.ptr = 0;
  EXPECT_EQ(tkrt_launch(k, 1, 1, 1, nullptr, args, 3), TKRT_ERROR);
  EXPECT_STREQ(tkrt_last_error(),
               "kernel 'k': argument 'x' is a null pointer");
  args[0].value.ptr = tkrt_buffer_ptr(buf);

  args[1].type = TKRT_ARG_I32;
  args[1].value.i64 = int64_t(1) << 40;
  EXPECT_EQ(tkrt_launch(k, 1, 1, 1, nullptr, args, 3), TKRT_ERROR);
  EXPECT_STREQ(tkrt_last_error(), "tkrt_launch: argument 2 is tagged i32 but "
                                  "its value does not fit");
  args[1].type = 99;
  EXPECT_EQ(tkrt_launch(k, 1, 1, 1, nullptr, args, 3), TKRT_ERROR);
  EXPECT_STREQ(tkrt_last_error(),
               "tkrt_launch: argument 2 has unknown type tag 99");
  args[1].type = TKRT_ARG_I32;
  args[1].value.i64 = 7;
  EXPECT_EQ(tkrt_launch(k, 1, -1, 1, nullptr, args, 3), TKRT_ERROR);
  EXPECT_STREQ(tkrt_last_error(),
               "kernel 'k': grid (1,-1,1) has a negative dimension");

  tkrt_stream *stream = nullptr;
  ASSERT_EQ(tkrt_stream_create(ctx, &stream), TKRT_OK);
  EXPECT_EQ(tkrt_launch(k, 1, 1, 1, stream, args, 3), TKRT_OK);
  EXPECT_TRUE(state->launches.back().onStream);
  EXPECT_EQ(tkrt_stream_sync(stream), TKRT_OK);
  tkrt_stream_destroy(stream);
  EXPECT_EQ(tkrt_sync(ctx), TKRT_OK);

  tkrt_free(buf);
  tkrt_kernel_destroy(k);
  EXPECT_EQ(state->liveModules, 0);
  EXPECT_EQ(state->liveAllocations, 0);
}

TEST_F(CApiTest, Buffers) {
  tkrt_buffer *buf = nullptr;
  ASSERT_EQ(tkrt_alloc(ctx, 8, &buf), TKRT_OK);
  EXPECT_EQ(tkrt_buffer_size(buf), 8u);
  const uint32_t in[2] = {1, 2};
  uint32_t out[2] = {0, 0};
  EXPECT_EQ(tkrt_upload(buf, in, sizeof(in)), TKRT_OK);
  EXPECT_EQ(tkrt_download(buf, out, sizeof(out)), TKRT_OK);
  EXPECT_EQ(out[1], 2u);
  EXPECT_EQ(tkrt_memset(buf, 0xFF), TKRT_OK);
  EXPECT_EQ(tkrt_download(buf, out, sizeof(out)), TKRT_OK);
  EXPECT_EQ(out[0], 0xFFFFFFFFu);
  EXPECT_EQ(tkrt_upload(buf, in, 16), TKRT_ERROR);
  EXPECT_STREQ(tkrt_last_error(), "upload of 16 bytes at offset 0 is out of "
                                  "bounds of a buffer of 8 bytes");
  tkrt_free(buf);
  tkrt_free(nullptr);
}

TEST_F(CApiTest, ContextSyncError) {
  state->syncFailure = "launch of kernel 'k' failed: CUDA_ERROR_ILLEGAL_ADDRESS";
  EXPECT_EQ(tkrt_sync(ctx), TKRT_ERROR);
  EXPECT_STREQ(tkrt_last_error(),
               "launch of kernel 'k' failed: CUDA_ERROR_ILLEGAL_ADDRESS");
  EXPECT_STREQ(tkrt_context_backend_name(ctx), "fake");
}

TEST_F(CApiTest, LastErrorIsPerThread) {
  tkrt_sync(nullptr);
  std::string mine = tkrt_last_error();
  std::string theirs;
  std::thread([&] {
    theirs = tkrt_last_error();
    tkrt_launch(nullptr, 1, 1, 1, nullptr, nullptr, 0);
  }).join();
  EXPECT_EQ(theirs, "");
  EXPECT_EQ(tkrt_last_error(), mine);
}

} // namespace
