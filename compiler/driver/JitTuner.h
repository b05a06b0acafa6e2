//===- JitTuner.h - @autotune at the first launch of a key ------*- C++ -*-===//
//
// The launch-time JIT's autotuner (include/tk/jit.h): compiles every config
// of an @autotune list at once on a pool of threads (each compile goes
// through the kernel cache on its own; no lock is held across configs),
// then loads and times the configs one after the other with the launch's
// own arguments and grid, and reports progress on stderr. The winner is
// remembered as an autotune record (Autotune.h), so a later process
// compiles only the winner.
//
// Internal to libtkjit; compiled with exceptions (libtkrt's tk::Error).
//
//===----------------------------------------------------------------------===//
#ifndef TK_COMPILER_DRIVER_JITTUNER_H
#define TK_COMPILER_DRIVER_JITTUNER_H

#include "compiler/driver/Jit.h"

#include "tk/jit.h"

#include <functional>
#include <string>
#include <vector>

namespace tk::jit {

/// One config's outcome.
struct TunedConfig {
  CompiledKernel compiled;
  Module module;
  unsigned config = 0;
};

struct TuneRequest {
  const Context *context = nullptr;
  const KernelSource *source = nullptr;
  std::string kernelName;
  /// Compile options with the launch's specialization; autotuneConfig is
  /// set per config.
  JitOptions options;
  size_t configCount = 0;
  /// "softmax[4096]": names the tuning in progress lines.
  std::string label;
  /// The key values as text, for the remembered record.
  std::vector<std::string> keyValues;
  /// Grid for a config's kernel.
  std::function<Grid(const Metadata &)> grid;
  Stream *stream = nullptr;
  const ArgValue *args = nullptr;
  size_t argCount = 0;
  unsigned warmup = 2;
  unsigned repeats = 10;
  unsigned threads = 0;
  bool quiet = false;
};

/// Compiles the first config (TK_AUTOTUNE=off), the remembered winner, or
/// times every config and returns the fastest. Throws tk::Error when no
/// config compiles and runs (listing why each failed).
TunedConfig tuneAtLaunch(const TuneRequest &request);

/// Runs `task(i)` for i in [0, count) on up to `threads` threads (0: one
/// per core), the calling thread among them.
void parallelFor(size_t count, unsigned threads,
                 const std::function<void(size_t)> &task);

} // namespace tk::jit

#endif // TK_COMPILER_DRIVER_JITTUNER_H
