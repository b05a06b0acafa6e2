//===- MemoryRegistry.cpp - The buffers a kernel may touch ----------------===//
#include "compiler/interpreter/MemoryRegistry.h"

using namespace tk::interp;

void MemoryRegistry::add(uint64_t base, uint64_t size, std::string label) {
  std::lock_guard<std::mutex> lock(mutex);
  ranges[base] = MemoryRange{base, size, std::move(label)};
}

bool MemoryRegistry::remove(uint64_t base) {
  std::lock_guard<std::mutex> lock(mutex);
  return ranges.erase(base) != 0;
}

size_t MemoryRegistry::size() const {
  std::lock_guard<std::mutex> lock(mutex);
  return ranges.size();
}

std::optional<MemoryRange> MemoryRegistry::find(uint64_t address,
                                                uint64_t bytes) const {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = ranges.upper_bound(address);
  if (it == ranges.begin())
    return std::nullopt;
  --it;
  if (!it->second.contains(address, bytes))
    return std::nullopt;
  return it->second;
}

std::optional<MemoryRange> MemoryRegistry::nearest(uint64_t address) const {
  std::lock_guard<std::mutex> lock(mutex);
  if (ranges.empty())
    return std::nullopt;
  // Candidates: the last buffer starting at or below `address`, and the
  // first one starting above it.
  auto above = ranges.upper_bound(address);
  const MemoryRange *best = nullptr;
  uint64_t bestDistance = UINT64_MAX;
  if (above != ranges.begin()) {
    const MemoryRange &below = std::prev(above)->second;
    best = &below;
    bestDistance = address < below.end() ? 0 : address - below.end() + 1;
  }
  if (above != ranges.end() && above->second.base - address < bestDistance)
    best = &above->second;
  return *best;
}
