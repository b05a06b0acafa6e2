//===- CudaDriver.cpp - Loading libcuda.so.1 ------------------------------===//

#include "CudaDriver.h"
#include "tk/Error.h"

#include <dlfcn.h>

#include <memory>
#include <mutex>

using namespace tk;
using namespace tk::detail;

// Stringizes after macro expansion: TK_SYMBOL(cuMemAlloc) is
// "cuMemAlloc_v2".
#define TK_STRINGIZE_EXPANDED(x) TK_STRINGIZE(x)
#define TK_STRINGIZE(x) #x

static const char *const kLibrary = "libcuda.so.1";

namespace {
struct LoadResult {
  std::unique_ptr<CudaDriver> driver;
  std::string error;
};
} // namespace

static std::string describeWithDriver(const CudaDriver &d, CUresult result) {
  return d.describe(result);
}

static LoadResult loadDriver() {
  LoadResult out;
  void *handle = ::dlopen(kLibrary, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = ::dlerror();
    out.error = std::string("no CUDA driver found (") + kLibrary +
                "): " + (why ? why : "dlopen failed");
    return out;
  }
  // The handle is never closed: function pointers outlive everything.
  auto driver = std::make_unique<CudaDriver>();
  auto resolve = [&](const char *symbol) { return ::dlsym(handle, symbol); };

#define TK_CUDA_RESOLVE(name)                                                  \
  driver->name = reinterpret_cast<decltype(driver->name)>(                     \
      resolve(TK_STRINGIZE_EXPANDED(name)));                                   \
  if (!driver->name) {                                                         \
    out.error = std::string("the CUDA driver (") + kLibrary +                  \
                ") lacks " TK_STRINGIZE_EXPANDED(name) "; it is too old for " \
                "libtkrt";                                                     \
    return out;                                                                \
  }
  TK_CUDA_REQUIRED_FUNCTIONS(TK_CUDA_RESOLVE)
#undef TK_CUDA_RESOLVE

  using ElapsedFn = decltype(driver->eventElapsedTime);
  driver->eventElapsedTime =
      reinterpret_cast<ElapsedFn>(resolve("cuEventElapsedTime_v2"));
  if (!driver->eventElapsedTime)
    driver->eventElapsedTime =
        reinterpret_cast<ElapsedFn>(resolve("cuEventElapsedTime"));
  driver->funcGetParamInfo = reinterpret_cast<decltype(
      driver->funcGetParamInfo)>(resolve("cuFuncGetParamInfo"));
  driver->tensorMapEncodeTiled = reinterpret_cast<decltype(
      driver->tensorMapEncodeTiled)>(resolve("cuTensorMapEncodeTiled"));

  CUresult result = driver->cuInit(0);
  if (result == CUDA_ERROR_STUB_LIBRARY) {
    out.error = std::string("no CUDA driver found (") + kLibrary +
                " is the CUDA toolkit's stub library, not a driver)";
    return out;
  }
  if (result == CUDA_ERROR_NO_DEVICE) {
    out.error = "no CUDA device found (cuInit: " +
                describeWithDriver(*driver, result) + ")";
    return out;
  }
  if (result != CUDA_SUCCESS) {
    out.error = "the CUDA driver failed to initialize (cuInit: " +
                describeWithDriver(*driver, result) + ")";
    return out;
  }
  driver->cuDriverGetVersion(&driver->driverVersion);
  out.driver = std::move(driver);
  return out;
}

const CudaDriver &CudaDriver::get() {
  static std::once_flag once;
  static LoadResult loaded;
  std::call_once(once, [] { loaded = loadDriver(); });
  if (!loaded.driver)
    throw Error(loaded.error);
  return *loaded.driver;
}

std::string CudaDriver::describe(CUresult result) const {
  const char *name = nullptr;
  const char *text = nullptr;
  if (cuGetErrorName(result, &name) != CUDA_SUCCESS || !name)
    return "CUDA error " + std::to_string(static_cast<int>(result));
  std::string s = name;
  if (cuGetErrorString(result, &text) == CUDA_SUCCESS && text)
    s += std::string(" (") + text + ")";
  return s;
}

bool detail::isStickyKernelError(CUresult result) {
  switch (result) {
  case CUDA_ERROR_ILLEGAL_ADDRESS:
  case CUDA_ERROR_LAUNCH_FAILED:
  case CUDA_ERROR_LAUNCH_TIMEOUT:
  case CUDA_ERROR_HARDWARE_STACK_ERROR:
  case CUDA_ERROR_ILLEGAL_INSTRUCTION:
  case CUDA_ERROR_MISALIGNED_ADDRESS:
  case CUDA_ERROR_INVALID_ADDRESS_SPACE:
  case CUDA_ERROR_INVALID_PC:
  case CUDA_ERROR_ASSERT:
  case CUDA_ERROR_ECC_UNCORRECTABLE:
    return true;
  default:
    return false;
  }
}
