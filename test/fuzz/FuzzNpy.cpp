//===- FuzzNpy.cpp - libFuzzer target: the .npy reader --------------------===//
//
// tk-fuzz-npy: the input is the bytes of a .npy file (tk-run --in, the
// example programs' reference data). The reader must accept it or throw
// tk::Error. What it accepts must be self-consistent (data size = elements
// x element size) and survive a write/read round trip unchanged.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "tk/Error.h"
#include "tk/npy.h"

#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>

using namespace tk;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char *>(data), size);
  NpyArray array;
  try {
    array = readNpyFromMemory(bytes, "fuzz.npy");
  } catch (const Error &) {
    return 0; // Rejected with a message: fine.
  } catch (const std::exception &error) {
    fuzz::fail(std::string("readNpyFromMemory threw a non-tk::Error: ") +
               error.what());
  }

  for (int64_t dim : array.shape)
    fuzz::require(dim >= 0, "accepted a negative dimension");
  fuzz::require(!npyDescrForDtype(array.dtype).empty(),
                "accepted an array of unknown dtype '" + array.dtype + "'");
  fuzz::require(array.data.size() ==
                    array.elementCount() * array.elementSize(),
                "accepted an array whose data size does not match its shape");

  std::string written;
  try {
    written = writeNpyToMemory(array);
  } catch (const std::exception &error) {
    fuzz::fail(std::string("writeNpyToMemory rejected what the reader "
                           "accepted: ") +
               error.what());
  }
  NpyArray reread;
  try {
    reread = readNpyFromMemory(written, "fuzz-rewritten.npy");
  } catch (const std::exception &error) {
    fuzz::fail(std::string("the reader rejected what the writer wrote: ") +
               error.what());
  }
  fuzz::require(reread.dtype == array.dtype, "dtype changed in a round trip");
  fuzz::require(reread.shape == array.shape, "shape changed in a round trip");
  fuzz::require(reread.data == array.data, "data changed in a round trip");
  return 0;
}
