//===- matmul.cpp - Runs examples/matmul.tk and checks it -------------------===//
//
// C = A @ B with A 384 x 256, B 256 x 320, f16 in and out (f32 accumulate),
// against a double reference computed from the same f16 inputs. N = 320 is
// not a multiple of BLOCK_N, so the masked edge tiles matter. If the build
// also compiled the LEAKY=True variant (matmul_leaky.json), it is checked
// against leaky_relu(A @ B, 0.01) as well.
//
//===----------------------------------------------------------------------===//

#include "common.h"

namespace {

void runMatmul(examples::Session &s, const std::string &kernelName,
               bool leaky) {
  const int32_t M = 384, N = 320, K = 256;
  tk::Kernel kernel = s.loadKernel(kernelName);
  int64_t blockM = examples::constexprValue(kernel, "BLOCK_M");
  int64_t blockN = examples::constexprValue(kernel, "BLOCK_N");
  if (examples::constexprValue(kernel, "LEAKY") != (leaky ? 1 : 0))
    examples::fail(kernelName + ".json: compiled with LEAKY=" +
                   std::to_string(!leaky) + ", expected " +
                   std::to_string(leaky));

  examples::Random random(8);
  std::vector<tk::half> a = examples::toHalf(random.normal(size_t(M) * K));
  std::vector<tk::half> b = examples::toHalf(random.normal(size_t(K) * N));
  tk::Buffer aBuf = s.upload(a), bBuf = s.upload(b);
  tk::Buffer cBuf = s.poisoned<tk::half>(size_t(M) * N);

  // Row-major A (M x K), B (K x N), C (M x N); strides in elements.
  auto launch = [&] {
    kernel.launch({examples::cdiv(M, blockM) * examples::cdiv(N, blockN)},
                  aBuf.as<tk::half>(), bBuf.as<tk::half>(),
                  cBuf.as<tk::half>(), M, N, K, K, 1, N, 1, N, 1);
  };
  launch();
  s.ctx().sync();

  std::vector<double> aD = examples::toDouble(a), bD = examples::toDouble(b);
  std::vector<double> ref(size_t(M) * N, 0.0);
  for (int32_t i = 0; i < M; ++i)
    for (int32_t k = 0; k < K; ++k) {
      double aik = aD[size_t(i) * K + k];
      for (int32_t j = 0; j < N; ++j)
        ref[size_t(i) * N + j] += aik * bD[size_t(k) * N + j];
    }
  if (leaky)
    for (double &v : ref)
      v = v >= 0 ? v : 0.01 * v;
  examples::checkClose(kernelName + " c",
                       examples::toDouble(cBuf.download<tk::half>()), ref,
                       1e-2);

  double ms = examples::timeMs(s, launch);
  std::printf("  %s: %.4f ms, %.2f TFLOP/s\n", kernelName.c_str(), ms,
              2.0 * M * N * K / (ms * 1e-3) / 1e12);
}

} // namespace

int main(int argc, char **argv) {
  return examples::runExample("matmul", argc, argv, [](examples::Session &s) {
    runMatmul(s, "matmul", /*leaky=*/false);
    if (s.hasKernel("matmul_leaky"))
      runMatmul(s, "matmul_leaky", /*leaky=*/true);
  });
}
