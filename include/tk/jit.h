//===- jit.h - tk's launch-time JIT (C++ API) -------------------*- C++ -*-===//
//
// Calling a .tk kernel the way a Triton user calls a @triton.jit function:
// the handle compiles on the first launch of each specialization, keeps the
// loaded kernels, and launches the matching one every time after that.
//
//   tk::Context ctx = tk::Context::create();
//   auto k = tk::jit::Kernel::fromFile(ctx, "softmax.tk", "softmax",
//                                      {.defines = {{"BLOCK", "1024"}}});
//   k.launch({rows}, stream, out, in, stride, stride, cols);
//   k.launch([&](const tk::jit::LaunchMeta &meta) {   // grid from constexprs
//     return tk::Grid((n + meta["BLOCK"] - 1) / meta["BLOCK"]);
//   }, stream, x, y, out, n);
//
// Specialization (as Triton's JIT): each integer argument divisible by 16,
// each integer equal to 1 and each pointer aligned to 16 bytes is part of
// the key; a new combination compiles a kernel that assumes it (through the
// on-disk kernel cache, docs/cache.md). `@kernel(do_not_specialize=["n"])`
// exempts a parameter. A launch whose specialization exists costs a small
// fixed-size key, one hash-map lookup and libtkrt's argument checks: no
// hashing of source text, no allocation.
//
// @autotune kernels are tuned at the first launch of each key (the values
// of the decorator's key=[...] arguments plus the specialization): every
// config compiles in parallel on a thread pool, each is timed with the
// launch's own arguments, the fastest is kept and remembered in the cache.
// Progress goes to stderr,
//   autotune softmax[4096]: config 3/8 0.412 ms (best 0.398 ms, config 2)
// unless KernelOptions::quiet or TK_AUTOTUNE_QUIET=1; TK_AUTOTUNE=off takes
// the first config without timing.
//
// Errors (compile errors with their .tk positions, argument mismatches) are
// tk::Error exceptions, as in libtkrt. docs/api.md has the whole API.
//
// Link tk::jit (libtkjit) and tk::tkrt; this header needs no LLVM.
//
//===----------------------------------------------------------------------===//
#ifndef TK_JIT_H
#define TK_JIT_H

#include "tk/runtime.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace tk::jit {

/// How a handle compiles and tunes.
struct KernelOptions {
  /// Constexpr values, NAME=VALUE text as tkc's -D ({"BLOCK", "1024"}).
  std::vector<std::pair<std::string, std::string>> defines;
  /// Unset: the @kernel(...) / @autotune config value, else 4 and 3.
  std::optional<unsigned> numWarps;
  std::optional<unsigned> numStages;
  /// Registers per thread at most (Triton's maxnreg), a multiple of 8
  /// from 24 to 256; unset: the kernel's maxnreg=, else none.
  std::optional<unsigned> maxRegisters;
  /// Empty: from the device (sm_90a on compute capability 9.0, sm_80 on
  /// 8.x, sm_80 PTX elsewhere); ignored by the interpreter.
  std::string arch;
  /// False: one kernel for all arguments (no per-launch specialization).
  bool specialize = true;
  /// False: neither read nor write the on-disk kernel cache.
  bool useCache = true;
  /// Empty: the cache the environment names (TK_CACHE_DIR, ...).
  std::string cacheDir;
  /// No autotune progress on stderr (also TK_AUTOTUNE_QUIET=1).
  bool quiet = false;
  /// Untimed and timed launches of each @autotune config.
  unsigned autotuneWarmup = 2;
  unsigned autotuneRepeats = 10;
  /// Threads compiling @autotune configs; 0: one per core.
  unsigned compileThreads = 0;
};

/// A run-time parameter of the kernel (constexprs are not parameters).
struct Param {
  std::string name;
  ArgType type;
  /// Whether launches specialize on it (pointers and integers other than
  /// i1, unless do_not_specialize names it).
  bool specialized = false;
};

/// What a grid function sees: the constexpr values of the kernel it sizes
/// the grid for (with @autotune, of each config in turn).
class LaunchMeta {
public:
  explicit LaunchMeta(const Metadata &metadata) : md(&metadata) {}
  /// The integer (or bool) value of constexpr `name`; tk::Error if absent.
  int64_t operator[](std::string_view name) const;
  int64_t get(std::string_view name, int64_t fallback) const;
  int numWarps() const { return md->numWarps; }
  const Metadata &metadata() const { return *md; }

private:
  const Metadata *md;
};

/// A non-owning reference to a callable Grid(const LaunchMeta &).
class GridFunction {
public:
  template <typename F,
            std::enable_if_t<!std::is_same_v<std::decay_t<F>, GridFunction>,
                             int> = 0>
  GridFunction(F &&function)
      : object(const_cast<void *>(static_cast<const void *>(&function))),
        invoke([](void *object, const LaunchMeta &meta) -> Grid {
          return (*static_cast<std::remove_reference_t<F> *>(object))(meta);
        }) {}
  Grid operator()(const LaunchMeta &meta) const { return invoke(object, meta); }

private:
  void *object;
  Grid (*invoke)(void *, const LaunchMeta &);
};

namespace detail {
struct KernelState;
template <typename F>
constexpr bool isGridFunction =
    std::is_invocable_r_v<Grid, F &, const LaunchMeta &>;
} // namespace detail

/// A .tk kernel compiled at launch time. Cheap to copy (copies share the
/// compiled specializations); safe to launch from several threads.
class Kernel {
public:
  /// Reads the parameters, decorators and do_not_specialize of kernel
  /// `name` (empty: the file's only kernel); compiles nothing yet. Throws
  /// tk::Error with the compiler's message for a syntax error or a missing
  /// kernel.
  static Kernel fromFile(const Context &context, const std::string &path,
                         const std::string &name = "",
                         KernelOptions options = {});
  /// The same from source text; `sourceName` appears in messages.
  static Kernel fromSource(const Context &context, const std::string &source,
                           const std::string &name = "",
                           KernelOptions options = {},
                           const std::string &sourceName = "<source>");

  /// Launches with the specialization the arguments select, compiling (and
  /// tuning) it first if it is new. Arguments as for tk::Kernel::launch.
  template <typename... Args>
  void launch(const Grid &grid, Stream &stream, Args &&...args) const {
    const std::array<ArgValue, sizeof...(Args)> packed{
        {toArgValue(std::forward<Args>(args))...}};
    launchPacked(grid, &stream, packed.data(), packed.size());
  }
  template <typename... Args>
  void launch(const Grid &grid, Args &&...args) const {
    const std::array<ArgValue, sizeof...(Args)> packed{
        {toArgValue(std::forward<Args>(args))...}};
    launchPacked(grid, nullptr, packed.data(), packed.size());
  }
  /// With the grid computed from the constexprs (Triton's grid lambda).
  template <typename F, typename... Args,
            std::enable_if_t<detail::isGridFunction<F>, int> = 0>
  void launch(F &&grid, Stream &stream, Args &&...args) const {
    const std::array<ArgValue, sizeof...(Args)> packed{
        {toArgValue(std::forward<Args>(args))...}};
    launchPacked(GridFunction(grid), &stream, packed.data(), packed.size());
  }

  /// Prepared arguments; `stream` may be nullptr (the default stream).
  void launchPacked(const Grid &grid, Stream *stream, const ArgValue *args,
                    size_t count) const;
  void launchPacked(GridFunction grid, Stream *stream, const ArgValue *args,
                    size_t count) const;

  /// The libtkrt kernel these arguments select (compiled and tuned as a
  /// launch would, without launching unless tuning needs to).
  tk::Kernel select(const Grid &grid, Stream *stream, const ArgValue *args,
                    size_t count) const;

  const std::string &name() const;
  const std::vector<Param> &params() const;
  /// The names in @autotune(key=[...]); empty without @autotune.
  const std::vector<std::string> &autotuneKey() const;
  /// The number of @autotune configs; 0 without @autotune.
  size_t autotuneConfigCount() const;
  /// How many specializations have been compiled so far.
  size_t specializationCount() const;

private:
  explicit Kernel(std::shared_ptr<detail::KernelState> state)
      : state(std::move(state)) {}
  std::shared_ptr<detail::KernelState> state;
};

} // namespace tk::jit

#endif // TK_JIT_H
