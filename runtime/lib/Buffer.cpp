//===- Buffer.cpp - An owned device allocation ----------------------------===//

#include "tk/Buffer.h"
#include "tk/Error.h"

using namespace tk;

Buffer::Buffer(Buffer &&other) noexcept
    : backend(std::move(other.backend)), address(other.address),
      bytes(other.bytes) {
  other.address = DevicePtr();
  other.bytes = 0;
}

Buffer &Buffer::operator=(Buffer &&other) noexcept {
  if (this != &other) {
    reset();
    backend = std::move(other.backend);
    address = other.address;
    bytes = other.bytes;
    other.address = DevicePtr();
    other.bytes = 0;
  }
  return *this;
}

Buffer::~Buffer() { reset(); }

void Buffer::reset() {
  if (backend && address)
    backend->free(address);
  backend.reset();
  address = DevicePtr();
  bytes = 0;
}

void Buffer::checkRange(const char *operation, size_t count,
                        size_t offset) const {
  if (!backend)
    throw Error(std::string("cannot ") + operation + " an empty tk::Buffer");
  if (offset > bytes || count > bytes - offset)
    throw Error(std::string(operation) + " of " + std::to_string(count) +
                " bytes at offset " + std::to_string(offset) +
                " is out of bounds of a buffer of " + std::to_string(bytes) +
                " bytes");
}

void Buffer::upload(const void *src, size_t count, size_t offset) {
  checkRange("upload", count, offset);
  if (count)
    backend->copyToDevice(address + offset, src, count);
}

void Buffer::download(void *dst, size_t count, size_t offset) const {
  checkRange("download", count, offset);
  if (count)
    backend->copyToHost(dst, address + offset, count);
}

void Buffer::fill(uint8_t value) {
  checkRange("fill", bytes, 0);
  if (bytes)
    backend->memset(address, value, bytes);
}
