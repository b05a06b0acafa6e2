//===- JitTuner.cpp - @autotune at the first launch of a key --------------===//
//
// 1. TK_AUTOTUNE=off: config 0, nothing timed.
// 2. A remembered record for (compile key with the specialization, key
//    values): compile that config only.
// 3. Otherwise compile all configs in parallel (parallelFor), then for each
//    config in order: load, `warmup` untimed launches, `repeats` launches
//    between two events on the launch's stream, mean time; print
//      autotune softmax[4096]: config 3/8 0.412 ms (best 0.398 ms, config 2)
//    (configs numbered from 1 in these lines). A config that fails to
//    compile, load or launch is reported and skipped, as Triton skips
//    OutOfResources. The winner is stored as an autotune record.
//
//===----------------------------------------------------------------------===//
#include "compiler/driver/JitTuner.h"

#include "compiler/driver/Autotune.h"
#include "compiler/driver/JitRuntime.h"
#include "compiler/driver/KernelCache.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <thread>

using namespace tk;
using namespace tk::jit;

void jit::parallelFor(size_t count, unsigned threads,
                      const std::function<void(size_t)> &task) {
  if (threads == 0)
    threads = std::max(1u, std::thread::hardware_concurrency());
  size_t workers = std::min<size_t>(threads, count);
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < count; i = next++)
      task(i);
  };
  std::vector<std::thread> pool;
  for (size_t i = 1; i < workers; ++i)
    pool.emplace_back(work);
  work();
  for (std::thread &thread : pool)
    thread.join();
}

static bool isOff(const char *name) {
  const char *value = std::getenv(name);
  if (!value)
    return false;
  std::string text(value);
  return text == "off" || text == "0" || text == "false" || text == "no";
}

static bool isOn(const char *name) {
  const char *value = std::getenv(name);
  if (!value)
    return false;
  std::string text(value);
  return text == "1" || text == "true" || text == "yes" || text == "on";
}

/// The first line of a message (compiler diagnostics span several).
static std::string firstLine(const std::string &message) {
  return message.substr(0, message.find('\n'));
}

static TunedConfig compileOne(const TuneRequest &request, unsigned config) {
  JitOptions options = request.options;
  options.autotuneConfig = config;
  auto compiled = compile(*request.source, request.kernelName, options);
  if (!compiled)
    throw Error(llvm::toString(compiled.takeError()));
  Module module = loadModule(*request.context, *compiled);
  return TunedConfig{std::move(*compiled), std::move(module), config};
}

/// Mean milliseconds of one launch of `kernel`.
static double timeConfig(const TuneRequest &request,
                         const tk::Kernel &kernel) {
  Grid grid = request.grid(kernel.metadata());
  for (unsigned i = 0; i < request.warmup; ++i)
    kernel.launchPacked(grid, request.stream, request.args, request.argCount);
  Event start(*request.context), end(*request.context);
  unsigned repeats = std::max(1u, request.repeats);
  start.record(request.stream);
  for (unsigned i = 0; i < repeats; ++i)
    kernel.launchPacked(grid, request.stream, request.args, request.argCount);
  end.record(request.stream);
  return double(end.elapsedMsSince(start)) / repeats;
}

TunedConfig jit::tuneAtLaunch(const TuneRequest &request) {
  if (isOff("TK_AUTOTUNE"))
    return compileOne(request, 0);

  KernelCache *cache = nullptr;
  std::string recordKey;
  if (request.options.useCache) {
    cache = request.options.cache ? request.options.cache
                                  : &KernelCache::getDefault();
    auto key = computeAutotuneCacheKey(*request.source, request.kernelName,
                                       request.options, request.keyValues);
    if (!key) {
      llvm::consumeError(key.takeError());
      cache = nullptr;
    } else if (!cache->isEnabled()) {
      cache = nullptr;
    } else {
      recordKey = std::move(*key);
    }
  }
  if (cache)
    if (std::optional<AutotuneRecord> record =
            lookupAutotuneRecord(*cache, recordKey, request.configCount))
      return compileOne(request, record->config);

  bool quiet = request.quiet || isOn("TK_AUTOTUNE_QUIET");
  size_t count = request.configCount;
  auto started = std::chrono::steady_clock::now();
  // Compile every config at once; each result or its message.
  std::vector<std::optional<CompiledKernel>> compiled(count);
  std::vector<std::string> failures(count);
  parallelFor(count, request.threads, [&](size_t config) {
    JitOptions options = request.options;
    options.autotuneConfig = unsigned(config);
    auto result = compile(*request.source, request.kernelName, options);
    if (result)
      compiled[config] = std::move(*result);
    else
      failures[config] = llvm::toString(result.takeError());
  });
  double compileSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started)
          .count();

  std::vector<double> times(count, -1.0);
  std::optional<TunedConfig> best;
  for (size_t config = 0; config < count; ++config) {
    std::string position =
        "config " + std::to_string(config + 1) + "/" + std::to_string(count);
    if (compiled[config]) {
      try {
        Module module = loadModule(*request.context, *compiled[config]);
        times[config] = timeConfig(request, module.kernel());
        if (!best || times[config] < times[best->config])
          best = TunedConfig{std::move(*compiled[config]), std::move(module),
                             unsigned(config)};
      } catch (const Error &error) {
        failures[config] = error.what();
      }
    }
    if (quiet)
      continue;
    if (times[config] < 0) {
      std::fprintf(stderr, "autotune %s: %s failed: %s\n",
                   request.label.c_str(), position.c_str(),
                   firstLine(failures[config]).c_str());
    } else {
      std::fprintf(stderr, "autotune %s: %s %.3f ms (best %.3f ms, config %u)\n",
                   request.label.c_str(), position.c_str(), times[config],
                   times[best->config], best->config + 1);
    }
  }
  if (!best) {
    std::string message = "autotune " + request.label + ": every config failed:";
    for (size_t config = 0; config < count; ++config)
      message += "\n  config " + std::to_string(config + 1) + ": " +
                 failures[config];
    throw Error(message);
  }
  if (!quiet) {
    std::string description =
        best->config < best->compiled.autotuneConfigs.size()
            ? " (" + best->compiled.autotuneConfigs[best->config] + ")"
            : "";
    std::fprintf(stderr,
                 "autotune %s: config %u wins%s; %zu configs compiled in "
                 "%.2f s\n",
                 request.label.c_str(), best->config + 1, description.c_str(),
                 count, compileSeconds);
  }
  if (cache)
    storeAutotuneRecord(*cache, recordKey, {best->config, times},
                        best->compiled, request.keyValues);
  return std::move(*best);
}
