//===- TestCacheDir.h - temporary folders for the cache tests ---*- C++ -*-===//
#ifndef TK_TEST_UNIT_CACHE_TESTCACHEDIR_H
#define TK_TEST_UNIT_CACHE_TESTCACHEDIR_H

#include "compiler/driver/KernelCache.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <string>
#include <vector>

namespace tk::test {

/// A fresh folder under $TMPDIR (or /tmp), removed with its contents.
class TemporaryDirectory {
public:
  TemporaryDirectory() {
    const char *base = std::getenv("TMPDIR");
    std::string pattern =
        std::string(base && *base ? base : "/tmp") + "/tk-cache-test-XXXXXX";
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    if (char *made = ::mkdtemp(buffer.data()))
      path = made;
  }
  ~TemporaryDirectory() {
    std::error_code ignored;
    // Undo chmod 0555 so the folder can be removed.
    std::filesystem::permissions(path, std::filesystem::perms::owner_all,
                                 std::filesystem::perm_options::add, ignored);
    std::filesystem::remove_all(path, ignored);
  }
  std::string path;
};

/// Collects the cache's warnings.
class WarningLog {
public:
  std::function<void(const std::string &)> handler() {
    return [this](const std::string &line) {
      std::lock_guard<std::mutex> lock(mutex);
      lines.push_back(line);
    };
  }
  std::vector<std::string> take() {
    std::lock_guard<std::mutex> lock(mutex);
    return std::move(lines);
  }

private:
  std::mutex mutex;
  std::vector<std::string> lines;
};

inline std::string readWholeFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

inline void writeWholeFile(const std::string &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

} // namespace tk::test

#endif // TK_TEST_UNIT_CACHE_TESTCACHEDIR_H
