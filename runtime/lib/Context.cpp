//===- Context.cpp - Choosing a backend -----------------------------------===//

#include "tk/Context.h"
#include "tk/Buffer.h"
#include "tk/Error.h"
#include "tk/Stream.h"

#include "CudaBackend.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

using namespace tk;

static const char *const kInterpreter = "interpreter";
static const char *const kCuda = "cuda";

/// TK_INTERPRET as a boolean: unset/empty/0/false/no/off -> false,
/// 1/true/yes/on -> true (any case), anything else -> an Error.
static bool interpretRequested() {
  const char *value = std::getenv("TK_INTERPRET");
  if (!value)
    return false;
  std::string text = value;
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  if (text.empty() || text == "0" || text == "false" || text == "no" ||
      text == "off")
    return false;
  if (text == "1" || text == "true" || text == "yes" || text == "on")
    return true;
  throw Error(std::string("TK_INTERPRET='") + value +
              "' is not a boolean (use 1 or 0)");
}

Context Context::createWithBackend(const std::string &backendName) {
  auto state = std::make_shared<State>();
  state->backend = createBackend(backendName);
  state->name = state->backend->name();
  state->device = state->backend->deviceInfo();
  return Context(std::move(state));
}

/// The CUDA backend on device `ordinal`: device 0 through the registry (a
/// test may register its own "cuda"), any other straight from the driver.
Context Context::createGpu(int ordinal) {
  if (ordinal == 0)
    return createWithBackend(kCuda);
  auto state = std::make_shared<State>();
  state->backend = detail::createCudaBackend(ordinal);
  state->name = state->backend->name();
  state->device = state->backend->deviceInfo();
  state->ordinal = ordinal;
  return Context(std::move(state));
}

Context Context::create(Mode mode, int device) {
  const std::string notLinked =
      "the CPU interpreter is not linked into this program (link tk's "
      "interpreter library, which registers the \"interpreter\" backend)";
  auto interpreter = [&](const std::string &why) {
    if (!isBackendRegistered(kInterpreter))
      throw Error(why + notLinked);
    if (device != 0)
      throw Error("the CPU interpreter has one device, 0; device " +
                  std::to_string(device) + " was asked for");
    return createWithBackend(kInterpreter);
  };
  switch (mode) {
  case Mode::Gpu:
    return createGpu(device);
  case Mode::Interpreter:
    return interpreter("Mode::Interpreter: ");
  case Mode::Auto:
    break;
  }
  if (interpretRequested())
    return interpreter("TK_INTERPRET asks for the CPU interpreter, but ");
  try {
    return createGpu(device);
  } catch (const Error &gpuError) {
    if (isBackendRegistered(kInterpreter) && device == 0)
      return createWithBackend(kInterpreter);
    throw Error(std::string("no GPU found (") + gpuError.what() +
                ") and the CPU interpreter is not linked");
  }
}

const std::string &Context::backendName() const { return state->name; }

bool Context::isInterpreter() const { return state->name == kInterpreter; }

const DeviceInfo &Context::deviceInfo() const { return state->device; }

Buffer Context::alloc(size_t bytes) const {
  // A zero-byte request still gets a real address, so that an empty
  // tensor's buffer can be passed to a kernel that touches none of it.
  DevicePtr address = state->backend->alloc(bytes ? bytes : 1);
  return Buffer(state->backend, address, bytes);
}

Stream Context::createStream() const { return Stream(*this); }

Event Context::createEvent() const { return Event(*this); }

void Context::sync() const { state->backend->sync(); }
