//===- common.h - Shared plumbing of the example host programs -*- C++ -*-===//
//
// Each example host program loads one AOT-compiled kernel with libtkrt,
// runs it on deterministic random inputs, compares the result with a
// double-precision CPU reference and prints exactly one verdict line:
//
//   PASS name
//   FAIL name: reason
//
// and exits with 0 or 1. Only the runtime API (tk::Context, Buffer, Module,
// Kernel, Event) is used, so the same program runs on a GPU or, with
// TK_INTERPRET=1 or no GPU, in the CPU interpreter. The problem sizes are
// the same on both (the interpreter runs each example in well under a
// second); TK_EXAMPLES_SMALL=1 shrinks them, for slow builds of the
// interpreter (sanitizers, debug).
//
// Usage: example-NAME [KERNEL_DIR]; KERNEL_DIR defaults to the build's
// examples/kernels folder, where the build puts NAME.json and its binary.
//
//===----------------------------------------------------------------------===//

#ifndef TK_EXAMPLES_HOST_COMMON_H
#define TK_EXAMPLES_HOST_COMMON_H

#include "tk/runtime.h"

#ifdef TK_EXAMPLES_WITH_INTERPRETER
#include "compiler/interpreter/Backend.h"
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#ifndef TK_EXAMPLES_KERNEL_DIR
#define TK_EXAMPLES_KERNEL_DIR "examples/kernels"
#endif

namespace examples {

//===----------------------------------------------------------------------===//
// Failures
//===----------------------------------------------------------------------===//

/// Thrown by checks; its message becomes the reason in "FAIL name: reason".
struct CheckFailure : std::exception {
  std::string message;
  explicit CheckFailure(std::string message) : message(std::move(message)) {}
  const char *what() const noexcept override { return message.c_str(); }
};

[[noreturn]] inline void fail(const std::string &message) {
  throw CheckFailure(message);
}

/// `value` with `digits` significant digits (enough by default to show
/// how two nearby floats differ).
inline std::string formatDouble(double value, int digits = 9) {
  std::ostringstream os;
  os.precision(digits);
  os << value;
  return os.str();
}

//===----------------------------------------------------------------------===//
// The environment of one run
//===----------------------------------------------------------------------===//

class Session {
public:
  Session(std::string exampleName, int argc, char **argv)
      : exampleName(std::move(exampleName)),
        kernelDir(argc > 1 ? argv[1] : TK_EXAMPLES_KERNEL_DIR),
        context(createContext()) {
    const char *small = std::getenv("TK_EXAMPLES_SMALL");
    fullSize = small == nullptr || *small == '\0' ||
               std::strcmp(small, "0") == 0;
    std::printf("  %s: backend %s%s, kernels from %s\n",
                this->exampleName.c_str(), context.backendName().c_str(),
                fullSize ? "" : " (reduced sizes: TK_EXAMPLES_SMALL)",
                kernelDir.c_str());
  }

  const tk::Context &ctx() const { return context; }
  bool isInterpreter() const { return context.isInterpreter(); }

  /// `full`, or `reduced` with TK_EXAMPLES_SMALL=1.
  int64_t size(int64_t full, int64_t reduced) const {
    return fullSize ? full : reduced;
  }

  /// KERNEL_DIR/NAME.json
  std::string kernelPath(const std::string &name) const {
    return kernelDir + "/" + name + ".json";
  }
  /// Loads KERNEL_DIR/NAME.json and returns its (only) kernel.
  tk::Kernel loadKernel(const std::string &name) const {
    return tk::Module::load(context, kernelPath(name)).kernel();
  }
  /// Whether KERNEL_DIR/NAME.json exists (for optional variants).
  bool hasKernel(const std::string &name) const {
    std::FILE *file = std::fopen(kernelPath(name).c_str(), "rb");
    if (file == nullptr)
      return false;
    std::fclose(file);
    return true;
  }

  /// A new buffer holding a copy of `values`.
  template <typename T> tk::Buffer upload(const std::vector<T> &values) {
    tk::Buffer buffer = context.alloc(values.size() * sizeof(T));
    buffer.upload(values);
    return buffer;
  }
  /// A buffer of `count` elements of T whose every byte is 0xFF: NaN for
  /// f32/f16/bf16, -1 for integers. An element the kernel should have
  /// written but did not shows up in the comparison.
  template <typename T> tk::Buffer poisoned(size_t count) {
    tk::Buffer buffer = context.alloc(count * sizeof(T));
    buffer.fill(0xFF);
    return buffer;
  }

private:
  static tk::Context createContext() {
#ifdef TK_EXAMPLES_WITH_INTERPRETER
    // The interpreter lives in its own library (it needs MLIR); linking it
    // is not enough, it must be registered before a context is created.
    tk::registerInterpreterBackend();
#endif
    return tk::Context::create();
  }

  std::string exampleName;
  std::string kernelDir;
  tk::Context context;
  bool fullSize = true;
};

/// The value of constexpr `name` that the kernel was compiled with (from
/// its metadata), so that grids follow whatever -D the build used.
inline int64_t constexprValue(const tk::Kernel &kernel,
                              const std::string &name) {
  for (const tk::Constexpr &value : kernel.metadata().constexprs)
    if (value.name == name)
      return value.kind == tk::Constexpr::Kind::Float
                 ? static_cast<int64_t>(value.floatValue)
                 : value.intValue;
  fail("kernel '" + kernel.name() + "' has no constexpr '" + name +
       "' in its metadata");
}

inline int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

//===----------------------------------------------------------------------===//
// Deterministic random inputs
//===----------------------------------------------------------------------===//

class Random {
public:
  explicit Random(uint32_t seed) : engine(seed) {}

  std::vector<float> normal(size_t count, float mean = 0.f,
                            float stddev = 1.f) {
    std::normal_distribution<float> dist(mean, stddev);
    std::vector<float> values(count);
    for (float &v : values)
      v = dist(engine);
    return values;
  }
  std::vector<float> uniform(size_t count, float lo, float hi) {
    std::uniform_real_distribution<float> dist(lo, hi);
    std::vector<float> values(count);
    for (float &v : values)
      v = dist(engine);
    return values;
  }

private:
  std::mt19937 engine;
};

/// Rounds to the 16-bit storage types (round to nearest even), element-wise.
inline std::vector<tk::bf16> toBf16(const std::vector<float> &values) {
  std::vector<tk::bf16> out(values.size());
  for (size_t i = 0; i < values.size(); ++i)
    out[i] = tk::bf16(values[i]);
  return out;
}
inline std::vector<tk::half> toHalf(const std::vector<float> &values) {
  std::vector<tk::half> out(values.size());
  for (size_t i = 0; i < values.size(); ++i)
    out[i] = tk::half(values[i]);
  return out;
}
/// toHalf or toBf16, by the element type T (tk::half or tk::bf16).
template <typename T> std::vector<T> toElements(const std::vector<float> &v) {
  if constexpr (std::is_same_v<T, tk::bf16>)
    return toBf16(v);
  else
    return toHalf(v);
}
template <typename T> std::vector<double> toDouble(const std::vector<T> &v) {
  std::vector<double> out(v.size());
  for (size_t i = 0; i < v.size(); ++i)
    out[i] = static_cast<double>(static_cast<float>(v[i]));
  return out;
}

//===----------------------------------------------------------------------===//
// Comparison with the reference
//===----------------------------------------------------------------------===//

/// Checks that every output is finite (catches unwritten, still poisoned
/// elements) and that the relative L2 error ||out - ref|| / ||ref|| is at
/// most `tolerance` (the measure shared/bench/triton_ref.py reports).
/// Returns the error.
inline double checkClose(const std::string &what,
                         const std::vector<double> &out,
                         const std::vector<double> &ref, double tolerance) {
  if (out.size() != ref.size())
    fail(what + ": " + std::to_string(out.size()) + " outputs, expected " +
         std::to_string(ref.size()));
  double diffSq = 0, refSq = 0, worst = -1;
  size_t worstIndex = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    if (!std::isfinite(out[i]))
      fail(what + "[" + std::to_string(i) + "] = " + formatDouble(out[i]) +
           " (expected " + formatDouble(ref[i]) + ")");
    double diff = out[i] - ref[i];
    diffSq += diff * diff;
    refSq += ref[i] * ref[i];
    if (std::fabs(diff) > worst) {
      worst = std::fabs(diff);
      worstIndex = i;
    }
  }
  double error = refSq > 0 ? std::sqrt(diffSq / refSq) : std::sqrt(diffSq);
  if (!(error <= tolerance))
    fail(what + ": relative error " + formatDouble(error, 3) + " > " +
         formatDouble(tolerance, 3) + "; worst at [" +
         std::to_string(worstIndex) + "]: " +
         formatDouble(out[worstIndex]) + " vs " +
         formatDouble(ref[worstIndex]));
  std::printf("  %s: relative error %.3g (tolerance %.3g)\n", what.c_str(),
              error, tolerance);
  return error;
}

/// Checks that `bytes` bytes at `offset` of a downloaded buffer still hold
/// the 0xFF poison: the kernel must not write outside its rows.
inline void checkUntouched(const std::string &what,
                           const std::vector<uint8_t> &bytes, size_t offset,
                           size_t count) {
  for (size_t i = offset; i < offset + count; ++i)
    if (bytes[i] != 0xFF)
      fail(what + ": byte " + std::to_string(i) +
           " outside the output was overwritten");
}

//===----------------------------------------------------------------------===//
// Timing
//===----------------------------------------------------------------------===//

/// Milliseconds per call of `launch`, measured with runtime events. On a GPU
/// after a few warm-up calls over `iterations` calls; in the interpreter one
/// call (which is slow, and only says how slow).
inline double timeMs(Session &session, const std::function<void()> &launch,
                     int iterations = 50) {
  int count = session.isInterpreter() ? 1 : iterations;
  if (!session.isInterpreter())
    for (int i = 0; i < 3; ++i)
      launch();
  tk::Event start(session.ctx()), stop(session.ctx());
  start.record();
  for (int i = 0; i < count; ++i)
    launch();
  stop.record();
  stop.sync();
  return stop.elapsedMsSince(start) / count;
}

/// Prints "  name: X ms, Y GB/s" for `bytes` moved per call.
inline void reportBandwidth(const std::string &what, double ms,
                            double bytes) {
  std::printf("  %s: %.4f ms, %.1f GB/s\n", what.c_str(), ms,
              bytes / (ms * 1e-3) / 1e9);
}

//===----------------------------------------------------------------------===//
// main()
//===----------------------------------------------------------------------===//

/// Runs `body`, prints the verdict line and returns the exit code. Any
/// tk::Error (bad metadata, rejected argument, kernel failure) or check
/// failure becomes "FAIL name: message".
inline int runExample(const std::string &name, int argc, char **argv,
                      const std::function<void(Session &)> &body) {
  try {
    Session session(name, argc, argv);
    body(session);
  } catch (const CheckFailure &failure) {
    std::printf("FAIL %s: %s\n", name.c_str(), failure.what());
    return 1;
  } catch (const tk::Error &error) {
    std::printf("FAIL %s: %s\n", name.c_str(), error.what());
    return 1;
  } catch (const std::exception &error) {
    std::printf("FAIL %s: unexpected exception: %s\n", name.c_str(),
                error.what());
    return 1;
  }
  std::printf("PASS %s\n", name.c_str());
  return 0;
}

} // namespace examples

#endif // TK_EXAMPLES_HOST_COMMON_H
