//===- AotHeader.cpp - tkc --emit=header ----------------------------------===//
//
// Each variant compiles through jit::compile (a cubin); its metadata gives
// the parameters, their specs, num_warps and the dynamic shared memory.
// The variants are ordered by how many specs they carry (most first), so
// that the dispatcher's first match is the most specialized kernel the
// arguments allow. Generated identifiers all start with tk_<kernel>, so
// headers of several kernels can be included in one translation unit.
//
//===----------------------------------------------------------------------===//
#include "compiler/driver/AotHeader.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace tk;
using namespace tk::jit;

namespace {

struct HeaderArg {
  std::string name;
  std::string type; // "*f32", "i32", ...
  std::string spec; // "none", "div16", "one"
};

struct CompiledVariant {
  std::vector<HeaderArg> args;
  std::string symbol;
  int64_t numWarps = 4;
  int64_t sharedBytes = 0;
  std::string cubin;
  size_t specCount = 0;
};

/// The C type of a parameter.
const char *cType(const std::string &type) {
  if (!type.empty() && type[0] == '*')
    return "CUdeviceptr";
  static const std::pair<const char *, const char *> table[] = {
      {"i1", "bool"},      {"i8", "int8_t"},     {"i16", "int16_t"},
      {"i32", "int32_t"},  {"i64", "int64_t"},   {"u8", "uint8_t"},
      {"u16", "uint16_t"}, {"u32", "uint32_t"},  {"u64", "uint64_t"},
      {"f16", "uint16_t"}, {"bf16", "uint16_t"}, {"f32", "float"},
      {"f64", "double"}};
  for (const auto &[name, c] : table)
    if (type == name)
      return c;
  return nullptr;
}

llvm::Expected<CompiledVariant> readVariant(const CompiledKernel &kernel) {
  auto fail = [&](const std::string &why) {
    return llvm::createStringError("tkc: error: the metadata of '" +
                                   kernel.name + "' " + why);
  };
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse(kernel.metadataJson);
  if (!json)
    return fail("is not JSON: " + llvm::toString(json.takeError()));
  const llvm::json::Object *object = json->getAsObject();
  if (!object)
    return fail("is not an object");
  CompiledVariant variant;
  variant.cubin = kernel.binary;
  if (auto name = object->getString("name"))
    variant.symbol = name->str();
  variant.numWarps = object->getInteger("num_warps").value_or(4);
  variant.sharedBytes = object->getInteger("shared_bytes").value_or(0);
  if (const llvm::json::Array *args = object->getArray("args"))
    for (const llvm::json::Value &entry : *args) {
      const llvm::json::Object *arg = entry.getAsObject();
      if (!arg)
        return fail("has a malformed argument");
      HeaderArg header{arg->getString("name").value_or("").str(),
                       arg->getString("type").value_or("").str(),
                       arg->getString("spec").value_or("none").str()};
      if (!cType(header.type))
        return fail("has parameter '" + header.name + "' of type '" +
                    header.type + "', which a C header cannot pass");
      variant.specCount += header.spec != "none";
      variant.args.push_back(std::move(header));
    }
  return variant;
}

/// "n % 16 == 0 && x_ptr % 16 == 0", or "1" for none.
std::string conditionOf(const CompiledVariant &variant) {
  std::string condition;
  for (const HeaderArg &arg : variant.args) {
    std::string test;
    if (arg.spec == "div16")
      test = "(" + arg.name + " % 16) == 0";
    else if (arg.spec == "one")
      test = arg.name + " == 1";
    else
      continue;
    condition += (condition.empty() ? "" : " && ") + test;
  }
  return condition.empty() ? "1" : condition;
}

std::string describeSpecs(const CompiledVariant &variant) {
  std::string text;
  for (const HeaderArg &arg : variant.args) {
    if (arg.spec == "none")
      continue;
    text += (text.empty() ? "" : ", ") + arg.name +
            (arg.spec == "one" ? " == 1"
             : arg.type[0] == '*' ? " 16-byte aligned"
                                  : " % 16 == 0");
  }
  return text.empty() ? "no specialization" : text;
}

void writeCubin(llvm::raw_ostream &os, const std::string &prefix,
                size_t index, const std::string &cubin) {
  os << "static const unsigned char " << prefix << "_v" << index
     << "_cubin[" << cubin.size() << "] = {";
  for (size_t i = 0; i < cubin.size(); ++i) {
    if (i % 16 == 0)
      os << "\n ";
    os << " 0x" << llvm::hexdigit((uint8_t(cubin[i]) >> 4) & 15, true)
       << llvm::hexdigit(uint8_t(cubin[i]) & 15, true) << ",";
  }
  os << "\n};\n";
}

/// "CUdeviceptr out_ptr, int32_t n" (with a leading ", " when asked).
std::string parameterList(const CompiledVariant &variant) {
  std::string list;
  for (const HeaderArg &arg : variant.args)
    list += std::string(", ") + cType(arg.type) + " " + arg.name;
  return list;
}

std::string argumentList(const CompiledVariant &variant) {
  std::string list;
  for (const HeaderArg &arg : variant.args)
    list += ", " + arg.name;
  return list;
}

} // namespace

llvm::Expected<AotVariant> jit::parseAotVariant(const std::string &text) {
  AotVariant variant;
  if (text == "none" || text.empty())
    return variant;
  llvm::SmallVector<llvm::StringRef> entries;
  llvm::StringRef(text).split(entries, ',', -1, false);
  for (llvm::StringRef entry : entries) {
    entry = entry.trim();
    if (entry == "aligned") {
      variant.assumeAlignedPointers = true;
      continue;
    }
    auto [name, value] = entry.split('=');
    if (name.empty() || (value != "16" && value != "1"))
      return llvm::createStringError(
          "tkc: error: --variant expects NAME=16, NAME=1, 'aligned' or "
          "'none' entries separated by commas, got '" +
          text + "'");
    variant.assumptions.push_back({name.str(), value == "16" ? 16 : 1});
  }
  return variant;
}

llvm::Expected<std::string>
jit::buildAotHeader(const KernelSource &source, const std::string &kernelName,
                    const JitOptions &options,
                    const std::vector<AotVariant> &variants) {
  std::vector<CompiledVariant> compiled;
  for (const AotVariant &variant : variants) {
    JitOptions variantOptions = options;
    variantOptions.artifact = ArtifactKind::Cubin;
    variantOptions.assumptions = variant.assumptions;
    variantOptions.assumeAlignedPointers = variant.assumeAlignedPointers;
    auto kernel = compile(source, kernelName, variantOptions);
    if (!kernel)
      return kernel.takeError();
    auto read = readVariant(*kernel);
    if (!read)
      return read.takeError();
    compiled.push_back(std::move(*read));
  }
  // Most specialized first; among equals, as given.
  std::stable_sort(compiled.begin(), compiled.end(),
                   [](const CompiledVariant &a, const CompiledVariant &b) {
                     return a.specCount > b.specCount;
                   });
  const std::string &name = compiled.front().symbol;
  std::string prefix = "tk_" + name;
  std::string guard = "TK_AOT_" + llvm::StringRef(name).upper() + "_H";
  size_t count = compiled.size();

  std::string text;
  llvm::raw_string_ostream os(text);
  os << "/* " << prefix << ".h: kernel '" << name << "' of " << source.name
     << ", compiled by tkc --emit=header for " << options.arch
     << ". Generated; do not edit.\n *\n"
     << " *   CUresult " << prefix
     << "(CUstream stream, unsigned grid_x, unsigned grid_y, unsigned "
        "grid_z"
     << parameterList(compiled.front()) << ");\n"
     << " *   const char *" << prefix << "_last_error(void);\n"
     << " *   CUresult " << prefix << "_unload(void);\n *\n"
     << " * Needs only cuda.h and libcuda; a CUDA context must be current.\n"
     << " * Variants (the launcher picks the first whose conditions hold):\n";
  for (size_t i = 0; i < count; ++i)
    os << " *   " << prefix << "_v" << i << ": " << describeSpecs(compiled[i])
       << "; num_warps " << compiled[i].numWarps << ", "
       << compiled[i].sharedBytes << " bytes of shared memory\n";
  os << " */\n#ifndef " << guard << "\n#define " << guard << "\n\n"
     << "#include <cuda.h>\n#include <stdarg.h>\n#include <stdbool.h>\n"
     << "#include <stdint.h>\n#include <stdio.h>\n\n"
     << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
  for (size_t i = 0; i < count; ++i)
    writeCubin(os, prefix, i, compiled[i].cubin);

  // Loaded modules: per variant, per context.
  os << "\n#define " << llvm::StringRef(prefix).upper()
     << "_MAX_CONTEXTS 16\n"
     << "typedef struct { CUcontext context; CUmodule module; CUfunction "
        "function; } "
     << prefix << "_loaded_t;\n"
     << "static " << prefix << "_loaded_t " << prefix << "_loaded_[" << count
     << "][" << llvm::StringRef(prefix).upper() << "_MAX_CONTEXTS];\n"
     << "static int " << prefix << "_lock_;\n"
     << "static __thread char " << prefix << "_error_[512];\n\n"
     << "/* The message of the last failed call on this thread. */\n"
     << "static inline const char *" << prefix << "_last_error(void) { return "
     << prefix << "_error_; }\n\n"
     << "static inline CUresult " << prefix
     << "_fail_(CUresult result, const char *format, ...) {\n"
     << "  va_list args;\n  va_start(args, format);\n"
     << "  vsnprintf(" << prefix << "_error_, sizeof(" << prefix
     << "_error_), format, args);\n  va_end(args);\n  return result;\n}\n\n";

  std::string upperPrefix = llvm::StringRef(prefix).upper();
  os << "static inline CUresult " << prefix
     << "_function_(int variant, CUfunction *out) {\n"
     << "  static const unsigned char *const images[" << count << "] = {";
  for (size_t i = 0; i < count; ++i)
    os << (i ? ", " : "") << prefix << "_v" << i << "_cubin";
  os << "};\n  static const unsigned shared[" << count << "] = {";
  for (size_t i = 0; i < count; ++i)
    os << (i ? ", " : "") << compiled[i].sharedBytes;
  os << "};\n"
     << "  CUcontext context = 0;\n"
     << "  CUresult r = cuCtxGetCurrent(&context);\n"
     << "  if (r != CUDA_SUCCESS || !context)\n"
     << "    return " << prefix
     << "_fail_(r != CUDA_SUCCESS ? r : CUDA_ERROR_INVALID_CONTEXT, \"" << prefix
     << ": no current CUDA context\");\n"
     << "  while (__atomic_exchange_n(&" << prefix
     << "_lock_, 1, __ATOMIC_ACQUIRE)) {}\n"
     << "  " << prefix << "_loaded_t *slot = 0;\n"
     << "  for (int i = 0; i < " << upperPrefix << "_MAX_CONTEXTS; ++i) {\n"
     << "    " << prefix << "_loaded_t *entry = &" << prefix
     << "_loaded_[variant][i];\n"
     << "    if (entry->context == context) { slot = entry; break; }\n"
     << "    if (!slot && !entry->context) slot = entry;\n  }\n"
     << "  if (slot && slot->context != context) {\n"
     << "    CUmodule module;\n    CUfunction function;\n"
     << "    r = cuModuleLoadData(&module, images[variant]);\n"
     << "    if (r == CUDA_SUCCESS) {\n"
     << "      r = cuModuleGetFunction(&function, module, \"" << name
     << "\");\n"
     << "      if (r == CUDA_SUCCESS && shared[variant] > 48 * 1024)\n"
     << "        r = cuFuncSetAttribute(function, "
        "CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, "
        "(int)shared[variant]);\n"
     << "      if (r == CUDA_SUCCESS) { slot->context = context; "
        "slot->module = module; slot->function = function; }\n"
     << "      else cuModuleUnload(module);\n    }\n"
     << "  } else if (!slot) {\n    r = CUDA_ERROR_OUT_OF_MEMORY;\n  }\n"
     << "  CUfunction function = slot && r == CUDA_SUCCESS ? slot->function "
        ": 0;\n"
     << "  __atomic_store_n(&" << prefix << "_lock_, 0, __ATOMIC_RELEASE);\n"
     << "  if (!function) {\n    const char *what = \"\";\n"
     << "    cuGetErrorString(r, &what);\n"
     << "    return " << prefix << "_fail_(r, \"" << prefix
     << ": cannot load variant %d (compiled for " << options.arch
     << ") into this context: %s\", variant, what ? what : \"\");\n  }\n"
     << "  *out = function;\n  return CUDA_SUCCESS;\n}\n\n";

  os << "/* Unloads every variant from the current context. */\n"
     << "static inline CUresult " << prefix << "_unload(void) {\n"
     << "  CUcontext context = 0;\n  cuCtxGetCurrent(&context);\n"
     << "  CUresult result = CUDA_SUCCESS;\n"
     << "  while (__atomic_exchange_n(&" << prefix
     << "_lock_, 1, __ATOMIC_ACQUIRE)) {}\n"
     << "  for (int v = 0; v < " << count << "; ++v)\n"
     << "    for (int i = 0; i < " << upperPrefix << "_MAX_CONTEXTS; ++i)\n"
     << "      if (context && " << prefix << "_loaded_[v][i].context == "
        "context) {\n"
     << "        CUresult r = cuModuleUnload(" << prefix
     << "_loaded_[v][i].module);\n"
     << "        if (r != CUDA_SUCCESS) result = r;\n"
     << "        " << prefix << "_loaded_[v][i].context = 0;\n      }\n"
     << "  __atomic_store_n(&" << prefix << "_lock_, 0, __ATOMIC_RELEASE);\n"
     << "  return result;\n}\n\n";

  for (size_t i = 0; i < count; ++i) {
    const CompiledVariant &variant = compiled[i];
    os << "/* Variant " << i << ": " << describeSpecs(variant) << ". */\n"
       << "static inline CUresult " << prefix << "_v" << i
       << "(CUstream stream, unsigned grid_x, unsigned grid_y, unsigned "
          "grid_z"
       << parameterList(variant) << ") {\n";
    for (const HeaderArg &arg : variant.args) {
      bool pointer = arg.type[0] == '*';
      if (pointer)
        os << "  if (!" << arg.name << ")\n    return " << prefix
           << "_fail_(CUDA_ERROR_INVALID_VALUE, \"" << prefix
           << ": argument '" << arg.name << "' is a null pointer\");\n";
      if (arg.spec == "div16")
        os << "  if (" << arg.name << " % 16 != 0)\n    return " << prefix
           << "_fail_(CUDA_ERROR_INVALID_VALUE, \"" << prefix
           << "_v" << i << ": argument '" << arg.name
           << (pointer ? "' must be 16-byte aligned (the variant was "
                         "compiled assuming it), its address is 0x%llx\", "
                         "(unsigned long long)"
                       : "' must be divisible by 16 (the variant was "
                         "compiled assuming it), got %lld\", (long long)")
           << arg.name << ");\n";
      if (arg.spec == "one")
        os << "  if (" << arg.name << " != 1)\n    return " << prefix
           << "_fail_(CUDA_ERROR_INVALID_VALUE, \"" << prefix << "_v" << i
           << ": argument '" << arg.name
           << "' must equal 1 (the variant was compiled assuming it), got "
              "%lld\", (long long)"
           << arg.name << ");\n";
    }
    os << "  CUfunction function = 0;\n"
       << "  CUresult r = " << prefix << "_function_(" << i
       << ", &function);\n"
       << "  if (r != CUDA_SUCCESS)\n    return r;\n"
       << "  void *params[] = {";
    for (size_t a = 0; a < variant.args.size(); ++a)
      os << (a ? ", " : "") << "&" << variant.args[a].name;
    if (variant.args.empty())
      os << "0";
    os << "};\n"
       << "  if (grid_x == 0 || grid_y == 0 || grid_z == 0)\n"
       << "    return CUDA_SUCCESS; /* nothing to run, as in Triton */\n"
       << "  r = cuLaunchKernel(function, grid_x, grid_y, grid_z, "
       << variant.numWarps * 32 << ", 1, 1, " << variant.sharedBytes
       << ", stream, params, 0);\n"
       << "  if (r != CUDA_SUCCESS) {\n    const char *what = \"\";\n"
       << "    cuGetErrorString(r, &what);\n"
       << "    return " << prefix << "_fail_(r, \"" << prefix
       << ": launch failed: %s\", what ? what : \"\");\n  }\n"
       << "  return CUDA_SUCCESS;\n}\n\n";
  }

  const CompiledVariant &first = compiled.front();
  os << "/* The dispatcher: the most specialized variant the arguments "
        "allow. */\n"
     << "static inline CUresult " << prefix
     << "(CUstream stream, unsigned grid_x, unsigned grid_y, unsigned grid_z"
     << parameterList(first) << ") {\n";
  bool catchAll = false;
  for (size_t i = 0; i < count && !catchAll; ++i) {
    std::string condition = conditionOf(compiled[i]);
    catchAll = condition == "1";
    if (catchAll)
      os << "  return ";
    else
      os << "  if (" << condition << ")\n    return ";
    os << prefix << "_v" << i << "(stream, grid_x, grid_y, grid_z"
       << argumentList(first) << ");\n";
  }
  if (!catchAll) {
    // Report what the most specialized variant wants.
    os << "  return " << prefix << "_v" << count - 1
       << "(stream, grid_x, grid_y, grid_z" << argumentList(first)
       << ");\n";
  }
  os << "}\n\n#ifdef __cplusplus\n} /* extern \"C\" */\n#endif\n\n#endif /* "
     << guard << " */\n";
  return text;
}
