//===- FakeBackend.cpp - A recording backend for libtkrt's tests ----------===//

#include "FakeBackend.h"

#include <cstdlib>
#include <cstring>

using namespace tk;
using namespace tk::testing;

namespace {

class FakeKernel final : public KernelImpl {
public:
  FakeKernel(std::shared_ptr<FakeState> state, std::string name)
      : state(std::move(state)), name(std::move(name)) {}
  void launch(const Grid &grid, StreamImpl *stream,
              const std::vector<ArgValue> &args) override {
    state->launches.push_back({name, grid, stream != nullptr, args});
  }

private:
  std::shared_ptr<FakeState> state;
  std::string name;
};

class FakeModule final : public ModuleImpl {
public:
  FakeModule(std::shared_ptr<FakeState> state, std::string name)
      : state(state), kernelImpl(state, std::move(name)) {
    ++state->liveModules;
  }
  ~FakeModule() override { --state->liveModules; }
  KernelImpl &kernel() override { return kernelImpl; }

private:
  std::shared_ptr<FakeState> state;
  FakeKernel kernelImpl;
};

class FakeBackend final : public Backend {
public:
  explicit FakeBackend(std::shared_ptr<FakeState> state)
      : state(std::move(state)) {}

  std::string name() const override { return state->name; }
  DeviceInfo deviceInfo() const override { return state->device; }

  DevicePtr alloc(size_t bytes) override {
    void *p = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
    if (!p)
      throw Error("fake: out of memory");
    ++state->liveAllocations;
    return DevicePtr(reinterpret_cast<uintptr_t>(p));
  }
  void free(DevicePtr ptr) noexcept override {
    --state->liveAllocations;
    std::free(reinterpret_cast<void *>(ptr.address));
  }
  void copyToDevice(DevicePtr dst, const void *src, size_t bytes) override {
    std::memcpy(reinterpret_cast<void *>(dst.address), src, bytes);
  }
  void copyToHost(void *dst, DevicePtr src, size_t bytes) override {
    std::memcpy(dst, reinterpret_cast<const void *>(src.address), bytes);
  }
  void memset(DevicePtr dst, uint8_t value, size_t bytes) override {
    std::memset(reinterpret_cast<void *>(dst.address), value, bytes);
  }
  std::unique_ptr<ModuleImpl> loadModule(const ModuleImage &image) override {
    state->loadedImages.push_back(image);
    return std::make_unique<FakeModule>(state, image.metadata.name);
  }
  void sync() override {
    if (!state->syncFailure.empty()) {
      std::string message = state->syncFailure;
      state->syncFailure.clear();
      throw Error(message);
    }
  }

private:
  std::shared_ptr<FakeState> state;
};

} // namespace

std::shared_ptr<FakeState>
tk::testing::registerFakeBackend(const std::string &name) {
  auto state = std::make_shared<FakeState>();
  state->name = name;
  state->device.name = "fake device";
  state->device.computeMajor = 9;
  state->device.computeMinor = 0;
  state->device.maxSharedBytesPerBlock = 232448;
  registerBackend(name, [state] { return std::make_unique<FakeBackend>(state); });
  return state;
}

std::string tk::testing::metadataJson(const std::string &name,
                                      const std::string &argsJson,
                                      const std::string &extraFields) {
  return "{\"tk_metadata_version\": 1, \"name\": \"" + name +
         "\", \"arch\": \"sm_90a\", \"num_warps\": 4, \"num_stages\": 3, "
         "\"shared_bytes\": 4096, \"binary\": \"" +
         name + ".cubin\", \"binary_kind\": \"cubin\", \"args\": " + argsJson +
         extraFields + "}";
}
