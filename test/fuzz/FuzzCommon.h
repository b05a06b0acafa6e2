//===- FuzzCommon.h - What every tk fuzz target shares ----------*- C++ -*-===//
//
// A fuzz target reports a finding by aborting: libFuzzer (and ASan/UBSan,
// which abort on their own) then saves the input as crash-<sha1>. Beyond
// crashes, the targets check the contracts of the code under test: the
// frontend reports only `file:line:col: error:` diagnostics that point into
// the file, libtkrt reports only tk::Error, and what a reader accepts it
// must also accept after a write/read round trip.
//
//===----------------------------------------------------------------------===//

#ifndef TK_TEST_FUZZ_FUZZCOMMON_H
#define TK_TEST_FUZZ_FUZZCOMMON_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

namespace tk {
namespace fuzz {

/// Prints `what` and aborts, which libFuzzer records as a crash.
[[noreturn]] inline void fail(const std::string &what) {
  std::fprintf(stderr, "\n*** tk fuzz target: contract violated: %s\n",
               what.c_str());
  std::fflush(stderr);
  std::abort();
}

/// Fails with `what` unless `condition` holds.
inline void require(bool condition, const std::string &what) {
  if (!condition)
    fail(what);
}

/// TK_FUZZ_VERBOSE=1 makes the targets say what became of each input
/// (accepted, or the diagnostic): for checking what a corpus reaches.
inline bool verbose() {
  static const bool enabled = [] {
    const char *value = std::getenv("TK_FUZZ_VERBOSE");
    return value && *value && std::string(value) != "0";
  }();
  return enabled;
}

/// Prints a line to stderr when verbose().
inline void note(const std::string &line) {
  if (verbose())
    std::fprintf(stderr, "tk-fuzz: %s\n", line.c_str());
}

/// Takes values from the front of the fuzzer's bytes; once they run out,
/// every value is zero (so that short inputs still mean something).
class ByteReader {
public:
  explicit ByteReader(std::string_view bytes) : bytes(bytes) {}

  template <typename T> T take() {
    static_assert(std::is_integral_v<T>, "integers only");
    T value = 0;
    size_t n = std::min(sizeof(T), bytes.size() - position);
    if (n == 0)
      return value; // (memcpy from the null data of an empty view is UB)
    std::memcpy(&value, bytes.data() + position, n); // little-endian host
    position += n;
    return value;
  }
  bool empty() const { return position == bytes.size(); }

private:
  std::string_view bytes;
  size_t position = 0;
};

} // namespace fuzz
} // namespace tk

#endif // TK_TEST_FUZZ_FUZZCOMMON_H
