//===- softmax_online.cpp - Runs examples/softmax_online.tk and checks it ---===//
//
// Row softmax of rows many blocks long, walked in chunks by the online
// max/sum loop: 64 rows x 32768 columns (the timed case), then 7 rows x
// 10005 columns, whose last chunk is partial and whose row stride is padded
// (the padding must keep its poison).
//
//===----------------------------------------------------------------------===//

#include "common.h"

namespace {

void runCase(examples::Session &s, const tk::Kernel &kernel, int32_t rows,
             int32_t cols, int32_t stride, bool timed) {
  std::string what =
      "out[" + std::to_string(rows) + "x" + std::to_string(cols) + "]";
  // A slowly rising trend makes later chunks raise the running maximum, so
  // the rescaling of the running sum is exercised.
  examples::Random random(4 + uint32_t(cols));
  std::vector<float> x = random.normal(size_t(rows) * stride, 0.f, 3.f);
  for (int32_t r = 0; r < rows; ++r)
    for (int32_t c = 0; c < cols; ++c)
      x[size_t(r) * stride + c] += 8.f * float(c) / float(cols);
  tk::Buffer inBuf = s.upload(x);
  tk::Buffer outBuf = s.poisoned<float>(size_t(rows) * stride);

  auto launch = [&] {
    kernel.launch({rows}, outBuf.as<float>(), inBuf.as<float>(), stride,
                  stride, cols);
  };
  launch();
  s.ctx().sync();

  std::vector<double> out, ref;
  std::vector<float> outHost = outBuf.download<float>();
  std::vector<uint8_t> outBytes = outBuf.download<uint8_t>();
  for (int32_t r = 0; r < rows; ++r) {
    const float *row = &x[size_t(r) * stride];
    double rowMax = *std::max_element(row, row + cols), sum = 0;
    for (int32_t c = 0; c < cols; ++c)
      sum += std::exp(double(row[c]) - rowMax);
    for (int32_t c = 0; c < cols; ++c) {
      ref.push_back(std::exp(double(row[c]) - rowMax) / sum);
      out.push_back(outHost[size_t(r) * stride + c]);
    }
    examples::checkUntouched(what, outBytes,
                             (size_t(r) * stride + cols) * sizeof(float),
                             (stride - cols) * sizeof(float));
  }
  examples::checkClose(what, out, ref, 1e-5);

  if (timed) {
    double ms = examples::timeMs(s, launch);
    // Reads each row twice, writes it once.
    examples::reportBandwidth("softmax_online", ms,
                              3.0 * rows * cols * sizeof(float));
  }
}

} // namespace

int main(int argc, char **argv) {
  return examples::runExample(
      "softmax_online", argc, argv, [](examples::Session &s) {
        tk::Kernel kernel = s.loadKernel("softmax_online");
        int32_t rows = int32_t(s.size(64, 8));
        int32_t cols = int32_t(s.size(32768, 4096));
        runCase(s, kernel, rows, cols, cols, /*timed=*/true);
        runCase(s, kernel, 7, 10005, 10008, /*timed=*/false);
      });
}
