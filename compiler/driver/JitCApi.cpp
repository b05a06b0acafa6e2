//===- JitCApi.cpp - the launch-time JIT's C API (include/tk/jit_c.h) -----===//
//
// Thin wrappers over tk::jit::Kernel. Each body runs inside libtkrt's C API
// guard, so no exception crosses into C and the message lands where
// tkrt_last_error() reads it.
//
//===----------------------------------------------------------------------===//
#include "tk/jit_c.h"

#include "tk/detail/CApiHandles.h"
#include "tk/jit.h"

#include <cstring>
#include <string>
#include <vector>

using namespace tk;

static_assert(sizeof(tkrt_arg) == 16 && sizeof(tk_jit_packet) == 40,
              "tk_jit_launch_packed's layout is documented in jit_c.h");

struct tk_jit_kernel {
  jit::Kernel kernel;
  /// The parameters' types as text, for tk_jit_kernel_param_type.
  std::vector<std::string> typeNames;
};

struct tk_jit_meta {
  const jit::LaunchMeta *meta;
};

namespace {

int nullArgument(const char *function, const char *parameter) {
  return detail::setCApiError(TKRT_INVALID_ARGUMENT,
                              std::string(function) + ": '" + parameter +
                                  "' is NULL");
}

#define TK_JIT_REQUIRE(pointer)                                                \
  do {                                                                         \
    if (!(pointer))                                                            \
      return nullArgument(__func__, #pointer);                                 \
  } while (0)

jit::KernelOptions toKernelOptions(const tk_jit_options *options) {
  jit::KernelOptions result;
  if (!options)
    return result;
  if (options->num_defines < 0)
    throw Error("tk_jit_options: num_defines is negative");
  if (options->num_defines > 0 && !options->defines)
    throw Error("tk_jit_options: 'defines' is NULL");
  for (int i = 0; i < options->num_defines; ++i) {
    const tk_jit_define &define = options->defines[i];
    if (!define.name || !define.value)
      throw Error("tk_jit_options: define " + std::to_string(i + 1) +
                  " has a NULL name or value");
    result.defines.emplace_back(define.name, define.value);
  }
  if (options->num_warps < 0 || options->num_stages < 0 ||
      options->autotune_warmup < 0 || options->autotune_repeats < 0 ||
      options->compile_threads < 0 || options->maxnreg < 0)
    throw Error("tk_jit_options: a count is negative");
  if (options->maxnreg) // checked with the other KernelOptions (makeState)
    result.maxRegisters = unsigned(options->maxnreg);
  if (options->num_warps)
    result.numWarps = unsigned(options->num_warps);
  if (options->num_stages)
    result.numStages = unsigned(options->num_stages);
  if (options->arch)
    result.arch = options->arch;
  result.specialize = !options->no_specialize;
  result.useCache = !options->no_cache;
  if (options->cache_dir)
    result.cacheDir = options->cache_dir;
  result.quiet = options->quiet != 0;
  if (options->autotune_warmup)
    result.autotuneWarmup = unsigned(options->autotune_warmup);
  if (options->autotune_repeats)
    result.autotuneRepeats = unsigned(options->autotune_repeats);
  result.compileThreads = unsigned(options->compile_threads);
  return result;
}

tk_jit_kernel *wrap(jit::Kernel kernel) {
  auto *handle = new tk_jit_kernel{std::move(kernel), {}};
  for (const jit::Param &param : handle->kernel.params())
    handle->typeNames.push_back(toString(param.type));
  return handle;
}

/// The C arguments as ArgValues, in a per-thread buffer (no allocation
/// once it is large enough).
const std::vector<ArgValue> &convertArgs(const tkrt_arg *args, int nargs,
                                         const char *function) {
  if (nargs < 0)
    throw Error(std::string(function) + ": nargs is negative");
  thread_local std::vector<ArgValue> values;
  values.clear();
  for (int i = 0; i < nargs; ++i)
    values.push_back(detail::argFromC(args[i], i, function));
  return values;
}

} // namespace

extern "C" {

const char *tk_jit_last_error(void) { return tkrt_last_error(); }

int tk_jit_kernel_from_source(tkrt_context *context, const char *source,
                              const char *source_name,
                              const char *kernel_name,
                              const tk_jit_options *options,
                              tk_jit_kernel **out) {
  TK_JIT_REQUIRE(out);
  *out = nullptr;
  TK_JIT_REQUIRE(context);
  TK_JIT_REQUIRE(source);
  return detail::guardCApi([&] {
    *out = wrap(jit::Kernel::fromSource(
        context->context, source, kernel_name ? kernel_name : "",
        toKernelOptions(options), source_name ? source_name : "<source>"));
  });
}

int tk_jit_kernel_from_file(tkrt_context *context, const char *path,
                            const char *kernel_name,
                            const tk_jit_options *options,
                            tk_jit_kernel **out) {
  TK_JIT_REQUIRE(out);
  *out = nullptr;
  TK_JIT_REQUIRE(context);
  TK_JIT_REQUIRE(path);
  return detail::guardCApi([&] {
    *out = wrap(jit::Kernel::fromFile(context->context, path,
                                      kernel_name ? kernel_name : "",
                                      toKernelOptions(options)));
  });
}

void tk_jit_kernel_destroy(tk_jit_kernel *kernel) { delete kernel; }

const char *tk_jit_kernel_name(const tk_jit_kernel *kernel) {
  return kernel ? kernel->kernel.name().c_str() : "";
}

int tk_jit_kernel_num_params(const tk_jit_kernel *kernel) {
  return kernel ? int(kernel->kernel.params().size()) : 0;
}

static bool inRange(const tk_jit_kernel *kernel, int index) {
  return kernel && index >= 0 &&
         size_t(index) < kernel->kernel.params().size();
}

const char *tk_jit_kernel_param_name(const tk_jit_kernel *kernel, int index) {
  return inRange(kernel, index)
             ? kernel->kernel.params()[size_t(index)].name.c_str()
             : nullptr;
}

const char *tk_jit_kernel_param_type(const tk_jit_kernel *kernel, int index) {
  return inRange(kernel, index) ? kernel->typeNames[size_t(index)].c_str()
                                : nullptr;
}

int tk_jit_kernel_param_specialized(const tk_jit_kernel *kernel, int index) {
  return inRange(kernel, index) &&
         kernel->kernel.params()[size_t(index)].specialized;
}

size_t tk_jit_kernel_num_specializations(const tk_jit_kernel *kernel) {
  return kernel ? kernel->kernel.specializationCount() : 0;
}

int tk_jit_kernel_num_configs(const tk_jit_kernel *kernel) {
  return kernel ? int(kernel->kernel.autotuneConfigCount()) : 0;
}

int tk_jit_launch(tk_jit_kernel *kernel, int64_t gx, int64_t gy, int64_t gz,
                  tkrt_stream *stream, const tkrt_arg *args, int nargs) {
  TK_JIT_REQUIRE(kernel);
  if (nargs > 0)
    TK_JIT_REQUIRE(args);
  return detail::guardCApi([&] {
    const std::vector<ArgValue> &values =
        convertArgs(args, nargs, "tk_jit_launch");
    Grid grid;
    grid.x = gx;
    grid.y = gy;
    grid.z = gz;
    kernel->kernel.launchPacked(grid, stream ? &stream->stream : nullptr,
                                values.data(), values.size());
  });
}

int tk_jit_launch_packed(tk_jit_kernel *kernel, const void *packet) {
  TK_JIT_REQUIRE(kernel);
  TK_JIT_REQUIRE(packet);
  return detail::guardCApi([&] {
    tk_jit_packet header;
    std::memcpy(&header, packet, sizeof(header));
    if (header.num_args < 0 || header.num_args > 65536)
      throw Error("tk_jit_launch_packed: num_args " +
                  std::to_string(header.num_args) + " is out of range");
    // The arguments as the packet has them, copied for alignment.
    thread_local std::vector<tkrt_arg> args;
    args.resize(size_t(header.num_args));
    std::memcpy(args.data(),
                static_cast<const char *>(packet) + sizeof(header),
                args.size() * sizeof(tkrt_arg));
    const std::vector<ArgValue> &values = convertArgs(
        args.data(), int(header.num_args), "tk_jit_launch_packed");
    Grid grid;
    grid.x = header.grid[0];
    grid.y = header.grid[1];
    grid.z = header.grid[2];
    kernel->kernel.launchPacked(
        grid, header.stream ? &header.stream->stream : nullptr,
        values.data(), values.size());
  });
}

int tk_jit_launch_grid_fn(tk_jit_kernel *kernel, tk_jit_grid_fn grid,
                          void *user_data, tkrt_stream *stream,
                          const tkrt_arg *args, int nargs) {
  TK_JIT_REQUIRE(kernel);
  TK_JIT_REQUIRE(grid);
  if (nargs > 0)
    TK_JIT_REQUIRE(args);
  return detail::guardCApi([&] {
    const std::vector<ArgValue> &values =
        convertArgs(args, nargs, "tk_jit_launch_grid_fn");
    auto function = [&](const jit::LaunchMeta &meta) {
      tk_jit_meta handle{&meta};
      int64_t dims[3] = {1, 1, 1};
      if (grid(user_data, &handle, dims) != 0)
        throw Error("kernel '" + kernel->kernel.name() +
                    "': the grid function failed");
      Grid result;
      result.x = dims[0];
      result.y = dims[1];
      result.z = dims[2];
      return result;
    };
    kernel->kernel.launchPacked(jit::GridFunction(function),
                                stream ? &stream->stream : nullptr,
                                values.data(), values.size());
  });
}

int tk_jit_meta_get(const tk_jit_meta *meta, const char *name,
                    int64_t *value) {
  TK_JIT_REQUIRE(meta);
  TK_JIT_REQUIRE(name);
  TK_JIT_REQUIRE(value);
  return detail::guardCApi([&] { *value = (*meta->meta)[name]; });
}

} // extern "C"
