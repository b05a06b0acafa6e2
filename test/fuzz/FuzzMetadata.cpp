//===- FuzzMetadata.cpp - libFuzzer target: metadata, loading, launching --===//
//
// tk-fuzz-metadata: the input is a kernel metadata file (NAME.json),
// optionally followed by a NUL byte and bytes that describe one launch
// (grid and arguments). It goes through everything libtkrt does with
// metadata before a backend sees it:
//
//   1. Metadata::parse (and with it the JSON reader);
//   2. a round trip: what parse accepts, toJson must write so that parse
//      reads back the same Metadata;
//   3. Module::loadFromMemory into a context whose backend ("tk-fuzz")
//      only records, with GPU-like device limits;
//   4. a launch with the decoded arguments. The backend checks that
//      libtkrt kept its promise (Backend.h): a launch reaches it only with
//      exactly one argument per parameter, each of the declared type, in
//      canonical form and satisfying its spec, and a grid within limits.
//
// Every failure in 1, 3 and 4 must be a tk::Error; anything else (another
// exception, a crash, a broken promise) is a finding.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "tk/runtime.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

using namespace tk;

namespace {

const char *const kBackendName = "tk-fuzz";

/// The device limits of an H200, so that the device checks have something
/// to reject.
DeviceInfo fuzzDevice() {
  DeviceInfo device;
  device.name = "tk-fuzz device";
  device.computeMajor = 9;
  device.computeMinor = 0;
  device.maxSharedBytesPerBlock = 232448;
  device.maxThreadsPerBlock = 1024;
  device.multiprocessorCount = 132;
  device.totalMemoryBytes = uint64_t(1) << 30;
  return device;
}

/// Whether `arg` is in the canonical form ArgValue.h describes for `type`.
bool isCanonical(const ArgValue &arg, ArgType type) {
  if (type.isPointer)
    return true;
  uint64_t bits = arg.bits;
  switch (type.scalar) {
  case ScalarKind::I1:
    return bits <= 1;
  case ScalarKind::I8:
    return int64_t(bits) == int64_t(int8_t(bits));
  case ScalarKind::I16:
    return int64_t(bits) == int64_t(int16_t(bits));
  case ScalarKind::I32:
    return int64_t(bits) == int64_t(int32_t(bits));
  case ScalarKind::U8:
  case ScalarKind::F8E4M3:
  case ScalarKind::F8E5M2:
    return bits <= 0xFF;
  case ScalarKind::U16:
  case ScalarKind::F16:
  case ScalarKind::BF16:
    return bits <= 0xFFFF;
  case ScalarKind::U32:
  case ScalarKind::F32:
    return bits <= 0xFFFFFFFFu;
  case ScalarKind::I64:
  case ScalarKind::U64:
  case ScalarKind::F64:
    return true;
  }
  return false;
}

class FuzzKernel : public KernelImpl {
public:
  FuzzKernel(const Metadata &metadata, const DeviceInfo &device)
      : metadata(metadata), device(device) {}

  void launch(const Grid &grid, StreamImpl *,
              const std::vector<ArgValue> &args) override {
    fuzz::require(!grid.isEmpty(), "an empty grid reached the backend");
    fuzz::require(grid.x > 0 && grid.x <= device.maxGrid[0] && grid.y > 0 &&
                      grid.y <= device.maxGrid[1] && grid.z > 0 &&
                      grid.z <= device.maxGrid[2],
                  "grid " + grid.toString() + " beyond the device limits "
                  "reached the backend");
    fuzz::require(args.size() == metadata.args.size(),
                  "the backend got " + std::to_string(args.size()) +
                      " arguments for " +
                      std::to_string(metadata.args.size()) + " parameters");
    for (size_t i = 0; i < args.size(); ++i) {
      const KernelArg &param = metadata.args[i];
      const ArgValue &arg = args[i];
      std::string where = "argument " + std::to_string(i + 1) + " ('" +
                          param.name + "'): ";
      fuzz::require(arg.type == param.type,
                    where + "the backend got " + toString(arg.type) +
                        " for a " + toString(param.type) + " parameter");
      fuzz::require(!arg.anyInteger, where + "still marked anyInteger");
      fuzz::require(isCanonical(arg, param.type),
                    where + "bits not in canonical form");
      if (param.type.isPointer)
        fuzz::require(arg.bits != 0, where + "a null pointer got through");
      if (param.spec == ArgSpec::Div16)
        fuzz::require(arg.bits % 16 == 0,
                      where + "spec div16 violated: " +
                          std::to_string(arg.bits));
      if (param.spec == ArgSpec::One)
        fuzz::require(arg.bits == 1, where + "spec one violated");
    }
  }

private:
  const Metadata metadata;
  const DeviceInfo device;
};

class FuzzModule : public ModuleImpl {
public:
  FuzzModule(const Metadata &metadata, const DeviceInfo &device)
      : kernelImpl(metadata, device) {}
  KernelImpl &kernel() override { return kernelImpl; }

private:
  FuzzKernel kernelImpl;
};

/// Records nothing and runs nothing; memory is never touched by a launch.
class FuzzBackend : public Backend {
public:
  std::string name() const override { return kBackendName; }
  DeviceInfo deviceInfo() const override { return fuzzDevice(); }
  DevicePtr alloc(size_t) override {
    fuzz::fail("the metadata fuzz target allocates nothing");
  }
  void free(DevicePtr) noexcept override {}
  void copyToDevice(DevicePtr, const void *, size_t) override {}
  void copyToHost(void *, DevicePtr, size_t) override {}
  void memset(DevicePtr, uint8_t, size_t) override {}
  void sync() override {}

  std::unique_ptr<ModuleImpl> loadModule(const ModuleImage &image) override {
    const DeviceInfo device = fuzzDevice();
    fuzz::require(image.metadata.sharedBytes <= device.maxSharedBytesPerBlock,
                  "a kernel needing more shared memory than the device has "
                  "reached the backend");
    fuzz::require(image.metadata.numWarps * 32 <= device.maxThreadsPerBlock,
                  "a kernel with too many threads reached the backend");
    fuzz::require(image.binaryData.has_value(),
                  "loadFromMemory did not pass the binary's bytes");
    return std::make_unique<FuzzModule>(image.metadata, device);
  }
};

bool sameMetadata(const Metadata &a, const Metadata &b) {
  if (a.version != b.version || a.name != b.name || a.arch != b.arch ||
      a.numWarps != b.numWarps || a.numStages != b.numStages ||
      a.sharedBytes != b.sharedBytes || a.binary != b.binary ||
      a.tkIr != b.tkIr || a.source != b.source || a.gridRank != b.gridRank ||
      a.args.size() != b.args.size() ||
      a.constexprs.size() != b.constexprs.size())
    return false;
  // binary_kind is only meaningful (and only written) with a binary.
  if (!a.binary.empty() && a.binaryKind != b.binaryKind)
    return false;
  for (size_t i = 0; i < a.args.size(); ++i)
    if (a.args[i].name != b.args[i].name || a.args[i].type != b.args[i].type ||
        a.args[i].spec != b.args[i].spec)
      return false;
  for (size_t i = 0; i < a.constexprs.size(); ++i) {
    const Constexpr &x = a.constexprs[i], &y = b.constexprs[i];
    if (x.name != y.name || x.kind != y.kind)
      return false;
    if (x.kind == Constexpr::Kind::Float ? x.floatValue != y.floatValue
                                         : x.intValue != y.intValue)
      return false;
  }
  return true;
}

/// One argument from the launch bytes: usually of a type the kernel could
/// take, sometimes anything.
ArgValue decodeArg(fuzz::ByteReader &bytes, const Metadata &metadata,
                   size_t index) {
  uint8_t choice = bytes.take<uint8_t>();
  uint64_t value = bytes.take<uint64_t>();
  // Small values and aligned addresses are where the interesting checks
  // are; the fuzzer finds them more easily from a byte than from eight.
  if (choice & 0x80)
    value = (value & 0xFF) * ((choice & 0x40) ? 16 : 1);
  ArgValue arg;
  if (index < metadata.args.size() && (choice & 0x20) == 0) {
    // The declared type, as a well-meaning caller would pass it.
    arg.type = metadata.args[index].type;
  } else {
    arg.type.scalar = static_cast<ScalarKind>((choice & 0x1F) % 13);
    arg.type.isPointer = (choice & 0x10) != 0;
  }
  arg.bits = value;
  uint8_t flags = bytes.take<uint8_t>();
  arg.pointeeKnown = (flags & 1) == 0;
  arg.anyInteger = (flags & 2) != 0 && !arg.type.isPointer;
  return arg;
}

void launchFromBytes(const Module &module, fuzz::ByteReader &bytes) {
  const Metadata &metadata = module.metadata();
  Kernel kernel = module.kernel();
  Grid grid;
  grid.x = bytes.take<int64_t>();
  grid.y = bytes.take<int32_t>();
  grid.z = bytes.take<int32_t>();
  // The argument count: mostly right, sometimes off by a few.
  size_t count = metadata.args.size();
  uint8_t countChoice = bytes.take<uint8_t>();
  if (countChoice >= 0xF0)
    count = countChoice - 0xF0; // 0 to 15
  std::vector<ArgValue> args;
  for (size_t i = 0; i < count; ++i)
    args.push_back(decodeArg(bytes, metadata, i));
  try {
    kernel.launchPacked(grid, nullptr, args);
  } catch (const Error &) {
    // Rejected with a message: fine.
  }
}

Context &fuzzContext() {
  static Context context = Context::createWithBackend(kBackendName);
  return context;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  registerBackend(kBackendName, [] { return std::make_unique<FuzzBackend>(); });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view input(reinterpret_cast<const char *>(data), size);
  size_t split = input.find('\0');
  std::string_view json = input.substr(0, split);
  std::string_view launchBytes =
      split == std::string_view::npos ? std::string_view()
                                      : input.substr(split + 1);

  Metadata metadata;
  try {
    metadata = Metadata::parse(json, "fuzz.json");
  } catch (const Error &) {
    return 0;
  } catch (const std::exception &error) {
    fuzz::fail(std::string("Metadata::parse threw a non-tk::Error: ") +
               error.what());
  }

  std::string written = metadata.toJson();
  try {
    Metadata reread = Metadata::parse(written, "fuzz-rewritten.json");
    fuzz::require(sameMetadata(metadata, reread),
                  "metadata changed in a toJson/parse round trip:\n" +
                      written);
  } catch (const Error &error) {
    fuzz::fail(std::string("parse rejected what toJson wrote: ") +
               error.what() + "\n" + written);
  }

  try {
    // A fixed binary: the module is "loaded" by a backend that does not
    // look at it; what is fuzzed here is everything before that.
    static const std::string binary("\x7f" "ELF fuzz cubin", 14);
    Module module = Module::loadFromMemory(fuzzContext(), json, binary);
    fuzz::require(sameMetadata(module.metadata(), metadata),
                  "the loaded module's metadata differs from the parsed one");
    fuzz::ByteReader bytes(launchBytes);
    launchFromBytes(module, bytes);
  } catch (const Error &) {
    // Rejected with a message (e.g. the device cannot run it): fine.
  } catch (const std::exception &error) {
    fuzz::fail(std::string("loading or launching threw a non-tk::Error: ") +
               error.what());
  }
  return 0;
}
