//===- softmax.cpp - Runs examples/softmax.tk and checks it -----------------===//
//
// Row softmax of a 1823 x 781 matrix (x ~ 10 * N(0, 1), as in the
// benchmark). Input and output rows are padded to different strides, so the
// kernel's stride arguments are exercised and writes past a row's end are
// caught (the padding must keep its poison).
//
//===----------------------------------------------------------------------===//

#include "common.h"

int main(int argc, char **argv) {
  return examples::runExample("softmax", argc, argv, [](examples::Session &s) {
    const int32_t rows = int32_t(s.size(1823, 257)), cols = 781;
    const int32_t inStride = 784, outStride = 800;
    tk::Kernel kernel = s.loadKernel("softmax");
    int64_t block = examples::constexprValue(kernel, "BLOCK");
    if (block < cols)
      examples::fail("compiled with BLOCK=" + std::to_string(block) +
                     ", but a row has " + std::to_string(cols) + " columns");

    examples::Random random(3);
    std::vector<float> x = random.normal(size_t(rows) * inStride, 0.f, 10.f);
    tk::Buffer inBuf = s.upload(x);
    tk::Buffer outBuf = s.poisoned<float>(size_t(rows) * outStride);

    auto launch = [&] {
      kernel.launch({rows}, outBuf.as<float>(), inBuf.as<float>(), inStride,
                    outStride, cols);
    };
    launch();
    s.ctx().sync();

    std::vector<double> out, ref;
    std::vector<float> outHost = outBuf.download<float>();
    std::vector<uint8_t> outBytes = outBuf.download<uint8_t>();
    for (int32_t r = 0; r < rows; ++r) {
      const float *row = &x[size_t(r) * inStride];
      double rowMax = *std::max_element(row, row + cols), sum = 0;
      for (int32_t c = 0; c < cols; ++c)
        sum += std::exp(double(row[c]) - rowMax);
      for (int32_t c = 0; c < cols; ++c) {
        ref.push_back(std::exp(double(row[c]) - rowMax) / sum);
        out.push_back(outHost[size_t(r) * outStride + c]);
      }
      examples::checkUntouched("out", outBytes,
                               (size_t(r) * outStride + cols) * sizeof(float),
                               (outStride - cols) * sizeof(float));
    }
    examples::checkClose("out", out, ref, 1e-5);

    double ms = examples::timeMs(s, launch);
    examples::reportBandwidth("softmax", ms, 2.0 * rows * cols * sizeof(float));
  });
}
