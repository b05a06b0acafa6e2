//===- Metadata.cpp - Reading, validating and writing kernel metadata -----===//
//
// Unknown top-level and argument keys are ignored, so that a compiler can add
// informational fields without a version bump; anything the runtime relies
// on is type-checked and range-checked here, once, so the rest of libtkrt can
// trust a Metadata.
//
//===----------------------------------------------------------------------===//

#include "tk/Metadata.h"
#include "tk/Error.h"
#include "tk/Json.h"

#include "FileUtil.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <set>

using namespace tk;

const char *tk::binaryKindName(BinaryKind kind) {
  return kind == BinaryKind::Ptx ? "ptx" : "cubin";
}

static bool isIdentifier(std::string_view s) {
  if (s.empty())
    return false;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    bool digit = c >= '0' && c <= '9';
    if (!letter && !(digit && i > 0))
      return false;
  }
  return true;
}

static const char *kExpectedTypes =
    "i1, i8, i16, i32, i64, u8, u16, u32, u64, f16, bf16, f32, f64, f8e4m3, "
    "f8e5m2, or a "
    "pointer *T to one of them";

namespace {

/// Reads typed fields out of one JSON object, prefixing errors with where
/// the object is ("softmax.json: argument 2 ('n'): ").
class FieldReader {
public:
  FieldReader(const json::Value &object, std::string where)
      : object(object), where(std::move(where)) {}

  [[noreturn]] void fail(const std::string &message) const {
    throw Error(where + message);
  }

  const json::Value *optional(const char *key) const {
    return object.find(key);
  }

  const json::Value &required(const char *key) const {
    const json::Value *v = object.find(key);
    if (!v)
      fail(std::string("missing field '") + key + "'");
    return *v;
  }

  void expectKind(const char *key, const json::Value &v, json::Value::Kind kind,
                  const char *what) const {
    if (v.kind() != kind)
      fail(std::string("field '") + key + "' must be " + what + ", got " +
           json::kindName(v.kind()));
  }

  std::string string(const char *key, const json::Value &v) const {
    expectKind(key, v, json::Value::Kind::String, "a string");
    return v.getString();
  }

  int64_t integer(const char *key, const json::Value &v, int64_t min,
                  int64_t max) const {
    if (!v.isInteger())
      fail(std::string("field '") + key + "' must be an integer, got " +
           (v.isNumber() ? "a non-integral number"
                         : json::kindName(v.kind())));
    int64_t i = v.getInteger();
    if (i < min || i > max)
      fail(std::string("field '") + key + "' is " + std::to_string(i) +
           ", expected " + std::to_string(min) + " to " + std::to_string(max));
    return i;
  }

private:
  const json::Value &object;
  std::string where;
};

} // namespace

static KernelArg parseArg(const json::Value &v, size_t index,
                          const std::string &origin) {
  std::string position = std::to_string(index + 1);
  if (!v.isObject())
    throw Error(origin + ": argument " + position + " must be an object, got " +
                json::kindName(v.kind()));
  FieldReader probe(v, origin + ": argument " + position + ": ");
  KernelArg arg;
  arg.name = probe.string("name", probe.required("name"));
  FieldReader fields(v, origin + ": argument " + position + " ('" + arg.name +
                            "'): ");
  if (!isIdentifier(arg.name))
    fields.fail("name must be an identifier");
  std::string typeText = fields.string("type", fields.required("type"));
  std::optional<ArgType> type = parseArgType(typeText);
  if (!type)
    fields.fail("unknown type '" + typeText + "' (expected " + kExpectedTypes +
                ")");
  arg.type = *type;
  if (const json::Value *specValue = fields.optional("spec")) {
    std::string specText = fields.string("spec", *specValue);
    std::optional<ArgSpec> spec = parseArgSpec(specText);
    if (!spec)
      fields.fail("unknown spec '" + specText +
                  "' (expected none, div16 or one)");
    arg.spec = *spec;
  }
  return arg;
}

static Constexpr parseConstexpr(const std::string &name,
                                const json::Value &v,
                                const std::string &origin) {
  Constexpr c;
  c.name = name;
  if (v.isBool()) {
    c.kind = Constexpr::Kind::Bool;
    c.intValue = v.getBool() ? 1 : 0;
  } else if (v.isInteger()) {
    c.kind = Constexpr::Kind::Int;
    c.intValue = v.getInteger();
  } else if (v.isNumber()) {
    c.kind = Constexpr::Kind::Float;
    c.floatValue = v.getNumber();
  } else {
    throw Error(origin + ": constexpr '" + name +
                "' must be a number or a boolean, got " +
                json::kindName(v.kind()));
  }
  return c;
}

static TensorMapOperand parseTensorMapOperand(const FieldReader &fields,
                                              const char *key,
                                              const json::Value &v) {
  TensorMapOperand operand;
  if (v.isString())
    operand.arg = v.getString();
  else
    operand.value = fields.integer(key, v, 1, INT64_MAX);
  return operand;
}

static TensorMapSpec parseTensorMap(const json::Value &v, size_t index,
                                    const std::string &origin) {
  FieldReader fields(v, origin + ": tensor map " + std::to_string(index + 1) +
                            ": ");
  if (!v.isObject())
    fields.fail(std::string("must be an object, got ") +
                json::kindName(v.kind()));
  TensorMapSpec map;
  map.base = fields.string("base", fields.required("base"));
  std::string element = fields.string("dtype", fields.required("dtype"));
  std::optional<ScalarKind> kind = parseScalarKind(element);
  if (!kind)
    fields.fail("unknown dtype '" + element + "'");
  map.element = *kind;
  auto list = [&](const char *key) -> const std::vector<json::Value> & {
    const json::Value &value = fields.required(key);
    fields.expectKind(key, value, json::Value::Kind::Array, "an array");
    return value.getArray();
  };
  for (const json::Value &item : list("shape"))
    map.shape.push_back(parseTensorMapOperand(fields, "shape", item));
  for (const json::Value &item : list("strides"))
    map.strides.push_back(parseTensorMapOperand(fields, "strides", item));
  for (const json::Value &item : list("block"))
    map.block.push_back(fields.integer("block", item, 1, 256));
  if (const json::Value *swizzle = fields.optional("swizzle"))
    map.swizzleBytes = static_cast<int>(fields.integer("swizzle", *swizzle,
                                                       0, 128));
  return map;
}

Metadata Metadata::parse(std::string_view jsonText, const std::string &origin) {
  json::Value root = json::parse(jsonText, origin);
  if (!root.isObject())
    throw Error(origin + ": metadata must be a JSON object, got " +
                json::kindName(root.kind()));
  FieldReader fields(root, origin + ": ");
  Metadata md;

  // The version first: a newer format may differ in anything else.
  md.version = static_cast<int>(fields.integer(
      "tk_metadata_version", fields.required("tk_metadata_version"), 0,
      INT32_MAX));
  if (md.version != kMetadataVersion &&
      md.version != kTensorMapMetadataVersion)
    fields.fail("tk_metadata_version is " + std::to_string(md.version) +
                " but this runtime reads versions " +
                std::to_string(kMetadataVersion) + " and " +
                std::to_string(kTensorMapMetadataVersion) +
                (md.version > kTensorMapMetadataVersion
                     ? " (the kernel was compiled by a newer tkc)"
                     : ""));

  md.name = fields.string("name", fields.required("name"));
  md.arch = fields.string("arch", fields.required("arch"));
  md.numWarps = static_cast<int>(
      fields.integer("num_warps", fields.required("num_warps"), 1, 32));
  if (const json::Value *v = fields.optional("num_stages"))
    md.numStages = static_cast<int>(fields.integer("num_stages", *v, 0, 64));
  md.sharedBytes = static_cast<uint64_t>(fields.integer(
      "shared_bytes", fields.required("shared_bytes"), 0, INT32_MAX));
  if (const json::Value *v = fields.optional("cluster_size"))
    md.clusterSize = static_cast<int>(fields.integer("cluster_size", *v, 1, 8));

  const json::Value *binary = fields.optional("binary");
  const json::Value *tkIr = fields.optional("tk_ir");
  if (tkIr)
    md.tkIr = fields.string("tk_ir", *tkIr);
  if (binary || !tkIr) {
    md.binary = fields.string("binary", fields.required("binary"));
    std::string kind =
        fields.string("binary_kind", fields.required("binary_kind"));
    if (kind == "cubin")
      md.binaryKind = BinaryKind::Cubin;
    else if (kind == "ptx")
      md.binaryKind = BinaryKind::Ptx;
    else
      fields.fail("field 'binary_kind' is '" + kind +
                  "', expected 'cubin' or 'ptx'");
  }
  if (const json::Value *v = fields.optional("source"))
    md.source = fields.string("source", *v);

  const json::Value &args = fields.required("args");
  fields.expectKind("args", args, json::Value::Kind::Array, "an array");
  for (size_t i = 0; i < args.getArray().size(); ++i)
    md.args.push_back(parseArg(args.getArray()[i], i, origin));

  if (const json::Value *v = fields.optional("constexprs")) {
    fields.expectKind("constexprs", *v, json::Value::Kind::Object,
                      "an object");
    for (const auto &member : v->getObject())
      md.constexprs.push_back(
          parseConstexpr(member.first, member.second, origin));
  }
  if (const json::Value *v = fields.optional("grid_rank"))
    md.gridRank = static_cast<int>(fields.integer("grid_rank", *v, 1, 3));
  if (const json::Value *v = fields.optional("tensor_maps")) {
    fields.expectKind("tensor_maps", *v, json::Value::Kind::Array,
                      "an array");
    for (size_t i = 0; i < v->getArray().size(); ++i)
      md.tensorMaps.push_back(parseTensorMap(v->getArray()[i], i, origin));
  }

  md.validate(origin);
  return md;
}

void Metadata::validate(const std::string &origin) const {
  auto fail = [&](const std::string &message) {
    throw Error(origin + ": " + message);
  };
  if (version != requiredVersion())
    fail("tk_metadata_version must be " + std::to_string(requiredVersion()) +
         (tensorMaps.empty() ? "" : " (the kernel has tensor maps)"));
  if (!isIdentifier(name))
    fail("kernel name '" + name + "' is not an identifier");
  std::optional<GpuArch> parsedArch = parseGpuArch(arch);
  if (!parsedArch)
    fail("arch '" + arch + "' is not of the form sm_XY, sm_XYa or sm_XYf");
  if (numWarps < 1 || numWarps > 32)
    fail("num_warps is " + std::to_string(numWarps) + ", expected 1 to 32");
  if (numStages < 0)
    fail("num_stages is negative");
  if (sharedBytes > static_cast<uint64_t>(INT32_MAX))
    fail("shared_bytes is too large");
  if (clusterSize != 1 && clusterSize != 2 && clusterSize != 4 &&
      clusterSize != 8)
    fail("cluster_size is " + std::to_string(clusterSize) +
         ", expected 1, 2, 4 or 8");
  if (binary.empty() && tkIr.empty())
    fail("neither 'binary' nor 'tk_ir' names a file to run");
  if (gridRank < 1 || gridRank > 3)
    fail("grid_rank is " + std::to_string(gridRank) + ", expected 1 to 3");

  std::set<std::string> seen;
  for (size_t i = 0; i < args.size(); ++i) {
    const KernelArg &arg = args[i];
    std::string where = "argument " + std::to_string(i + 1) + " ('" +
                        arg.name + "'): ";
    if (!isIdentifier(arg.name))
      fail("argument " + std::to_string(i + 1) + ": name '" + arg.name +
           "' is not an identifier");
    if (!seen.insert(arg.name).second)
      fail(where + "duplicate argument name");
    if (arg.spec != ArgSpec::None && !arg.type.isPointer &&
        isFloatKind(arg.type.scalar))
      fail(where + "spec '" + specName(arg.spec) +
           "' applies only to integers and pointers, not " +
           toString(arg.type));
    if (arg.spec == ArgSpec::One && arg.type.isPointer)
      fail(where + "spec 'one' applies only to integers, not " +
           toString(arg.type));
  }
  for (size_t i = 0; i < tensorMaps.size(); ++i) {
    const TensorMapSpec &map = tensorMaps[i];
    std::string where = "tensor map " + std::to_string(i + 1) + ": ";
    const KernelArg *base = findArg(map.base);
    if (!base || !base->type.isPointer)
      fail(where + "base '" + map.base + "' is not a pointer parameter");
    if (base->type.scalar != map.element)
      fail(where + "base '" + map.base + "' points to " +
           scalarName(base->type.scalar) + ", not " +
           scalarName(map.element));
    size_t bytes = scalarByteSize(map.element);
    if (map.element == ScalarKind::I1 || bytes == 0)
      fail(where + "TMA cannot move " + scalarName(map.element));
    size_t rank = map.block.size();
    if (rank < 1 || rank > 5 || map.shape.size() != rank ||
        map.strides.size() != rank)
      fail(where + "needs 1 to 5 dimensions with one shape, stride and "
                   "block entry each");
    for (const auto *list : {&map.shape, &map.strides})
      for (const TensorMapOperand &operand : *list) {
        if (!operand.isArg())
          continue;
        const KernelArg *arg = findArg(operand.arg);
        if (!arg || arg->type.isPointer || !isIntegerKind(arg->type.scalar) ||
            arg->type.scalar == ScalarKind::I1)
          fail(where + "'" + operand.arg +
               "' is not an integer parameter");
      }
    const TensorMapOperand &last = map.strides.back();
    if (last.isArg() || last.value != 1)
      fail(where + "the last stride must be the constant 1");
    if (map.swizzleBytes != 0 && map.swizzleBytes != 32 &&
        map.swizzleBytes != 64 && map.swizzleBytes != 128)
      fail(where + "swizzle is " + std::to_string(map.swizzleBytes) +
           ", expected 0, 32, 64 or 128");
    uint64_t innerBytes = uint64_t(map.block.back()) * bytes;
    if (innerBytes % 16 != 0)
      fail(where + "the innermost block dimension is " +
           std::to_string(innerBytes) +
           " bytes; TMA needs a multiple of 16");
    if (map.swizzleBytes != 0 && innerBytes > uint64_t(map.swizzleBytes))
      fail(where + "the innermost block dimension (" +
           std::to_string(innerBytes) + " bytes) exceeds the " +
           std::to_string(map.swizzleBytes) + "-byte swizzle span");
  }
  for (const Constexpr &c : constexprs) {
    if (!isIdentifier(c.name))
      fail("constexpr name '" + c.name + "' is not an identifier");
    if (!seen.insert(c.name).second)
      fail("constexpr '" + c.name +
           "' has the name of an argument or another constexpr");
    if (c.kind == Constexpr::Kind::Float && !std::isfinite(c.floatValue))
      fail("constexpr '" + c.name + "' is not a finite number");
  }
}

Metadata Metadata::load(const std::string &path) {
  return parse(detail::readFile(path, "metadata file"), path);
}

GpuArch Metadata::targetArch() const {
  return parseGpuArch(arch).value_or(GpuArch());
}

const KernelArg *Metadata::findArg(std::string_view argName) const {
  for (const KernelArg &arg : args)
    if (arg.name == argName)
      return &arg;
  return nullptr;
}

static std::string formatDouble(double d) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.17g", d);
  std::string s = buffer;
  // Keep it a non-integer literal so that it reads back as a float.
  if (s.find_first_of(".eE") == std::string::npos)
    s += ".0";
  return s;
}

std::string Metadata::toJson() const {
  std::string out = "{\n";
  auto field = [&](const char *key, const std::string &value, bool last) {
    out += "  " + json::quote(key) + ": " + value + (last ? "\n" : ",\n");
  };
  field("tk_metadata_version", std::to_string(requiredVersion()), false);
  field("name", json::quote(name), false);
  field("arch", json::quote(arch), false);
  field("num_warps", std::to_string(numWarps), false);
  field("num_stages", std::to_string(numStages), false);
  field("shared_bytes", std::to_string(sharedBytes), false);
  if (clusterSize > 1)
    field("cluster_size", std::to_string(clusterSize), false);
  if (!binary.empty()) {
    field("binary", json::quote(binary), false);
    field("binary_kind", json::quote(binaryKindName(binaryKind)), false);
  }
  if (!tkIr.empty())
    field("tk_ir", json::quote(tkIr), false);
  if (!source.empty())
    field("source", json::quote(source), false);

  std::string argsText = "[";
  for (size_t i = 0; i < args.size(); ++i) {
    const KernelArg &arg = args[i];
    argsText += std::string(i ? ",\n" : "\n") + "    {\"name\": " +
                json::quote(arg.name) +
                ", \"type\": " + json::quote(toString(arg.type)) +
                ", \"spec\": " + json::quote(specName(arg.spec)) + "}";
  }
  argsText += args.empty() ? "]" : "\n  ]";
  field("args", argsText, false);

  std::string constexprText = "{";
  for (size_t i = 0; i < constexprs.size(); ++i) {
    const Constexpr &c = constexprs[i];
    std::string value;
    switch (c.kind) {
    case Constexpr::Kind::Int:
      value = std::to_string(c.intValue);
      break;
    case Constexpr::Kind::Bool:
      value = c.intValue ? "true" : "false";
      break;
    case Constexpr::Kind::Float:
      value = formatDouble(c.floatValue);
      break;
    }
    constexprText += (i ? ", " : "") + json::quote(c.name) + ": " + value;
  }
  constexprText += "}";
  field("constexprs", constexprText, false);
  if (!tensorMaps.empty()) {
    auto operands = [](const std::vector<TensorMapOperand> &list) {
      std::string text = "[";
      for (size_t i = 0; i < list.size(); ++i)
        text += (i ? ", " : "") + (list[i].isArg()
                                       ? json::quote(list[i].arg)
                                       : std::to_string(list[i].value));
      return text + "]";
    };
    std::string mapsText = "[";
    for (size_t i = 0; i < tensorMaps.size(); ++i) {
      const TensorMapSpec &map = tensorMaps[i];
      std::string block = "[";
      for (size_t d = 0; d < map.block.size(); ++d)
        block += (d ? ", " : "") + std::to_string(map.block[d]);
      mapsText += std::string(i ? ",\n" : "\n") + "    {\"base\": " +
                  json::quote(map.base) + ", \"dtype\": " +
                  json::quote(scalarName(map.element)) +
                  ", \"shape\": " + operands(map.shape) +
                  ", \"strides\": " + operands(map.strides) +
                  ", \"block\": " + block + "], \"swizzle\": " +
                  std::to_string(map.swizzleBytes) + "}";
    }
    field("tensor_maps", mapsText + "\n  ]", false);
  }
  field("grid_rank", std::to_string(gridRank), true);
  out += "}\n";
  return out;
}
