//===- Backend.h - The executor interface behind tk::Context ---*- C++ -*-===//
//
// A Backend executes compiled kernels: the built-in "cuda" backend on a GPU
// through the driver API, the "interpreter" backend (a separate library that
// links MLIR) on the CPU from the kernel's tk IR. Host code talks to
// tk::Context/Buffer/Module/Kernel, which check everything backend-neutral
// (metadata, argument types and specs, grid and device limits) and then call
// these virtuals with already-validated inputs.
//
// Backends register a factory by name; Context::create picks one.
//
//===----------------------------------------------------------------------===//

#ifndef TK_BACKEND_H
#define TK_BACKEND_H

#include "tk/ArgValue.h"
#include "tk/Grid.h"
#include "tk/Metadata.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tk {

/// What host code and the launch checks need to know about the device.
/// The defaults are those of a backend without hardware limits.
struct DeviceInfo {
  std::string name;
  int computeMajor = 0; // 0.0 when not a GPU
  int computeMinor = 0;
  int64_t maxGrid[3] = {2147483647, 65535, 65535};
  /// Shared memory one block may use, opt-in maximum included.
  uint64_t maxSharedBytesPerBlock = std::numeric_limits<uint64_t>::max();
  int maxThreadsPerBlock = 1024;
  int multiprocessorCount = 0;
  uint64_t totalMemoryBytes = 0;
};

/// Everything a backend needs to load one compiled kernel.
struct ModuleImage {
  Metadata metadata;
  /// Folder of the metadata file; relative `binary`/`tk_ir` names resolve
  /// against it. Empty when loaded from memory.
  std::string directory;
  /// Names the metadata in messages: its path, or "<memory>".
  std::string origin;
  /// Set by Module::loadFromMemory: the binary's bytes (cubin or PTX text).
  std::optional<std::string> binaryData;
  /// Optional in-memory tk IR text for the interpreter.
  std::optional<std::string> tkIrData;

  /// Path of the binary file (directory/metadata.binary).
  std::string binaryPath() const;
  std::string tkIrPath() const;
  /// binaryData if set, else the file's contents; throws tk::Error if the
  /// metadata names no binary or the file cannot be read.
  std::string readBinary() const;
  /// tkIrData if set, else the tk_ir file's contents; throws likewise.
  std::string readTkIr() const;
};

/// A backend's stream. Work on one stream runs in launch order.
class StreamImpl {
public:
  virtual ~StreamImpl();
  /// Waits for all work on the stream; throws tk::Error if it failed.
  virtual void sync() = 0;
  /// The native handle (a CUstream for CUDA), or nullptr.
  virtual void *nativeHandle() const { return nullptr; }
};

/// A point in a stream's work, for timing.
class EventImpl {
public:
  virtual ~EventImpl();
  /// `stream` is nullptr for the backend's default stream.
  virtual void record(StreamImpl *stream) = 0;
  virtual void sync() = 0;
  /// Milliseconds from `start` (recorded earlier) to this event.
  virtual float elapsedMsSince(const EventImpl &start) = 0;
};

class KernelImpl {
public:
  virtual ~KernelImpl();
  /// Launches (or, for an interpreter, runs) the kernel. `args` are already
  /// checked: exactly one per parameter, each of exactly the declared type
  /// and satisfying its spec. `grid` is within deviceInfo() limits and has
  /// no zero dimension. `stream` is nullptr for the default stream.
  virtual void launch(const Grid &grid, StreamImpl *stream,
                      const std::vector<ArgValue> &args) = 0;
};

/// One loaded kernel binary; owns its KernelImpl.
class ModuleImpl {
public:
  virtual ~ModuleImpl();
  /// The module's kernel (metadata.name). Lives as long as the ModuleImpl.
  virtual KernelImpl &kernel() = 0;
};

class Backend {
public:
  virtual ~Backend();

  /// The registry name: "cuda", "interpreter", ...
  virtual std::string name() const = 0;
  virtual DeviceInfo deviceInfo() const { return DeviceInfo(); }

  /// Allocates `bytes` (> 0) bytes, aligned to at least 256 bytes.
  virtual DevicePtr alloc(size_t bytes) = 0;
  /// Frees an allocation; called from destructors, so it must not throw.
  virtual void free(DevicePtr ptr) noexcept = 0;
  /// Synchronous copies, ordered after all previously launched work.
  virtual void copyToDevice(DevicePtr dst, const void *src, size_t bytes) = 0;
  virtual void copyToHost(void *dst, DevicePtr src, size_t bytes) = 0;
  /// Default: through a host buffer.
  virtual void copyDeviceToDevice(DevicePtr dst, DevicePtr src, size_t bytes);
  virtual void memset(DevicePtr dst, uint8_t value, size_t bytes) = 0;

  /// Loads a kernel. The metadata is valid, and libtkrt has already checked
  /// it against deviceInfo() (shared memory, threads per block).
  virtual std::unique_ptr<ModuleImpl> loadModule(const ModuleImage &image) = 0;

  /// Default: a stream on which launches complete synchronously (right for
  /// an interpreter); sync() does nothing.
  virtual std::unique_ptr<StreamImpl> createStream();
  /// A stream over a native handle the caller owns (a CUstream from
  /// PyTorch, say); destroying it leaves the handle alone. nullptr means
  /// the default stream. Default: the backend has no native streams, so
  /// any handle is the same immediate queue as createStream().
  virtual std::unique_ptr<StreamImpl> wrapStream(void *nativeHandle);
  /// Default: an event that reads the host clock after sync().
  virtual std::unique_ptr<EventImpl> createEvent();

  /// Waits for all work; throws tk::Error naming the failing kernel.
  virtual void sync() = 0;
};

//===----------------------------------------------------------------------===//
// The backend registry.
//===----------------------------------------------------------------------===//

using BackendFactory = std::function<std::unique_ptr<Backend>()>;

/// Registers (or replaces) the backend `name`. The factory throws tk::Error
/// when the backend cannot run here (e.g. "no CUDA driver found ...").
/// "cuda" is built in. Thread-safe; may be called from static initializers.
void registerBackend(const std::string &name, BackendFactory factory);
/// Removes `name`; returns whether it was registered.
bool unregisterBackend(const std::string &name);
bool isBackendRegistered(const std::string &name);
/// Sorted names.
std::vector<std::string> registeredBackendNames();
/// Runs the factory of `name`; throws tk::Error if none is registered.
std::unique_ptr<Backend> createBackend(const std::string &name);

} // namespace tk

#endif // TK_BACKEND_H
