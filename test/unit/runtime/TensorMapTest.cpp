//===- TensorMapTest.cpp - Tensor maps: metadata -> cuTensorMapEncodeTiled ===//
//
// The metadata's tensor_maps (parsing, validation, round trip) and the
// exact cuTensorMapEncodeTiled arguments the CUDA backend passes for a
// launch, without a GPU.
//
//===----------------------------------------------------------------------===//

#include "TensorMap.h"

#include "tk/Error.h"
#include "tk/Metadata.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>

using namespace tk;
using namespace tk::detail;

namespace {

/// A matmul with descriptors of A (M x K, f16) and C (M x N, f32, with a
/// constant row stride), as tkc would describe them.
std::string matmulMetadata(const std::string &maps) {
  return R"({
  "tk_metadata_version": 2,
  "name": "matmul_tma", "arch": "sm_90a", "num_warps": 4, "shared_bytes": 0,
  "binary": "m.cubin", "binary_kind": "cubin",
  "args": [ {"name": "a_ptr", "type": "*f16"}, {"name": "c_ptr", "type": "*f32"},
            {"name": "M", "type": "i32"}, {"name": "K", "type": "i64"},
            {"name": "N", "type": "u32"} ],
  "tensor_maps": )" + maps + "\n}";
}

const char *kMaps = R"([
    {"base": "a_ptr", "dtype": "f16", "shape": ["M", "K"], "strides": ["K", 1],
     "block": [128, 64], "swizzle": 128},
    {"base": "c_ptr", "dtype": "f32", "shape": ["M", "N"], "strides": [256, 1],
     "block": [64, 32], "swizzle": 128}])";

std::vector<ArgValue> matmulArgs(uint64_t a, int64_t m, int64_t k) {
  ArgValue aPtr, cPtr;
  aPtr.type = ArgType::pointerTo(ScalarKind::F16);
  aPtr.bits = a;
  cPtr.type = ArgType::pointerTo(ScalarKind::F32);
  cPtr.bits = 0x7f0000001000;
  ArgValue n;
  n.type = ArgType::value(ScalarKind::U32);
  n.bits = 200;
  return {aPtr, cPtr, ArgValue::signedInt(ScalarKind::I32, m),
          ArgValue::signedInt(ScalarKind::I64, k), n};
}

std::string errorOf(const std::function<void()> &f) {
  try {
    f();
  } catch (const Error &e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST(TensorMapTest, ParsesAndRoundTrips) {
  Metadata md = Metadata::parse(matmulMetadata(kMaps), "m.json");
  ASSERT_EQ(md.tensorMaps.size(), 2u);
  const TensorMapSpec &a = md.tensorMaps[0];
  EXPECT_EQ(a.base, "a_ptr");
  EXPECT_EQ(a.element, ScalarKind::F16);
  EXPECT_EQ(a.shape[0].arg, "M");
  EXPECT_EQ(a.strides[1].value, 1);
  EXPECT_FALSE(a.strides[1].isArg());
  EXPECT_EQ(a.block, (std::vector<int64_t>{128, 64}));
  EXPECT_EQ(a.swizzleBytes, 128);
  EXPECT_EQ(md.tensorMaps[1].strides[0].value, 256);
  Metadata again = Metadata::parse(md.toJson(), "again.json");
  ASSERT_EQ(again.tensorMaps.size(), 2u);
  EXPECT_EQ(again.tensorMaps[1].shape[1].arg, "N");
  EXPECT_EQ(again.tensorMaps[0].block, a.block);
  EXPECT_EQ(again.toJson(), md.toJson());
  EXPECT_NE(md.toJson().find("\"tk_metadata_version\": 2"),
            std::string::npos);
}

TEST(TensorMapTest, EncodesInnermostFirstWithByteStrides) {
  Metadata md = Metadata::parse(matmulMetadata(kMaps), "m.json");
  auto args = matmulArgs(0x7f0000000000, 1000, 520);
  TensorMapEncoding a = encodeTensorMap(md, 0, args);
  EXPECT_EQ(a.dataType, CU_TENSOR_MAP_DATA_TYPE_FLOAT16);
  EXPECT_EQ(a.rank, 2u);
  EXPECT_EQ(a.globalAddress, 0x7f0000000000u);
  EXPECT_EQ(a.globalDim[0], 520u); // K, innermost
  EXPECT_EQ(a.globalDim[1], 1000u);
  EXPECT_EQ(a.globalStrides[0], 520u * 2); // row stride in bytes
  EXPECT_EQ(a.boxDim[0], 64u);
  EXPECT_EQ(a.boxDim[1], 128u);
  EXPECT_EQ(a.elementStrides[0], 1u);
  EXPECT_EQ(a.elementStrides[1], 1u);
  EXPECT_EQ(a.interleave, CU_TENSOR_MAP_INTERLEAVE_NONE);
  EXPECT_EQ(a.swizzle, CU_TENSOR_MAP_SWIZZLE_128B);
  EXPECT_EQ(a.l2Promotion, CU_TENSOR_MAP_L2_PROMOTION_L2_128B);
  EXPECT_EQ(a.oobFill, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE); // zeros

  TensorMapEncoding c = encodeTensorMap(md, 1, args);
  EXPECT_EQ(c.dataType, CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
  EXPECT_EQ(c.globalDim[0], 200u); // N (u32)
  EXPECT_EQ(c.globalDim[1], 1000u);
  EXPECT_EQ(c.globalStrides[0], 256u * 4); // the constant stride
  EXPECT_EQ(c.boxDim[0], 32u);
  EXPECT_EQ(c.boxDim[1], 64u);
}

TEST(TensorMapTest, LaunchArgumentsBreakingTmaRules) {
  Metadata md = Metadata::parse(matmulMetadata(kMaps), "m.json");
  EXPECT_EQ(errorOf([&] {
              encodeTensorMap(md, 0, matmulArgs(0x7f0000000008, 64, 64));
            }),
            "kernel 'matmul_tma': tensor map 1 (base 'a_ptr'): the address "
            "139637976727560 is not a multiple of 16 bytes, which TMA "
            "requires");
  EXPECT_EQ(errorOf([&] {
              encodeTensorMap(md, 0, matmulArgs(0x7f0000000000, 64, 52));
            }),
            "kernel 'matmul_tma': tensor map 1 (base 'a_ptr'): stride 0 "
            "('K') is 52 elements = 104 bytes; TMA needs a multiple of 16 "
            "bytes below 2^40");
  EXPECT_EQ(errorOf([&] {
              encodeTensorMap(md, 0, matmulArgs(0x7f0000000000, 0, 64));
            }),
            "kernel 'matmul_tma': tensor map 1 (base 'a_ptr'): shape "
            "dimension 0 ('M') is 0; TMA needs at least 1");
}

TEST(TensorMapTest, MetadataValidation) {
  // Tensor maps need version 2, which older runtimes reject.
  std::string v1 = matmulMetadata(kMaps);
  v1.replace(v1.find("\"tk_metadata_version\": 2"), 24,
             "\"tk_metadata_version\": 1");
  EXPECT_EQ(errorOf([&] { Metadata::parse(v1, "m.json"); }),
            "m.json: tk_metadata_version must be 2 (the kernel has tensor "
            "maps)");
  auto errorFor = [](const std::string &maps) {
    return errorOf([&] { Metadata::parse(matmulMetadata(maps), "m.json"); });
  };
  auto one = [](const std::string &fields) {
    return "[{\"base\": \"a_ptr\", \"dtype\": \"f16\", " + fields + "}]";
  };
  EXPECT_EQ(errorFor(one(R"("shape": ["M"], "strides": [1], "block": [64],
                             "swizzle": 48)")),
            "m.json: tensor map 1: swizzle is 48, expected 0, 32, 64 or 128");
  EXPECT_EQ(errorFor(one(R"("shape": ["M", "K"], "strides": ["K", "K"],
                             "block": [64, 64])")),
            "m.json: tensor map 1: the last stride must be the constant 1");
  EXPECT_EQ(errorFor(one(R"("shape": ["M", "c_ptr"], "strides": ["K", 1],
                             "block": [64, 64])")),
            "m.json: tensor map 1: 'c_ptr' is not an integer parameter");
  EXPECT_EQ(errorFor(one(R"("shape": ["M", "K"], "strides": ["K", 1],
                             "block": [64, 4])")),
            "m.json: tensor map 1: the innermost block dimension is 8 bytes; "
            "TMA needs a multiple of 16");
  EXPECT_EQ(errorFor(one(R"("shape": ["M", "K"], "strides": ["K", 1],
                             "block": [64, 128], "swizzle": 128)")),
            "m.json: tensor map 1: the innermost block dimension (256 "
            "bytes) exceeds the 128-byte swizzle span");
  EXPECT_EQ(errorFor(one(R"("shape": ["M"], "strides": [1], "block": [512])")),
            "m.json: tensor map 1: field 'block' is 512, expected 1 to 256");
  EXPECT_EQ(errorFor(R"([{"base": "c_ptr", "dtype": "f16", "shape": ["M"],
                          "strides": [1], "block": [64]}])"),
            "m.json: tensor map 1: base 'c_ptr' points to f32, not f16");
  EXPECT_EQ(errorFor(R"([{"base": "M", "dtype": "f16", "shape": ["M"],
                          "strides": [1], "block": [64]}])"),
            "m.json: tensor map 1: base 'M' is not a pointer parameter");
}
