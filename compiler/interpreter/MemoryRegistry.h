//===- MemoryRegistry.h - The buffers a kernel may touch ---------*- C++ -*-===//
//
// The interpreter runs kernels on host memory, so a wrong pointer would
// silently corrupt the process. Instead every address a kernel reads or
// writes must fall inside a buffer registered here: the interpreter
// backend's allocations, or the buffers a tool such as tk-run bound. An
// access outside all of them is reported with the nearest buffer, so the
// message can say how far past the end it went.
//
// Thread-safe; the interpreter keeps a per-instruction cache of the last
// buffer hit, so lookups here are off the hot path.
//
//===----------------------------------------------------------------------===//

#ifndef TK_COMPILER_INTERPRETER_MEMORYREGISTRY_H
#define TK_COMPILER_INTERPRETER_MEMORYREGISTRY_H

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace tk::interp {

/// A registered buffer [base, base + size).
struct MemoryRange {
  uint64_t base = 0;
  uint64_t size = 0;
  /// Names the buffer in messages when no kernel argument points into it
  /// (e.g. the .npy file it was read from); may be empty.
  std::string label;

  uint64_t end() const { return base + size; }
  bool contains(uint64_t address, uint64_t bytes) const {
    return address >= base && address <= end() && bytes <= end() - address;
  }
};

class MemoryRegistry {
public:
  /// Registers [base, base + size); replaces a buffer with the same base.
  /// Buffers must not overlap (not checked: allocations never do).
  void add(uint64_t base, uint64_t size, std::string label = "");
  void add(const void *base, uint64_t size, std::string label = "") {
    add(reinterpret_cast<uintptr_t>(base), size, std::move(label));
  }
  /// Forgets the buffer starting at `base`; returns whether there was one.
  bool remove(uint64_t base);

  /// The buffer holding all of [address, address + bytes), if any.
  std::optional<MemoryRange> find(uint64_t address, uint64_t bytes) const;
  /// The buffer closest to `address` (containing it, or the smallest
  /// distance to either end), for messages; std::nullopt when empty.
  std::optional<MemoryRange> nearest(uint64_t address) const;

  size_t size() const;

private:
  mutable std::mutex mutex;
  std::map<uint64_t, MemoryRange> ranges; // by base
};

} // namespace tk::interp

#endif // TK_COMPILER_INTERPRETER_MEMORYREGISTRY_H
