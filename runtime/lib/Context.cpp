//===- Context.cpp - Choosing a backend -----------------------------------===//

#include "tk/Context.h"
#include "tk/Buffer.h"
#include "tk/Error.h"
#include "tk/Stream.h"

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

Context Context::create(Mode mode) {
  const std::string notLinked =
      "the CPU interpreter is not linked into this program (link tk's "
      "interpreter library, which registers the \"interpreter\" backend)";
  switch (mode) {
  case Mode::Gpu:
    return createWithBackend(kCuda);
  case Mode::Interpreter:
    if (!isBackendRegistered(kInterpreter))
      throw Error("Mode::Interpreter: " + notLinked);
    return createWithBackend(kInterpreter);
  case Mode::Auto:
    break;
  }
  if (interpretRequested()) {
    if (!isBackendRegistered(kInterpreter))
      throw Error("TK_INTERPRET asks for the CPU interpreter, but " +
                  notLinked);
    return createWithBackend(kInterpreter);
  }
  try {
    return createWithBackend(kCuda);
  } catch (const Error &gpuError) {
    if (isBackendRegistered(kInterpreter))
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
