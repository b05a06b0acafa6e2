//===- Sha256.h - SHA-256 without LLVM --------------------------*- C++ -*-===//
//
// FIPS 180-4 SHA-256, for the kernel cache: its keys and the checksums of
// its entries. Plain C++ so that the cache (and its tests) need no LLVM.
//
//===----------------------------------------------------------------------===//
#ifndef TK_COMPILER_DRIVER_SHA256_H
#define TK_COMPILER_DRIVER_SHA256_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace tk {

/// An incremental SHA-256: update() any number of times, then digest().
class Sha256 {
public:
  using Digest = std::array<uint8_t, 32>;

  Sha256();
  void update(const void *data, size_t size);
  void update(std::string_view text) { update(text.data(), text.size()); }
  /// Finishes the hash; the object must not be updated afterwards.
  Digest digest();

private:
  void compressBlock(const uint8_t *block);

  std::array<uint32_t, 8> state;
  std::array<uint8_t, 64> buffer;
  size_t buffered = 0;
  uint64_t totalBytes = 0;
};

/// Lower-case hex of `digest` (64 characters).
std::string toHex(const Sha256::Digest &digest);

/// The hex SHA-256 of `data`.
std::string sha256Hex(std::string_view data);

} // namespace tk

#endif // TK_COMPILER_DRIVER_SHA256_H
