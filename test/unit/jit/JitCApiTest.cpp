//===- JitCApiTest.cpp - the launch-time JIT's C API (tk/jit_c.h) ---------===//
//
// Kernels from source and file, launches with a grid and with a grid
// callback, parameter introspection, and every error path returning a code
// and a message (NULL handles, bad tags, compile errors), on the
// interpreter backend.
//
//===----------------------------------------------------------------------===//
#include "tk/jit_c.h"

#include "test/unit/cache/TestCacheDir.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace {

const char *const kAdd = R"(
@kernel
def add(x_ptr: *f32, y_ptr: *f32, out_ptr: *f32, n: i32, BLOCK: constexpr):
    offsets = program_id(0) * BLOCK + arange(0, BLOCK)
    mask = offsets < n
    store(out_ptr + offsets,
          load(x_ptr + offsets, mask=mask) + load(y_ptr + offsets, mask=mask),
          mask=mask)
)";

tkrt_arg pointerArg(tkrt_buffer *buffer) {
  tkrt_arg arg;
  arg.type = TKRT_ARG_PTR;
  arg.value.ptr = tkrt_buffer_ptr(buffer);
  return arg;
}

tkrt_arg intArg(int64_t value) {
  tkrt_arg arg;
  arg.type = TKRT_ARG_INT;
  arg.value.i64 = value;
  return arg;
}

class JitCApiTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(tkrt_context_create(TKRT_MODE_INTERPRETER, &context), TKRT_OK)
        << tkrt_last_error();
    cacheDir = root.path + "/cache";
    defines[0] = {"BLOCK", "4"};
    options.defines = defines;
    options.num_defines = 1;
    options.cache_dir = cacheDir.c_str();
    for (tkrt_buffer **buffer : {&x, &y, &out})
      ASSERT_EQ(tkrt_alloc(context, 16 * sizeof(float), buffer), TKRT_OK);
    std::vector<float> xs(10), ys(10);
    for (int i = 0; i < 10; ++i)
      xs[i] = float(i), ys[i] = float(100 * i);
    tkrt_upload(x, xs.data(), 40);
    tkrt_upload(y, ys.data(), 40);
  }
  void TearDown() override {
    for (tkrt_buffer *buffer : {x, y, out})
      tkrt_free(buffer);
    tkrt_context_destroy(context);
  }
  std::vector<float> output() {
    std::vector<float> values(10);
    EXPECT_EQ(tkrt_download(out, values.data(), 40), TKRT_OK);
    return values;
  }

  tk::test::TemporaryDirectory root;
  std::string cacheDir;
  tk_jit_define defines[1];
  tk_jit_options options = {};
  tkrt_context *context = nullptr;
  tkrt_buffer *x = nullptr, *y = nullptr, *out = nullptr;
};

} // namespace

TEST_F(JitCApiTest, FromSourceAndLaunch) {
  tk_jit_kernel *kernel = nullptr;
  ASSERT_EQ(tk_jit_kernel_from_source(context, kAdd, "add.tk", "add",
                                      &options, &kernel),
            TKRT_OK)
      << tk_jit_last_error();
  EXPECT_STREQ(tk_jit_kernel_name(kernel), "add");
  ASSERT_EQ(tk_jit_kernel_num_params(kernel), 4);
  EXPECT_STREQ(tk_jit_kernel_param_name(kernel, 3), "n");
  EXPECT_STREQ(tk_jit_kernel_param_type(kernel, 0), "*f32");
  EXPECT_STREQ(tk_jit_kernel_param_type(kernel, 3), "i32");
  EXPECT_EQ(tk_jit_kernel_param_specialized(kernel, 3), 1);
  EXPECT_EQ(tk_jit_kernel_param_name(kernel, 4), nullptr);
  EXPECT_EQ(tk_jit_kernel_param_type(kernel, -1), nullptr);

  tkrt_arg args[] = {pointerArg(x), pointerArg(y), pointerArg(out),
                     intArg(10)};
  ASSERT_EQ(tk_jit_launch(kernel, 3, 1, 1, nullptr, args, 4), TKRT_OK)
      << tk_jit_last_error();
  ASSERT_EQ(tkrt_sync(context), TKRT_OK);
  std::vector<float> result = output();
  for (int i = 0; i < 10; ++i)
    EXPECT_EQ(result[i], 101.0f * i);
  EXPECT_EQ(tk_jit_kernel_num_specializations(kernel), 1u);

  // A grid callback reading BLOCK, on a stream.
  tkrt_stream *stream = nullptr;
  ASSERT_EQ(tkrt_stream_create(context, &stream), TKRT_OK);
  tkrt_memset(out, 0);
  struct GridState {
    int64_t n;
    int64_t block = 0;
  } state{10};
  auto grid = [](void *data, const tk_jit_meta *meta, int64_t dims[3]) {
    auto *s = static_cast<GridState *>(data);
    if (tk_jit_meta_get(meta, "BLOCK", &s->block) != TKRT_OK)
      return 1;
    dims[0] = (s->n + s->block - 1) / s->block;
    return 0;
  };
  args[3] = intArg(16); // another specialization
  ASSERT_EQ(tk_jit_launch_grid_fn(kernel, grid, &state, stream, args, 4),
            TKRT_OK)
      << tk_jit_last_error();
  ASSERT_EQ(tkrt_stream_sync(stream), TKRT_OK);
  EXPECT_EQ(state.block, 4);
  EXPECT_EQ(tk_jit_kernel_num_specializations(kernel), 2u);
  // The callback's failure is an error, not a crash.
  auto failing = [](void *, const tk_jit_meta *meta, int64_t[3]) {
    int64_t value;
    return tk_jit_meta_get(meta, "NOPE", &value) == TKRT_OK ? 0 : 1;
  };
  EXPECT_EQ(tk_jit_launch_grid_fn(kernel, failing, nullptr, stream, args, 4),
            TKRT_ERROR);
  EXPECT_NE(std::strstr(tk_jit_last_error(), "grid function failed"), nullptr)
      << tk_jit_last_error();
  tkrt_stream_destroy(stream);
  tk_jit_kernel_destroy(kernel);
}

TEST_F(JitCApiTest, PackedLaunch) {
  tk_jit_kernel *kernel = nullptr;
  ASSERT_EQ(tk_jit_kernel_from_source(context, kAdd, "add.tk", "add",
                                      &options, &kernel),
            TKRT_OK)
      << tk_jit_last_error();
  // The packet at an odd address: it need not be aligned.
  tkrt_arg args[] = {pointerArg(x), pointerArg(y), pointerArg(out),
                     intArg(10)};
  tk_jit_packet header = {{3, 1, 1}, nullptr, 4};
  std::vector<char> bytes(1 + sizeof(header) + sizeof(args));
  std::memcpy(bytes.data() + 1, &header, sizeof(header));
  std::memcpy(bytes.data() + 1 + sizeof(header), args, sizeof(args));
  ASSERT_EQ(tk_jit_launch_packed(kernel, bytes.data() + 1), TKRT_OK)
      << tk_jit_last_error();
  ASSERT_EQ(tkrt_sync(context), TKRT_OK);
  std::vector<float> result = output();
  for (int i = 0; i < 10; ++i)
    EXPECT_EQ(result[i], 101.0f * i);

  // Its errors are those of tk_jit_launch, named after it.
  header.num_args = 3;
  std::memcpy(bytes.data() + 1, &header, sizeof(header));
  EXPECT_EQ(tk_jit_launch_packed(kernel, bytes.data() + 1), TKRT_ERROR);
  EXPECT_NE(std::strstr(tk_jit_last_error(), "expects 4 arguments, got 3"),
            nullptr)
      << tk_jit_last_error();
  header.num_args = -1;
  std::memcpy(bytes.data() + 1, &header, sizeof(header));
  EXPECT_EQ(tk_jit_launch_packed(kernel, bytes.data() + 1), TKRT_ERROR);
  EXPECT_STREQ(tk_jit_last_error(),
               "tk_jit_launch_packed: num_args -1 is out of range");
  header.num_args = 4;
  args[3].type = 99;
  std::memcpy(bytes.data() + 1, &header, sizeof(header));
  std::memcpy(bytes.data() + 1 + sizeof(header), args, sizeof(args));
  EXPECT_EQ(tk_jit_launch_packed(kernel, bytes.data() + 1), TKRT_ERROR);
  EXPECT_NE(std::strstr(tk_jit_last_error(), "tk_jit_launch_packed: argument 4"),
            nullptr)
      << tk_jit_last_error();
  EXPECT_EQ(tk_jit_launch_packed(kernel, nullptr), TKRT_INVALID_ARGUMENT);
  tk_jit_kernel_destroy(kernel);
}

TEST_F(JitCApiTest, FromFile) {
  std::string path = root.path + "/add.tk";
  tk::test::writeWholeFile(path, kAdd);
  tk_jit_kernel *kernel = nullptr;
  ASSERT_EQ(tk_jit_kernel_from_file(context, path.c_str(), nullptr, &options,
                                    &kernel),
            TKRT_OK)
      << tk_jit_last_error();
  tkrt_arg args[] = {pointerArg(x), pointerArg(y), pointerArg(out),
                     intArg(10)};
  ASSERT_EQ(tk_jit_launch(kernel, 3, 1, 1, nullptr, args, 4), TKRT_OK)
      << tk_jit_last_error();
  EXPECT_EQ(output()[9], 909.0f);
  tk_jit_kernel_destroy(kernel);

  EXPECT_EQ(tk_jit_kernel_from_file(context, "/no/such.tk", nullptr, nullptr,
                                    &kernel),
            TKRT_ERROR);
  EXPECT_EQ(kernel, nullptr);
  EXPECT_NE(std::strstr(tk_jit_last_error(), "cannot open '/no/such.tk'"),
            nullptr)
      << tk_jit_last_error();
}

TEST_F(JitCApiTest, ErrorsAreCodesAndMessages) {
  tk_jit_kernel *kernel = nullptr;
  EXPECT_EQ(tk_jit_kernel_from_source(nullptr, kAdd, nullptr, nullptr,
                                      nullptr, &kernel),
            TKRT_INVALID_ARGUMENT);
  EXPECT_NE(std::strstr(tk_jit_last_error(), "'context' is NULL"), nullptr);
  EXPECT_EQ(tk_jit_kernel_from_source(context, nullptr, nullptr, nullptr,
                                      nullptr, &kernel),
            TKRT_INVALID_ARGUMENT);
  EXPECT_EQ(tk_jit_kernel_from_source(context, kAdd, nullptr, nullptr,
                                      nullptr, nullptr),
            TKRT_INVALID_ARGUMENT);
  EXPECT_EQ(tk_jit_launch(nullptr, 1, 1, 1, nullptr, nullptr, 0),
            TKRT_INVALID_ARGUMENT);

  // A define with a NULL value.
  tk_jit_define bad[1] = {{"BLOCK", nullptr}};
  tk_jit_options badOptions = {};
  badOptions.defines = bad;
  badOptions.num_defines = 1;
  EXPECT_EQ(tk_jit_kernel_from_source(context, kAdd, nullptr, nullptr,
                                      &badOptions, &kernel),
            TKRT_ERROR);
  EXPECT_NE(std::strstr(tk_jit_last_error(), "NULL name or value"), nullptr);

  // A syntax error: the compiler's message.
  EXPECT_EQ(tk_jit_kernel_from_source(context, "@kernel\ndef k(:\n", "bad.tk",
                                      nullptr, &options, &kernel),
            TKRT_ERROR);
  EXPECT_NE(std::strstr(tk_jit_last_error(), "bad.tk:2:"), nullptr)
      << tk_jit_last_error();

  // A compile error at the first launch (BLOCK undefined).
  ASSERT_EQ(tk_jit_kernel_from_source(context, kAdd, "add.tk", nullptr,
                                      nullptr, &kernel),
            TKRT_OK);
  tkrt_arg args[] = {pointerArg(x), pointerArg(y), pointerArg(out),
                     intArg(10)};
  EXPECT_EQ(tk_jit_launch(kernel, 1, 1, 1, nullptr, args, 4), TKRT_ERROR);
  EXPECT_NE(std::strstr(tk_jit_last_error(), "BLOCK"), nullptr)
      << tk_jit_last_error();
  tk_jit_kernel_destroy(kernel);

  ASSERT_EQ(tk_jit_kernel_from_source(context, kAdd, "add.tk", nullptr,
                                      &options, &kernel),
            TKRT_OK);
  // An unknown tag, a negative count, a wrong count.
  tkrt_arg tagged = intArg(1);
  tagged.type = 99;
  tkrt_arg wrong[] = {pointerArg(x), pointerArg(y), pointerArg(out), tagged};
  EXPECT_EQ(tk_jit_launch(kernel, 1, 1, 1, nullptr, wrong, 4), TKRT_ERROR);
  EXPECT_NE(std::strstr(tk_jit_last_error(), "unknown type tag 99"), nullptr)
      << tk_jit_last_error();
  EXPECT_EQ(tk_jit_launch(kernel, 1, 1, 1, nullptr, args, -1), TKRT_ERROR);
  EXPECT_EQ(tk_jit_launch(kernel, 1, 1, 1, nullptr, args, 3), TKRT_ERROR);
  EXPECT_NE(std::strstr(tk_jit_last_error(), "expects 4 arguments, got 3"),
            nullptr)
      << tk_jit_last_error();
  // A float for the i32.
  tkrt_arg real;
  real.type = TKRT_ARG_F32;
  real.value.f32 = 1.5f;
  tkrt_arg mistyped[] = {pointerArg(x), pointerArg(y), pointerArg(out), real};
  EXPECT_EQ(tk_jit_launch(kernel, 1, 1, 1, nullptr, mistyped, 4), TKRT_ERROR);
  EXPECT_NE(std::strstr(tk_jit_last_error(), "'n' expects i32, got f32"),
            nullptr)
      << tk_jit_last_error();
  // NULL handles elsewhere.
  EXPECT_STREQ(tk_jit_kernel_name(nullptr), "");
  EXPECT_EQ(tk_jit_kernel_num_params(nullptr), 0);
  EXPECT_EQ(tk_jit_kernel_num_specializations(nullptr), 0u);
  tk_jit_kernel_destroy(nullptr);
  tk_jit_kernel_destroy(kernel);
}
