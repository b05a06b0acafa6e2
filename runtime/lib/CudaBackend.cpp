//===- CudaBackend.cpp - The built-in "cuda" backend ----------------------===//
//
// Device 0's primary context, made current on the calling thread at every
// entry point (so host code may use a Context from any thread). Launches use
// dynamic shared memory only (the compiler's contract) and blockDim =
// num_warps * 32.
//
// Kernel faults are asynchronous: they surface as a "sticky" error from
// whatever driver call comes next. The backend remembers the last kernel it
// launched so that such errors name it.
//
//===----------------------------------------------------------------------===//

#include "CudaBackend.h"
#include "CudaDriver.h"
#include "TensorMap.h"

#include "tk/Arch.h"
#include "tk/Error.h"

#include <cstring>
#include <mutex>

using namespace tk;
using namespace tk::detail;

namespace {

class CudaBackend;

class CudaStream final : public StreamImpl {
public:
  CudaStream(CudaBackend &backend, CUstream handle, bool owned = true)
      : backend(backend), handle(handle), owned(owned) {}
  ~CudaStream() override;
  void sync() override;
  void *nativeHandle() const override { return handle; }

  CudaBackend &backend;
  CUstream handle;
  /// False for Backend::wrapStream: the caller's handle.
  bool owned;
};

class CudaEvent final : public EventImpl {
public:
  CudaEvent(CudaBackend &backend, CUevent handle)
      : backend(backend), handle(handle) {}
  ~CudaEvent() override;
  void record(StreamImpl *stream) override;
  void sync() override;
  float elapsedMsSince(const EventImpl &start) override;

  CudaBackend &backend;
  CUevent handle;
};

class CudaKernel final : public KernelImpl {
public:
  CudaKernel(CudaBackend &backend, CUfunction function, const Metadata &md)
      : backend(backend), function(function), name(md.name),
        threadsPerBlock(static_cast<unsigned>(md.numWarps) * 32),
        sharedBytes(static_cast<unsigned>(md.sharedBytes)) {
    if (!md.tensorMaps.empty())
      tensorMapMetadata = md;
  }
  void launch(const Grid &grid, StreamImpl *stream,
              const std::vector<ArgValue> &args) override;

private:
  CudaBackend &backend;
  CUfunction function;
  std::string name;
  unsigned threadsPerBlock;
  unsigned sharedBytes;
  /// The metadata, kept only for kernels with tensor maps (encoded at
  /// every launch from the arguments).
  Metadata tensorMapMetadata;
};

class CudaModule final : public ModuleImpl {
public:
  CudaModule(CudaBackend &backend, CUmodule module, CUfunction function,
             const Metadata &md)
      : backend(backend), module(module), kernelImpl(backend, function, md) {}
  ~CudaModule() override;
  KernelImpl &kernel() override { return kernelImpl; }

private:
  CudaBackend &backend;
  CUmodule module;
  CudaKernel kernelImpl;
};

class CudaBackend final : public Backend {
public:
  CudaBackend(const CudaDriver &driver, int ordinal);
  ~CudaBackend() override;

  std::string name() const override { return "cuda"; }
  DeviceInfo deviceInfo() const override { return info; }
  DevicePtr alloc(size_t bytes) override;
  void free(DevicePtr ptr) noexcept override;
  void copyToDevice(DevicePtr dst, const void *src, size_t bytes) override;
  void copyToHost(void *dst, DevicePtr src, size_t bytes) override;
  void copyDeviceToDevice(DevicePtr dst, DevicePtr src, size_t bytes) override;
  void memset(DevicePtr dst, uint8_t value, size_t bytes) override;
  std::unique_ptr<ModuleImpl> loadModule(const ModuleImage &image) override;
  std::unique_ptr<StreamImpl> createStream() override;
  std::unique_ptr<StreamImpl> wrapStream(void *nativeHandle) override {
    return std::make_unique<CudaStream>(
        *this, static_cast<CUstream>(nativeHandle), /*owned=*/false);
  }
  std::unique_ptr<EventImpl> createEvent() override;
  void sync() override;

  const CudaDriver &driver;

  /// Makes this device's primary context current on this thread for one
  /// call and then gives back the context the caller had current (PyTorch's
  /// current device is the current context: a launch on device 1 must not
  /// change it). With none current before, this one stays.
  class CurrentContext {
  public:
    /// Throws on failure.
    explicit CurrentContext(const CudaBackend &backend)
        : CurrentContext(backend, /*quiet=*/false) {}
    /// For destructors: reports nothing; ok() says whether it worked.
    CurrentContext(const CudaBackend &backend, bool quiet)
        : driver(backend.driver) {
      CUresult r = driver.cuCtxGetCurrent(&previous);
      if (r == CUDA_SUCCESS && previous != backend.context) {
        r = driver.cuCtxSetCurrent(backend.context);
        restore = r == CUDA_SUCCESS && previous;
      }
      success = r == CUDA_SUCCESS;
      if (!success && !quiet)
        backend.fail("making the CUDA context current", r);
    }
    ~CurrentContext() {
      if (restore)
        driver.cuCtxSetCurrent(previous);
    }
    bool ok() const { return success; }

  private:
    const CudaDriver &driver;
    CUcontext previous = nullptr;
    bool success = false;
    bool restore = false;
  };

  /// Throws "<what> failed: <error>", naming the last launched kernel when
  /// the error is one a kernel left behind.
  [[noreturn]] void fail(const std::string &what, CUresult result) const {
    std::string message = what + " failed: " + driver.describe(result);
    if (isStickyKernelError(result)) {
      std::string last = lastKernel();
      message += last.empty()
                     ? "; the CUDA context is now unusable"
                     : "; this error comes from a kernel that ran earlier, "
                       "most likely '" + last +
                           "' (the last one launched); the CUDA context is "
                           "now unusable";
    }
    throw Error(message);
  }

  /// For synchronization points: a kernel fault is reported as the failure
  /// of the last launched kernel.
  [[noreturn]] void failSync(const char *where, CUresult result) const {
    std::string last = lastKernel();
    if (isStickyKernelError(result) && !last.empty())
      throw Error("launch of kernel '" + last + "' failed: " +
                  driver.describe(result) + " (reported by " + where +
                  "; '" + last + "' is the last kernel launched; the CUDA " +
                  "context is now unusable)");
    fail(where, result);
  }

  std::string lastKernel() const {
    std::lock_guard<std::mutex> lock(lastKernelMutex);
    return lastKernelName;
  }
  void noteLaunched(const std::string &kernel) {
    std::lock_guard<std::mutex> lock(lastKernelMutex);
    lastKernelName = kernel; // Reuses capacity: no allocation per launch.
  }

private:
  CUdevice device = 0;
  CUcontext context = nullptr;
  DeviceInfo info;
  mutable std::mutex lastKernelMutex;
  std::string lastKernelName;

  void queryDeviceInfo();
  int attribute(CUdevice_attribute which, const char *what) const {
    int value = 0;
    CUresult r = driver.cuDeviceGetAttribute(&value, which, device);
    if (r != CUDA_SUCCESS)
      fail(std::string("querying the device's ") + what, r);
    return value;
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// CudaBackend
//===----------------------------------------------------------------------===//

CudaBackend::CudaBackend(const CudaDriver &driver, int ordinal)
    : driver(driver) {
  int count = 0;
  CUresult r = driver.cuDeviceGetCount(&count);
  if (r != CUDA_SUCCESS)
    throw Error("no CUDA device found (cuDeviceGetCount: " +
                driver.describe(r) + ")");
  if (count == 0)
    throw Error("no CUDA device found (the driver reports 0 devices)");
  if (ordinal < 0 || ordinal >= count)
    throw Error("there is no CUDA device " + std::to_string(ordinal) +
                " (the driver reports " + std::to_string(count) + " device" +
                (count == 1 ? "" : "s") + ")");
  r = driver.cuDeviceGet(&device, ordinal);
  if (r != CUDA_SUCCESS)
    fail("cuDeviceGet(" + std::to_string(ordinal) + ")", r);
  r = driver.cuDevicePrimaryCtxRetain(&context, device);
  if (r != CUDA_SUCCESS)
    fail("creating a CUDA context on device " + std::to_string(ordinal), r);
  try {
    queryDeviceInfo();
  } catch (...) {
    driver.cuDevicePrimaryCtxRelease(device);
    throw;
  }
}

void CudaBackend::queryDeviceInfo() {

  char name[256] = {0};
  if (driver.cuDeviceGetName(name, sizeof(name) - 1, device) == CUDA_SUCCESS)
    info.name = name;
  info.computeMajor =
      attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, "compute "
                                                              "capability");
  info.computeMinor =
      attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, "compute "
                                                              "capability");
  info.maxGrid[0] = attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, "grid size");
  info.maxGrid[1] = attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, "grid size");
  info.maxGrid[2] = attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, "grid size");
  info.maxSharedBytesPerBlock = static_cast<uint64_t>(
      attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                "shared memory size"));
  info.maxThreadsPerBlock =
      attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, "block size");
  info.multiprocessorCount =
      attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, "SM count");
  size_t total = 0;
  if (driver.cuDeviceTotalMem(&total, device) == CUDA_SUCCESS)
    info.totalMemoryBytes = total;
}

CudaBackend::~CudaBackend() {
  if (context)
    driver.cuDevicePrimaryCtxRelease(device);
}

DevicePtr CudaBackend::alloc(size_t bytes) {
  CurrentContext current(*this);
  CUdeviceptr ptr = 0;
  CUresult r = driver.cuMemAlloc(&ptr, bytes);
  if (r != CUDA_SUCCESS)
    fail("allocating " + std::to_string(bytes) + " bytes of GPU memory", r);
  return DevicePtr(static_cast<uint64_t>(ptr));
}

void CudaBackend::free(DevicePtr ptr) noexcept {
  // Errors are ignored: after a kernel fault, or at process exit once the
  // driver has shut down, freeing fails and there is nothing to do about it.
  if (CurrentContext current(*this, /*quiet=*/true); current.ok())
    driver.cuMemFree(static_cast<CUdeviceptr>(ptr.address));
}

void CudaBackend::copyToDevice(DevicePtr dst, const void *src, size_t bytes) {
  CurrentContext current(*this);
  CUresult r = driver.cuMemcpyHtoD(static_cast<CUdeviceptr>(dst.address), src,
                                   bytes);
  if (r != CUDA_SUCCESS)
    fail("copying " + std::to_string(bytes) + " bytes to the device", r);
}

void CudaBackend::copyToHost(void *dst, DevicePtr src, size_t bytes) {
  CurrentContext current(*this);
  CUresult r = driver.cuMemcpyDtoH(dst, static_cast<CUdeviceptr>(src.address),
                                   bytes);
  if (r != CUDA_SUCCESS)
    fail("copying " + std::to_string(bytes) + " bytes to the host", r);
}

void CudaBackend::copyDeviceToDevice(DevicePtr dst, DevicePtr src,
                                     size_t bytes) {
  CurrentContext current(*this);
  CUresult r = driver.cuMemcpyDtoD(static_cast<CUdeviceptr>(dst.address),
                                   static_cast<CUdeviceptr>(src.address),
                                   bytes);
  if (r != CUDA_SUCCESS)
    fail("copying " + std::to_string(bytes) + " bytes on the device", r);
}

void CudaBackend::memset(DevicePtr dst, uint8_t value, size_t bytes) {
  CurrentContext current(*this);
  CUresult r =
      driver.cuMemsetD8(static_cast<CUdeviceptr>(dst.address), value, bytes);
  if (r != CUDA_SUCCESS)
    fail("setting " + std::to_string(bytes) + " bytes of device memory", r);
}

void CudaBackend::sync() {
  CurrentContext current(*this);
  CUresult r = driver.cuCtxSynchronize();
  if (r != CUDA_SUCCESS)
    failSync("context synchronize", r);
}

std::unique_ptr<StreamImpl> CudaBackend::createStream() {
  CurrentContext current(*this);
  CUstream stream = nullptr;
  // CU_STREAM_DEFAULT: the stream synchronizes with the legacy default
  // stream, which Buffer's synchronous copies use.
  CUresult r = driver.cuStreamCreate(&stream, CU_STREAM_DEFAULT);
  if (r != CUDA_SUCCESS)
    fail("creating a CUDA stream", r);
  return std::make_unique<CudaStream>(*this, stream);
}

std::unique_ptr<EventImpl> CudaBackend::createEvent() {
  CurrentContext current(*this);
  CUevent event = nullptr;
  CUresult r = driver.cuEventCreate(&event, CU_EVENT_DEFAULT);
  if (r != CUDA_SUCCESS)
    fail("creating a CUDA event", r);
  return std::make_unique<CudaEvent>(*this, event);
}

//===----------------------------------------------------------------------===//
// Loading modules
//===----------------------------------------------------------------------===//

static bool looksLikeCubin(const std::string &data) {
  static const unsigned char kElf[] = {0x7f, 'E', 'L', 'F'};
  static const unsigned char kFatbin[] = {0x50, 0xED, 0x55, 0xBA};
  return data.size() >= 4 && (std::memcmp(data.data(), kElf, 4) == 0 ||
                              std::memcmp(data.data(), kFatbin, 4) == 0);
}

std::unique_ptr<ModuleImpl> CudaBackend::loadModule(const ModuleImage &image) {
  const Metadata &md = image.metadata;
  const std::string prefix = "kernel '" + md.name + "': ";
  bool isPtx = md.binaryKind == BinaryKind::Ptx;

  if (std::optional<std::string> mismatch = archMismatch(
          md.targetArch(), isPtx, info.computeMajor, info.computeMinor))
    throw Error(prefix + *mismatch);

  std::string data = image.readBinary();
  std::string source = image.binaryData ? std::string("the in-memory binary")
                                        : "'" + image.binaryPath() + "'";
  if (!isPtx && !looksLikeCubin(data))
    throw Error(prefix + source +
                " is not a cubin (no ELF or fatbin header), but the "
                "metadata says binary_kind cubin");
  if (isPtx && looksLikeCubin(data))
    throw Error(prefix + source +
                " is a cubin, but the metadata says binary_kind ptx");
  if (isPtx && data.find('\0') != std::string::npos)
    throw Error(prefix + source + " contains a NUL byte; it is not PTX text");

  CurrentContext current(*this);
  char errorLog[16384] = {0};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {errorLog,
                    reinterpret_cast<void *>(sizeof(errorLog) - 1)};
  CUmodule module = nullptr;
  // data.c_str() is NUL-terminated, as PTX must be.
  CUresult r = driver.cuModuleLoadDataEx(&module, data.c_str(), 2, options,
                                         values);
  if (r != CUDA_SUCCESS) {
    std::string message = prefix + "loading " +
                          (isPtx ? "PTX " : "cubin ") + source +
                          " failed: " + driver.describe(r);
    if (errorLog[0])
      message += "\n" + std::string(errorLog);
    throw Error(message);
  }
  // From here on, unload the module if anything else fails.
  struct Unloader {
    const CudaDriver &driver;
    CUmodule module;
    ~Unloader() {
      if (module)
        driver.cuModuleUnload(module);
    }
  } unloader{driver, module};

  CUfunction function = nullptr;
  r = driver.cuModuleGetFunction(&function, module, md.name.c_str());
  if (r == CUDA_ERROR_NOT_FOUND)
    throw Error(prefix + source + " has no kernel named '" + md.name + "'");
  if (r != CUDA_SUCCESS)
    fail(prefix + "looking up the kernel in " + source, r);

  // The parameter list must be what the metadata says, or arguments would
  // be passed at the wrong offsets.
  if (driver.funcGetParamInfo) {
    size_t count = 0;
    for (; count < 65536; ++count) {
      size_t offset = 0, size = 0;
      if (driver.funcGetParamInfo(function, count, &offset, &size) !=
          CUDA_SUCCESS)
        break;
      if (count >= md.args.size() && count < md.args.size() +
                                                  md.tensorMaps.size() &&
          size != sizeof(CUtensorMap))
        throw Error(prefix + "tensor map " +
                    std::to_string(count - md.args.size() + 1) + " is " +
                    std::to_string(size) + " bytes in " + source +
                    ", expected " + std::to_string(sizeof(CUtensorMap)));
      if (count < md.args.size() &&
          size != md.args[count].type.paramByteSize())
        throw Error(prefix + "the metadata says parameter " +
                    std::to_string(count + 1) + " ('" + md.args[count].name +
                    "') is " + toString(md.args[count].type) + " (" +
                    std::to_string(md.args[count].type.paramByteSize()) +
                    " bytes), but in " + source + " it is " +
                    std::to_string(size) + " bytes");
    }
    size_t expected = md.args.size() + md.tensorMaps.size();
    if (count != expected)
      throw Error(prefix + "the metadata lists " +
                  std::to_string(md.args.size()) + " parameters" +
                  (md.tensorMaps.empty()
                       ? std::string()
                       : " and " + std::to_string(md.tensorMaps.size()) +
                             (md.tensorMaps.size() == 1 ? " tensor map"
                                                        : " tensor maps")) +
                  ", but " + source + " has " + std::to_string(count));
  }

  auto functionAttribute = [&](CUfunction_attribute which, const char *what) {
    int value = 0;
    CUresult result = driver.cuFuncGetAttribute(&value, which, function);
    if (result != CUDA_SUCCESS)
      fail(prefix + "querying the kernel's " + what, result);
    return value;
  };
  int threads = md.numWarps * 32;
  int maxThreads = functionAttribute(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                                     "maximum block size");
  if (threads > maxThreads) {
    int registers = functionAttribute(CU_FUNC_ATTRIBUTE_NUM_REGS, "registers");
    throw Error(prefix + "num_warps " + std::to_string(md.numWarps) +
                " needs " + std::to_string(threads) +
                " threads per block, but the kernel uses " +
                std::to_string(registers) +
                " registers per thread, so the device runs at most " +
                std::to_string(maxThreads));
  }
  uint64_t staticShared = static_cast<uint64_t>(functionAttribute(
      CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, "static shared memory"));
  uint64_t totalShared = staticShared + md.sharedBytes;
  if (totalShared > info.maxSharedBytesPerBlock)
    throw Error("kernel '" + md.name + "' needs " +
                std::to_string(totalShared) +
                " bytes of shared memory; the device allows " +
                std::to_string(info.maxSharedBytesPerBlock));
  // Above 48 KiB per block, dynamic shared memory must be opted into.
  if (totalShared > 48 * 1024) {
    r = driver.cuFuncSetAttribute(
        function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
        static_cast<int>(md.sharedBytes));
    if (r != CUDA_SUCCESS)
      fail(prefix + "allowing " + std::to_string(md.sharedBytes) +
               " bytes of dynamic shared memory",
           r);
  }

  auto loaded = std::make_unique<CudaModule>(*this, module, function, md);
  unloader.module = nullptr;
  return loaded;
}

CudaModule::~CudaModule() {
  if (CudaBackend::CurrentContext current(backend, /*quiet=*/true); current.ok())
    backend.driver.cuModuleUnload(module);
}

//===----------------------------------------------------------------------===//
// Launching
//===----------------------------------------------------------------------===//

void CudaKernel::launch(const Grid &grid, StreamImpl *stream,
                        const std::vector<ArgValue> &args) {
  // Each parameter is read from the low bytes of ArgValue::bits (the
  // platform is little-endian); the driver knows each parameter's size.
  constexpr size_t kInline = 32;
  const std::vector<TensorMapSpec> &maps = tensorMapMetadata.tensorMaps;
  size_t numParams = args.size() + maps.size();
  void *inlineParams[kInline];
  std::vector<void *> heapParams;
  void **params = inlineParams;
  if (numParams > kInline) {
    heapParams.resize(numParams);
    params = heapParams.data();
  }
  for (size_t i = 0; i < args.size(); ++i)
    params[i] = const_cast<uint64_t *>(&args[i].bits);
  // TMA descriptors: 128-byte parameters after the kernel's own.
  std::vector<CUtensorMap> encoded(maps.size());
  for (size_t i = 0; i < maps.size(); ++i) {
    if (!backend.driver.tensorMapEncodeTiled)
      throw Error("kernel '" + name + "' uses TMA, but the CUDA driver has "
                  "no cuTensorMapEncodeTiled (CUDA 12 or newer needed)");
    detail::TensorMapEncoding e =
        detail::encodeTensorMap(tensorMapMetadata, i, args);
    CUresult r = backend.driver.tensorMapEncodeTiled(
        &encoded[i], e.dataType, e.rank,
        reinterpret_cast<void *>(static_cast<uintptr_t>(e.globalAddress)),
        e.globalDim, e.globalStrides, e.boxDim, e.elementStrides,
        e.interleave, e.swizzle, e.l2Promotion, e.oobFill);
    if (r != CUDA_SUCCESS)
      throw Error("kernel '" + name + "': encoding tensor map " +
                  std::to_string(i + 1) + " (base '" + maps[i].base +
                  "') failed: " + backend.driver.describe(r));
    params[args.size() + i] = &encoded[i];
  }

  // The Kernel front end checked that the stream is this backend's.
  CUstream handle = stream ? static_cast<CudaStream *>(stream)->handle
                           : nullptr;
  CudaBackend::CurrentContext current(backend);
  CUresult r = backend.driver.cuLaunchKernel(
      function, static_cast<unsigned>(grid.x), static_cast<unsigned>(grid.y),
      static_cast<unsigned>(grid.z), threadsPerBlock, 1, 1, sharedBytes,
      handle, args.empty() ? nullptr : params, nullptr);
  if (r != CUDA_SUCCESS) {
    if (isStickyKernelError(r))
      backend.fail("launch of kernel '" + name + "'", r);
    throw Error("launch of kernel '" + name + "' failed: " +
                backend.driver.describe(r) + " (grid " + grid.toString() +
                ", " + std::to_string(threadsPerBlock) +
                " threads per block, " + std::to_string(sharedBytes) +
                " bytes of dynamic shared memory)");
  }
  backend.noteLaunched(name);
}

//===----------------------------------------------------------------------===//
// Streams and events
//===----------------------------------------------------------------------===//

CudaStream::~CudaStream() {
  if (owned && handle)
    if (CudaBackend::CurrentContext current(backend, /*quiet=*/true); current.ok())
      backend.driver.cuStreamDestroy(handle);
}

void CudaStream::sync() {
  CudaBackend::CurrentContext current(backend);
  CUresult r = backend.driver.cuStreamSynchronize(handle);
  if (r != CUDA_SUCCESS)
    backend.failSync("stream synchronize", r);
}

CudaEvent::~CudaEvent() {
  if (CudaBackend::CurrentContext current(backend, /*quiet=*/true); current.ok())
    backend.driver.cuEventDestroy(handle);
}

void CudaEvent::record(StreamImpl *stream) {
  CudaBackend::CurrentContext current(backend);
  CUstream s = stream ? static_cast<CudaStream *>(stream)->handle : nullptr;
  CUresult r = backend.driver.cuEventRecord(handle, s);
  if (r != CUDA_SUCCESS)
    backend.fail("recording a CUDA event", r);
}

void CudaEvent::sync() {
  CudaBackend::CurrentContext current(backend);
  CUresult r = backend.driver.cuEventSynchronize(handle);
  if (r != CUDA_SUCCESS)
    backend.failSync("event synchronize", r);
}

float CudaEvent::elapsedMsSince(const EventImpl &start) {
  // tk::Event checked that both events come from this backend.
  const auto *startEvent = static_cast<const CudaEvent *>(&start);
  sync();
  if (!backend.driver.eventElapsedTime)
    throw Error("the CUDA driver lacks cuEventElapsedTime");
  float ms = 0;
  CUresult r = backend.driver.eventElapsedTime(&ms, startEvent->handle, handle);
  if (r != CUDA_SUCCESS)
    backend.fail("measuring the time between two events", r);
  return ms;
}

std::unique_ptr<Backend> detail::createCudaBackend(int ordinal) {
  return std::make_unique<CudaBackend>(CudaDriver::get(), ordinal);
}
