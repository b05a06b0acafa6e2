//===- MockCudaDriver.h - A fake libcuda.so.1 for testing libtkrt -*- C++ -*-===//
//
// MockCudaDriver.cpp builds into a shared library named libcuda.so.1 that
// implements, on the host, the driver entry points libtkrt resolves with
// dlsym. A test binary whose RUNPATH names the mock's folder then exercises
// libtkrt's real CUDA backend (symbol names, parameter packing, error
// mapping) without a GPU.
//
// "Modules" are PTX text, or an ELF magic followed by PTX text (a "cubin").
// The mock reads each `.entry NAME(.param .TYPE x, ...)` for parameter
// sizes and an optional `.maxntid N`. A kernel named "vadd" (x, y, out
// pointers to f32, n: i32) really runs, element-wise on host memory, and an
// address outside any allocation raises CUDA_ERROR_ILLEGAL_ADDRESS at the
// next synchronizing call, as a real fault would.
//
//===----------------------------------------------------------------------===//

#ifndef TK_TEST_UNIT_RUNTIME_MOCKCUDADRIVER_H
#define TK_TEST_UNIT_RUNTIME_MOCKCUDADRIVER_H

#include <cuda.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mockcuda {

struct Launch {
  std::string kernel;
  unsigned grid[3];
  unsigned block[3];
  unsigned sharedBytes;
  bool onStream;
  /// Each parameter's bytes, as read through kernelParams.
  std::vector<std::vector<uint8_t>> params;
  /// The device whose primary context was current (-1: none).
  int device;
};

/// The arguments of one cuTensorMapEncodeTiled call.
struct TensorMapCall {
  CUtensorMapDataType dataType;
  unsigned rank;
  uint64_t address;
  std::vector<uint64_t> dims, strides;
  std::vector<unsigned> box, elementStrides;
  CUtensorMapInterleave interleave;
  CUtensorMapSwizzle swizzle;
  CUtensorMapL2promotion l2Promotion;
  CUtensorMapFloatOOBfill oobFill;
};

struct State {
  // Configuration (read when a context queries the device).
  int deviceCount = 1;
  int ccMajor = 9, ccMinor = 0;
  uint64_t memoryLimit = 1ull << 30; // Larger allocations fail.
  CUresult failNextLaunch = CUDA_SUCCESS;

  // Observations.
  std::vector<Launch> launches;
  /// Every cuTensorMapEncodeTiled call. The mock's "encoding" is the call's
  /// index + 1 in byte 0 and the global address in bytes 8..15.
  std::vector<TensorMapCall> tensorMapCalls;
  std::map<uintptr_t, size_t> allocations;
  int contextRetains = 0;
  /// The current context (device d's primary context is d + 1; 0: none)
  /// and the number of cuCtxSetCurrent calls.
  uintptr_t currentContext = 0;
  int contextSwitches = 0;
  int loadedModules = 0;
  int liveStreams = 0;
  int liveEvents = 0;
  /// The last CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES set.
  int lastMaxDynamicShared = -1;
  /// A kernel fault waiting to be reported (0 = none).
  CUresult sticky = CUDA_SUCCESS;
};

} // namespace mockcuda

/// The mock's state, found with dlsym(dlopen("libcuda.so.1"), ...).
extern "C" mockcuda::State *tkMockCudaState();

#endif // TK_TEST_UNIT_RUNTIME_MOCKCUDADRIVER_H
