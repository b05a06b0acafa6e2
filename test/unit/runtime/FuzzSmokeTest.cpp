//===- FuzzSmokeTest.cpp - Parsers survive hostile input ------------------===//
//
// A deterministic, in-process stand-in for the fuzzers in runtime/fuzz/:
// random mutations of valid inputs must produce a value or a tk::Error,
// never a crash, a hang or another exception type.
//
//===----------------------------------------------------------------------===//

#include "tk/Error.h"
#include "tk/Json.h"
#include "tk/Metadata.h"
#include "tk/npy.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

using namespace tk;

namespace {

const char *kMetadata = R"({"tk_metadata_version": 1, "name": "softmax",
  "arch": "sm_90a", "num_warps": 4, "num_stages": 3, "shared_bytes": 4096,
  "binary": "softmax.cubin", "binary_kind": "cubin", "tk_ir": "s.tk.mlir",
  "args": [{"name": "out_ptr", "type": "*f32", "spec": "div16"},
           {"name": "n", "type": "i32", "spec": "one"},
           {"name": "s", "type": "f32"}],
  "constexprs": {"BLOCK": 1024, "E": 1.5e-3, "B": false}, "grid_rank": 2})";

std::string mutate(std::string s, std::mt19937 &random) {
  static const char kInteresting[] = "{}[]\":,\\u0-1eE.tfn \x93\xff\x00'()LT";
  int edits = 1 + static_cast<int>(random() % 8);
  for (int i = 0; i < edits; ++i) {
    size_t at = s.empty() ? 0 : random() % (s.size() + 1);
    switch (random() % 5) {
    case 0: // Flip a byte.
      if (!s.empty() && at < s.size())
        s[at] = static_cast<char>(random());
      break;
    case 1: // Insert an interesting byte.
      s.insert(at, 1, kInteresting[random() % (sizeof(kInteresting) - 1)]);
      break;
    case 2: // Delete a range.
      if (at < s.size())
        s.erase(at, 1 + random() % 16);
      break;
    case 3: // Duplicate a range.
      if (at < s.size())
        s.insert(at, s.substr(at, 1 + random() % 32));
      break;
    case 4: // Truncate.
      s.resize(at);
      break;
    }
  }
  return s;
}

template <typename F> void expectValueOrError(F &&f) {
  try {
    f();
  } catch (const Error &) {
  }
}

TEST(FuzzSmoke, Json) {
  std::mt19937 random(1);
  for (int i = 0; i < 20000; ++i)
    expectValueOrError([&] { json::parse(mutate(kMetadata, random), "f"); });
}

TEST(FuzzSmoke, Metadata) {
  std::mt19937 random(2);
  for (int i = 0; i < 20000; ++i)
    expectValueOrError(
        [&] { Metadata::parse(mutate(kMetadata, random), "f"); });
}

TEST(FuzzSmoke, Npy) {
  NpyArray array;
  array.dtype = "f32";
  array.shape = {3, 2};
  array.data.assign(24, 0x41);
  std::string valid = writeNpyToMemory(array);
  std::mt19937 random(3);
  for (int i = 0; i < 20000; ++i)
    expectValueOrError([&] { readNpyFromMemory(mutate(valid, random)); });
}

TEST(FuzzSmoke, RandomBytes) {
  std::mt19937 random(4);
  for (int i = 0; i < 5000; ++i) {
    std::string bytes(random() % 200, '\0');
    for (char &c : bytes)
      c = static_cast<char>(random());
    expectValueOrError([&] { json::parse(bytes, "f"); });
    expectValueOrError([&] { Metadata::parse(bytes, "f"); });
    expectValueOrError([&] { readNpyFromMemory("\x93NUMPY\x01" + bytes); });
  }
}

} // namespace
