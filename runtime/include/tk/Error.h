//===- Error.h - The one exception type of libtkrt -------------*- C++ -*-===//
//
// Every failure in libtkrt (bad metadata, a rejected argument, a CUDA error,
// a malformed .npy file) is reported as a tk::Error whose what() is a
// complete, human-readable sentence. Nothing in libtkrt aborts the process.
//
//===----------------------------------------------------------------------===//

#ifndef TK_ERROR_H
#define TK_ERROR_H

#include <stdexcept>
#include <string>

namespace tk {

class Error : public std::runtime_error {
public:
  explicit Error(const std::string &message) : std::runtime_error(message) {}
};

/// Throws tk::Error(message). For code compiled with -fno-exceptions (an
/// LLVM-based backend such as the interpreter), which may not contain a
/// `throw` itself but must report failures to libtkrt as tk::Error.
[[noreturn]] void throwError(const std::string &message);

} // namespace tk

#endif // TK_ERROR_H
