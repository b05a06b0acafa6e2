//===- JitSharedLibrary.cpp - libtkjit.so's start-up ----------------------===//
//
// libtkjit is what C programs and the Python package load: the JIT, libtkrt
// and the CPU interpreter in one shared library. Loading it registers the
// interpreter backend, so tkrt_context_create(TKRT_MODE_INTERPRETER, ...)
// (and TK_INTERPRET=1 with TKRT_MODE_AUTO) works without further calls.
//
//===----------------------------------------------------------------------===//
#include "compiler/interpreter/Backend.h"

namespace {
struct RegisterInterpreterBackend {
  RegisterInterpreterBackend() { tk::registerInterpreterBackend(); }
} registerAtLoad;
} // namespace
