//===- rmsnorm.cpp - Runs examples/rmsnorm.tk and checks it -----------------===//
//
// RMSNorm of a 1823 x 781 bf16 matrix with bf16 weights, eps = 1e-6,
// against x / sqrt(mean(x^2) + eps) * w computed in double from the same
// bf16 inputs. The output is bf16, so the tolerance is bf16's (8 bits).
//
//===----------------------------------------------------------------------===//

#include "common.h"

int main(int argc, char **argv) {
  return examples::runExample("rmsnorm", argc, argv, [](examples::Session &s) {
    const int32_t rows = int32_t(s.size(1823, 257)), cols = 781;
    const int32_t stride = 784;
    const float eps = 1e-6f;
    tk::Kernel kernel = s.loadKernel("rmsnorm");
    int64_t block = examples::constexprValue(kernel, "BLOCK");
    if (block < cols)
      examples::fail("compiled with BLOCK=" + std::to_string(block) +
                     ", but a row has " + std::to_string(cols) + " columns");

    examples::Random random(5);
    std::vector<tk::bf16> x = examples::toBf16(
        random.normal(size_t(rows) * stride));
    std::vector<tk::bf16> w = examples::toBf16(random.uniform(cols, 0.5f, 1.5f));
    tk::Buffer xBuf = s.upload(x), wBuf = s.upload(w);
    tk::Buffer yBuf = s.poisoned<tk::bf16>(size_t(rows) * stride);

    auto launch = [&] {
      kernel.launch({rows}, xBuf.as<tk::bf16>(), wBuf.as<tk::bf16>(),
                    yBuf.as<tk::bf16>(), stride, cols, eps);
    };
    launch();
    s.ctx().sync();

    std::vector<double> out, ref;
    std::vector<tk::bf16> yHost = yBuf.download<tk::bf16>();
    for (int32_t r = 0; r < rows; ++r) {
      const tk::bf16 *row = &x[size_t(r) * stride];
      double sumSq = 0;
      for (int32_t c = 0; c < cols; ++c)
        sumSq += double(float(row[c])) * double(float(row[c]));
      double rstd = 1.0 / std::sqrt(sumSq / cols + double(eps));
      for (int32_t c = 0; c < cols; ++c) {
        ref.push_back(double(float(row[c])) * rstd * double(float(w[c])));
        out.push_back(float(yHost[size_t(r) * stride + c]));
      }
    }
    examples::checkClose("y", out, ref, 1e-2);

    double ms = examples::timeMs(s, launch);
    examples::reportBandwidth("rmsnorm", ms,
                              2.0 * rows * cols * 2 + cols * 2.0);
  });
}
