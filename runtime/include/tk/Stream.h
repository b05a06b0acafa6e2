//===- Stream.h - Streams and events ----------------------------*- C++ -*-===//

#ifndef TK_STREAM_H
#define TK_STREAM_H

#include "tk/Backend.h"

#include <memory>

namespace tk {

class Context;

/// An ordered queue of launches (a CUstream created with CU_STREAM_DEFAULT,
/// so that it synchronizes with the legacy default stream that Buffer copies
/// use; an immediate no-op queue for the interpreter). Move-only RAII.
class Stream {
public:
  explicit Stream(const Context &context);
  /// A stream over `nativeHandle` (a CUstream; nullptr: the legacy default
  /// stream) that the caller keeps owning, e.g. torch.cuda.current_stream().
  static Stream wrap(const Context &context, void *nativeHandle);
  Stream(Stream &&) noexcept = default;
  Stream &operator=(Stream &&other) noexcept;
  Stream(const Stream &) = delete;
  Stream &operator=(const Stream &) = delete;
  ~Stream();

  /// Waits for the stream's work; throws tk::Error if a kernel failed.
  void sync();
  /// The CUstream, for interop; nullptr for the interpreter.
  void *nativeHandle() const { return impl->nativeHandle(); }

  StreamImpl *getImpl() const { return impl.get(); }
  const Backend *getBackend() const { return backend.get(); }

private:
  Stream(std::shared_ptr<Backend> backend, std::unique_ptr<StreamImpl> impl)
      : backend(std::move(backend)), impl(std::move(impl)) {}
  std::shared_ptr<Backend> backend;
  std::unique_ptr<StreamImpl> impl;
};

/// A timestamp in a stream, for timing kernels.
class Event {
public:
  explicit Event(const Context &context);
  Event(Event &&) noexcept = default;
  Event &operator=(Event &&other) noexcept;
  Event(const Event &) = delete;
  Event &operator=(const Event &) = delete;
  ~Event();

  /// Records on `stream`'s queue (the default stream if nullptr).
  void record(Stream *stream = nullptr);
  void record(Stream &stream) { record(&stream); }
  void sync();
  /// Milliseconds between `start` and this event (both recorded; syncs).
  float elapsedMsSince(const Event &start);

private:
  std::shared_ptr<Backend> backend;
  std::unique_ptr<EventImpl> impl;
};

} // namespace tk

#endif // TK_STREAM_H
