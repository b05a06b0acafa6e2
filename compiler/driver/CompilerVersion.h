//===- CompilerVersion.h - what identifies the compiler output -*- C++ -*-===//
//
// The parts of the kernel cache key (KernelCache.h) that name the compiler
// rather than the kernel: a cached kernel is reused only by the compiler
// build, LLVM and ptxas that produced it.
//
//===----------------------------------------------------------------------===//
#ifndef TK_COMPILER_DRIVER_COMPILERVERSION_H
#define TK_COMPILER_DRIVER_COMPILERVERSION_H

#include "llvm/Support/Error.h"

#include <string>

namespace tk {

/// "tk src:<SHA-256 of the compiler's sources at build time> llvm:<LLVM
/// version>" (cmake/TkSourceHash.cmake computes the hash on every build).
const std::string &getCompilerVersion();

/// What `ptxas --version` prints (the ptxas that findPtxas() picks), or an
/// error when there is none or it does not run. Run once per process and
/// ptxas path.
llvm::Expected<std::string> getPtxasVersion();

} // namespace tk

#endif // TK_COMPILER_DRIVER_COMPILERVERSION_H
