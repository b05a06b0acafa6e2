//===- JitRuntime.h - load what the JIT compiled into libtkrt ---*- C++ -*-===//
//
// Header-only, so that TkJit itself does not depend on libtkrt: a program
// that includes this links `tkrt` and is compiled with exceptions (libtkrt
// reports errors as tk::Error).
//
//   auto compiled = tk::jit::compileFile("softmax.tk", "softmax", options);
//   tk::Module module = tk::jit::loadModule(context, *compiled);
//   module.kernel().launch({rows}, out, in, stride, stride, cols);
//
//===----------------------------------------------------------------------===//
#ifndef TK_COMPILER_DRIVER_JITRUNTIME_H
#define TK_COMPILER_DRIVER_JITRUNTIME_H

#include "compiler/driver/Jit.h"

#include "tk/runtime.h"

#include <utility>

namespace tk::jit {

/// What Module::loadImage takes, from a compiled kernel: the metadata, the
/// binary in memory (cubin or PTX) and the tk IR (for the interpreter
/// backend). Throws tk::Error when the metadata does not parse.
inline ModuleImage makeModuleImage(const CompiledKernel &kernel) {
  ModuleImage image;
  image.metadata = Metadata::parse(kernel.metadataJson, kernel.origin);
  image.origin = kernel.origin;
  if (kernel.artifact != ArtifactKind::TkIr)
    image.binaryData = kernel.binary;
  image.tkIrData = kernel.tkIr;
  return image;
}

/// Loads `kernel` into `context`; throws tk::Error as Module::load does.
inline Module loadModule(const Context &context, const CompiledKernel &kernel) {
  return Module::loadImage(context, makeModuleImage(kernel));
}

} // namespace tk::jit

#endif // TK_COMPILER_DRIVER_JITRUNTIME_H
