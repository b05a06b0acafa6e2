//===- Buffer.h - An owned device allocation --------------------*- C++ -*-===//

#ifndef TK_BUFFER_H
#define TK_BUFFER_H

#include "tk/ArgValue.h"
#include "tk/Backend.h"

#include <cstddef>
#include <memory>
#include <vector>

namespace tk {

class Context;

/// RAII device memory from Context::alloc. Move-only; freed on destruction
/// (the context stays alive as long as any of its buffers does).
/// upload/download are synchronous and ordered after launched work (for
/// CUDA: the legacy default stream, with which tk::Stream synchronizes).
class Buffer {
public:
  /// An empty buffer: ptr() is null, size() is 0.
  Buffer() = default;
  Buffer(Buffer &&other) noexcept;
  Buffer &operator=(Buffer &&other) noexcept;
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
  ~Buffer();

  DevicePtr ptr() const { return address; }
  size_t size() const { return bytes; }
  /// The address typed as T elements, for type-checked kernel arguments.
  template <typename T> TypedPtr<T> as() const { return TypedPtr<T>(address); }

  /// Copies `count` bytes from host `src` to offset `offset` of the buffer.
  void upload(const void *src, size_t count, size_t offset = 0);
  /// Copies `count` bytes at offset `offset` of the buffer to host `dst`.
  void download(void *dst, size_t count, size_t offset = 0) const;
  /// Sets every byte to `value`.
  void fill(uint8_t value);

  template <typename T> void upload(const std::vector<T> &values) {
    upload(values.data(), values.size() * sizeof(T));
  }
  /// The whole buffer as size() / sizeof(T) elements.
  template <typename T> std::vector<T> download() const {
    std::vector<T> values(bytes / sizeof(T));
    download(values.data(), values.size() * sizeof(T));
    return values;
  }

  /// Frees the memory now; the buffer becomes empty.
  void reset();

private:
  friend class Context;
  Buffer(std::shared_ptr<Backend> backend, DevicePtr address, size_t bytes)
      : backend(std::move(backend)), address(address), bytes(bytes) {}
  void checkRange(const char *operation, size_t count, size_t offset) const;

  std::shared_ptr<Backend> backend;
  DevicePtr address;
  size_t bytes = 0;
};

/// A Buffer passed to a kernel is a pointer of unknown element type; use
/// buffer.as<float>() to have the element type checked too.
inline ArgValue toArgValue(const Buffer &buffer) {
  return ArgValue::pointer(buffer.ptr());
}

} // namespace tk

#endif // TK_BUFFER_H
