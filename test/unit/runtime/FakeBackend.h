//===- FakeBackend.h - A recording backend for libtkrt's tests -*- C++ -*-===//
//
// "Device" memory is host memory (addresses are host pointers, 256-byte
// aligned); kernels do not run, their launches are recorded with the
// arguments exactly as a real backend would receive them.
//
//===----------------------------------------------------------------------===//

#ifndef TK_TEST_UNIT_RUNTIME_FAKEBACKEND_H
#define TK_TEST_UNIT_RUNTIME_FAKEBACKEND_H

#include "tk/runtime.h"

#include <memory>
#include <string>
#include <vector>

namespace tk {
namespace testing {

struct LaunchRecord {
  std::string kernel;
  Grid grid;
  bool onStream = false;
  std::vector<ArgValue> args;
};

/// What the tests observe; shared by every backend the factory creates.
struct FakeState {
  std::string name = "fake";
  DeviceInfo device;
  std::vector<LaunchRecord> launches;
  std::vector<ModuleImage> loadedImages;
  int liveAllocations = 0;
  int liveModules = 0;
  /// When set, the next sync() throws this message.
  std::string syncFailure;
};

/// Registers a fake backend named state->name; returns the state.
std::shared_ptr<FakeState> registerFakeBackend(const std::string &name = "fake");

/// A valid metadata JSON text for kernel `name` with the given args array
/// (JSON text) and extra top-level fields (JSON text, with a leading comma).
std::string metadataJson(const std::string &name, const std::string &argsJson,
                         const std::string &extraFields = "");

} // namespace testing
} // namespace tk

#endif // TK_TEST_UNIT_RUNTIME_FAKEBACKEND_H
