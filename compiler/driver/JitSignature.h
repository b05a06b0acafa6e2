//===- JitSignature.h - what the launch-time JIT reads from the syntax -*- C++ -*-===//
//
// The launch-time JIT (include/tk/jit.h) decides the specialization of a
// launch before anything is compiled, so it needs the kernel's run-time
// parameters, which of them to specialize (do_not_specialize) and the
// @autotune key from the source alone. This reads them from the AST, as
// readAutotuneDecorator (Autotune.h) does: cheap, and known even when some
// configs do not compile.
//
//===----------------------------------------------------------------------===//
#ifndef TK_COMPILER_DRIVER_JITSIGNATURE_H
#define TK_COMPILER_DRIVER_JITSIGNATURE_H

#include "compiler/driver/Jit.h"

#include <string>
#include <vector>

namespace tk::jit {

struct SignatureParam {
  std::string name;
  /// As written: "f32", "*f16".
  std::string type;
  bool isPointer = false;
  /// An integer other than i1 (what Triton specializes besides pointers).
  bool isInteger = false;
  /// Named (or indexed) by @kernel(do_not_specialize=[...]).
  bool doNotSpecialize = false;
};

struct KernelSignature {
  std::string kernelName;
  /// The run-time parameters in order (constexprs left out).
  std::vector<SignatureParam> params;
  std::vector<std::string> constexprs;
  /// @autotune: how many configs, and the key as indices into `params`
  /// (a key naming a constexpr is left out: constexprs are fixed per
  /// handle). configCount 0 without @autotune.
  size_t configCount = 0;
  std::vector<std::string> autotuneKey;
  std::vector<unsigned> autotuneKeyParams;
};

/// The signature of `kernelName` in `source` (the only kernel when empty).
/// Errors are complete messages: parse errors in clang style, or
/// "<tool>: error: <source> has no kernel named 'x' (kernels: a, b)".
llvm::Expected<KernelSignature>
readKernelSignature(const KernelSource &source, const std::string &kernelName,
                    const std::string &toolName = "tk");

} // namespace tk::jit

#endif // TK_COMPILER_DRIVER_JITSIGNATURE_H
