//===- ReplayMain.cpp - Run a fuzz target's inputs without libFuzzer ------===//
//
// Builds without TK_FUZZ (g++, no libFuzzer) link the fuzz targets with
// this main instead, so that the saved reproducers (test/fuzz/regressions)
// and the seeds replay through the same entry point in every build, under
// the sanitizers when the build has them. The command line mirrors the
// way libFuzzer replays a corpus (`target -runs=0 DIR...`): flags starting
// with '-' are ignored, each other argument is a file or a folder of files.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int *argc,
                                                         char ***argv);

namespace fs = std::filesystem;

int main(int argc, char **argv) {
  if (LLVMFuzzerInitialize)
    LLVMFuzzerInitialize(&argc, &argv);

  std::vector<fs::path> inputs;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (!arg.empty() && arg[0] == '-')
      continue;
    std::error_code error;
    if (fs::is_directory(arg, error)) {
      for (const auto &entry : fs::recursive_directory_iterator(arg))
        if (entry.is_regular_file() &&
            entry.path().filename().string()[0] != '.')
          inputs.push_back(entry.path());
    } else if (fs::is_regular_file(arg, error)) {
      inputs.push_back(arg);
    } else {
      std::fprintf(stderr, "%s: no such file or folder: %s\n", argv[0],
                   arg.c_str());
      return 1;
    }
  }
  std::sort(inputs.begin(), inputs.end());

  for (const fs::path &path : inputs) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    std::string data = bytes.str();
    // Named before running, so that a crash's log says which input it was.
    std::fprintf(stderr, "running %s (%zu bytes)\n", path.c_str(),
                 data.size());
    std::fflush(stderr);
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(data.data()),
                           data.size());
  }
  std::printf("%s: %zu inputs ran without a finding\n", argv[0],
              inputs.size());
  return 0;
}
