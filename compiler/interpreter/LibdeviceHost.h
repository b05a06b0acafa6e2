//===- LibdeviceHost.h - Host versions of libdevice functions ----*- C++ -*-===//
//
// The interpreter runs `tk.extern_elementwise "SYMBOL"` (the libdevice
// functions listed in compiler/frontend/LibdeviceExterns.def) one element at
// a time through a host implementation of SYMBOL looked up here. Every
// implementation has the same shape: it reads its operands from an array of
// scalars and returns one scalar, the operand and result types being those
// of SYMBOL's line in the .def.
//
//===----------------------------------------------------------------------===//

#ifndef TK_COMPILER_INTERPRETER_LIBDEVICEHOST_H
#define TK_COMPILER_INTERPRETER_LIBDEVICEHOST_H

#include <cstdint>
#include <string_view>

namespace tk::interp {

/// One scalar operand or result of a libdevice function as the interpreter
/// stores it: floats by value, integers as their bits (u32 in i32, u64 in i64).
union LibdeviceScalar {
  float f32;
  double f64;
  int32_t i32;
  uint32_t u32;
  int64_t i64;
  uint64_t u64;
};

using LibdeviceHostFunction = LibdeviceScalar (*)(const LibdeviceScalar *args);

/// The host implementation of libdevice's `symbol` ("__nv_erfinvf"), or nullptr.
LibdeviceHostFunction findLibdeviceHostFunction(std::string_view symbol);

} // namespace tk::interp

#endif // TK_COMPILER_INTERPRETER_LIBDEVICEHOST_H
