//===- Bindings.h - tk-run's kernel arguments ---------------------*- C++ -*-===//
//
// What `--arg NAME=VALUE` binds: a host buffer for a pointer parameter (read
// from .npy, zeros:SHAPE, or a [v, ...] list) or the bits of a scalar parsed
// and range-checked for the parameter's declared type.
//
//===----------------------------------------------------------------------===//

#ifndef TK_TOOLS_TK_RUN_BINDINGS_H
#define TK_TOOLS_TK_RUN_BINDINGS_H

#include "compiler/interpreter/Interpreter.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace tk::run {

/// An element type by its language name ("f32", "u8", "bf16", "i1").
struct DType {
  std::string name;
  unsigned bytes = 4;
  bool isFloat = false;
  bool isUnsigned = false;
  unsigned bits = 32;
};
std::optional<DType> parseDType(llvm::StringRef name);

/// The bits of `text` as a value of `type` (in the low bytes, zero-extended),
/// or an error sentence ("-1 is out of range for u32").
llvm::Expected<uint64_t> parseValue(const DType &type, llvm::StringRef text);

/// One element as tk-run prints it (floats in shortest round-trip form).
std::string formatValue(const DType &type, const uint8_t *element);

/// A host array bound to a pointer parameter: 256-byte aligned like device
/// memory, zero-padded to a multiple of 256 bytes.
struct HostBuffer {
  DType type;
  std::vector<int64_t> shape;
  size_t bytes = 0;
  /// Names the buffer in messages: the .npy path, "zeros:4x4", ...
  std::string label;

  uint8_t *data() const { return storage.get(); }
  size_t count() const { return bytes / type.bytes; }

  static HostBuffer allocate(const DType &type, std::vector<int64_t> shape,
                             std::string label);

private:
  struct Free {
    void operator()(uint8_t *p) const { std::free(p); }
  };
  std::unique_ptr<uint8_t, Free> storage;
};

/// Binds pointer parameter `param` (pointee `element`) to `value`:
/// FILE.npy, zeros:SHAPE or [v, ...].
llvm::Expected<HostBuffer> bindBuffer(const interp::KernelParam &param,
                                      const DType &element,
                                      llvm::StringRef value);

/// Saves `buffer` as .npy with its dtype and shape.
llvm::Error writeBuffer(const HostBuffer &buffer, const std::string &path);

/// "NAME: f32[2x3]" and then one line per row of the last dimension.
void dumpBuffer(llvm::raw_ostream &os, llvm::StringRef name,
                const HostBuffer &buffer);

/// A bound parameter: `bits` for scalars, `buffer` for pointers (whose
/// bits are then the buffer's address, for the interpreter).
struct BoundArg {
  const interp::KernelParam *param = nullptr;
  DType type; // the scalar type, or the pointee's
  uint64_t bits = 0;
  HostBuffer *buffer = nullptr;
};

} // namespace tk::run

#endif // TK_TOOLS_TK_RUN_BINDINGS_H
