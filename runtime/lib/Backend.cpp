//===- Backend.cpp - Backend interface defaults ---------------------------===//

#include "tk/Backend.h"
#include "tk/Error.h"

#include "FileUtil.h"

#include <chrono>

using namespace tk;

StreamImpl::~StreamImpl() = default;
EventImpl::~EventImpl() = default;
KernelImpl::~KernelImpl() = default;
ModuleImpl::~ModuleImpl() = default;
Backend::~Backend() = default;

std::string ModuleImage::binaryPath() const {
  return detail::joinPath(directory, metadata.binary);
}

std::string ModuleImage::tkIrPath() const {
  return detail::joinPath(directory, metadata.tkIr);
}

std::string ModuleImage::readBinary() const {
  if (binaryData)
    return *binaryData;
  if (metadata.binary.empty())
    throw Error("kernel '" + metadata.name + "': " + origin +
                " names no GPU binary (only tk IR for the interpreter)");
  return detail::readFile(binaryPath(), "kernel binary");
}

std::string ModuleImage::readTkIr() const {
  if (tkIrData)
    return *tkIrData;
  if (metadata.tkIr.empty())
    throw Error("kernel '" + metadata.name + "': " + origin +
                " names no tk IR file (field 'tk_ir'), which the CPU "
                "interpreter needs");
  return detail::readFile(tkIrPath(), "tk IR file");
}

void Backend::copyDeviceToDevice(DevicePtr dst, DevicePtr src, size_t bytes) {
  std::string staging(bytes, '\0');
  copyToHost(staging.data(), src, bytes);
  copyToDevice(dst, staging.data(), bytes);
}

namespace {

/// For backends whose launches complete before launch() returns.
class ImmediateStream final : public StreamImpl {
public:
  void sync() override {}
};

/// Host-clock timing; record() and sync() are trivial because work on an
/// ImmediateStream is already done.
class HostClockEvent final : public EventImpl {
public:
  void record(StreamImpl *) override {
    time = std::chrono::steady_clock::now();
  }
  void sync() override {}
  float elapsedMsSince(const EventImpl &start) override {
    // tk::Event checked that both events come from this backend.
    const auto &startEvent = static_cast<const HostClockEvent &>(start);
    return std::chrono::duration<float, std::milli>(time - startEvent.time)
        .count();
  }

private:
  std::chrono::steady_clock::time_point time = std::chrono::steady_clock::now();
};

} // namespace

std::unique_ptr<StreamImpl> Backend::wrapStream(void *) {
  return createStream();
}

std::unique_ptr<StreamImpl> Backend::createStream() {
  return std::make_unique<ImmediateStream>();
}

std::unique_ptr<EventImpl> Backend::createEvent() {
  return std::make_unique<HostClockEvent>();
}
