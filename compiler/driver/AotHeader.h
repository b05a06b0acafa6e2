//===- AotHeader.h - tkc --emit=header: a self-contained C header -*- C++ -*-===//
//
// For C and C++ applications that link nothing but libcuda: one header
// holding, per variant, the embedded cubin and a typed launcher, plus a
// dispatcher that picks the variant from the run-time arguments (as
// Triton's link.py does). A variant is a specialization (--assume set);
// the dispatcher tries the most specialized first and falls back to the
// least. Each launcher checks the arguments against the specialization it
// was compiled for and returns CUDA_ERROR_INVALID_VALUE with a message
// (tk_<kernel>_last_error()) when they break it. Modules load lazily, once
// per CUDA context, on first launch; tk_<kernel>_unload() releases them.
//
// docs/api.md ("AOT header") shows the generated API.
//
//===----------------------------------------------------------------------===//
#ifndef TK_COMPILER_DRIVER_AOTHEADER_H
#define TK_COMPILER_DRIVER_AOTHEADER_H

#include "compiler/driver/Jit.h"

#include <string>
#include <vector>

namespace tk::jit {

struct AotVariant {
  std::vector<ArgAssumption> assumptions;
  bool assumeAlignedPointers = false;
};

/// Compiles `kernelName` of `source` once per variant (cubins, with the
/// options' defines, warps, stages and arch; the variant's assumptions
/// replace the options') and returns the header's text. Errors are
/// complete messages, as compile() returns them.
llvm::Expected<std::string>
buildAotHeader(const KernelSource &source, const std::string &kernelName,
               const JitOptions &options,
               const std::vector<AotVariant> &variants);

/// Parses a --variant value: "n=16,x_ptr=16,m=1", "aligned" (every pointer
/// 16-byte aligned) among the entries, or "none".
llvm::Expected<AotVariant> parseAotVariant(const std::string &text);

} // namespace tk::jit

#endif // TK_COMPILER_DRIVER_AOTHEADER_H
