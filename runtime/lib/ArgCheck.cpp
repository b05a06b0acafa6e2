//===- ArgCheck.cpp - Checking launch arguments against metadata ----------===//
//
// The rules (docs/runtime.md, "Argument checking"):
//   - the count must match the kernel's parameters exactly;
//   - pointer parameters take pointers; a known pointee must match;
//     null is rejected; spec div16 requires a 16-byte aligned address;
//   - float parameters take exactly their type (no double -> f32);
//   - integer parameters take exactly their width and signedness, except
//     that an `anyInteger` value (a C++ `int`, the C API's TKRT_ARG_INT) is
//     accepted when the parameter type can represent it;
//   - spec one requires the value 1, spec div16 a multiple of 16.
//
//===----------------------------------------------------------------------===//

#include "tk/ArgCheck.h"
#include "tk/Error.h"

#include <cinttypes>
#include <cstdio>

using namespace tk;

std::string ArgValue::describeType() const {
  if (anyInteger)
    return "int";
  if (type.isPointer && !pointeeKnown)
    return "a pointer";
  return toString(type);
}

/// What a C++ caller should pass for `type`, for hints.
static std::string cxxSpelling(ArgType type) {
  if (type.isPointer)
    return "a tk::DevicePtr, a tk::Buffer or a device pointer";
  switch (type.scalar) {
  case ScalarKind::I1:
    return "a bool";
  case ScalarKind::I8:
    return "an int8_t";
  case ScalarKind::I16:
    return "an int16_t";
  case ScalarKind::I32:
    return "an int32_t";
  case ScalarKind::I64:
    return "an int64_t";
  case ScalarKind::U8:
    return "a uint8_t";
  case ScalarKind::U16:
    return "a uint16_t";
  case ScalarKind::U32:
    return "a uint32_t";
  case ScalarKind::U64:
    return "a uint64_t";
  case ScalarKind::F16:
    return "a tk::half";
  case ScalarKind::BF16:
    return "a tk::bf16";
  case ScalarKind::F32:
    return "a float, e.g. 1.0f";
  case ScalarKind::F64:
    return "a double";
  case ScalarKind::F8E4M3:
  case ScalarKind::F8E5M2:
    return "an fp8 byte (uint8_t)";
  }
  return "?";
}

/// Whether `value` (a signed 64-bit integer) is representable in `kind`.
static bool fitsInteger(int64_t value, ScalarKind kind) {
  switch (kind) {
  case ScalarKind::I1:
    return value == 0 || value == 1;
  case ScalarKind::I8:
    return value >= INT8_MIN && value <= INT8_MAX;
  case ScalarKind::I16:
    return value >= INT16_MIN && value <= INT16_MAX;
  case ScalarKind::I32:
    return value >= INT32_MIN && value <= INT32_MAX;
  case ScalarKind::I64:
    return true;
  case ScalarKind::U8:
    return value >= 0 && value <= UINT8_MAX;
  case ScalarKind::U16:
    return value >= 0 && value <= UINT16_MAX;
  case ScalarKind::U32:
    return value >= 0 && value <= static_cast<int64_t>(UINT32_MAX);
  case ScalarKind::U64:
    return value >= 0;
  default:
    return false;
  }
}

/// Brings `bits` into the canonical form for `kind` (see ArgValue::bits),
/// so that backends and spec checks can trust the high bits.
static uint64_t canonicalBits(uint64_t bits, ScalarKind kind) {
  switch (kind) {
  case ScalarKind::I1:
    return (bits & 0xFF) != 0;
  case ScalarKind::I8:
    return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int8_t>(bits)));
  case ScalarKind::I16:
    return static_cast<uint64_t>(
        static_cast<int64_t>(static_cast<int16_t>(bits)));
  case ScalarKind::I32:
    return static_cast<uint64_t>(
        static_cast<int64_t>(static_cast<int32_t>(bits)));
  case ScalarKind::U8:
  case ScalarKind::F8E4M3:
  case ScalarKind::F8E5M2:
    return bits & 0xFF;
  case ScalarKind::U16:
  case ScalarKind::F16:
  case ScalarKind::BF16:
    return bits & 0xFFFF;
  case ScalarKind::U32:
  case ScalarKind::F32:
    return bits & 0xFFFFFFFFu;
  case ScalarKind::I64:
  case ScalarKind::U64:
  case ScalarKind::F64:
    return bits;
  }
  return bits;
}

static std::string hex(uint64_t v) {
  char buffer[24];
  std::snprintf(buffer, sizeof(buffer), "0x%" PRIx64, v);
  return buffer;
}

namespace {

class ArgChecker {
public:
  explicit ArgChecker(const Metadata &md) : md(md) {}

  void check(const ArgValue *args, size_t count,
             std::vector<ArgValue> &checked) const {
    if (count != md.args.size())
      throw Error("kernel '" + md.name + "' expects " +
                  countOf(md.args.size(), "argument") + ", got " +
                  std::to_string(count) + "; its parameters are " +
                  signature());
    checked.clear();
    checked.reserve(count);
    for (size_t i = 0; i < count; ++i)
      checked.push_back(checkOne(i, md.args[i], args[i]));
  }

private:
  const Metadata &md;

  static std::string countOf(size_t n, const char *noun) {
    return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
  }

  std::string signature() const {
    std::string s = "(";
    for (size_t i = 0; i < md.args.size(); ++i)
      s += (i ? ", " : "") + md.args[i].name + ": " +
           toString(md.args[i].type);
    return s + ")";
  }

  std::string prefix() const { return "kernel '" + md.name + "': "; }

  std::string label(size_t index, const KernelArg &param) const {
    return "argument " + std::to_string(index + 1) + " '" + param.name + "'";
  }

  [[noreturn]] void typeMismatch(size_t index, const KernelArg &param,
                                 const ArgValue &arg) const {
    throw Error(prefix() + label(index, param) + " expects " +
                toString(param.type) + ", got " + arg.describeType() +
                " (pass " + cxxSpelling(param.type) + ")");
  }

  ArgValue checkOne(size_t index, const KernelArg &param,
                    const ArgValue &arg) const {
    if (param.type.isPointer)
      return checkPointer(index, param, arg);
    if (arg.type.isPointer)
      typeMismatch(index, param, arg);
    if (isFloatKind(param.type.scalar)) {
      if (arg.anyInteger || arg.type.scalar != param.type.scalar)
        typeMismatch(index, param, arg);
      ArgValue out = arg;
      out.bits = canonicalBits(arg.bits, param.type.scalar);
      return out;
    }
    return checkInteger(index, param, arg);
  }

  ArgValue checkPointer(size_t index, const KernelArg &param,
                        const ArgValue &arg) const {
    if (!arg.type.isPointer ||
        (arg.pointeeKnown && arg.type.scalar != param.type.scalar))
      typeMismatch(index, param, arg);
    uint64_t address = arg.bits;
    if (address == 0)
      throw Error(prefix() + "argument '" + param.name +
                  "' is a null pointer");
    if (param.spec == ArgSpec::Div16 && address % 16 != 0)
      throw Error(prefix() + "pointer argument '" + param.name +
                  "' is not 16-byte aligned but the kernel was compiled "
                  "assuming it (spec div16); its address is " +
                  hex(address));
    return ArgValue::pointer(DevicePtr(address), param.type.scalar);
  }

  ArgValue checkInteger(size_t index, const KernelArg &param,
                        const ArgValue &arg) const {
    ScalarKind kind = param.type.scalar;
    ArgValue out;
    if (arg.anyInteger) {
      int64_t value = arg.asSigned();
      if (!fitsInteger(value, kind))
        throw Error(prefix() + label(index, param) + " expects " +
                    scalarName(kind) + ", got int " + std::to_string(value) +
                    ", which does not fit");
      out = ArgValue::signedInt(kind, value);
      out.bits = canonicalBits(out.bits, kind);
    } else {
      if (isFloatKind(arg.type.scalar) || arg.type.scalar != kind)
        typeMismatch(index, param, arg);
      out = arg;
      out.bits = canonicalBits(arg.bits, kind);
    }

    // Spec checks on the value as the kernel will see it.
    bool isSigned = isSignedIntegerKind(kind);
    std::string valueText = isSigned ? std::to_string(out.asSigned())
                                     : std::to_string(out.asUnsigned());
    if (param.spec == ArgSpec::One && out.bits != 1)
      throw Error(prefix() + "integer argument '" + param.name +
                  "' must equal 1 (compiled with spec one), got " + valueText);
    if (param.spec == ArgSpec::Div16 && (out.bits & 15) != 0)
      throw Error(prefix() + "integer argument '" + param.name +
                  "' must be divisible by 16 (compiled with spec div16), "
                  "got " + valueText);
    return out;
  }
};

} // namespace

std::vector<ArgValue> tk::checkArguments(const Metadata &metadata,
                                         const std::vector<ArgValue> &args) {
  std::vector<ArgValue> checked;
  ArgChecker(metadata).check(args.data(), args.size(), checked);
  return checked;
}

void tk::checkArgumentsInto(const Metadata &metadata, const ArgValue *args,
                            size_t count, std::vector<ArgValue> &checked) {
  ArgChecker(metadata).check(args, count, checked);
}

void tk::checkGrid(const Metadata &metadata, const Grid &grid,
                   const DeviceInfo &device) {
  if (grid.x < 0 || grid.y < 0 || grid.z < 0)
    throw Error("kernel '" + metadata.name + "': grid " + grid.toString() +
                " has a negative dimension");
  if (grid.x > device.maxGrid[0] || grid.y > device.maxGrid[1] ||
      grid.z > device.maxGrid[2])
    throw Error("kernel '" + metadata.name + "': grid " + grid.toString() +
                " exceeds the device limit (" +
                std::to_string(device.maxGrid[0]) + ", " +
                std::to_string(device.maxGrid[1]) + ", " +
                std::to_string(device.maxGrid[2]) + ")");
  if (metadata.clusterSize > 1 && grid.x % metadata.clusterSize != 0)
    throw Error("kernel '" + metadata.name + "' runs in thread-block "
                "clusters of " + std::to_string(metadata.clusterSize) +
                " programs along x (cluster_size=); grid " + grid.toString() +
                " has " + std::to_string(grid.x) +
                " along x, not a multiple of " +
                std::to_string(metadata.clusterSize));
}

void tk::checkKernelFitsDevice(const Metadata &metadata,
                               const DeviceInfo &device) {
  if (metadata.sharedBytes > device.maxSharedBytesPerBlock)
    throw Error("kernel '" + metadata.name + "' needs " +
                std::to_string(metadata.sharedBytes) +
                " bytes of shared memory; the device allows " +
                std::to_string(device.maxSharedBytesPerBlock));
  int64_t threads = static_cast<int64_t>(metadata.numWarps) * 32;
  if (threads > device.maxThreadsPerBlock)
    throw Error("kernel '" + metadata.name + "' needs " +
                std::to_string(threads) + " threads per block (num_warps " +
                std::to_string(metadata.numWarps) +
                "); the device allows " +
                std::to_string(device.maxThreadsPerBlock));
}
