//===- CApi.cpp - The C API over the C++ runtime --------------------------===//
//
// Each entry point runs its body inside `guard`, which turns any exception
// into a status code and the thread's last-error message.
//
//===----------------------------------------------------------------------===//

#include "tk/detail/CApiHandles.h"

#include <cstdint>
#include <new>
#include <optional>

using namespace tk;

struct tkrt_module {
  Module module;
};
struct tkrt_kernel {
  Kernel kernel;
};
struct tkrt_buffer {
  Buffer buffer;
};

static thread_local std::string lastError;

static int setError(int status, const std::string &message) {
  lastError = message;
  return status;
}

int tk::detail::setCApiError(int status, const std::string &message) {
  return setError(status, message);
}

int tk::detail::guardCApi(void (*body)(void *), void *data) {
  try {
    body(data);
    return TKRT_OK;
  } catch (const std::bad_alloc &) {
    return setError(TKRT_ERROR, "out of host memory");
  } catch (const std::exception &e) {
    return setError(TKRT_ERROR, e.what());
  } catch (...) {
    return setError(TKRT_ERROR, "unknown error");
  }
}

template <typename Body> static int guard(Body &&body) {
  try {
    body();
    return TKRT_OK;
  } catch (const std::bad_alloc &) {
    return setError(TKRT_ERROR, "out of host memory");
  } catch (const std::exception &e) {
    return setError(TKRT_ERROR, e.what());
  } catch (...) {
    return setError(TKRT_ERROR, "unknown error");
  }
}

static int nullArgument(const char *function, const char *parameter) {
  return setError(TKRT_INVALID_ARGUMENT, std::string(function) + ": '" +
                                             parameter + "' is NULL");
}

#define TKRT_REQUIRE(pointer)                                                  \
  do {                                                                         \
    if (!(pointer))                                                            \
      return nullArgument(__func__, #pointer);                                 \
  } while (0)

extern "C" {

const char *tkrt_last_error(void) { return lastError.c_str(); }

int tkrt_context_create(int mode, tkrt_context **out) {
  TKRT_REQUIRE(out);
  return tkrt_context_create_on_device(mode, 0, out);
}

int tkrt_context_create_on_device(int mode, int device, tkrt_context **out) {
  TKRT_REQUIRE(out);
  *out = nullptr;
  return guard([&] {
    Mode m;
    switch (mode) {
    case TKRT_MODE_AUTO:
      m = Mode::Auto;
      break;
    case TKRT_MODE_GPU:
      m = Mode::Gpu;
      break;
    case TKRT_MODE_INTERPRETER:
      m = Mode::Interpreter;
      break;
    default:
      throw Error("tkrt_context_create: unknown mode " + std::to_string(mode));
    }
    *out = new tkrt_context{Context::create(m, device)};
  });
}

int tkrt_context_create_with_backend(const char *backend_name,
                                     tkrt_context **out) {
  TKRT_REQUIRE(out);
  *out = nullptr;
  TKRT_REQUIRE(backend_name);
  return guard([&] {
    *out = new tkrt_context{Context::createWithBackend(backend_name)};
  });
}

void tkrt_context_destroy(tkrt_context *context) { delete context; }

const char *tkrt_context_backend_name(const tkrt_context *context) {
  return context ? context->context.backendName().c_str() : "";
}

int tkrt_sync(tkrt_context *context) {
  TKRT_REQUIRE(context);
  return guard([&] { context->context.sync(); });
}

int tkrt_module_load(tkrt_context *context, const char *path,
                     tkrt_module **out) {
  TKRT_REQUIRE(out);
  *out = nullptr;
  TKRT_REQUIRE(context);
  TKRT_REQUIRE(path);
  return guard([&] {
    *out = new tkrt_module{Module::load(context->context, path)};
  });
}

int tkrt_module_load_from_memory(tkrt_context *context,
                                 const char *metadata_json, size_t json_size,
                                 const void *binary, size_t binary_size,
                                 tkrt_module **out) {
  TKRT_REQUIRE(out);
  *out = nullptr;
  TKRT_REQUIRE(context);
  TKRT_REQUIRE(metadata_json);
  if (binary_size)
    TKRT_REQUIRE(binary);
  return guard([&] {
    *out = new tkrt_module{Module::loadFromMemory(
        context->context, std::string_view(metadata_json, json_size),
        std::string_view(static_cast<const char *>(binary), binary_size))};
  });
}

void tkrt_module_destroy(tkrt_module *module) { delete module; }

int tkrt_module_get_kernel(tkrt_module *module, const char *name,
                           tkrt_kernel **out) {
  TKRT_REQUIRE(out);
  *out = nullptr;
  TKRT_REQUIRE(module);
  TKRT_REQUIRE(name);
  return guard(
      [&] { *out = new tkrt_kernel{module->module.kernel(name)}; });
}

void tkrt_kernel_destroy(tkrt_kernel *kernel) { delete kernel; }

int tkrt_alloc(tkrt_context *context, size_t bytes, tkrt_buffer **out) {
  TKRT_REQUIRE(out);
  *out = nullptr;
  TKRT_REQUIRE(context);
  return guard(
      [&] { *out = new tkrt_buffer{context->context.alloc(bytes)}; });
}

void tkrt_free(tkrt_buffer *buffer) { delete buffer; }

uint64_t tkrt_buffer_ptr(const tkrt_buffer *buffer) {
  return buffer ? buffer->buffer.ptr().address : 0;
}

size_t tkrt_buffer_size(const tkrt_buffer *buffer) {
  return buffer ? buffer->buffer.size() : 0;
}

int tkrt_upload(tkrt_buffer *buffer, const void *src, size_t bytes) {
  TKRT_REQUIRE(buffer);
  if (bytes)
    TKRT_REQUIRE(src);
  return guard([&] { buffer->buffer.upload(src, bytes); });
}

int tkrt_download(tkrt_buffer *buffer, void *dst, size_t bytes) {
  TKRT_REQUIRE(buffer);
  if (bytes)
    TKRT_REQUIRE(dst);
  return guard([&] { buffer->buffer.download(dst, bytes); });
}

int tkrt_memset(tkrt_buffer *buffer, uint8_t value) {
  TKRT_REQUIRE(buffer);
  return guard([&] { buffer->buffer.fill(value); });
}

int tkrt_stream_create(tkrt_context *context, tkrt_stream **out) {
  TKRT_REQUIRE(out);
  *out = nullptr;
  TKRT_REQUIRE(context);
  return guard([&] { *out = new tkrt_stream{Stream(context->context)}; });
}

int tkrt_stream_wrap(tkrt_context *context, void *native_handle,
                     tkrt_stream **out) {
  TKRT_REQUIRE(out);
  *out = nullptr;
  TKRT_REQUIRE(context);
  return guard([&] {
    *out = new tkrt_stream{Stream::wrap(context->context, native_handle)};
  });
}

void tkrt_stream_destroy(tkrt_stream *stream) { delete stream; }

int tkrt_stream_sync(tkrt_stream *stream) {
  TKRT_REQUIRE(stream);
  return guard([&] { stream->stream.sync(); });
}

} // extern "C"

/// A C argument as an ArgValue; a value outside its tag's type is an error
/// rather than silently truncated.
ArgValue tk::detail::argFromC(const tkrt_arg &arg, int index,
                              const char *function) {
  auto outOfRange = [&](const char *type) -> Error {
    return Error(std::string(function) + ": argument " +
                 std::to_string(index + 1) +
                 " is tagged " + type + " but its value does not fit");
  };
  auto signedValue = [&](ScalarKind kind, int64_t min, int64_t max,
                         const char *type) {
    if (arg.value.i64 < min || arg.value.i64 > max)
      throw outOfRange(type);
    return ArgValue::signedInt(kind, arg.value.i64);
  };
  auto unsignedValue = [&](ScalarKind kind, uint64_t max, const char *type) {
    if (arg.value.u64 > max)
      throw outOfRange(type);
    return ArgValue::unsignedInt(kind, arg.value.u64);
  };
  switch (arg.type) {
  case TKRT_ARG_I1:
    return unsignedValue(ScalarKind::I1, 1, "i1");
  case TKRT_ARG_I8:
    return signedValue(ScalarKind::I8, INT8_MIN, INT8_MAX, "i8");
  case TKRT_ARG_I16:
    return signedValue(ScalarKind::I16, INT16_MIN, INT16_MAX, "i16");
  case TKRT_ARG_I32:
    return signedValue(ScalarKind::I32, INT32_MIN, INT32_MAX, "i32");
  case TKRT_ARG_I64:
    return ArgValue::i64(arg.value.i64);
  case TKRT_ARG_U8:
    return unsignedValue(ScalarKind::U8, UINT8_MAX, "u8");
  case TKRT_ARG_U16:
    return unsignedValue(ScalarKind::U16, UINT16_MAX, "u16");
  case TKRT_ARG_U32:
    return unsignedValue(ScalarKind::U32, UINT32_MAX, "u32");
  case TKRT_ARG_U64:
    return ArgValue::u64(arg.value.u64);
  case TKRT_ARG_F16:
    return ArgValue::f16(half::fromBits(arg.value.bits16));
  case TKRT_ARG_BF16:
    return ArgValue::bf16(bf16::fromBits(arg.value.bits16));
  case TKRT_ARG_F32:
    return ArgValue::f32(arg.value.f32);
  case TKRT_ARG_F64:
    return ArgValue::f64(arg.value.f64);
  case TKRT_ARG_PTR:
    return ArgValue::pointer(DevicePtr(arg.value.ptr));
  case TKRT_ARG_INT:
    return ArgValue::anyInt(arg.value.i64);
  default:
    throw Error(std::string(function) + ": argument " +
                std::to_string(index + 1) + " has unknown type tag " + std::to_string(arg.type));
  }
}

extern "C" {

int tkrt_launch(tkrt_kernel *kernel, int64_t gx, int64_t gy, int64_t gz,
                tkrt_stream *stream, const tkrt_arg *args, int nargs) {
  TKRT_REQUIRE(kernel);
  if (nargs > 0)
    TKRT_REQUIRE(args);
  return guard([&] {
    if (nargs < 0)
      throw Error("tkrt_launch: nargs is negative");
    std::vector<ArgValue> values;
    values.reserve(static_cast<size_t>(nargs));
    for (int i = 0; i < nargs; ++i)
      values.push_back(detail::argFromC(args[i], i, "tkrt_launch"));
    Grid grid;
    grid.x = gx;
    grid.y = gy;
    grid.z = gz;
    kernel->kernel.launchPacked(grid, stream ? &stream->stream : nullptr,
                                values);
  });
}

} // extern "C"
