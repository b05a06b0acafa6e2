//===- gelu.cpp - Runs examples/gelu.tk and checks it -----------------------===//
//
// y = gelu_tanh(x) over n = 98765 floats, against
// 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) in double.
//
//===----------------------------------------------------------------------===//

#include "common.h"

int main(int argc, char **argv) {
  return examples::runExample("gelu", argc, argv, [](examples::Session &s) {
    const int32_t n = 98765;
    tk::Kernel kernel = s.loadKernel("gelu");
    int64_t block = examples::constexprValue(kernel, "BLOCK");

    // N(0, 2) covers the curved part and both tails; |x| stays far below
    // the ~10 where the kernel's exp(2a) overflows f32 (as Triton's would).
    examples::Random random(2);
    std::vector<float> x = random.normal(n, 0.f, 2.f);
    tk::Buffer xBuf = s.upload(x);
    tk::Buffer yBuf = s.poisoned<float>(n);

    auto launch = [&] {
      kernel.launch({examples::cdiv(n, block)}, xBuf.as<float>(),
                    yBuf.as<float>(), n);
    };
    launch();
    s.ctx().sync();

    const double sqrtTwoOverPi = std::sqrt(2.0 / M_PI);
    std::vector<double> ref(n);
    for (int32_t i = 0; i < n; ++i) {
      double v = x[i];
      ref[i] = 0.5 * v * (1.0 + std::tanh(sqrtTwoOverPi * (v + 0.044715 * v * v * v)));
    }
    examples::checkClose("y", examples::toDouble(yBuf.download<float>()), ref,
                         1e-5);

    double ms = examples::timeMs(s, launch);
    examples::reportBandwidth("gelu", ms, 2.0 * n * sizeof(float));
  });
}
