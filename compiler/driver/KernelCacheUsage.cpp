//===- KernelCacheUsage.cpp - size, clearing and LRU eviction -------------===//
//
// The cache's size management, apart from its entry format (KernelCache.cpp):
//   - an entry is a folder named by its 64-hex-digit key; its size is the
//     sum of its files' sizes; its last use is its manifest's mtime, which
//     a store sets and every lookup hit refreshes (utimensat);
//   - getInfo() adds the entries up (tkc --cache-info);
//   - clear() removes every entry and left-over temporary folder
//     (tkc --cache-clear);
//   - evictToSize(limit) removes entries oldest use first until at most
//     `limit` bytes remain, sparing the entry just stored; store() calls it
//     when TK_CACHE_MAX_BYTES is set. Entries go through removeEntry (renamed
//     aside, then deleted), so a concurrent reader sees a whole entry or a
//     miss, never half of one.
//
//===----------------------------------------------------------------------===//
#include "compiler/driver/KernelCache.h"

#include <algorithm>
#include <filesystem>
#include <vector>

#include <sys/stat.h>

using namespace tk;
namespace fs = std::filesystem;

namespace {

struct EntryUsage {
  std::string key;
  uint64_t bytes = 0;
  int64_t lastUse = 0;
};

/// The entries under `directory`; temporary folders are counted apart.
std::vector<EntryUsage> listEntries(const std::string &directory,
                                    size_t *temporaries) {
  std::vector<EntryUsage> entries;
  std::error_code error;
  for (fs::directory_iterator it(directory, error), end; !error && it != end;
       it.increment(error)) {
    std::string name = it->path().filename().string();
    if (name.rfind(".tmp-", 0) == 0 || name.rfind(".stale-", 0) == 0) {
      if (temporaries)
        ++*temporaries;
      continue;
    }
    std::error_code ignored;
    if (!KernelCache::isValidKey(name) || !it->is_directory(ignored))
      continue;
    EntryUsage entry;
    entry.key = name;
    for (fs::directory_iterator file(it->path(), ignored), fileEnd;
         !ignored && file != fileEnd; file.increment(ignored)) {
      std::error_code sizeError;
      uintmax_t size = file->file_size(sizeError);
      if (!sizeError)
        entry.bytes += size;
    }
    struct stat info;
    std::string manifest = it->path().string() + "/manifest";
    if (::stat(manifest.c_str(), &info) == 0)
      entry.lastUse = int64_t(info.st_mtime);
    entries.push_back(std::move(entry));
  }
  return entries;
}

} // namespace

std::optional<uint64_t> tk::parseCacheSize(std::string_view text) {
  if (text.empty())
    return std::nullopt;
  uint64_t value = 0;
  size_t i = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    if (value > (UINT64_MAX - 9) / 10)
      return std::nullopt;
    value = value * 10 + uint64_t(text[i] - '0');
  }
  if (i == 0)
    return std::nullopt;
  std::string_view suffix = text.substr(i);
  unsigned shift = suffix.empty()                     ? 0
                   : suffix == "K" || suffix == "k"   ? 10
                   : suffix == "M" || suffix == "m"   ? 20
                   : suffix == "G" || suffix == "g"   ? 30
                                                      : 64;
  if (shift == 64 || (shift && value > (UINT64_MAX >> shift)))
    return std::nullopt;
  return value << shift;
}

KernelCacheInfo KernelCache::getInfo() const {
  KernelCacheInfo info;
  for (const EntryUsage &entry :
       listEntries(config.directory, &info.temporaries)) {
    ++info.entries;
    info.bytes += entry.bytes;
    if (info.oldestUse == 0 || (entry.lastUse && entry.lastUse < info.oldestUse))
      info.oldestUse = entry.lastUse;
  }
  return info;
}

KernelCacheInfo KernelCache::clear() {
  KernelCacheInfo info = getInfo();
  for (const EntryUsage &entry : listEntries(config.directory, nullptr))
    removeEntry(entry.key);
  std::error_code error;
  for (fs::directory_iterator it(config.directory, error), end;
       !error && it != end; it.increment(error)) {
    std::string name = it->path().filename().string();
    if (name.rfind(".tmp-", 0) == 0 || name.rfind(".stale-", 0) == 0) {
      std::error_code ignored;
      fs::remove_all(it->path(), ignored);
    }
  }
  return info;
}

size_t KernelCache::evictToSize(uint64_t limit, std::string_view keep) {
  std::vector<EntryUsage> entries = listEntries(config.directory, nullptr);
  uint64_t total = 0;
  for (const EntryUsage &entry : entries)
    total += entry.bytes;
  if (total <= limit)
    return 0;
  // Oldest use first; ties by key, so that processes agree on the order.
  std::sort(entries.begin(), entries.end(),
            [](const EntryUsage &a, const EntryUsage &b) {
              return a.lastUse != b.lastUse ? a.lastUse < b.lastUse
                                            : a.key < b.key;
            });
  size_t removed = 0;
  for (const EntryUsage &entry : entries) {
    if (total <= limit)
      break;
    if (entry.key == keep)
      continue;
    if (removeEntry(entry.key)) {
      total -= std::min(total, entry.bytes);
      ++removed;
    }
  }
  return removed;
}
