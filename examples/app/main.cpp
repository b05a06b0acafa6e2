//===- main.cpp - an application using an installed tk --------------------===//
//
// 1. add.tk, compiled at build time by tk_add_kernel, loaded with libtkrt;
// 2. softmax.tk through the launch-time JIT handle.
// tk::Context::create() picks the GPU, or the CPU interpreter under
// TK_INTERPRET=1 (or without a GPU). Prints "PASS tk-app" or the failure.
//
//===----------------------------------------------------------------------===//
#include "tk/jit.h"
#include "tk/runtime.h"

#include <cmath>
#include <cstdio>
#include <vector>

int main() {
  try {
    tk::Context context = tk::Context::create();
    std::printf("tk-app: backend %s\n", context.backendName().c_str());

    // Ahead of time.
    const int n = 1000;
    std::vector<float> x(n), y(n);
    for (int i = 0; i < n; ++i)
      x[i] = float(i), y[i] = 0.5f * float(i);
    tk::Buffer dx = context.alloc(n * 4), dy = context.alloc(n * 4),
               dout = context.alloc(n * 4);
    dx.upload(x);
    dy.upload(y);
    tk::Kernel add =
        tk::Module::load(context, TK_KERNEL_DIR "/add.json").kernel("add");
    add.launch({(n + 255) / 256}, dx.as<float>(), dy.as<float>(),
               dout.as<float>(), n);
    std::vector<float> sum = dout.download<float>();
    for (int i = 0; i < n; ++i)
      if (sum[i] != x[i] + y[i]) {
        std::printf("FAIL tk-app: add[%d] = %g, expected %g\n", i, sum[i],
                    x[i] + y[i]);
        return 1;
      }

    // At launch time.
    const int rows = 3, cols = 50;
    std::vector<float> in(rows * cols);
    for (int i = 0; i < rows * cols; ++i)
      in[i] = std::sin(0.1f * float(i));
    tk::Buffer din = context.alloc(in.size() * 4),
               dsm = context.alloc(in.size() * 4);
    din.upload(in);
    auto softmax = tk::jit::Kernel::fromFile(context, TK_APP_SOFTMAX,
                                             "softmax",
                                             {{{"BLOCK", "64"}}});
    tk::Stream stream(context);
    softmax.launch({rows}, stream, dsm, din, cols, cols, cols);
    stream.sync();
    std::vector<float> out = dsm.download<float>();
    for (int r = 0; r < rows; ++r) {
      float max = -INFINITY, total = 0;
      for (int c = 0; c < cols; ++c)
        max = std::fmax(max, in[r * cols + c]);
      for (int c = 0; c < cols; ++c)
        total += std::exp(in[r * cols + c] - max);
      for (int c = 0; c < cols; ++c) {
        float expected = std::exp(in[r * cols + c] - max) / total;
        if (std::fabs(out[r * cols + c] - expected) > 1e-6f) {
          std::printf("FAIL tk-app: softmax[%d][%d] = %g, expected %g\n", r,
                      c, out[r * cols + c], expected);
          return 1;
        }
      }
    }
    std::printf("PASS tk-app\n");
    return 0;
  } catch (const tk::Error &error) {
    std::printf("FAIL tk-app: %s\n", error.what());
    return 1;
  }
}
