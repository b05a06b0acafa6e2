//===- Autotune.h - remembered @autotune results ----------------*- C++ -*-===//
//
// What the autotuner (AutotuneRuntime.h, which times the configs through
// libtkrt) keeps between processes: for one kernel, compile options and
// tuple of key values, which config won. The record is an entry of the
// kernel cache holding autotune.json:
//
//   {"kernel": "matmul", "key": ["M", "N", "K"],
//    "key_values": ["4096", "4096", "4096"], "config": 1,
//    "configs": ["BLOCK_M=128, ...", ...], "times_ms": [0.91, 0.52, ...]}
//
// under a key hashed from the kernel's compile key (without the config
// index) and the key values (docs/cache.md).
//
//===----------------------------------------------------------------------===//
#ifndef TK_COMPILER_DRIVER_AUTOTUNE_H
#define TK_COMPILER_DRIVER_AUTOTUNE_H

#include "compiler/driver/Jit.h"

#include <optional>
#include <string>
#include <vector>

namespace tk {

class KernelCache;

namespace jit {

/// What the @autotune decorator of a kernel says, read from the syntax
/// alone: known even when some configs do not compile.
struct AutotuneDecorator {
  /// 0 without @autotune.
  size_t configCount = 0;
  /// The names in key=[...].
  std::vector<std::string> key;
};

/// The decorator of `kernelName` in `source` (the only kernel when empty).
/// Errors are parse errors, as compile() reports them.
llvm::Expected<AutotuneDecorator>
readAutotuneDecorator(const KernelSource &source, const std::string &kernelName,
                      const std::string &toolName = "tk");

/// The result of one tuning run.
struct AutotuneRecord {
  /// Index of the winning config.
  unsigned config = 0;
  /// Mean time of each config in milliseconds; negative for a config that
  /// failed to compile or to run.
  std::vector<double> timesMs;
};

/// The cache key of the tuning result of `kernelName` (with `options`,
/// whose autotuneConfig is ignored) for `keyValues`.
llvm::Expected<std::string> computeAutotuneCacheKey(
    const KernelSource &source, const std::string &kernelName,
    const JitOptions &options, const std::vector<std::string> &keyValues);

/// The remembered record under `key`, if any and if it names one of
/// `configCount` configs (anything else is warned about and ignored).
std::optional<AutotuneRecord> lookupAutotuneRecord(KernelCache &cache,
                                                   const std::string &key,
                                                   size_t configCount);

/// Remembers `record` for `kernel` (whose autotune key and configs it
/// names) and `keyValues`. Returns whether it was stored.
bool storeAutotuneRecord(KernelCache &cache, const std::string &key,
                         const AutotuneRecord &record,
                         const CompiledKernel &kernel,
                         const std::vector<std::string> &keyValues);

} // namespace jit
} // namespace tk

#endif // TK_COMPILER_DRIVER_AUTOTUNE_H
