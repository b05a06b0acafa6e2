//===- Backend.h - The "interpreter" backend of libtkrt ----------*- C++ -*-===//
//
// Makes tk::Context run kernels on the CPU: allocations are host memory
// (256-byte aligned, zero-filled, registered as the only buffers kernels may
// touch); Module loading reads the metadata's `tk_ir` file (relative to the
// metadata's folder) and compiles it with the interpreter; a launch runs the
// whole grid before returning. Interpreter errors (out-of-bounds accesses,
// device_assert) are thrown as tk::Error from launch().
//
// Either call registerInterpreterBackend() once before Context::create, or
// link the TkInterpreterAutoRegister object library, whose static
// initializer does it.
//
//===----------------------------------------------------------------------===//

#ifndef TK_COMPILER_INTERPRETER_BACKEND_H
#define TK_COMPILER_INTERPRETER_BACKEND_H

namespace tk {

/// Registers the backend "interpreter" with libtkrt's registry (replacing
/// any earlier registration). Thread-safe; calling it again is harmless.
void registerInterpreterBackend();

} // namespace tk

#endif // TK_COMPILER_INTERPRETER_BACKEND_H
