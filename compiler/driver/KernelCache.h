//===- KernelCache.h - the on-disk cache of compiled kernels ----*- C++ -*-===//
//
// What the JIT (Jit.h) compiled, kept on disk between processes, in the
// spirit of Triton's TRITON_CACHE_DIR. The cache knows nothing about
// kernels: an entry is a few named files (metadata JSON, cubin, tk IR, ...)
// stored under a key that the caller computes with CacheKeyBuilder from
// everything that decides the output.
//
// Layout (docs/cache.md):
//   <directory>/<key>/manifest       names, sizes and SHA-256 of the files,
//                                    and a checksum of itself
//   <directory>/<key>/<file>...
// An entry is written complete into a fresh temporary folder beside the
// entries (<directory>/.tmp-...) and renamed into place in one step, so a
// reader sees a whole entry or none, and two processes filling the same
// entry both succeed. A damaged entry (truncated, flipped bits, garbage)
// fails its manifest check: it is reported ("tk: warning: ignoring corrupt
// cache entry <path>: <why>"), treated as a miss, and replaced by the next
// store (under an flock on <directory>/.lock, so that processes repairing
// one entry at once keep each other's fresh copies). A cache that cannot be
// written (read-only, full, not a folder) is reported once; compiling goes
// on without it. No content of the cache can crash the reader.
//
// Plain C++17 and POSIX; no LLVM, so it can be tested on its own.
//
//===----------------------------------------------------------------------===//
#ifndef TK_COMPILER_DRIVER_KERNELCACHE_H
#define TK_COMPILER_DRIVER_KERNELCACHE_H

#include "compiler/driver/Sha256.h"

#include <atomic>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace tk {

/// The files of one entry, by name. A name is 1-100 characters of
/// [A-Za-z0-9._-] not starting with '.' ("metadata.json", "kernel.cubin").
using CacheFiles = std::map<std::string, std::string>;

/// Computes a cache key: the SHA-256 of named fields, each written with its
/// length so that different field lists never serialize alike. Add every
/// input that can change the cached output.
class CacheKeyBuilder {
public:
  CacheKeyBuilder &add(std::string_view field, std::string_view value);
  CacheKeyBuilder &add(std::string_view field, long long value);
  /// The key: 64 lower-case hex digits.
  std::string getKey() const;

private:
  Sha256 hash;
};

struct KernelCacheConfig {
  /// The root folder (created on the first store).
  std::string directory;
  /// False: every lookup misses and store does nothing.
  bool enabled = true;
  /// Receives each warning as a complete line without the newline
  /// ("tk: warning: ..."); null: the line goes to stderr.
  std::function<void(const std::string &)> warningHandler;
  /// For tests: called with the path before each change the cache makes on
  /// disk (creating a folder or file, writing it, renaming); a non-zero
  /// errno value makes that step fail as if the system had returned it,
  /// e.g. ENOSPC for a full disk.
  std::function<int(const std::string &path)> writeFaultHook;
  /// The size cap in bytes (TK_CACHE_MAX_BYTES); 0: none. After a store
  /// pushes the cache past it, least recently used entries are removed
  /// (KernelCacheUsage.cpp).
  uint64_t maxBytes = 0;
};

/// What tkc --cache-info prints.
struct KernelCacheInfo {
  size_t entries = 0;
  /// The bytes of the entries' files, manifests included.
  uint64_t bytes = 0;
  /// When the least recently used entry was last stored or looked up
  /// (seconds since the epoch); 0 when the cache is empty.
  int64_t oldestUse = 0;
  /// Left-over temporary folders (.tmp-*, .stale-*), not counted above.
  size_t temporaries = 0;
};

/// Parses TK_CACHE_MAX_BYTES text: a number of bytes, with an optional K,
/// M or G suffix (powers of 1024). nullopt when malformed.
std::optional<uint64_t> parseCacheSize(std::string_view text);

/// The configuration the environment asks for: disabled when
/// TK_CACHE_DISABLE is 1/true/yes/on; the directory is TK_CACHE_DIR, else
/// $XDG_CACHE_HOME/tk, else ~/.cache/tk (disabled when no home is known).
KernelCacheConfig getKernelCacheConfigFromEnvironment();

class KernelCache {
public:
  explicit KernelCache(KernelCacheConfig config);
  KernelCache(const KernelCache &) = delete;
  KernelCache &operator=(const KernelCache &) = delete;

  /// The cache of this process, configured from the environment on first
  /// use.
  static KernelCache &getDefault();

  bool isEnabled() const { return config.enabled; }
  /// False once a store failed to write (warned about once).
  bool isWritable() const { return writable.load(); }
  const std::string &getDirectory() const { return config.directory; }
  /// <directory>/<key>.
  std::string getEntryPath(std::string_view key) const;

  static bool isValidKey(std::string_view key);
  static bool isValidFileName(std::string_view name);

  /// The files of entry `key`; nullopt when it is absent, when the cache is
  /// disabled, or when it is corrupt (then warned about).
  std::optional<CacheFiles> lookup(std::string_view key);

  /// Makes `files` entry `key`, replacing a corrupt entry. Returns whether
  /// the entry is now in the cache (true too when another process stored
  /// it first). A failed write warns once and disables further stores.
  bool store(std::string_view key, const CacheFiles &files);

  /// Entries, bytes and the oldest use (KernelCacheUsage.cpp).
  KernelCacheInfo getInfo() const;
  /// Removes every entry and left-over temporary folder; returns what
  /// was there.
  KernelCacheInfo clear();
  /// Removes least recently used entries (other than `keep`) until the
  /// cache holds at most `limit` bytes; returns how many it removed.
  size_t evictToSize(uint64_t limit, std::string_view keep = {});

  /// For entries that pass the cache's checks but not the caller's (a file
  /// it needs is missing): warns as for a corrupt entry and removes it, so
  /// that the next store writes it anew.
  void discardCorruptEntry(std::string_view key, const std::string &why);

private:
  /// Moves entry `key` aside and deletes it; false when that failed.
  bool removeEntry(std::string_view key);
  void warn(const std::string &message) const;
  /// Reports a failed write the first time, and stops writing.
  void disableWrites(const std::string &path, int error);
  /// Errno of the fault hook for `path`, or 0.
  int injectedFault(const std::string &path) const;
  bool writeStaging(const std::string &staging, std::string_view key,
                    const CacheFiles &files, std::string &failedPath,
                    int &error) const;
  std::string makeTemporaryPath(const char *kind, std::string_view key) const;

  KernelCacheConfig config;
  std::atomic<bool> writable{true};
};

} // namespace tk

#endif // TK_COMPILER_DRIVER_KERNELCACHE_H
