//===- FuzzCompile.cpp - libFuzzer target: .tk text to PTX ----------------===//
//
// tk-fuzz-compile: the input is a .tk file whose header comments carry
// tkc's options (HeaderOptions.h). It is compiled the way tkc compiles it,
// through the driver library (runCompilation) and every pass, up to PTX
// (--emit=ptx; not to a cubin: ptxas is a separate program, and PTX
// legality is what the lit tests check with it).
//
// The contract, in two steps:
//   1. The frontend alone (runFrontend): it may reject the program, with
//      diagnostics and never an "internal compiler error".
//   2. If the frontend accepted it, the whole compilation must succeed: the
//      frontend is where programs are checked, so a later failure is a bug
//      in a pass (invalid IR, a failed pattern, a lowering that gives up)
//      unless it is one of the few documented limits below.
// Crashes, sanitizer reports and hangs (libFuzzer's -timeout) are findings
// as everywhere.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"
#include "HeaderOptions.h"

#include "compiler/driver/Compilation.h"
#include "compiler/driver/CompileOptions.h"
#include "compiler/driver/Compiler.h"
#include "compiler/driver/Frontend.h"

#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unistd.h>

using namespace tk;

namespace {

/// Errors a compilation may end with after the frontend accepted the
/// program, because they are limits of a stage rather than bugs. Each
/// entry says why.
const char *const kAcceptedLateErrors[] = {
    // A stage the driver does not have yet: the target then covers the
    // stages that exist (docs/reliability.md).
    "is not implemented yet",
};

/// Whether the compiler's messages contain `phrase`. Diagnostics quote the
/// source line, so a phrase that the input itself contains proves nothing:
/// then the answer is std::nullopt (cannot tell).
std::optional<bool> reports(const std::string &messages,
                            const std::string &source, const char *phrase) {
  if (source.find(phrase) != std::string::npos)
    return std::nullopt;
  return messages.find(phrase) != std::string::npos;
}

CompileOptions compileOptions(const fuzz::HeaderOptions &header,
                              EmitKind emit) {
  CompileOptions options;
  options.toolName = "tkc";
  options.inputPath = "fuzz.tk";
  options.kernelName = header.kernelName;
  options.defines = header.defines;
  if (header.numWarps && checkNumWarps(*header.numWarps).empty())
    options.numWarps = unsigned(*header.numWarps);
  if (header.numStages && checkNumStages(*header.numStages).empty())
    options.numStages = unsigned(*header.numStages);
  if (checkArch(header.arch).empty())
    options.arch = header.arch;
  options.emit = emit;
  // PTX goes to a file of this process (stdout would flood the log).
  static const std::string outputPath =
      "/tmp/tk-fuzz-compile-" + std::to_string(::getpid()) + ".ptx";
  options.outputPath = outputPath;
  return options;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  fuzz::HeaderOptions header = fuzz::parseHeaderOptions(text);

  // 1. The frontend.
  {
    std::string errors;
    llvm::raw_string_ostream errs(errors);
    Compilation compilation(compileOptions(header, EmitKind::TkRaw), &errs);
    compilation.setSource(std::make_unique<SourceFile>("fuzz.tk", text));
    bool accepted = bool(runFrontend(compilation));
    errs.flush();
    fuzz::require(reports(errors, text, "internal compiler error") != true,
                  "the frontend reported an internal error:\n" + errors);
    if (!accepted) {
      fuzz::require(compilation.getNumErrors() > 0 && !errors.empty(),
                    "the frontend failed without a diagnostic");
      fuzz::note("frontend: " + errors.substr(0, errors.find('\n')));
      return 0;
    }
  }

  // 2. Everything up to PTX.
  std::string errors;
  llvm::raw_string_ostream errs(errors);
  Compilation compilation(compileOptions(header, EmitKind::Ptx), &errs);
  compilation.setSource(std::make_unique<SourceFile>("fuzz.tk", text));
  bool compiled = mlir::succeeded(runCompilation(compilation));
  errs.flush();
  if (!compiled) {
    bool accepted = false, unknown = false;
    for (const char *phrase : kAcceptedLateErrors) {
      std::optional<bool> found = reports(errors, text, phrase);
      accepted |= found == true;
      unknown |= !found;
    }
    fuzz::require(accepted || unknown,
                  "the frontend accepted the program but the compilation "
                  "failed:\n" + errors);
  }
  fuzz::note(compiled ? "compiled to PTX"
                      : "stopped: " + errors.substr(0, errors.find('\n')));
  return 0;
}
