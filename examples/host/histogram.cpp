//===- histogram.cpp - Runs examples/histogram.tk and checks it -------------===//
//
// Histogram of 98765 values in [0, 1) into NUM_BINS (256) bins with
// atomic_add. Counts are integers, so the comparison is exact. A few edge
// values (0, the largest float below 1, exactly 1, bin boundaries) are
// planted among the random ones.
//
//===----------------------------------------------------------------------===//

#include "common.h"

int main(int argc, char **argv) {
  return examples::runExample("histogram", argc, argv, [](examples::Session &s) {
    const int32_t n = 98765;
    tk::Kernel kernel = s.loadKernel("histogram");
    int64_t block = examples::constexprValue(kernel, "BLOCK");
    int64_t numBins = examples::constexprValue(kernel, "NUM_BINS");

    examples::Random random(7);
    std::vector<float> x = random.uniform(n, 0.f, 1.f);
    const float edges[] = {0.f, std::nextafter(1.f, 0.f), 1.f, 0.5f,
                           1.f / float(numBins), 3.f / float(numBins)};
    for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); ++i)
      x[i * 997] = edges[i];
    tk::Buffer xBuf = s.upload(x);
    // Guard counters on each side must stay zero (no write outside the
    // bins). Four of them keep `bins` 16-byte aligned, in case the kernel
    // was compiled assuming aligned pointers.
    const int64_t guard = 4;
    tk::Buffer binsBuf =
        s.ctx().alloc((numBins + 2 * guard) * sizeof(int32_t));
    binsBuf.fill(0);
    tk::TypedPtr<int32_t> bins = binsBuf.as<int32_t>() + guard;

    auto launch = [&] {
      kernel.launch({examples::cdiv(n, block)}, xBuf.as<float>(), bins, n);
    };
    launch();
    s.ctx().sync();

    // The kernel computes int(x * NUM_BINS) in f32; multiplying by a power
    // of two is exact, so float arithmetic here agrees bit for bit.
    std::vector<int64_t> ref(numBins + 2 * guard, 0);
    for (float v : x) {
      int64_t bin = static_cast<int64_t>(v * float(numBins));
      ref[guard + std::min(std::max<int64_t>(bin, 0), numBins - 1)] += 1;
    }
    std::vector<int32_t> got = binsBuf.download<int32_t>();
    for (int64_t i = 0; i < numBins + 2 * guard; ++i)
      if (got[i] != ref[i])
        examples::fail(
            (i < guard || i >= guard + numBins
                 ? std::string("guard counter outside the bins")
                 : "bin " + std::to_string(i - guard)) +
            ": " + std::to_string(got[i]) + ", expected " +
            std::to_string(ref[i]));
    std::printf("  bins: all %lld counts exact\n", (long long)numBins);

    // Timing accumulates into the bins; they are not checked afterwards.
    double ms = examples::timeMs(s, launch);
    examples::reportBandwidth("histogram", ms, double(n) * sizeof(float));
  });
}
