//===- AutotuneRuntime.h - pick the fastest @autotune config ----*- C++ -*-===//
//
// The autotuner, as Triton's @triton.autotune: the first time a kernel is
// asked for with a new tuple of key values, every config of its @autotune
// list is compiled (through the kernel cache), launched and timed with
// libtkrt events, and the fastest is remembered in the cache (Autotune.h);
// later calls, in this process or another, load the winner directly.
//
//   auto tuned = tk::jit::autotune(context, source, "matmul", options,
//       {std::to_string(M), std::to_string(N), std::to_string(K)},
//       [&](const tk::Kernel &kernel, tk::Stream &stream) {
//         int64_t blockM = constexprValue(kernel, "BLOCK_M"); ...
//         kernel.launch(grid, stream, a, b, c, M, N, K, ...);
//       });
//   tuned->module.kernel().launch(...);   // keep the Module for reuse
//
// The launch callback runs the kernel once with the program's arguments;
// it sees each config's kernel (its metadata names the constexpr values, so
// the grid can depend on them). Timing launches write the output buffers:
// like Triton's reset_to_zero/restore_value, restoring inputs that the
// kernel updates in place is the callback's job. A config that fails to
// compile or to launch is skipped (Triton's OutOfResources).
//
// Header-only over libtkrt: include it where tkrt is linked and exceptions
// are on (JitRuntime.h says why).
//
//===----------------------------------------------------------------------===//
#ifndef TK_COMPILER_DRIVER_AUTOTUNERUNTIME_H
#define TK_COMPILER_DRIVER_AUTOTUNERUNTIME_H

#include "compiler/driver/Autotune.h"
#include "compiler/driver/JitRuntime.h"
#include "compiler/driver/KernelCache.h"

#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace tk::jit {

struct AutotuneSettings {
  /// Untimed launches of each config first.
  unsigned warmup = 1;
  /// Timed launches of each config; their mean counts.
  unsigned repeats = 5;
  /// Print every config's time to stderr (also TK_PRINT_AUTOTUNING=1).
  bool verbose = false;
};

/// The chosen config, compiled and loaded.
struct TunedKernel {
  CompiledKernel compiled;
  Module module;
  /// Index of the config in the @autotune list.
  unsigned config = 0;
  /// Whether the choice was remembered rather than timed now.
  bool fromRecord = false;
  /// Mean milliseconds per config (negative: the config failed); empty
  /// for a kernel without @autotune.
  std::vector<double> timesMs;
};

/// The value of constexpr `name` the kernel was compiled with, for launch
/// callbacks that size the grid by a config's block sizes; `fallback` when
/// there is none.
inline int64_t constexprValue(const Kernel &kernel, const std::string &name,
                              int64_t fallback = 0) {
  for (const Constexpr &value : kernel.metadata().constexprs)
    if (value.name == name)
      return value.kind == Constexpr::Kind::Float
                 ? static_cast<int64_t>(value.floatValue)
                 : value.intValue;
  return fallback;
}

/// Compiles `kernelName` of `source` with the fastest of its @autotune
/// configs for `keyValues` (one value per name of the decorator's key, as
/// text), timing them with `launch` unless a remembered choice exists. A
/// kernel without @autotune is compiled with `options` as it is.
template <typename Launch>
llvm::Expected<TunedKernel>
autotune(const Context &context, const KernelSource &source,
         const std::string &kernelName, JitOptions options,
         const std::vector<std::string> &keyValues, Launch &&launch,
         const AutotuneSettings &settings = AutotuneSettings()) {
  auto load = [&](const CompiledKernel &kernel) -> llvm::Expected<Module> {
    try {
      return loadModule(context, kernel);
    } catch (const Error &error) {
      return llvm::createStringError(error.what());
    }
  };
  auto tuned = [&](CompiledKernel compiled, unsigned config, bool fromRecord,
                   std::vector<double> times) -> llvm::Expected<TunedKernel> {
    auto module = load(compiled);
    if (!module)
      return module.takeError();
    return TunedKernel{std::move(compiled), std::move(*module), config,
                       fromRecord, std::move(times)};
  };

  auto decorator = readAutotuneDecorator(source, kernelName, options.toolName);
  if (!decorator)
    return decorator.takeError();
  size_t configCount = decorator->configCount;
  std::string kernelLabel = kernelName.empty() ? "the kernel of " + source.name
                                               : "kernel '" + kernelName + "'";
  if (configCount == 0) {
    auto compiled = compile(source, kernelName, options);
    if (!compiled)
      return compiled.takeError();
    return tuned(std::move(*compiled), options.autotuneConfig, false, {});
  }
  if (keyValues.size() != decorator->key.size()) {
    std::string names;
    for (const std::string &name : decorator->key)
      names += (names.empty() ? "" : ", ") + name;
    return llvm::createStringError(
        "tk: error: " + kernelLabel + " is tuned on " +
        std::to_string(decorator->key.size()) + " key values (" + names +
        "), got " + std::to_string(keyValues.size()));
  }

  KernelCache *cache = nullptr;
  std::string recordKey;
  if (options.useCache) {
    cache = options.cache ? options.cache : &KernelCache::getDefault();
    auto key = computeAutotuneCacheKey(source, kernelName, options, keyValues);
    if (!cache->isEnabled() || !key) {
      if (!key)
        llvm::consumeError(key.takeError());
      cache = nullptr;
    } else {
      recordKey = std::move(*key);
    }
  }
  if (cache)
    if (std::optional<AutotuneRecord> record =
            lookupAutotuneRecord(*cache, recordKey, configCount)) {
      options.autotuneConfig = record->config;
      auto compiled = compile(source, kernelName, options);
      if (!compiled)
        return compiled.takeError();
      return tuned(std::move(*compiled), record->config, true,
                   std::move(record->timesMs));
    }

  bool verbose = settings.verbose;
  if (const char *print = std::getenv("TK_PRINT_AUTOTUNING"))
    verbose = verbose || std::string(print) == "1";
  std::vector<double> times(configCount, -1.0);
  std::optional<TunedKernel> best;
  std::string failures;
  for (unsigned config = 0; config < configCount; ++config) {
    options.autotuneConfig = config;
    auto compiled = compile(source, kernelName, options);
    std::string label = "config " + std::to_string(config);
    if (compiled && config < compiled->autotuneConfigs.size())
      label += " (" + compiled->autotuneConfigs[config] + ")";
    if (!compiled) {
      failures += "\n  " + label + ": " + llvm::toString(compiled.takeError());
      continue;
    }
    try {
      Module module = loadModule(context, *compiled);
      Kernel kernel = module.kernel();
      Stream stream = context.createStream();
      for (unsigned i = 0; i < settings.warmup; ++i)
        launch(static_cast<const Kernel &>(kernel), stream);
      stream.sync();
      Event start = context.createEvent();
      Event end = context.createEvent();
      unsigned repeats = settings.repeats ? settings.repeats : 1;
      start.record(stream);
      for (unsigned i = 0; i < repeats; ++i)
        launch(static_cast<const Kernel &>(kernel), stream);
      end.record(stream);
      times[config] = double(end.elapsedMsSince(start)) / repeats;
      if (!best || times[config] < times[best->config])
        best = TunedKernel{std::move(*compiled), module, config, false, {}};
    } catch (const Error &error) {
      failures += "\n  " + label + ": " + error.what();
      continue;
    }
    if (verbose)
      std::cerr << "tk: autotune " << kernelLabel << ": " << label << ": "
                << times[config] << " ms\n";
  }
  if (verbose && !failures.empty())
    std::cerr << "tk: autotune " << kernelLabel << ": skipped:" << failures
              << "\n";
  if (!best)
    return llvm::createStringError("tk: error: every @autotune config of " +
                                   kernelLabel + " failed:" + failures);
  if (verbose)
    std::cerr << "tk: autotune " << kernelLabel << ": config " << best->config
              << " wins\n";
  best->timesMs = times;
  if (cache)
    storeAutotuneRecord(*cache, recordKey, {best->config, times},
                        best->compiled, keyValues);
  return std::move(*best);
}

} // namespace tk::jit

#endif // TK_COMPILER_DRIVER_AUTOTUNERUNTIME_H
