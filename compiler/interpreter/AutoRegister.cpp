//===- AutoRegister.cpp - Register the interpreter backend at start-up ----===//
//
// Built as the OBJECT library TkInterpreterAutoRegister: an object file
// linked directly into the program (never dropped like an unreferenced
// archive member), whose static initializer registers the backend.
//
//===----------------------------------------------------------------------===//
#include "compiler/interpreter/Backend.h"

namespace {
struct RegisterInterpreterBackend {
  RegisterInterpreterBackend() { tk::registerInterpreterBackend(); }
} registerAtStartup;
} // namespace
