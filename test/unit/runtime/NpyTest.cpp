//===- NpyTest.cpp - .npy reading and writing -----------------------------===//

#include "tk/Error.h"
#include "tk/npy.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <random>
#include <string>

using namespace tk;

namespace {

/// A .npy file as NumPy writes it: magic, version, header length, the
/// header dict padded with spaces to a multiple of 64 bytes, then data.
std::string npyFile(const std::string &dict, const std::string &data,
                    int major = 1) {
  size_t lengthBytes = major == 1 ? 2 : 4;
  size_t total = 8 + lengthBytes + dict.size() + 1;
  size_t padded = (total + 63) / 64 * 64;
  std::string header = dict + std::string(padded - total, ' ') + "\n";
  std::string out = "\x93NUMPY";
  out += static_cast<char>(major);
  out += '\0';
  for (size_t i = 0; i < lengthBytes; ++i)
    out += static_cast<char>((header.size() >> (8 * i)) & 0xFF);
  return out + header + data;
}

std::string errorOf(const std::string &bytes) {
  try {
    readNpyFromMemory(bytes, "a.npy");
  } catch (const Error &e) {
    return e.what();
  }
  return "";
}

TEST(Npy, ReadsWhatNumpyWrites) {
  int32_t values[4] = {1, -2, 3, 2147483647};
  std::string data(reinterpret_cast<const char *>(values), sizeof(values));
  // NumPy >= 1.24 leaves extra spaces before the padding; older ones not.
  for (const char *dict :
       {"{'descr': '<i4', 'fortran_order': False, 'shape': (2, 2), }",
        "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 2), }      "
        "          "}) {
    NpyArray a = readNpyFromMemory(npyFile(dict, data));
    EXPECT_EQ(a.dtype, "i32");
    EXPECT_EQ(a.shape, std::vector<int64_t>({2, 2}));
    EXPECT_EQ(a.elementCount(), 4u);
    EXPECT_EQ(a.elementSize(), 4u);
    ASSERT_EQ(a.data.size(), 16u);
    EXPECT_EQ(std::memcmp(a.data.data(), values, 16), 0);
  }
}

TEST(Npy, VersionsAndHeaderSpellings) {
  std::string data(8, '\x01');
  const char *dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }";
  for (int major : {1, 2, 3}) {
    NpyArray a = readNpyFromMemory(npyFile(dict, data, major));
    EXPECT_EQ(a.dtype, "f64");
    EXPECT_EQ(a.shape, std::vector<int64_t>({1}));
  }
  // Key order, double quotes, no trailing comma, Python 2 longs, '='.
  NpyArray a = readNpyFromMemory(npyFile(
      "{\"shape\": (2L,1L), \"fortran_order\": False, \"descr\": \"=u2\"}",
      std::string(4, '\0')));
  EXPECT_EQ(a.dtype, "u16");
  EXPECT_EQ(a.shape, std::vector<int64_t>({2, 1}));
  // A 0-d array holds one element.
  a = readNpyFromMemory(npyFile(
      "{'descr': '<f4', 'fortran_order': False, 'shape': (), }",
      std::string(4, '\0')));
  EXPECT_TRUE(a.shape.empty());
  EXPECT_EQ(a.elementCount(), 1u);
  // An empty array holds nothing.
  a = readNpyFromMemory(npyFile(
      "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 5), }", ""));
  EXPECT_EQ(a.elementCount(), 0u);
}

TEST(Npy, DtypeNames) {
  struct Case {
    const char *descr;
    const char *dtype;
    size_t size;
  };
  const Case cases[] = {
      {"<f2", "f16", 2},  {"<f4", "f32", 4},  {"<f8", "f64", 8},
      {"|i1", "i8", 1},   {"<i1", "i8", 1},   {"<i2", "i16", 2},
      {"<i4", "i32", 4},  {"<i8", "i64", 8},  {"|u1", "u8", 1},
      {"<u1", "u8", 1},   {"<u2", "u16", 2},  {"<u4", "u32", 4},
      {"<u8", "u64", 8},  {"|b1", "i1", 1},   {"|V2", "bf16", 2},
      {"<V2", "bf16", 2}, {">i1", "i8", 1},
  };
  for (const Case &c : cases) {
    std::string dict = std::string("{'descr': '") + c.descr +
                       "', 'fortran_order': False, 'shape': (3,), }";
    NpyArray a = readNpyFromMemory(npyFile(dict, std::string(3 * c.size, 'x')));
    EXPECT_EQ(a.dtype, c.dtype) << c.descr;
  }
  EXPECT_EQ(npyDescrForDtype("bf16"), "|V2");
  EXPECT_EQ(npyDescrForDtype("i1"), "|b1");
  EXPECT_EQ(npyDescrForDtype("f32"), "<f4");
  EXPECT_EQ(npyDescrForDtype("x"), "");
}

TEST(Npy, RoundTripEveryDtype) {
  std::mt19937 random(7);
  for (const char *dtype : {"f16", "bf16", "f32", "f64", "i1", "i8", "i16",
                            "i32", "i64", "u8", "u16", "u32", "u64"}) {
    for (const std::vector<int64_t> &shape :
         {std::vector<int64_t>{}, std::vector<int64_t>{5},
          std::vector<int64_t>{2, 3, 4}, std::vector<int64_t>{0}}) {
      NpyArray a;
      a.dtype = dtype;
      a.shape = shape;
      a.data.resize(a.elementCount() * a.elementSize());
      for (uint8_t &b : a.data)
        b = static_cast<uint8_t>(random());
      std::string bytes = writeNpyToMemory(a);
      // The data starts 64-byte aligned, after a newline, as in NumPy.
      size_t dataStart = bytes.size() - a.data.size();
      EXPECT_EQ(dataStart % 64, 0u);
      EXPECT_EQ(bytes[dataStart - 1], '\n');
      EXPECT_EQ(bytes.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
      NpyArray b = readNpyFromMemory(bytes);
      EXPECT_EQ(b.dtype, a.dtype);
      EXPECT_EQ(b.shape, a.shape);
      EXPECT_EQ(b.data, a.data);
    }
  }
}

TEST(Npy, WrittenHeaderText) {
  NpyArray a;
  a.dtype = "f32";
  a.shape = {3};
  a.data.resize(12);
  std::string bytes = writeNpyToMemory(a);
  // As NumPy writes it: 10 prefix bytes, the dict, spaces, '\n' at 127.
  const std::string dict =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }";
  EXPECT_EQ(bytes.size(), 128u + 12u);
  EXPECT_EQ(bytes.substr(8, 2), std::string("\x76\x00", 2)); // 118
  EXPECT_EQ(bytes.substr(10, dict.size()), dict);
  EXPECT_EQ(bytes.substr(10 + dict.size(), 128 - 11 - dict.size()),
            std::string(128 - 11 - dict.size(), ' '));
  EXPECT_EQ(bytes[127], '\n');
  a.shape = {1, 3};
  EXPECT_NE(writeNpyToMemory(a).find("'shape': (1, 3), }"), std::string::npos);
}

TEST(Npy, FileRoundTrip) {
  NpyArray a;
  a.dtype = "bf16";
  a.shape = {2};
  a.data = {0x80, 0x3F, 0x00, 0x40};
  std::string path = ::testing::TempDir() + "tkrt_npy_test.npy";
  writeNpy(path, a);
  NpyArray b = readNpy(path);
  EXPECT_EQ(b.dtype, "bf16");
  EXPECT_EQ(b.data, a.data);
  std::remove(path.c_str());
  try {
    readNpy(path);
    FAIL();
  } catch (const Error &e) {
    EXPECT_EQ(std::string(e.what()), "cannot read .npy file '" + path +
                                         "': No such file or directory");
  }
}

TEST(Npy, WriteErrors) {
  NpyArray a;
  a.dtype = "f33";
  try {
    writeNpyToMemory(a);
    FAIL();
  } catch (const Error &e) {
    EXPECT_STREQ(e.what(), "cannot write .npy: unknown dtype 'f33'");
  }
  a.dtype = "f32";
  a.shape = {2, 2};
  a.data.resize(12);
  try {
    writeNpyToMemory(a);
    FAIL();
  } catch (const Error &e) {
    EXPECT_STREQ(e.what(), "cannot write .npy: the shape and dtype f32 need "
                           "16 bytes of data, but the array holds 12");
  }
  a.shape = {-1};
  EXPECT_THROW(writeNpyToMemory(a), Error);
}

TEST(Npy, ReadErrors) {
  const std::string dictF4 =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
  struct Case {
    std::string bytes;
    const char *message;
  };
  auto withDict = [](const std::string &dict, size_t dataBytes = 0) {
    return npyFile(dict, std::string(dataBytes, '\0'));
  };
  const Case cases[] = {
      {"", "a.npy: not a .npy file (missing the \\x93NUMPY magic)"},
      {"PK\x03\x04 zip", "a.npy: not a .npy file (missing the \\x93NUMPY "
                         "magic)"},
      {std::string("\x93NUMPY\x04\x00", 8) + "xx",
       "a.npy: unsupported .npy format version 4.0 (supported: 1.0, 2.0, "
       "3.0)"},
      {std::string("\x93NUMPY\x01\x01", 8) + "xx",
       "a.npy: unsupported .npy format version 1.1 (supported: 1.0, 2.0, "
       "3.0)"},
      {std::string("\x93NUMPY\x02\x00\x01", 9),
       "a.npy: truncated .npy header"},
      {std::string("\x93NUMPY\x01\x00\xff\x00{}", 12),
       "a.npy: truncated .npy header (it claims 255 bytes, the file has 2 "
       "after the prefix)"},
      {npyFile(dictF4, std::string(4, '\0')),
       "a.npy: .npy header claims 8 bytes of data but only 4 follow the "
       "header"},
      {npyFile(dictF4, std::string(9, '\0')),
       "a.npy: .npy file has 1 unexpected bytes after the array data"},
      {withDict("{'descr': '<f4', 'fortran_order': True, 'shape': (2,), }", 8),
       "a.npy: Fortran-order .npy arrays are not supported (save with "
       "np.ascontiguousarray)"},
      {withDict("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", 8),
       "a.npy: big-endian .npy dtype '>f4' is not supported (save it "
       "little-endian)"},
      {withDict("{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }", 16),
       "a.npy: unsupported .npy dtype '<c8' (supported: f2 f4 f8 i1 i2 i4 i8 "
       "u1 u2 u4 u8 b1, and V2 as bf16)"},
      {withDict("{'descr': '|O', 'fortran_order': False, 'shape': (2,), }", 16),
       "a.npy: unsupported .npy dtype '|O'"},
      {withDict("{'descr': [('a', '<f4')], 'fortran_order': False, "
                "'shape': (2,), }"),
       "a.npy: malformed .npy header: structured dtypes are not supported"},
      {withDict("{'descr': '<f4', 'shape': (2,), }"),
       "a.npy: malformed .npy header: missing key 'fortran_order'"},
      {withDict("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), "
                "'x': 1}"),
       "a.npy: malformed .npy header: unexpected key 'x'"},
      {withDict("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, "
                "'shape': (2,), }"),
       "a.npy: malformed .npy header: duplicate key 'descr'"},
      {withDict("{'descr': '<f4', 'fortran_order': 0, 'shape': (2,), }"),
       "a.npy: malformed .npy header: expected True or False"},
      {withDict("{'descr': '<f4', 'fortran_order': False, 'shape': (-2,), }"),
       "a.npy: malformed .npy header: expected a non-negative integer in the "
       "shape"},
      {withDict("{'descr': '<f4', 'fortran_order': False, 'shape': (2 3), }"),
       "a.npy: malformed .npy header: expected ','"},
      {withDict("{'descr': '<f4', 'fortran_order': False, 'shape': 2, }"),
       "a.npy: malformed .npy header: expected '('"},
      {withDict("{'descr': '<f4, 'fortran_order': False, 'shape': (2,), }"),
       "a.npy: malformed .npy header: expected '}'"},
      {withDict("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), } x"),
       "a.npy: malformed .npy header: unexpected text after the header "
       "dictionary"},
      {withDict("{'descr': '<f4', 'fortran_order': False, 'shape': "
                "(99999999999999999999,), }"),
       "a.npy: malformed .npy header: shape dimension too large"},
      {withDict("{'descr': '<f4', 'fortran_order': False, 'shape': "
                "(4294967296, 4294967296), }"),
       "a.npy: .npy shape is too large"},
      {withDict("{'descr': '<f4', 'fortran_order': False, 'shape': "
                "(1000000000000,), }"),
       "a.npy: .npy header claims 4000000000000 bytes of data but only 0 "
       "follow the header"},
      {withDict("{'descr': '<f\\x34', 'fortran_order': False, 'shape': (), }"),
       "a.npy: malformed .npy header: escapes in header strings are not "
       "supported"},
  };
  for (const Case &c : cases)
    EXPECT_EQ(errorOf(c.bytes), c.message) << c.message;
}

} // namespace
