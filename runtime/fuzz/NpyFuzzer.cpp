//===- NpyFuzzer.cpp - libFuzzer target for the .npy reader ---------------===//

#include "tk/Error.h"
#include "tk/npy.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  try {
    tk::NpyArray array = tk::readNpyFromMemory(
        std::string_view(reinterpret_cast<const char *>(data), size), "fuzz");
    // Whatever reads must write and read back identically.
    tk::NpyArray again = tk::readNpyFromMemory(tk::writeNpyToMemory(array));
    if (again.dtype != array.dtype || again.shape != array.shape ||
        again.data != array.data)
      std::abort();
  } catch (const tk::Error &) {
  }
  return 0;
}
