//===- KernelHarness.h - Running tk IR snippets in unit tests ----*- C++ -*-===//
//
// Loads a kernel from IR text, owns the buffers it runs on (registered with
// a MemoryRegistry, 256-byte aligned like device allocations), runs it and
// captures device_print output. Also builds small elementwise kernels from
// a template, so that a test only writes the operation under test.
//
//===----------------------------------------------------------------------===//

#ifndef TK_TEST_UNIT_INTERPRETER_KERNELHARNESS_H
#define TK_TEST_UNIT_INTERPRETER_KERNELHARNESS_H

#include "compiler/interpreter/Interpreter.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace tk::interp::test {

/// Replaces every `{KEY}` in `text`.
inline std::string substitute(
    std::string text,
    const std::vector<std::pair<std::string, std::string>> &replacements) {
  for (const auto &[key, value] : replacements) {
    std::string pattern = "{" + key + "}";
    for (size_t at = text.find(pattern); at != std::string::npos;
         at = text.find(pattern, at + value.size()))
      text.replace(at, pattern.size(), value);
  }
  return text;
}

/// A kernel y[i] = BODY(x[i]) (or BODY(x[i], w[i]) with two inputs) over N
/// lanes: BODY is IR that reads %a (and %b) of type tensor<NxT> and defines
/// %r of type tensor<NxR>.
inline std::string elementwiseKernel(const std::string &body,
                                     const std::string &t, const std::string &r,
                                     int n, bool twoInputs = false) {
  std::string text = R"(
func.func @k(%x: !tk.ptr<{T}>, %w: !tk.ptr<{T}>, %y: !tk.ptr<{R}>) attributes {tk.kernel} {
  %lanes = tk.make_range {start = 0 : i32, end = {N} : i32} : tensor<{N}xi32>
  %xs = tk.splat %x : !tk.ptr<{T}> -> tensor<{N}x!tk.ptr<{T}>>
  %xp = tk.addptr %xs, %lanes : tensor<{N}x!tk.ptr<{T}>>, tensor<{N}xi32>
  %a = tk.load %xp : tensor<{N}x!tk.ptr<{T}>> -> tensor<{N}x{T}>
)";
  if (twoInputs)
    text += R"(
  %ws = tk.splat %w : !tk.ptr<{T}> -> tensor<{N}x!tk.ptr<{T}>>
  %wp = tk.addptr %ws, %lanes : tensor<{N}x!tk.ptr<{T}>>, tensor<{N}xi32>
  %b = tk.load %wp : tensor<{N}x!tk.ptr<{T}>> -> tensor<{N}x{T}>
)";
  text += body + R"(
  %ys = tk.splat %y : !tk.ptr<{R}> -> tensor<{N}x!tk.ptr<{R}>>
  %yp = tk.addptr %ys, %lanes : tensor<{N}x!tk.ptr<{R}>>, tensor<{N}xi32>
  tk.store %yp, %r : tensor<{N}x!tk.ptr<{R}>>, tensor<{N}x{R}>
  return
}
)";
  return substitute(text, {{"T", t}, {"R", r}, {"N", std::to_string(n)}});
}

class KernelHarness {
public:
  /// Loads the kernel; check loaded() (or loadError()) before running.
  explicit KernelHarness(const std::string &ir,
                         const std::string &origin = "kernel.mlir") {
    auto result = loadKernel(ir, origin);
    if (result)
      kernel = std::move(*result);
    else
      error = llvm::toString(result.takeError());
  }

  bool loaded() const { return kernel != nullptr; }
  const std::string &loadError() const { return error; }
  Kernel &get() { return *kernel; }

  /// A registered buffer holding `values`; returns its address.
  template <typename T>
  uint64_t buffer(const std::vector<T> &values, const std::string &label = "") {
    size_t bytes = values.size() * sizeof(T);
    size_t rounded = (std::max<size_t>(bytes, 1) + 255) / 256 * 256;
    void *memory = std::aligned_alloc(256, rounded);
    std::memset(memory, 0, rounded);
    std::memcpy(memory, values.data(), bytes);
    storage.emplace_back(static_cast<char *>(memory));
    memory_.add(memory, bytes, label);
    return reinterpret_cast<uintptr_t>(memory);
  }

  template <typename T> std::vector<T> read(uint64_t address, size_t count) {
    std::vector<T> values(count);
    std::memcpy(values.data(), reinterpret_cast<const void *>(address),
                count * sizeof(T));
    return values;
  }

  /// Runs; returns "" on success or the error message. device_print output
  /// goes to printed().
  std::string run(LaunchGrid grid, const std::vector<uint64_t> &args) {
    printedText.clear();
    llvm::raw_string_ostream os(printedText);
    RunOptions options;
    options.printStream = &os;
    llvm::Error result = kernel->run(grid, args, memory_, options);
    os.flush();
    return result ? llvm::toString(std::move(result)) : "";
  }

  const std::string &printed() const { return printedText; }
  MemoryRegistry &memory() { return memory_; }

private:
  struct Free {
    void operator()(char *p) const { std::free(p); }
  };
  std::unique_ptr<Kernel> kernel;
  std::string error;
  MemoryRegistry memory_;
  std::vector<std::unique_ptr<char, Free>> storage;
  std::string printedText;
};

/// Runs a one-program elementwise kernel on `input` (and `second`) and
/// returns the N results.
template <typename R, typename T>
std::vector<R> runElementwise(const std::string &body, const std::string &t,
                              const std::string &r, const std::vector<T> &input,
                              const std::vector<T> &second = {}) {
  int n = static_cast<int>(input.size());
  KernelHarness harness(elementwiseKernel(body, t, r, n, !second.empty()));
  EXPECT_TRUE(harness.loaded()) << harness.loadError();
  if (!harness.loaded())
    return {};
  uint64_t x = harness.buffer(input);
  uint64_t w = harness.buffer(second.empty() ? input : second);
  uint64_t y = harness.buffer(std::vector<R>(input.size()));
  std::string error = harness.run({1, 1, 1}, {x, w, y});
  EXPECT_EQ(error, "");
  return harness.read<R>(y, input.size());
}

} // namespace tk::interp::test

#endif // TK_TEST_UNIT_INTERPRETER_KERNELHARNESS_H
