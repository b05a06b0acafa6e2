//===- MetadataFuzzer.cpp - libFuzzer target for metadata parsing ---------===//

#include "tk/Error.h"
#include "tk/Metadata.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  try {
    tk::Metadata md = tk::Metadata::parse(
        std::string_view(reinterpret_cast<const char *>(data), size), "fuzz");
    // Whatever parses must serialize and parse back.
    tk::Metadata::parse(md.toJson(), "fuzz-again");
  } catch (const tk::Error &) {
  }
  return 0;
}
