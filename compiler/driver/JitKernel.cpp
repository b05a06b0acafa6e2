//===- JitKernel.cpp - the launch-time JIT handle (include/tk/jit.h) ------===//
//
// A launch computes a SpecializationKey from the arguments: one bit per
// parameter for "divisible by 16" (pointers: 16-byte aligned), one for
// "equals 1" (integers only), and the raw bits of the @autotune key
// arguments. That is a few machine words, compared and hashed without
// touching the source or allocating. The key of the last launch is checked
// first (one atomic load); otherwise a hash map under a shared lock. A miss
// takes the handle's compile mutex, compiles the kernel with the key's
// assumptions (tkc's --assume) through the kernel cache, or tunes it
// (JitTuner.h), loads it and publishes it in the map. Specializations live
// as long as the handle, so a pointer into the map stays valid.
//
//===----------------------------------------------------------------------===//
#include "tk/jit.h"

#include "compiler/driver/CompileOptions.h"
#include "compiler/driver/CompilerVersion.h"
#include "compiler/driver/JitRuntime.h"
#include "compiler/driver/JitSignature.h"
#include "compiler/driver/JitTuner.h"
#include "compiler/driver/KernelCache.h"

#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <cstring>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>

using namespace tk;
using namespace tk::jit;

namespace {

/// At most this many @autotune key arguments.
constexpr size_t kMaxKeyValues = 8;
/// Parameters past the 64th are not specialized.
constexpr size_t kMaxSpecializedParams = 64;

struct SpecializationKey {
  uint64_t div16 = 0;
  uint64_t one = 0;
  uint64_t keyValues[kMaxKeyValues] = {};

  bool operator==(const SpecializationKey &other) const {
    return std::memcmp(this, &other, sizeof(*this)) == 0;
  }
};

struct SpecializationKeyHash {
  size_t operator()(const SpecializationKey &key) const {
    uint64_t hash = key.div16 * 0x9E3779B97F4A7C15ull ^ key.one;
    for (uint64_t value : key.keyValues)
      hash = (hash ^ value) * 0xBF58476D1CE4E5B9ull;
    return size_t(hash ^ (hash >> 31));
  }
};

struct Specialization {
  SpecializationKey key;
  CompiledKernel compiled;
  Module module;
  tk::Kernel kernel;
  LaunchMeta meta;

  Specialization(SpecializationKey key, CompiledKernel compiled,
                 Module moduleIn)
      : key(key), compiled(std::move(compiled)), module(std::move(moduleIn)),
        kernel(module.kernel()), meta(kernel.metadata()) {}
};

} // namespace

namespace tk::jit::detail {

struct KernelState {
  Context context;
  KernelSource source;
  KernelSignature signature;
  std::vector<Param> params;
  KernelOptions options;
  JitOptions jitOptions;
  std::unique_ptr<KernelCache> ownCache;

  std::atomic<Specialization *> last{nullptr};
  mutable std::shared_mutex mapMutex;
  std::unordered_map<SpecializationKey, std::unique_ptr<Specialization>,
                     SpecializationKeyHash>
      specializations;
  /// Held while a new specialization compiles (one at a time per handle).
  std::mutex compileMutex;

  explicit KernelState(const Context &context) : context(context) {}

  SpecializationKey computeKey(const ArgValue *args, size_t count) const;
  Specialization *find(const SpecializationKey &key) const;
  Specialization &specialize(const ArgValue *args, size_t count,
                             const GridFunction *gridFunction,
                             const Grid *grid, Stream *stream);
  void checkCount(size_t count) const;
};

} // namespace tk::jit::detail

using tk::jit::detail::KernelState;

//===----------------------------------------------------------------------===//
// LaunchMeta
//===----------------------------------------------------------------------===//

static const Constexpr *findConstexpr(const Metadata &md,
                                      std::string_view name) {
  for (const Constexpr &value : md.constexprs)
    if (value.name == name)
      return &value;
  return nullptr;
}

static int64_t constexprAsInt(const Constexpr &value) {
  return value.kind == Constexpr::Kind::Float
             ? static_cast<int64_t>(value.floatValue)
             : value.intValue;
}

int64_t jit::LaunchMeta::operator[](std::string_view name) const {
  if (const Constexpr *value = findConstexpr(*md, name))
    return constexprAsInt(*value);
  std::string names;
  for (const Constexpr &value : md->constexprs)
    names += (names.empty() ? "" : ", ") + value.name;
  throw Error("kernel '" + md->name + "' has no constexpr '" +
              std::string(name) + "' (constexprs: " +
              (names.empty() ? "none" : names) + ")");
}

int64_t jit::LaunchMeta::get(std::string_view name, int64_t fallback) const {
  const Constexpr *value = findConstexpr(*md, name);
  return value ? constexprAsInt(*value) : fallback;
}

//===----------------------------------------------------------------------===//
// The handle
//===----------------------------------------------------------------------===//

/// The arch and artifact for the context's device (KernelOptions::arch).
static void chooseTarget(const Context &context, const std::string &arch,
                         JitOptions &options) {
  if (context.isInterpreter()) {
    options.artifact = ArtifactKind::TkIr;
    return;
  }
  const DeviceInfo &device = context.deviceInfo();
  bool portable = false;
  if (!arch.empty())
    options.arch = arch;
  else if (device.computeMajor == 9 && device.computeMinor == 0)
    options.arch = "sm_90a";
  else if (device.computeMajor == 8)
    options.arch = "sm_80";
  else
    options.arch = "sm_80", portable = true; // PTX: the driver JITs it.
  options.artifact = ArtifactKind::Cubin;
  if (portable) {
    options.artifact = ArtifactKind::Ptx;
  } else if (auto ptxas = getPtxasVersion(); !ptxas) {
    llvm::consumeError(ptxas.takeError());
    options.artifact = ArtifactKind::Ptx;
  }
}

static std::shared_ptr<KernelState> makeState(const Context &context,
                                             KernelSource source,
                                             const std::string &name,
                                             KernelOptions options) {
  if (options.maxRegisters)
    if (std::string problem = checkMaxRegisters(*options.maxRegisters);
        !problem.empty())
      throw Error(problem);
  auto state = std::make_shared<KernelState>(context);
  auto signature = readKernelSignature(source, name, "tk");
  if (!signature)
    throw Error(llvm::toString(signature.takeError()));
  if (signature->autotuneKeyParams.size() > kMaxKeyValues)
    throw Error("kernel '" + signature->kernelName + "' is tuned on " +
                std::to_string(signature->autotuneKeyParams.size()) +
                " key arguments; the JIT takes at most " +
                std::to_string(kMaxKeyValues));
  for (size_t i = 0; i < signature->params.size(); ++i) {
    const SignatureParam &entry = signature->params[i];
    // A type named by a constexpr (`*DTYPE`) takes its -D value (the last
    // one given wins, as in tkc).
    std::string typeName = entry.type;
    std::string named = typeName.substr(typeName.find_first_not_of('*'));
    for (const auto &[define, value] : options.defines)
      if (define == named)
        typeName = typeName.substr(0, typeName.size() - named.size()) + value;
    std::optional<ArgType> type = parseArgType(typeName);
    if (!type)
      throw Error("kernel '" + signature->kernelName + "': parameter '" +
                  entry.name + "' has type '" + typeName +
                  "', which libtkrt cannot pass");
    bool specialized = options.specialize && !entry.doNotSpecialize &&
                       (entry.isPointer || entry.isInteger) &&
                       i < kMaxSpecializedParams;
    state->params.push_back(Param{entry.name, *type, specialized});
  }
  JitOptions &jit = state->jitOptions;
  jit.defines = options.defines;
  jit.numWarps = options.numWarps;
  jit.numStages = options.numStages;
  jit.maxRegisters = options.maxRegisters;
  jit.useCache = options.useCache;
  jit.toolName = "tk";
  if (!options.cacheDir.empty()) {
    KernelCacheConfig config = getKernelCacheConfigFromEnvironment();
    config.directory = options.cacheDir;
    config.enabled = true;
    state->ownCache = std::make_unique<KernelCache>(config);
    jit.cache = state->ownCache.get();
  }
  chooseTarget(context, options.arch, jit);
  state->source = std::move(source);
  state->signature = std::move(*signature);
  state->options = std::move(options);
  return state;
}

jit::Kernel jit::Kernel::fromFile(const Context &context, const std::string &path,
                        const std::string &name, KernelOptions options) {
  auto source = KernelSource::readFile(path);
  if (!source)
    throw Error("tk: error: " + llvm::toString(source.takeError()));
  return Kernel(
      makeState(context, std::move(*source), name, std::move(options)));
}

jit::Kernel jit::Kernel::fromSource(const Context &context, const std::string &text,
                          const std::string &name, KernelOptions options,
                          const std::string &sourceName) {
  return Kernel(makeState(context, KernelSource{sourceName, text}, name,
                          std::move(options)));
}

const std::string &jit::Kernel::name() const { return state->signature.kernelName; }
const std::vector<Param> &jit::Kernel::params() const { return state->params; }
const std::vector<std::string> &jit::Kernel::autotuneKey() const {
  return state->signature.autotuneKey;
}
size_t jit::Kernel::autotuneConfigCount() const {
  return state->signature.configCount;
}
size_t jit::Kernel::specializationCount() const {
  std::shared_lock<std::shared_mutex> lock(state->mapMutex);
  return state->specializations.size();
}

//===----------------------------------------------------------------------===//
// Launching
//===----------------------------------------------------------------------===//

void KernelState::checkCount(size_t count) const {
  if (count == params.size())
    return;
  std::string list;
  for (const Param &param : params)
    list += (list.empty() ? "" : ", ") + param.name + ": " +
            toString(param.type);
  throw Error("kernel '" + signature.kernelName + "' expects " +
              std::to_string(params.size()) + " argument" +
              (params.size() == 1 ? "" : "s") + ", got " +
              std::to_string(count) + "; its parameters are (" + list + ")");
}

SpecializationKey KernelState::computeKey(const ArgValue *args,
                                          size_t count) const {
  SpecializationKey key;
  for (size_t i = 0; i < count; ++i) {
    const Param &param = params[i];
    if (!param.specialized)
      continue;
    uint64_t bits = args[i].bits;
    uint64_t bit = uint64_t(1) << i;
    if (param.type.isPointer) {
      if ((bits & 15) == 0)
        key.div16 |= bit;
    } else if (!args[i].type.isPointer) {
      // Signed values are sign-extended, so 1 and multiples of 16 read
      // alike at every width.
      if (bits == 1)
        key.one |= bit;
      else if ((bits & 15) == 0)
        key.div16 |= bit;
    }
  }
  const std::vector<unsigned> &keyParams = signature.autotuneKeyParams;
  for (size_t i = 0; i < keyParams.size(); ++i)
    key.keyValues[i] = args[keyParams[i]].bits;
  return key;
}

Specialization *KernelState::find(const SpecializationKey &key) const {
  std::shared_lock<std::shared_mutex> lock(mapMutex);
  auto found = specializations.find(key);
  return found == specializations.end() ? nullptr : found->second.get();
}

/// The text of an @autotune key value, as the record and progress show it.
static std::string describeValue(const Param &param, const ArgValue &arg) {
  char text[48];
  if (param.type.isPointer)
    std::snprintf(text, sizeof(text), "0x%" PRIx64, arg.bits);
  else if (param.type.scalar == ScalarKind::F32)
    std::snprintf(text, sizeof(text), "%g", double(arg.asF32()));
  else if (param.type.scalar == ScalarKind::F64)
    std::snprintf(text, sizeof(text), "%g", arg.asF64());
  else if (isSignedIntegerKind(param.type.scalar) || arg.anyInteger)
    std::snprintf(text, sizeof(text), "%" PRId64, arg.asSigned());
  else
    std::snprintf(text, sizeof(text), "%" PRIu64, arg.asUnsigned());
  return text;
}

Specialization &KernelState::specialize(const ArgValue *args, size_t count,
                                        const GridFunction *gridFunction,
                                        const Grid *grid, Stream *stream) {
  SpecializationKey key = computeKey(args, count);
  std::lock_guard<std::mutex> compiling(compileMutex);
  if (Specialization *existing = find(key))
    return *existing;

  JitOptions compileOptions = jitOptions;
  for (size_t i = 0; i < std::min(count, kMaxSpecializedParams); ++i) {
    uint64_t bit = uint64_t(1) << i;
    if (key.div16 & bit)
      compileOptions.assumptions.push_back({params[i].name, 16});
    if (key.one & bit)
      compileOptions.assumptions.push_back({params[i].name, 1});
  }

  std::optional<CompiledKernel> compiled;
  std::optional<Module> module;
  if (signature.configCount == 0) {
    auto result = compile(source, signature.kernelName, compileOptions);
    if (!result)
      throw Error(llvm::toString(result.takeError()));
    module = loadModule(context, *result);
    compiled = std::move(*result);
  } else {
    TuneRequest request;
    request.context = &context;
    request.source = &source;
    request.kernelName = signature.kernelName;
    request.options = compileOptions;
    request.configCount = signature.configCount;
    request.label = signature.kernelName;
    std::string values;
    for (unsigned index : signature.autotuneKeyParams) {
      request.keyValues.push_back(describeValue(params[index], args[index]));
      values += (values.empty() ? "" : ",") + request.keyValues.back();
    }
    if (!signature.autotuneKeyParams.empty())
      request.label += "[" + values + "]";
    request.grid = [&](const Metadata &metadata) {
      return gridFunction ? (*gridFunction)(LaunchMeta(metadata)) : *grid;
    };
    request.stream = stream;
    request.args = args;
    request.argCount = count;
    request.warmup = options.autotuneWarmup;
    request.repeats = options.autotuneRepeats;
    request.threads = options.compileThreads;
    request.quiet = options.quiet;
    TunedConfig tuned = tuneAtLaunch(request);
    compiled = std::move(tuned.compiled);
    module = std::move(tuned.module);
  }

  auto entry = std::make_unique<Specialization>(key, std::move(*compiled),
                                                std::move(*module));
  Specialization *published = entry.get();
  {
    std::unique_lock<std::shared_mutex> lock(mapMutex);
    specializations.emplace(key, std::move(entry));
  }
  return *published;
}

/// The specialization for `args`: the last one launched, the map, or a new
/// one. Only the last path allocates.
static Specialization &selectSpecialization(KernelState &state,
                                            const ArgValue *args, size_t count,
                                            const GridFunction *gridFunction,
                                            const Grid *grid, Stream *stream) {
  state.checkCount(count);
  SpecializationKey key = state.computeKey(args, count);
  Specialization *chosen = state.last.load(std::memory_order_acquire);
  if (!chosen || !(chosen->key == key)) {
    chosen = state.find(key);
    if (!chosen)
      chosen = &state.specialize(args, count, gridFunction, grid, stream);
    state.last.store(chosen, std::memory_order_release);
  }
  return *chosen;
}

void jit::Kernel::launchPacked(const Grid &grid, Stream *stream,
                          const ArgValue *args, size_t count) const {
  Specialization &chosen =
      selectSpecialization(*state, args, count, nullptr, &grid, stream);
  chosen.kernel.launchPacked(grid, stream, args, count);
}

void jit::Kernel::launchPacked(GridFunction grid, Stream *stream,
                          const ArgValue *args, size_t count) const {
  Specialization &chosen =
      selectSpecialization(*state, args, count, &grid, nullptr, stream);
  chosen.kernel.launchPacked(grid(chosen.meta), stream, args, count);
}

tk::Kernel jit::Kernel::select(const Grid &grid, Stream *stream,
                          const ArgValue *args, size_t count) const {
  return selectSpecialization(*state, args, count, nullptr, &grid, stream)
      .kernel;
}
