//===- Module.h - Loaded kernels and launching them -------------*- C++ -*-===//

#ifndef TK_MODULE_H
#define TK_MODULE_H

#include "tk/ArgValue.h"
#include "tk/Backend.h"
#include "tk/Buffer.h"
#include "tk/Grid.h"
#include "tk/Metadata.h"
#include "tk/Stream.h"

#include <array>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tk {

class Context;

namespace detail {
/// What a Module and its Kernels share; keeps the backend alive and
/// destroys the ModuleImpl before it.
struct ModuleState {
  std::shared_ptr<Backend> backend;
  DeviceInfo device;
  Metadata metadata;
  std::unique_ptr<ModuleImpl> impl;
  ~ModuleState();
};
} // namespace detail

/// A launchable kernel. Cheap to copy; keeps its module loaded.
class Kernel {
public:
  const std::string &name() const { return state->metadata.name; }
  const Metadata &metadata() const { return state->metadata; }

  /// Launches on `stream`. Arguments map to parameter types as follows:
  /// tk::DevicePtr, tk::Buffer, void* -> any pointer (element unchecked);
  /// tk::TypedPtr<T>, T* -> *T; bool -> i1; int8_t..int64_t -> i8..i64;
  /// uint8_t..uint64_t -> u8..u64; int -> any integer type that can hold
  /// the value; tk::half -> f16; tk::bf16 -> bf16; float -> f32;
  /// double -> f64. Everything is checked (see checkArguments) before
  /// anything is launched; a violation is a tk::Error.
  template <typename... Args>
  void launch(const Grid &grid, Stream &stream, Args &&...args) const {
    const std::array<ArgValue, sizeof...(Args)> packed{
        {toArgValue(std::forward<Args>(args))...}};
    launchPacked(grid, &stream, packed.data(), packed.size());
  }
  /// Launches on the default stream.
  template <typename... Args>
  void launch(const Grid &grid, Args &&...args) const {
    const std::array<ArgValue, sizeof...(Args)> packed{
        {toArgValue(std::forward<Args>(args))...}};
    launchPacked(grid, nullptr, packed.data(), packed.size());
  }

  /// The same with prepared arguments (tools such as tk-run); `stream` may
  /// be nullptr for the default stream.
  void launchPacked(const Grid &grid, Stream *stream,
                    const std::vector<ArgValue> &args) const {
    launchPacked(grid, stream, args.data(), args.size());
  }
  /// The same from an array; allocates nothing once the calling thread has
  /// launched a kernel with as many parameters (the checked copy of the
  /// arguments lives in a per-thread buffer).
  void launchPacked(const Grid &grid, Stream *stream, const ArgValue *args,
                    size_t count) const;

private:
  friend class Module;
  explicit Kernel(std::shared_ptr<detail::ModuleState> state)
      : state(std::move(state)) {}
  std::shared_ptr<detail::ModuleState> state;
};

/// One compiled kernel loaded into a context.
class Module {
public:
  /// Loads from the metadata file NAME.json, or from NAME.cubin / NAME.ptx
  /// with NAME.json beside it. The metadata is authoritative: the binary
  /// loaded is the one its "binary" field names (relative to its folder).
  static Module load(const Context &context, const std::string &path);
  /// Loads from metadata JSON text and the binary's bytes (cubin, or PTX
  /// text); the metadata's "binary" file name is then only informative.
  static Module loadFromMemory(const Context &context,
                               std::string_view metadataJson,
                               std::string_view binary);
  /// Loads a prepared image (e.g. a JIT that holds Metadata in memory).
  static Module loadImage(const Context &context, ModuleImage image);

  const Metadata &metadata() const { return state->metadata; }
  /// The kernel `name`; an Error naming the available kernel otherwise.
  Kernel kernel(const std::string &name) const;
  /// The module's only kernel.
  Kernel kernel() const { return Kernel(state); }

private:
  explicit Module(std::shared_ptr<detail::ModuleState> state)
      : state(std::move(state)) {}
  std::shared_ptr<detail::ModuleState> state;
};

} // namespace tk

#endif // TK_MODULE_H
