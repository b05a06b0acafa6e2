//===- Context.h - The entry point: one backend, one device ----*- C++ -*-===//

#ifndef TK_CONTEXT_H
#define TK_CONTEXT_H

#include "tk/Backend.h"

#include <cstddef>
#include <memory>
#include <string>

namespace tk {

class Buffer;
class Event;
class Stream;

enum class Mode {
  /// TK_INTERPRET=1 (or true/yes/on): the interpreter. Otherwise the GPU if
  /// a driver and a device are present, else the interpreter if linked,
  /// else an Error. Prints nothing; ask backendName() / isInterpreter().
  Auto,
  /// The "cuda" backend or an Error saying why not.
  Gpu,
  /// The "interpreter" backend or an Error saying it is not linked.
  Interpreter,
};

/// A handle to one backend instance (for CUDA: one device's primary
/// context). Copies share it; buffers, streams and modules keep it alive.
class Context {
public:
  /// `device` is the CUDA device ordinal the GPU backend uses; the
  /// interpreter has only device 0 (another ordinal is an Error).
  static Context create(Mode mode = Mode::Auto, int device = 0);
  /// Any registered backend by name (tests, tools).
  static Context createWithBackend(const std::string &backendName);

  const std::string &backendName() const;
  bool isInterpreter() const;
  const DeviceInfo &deviceInfo() const;
  /// The device ordinal the context was created for.
  int deviceOrdinal() const { return state->ordinal; }

  /// A device allocation of `bytes` bytes (0 is allowed: a valid, non-null
  /// address with nothing behind it).
  Buffer alloc(size_t bytes) const;
  Stream createStream() const;
  Event createEvent() const;
  /// Waits for all launched work. A kernel that failed asynchronously
  /// surfaces here as a tk::Error naming the last launched kernel.
  void sync() const;

  Backend &backend() const { return *state->backend; }
  const std::shared_ptr<Backend> &sharedBackend() const {
    return state->backend;
  }

private:
  struct State {
    std::shared_ptr<Backend> backend;
    std::string name;
    DeviceInfo device;
    int ordinal = 0;
  };
  explicit Context(std::shared_ptr<State> state) : state(std::move(state)) {}
  static Context createGpu(int ordinal);
  std::shared_ptr<State> state;
};

} // namespace tk

#endif // TK_CONTEXT_H
