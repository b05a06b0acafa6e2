//===- ArgAssumptionOption.h - the --assume option's text -------*- C++ -*-===//
//
// tkc and tk-run both take `--assume NAME=16` (divisible by 16 / 16-byte
// aligned) and `--assume NAME=1` (equal to 1); this is the one parser of
// that text, so that the two tools accept and refuse the same spellings.
//
//===----------------------------------------------------------------------===//
#ifndef TK_COMPILER_DRIVER_ARGASSUMPTIONOPTION_H
#define TK_COMPILER_DRIVER_ARGASSUMPTIONOPTION_H

#include "compiler/frontend/IRGen.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace tk {

/// NAME=16 or NAME=1; otherwise an error whose message names the option
/// and the text (the caller adds its tool's prefix).
inline llvm::Expected<ArgAssumption> parseArgAssumption(llvm::StringRef text) {
  auto [name, value] = text.split('=');
  if (name.empty() || (value != "16" && value != "1"))
    return llvm::createStringError(
        "--assume expects NAME=16 or NAME=1, got '" + text.str() + "'");
  return ArgAssumption{name.str(), value == "16" ? 16 : 1};
}

} // namespace tk

#endif // TK_COMPILER_DRIVER_ARGASSUMPTIONOPTION_H
