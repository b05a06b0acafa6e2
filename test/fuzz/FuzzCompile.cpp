//===- FuzzCompile.cpp - libFuzzer target: .tk text to PTX ----------------===//
//
// tk-fuzz-compile: the input is a .tk file whose header comments carry
// tkc's options (HeaderOptions.h). It is compiled the way tkc compiles it,
// through the driver library (runCompilation) and every pass, up to PTX
// (--emit=ptx), and for one input in eight (chosen by a hash of the input,
// so a reproducer behaves the same) on to a cubin through ptxas: PTX that
// ptxas rejects is a finding too. ptxas is a separate process and takes
// longer than the compilation itself, hence the sampling;
// TK_FUZZ_PTXAS=all|none overrides it.
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
#include "compiler/target/Ptxas.h"

#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
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

/// Whether this input goes on to ptxas (see the file comment).
bool assembleWithPtxas(const std::string &text) {
  static const std::string mode = [] {
    const char *value = std::getenv("TK_FUZZ_PTXAS");
    return std::string(value ? value : "some");
  }();
  static const bool havePtxas = [] {
    llvm::Expected<std::string> path = findPtxas();
    if (path)
      return true;
    llvm::consumeError(path.takeError());
    return false;
  }();
  if (!havePtxas || mode == "none")
    return false;
  if (mode == "all")
    return true;
  uint64_t hash = 14695981039346656037ull; // FNV-1a
  for (unsigned char c : text)
    hash = (hash ^ c) * 1099511628211ull;
  return hash % 8 == 0;
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
  // Output goes to files of this process (stdout would flood the log); a
  // cubin gets its metadata (and tk IR) files beside it. They are removed
  // when the process exits normally.
  struct OutputFiles {
    std::string base =
        "/tmp/tk-fuzz-compile-" + std::to_string(::getpid());
    ~OutputFiles() {
      for (const char *extension : {".ptx", ".cubin", ".json", ".tk.mlir"})
        std::remove((base + extension).c_str());
    }
  };
  static const OutputFiles outputFiles;
  options.outputPath =
      outputFiles.base + (emit == EmitKind::Cubin ? ".cubin" : ".ptx");
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

  // 2. Everything up to PTX, or a cubin.
  bool toCubin = assembleWithPtxas(text);
  std::string errors;
  llvm::raw_string_ostream errs(errors);
  Compilation compilation(
      compileOptions(header, toCubin ? EmitKind::Cubin : EmitKind::Ptx),
      &errs);
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
  fuzz::note(compiled ? (toCubin ? "compiled to a cubin" : "compiled to PTX")
                      : "stopped: " + errors.substr(0, errors.find('\n')));
  return 0;
}
