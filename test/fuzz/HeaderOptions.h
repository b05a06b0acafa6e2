//===- HeaderOptions.h - tkc options written in a .tk file's header -*- C++ -*-===//
//
// The .tk fuzz targets take a single file, but a kernel with constexpr
// parameters only compiles with values for them. So the options tkc would
// get travel in the file itself: every comment line before the first line
// of code is scanned for
//
//   -D NAME=VALUE   (or -DNAME=VALUE)   --num-warps N   --num-stages N
//   -k NAME                             --arch sm_90a|sm_80
//
// anywhere in the line; other words are ignored. The examples already
// carry such a line (`#   tkc examples/softmax.tk -k softmax -D BLOCK=1024
// --num-warps 4 ...`), so they are seeds as they are. For example:
//
//   # -D BLOCK=128 -D EPS=1e-5 --num-warps 8
//   @kernel
//   def k(x_ptr: *f32, BLOCK: constexpr, EPS: constexpr): ...
//
// Values are taken as text, as tkc takes them; an unparseable number makes
// the option absent (tkc would have refused the command line).
//
//===----------------------------------------------------------------------===//

#ifndef TK_TEST_FUZZ_HEADEROPTIONS_H
#define TK_TEST_FUZZ_HEADEROPTIONS_H

#include <cstdlib>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tk {
namespace fuzz {

struct HeaderOptions {
  std::string kernelName;
  std::vector<std::pair<std::string, std::string>> defines;
  std::optional<long long> numWarps;
  std::optional<long long> numStages;
  std::string arch = "sm_90a";
};

inline std::optional<long long> parseCount(const std::string &text) {
  if (text.empty() || text.size() > 9)
    return std::nullopt;
  for (char c : text)
    if (c < '0' || c > '9')
      return std::nullopt;
  return std::atoll(text.c_str());
}

inline void addDefine(HeaderOptions &options, const std::string &word) {
  size_t equals = word.find('=');
  if (equals == std::string::npos || equals == 0)
    return;
  options.defines.emplace_back(word.substr(0, equals), word.substr(equals + 1));
}

inline HeaderOptions parseHeaderOptions(std::string_view text) {
  HeaderOptions options;
  std::vector<std::string> words;
  size_t position = 0;
  while (position < text.size()) {
    size_t end = text.find('\n', position);
    if (end == std::string_view::npos)
      end = text.size();
    std::string_view line = text.substr(position, end - position);
    position = end + 1;
    size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string_view::npos)
      continue; // blank lines may separate header comments
    if (line[first] != '#')
      break; // the first line of code ends the header
    std::istringstream in{std::string(line.substr(first + 1))};
    for (std::string word; in >> word;)
      words.push_back(word);
  }

  for (size_t i = 0; i < words.size(); ++i) {
    const std::string &word = words[i];
    bool hasNext = i + 1 < words.size();
    if (word == "-D" && hasNext) {
      addDefine(options, words[++i]);
    } else if (word.size() > 2 && word.compare(0, 2, "-D") == 0) {
      addDefine(options, word.substr(2));
    } else if (word == "-k" && hasNext) {
      options.kernelName = words[++i];
    } else if (word == "--num-warps" && hasNext) {
      options.numWarps = parseCount(words[++i]);
    } else if (word == "--num-stages" && hasNext) {
      options.numStages = parseCount(words[++i]);
    } else if (word == "--arch" && hasNext) {
      options.arch = words[++i];
    }
  }
  return options;
}

} // namespace fuzz
} // namespace tk

#endif // TK_TEST_FUZZ_HEADEROPTIONS_H
