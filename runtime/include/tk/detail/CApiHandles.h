//===- CApiHandles.h - what the C API's handles hold ------------*- C++ -*-===//
//
// For C APIs built over libtkrt's (the launch-time JIT's, include/tk/jit_c.h):
// the C++ objects behind tkrt_context and tkrt_stream, and the conversion
// of a tkrt_arg. Not for applications.
//
//===----------------------------------------------------------------------===//
#ifndef TK_DETAIL_CAPIHANDLES_H
#define TK_DETAIL_CAPIHANDLES_H

#include "tk/runtime.h"
#include "tk/runtime_c.h"

struct tkrt_context {
  tk::Context context;
};
struct tkrt_stream {
  tk::Stream stream;
};

namespace tk::detail {

/// `arg` as an ArgValue; a value outside its tag's type, or an unknown tag,
/// is a tk::Error naming `function` and the argument (index from 0).
ArgValue argFromC(const tkrt_arg &arg, int index, const char *function);

/// Runs `body`, turning any exception into TKRT_ERROR and the message that
/// tkrt_last_error() returns on this thread; TKRT_OK otherwise.
int guardCApi(void (*body)(void *), void *data);
template <typename Body> int guardCApi(Body &&body) {
  return guardCApi([](void *data) { (*static_cast<Body *>(data))(); },
                   static_cast<void *>(&body));
}
/// Sets the thread's last error; returns `status`.
int setCApiError(int status, const std::string &message);

} // namespace tk::detail

#endif // TK_DETAIL_CAPIHANDLES_H
