//===- JsonFuzzer.cpp - libFuzzer target for the JSON reader --------------===//

#include "tk/Error.h"
#include "tk/Json.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  try {
    tk::json::parse(
        std::string_view(reinterpret_cast<const char *>(data), size), "fuzz");
  } catch (const tk::Error &) {
  }
  return 0;
}
