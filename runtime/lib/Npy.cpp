//===- Npy.cpp - Reading and writing NumPy .npy files ---------------------===//
//
// The header is a Python dict literal such as
//   {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
// parsed here by a small bounds-checked scanner that accepts exactly the
// three keys NumPy writes (as NumPy's own reader requires).
//
//===----------------------------------------------------------------------===//

#include "tk/npy.h"
#include "tk/Error.h"
#include "tk/ScalarType.h"

#include "FileUtil.h"

#include <cstring>
#include <optional>

using namespace tk;

static const char kMagic[] = "\x93NUMPY";
static constexpr size_t kMagicSize = 6;

namespace {
struct DtypeEntry {
  const char *name;  // the language's
  const char *descr; // written
  char kindChar;     // numpy kind: f i u b V
  size_t size;
};
} // namespace

static constexpr DtypeEntry kDtypes[] = {
    {"f16", "<f2", 'f', 2},  {"f32", "<f4", 'f', 4}, {"f64", "<f8", 'f', 8},
    {"i8", "|i1", 'i', 1},   {"i16", "<i2", 'i', 2}, {"i32", "<i4", 'i', 4},
    {"i64", "<i8", 'i', 8},  {"u8", "|u1", 'u', 1},  {"u16", "<u2", 'u', 2},
    {"u32", "<u4", 'u', 4},  {"u64", "<u8", 'u', 8}, {"i1", "|b1", 'b', 1},
    {"bf16", "|V2", 'V', 2},
};

static const DtypeEntry *findDtype(std::string_view name) {
  for (const DtypeEntry &e : kDtypes)
    if (name == e.name)
      return &e;
  return nullptr;
}

std::string tk::npyDescrForDtype(std::string_view dtype) {
  const DtypeEntry *e = findDtype(dtype);
  return e ? e->descr : "";
}

size_t NpyArray::elementCount() const {
  size_t count = 1;
  for (int64_t d : shape)
    count *= static_cast<size_t>(d);
  return count;
}

size_t NpyArray::elementSize() const {
  const DtypeEntry *e = findDtype(dtype);
  if (!e)
    throw Error("unknown dtype '" + dtype + "' for .npy");
  return e->size;
}

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

namespace {

struct Header {
  std::string descr;
  bool fortranOrder = false;
  std::vector<int64_t> shape;
};

class HeaderParser {
public:
  HeaderParser(std::string_view text, const std::string &origin)
      : text(text), origin(origin) {}

  Header parse() {
    Header header;
    bool haveDescr = false, haveOrder = false, haveShape = false;
    skipSpace();
    expect('{');
    while (true) {
      skipSpace();
      if (peek() == '}') {
        ++pos;
        break;
      }
      std::string key = parseString();
      skipSpace();
      expect(':');
      skipSpace();
      if (key == "descr") {
        if (haveDescr)
          fail("duplicate key 'descr'");
        haveDescr = true;
        if (peek() == '[')
          fail("structured dtypes are not supported");
        header.descr = parseString();
      } else if (key == "fortran_order") {
        if (haveOrder)
          fail("duplicate key 'fortran_order'");
        haveOrder = true;
        header.fortranOrder = parseBool();
      } else if (key == "shape") {
        if (haveShape)
          fail("duplicate key 'shape'");
        haveShape = true;
        header.shape = parseShape();
      } else {
        fail("unexpected key '" + key + "'");
      }
      skipSpace();
      if (peek() == ',') {
        ++pos;
        continue;
      }
      skipSpace();
      expect('}');
      break;
    }
    skipSpace();
    if (pos != text.size())
      fail("unexpected text after the header dictionary");
    if (!haveDescr || !haveOrder || !haveShape)
      fail(std::string("missing key '") +
           (!haveDescr ? "descr" : !haveOrder ? "fortran_order" : "shape") +
           "'");
    return header;
  }

private:
  std::string_view text;
  const std::string &origin;
  size_t pos = 0;

  [[noreturn]] void fail(const std::string &message) const {
    throw Error(origin + ": malformed .npy header: " + message);
  }
  char peek() const { return pos < text.size() ? text[pos] : '\0'; }
  void skipSpace() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\n' ||
                                 text[pos] == '\t' || text[pos] == '\r'))
      ++pos;
  }
  void expect(char c) {
    if (peek() != c || pos >= text.size())
      fail(std::string("expected '") + c + "'");
    ++pos;
  }

  std::string parseString() {
    char quote = peek();
    if (pos >= text.size() || (quote != '\'' && quote != '"'))
      fail("expected a quoted string");
    ++pos;
    size_t start = pos;
    while (pos < text.size() && text[pos] != quote) {
      if (text[pos] == '\\')
        fail("escapes in header strings are not supported");
      ++pos;
    }
    if (pos >= text.size())
      fail("unterminated string");
    std::string s(text.substr(start, pos - start));
    ++pos;
    return s;
  }

  bool parseBool() {
    if (text.substr(pos, 4) == "True") {
      pos += 4;
      return true;
    }
    if (text.substr(pos, 5) == "False") {
      pos += 5;
      return false;
    }
    fail("expected True or False");
  }

  std::vector<int64_t> parseShape() {
    std::vector<int64_t> shape;
    expect('(');
    skipSpace();
    if (peek() == ')') {
      ++pos;
      return shape;
    }
    while (true) {
      skipSpace();
      shape.push_back(parseDimension());
      skipSpace();
      if (peek() == ')') {
        ++pos;
        break;
      }
      expect(',');
      skipSpace();
      if (peek() == ')') {
        ++pos;
        break;
      }
    }
    if (shape.size() > 64)
      fail("more than 64 dimensions");
    return shape;
  }

  int64_t parseDimension() {
    if (!(peek() >= '0' && peek() <= '9') || pos >= text.size())
      fail("expected a non-negative integer in the shape");
    int64_t value = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      if (value > (INT64_MAX - 9) / 10)
        fail("shape dimension too large");
      value = value * 10 + (text[pos] - '0');
      ++pos;
    }
    if (peek() == 'L') // Python 2 long literal, written by old NumPy.
      ++pos;
    return value;
  }
};

} // namespace

/// Maps a descr to the language's dtype name, or throws.
static const DtypeEntry &dtypeForDescr(const std::string &descr,
                                       const std::string &origin) {
  if (descr.size() < 3)
    throw Error(origin + ": unsupported .npy dtype '" + descr + "'");
  char order = descr[0];
  char kind = descr[1];
  std::string sizeText = descr.substr(2);
  const DtypeEntry *match = nullptr;
  for (const DtypeEntry &e : kDtypes)
    if (e.kindChar == kind && std::to_string(e.size) == sizeText)
      match = &e;
  if (!match || (order != '<' && order != '>' && order != '|' && order != '='))
    throw Error(origin + ": unsupported .npy dtype '" + descr +
                "' (supported: f2 f4 f8 i1 i2 i4 i8 u1 u2 u4 u8 b1, and V2 "
                "as bf16)");
  if (order == '>' && match->size > 1)
    throw Error(origin + ": big-endian .npy dtype '" + descr +
                "' is not supported (save it little-endian)");
  return *match;
}

NpyArray tk::readNpyFromMemory(std::string_view bytes,
                               const std::string &origin) {
  if (bytes.size() < kMagicSize + 2 ||
      std::memcmp(bytes.data(), kMagic, kMagicSize) != 0)
    throw Error(origin + ": not a .npy file (missing the \\x93NUMPY magic)");
  unsigned major = static_cast<unsigned char>(bytes[6]);
  unsigned minor = static_cast<unsigned char>(bytes[7]);
  if (major < 1 || major > 3 || minor != 0)
    throw Error(origin + ": unsupported .npy format version " +
                std::to_string(major) + "." + std::to_string(minor) +
                " (supported: 1.0, 2.0, 3.0)");
  size_t lengthBytes = major == 1 ? 2 : 4;
  size_t prefix = kMagicSize + 2 + lengthBytes;
  if (bytes.size() < prefix)
    throw Error(origin + ": truncated .npy header");
  uint64_t headerLength = 0;
  for (size_t i = 0; i < lengthBytes; ++i)
    headerLength |= static_cast<uint64_t>(
                        static_cast<unsigned char>(bytes[kMagicSize + 2 + i]))
                    << (8 * i);
  if (headerLength > bytes.size() - prefix)
    throw Error(origin + ": truncated .npy header (it claims " +
                std::to_string(headerLength) + " bytes, the file has " +
                std::to_string(bytes.size() - prefix) + " after the prefix)");

  std::string_view headerText = bytes.substr(prefix, headerLength);
  Header header = HeaderParser(headerText, origin).parse();
  if (header.fortranOrder)
    throw Error(origin + ": Fortran-order .npy arrays are not supported "
                         "(save with np.ascontiguousarray)");
  const DtypeEntry &dtype = dtypeForDescr(header.descr, origin);

  uint64_t count = 1;
  for (int64_t d : header.shape)
    if (__builtin_mul_overflow(count, static_cast<uint64_t>(d), &count))
      throw Error(origin + ": .npy shape is too large");
  uint64_t dataBytes = 0;
  if (__builtin_mul_overflow(count, static_cast<uint64_t>(dtype.size),
                             &dataBytes))
    throw Error(origin + ": .npy shape is too large");
  size_t dataStart = prefix + headerLength;
  uint64_t available = bytes.size() - dataStart;
  if (dataBytes > available)
    throw Error(origin + ": .npy header claims " + std::to_string(dataBytes) +
                " bytes of data but only " + std::to_string(available) +
                " follow the header");
  if (dataBytes < available)
    throw Error(origin + ": .npy file has " +
                std::to_string(available - dataBytes) +
                " unexpected bytes after the array data");

  NpyArray array;
  array.dtype = dtype.name;
  array.shape = std::move(header.shape);
  array.data.assign(bytes.begin() + dataStart, bytes.end());
  return array;
}

NpyArray tk::readNpy(const std::string &path) {
  return readNpyFromMemory(detail::readFile(path, ".npy file"), path);
}

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

std::string tk::writeNpyToMemory(const NpyArray &array) {
  const DtypeEntry *dtype = findDtype(array.dtype);
  if (!dtype)
    throw Error("cannot write .npy: unknown dtype '" + array.dtype + "'");
  uint64_t count = 1;
  for (int64_t d : array.shape) {
    if (d < 0)
      throw Error("cannot write .npy: negative dimension in shape");
    if (__builtin_mul_overflow(count, static_cast<uint64_t>(d), &count))
      throw Error("cannot write .npy: shape is too large");
  }
  uint64_t expected = 0;
  if (__builtin_mul_overflow(count, static_cast<uint64_t>(dtype->size),
                             &expected) ||
      expected != array.data.size())
    throw Error("cannot write .npy: the shape and dtype " + array.dtype +
                " need " + std::to_string(expected) + " bytes of data, " +
                "but the array holds " + std::to_string(array.data.size()));

  std::string shape = "(";
  for (size_t i = 0; i < array.shape.size(); ++i)
    shape += (i ? ", " : "") + std::to_string(array.shape[i]);
  if (array.shape.size() == 1)
    shape += ",";
  shape += ")";
  std::string dict = std::string("{'descr': '") + dtype->descr +
                     "', 'fortran_order': False, 'shape': " + shape + ", }";

  // Pad with spaces so that the data starts at a multiple of 64 bytes, and
  // end the header with a newline, as NumPy does.
  auto build = [&](unsigned major) {
    size_t lengthBytes = major == 1 ? 2 : 4;
    size_t prefix = kMagicSize + 2 + lengthBytes;
    size_t total = prefix + dict.size() + 1;
    size_t padded = (total + 63) / 64 * 64;
    std::string header = dict + std::string(padded - total, ' ') + "\n";
    std::string out(kMagic, kMagicSize);
    out += static_cast<char>(major);
    out += '\0';
    uint64_t length = header.size();
    for (size_t i = 0; i < lengthBytes; ++i)
      out += static_cast<char>((length >> (8 * i)) & 0xFF);
    return out + header;
  };
  std::string out = build(1);
  if (out.size() - (kMagicSize + 4) > 65535)
    out = build(2);
  out.append(reinterpret_cast<const char *>(array.data.data()),
             array.data.size());
  return out;
}

void tk::writeNpy(const std::string &path, const NpyArray &array) {
  detail::writeFile(path, writeNpyToMemory(array), ".npy file");
}
