//===- ContextTest.cpp - Choosing a backend -------------------------------===//
//
// Runs on machines with and without a GPU: where a GPU is present the
// "no GPU" expectations are replaced by checks that the GPU was chosen.
//
//===----------------------------------------------------------------------===//

#include "FakeBackend.h"

#include "CudaBackend.h" // To restore the built-in "cuda" backend.

#include "tk/runtime.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

using namespace tk;
using namespace tk::testing;

namespace {

/// Sets (or unsets, for nullptr) TK_INTERPRET for one test.
class ScopedInterpretEnv {
public:
  explicit ScopedInterpretEnv(const char *value) {
    if (const char *old = std::getenv("TK_INTERPRET"))
      saved = old;
    if (value)
      ::setenv("TK_INTERPRET", value, 1);
    else
      ::unsetenv("TK_INTERPRET");
  }
  ~ScopedInterpretEnv() {
    if (saved)
      ::setenv("TK_INTERPRET", saved->c_str(), 1);
    else
      ::unsetenv("TK_INTERPRET");
  }

private:
  std::optional<std::string> saved;
};

template <typename F> std::string errorOf(F &&f) {
  try {
    f();
  } catch (const Error &e) {
    return e.what();
  }
  return "";
}

bool startsWith(const std::string &s, const std::string &prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

/// Whether this machine can create the CUDA backend at all.
bool gpuAvailable() {
  try {
    Context::create(Mode::Gpu);
    return true;
  } catch (const Error &) {
    return false;
  }
}

class ContextTest : public ::testing::Test {
protected:
  void TearDown() override {
    unregisterBackend("interpreter");
    registerBackend("cuda", [] { return detail::createCudaBackend(); });
  }
};

TEST_F(ContextTest, BuiltInCudaIsRegistered) {
  EXPECT_TRUE(isBackendRegistered("cuda"));
  std::vector<std::string> names = registeredBackendNames();
  EXPECT_NE(std::find(names.begin(), names.end(), "cuda"), names.end());
}

TEST_F(ContextTest, GpuModeWithoutDriverIsACleanError) {
  ScopedInterpretEnv env(nullptr);
  if (gpuAvailable()) {
    Context ctx = Context::create(Mode::Gpu);
    EXPECT_EQ(ctx.backendName(), "cuda");
    EXPECT_FALSE(ctx.isInterpreter());
    EXPECT_GT(ctx.deviceInfo().computeMajor, 0);
    GTEST_SKIP() << "a GPU is present: " << ctx.deviceInfo().name;
  }
  std::string message = errorOf([] { Context::create(Mode::Gpu); });
  // No driver here: "no CUDA driver found (libcuda.so.1): <dlerror>"; with
  // a driver but no device: "no CUDA device found (...)".
  EXPECT_TRUE(startsWith(message, "no CUDA driver found (libcuda.so.1)") ||
              startsWith(message, "no CUDA device found"))
      << message;
  // The same clean error every time (the driver is probed once).
  EXPECT_EQ(errorOf([] { Context::create(Mode::Gpu); }), message);
}

TEST_F(ContextTest, AutoWithoutGpuOrInterpreterIsACleanError) {
  ScopedInterpretEnv env(nullptr);
  if (gpuAvailable()) {
    EXPECT_EQ(Context::create().backendName(), "cuda");
    GTEST_SKIP() << "a GPU is present";
  }
  std::string gpuError = errorOf([] { Context::create(Mode::Gpu); });
  EXPECT_EQ(errorOf([] { Context::create(); }),
            "no GPU found (" + gpuError +
                ") and the CPU interpreter is not linked");
}

TEST_F(ContextTest, AutoFallsBackToTheInterpreter) {
  ScopedInterpretEnv env(nullptr);
  // Make "no GPU" deterministic, whatever this machine has.
  registerBackend("cuda", []() -> std::unique_ptr<Backend> {
    throw Error("no CUDA driver found (libcuda.so.1): test");
  });
  registerFakeBackend("interpreter");
  Context ctx = Context::create();
  EXPECT_EQ(ctx.backendName(), "interpreter");
  EXPECT_TRUE(ctx.isInterpreter());
}

TEST_F(ContextTest, AutoPrefersTheGpu) {
  ScopedInterpretEnv env(nullptr);
  registerFakeBackend("cuda");
  registerFakeBackend("interpreter");
  Context ctx = Context::create();
  EXPECT_EQ(ctx.backendName(), "cuda");
  EXPECT_FALSE(ctx.isInterpreter());
}

TEST_F(ContextTest, InterpretEnvWithoutInterpreter) {
  for (const char *value : {"1", "true", "TRUE", "yes", "on"}) {
    ScopedInterpretEnv env(value);
    EXPECT_EQ(errorOf([] { Context::create(); }),
              "TK_INTERPRET asks for the CPU interpreter, but the CPU "
              "interpreter is not linked into this program (link tk's "
              "interpreter library, which registers the \"interpreter\" "
              "backend)")
        << value;
  }
}

TEST_F(ContextTest, InterpretEnvPicksTheInterpreter) {
  registerFakeBackend("cuda");
  registerFakeBackend("interpreter");
  {
    ScopedInterpretEnv env("1");
    EXPECT_TRUE(Context::create().isInterpreter());
  }
  {
    ScopedInterpretEnv env("true");
    EXPECT_TRUE(Context::create().isInterpreter());
  }
  for (const char *off : {"0", "false", "", "off", "no"}) {
    ScopedInterpretEnv env(off);
    EXPECT_EQ(Context::create().backendName(), "cuda") << off;
  }
  {
    ScopedInterpretEnv env("maybe");
    EXPECT_EQ(errorOf([] { Context::create(); }),
              "TK_INTERPRET='maybe' is not a boolean (use 1 or 0)");
  }
  {
    // The environment only steers Mode::Auto.
    ScopedInterpretEnv env("1");
    EXPECT_EQ(Context::create(Mode::Gpu).backendName(), "cuda");
  }
}

TEST_F(ContextTest, InterpreterModeWithoutInterpreter) {
  EXPECT_EQ(errorOf([] { Context::create(Mode::Interpreter); }),
            "Mode::Interpreter: the CPU interpreter is not linked into this "
            "program (link tk's interpreter library, which registers the "
            "\"interpreter\" backend)");
  registerFakeBackend("interpreter");
  EXPECT_TRUE(Context::create(Mode::Interpreter).isInterpreter());
}

TEST_F(ContextTest, UnknownBackend) {
  registerFakeBackend("interpreter");
  EXPECT_EQ(errorOf([] { Context::createWithBackend("tpu"); }),
            "no backend named 'tpu' is registered (registered: cuda, "
            "interpreter)");
  EXPECT_TRUE(unregisterBackend("interpreter"));
  EXPECT_FALSE(unregisterBackend("interpreter"));
}

TEST_F(ContextTest, FactoryReturningNothing) {
  registerBackend("interpreter", [] { return std::unique_ptr<Backend>(); });
  EXPECT_EQ(errorOf([] { Context::create(Mode::Interpreter); }),
            "the factory of backend 'interpreter' returned nothing");
}

} // namespace
