//===- layernorm.cpp - Runs examples/layernorm.tk and checks it -------------===//
//
// LayerNorm of a 1823 x 781 f32 matrix with weight and bias, eps = 1e-5,
// against (x - mean) / sqrt(var + eps) * w + b in double (biased variance).
// The input has a large mean (x ~ 3 + 2 N(0,1)) so that a kernel computing
// var as E[x^2] - E[x]^2 would lose precision and fail.
//
//===----------------------------------------------------------------------===//

#include "common.h"

int main(int argc, char **argv) {
  return examples::runExample("layernorm", argc, argv, [](examples::Session &s) {
    const int32_t rows = int32_t(s.size(1823, 257)), cols = 781;
    const int32_t stride = 800;
    const float eps = 1e-5f;
    tk::Kernel kernel = s.loadKernel("layernorm");
    int64_t block = examples::constexprValue(kernel, "BLOCK");
    if (block < cols)
      examples::fail("compiled with BLOCK=" + std::to_string(block) +
                     ", but a row has " + std::to_string(cols) + " columns");

    examples::Random random(6);
    std::vector<float> x = random.normal(size_t(rows) * stride, 3.f, 2.f);
    std::vector<float> w = random.uniform(cols, 0.5f, 1.5f);
    std::vector<float> b = random.normal(cols, 0.f, 0.1f);
    tk::Buffer xBuf = s.upload(x), wBuf = s.upload(w), bBuf = s.upload(b);
    tk::Buffer yBuf = s.poisoned<float>(size_t(rows) * stride);

    auto launch = [&] {
      kernel.launch({rows}, xBuf.as<float>(), wBuf.as<float>(),
                    bBuf.as<float>(), yBuf.as<float>(), stride, cols, eps);
    };
    launch();
    s.ctx().sync();

    std::vector<double> out, ref;
    std::vector<float> yHost = yBuf.download<float>();
    std::vector<uint8_t> yBytes = yBuf.download<uint8_t>();
    for (int32_t r = 0; r < rows; ++r) {
      const float *row = &x[size_t(r) * stride];
      double mean = 0, var = 0;
      for (int32_t c = 0; c < cols; ++c)
        mean += row[c];
      mean /= cols;
      for (int32_t c = 0; c < cols; ++c)
        var += (row[c] - mean) * (row[c] - mean);
      var /= cols;
      double rstd = 1.0 / std::sqrt(var + double(eps));
      for (int32_t c = 0; c < cols; ++c) {
        ref.push_back((row[c] - mean) * rstd * w[c] + b[c]);
        out.push_back(yHost[size_t(r) * stride + c]);
      }
      examples::checkUntouched("y", yBytes,
                               (size_t(r) * stride + cols) * sizeof(float),
                               (stride - cols) * sizeof(float));
    }
    examples::checkClose("y", out, ref, 1e-5);

    double ms = examples::timeMs(s, launch);
    examples::reportBandwidth("layernorm", ms,
                              2.0 * rows * cols * 4 + 2.0 * cols * 4);
  });
}
