//===- Bindings.cpp - tk-run's kernel arguments ---------------------------===//
#include "tools/tk-run/Bindings.h"

#include "compiler/interpreter/Float16.h"
#include "compiler/interpreter/Float8.h"

#include "tk/Error.h"
#include "tk/npy.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <map>

using namespace tk;
using namespace tk::run;
using llvm::StringRef;

std::optional<DType> tk::run::parseDType(StringRef name) {
  static const std::map<std::string, DType> types = {
      {"i1", {"i1", 1, false, false, 1}},
      {"i8", {"i8", 1, false, false, 8}},
      {"i16", {"i16", 2, false, false, 16}},
      {"i32", {"i32", 4, false, false, 32}},
      {"i64", {"i64", 8, false, false, 64}},
      {"u8", {"u8", 1, false, true, 8}},
      {"u16", {"u16", 2, false, true, 16}},
      {"u32", {"u32", 4, false, true, 32}},
      {"u64", {"u64", 8, false, true, 64}},
      {"f16", {"f16", 2, true, false, 16}},
      {"bf16", {"bf16", 2, true, false, 16}},
      {"f32", {"f32", 4, true, false, 32}},
      {"f64", {"f64", 8, true, false, 64}},
      // fp8 bytes; .npy files hold them as u8 (NumPy has no fp8).
      {"f8e4m3", {"f8e4m3", 1, true, false, 8}},
      {"f8e5m2", {"f8e5m2", 1, true, false, 8}},
  };
  auto it = types.find(name.str());
  if (it == types.end())
    return std::nullopt;
  return it->second;
}

llvm::Expected<uint64_t> tk::run::parseValue(const DType &type,
                                             StringRef text) {
  text = text.trim();
  if (type.isFloat) {
    std::string s = text.lower();
    double value;
    if (s == "inf" || s == "+inf") {
      value = INFINITY;
    } else if (s == "-inf") {
      value = -INFINITY;
    } else if (s == "nan") {
      value = NAN;
    } else {
      char *end = nullptr;
      value = std::strtod(s.c_str(), &end);
      if (s.empty() || *end != '\0')
        return llvm::createStringError("'" + text + "' is not a number");
    }
    if (type.name == "f64")
      return interp::bitCast<uint64_t>(value);
    if (type.name == "f32")
      return interp::bitCast<uint32_t>(static_cast<float>(value));
    if (type.name == "f16")
      return interp::doubleToHalfBits(value);
    if (type.name == "f8e4m3")
      return interp::doubleToFp8Bits(value, interp::kFp8E4M3);
    if (type.name == "f8e5m2")
      return interp::doubleToFp8Bits(value, interp::kFp8E5M2);
    return interp::doubleToBf16Bits(value);
  }
  if (type.bits == 1) {
    std::string s = text.lower();
    if (s == "true" || s == "1")
      return 1;
    if (s == "false" || s == "0")
      return 0;
    return llvm::createStringError("'" + text +
                                   "' is not a boolean (true, false, 1, 0)");
  }
  StringRef digits = text;
  bool negative = digits.consume_front("-");
  if (!negative)
    digits.consume_front("+");
  uint64_t magnitude;
  if (digits.getAsInteger(0, magnitude))
    return llvm::createStringError("'" + text + "' is not an integer");
  uint64_t mask = type.bits == 64 ? ~0ull : (1ull << type.bits) - 1;
  bool inRange;
  if (type.isUnsigned)
    inRange = !negative && magnitude <= mask;
  else if (negative)
    inRange = magnitude <= (1ull << (type.bits - 1));
  else
    inRange = magnitude < (1ull << (type.bits - 1));
  if (!inRange)
    return llvm::createStringError(text + " is out of range for " + type.name);
  uint64_t bits = negative ? uint64_t(0) - magnitude : magnitude;
  return bits & mask;
}

std::string tk::run::formatValue(const DType &type, const uint8_t *element) {
  uint64_t raw = 0;
  std::memcpy(&raw, element, type.bytes);
  if (type.isFloat) {
    char buffer[64];
    std::to_chars_result result;
    if (type.name == "f64") {
      result = std::to_chars(buffer, buffer + sizeof(buffer),
                             interp::bitCast<double>(raw));
    } else {
      float value =
          type.name == "f32"
              ? interp::bitCast<float>(static_cast<uint32_t>(raw))
          : type.name == "f16"
              ? interp::halfBitsToFloat(static_cast<uint16_t>(raw))
          : type.name == "f8e4m3"
              ? interp::fp8BitsToFloat(uint8_t(raw), interp::kFp8E4M3)
          : type.name == "f8e5m2"
              ? interp::fp8BitsToFloat(uint8_t(raw), interp::kFp8E5M2)
              : interp::bf16BitsToFloat(static_cast<uint16_t>(raw));
      result = std::to_chars(buffer, buffer + sizeof(buffer), value);
    }
    return std::string(buffer, result.ptr);
  }
  if (type.isUnsigned || type.bits == 1)
    return std::to_string(raw);
  unsigned unused = 64 - type.bits;
  return std::to_string(static_cast<int64_t>(raw << unused) >> unused);
}

HostBuffer HostBuffer::allocate(const DType &type, std::vector<int64_t> shape,
                                std::string label) {
  HostBuffer buffer;
  buffer.type = type;
  buffer.shape = std::move(shape);
  buffer.label = std::move(label);
  size_t count = 1;
  for (int64_t d : buffer.shape)
    count *= static_cast<size_t>(d);
  buffer.bytes = count * type.bytes;
  size_t rounded = (std::max<size_t>(buffer.bytes, 1) + 255) / 256 * 256;
  buffer.storage.reset(static_cast<uint8_t *>(std::aligned_alloc(256, rounded)));
  std::memset(buffer.storage.get(), 0, rounded);
  return buffer;
}

llvm::Expected<HostBuffer> tk::run::bindBuffer(const interp::KernelParam &param,
                                               const DType &element,
                                               StringRef value) {
  std::string where =
      "argument '" + param.name + "' (" + param.sourceType + ")";
  if (value.consume_front("zeros:")) {
    std::vector<int64_t> shape;
    llvm::SmallVector<StringRef> dims;
    value.split(dims, 'x');
    for (StringRef dim : dims) {
      int64_t n;
      if (dim.trim().getAsInteger(10, n) || n < 0)
        return llvm::createStringError(
            where + ": bad shape '" + value +
            "' in zeros:SHAPE (write e.g. zeros:64x32)");
      shape.push_back(n);
    }
    return HostBuffer::allocate(element, shape, "zeros:" + value.str());
  }
  if (value.starts_with("[")) {
    if (!value.consume_back("]"))
      return llvm::createStringError(where + ": a list must end with ']'");
    value = value.drop_front();
    llvm::SmallVector<StringRef> items;
    if (!value.trim().empty())
      value.split(items, ',');
    HostBuffer buffer = HostBuffer::allocate(
        element, {static_cast<int64_t>(items.size())}, "a list");
    for (size_t i = 0; i < items.size(); ++i) {
      auto bits = parseValue(element, items[i]);
      if (!bits)
        return llvm::createStringError(where + ", element " +
                                       llvm::Twine(i) + ": " +
                                       llvm::toString(bits.takeError()));
      std::memcpy(buffer.data() + i * element.bytes, &*bits, element.bytes);
    }
    return std::move(buffer);
  }
  NpyArray array;
  try {
    array = readNpy(value.str());
  } catch (const Error &error) {
    return llvm::createStringError(where + ": " + error.what());
  }
  bool fp8Bytes = element.name.rfind("f8", 0) == 0 && array.dtype == "u8";
  if (array.dtype != element.name && !fp8Bytes)
    return llvm::createStringError(where + ": " + value + " holds " +
                                   array.dtype +
                                   " elements, but the parameter points to " +
                                   element.name);
  HostBuffer buffer = HostBuffer::allocate(element, array.shape, value.str());
  std::memcpy(buffer.data(), array.data.data(), array.data.size());
  return std::move(buffer);
}

llvm::Error tk::run::writeBuffer(const HostBuffer &buffer,
                                 const std::string &path) {
  NpyArray array;
  array.dtype = buffer.type.name.rfind("f8", 0) == 0 ? std::string("u8")
                                                    : buffer.type.name;
  array.shape = buffer.shape;
  array.data.assign(buffer.data(), buffer.data() + buffer.bytes);
  try {
    writeNpy(path, array);
  } catch (const Error &error) {
    return llvm::createStringError(error.what());
  }
  return llvm::Error::success();
}

void tk::run::dumpBuffer(llvm::raw_ostream &os, StringRef name,
                         const HostBuffer &buffer) {
  os << name << ": " << buffer.type.name << "[";
  for (size_t i = 0; i < buffer.shape.size(); ++i)
    os << (i ? "x" : "") << buffer.shape[i];
  os << "]\n";
  size_t row = buffer.shape.empty()
                   ? 1
                   : std::max<size_t>(static_cast<size_t>(buffer.shape.back()), 1);
  size_t count = buffer.count();
  for (size_t i = 0; i < count; ++i) {
    os << (i % row ? " " : "  ")
       << formatValue(buffer.type, buffer.data() + i * buffer.type.bytes);
    if ((i + 1) % row == 0 || i + 1 == count)
      os << "\n";
  }
}
