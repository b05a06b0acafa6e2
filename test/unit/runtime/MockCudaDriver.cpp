//===- MockCudaDriver.cpp - A fake libcuda.so.1 for testing libtkrt -------===//
//
// The definitions below take their names from cuda.h, whose macros version
// them exactly as a real driver exports them (cuMemAlloc -> cuMemAlloc_v2).
//
//===----------------------------------------------------------------------===//

#include <cuda.h>

#include "MockCudaDriver.h"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <sstream>

using mockcuda::State;

namespace {

State &state() {
  static State instance;
  return instance;
}

struct MockFunction {
  std::string name;
  std::vector<size_t> paramSizes;
  int maxThreads = 1024;
};

struct MockModule {
  std::vector<std::unique_ptr<MockFunction>> functions;
};

struct MockStream {};
struct MockEvent {};

size_t paramSize(const std::string &type) {
  if (type == ".u64" || type == ".s64" || type == ".b64" || type == ".f64")
    return 8;
  if (type == ".u32" || type == ".s32" || type == ".b32" || type == ".f32")
    return 4;
  if (type == ".u16" || type == ".s16" || type == ".b16" || type == ".f16")
    return 2;
  return 1;
}

/// Reads the `.entry` declarations of PTX-like text.
std::unique_ptr<MockModule> parseModule(const std::string &text) {
  auto module = std::make_unique<MockModule>();
  size_t at = 0;
  while ((at = text.find(".entry ", at)) != std::string::npos) {
    at += 7;
    size_t open = text.find('(', at);
    size_t close = text.find(')', open);
    if (open == std::string::npos || close == std::string::npos)
      break;
    auto fn = std::make_unique<MockFunction>();
    std::istringstream name(text.substr(at, open - at));
    name >> fn->name;
    std::istringstream params(text.substr(open + 1, close - open - 1));
    std::string word;
    while (params >> word) {
      if (word != ".param" || !(params >> word))
        continue;
      if (word == ".align") { // .param .align A .b8 name[N]
        std::string alignment, type, declarator;
        params >> alignment >> type >> declarator;
        size_t bracket = declarator.find('[');
        size_t count = bracket == std::string::npos
                           ? 1
                           : std::strtoul(declarator.c_str() + bracket + 1,
                                          nullptr, 10);
        fn->paramSizes.push_back(paramSize(type) * count);
        continue;
      }
      fn->paramSizes.push_back(paramSize(word));
    }
    size_t body = text.find('{', close);
    size_t maxntid = text.find(".maxntid", close);
    if (maxntid != std::string::npos && maxntid < body)
      fn->maxThreads = std::atoi(text.c_str() + maxntid + 8);
    module->functions.push_back(std::move(fn));
    at = close;
  }
  return module;
}

/// Whether [address, address + bytes) lies inside one allocation.
bool isAllocated(uint64_t address, uint64_t bytes) {
  const auto &allocations = state().allocations;
  auto it = allocations.upper_bound(address);
  if (it == allocations.begin())
    return false;
  --it;
  return address + bytes <= it->first + it->second;
}

template <typename T> T paramAs(const std::vector<uint8_t> &bytes) {
  T value{};
  std::memcpy(&value, bytes.data(), std::min(sizeof(T), bytes.size()));
  return value;
}

/// Runs the one kernel the mock understands.
void runVadd(const mockcuda::Launch &launch) {
  auto x = paramAs<uint64_t>(launch.params[0]);
  auto y = paramAs<uint64_t>(launch.params[1]);
  auto out = paramAs<uint64_t>(launch.params[2]);
  auto n = paramAs<int32_t>(launch.params[3]);
  int64_t threads = int64_t(launch.grid[0]) * launch.block[0];
  int64_t count = std::min<int64_t>(n, threads);
  if (count <= 0)
    return;
  uint64_t bytes = uint64_t(count) * 4;
  if (!isAllocated(x, bytes) || !isAllocated(y, bytes) ||
      !isAllocated(out, bytes)) {
    state().sticky = CUDA_ERROR_ILLEGAL_ADDRESS;
    return;
  }
  for (int64_t i = 0; i < count; ++i)
    reinterpret_cast<float *>(out)[i] =
        reinterpret_cast<const float *>(x)[i] +
        reinterpret_cast<const float *>(y)[i];
}

} // namespace

extern "C" {

mockcuda::State *tkMockCudaState() { return &state(); }

CUresult CUDAAPI cuInit(unsigned int) { return CUDA_SUCCESS; }

CUresult CUDAAPI cuDriverGetVersion(int *version) {
  *version = 13000;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGetErrorName(CUresult error, const char **name) {
  switch (error) {
  case CUDA_SUCCESS:
    *name = "CUDA_SUCCESS";
    return CUDA_SUCCESS;
  case CUDA_ERROR_INVALID_VALUE:
    *name = "CUDA_ERROR_INVALID_VALUE";
    return CUDA_SUCCESS;
  case CUDA_ERROR_OUT_OF_MEMORY:
    *name = "CUDA_ERROR_OUT_OF_MEMORY";
    return CUDA_SUCCESS;
  case CUDA_ERROR_INVALID_PTX:
    *name = "CUDA_ERROR_INVALID_PTX";
    return CUDA_SUCCESS;
  case CUDA_ERROR_NOT_FOUND:
    *name = "CUDA_ERROR_NOT_FOUND";
    return CUDA_SUCCESS;
  case CUDA_ERROR_ILLEGAL_ADDRESS:
    *name = "CUDA_ERROR_ILLEGAL_ADDRESS";
    return CUDA_SUCCESS;
  case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
    *name = "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES";
    return CUDA_SUCCESS;
  default:
    *name = nullptr;
    return CUDA_ERROR_INVALID_VALUE;
  }
}

CUresult CUDAAPI cuGetErrorString(CUresult error, const char **text) {
  switch (error) {
  case CUDA_ERROR_INVALID_VALUE:
    *text = "invalid argument";
    return CUDA_SUCCESS;
  case CUDA_ERROR_OUT_OF_MEMORY:
    *text = "out of memory";
    return CUDA_SUCCESS;
  case CUDA_ERROR_INVALID_PTX:
    *text = "a PTX JIT compilation failed";
    return CUDA_SUCCESS;
  case CUDA_ERROR_ILLEGAL_ADDRESS:
    *text = "an illegal memory access was encountered";
    return CUDA_SUCCESS;
  case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
    *text = "too many resources requested for launch";
    return CUDA_SUCCESS;
  default:
    *text = nullptr;
    return CUDA_ERROR_INVALID_VALUE;
  }
}

CUresult CUDAAPI cuDeviceGetCount(int *count) {
  *count = state().deviceCount;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGet(CUdevice *device, int ordinal) {
  if (ordinal >= state().deviceCount)
    return CUDA_ERROR_INVALID_DEVICE;
  *device = ordinal;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetName(char *name, int length, CUdevice) {
  std::strncpy(name, "Mock GPU", static_cast<size_t>(length));
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetAttribute(int *value, CUdevice_attribute attribute,
                                      CUdevice) {
  switch (attribute) {
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
    *value = state().ccMajor;
    break;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
    *value = state().ccMinor;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X:
    *value = 2147483647;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y:
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z:
    *value = 65535;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:
    *value = 232448;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
    *value = 1024;
    break;
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
    *value = 132;
    break;
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceTotalMem(size_t *bytes, CUdevice) {
  *bytes = state().memoryLimit;
  return CUDA_SUCCESS;
}

// Device d's primary context is the handle d + 1.
CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext *context,
                                          CUdevice device) {
  ++state().contextRetains;
  *context = reinterpret_cast<CUcontext>(uintptr_t(device) + 1);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDevicePrimaryCtxRelease(CUdevice) {
  --state().contextRetains;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxGetCurrent(CUcontext *context) {
  *context = reinterpret_cast<CUcontext>(state().currentContext);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxSetCurrent(CUcontext context) {
  state().currentContext = reinterpret_cast<uintptr_t>(context);
  ++state().contextSwitches;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxSynchronize(void) { return state().sticky; }

CUresult CUDAAPI cuMemAlloc(CUdeviceptr *ptr, size_t bytes) {
  if (state().sticky)
    return state().sticky;
  if (bytes == 0)
    return CUDA_ERROR_INVALID_VALUE;
  if (bytes > state().memoryLimit)
    return CUDA_ERROR_OUT_OF_MEMORY;
  void *p = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  state().allocations[reinterpret_cast<uintptr_t>(p)] = bytes;
  *ptr = reinterpret_cast<CUdeviceptr>(p);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemFree(CUdeviceptr ptr) {
  auto it = state().allocations.find(ptr);
  if (it == state().allocations.end())
    return CUDA_ERROR_INVALID_VALUE;
  state().allocations.erase(it);
  std::free(reinterpret_cast<void *>(ptr));
  return state().sticky;
}

CUresult CUDAAPI cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t bytes) {
  if (state().sticky)
    return state().sticky;
  if (!isAllocated(dst, bytes))
    return CUDA_ERROR_INVALID_VALUE;
  std::memcpy(reinterpret_cast<void *>(dst), src, bytes);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t bytes) {
  if (state().sticky)
    return state().sticky;
  if (!isAllocated(src, bytes))
    return CUDA_ERROR_INVALID_VALUE;
  std::memcpy(dst, reinterpret_cast<const void *>(src), bytes);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemcpyDtoD(CUdeviceptr dst, CUdeviceptr src, size_t bytes) {
  if (state().sticky)
    return state().sticky;
  if (!isAllocated(dst, bytes) || !isAllocated(src, bytes))
    return CUDA_ERROR_INVALID_VALUE;
  std::memmove(reinterpret_cast<void *>(dst), reinterpret_cast<void *>(src),
               bytes);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemsetD8(CUdeviceptr dst, unsigned char value, size_t n) {
  if (state().sticky)
    return state().sticky;
  if (!isAllocated(dst, n))
    return CUDA_ERROR_INVALID_VALUE;
  std::memset(reinterpret_cast<void *>(dst), value, n);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuModuleLoadDataEx(CUmodule *module, const void *image,
                                    unsigned int numOptions,
                                    CUjit_option *options,
                                    void **optionValues) {
  const char *bytes = static_cast<const char *>(image);
  bool isElf = std::memcmp(bytes, "\x7f" "ELF", 4) == 0;
  std::string text = isElf ? std::string(bytes + 4) : std::string(bytes);
  if (text.find("SYNTAX_ERROR") != std::string::npos) {
    for (unsigned i = 0; i < numOptions; ++i)
      if (options[i] == CU_JIT_ERROR_LOG_BUFFER)
        std::strcpy(static_cast<char *>(optionValues[i]),
                    "ptxas application ptx input, line 3; error   : syntax "
                    "error");
    return CUDA_ERROR_INVALID_PTX;
  }
  ++state().loadedModules;
  *module = reinterpret_cast<CUmodule>(parseModule(text).release());
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuModuleUnload(CUmodule module) {
  --state().loadedModules;
  delete reinterpret_cast<MockModule *>(module);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuModuleGetFunction(CUfunction *function, CUmodule module,
                                     const char *name) {
  for (auto &fn : reinterpret_cast<MockModule *>(module)->functions)
    if (fn->name == name) {
      *function = reinterpret_cast<CUfunction>(fn.get());
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_NOT_FOUND;
}

CUresult CUDAAPI cuFuncGetParamInfo(CUfunction function, size_t index,
                                    size_t *offset, size_t *size) {
  auto *fn = reinterpret_cast<MockFunction *>(function);
  if (index >= fn->paramSizes.size())
    return CUDA_ERROR_INVALID_VALUE;
  *offset = 0;
  for (size_t i = 0; i < index; ++i)
    *offset += fn->paramSizes[i];
  *size = fn->paramSizes[index];
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuFuncGetAttribute(int *value, CUfunction_attribute attribute,
                                    CUfunction function) {
  auto *fn = reinterpret_cast<MockFunction *>(function);
  switch (attribute) {
  case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
    *value = fn->maxThreads;
    return CUDA_SUCCESS;
  case CU_FUNC_ATTRIBUTE_NUM_REGS:
    *value = 32;
    return CUDA_SUCCESS;
  case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES:
    *value = 0;
    return CUDA_SUCCESS;
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
}

CUresult CUDAAPI cuFuncSetAttribute(CUfunction, CUfunction_attribute attribute,
                                    int value) {
  if (attribute != CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES ||
      value > 232448)
    return CUDA_ERROR_INVALID_VALUE;
  state().lastMaxDynamicShared = value;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuLaunchKernel(CUfunction function, unsigned int gx,
                                unsigned int gy, unsigned int gz,
                                unsigned int bx, unsigned int by,
                                unsigned int bz, unsigned int sharedBytes,
                                CUstream stream, void **kernelParams,
                                void **extra) {
  if (state().sticky)
    return state().sticky;
  if (state().failNextLaunch) {
    CUresult r = state().failNextLaunch;
    state().failNextLaunch = CUDA_SUCCESS;
    return r;
  }
  auto *fn = reinterpret_cast<MockFunction *>(function);
  if (extra || bx * by * bz > static_cast<unsigned>(fn->maxThreads))
    return CUDA_ERROR_INVALID_VALUE;
  mockcuda::Launch launch{fn->name, {gx, gy, gz}, {bx, by, bz}, sharedBytes,
                          stream != nullptr, {},
                          int(state().currentContext) - 1};
  for (size_t i = 0; i < fn->paramSizes.size(); ++i) {
    const auto *p = static_cast<const uint8_t *>(kernelParams[i]);
    launch.params.emplace_back(p, p + fn->paramSizes[i]);
  }
  if (fn->name == "vadd" && launch.params.size() == 4)
    runVadd(launch);
  state().launches.push_back(std::move(launch));
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuTensorMapEncodeTiled(
    CUtensorMap *tensorMap, CUtensorMapDataType dataType, cuuint32_t rank,
    void *globalAddress, const cuuint64_t *globalDim,
    const cuuint64_t *globalStrides, const cuuint32_t *boxDim,
    const cuuint32_t *elementStrides, CUtensorMapInterleave interleave,
    CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
    CUtensorMapFloatOOBfill oobFill) {
  if (rank < 1 || rank > 5)
    return CUDA_ERROR_INVALID_VALUE;
  mockcuda::TensorMapCall call{dataType, rank,
                               reinterpret_cast<uint64_t>(globalAddress),
                               {globalDim, globalDim + rank},
                               {globalStrides, globalStrides + rank - 1},
                               {boxDim, boxDim + rank},
                               {elementStrides, elementStrides + rank},
                               interleave, swizzle, l2Promotion, oobFill};
  state().tensorMapCalls.push_back(call);
  std::memset(tensorMap, 0, sizeof(CUtensorMap));
  auto *bytes = reinterpret_cast<uint8_t *>(tensorMap);
  bytes[0] = static_cast<uint8_t>(state().tensorMapCalls.size());
  std::memcpy(bytes + 8, &call.address, 8);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuStreamCreate(CUstream *stream, unsigned int) {
  ++state().liveStreams;
  *stream = reinterpret_cast<CUstream>(new MockStream);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuStreamDestroy(CUstream stream) {
  --state().liveStreams;
  delete reinterpret_cast<MockStream *>(stream);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuStreamSynchronize(CUstream) { return state().sticky; }

CUresult CUDAAPI cuEventCreate(CUevent *event, unsigned int) {
  ++state().liveEvents;
  *event = reinterpret_cast<CUevent>(new MockEvent);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuEventDestroy(CUevent event) {
  --state().liveEvents;
  delete reinterpret_cast<MockEvent *>(event);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuEventRecord(CUevent, CUstream) { return state().sticky; }

CUresult CUDAAPI cuEventSynchronize(CUevent) { return state().sticky; }

CUresult CUDAAPI cuEventElapsedTime(float *ms, CUevent, CUevent) {
  *ms = 0.5f;
  return CUDA_SUCCESS;
}

} // extern "C"
