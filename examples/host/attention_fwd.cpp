//===- attention_fwd.cpp - Runs examples/attention_fwd.tk and checks it ----===//
//
// O = softmax(Q K^T * sm_scale) V and the base-2 log-sum-exp M, for the
// non-causal (attention_fwd) and causal (attention_fwd_causal) builds and
// their AHEAD=True twins (attention_fwd_ahead, attention_fwd_ahead_causal),
// and the tensor-descriptor kernel attn_fwd_tma (attention_fwd_tma,
// attention_fwd_tma_causal; TMA on sm_90a, masked loads elsewhere; and
// warp-specialized with the scores one block ahead,
// attention_fwd_tma_ws_ahead, attention_fwd_tma_ws_ahead_causal; and
// rescaling only when a row max grows by more than 2^8,
// attention_fwd_tma_lazy, attention_fwd_tma_lazy_causal), against a double
// reference from the same f16 (or bf16) inputs. Q, K, V and O are
// stored as (Z, N, H, D) and passed with the strides of that layout (the
// kernel takes any strides), and N_CTX is a multiple of 16 (the build
// specializes on it) but not of BLOCK_N or BLOCK_M, so the masked tail
// blocks and the padded query rows matter. attention_fwd_tma_bf16_anyn
// (and _causal) is attn_fwd_tma on bf16 built without the N_CTX
// specialization, run on an N that is not a multiple of 16.
//
//===----------------------------------------------------------------------===//

#include "common.h"

#include <cmath>

namespace {

template <typename T = tk::half>
void runAttention(examples::Session &s, const std::string &kernelName,
                  bool withZ, bool causal, bool anyN = false) {
  const int32_t Z = 1, H = 2;
  // A build without the N_CTX specialization runs on an N that is not a
  // multiple of 16 (nor of the blocks).
  const int32_t N = int32_t(anyN ? s.size(1000, 200) : s.size(1040, 208));
  tk::Kernel kernel = s.loadKernel(kernelName);
  const int32_t D = int32_t(examples::constexprValue(kernel, "HEAD_DIM"));
  int64_t blockM = examples::constexprValue(kernel, "BLOCK_M");
  if (examples::constexprValue(kernel, "CAUSAL") != (causal ? 1 : 0))
    examples::fail(kernelName + ".json: compiled with CAUSAL=" +
                   std::to_string(!causal));
  const float smScale = 1.0f / std::sqrt(float(D));

  // (Z, N, H, D) storage: strides in elements.
  const int32_t strideD = 1, strideH = D, strideN = H * D,
                strideZ = N * H * D;
  const size_t count = size_t(Z) * N * H * D;
  examples::Random random(10);
  std::vector<T> q = examples::toElements<T>(random.normal(count));
  std::vector<T> k = examples::toElements<T>(random.normal(count));
  std::vector<T> v = examples::toElements<T>(random.normal(count));
  tk::Buffer qBuf = s.upload(q), kBuf = s.upload(k), vBuf = s.upload(v);
  tk::Buffer oBuf = s.poisoned<T>(count);
  tk::Buffer mBuf = s.poisoned<float>(size_t(Z) * H * N);

  auto launch = [&] {
    auto args = [&](auto... sizes) {
      kernel.launch({examples::cdiv(N, blockM), Z * H}, qBuf.as<T>(),
                    kBuf.as<T>(), vBuf.as<T>(), oBuf.as<T>(),
                    mBuf.as<float>(), smScale,
                    strideZ, strideH, strideN, strideD,  // Q
                    strideZ, strideH, strideN, strideD,  // K
                    strideZ, strideH, strideN, strideD,  // V
                    strideZ, strideH, strideN, strideD,  // O
                    sizes...);
    };
    // attn_fwd_tma (tensor descriptors of shape (Z, H, N, D)) takes Z too.
    if (withZ)
      args(Z, H, N);
    else
      args(H, N);
  };
  launch();
  s.ctx().sync();

  std::vector<double> qD = examples::toDouble(q), kD = examples::toDouble(k),
                      vD = examples::toDouble(v);
  std::vector<double> oRef(count, 0.0), mRef(size_t(Z) * H * N, 0.0);
  std::vector<double> scores(N);
  auto at = [&](int32_t z, int32_t n, int32_t h, int32_t d) {
    return size_t(z) * strideZ + size_t(n) * strideN + size_t(h) * strideH +
           size_t(d) * strideD;
  };
  for (int32_t z = 0; z < Z; ++z)
    for (int32_t h = 0; h < H; ++h)
      for (int32_t i = 0; i < N; ++i) {
        int32_t keys = causal ? i + 1 : N;
        double rowMax = -INFINITY;
        for (int32_t j = 0; j < keys; ++j) {
          double dotQK = 0;
          for (int32_t d = 0; d < D; ++d)
            dotQK += qD[at(z, i, h, d)] * kD[at(z, j, h, d)];
          scores[j] = dotQK * smScale;
          rowMax = std::max(rowMax, scores[j]);
        }
        double sum = 0;
        for (int32_t j = 0; j < keys; ++j)
          sum += (scores[j] = std::exp(scores[j] - rowMax));
        for (int32_t j = 0; j < keys; ++j)
          for (int32_t d = 0; d < D; ++d)
            oRef[at(z, i, h, d)] += scores[j] / sum * vD[at(z, j, h, d)];
        // log2 of sum_j exp2(s_j * log2(e)) = (rowMax + ln(sum)) * log2(e)
        mRef[(size_t(z) * H + h) * N + i] =
            (rowMax + std::log(sum)) / std::log(2.0);
      }
  examples::checkClose(kernelName + " o",
                       examples::toDouble(oBuf.download<T>()), oRef,
                       1e-2);
  examples::checkClose(kernelName + " m",
                       examples::toDouble(mBuf.download<float>()), mRef,
                       1e-4);

  double ms = examples::timeMs(s, launch);
  double flops = 4.0 * Z * H * double(N) * N * D * (causal ? 0.5 : 1.0);
  std::printf("  %s: %.4f ms, %.2f TFLOP/s\n", kernelName.c_str(), ms,
              flops / (ms * 1e-3) / 1e12);
}

} // namespace

int main(int argc, char **argv) {
  return examples::runExample(
      "attention_fwd", argc, argv, [](examples::Session &s) {
        runAttention(s, "attention_fwd", false, /*causal=*/false);
        runAttention(s, "attention_fwd_causal", false, /*causal=*/true);
        runAttention(s, "attention_fwd_ahead", false, /*causal=*/false);
        runAttention(s, "attention_fwd_ahead_causal", false, /*causal=*/true);
        runAttention(s, "attention_fwd_tma", true, /*causal=*/false);
        runAttention(s, "attention_fwd_tma_causal", true, /*causal=*/true);
        runAttention(s, "attention_fwd_tma_ws_ahead", true, /*causal=*/false);
        runAttention(s, "attention_fwd_tma_ws_ahead_causal", true, /*causal=*/true);
        runAttention(s, "attention_fwd_tma_lazy", true, /*causal=*/false);
        runAttention(s, "attention_fwd_tma_lazy_causal", true, /*causal=*/true);
        runAttention<tk::bf16>(s, "attention_fwd_tma_bf16_anyn", true,
                               /*causal=*/false, /*anyN=*/true);
        runAttention<tk::bf16>(s, "attention_fwd_tma_bf16_anyn_causal", true,
                               /*causal=*/true, /*anyN=*/true);
      });
}
