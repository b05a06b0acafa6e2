//===- CudaDriver.h - The CUDA driver API, loaded at run time --*- C++ -*-===//
//
// libtkrt does not link libcuda: it dlopen()s libcuda.so.1 on first use and
// resolves the few entry points it needs. A machine without a driver then
// gets a tk::Error ("no CUDA driver found (libcuda.so.1): ...") instead of a
// loader failure, and binaries need no stub library to link.
//
// The members are named like the cuda.h functions they hold; cuda.h maps
// some names to versioned symbols (cuMemAlloc -> cuMemAlloc_v2), and the
// same macros apply here, so each member is resolved from the exact symbol
// cuda.h would have linked to.
//
//===----------------------------------------------------------------------===//

#ifndef TK_LIB_CUDADRIVER_H
#define TK_LIB_CUDADRIVER_H

#include <cuda.h>

#include <string>

namespace tk {
namespace detail {

// Entry points libtkrt cannot work without.
#define TK_CUDA_REQUIRED_FUNCTIONS(X)                                          \
  X(cuInit)                                                                    \
  X(cuDriverGetVersion)                                                        \
  X(cuGetErrorName)                                                            \
  X(cuGetErrorString)                                                          \
  X(cuDeviceGetCount)                                                          \
  X(cuDeviceGet)                                                               \
  X(cuDeviceGetName)                                                           \
  X(cuDeviceGetAttribute)                                                      \
  X(cuDeviceTotalMem)                                                          \
  X(cuDevicePrimaryCtxRetain)                                                  \
  X(cuDevicePrimaryCtxRelease)                                                 \
  X(cuCtxGetCurrent)                                                           \
  X(cuCtxSetCurrent)                                                           \
  X(cuCtxSynchronize)                                                          \
  X(cuMemAlloc)                                                                \
  X(cuMemFree)                                                                 \
  X(cuMemcpyHtoD)                                                              \
  X(cuMemcpyDtoH)                                                              \
  X(cuMemcpyDtoD)                                                              \
  X(cuMemsetD8)                                                                \
  X(cuModuleLoadDataEx)                                                        \
  X(cuModuleUnload)                                                            \
  X(cuModuleGetFunction)                                                       \
  X(cuFuncGetAttribute)                                                        \
  X(cuFuncSetAttribute)                                                        \
  X(cuLaunchKernel)                                                            \
  X(cuStreamCreate)                                                            \
  X(cuStreamDestroy)                                                           \
  X(cuStreamSynchronize)                                                       \
  X(cuEventCreate)                                                             \
  X(cuEventDestroy)                                                            \
  X(cuEventRecord)                                                             \
  X(cuEventSynchronize)

struct CudaDriver {
#define TK_CUDA_DECLARE(name) decltype(&::name) name = nullptr;
  TK_CUDA_REQUIRED_FUNCTIONS(TK_CUDA_DECLARE)
#undef TK_CUDA_DECLARE
  /// cuEventElapsedTime_v2, or the older unversioned symbol.
  decltype(&::cuEventElapsedTime) eventElapsedTime = nullptr;
  /// Optional (CUDA 12.4+): lets us check parameter sizes against the
  /// metadata; nullptr on older drivers.
  decltype(&::cuFuncGetParamInfo) funcGetParamInfo = nullptr;
  /// Optional (CUDA 12.0+): encodes the tensor maps of TMA kernels; a
  /// launch of such a kernel fails with a message when it is missing.
  decltype(&::cuTensorMapEncodeTiled) tensorMapEncodeTiled = nullptr;

  int driverVersion = 0;

  /// The process-wide driver, loaded and cuInit()ed once. Throws tk::Error
  /// (the same message every time) when there is no usable driver or no
  /// device.
  static const CudaDriver &get();

  /// "CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was
  /// encountered)".
  std::string describe(CUresult result) const;
};

/// Whether `result` is one of the errors that a kernel leaves behind and
/// that poison the context (reported by whatever call comes next).
bool isStickyKernelError(CUresult result);

} // namespace detail
} // namespace tk

#endif // TK_LIB_CUDADRIVER_H
