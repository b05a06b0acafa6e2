//===- npy.h - Reading and writing NumPy .npy files -------------*- C++ -*-===//
//
// For host programs and tools that exchange tensors with NumPy/PyTorch:
// reference inputs and outputs, tk-run's --in/--out files.
//
// Format versions 1.0, 2.0 and 3.0 are read; 1.0 is written (2.0 when the
// header needs more than 65535 bytes). Only little-endian, C-order arrays of
// these dtypes (descr -> the language's name):
//   <f2 f16   <f4 f32   <f8 f64
//   |i1 i8    <i2 i16   <i4 i32   <i8 i64
//   |u1 u8    <u2 u16   <u4 u32   <u8 u64
//   |b1 i1 (bool, one byte per element)
//   |V2 bf16  (NumPy has no bfloat16; ml_dtypes' bfloat16 arrays are saved
//              as the 2-byte void type V2, so V2 means bf16 here. Data kept as
//              raw '<u2' elsewhere can be relabelled: set dtype to "bf16".)
// One-byte types are accepted with any byte-order character; '=' reads as
// '<'. Everything else (big-endian, Fortran order, structured or object
// dtypes, a header whose shape needs more data than the file has, bytes
// after the data) is a tk::Error naming the file. Arbitrary input never
// crashes the reader.
//
//===----------------------------------------------------------------------===//

#ifndef TK_NPY_H
#define TK_NPY_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tk {

struct NpyArray {
  /// The language's type name: "f32", "i64", "bf16", "i1" (bool), ...
  std::string dtype;
  /// Dimensions, outermost first; empty for a 0-d (scalar) array.
  std::vector<int64_t> shape;
  /// elementCount() * elementSize() bytes, little-endian, C order.
  std::vector<uint8_t> data;

  /// Product of the shape (1 for a scalar).
  size_t elementCount() const;
  /// Bytes per element of `dtype`; throws tk::Error for an unknown dtype.
  size_t elementSize() const;
};

NpyArray readNpy(const std::string &path);
/// `origin` names the bytes in error messages.
NpyArray readNpyFromMemory(std::string_view bytes,
                           const std::string &origin = "<memory>");

/// Throws tk::Error if dtype is unknown or data has the wrong size.
void writeNpy(const std::string &path, const NpyArray &array);
std::string writeNpyToMemory(const NpyArray &array);

/// The .npy descr for a dtype name ("f32" -> "<f4"), or "" if none.
std::string npyDescrForDtype(std::string_view dtype);

} // namespace tk

#endif // TK_NPY_H
