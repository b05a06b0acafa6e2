//===- add.cpp - Runs examples/add.tk and checks it -------------------------===//
//
// out = x + y over n = 98765 floats (not a multiple of BLOCK, so the last
// program's mask matters).
//
//===----------------------------------------------------------------------===//

#include "common.h"

int main(int argc, char **argv) {
  return examples::runExample("add", argc, argv, [](examples::Session &s) {
    const int32_t n = 98765;
    tk::Kernel kernel = s.loadKernel("add");
    int64_t block = examples::constexprValue(kernel, "BLOCK");

    examples::Random random(1);
    std::vector<float> x = random.normal(n), y = random.normal(n);
    tk::Buffer xBuf = s.upload(x), yBuf = s.upload(y);
    tk::Buffer outBuf = s.poisoned<float>(n);

    auto launch = [&] {
      kernel.launch({examples::cdiv(n, block)}, xBuf.as<float>(),
                    yBuf.as<float>(), outBuf.as<float>(), n);
    };
    launch();
    s.ctx().sync();

    std::vector<double> ref(n);
    for (int32_t i = 0; i < n; ++i)
      ref[i] = double(x[i]) + double(y[i]);
    examples::checkClose("out", examples::toDouble(outBuf.download<float>()),
                         ref, 1e-6);

    double ms = examples::timeMs(s, launch);
    examples::reportBandwidth("add", ms, 3.0 * n * sizeof(float));
  });
}
