//===- CudaBackend.h - The built-in "cuda" backend (internal) --*- C++ -*-===//

#ifndef TK_LIB_CUDABACKEND_H
#define TK_LIB_CUDABACKEND_H

#include "tk/Backend.h"

#include <memory>

namespace tk {
namespace detail {

/// Device `ordinal` (its primary context) through the CUDA driver API.
/// Throws tk::Error when there is no driver or no such device.
std::unique_ptr<Backend> createCudaBackend(int ordinal = 0);

} // namespace detail
} // namespace tk

#endif // TK_LIB_CUDABACKEND_H
