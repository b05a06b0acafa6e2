//===- Backend.cpp - The "interpreter" backend of libtkrt -----------------===//
//
// Compiled with exceptions: libtkrt reports failures as tk::Error. The
// interpreter core returns llvm::Error values, converted here.
//
//===----------------------------------------------------------------------===//
#include "compiler/interpreter/Backend.h"
#include "compiler/interpreter/Interpreter.h"

#include "tk/Backend.h"
#include "tk/Error.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>

using namespace tk;

namespace {

/// libtkrt promises at least 256-byte alignment (cudaMalloc's).
constexpr size_t kAlignment = 256;

std::string takeMessage(llvm::Error error) {
  return llvm::toString(std::move(error));
}

class InterpreterKernel final : public KernelImpl {
public:
  InterpreterKernel(std::unique_ptr<interp::Kernel> kernel,
                    const interp::MemoryRegistry &memory)
      : kernel(std::move(kernel)), memory(memory) {}

  void launch(const Grid &grid, StreamImpl *,
              const std::vector<ArgValue> &args) override {
    std::vector<uint64_t> bits;
    bits.reserve(args.size());
    for (const ArgValue &arg : args)
      bits.push_back(arg.bits);
    interp::LaunchGrid launchGrid{grid.x, grid.y, grid.z};
    if (llvm::Error error = kernel->run(launchGrid, bits, memory))
      throw Error(takeMessage(std::move(error)));
  }

private:
  std::unique_ptr<interp::Kernel> kernel;
  const interp::MemoryRegistry &memory;
};

class InterpreterModule final : public ModuleImpl {
public:
  explicit InterpreterModule(std::unique_ptr<InterpreterKernel> kernelImpl)
      : kernelImpl(std::move(kernelImpl)) {}
  KernelImpl &kernel() override { return *kernelImpl; }

private:
  std::unique_ptr<InterpreterKernel> kernelImpl;
};

class InterpreterBackend final : public Backend {
public:
  std::string name() const override { return "interpreter"; }

  DeviceInfo deviceInfo() const override {
    DeviceInfo info;
    info.name = "tk CPU interpreter";
    return info;
  }

  DevicePtr alloc(size_t bytes) override {
    size_t rounded = (std::max<size_t>(bytes, 1) + kAlignment - 1) /
                     kAlignment * kAlignment;
    void *memory = std::aligned_alloc(kAlignment, rounded);
    if (!memory)
      throw Error("interpreter: out of host memory allocating " +
                  std::to_string(bytes) + " bytes");
    std::memset(memory, 0, rounded);
    uint64_t address = reinterpret_cast<uintptr_t>(memory);
    registry.add(address, bytes);
    return DevicePtr(address);
  }

  void free(DevicePtr ptr) noexcept override {
    if (registry.remove(ptr.address))
      std::free(reinterpret_cast<void *>(ptr.address));
  }

  void copyToDevice(DevicePtr dst, const void *src, size_t bytes) override {
    std::memcpy(checked(dst, bytes, "copy to"), src, bytes);
  }
  void copyToHost(void *dst, DevicePtr src, size_t bytes) override {
    std::memcpy(dst, checked(src, bytes, "copy from"), bytes);
  }
  void copyDeviceToDevice(DevicePtr dst, DevicePtr src,
                          size_t bytes) override {
    void *to = checked(dst, bytes, "copy to");
    std::memmove(to, checked(src, bytes, "copy from"), bytes);
  }
  void memset(DevicePtr dst, uint8_t value, size_t bytes) override {
    std::memset(checked(dst, bytes, "memset"), value, bytes);
  }

  std::unique_ptr<ModuleImpl> loadModule(const ModuleImage &image) override {
    std::string text = image.readTkIr();
    std::string origin = image.tkIrData ? image.origin : image.tkIrPath();
    auto kernel = interp::loadKernel(text, origin, image.metadata.name);
    if (!kernel)
      throw Error("kernel '" + image.metadata.name +
                  "': the interpreter cannot load its tk IR: " +
                  takeMessage(kernel.takeError()));
    return std::make_unique<InterpreterModule>(
        std::make_unique<InterpreterKernel>(std::move(*kernel), registry));
  }

  void sync() override {}

private:
  interp::MemoryRegistry registry;

  /// Host copies must stay inside one allocation, like cuMemcpy's.
  void *checked(DevicePtr address, size_t bytes, const char *what) {
    if (bytes == 0)
      return reinterpret_cast<void *>(address.address);
    if (!registry.find(address.address, bytes))
      throw Error(std::string("interpreter: ") + what + " " +
                  std::to_string(bytes) + " bytes at an address that is not "
                  "inside one interpreter allocation");
    return reinterpret_cast<void *>(address.address);
  }
};

} // namespace

void tk::registerInterpreterBackend() {
  registerBackend("interpreter",
                  [] { return std::make_unique<InterpreterBackend>(); });
}
