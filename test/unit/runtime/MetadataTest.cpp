//===- MetadataTest.cpp - Reading and validating kernel metadata ----------===//

#include "tk/Error.h"
#include "tk/Metadata.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

using namespace tk;

namespace {

const char *kSoftmax = R"({
  "tk_metadata_version": 1,
  "name": "softmax", "arch": "sm_90a", "num_warps": 4, "num_stages": 3,
  "shared_bytes": 4096,
  "binary": "softmax.cubin", "binary_kind": "cubin",
  "tk_ir": "softmax.tk.mlir",
  "source": "examples/softmax.tk",
  "args": [ {"name": "out_ptr", "type": "*f32", "spec": "div16"},
            {"name": "n_cols", "type": "i32", "spec": "none"},
            {"name": "scale", "type": "f32"},
            {"name": "flag", "type": "i1", "spec": "one"},
            {"name": "h", "type": "*bf16"} ],
  "constexprs": {"BLOCK": 1024, "EPS": 1e-5, "CAUSAL": true},
  "grid_rank": 1,
  "future_field": {"ignored": [1, 2]}
})";

std::string errorOf(const std::string &text) {
  try {
    Metadata::parse(text, "k.json");
  } catch (const Error &e) {
    return e.what();
  }
  return "";
}

/// kSoftmax with `from` replaced by `to` (must occur).
std::string edited(const std::string &from, const std::string &to) {
  std::string text = kSoftmax;
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos)
    text.replace(at, from.size(), to);
  return text;
}

TEST(Metadata, ParsesTheContractExample) {
  Metadata md = Metadata::parse(kSoftmax, "k.json");
  EXPECT_EQ(md.version, 1);
  EXPECT_EQ(md.name, "softmax");
  EXPECT_EQ(md.arch, "sm_90a");
  EXPECT_EQ(md.targetArch().major, 9);
  EXPECT_EQ(md.targetArch().minor, 0);
  EXPECT_EQ(md.targetArch().suffix, 'a');
  EXPECT_EQ(md.numWarps, 4);
  EXPECT_EQ(md.numStages, 3);
  EXPECT_EQ(md.sharedBytes, 4096u);
  EXPECT_EQ(md.binary, "softmax.cubin");
  EXPECT_EQ(md.binaryKind, BinaryKind::Cubin);
  EXPECT_EQ(md.tkIr, "softmax.tk.mlir");
  EXPECT_EQ(md.source, "examples/softmax.tk");
  ASSERT_EQ(md.args.size(), 5u);
  EXPECT_EQ(md.args[0].name, "out_ptr");
  EXPECT_EQ(md.args[0].type, ArgType::pointerTo(ScalarKind::F32));
  EXPECT_EQ(md.args[0].spec, ArgSpec::Div16);
  EXPECT_EQ(md.args[1].type, ArgType::value(ScalarKind::I32));
  EXPECT_EQ(md.args[1].spec, ArgSpec::None);
  EXPECT_EQ(md.args[2].type, ArgType::value(ScalarKind::F32));
  EXPECT_EQ(md.args[2].spec, ArgSpec::None); // Absent means none.
  EXPECT_EQ(md.args[3].spec, ArgSpec::One);
  EXPECT_EQ(md.args[4].type, ArgType::pointerTo(ScalarKind::BF16));
  ASSERT_EQ(md.constexprs.size(), 3u);
  EXPECT_EQ(md.constexprs[0].name, "BLOCK");
  EXPECT_EQ(md.constexprs[0].kind, Constexpr::Kind::Int);
  EXPECT_EQ(md.constexprs[0].intValue, 1024);
  EXPECT_EQ(md.constexprs[1].kind, Constexpr::Kind::Float);
  EXPECT_DOUBLE_EQ(md.constexprs[1].floatValue, 1e-5);
  EXPECT_EQ(md.constexprs[2].kind, Constexpr::Kind::Bool);
  EXPECT_EQ(md.constexprs[2].intValue, 1);
  EXPECT_EQ(md.gridRank, 1);
  EXPECT_EQ(md.findArg("scale"), &md.args[2]);
  EXPECT_EQ(md.findArg("BLOCK"), nullptr);
}

TEST(Metadata, OptionalFieldsHaveDefaults) {
  Metadata md = Metadata::parse(
      R"({"tk_metadata_version": 1, "name": "k", "arch": "sm_80",
          "num_warps": 8, "shared_bytes": 0, "binary": "k.ptx",
          "binary_kind": "ptx", "args": []})",
      "k.json");
  EXPECT_EQ(md.numStages, 1);
  EXPECT_EQ(md.gridRank, 3);
  EXPECT_TRUE(md.tkIr.empty());
  EXPECT_TRUE(md.constexprs.empty());
  EXPECT_EQ(md.binaryKind, BinaryKind::Ptx);
}

TEST(Metadata, InterpreterOnlyMetadataNeedsNoBinary) {
  Metadata md = Metadata::parse(
      R"({"tk_metadata_version": 1, "name": "k", "arch": "sm_80",
          "num_warps": 4, "shared_bytes": 0, "tk_ir": "k.tk.mlir",
          "args": []})",
      "k.json");
  EXPECT_TRUE(md.binary.empty());
  EXPECT_EQ(md.tkIr, "k.tk.mlir");
}

TEST(Metadata, MissingFields) {
  for (const char *field : {"tk_metadata_version", "name", "arch",
                            "num_warps", "shared_bytes", "args"}) {
    std::string text = kSoftmax;
    std::string key = std::string("\"") + field + "\":";
    size_t at = text.find(key);
    ASSERT_NE(at, std::string::npos);
    text.replace(at, key.size(), std::string("\"x_") + field + "\":");
    EXPECT_EQ(errorOf(text),
              std::string("k.json: missing field '") + field + "'");
  }
  EXPECT_EQ(errorOf(edited("\"binary_kind\": \"cubin\",", "")),
            "k.json: missing field 'binary_kind'");
  // Without a binary, tk_ir alone is enough (interpreter-only metadata).
  EXPECT_EQ(errorOf(edited("\"binary\": \"softmax.cubin\", "
                           "\"binary_kind\": \"cubin\",",
                           "")),
            "");
}

TEST(Metadata, WrongTypes) {
  EXPECT_EQ(errorOf(edited("\"num_warps\": 4", "\"num_warps\": \"4\"")),
            "k.json: field 'num_warps' must be an integer, got string");
  EXPECT_EQ(errorOf(edited("\"num_warps\": 4", "\"num_warps\": 4.5")),
            "k.json: field 'num_warps' must be an integer, got a "
            "non-integral number");
  EXPECT_EQ(errorOf(edited("\"name\": \"softmax\"", "\"name\": 7")),
            "k.json: field 'name' must be a string, got number");
  EXPECT_EQ(errorOf(edited("\"shared_bytes\": 4096", "\"shared_bytes\": -1")),
            "k.json: field 'shared_bytes' is -1, expected 0 to 2147483647");
  EXPECT_EQ(errorOf(edited("\"num_warps\": 4", "\"num_warps\": 64")),
            "k.json: field 'num_warps' is 64, expected 1 to 32");
  EXPECT_EQ(errorOf(edited("\"grid_rank\": 1", "\"grid_rank\": 4")),
            "k.json: field 'grid_rank' is 4, expected 1 to 3");
  EXPECT_EQ(errorOf(edited("\"binary_kind\": \"cubin\"",
                           "\"binary_kind\": \"sass\"")),
            "k.json: field 'binary_kind' is 'sass', expected 'cubin' or "
            "'ptx'");
  EXPECT_EQ(errorOf("[1]"), "k.json: metadata must be a JSON object, got "
                            "array");
  EXPECT_EQ(errorOf(edited("\"constexprs\": {\"BLOCK\": 1024,",
                           "\"constexprs\": {\"BLOCK\": \"big\",")),
            "k.json: constexpr 'BLOCK' must be a number or a boolean, got "
            "string");
  // JSON syntax errors keep the JSON reader's position.
  EXPECT_EQ(errorOf("{\"tk_metadata_version\": 1,}"),
            "k.json:1:27 (byte 26): unexpected character '}', expected a "
            "string as object key");
}

TEST(Metadata, Version) {
  EXPECT_EQ(errorOf(edited("\"tk_metadata_version\": 1",
                           "\"tk_metadata_version\": 3")),
            "k.json: tk_metadata_version is 3 but this runtime reads versions "
            "1 and 2 (the kernel was compiled by a newer tkc)");
  EXPECT_EQ(errorOf(edited("\"tk_metadata_version\": 1",
                           "\"tk_metadata_version\": 0")),
            "k.json: tk_metadata_version is 0 but this runtime reads versions "
            "1 and 2");
  // Version 2 is for kernels with tensor maps (TensorMapTest.cpp).
  EXPECT_EQ(errorOf(edited("\"tk_metadata_version\": 1",
                           "\"tk_metadata_version\": 2")),
            "k.json: tk_metadata_version must be 1");
}

TEST(Metadata, Arguments) {
  EXPECT_EQ(errorOf(edited("\"type\": \"i32\"", "\"type\": \"f33\"")),
            "k.json: argument 2 ('n_cols'): unknown type 'f33' (expected i1, "
            "i8, i16, i32, i64, u8, u16, u32, u64, f16, bf16, f32, f64, "
            "f8e4m3, f8e5m2, or a pointer *T to one of them)");
  EXPECT_EQ(errorOf(edited("\"type\": \"i32\"", "\"type\": \"**i32\"")),
            "k.json: argument 2 ('n_cols'): unknown type '**i32' (expected "
            "i1, i8, i16, i32, i64, u8, u16, u32, u64, f16, bf16, f32, f64, "
            "f8e4m3, f8e5m2, or a pointer *T to one of them)");
  EXPECT_EQ(errorOf(edited("\"type\": \"i32\", \"spec\": \"none\"",
                           "\"type\": \"i32\", \"spec\": \"div8\"")),
            "k.json: argument 2 ('n_cols'): unknown spec 'div8' (expected "
            "none, div16 or one)");
  EXPECT_EQ(errorOf(edited("{\"name\": \"scale\", \"type\": \"f32\"}",
                           "{\"name\": \"scale\", \"type\": \"f32\", "
                           "\"spec\": \"div16\"}")),
            "k.json: argument 3 ('scale'): spec 'div16' applies only to "
            "integers and pointers, not f32");
  EXPECT_EQ(errorOf(edited("\"type\": \"*f32\", \"spec\": \"div16\"",
                           "\"type\": \"*f32\", \"spec\": \"one\"")),
            "k.json: argument 1 ('out_ptr'): spec 'one' applies only to "
            "integers, not *f32");
  EXPECT_EQ(errorOf(edited("\"name\": \"scale\"", "\"name\": \"n_cols\"")),
            "k.json: argument 3 ('n_cols'): duplicate argument name");
  EXPECT_EQ(errorOf(edited("{\"name\": \"scale\", \"type\": \"f32\"}",
                           "{\"type\": \"f32\"}")),
            "k.json: argument 3: missing field 'name'");
  EXPECT_EQ(errorOf(edited("{\"name\": \"scale\", \"type\": \"f32\"}",
                           "{\"name\": \"scale\"}")),
            "k.json: argument 3 ('scale'): missing field 'type'");
  EXPECT_EQ(errorOf(edited("{\"name\": \"scale\", \"type\": \"f32\"}",
                           "\"scale\"")),
            "k.json: argument 3 must be an object, got string");
  EXPECT_EQ(errorOf(edited("\"name\": \"scale\"", "\"name\": \"2x\"")),
            "k.json: argument 3 ('2x'): name must be an identifier");
  EXPECT_EQ(errorOf(edited("\"constexprs\": {\"BLOCK\"",
                           "\"constexprs\": {\"scale\"")),
            "k.json: constexpr 'scale' has the name of an argument or "
            "another constexpr");
}

TEST(Metadata, OtherValidation) {
  EXPECT_EQ(errorOf(edited("\"arch\": \"sm_90a\"", "\"arch\": \"gfx90a\"")),
            "k.json: arch 'gfx90a' is not of the form sm_XY, sm_XYa or sm_XYf");
  EXPECT_EQ(errorOf(edited("\"name\": \"softmax\"", "\"name\": \"soft max\"")),
            "k.json: kernel name 'soft max' is not an identifier");
  EXPECT_EQ(errorOf(R"({"tk_metadata_version": 1, "name": "k",
      "arch": "sm_80", "num_warps": 4, "shared_bytes": 0, "args": []})"),
            "k.json: missing field 'binary'");
}

TEST(Metadata, ClusterSize) {
  EXPECT_EQ(Metadata::parse(kSoftmax, "k.json").clusterSize, 1);
  std::string clustered =
      edited("\"shared_bytes\": 4096,", "\"shared_bytes\": 4096, \"cluster_size\": 4,");
  Metadata md = Metadata::parse(clustered, "k.json");
  EXPECT_EQ(md.clusterSize, 4);
  EXPECT_EQ(Metadata::parse(md.toJson(), "again.json").clusterSize, 4);
  EXPECT_NE(md.toJson().find("\"cluster_size\": 4"), std::string::npos);
  EXPECT_EQ(Metadata::parse(kSoftmax, "k.json").toJson().find("cluster_size"),
            std::string::npos);
  EXPECT_EQ(errorOf(edited("\"shared_bytes\": 4096,",
                           "\"shared_bytes\": 4096, \"cluster_size\": 3,")),
            "k.json: cluster_size is 3, expected 1, 2, 4 or 8");
  EXPECT_NE(errorOf(edited("\"shared_bytes\": 4096,",
                           "\"shared_bytes\": 4096, \"cluster_size\": 16,")),
            "");
}

TEST(Metadata, ToJsonRoundTrips) {
  Metadata md = Metadata::parse(kSoftmax, "k.json");
  std::string text = md.toJson();
  Metadata again = Metadata::parse(text, "again.json");
  EXPECT_EQ(again.toJson(), text);
  EXPECT_EQ(again.name, md.name);
  ASSERT_EQ(again.args.size(), md.args.size());
  for (size_t i = 0; i < md.args.size(); ++i) {
    EXPECT_EQ(again.args[i].name, md.args[i].name);
    EXPECT_EQ(again.args[i].type, md.args[i].type);
    EXPECT_EQ(again.args[i].spec, md.args[i].spec);
  }
  ASSERT_EQ(again.constexprs.size(), 3u);
  EXPECT_EQ(again.constexprs[1].kind, Constexpr::Kind::Float);
  EXPECT_DOUBLE_EQ(again.constexprs[1].floatValue, 1e-5);
  EXPECT_EQ(again.constexprs[2].kind, Constexpr::Kind::Bool);

  // A float constexpr with an integral value stays a float.
  md.constexprs[1].floatValue = 2.0;
  EXPECT_EQ(Metadata::parse(md.toJson(), "x").constexprs[1].kind,
            Constexpr::Kind::Float);
}

TEST(Metadata, LoadReportsTheFile) {
  try {
    Metadata::load("/nonexistent/k.json");
    FAIL() << "expected an error";
  } catch (const Error &e) {
    EXPECT_EQ(std::string(e.what()),
              "cannot read metadata file '/nonexistent/k.json': No such file "
              "or directory");
  }
  std::string path = ::testing::TempDir() + "tkrt_bad_metadata.json";
  std::FILE *f = std::fopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  std::fputs("{\"tk_metadata_version\": 1,\n \"name\": }", f);
  std::fclose(f);
  try {
    Metadata::load(path);
    FAIL() << "expected an error";
  } catch (const Error &e) {
    EXPECT_EQ(std::string(e.what()),
              path + ":2:10 (byte 36): unexpected character '}', expected a "
                     "JSON value");
  }
  std::remove(path.c_str());
}

} // namespace
