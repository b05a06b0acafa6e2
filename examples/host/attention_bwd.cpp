//===- attention_bwd.cpp - Runs examples/attention_bwd.tk and checks it ----===//
//
// The attention backward pass: the forward (attention_fwd[_causal], the
// forward example's build) writes O and the base-2 log-sum-exp M, then
// attention_bwd_preprocess (delta = rowsum(dO * O)), attention_bwd_dkdv and
// attention_bwd_dq give dQ, dK and dV, non-causal and causal, and so do
// attention_bwd_dkdv_tma and attention_bwd_dq_tma (the loops' tiles
// through tensor descriptors). They are
// checked against the gradients of softmax(Q K^T * sm_scale) V computed in
// double from the same f16 (or bf16) inputs:
//
//   P = softmax(S), S = Q K^T * sm_scale      dV = P^T dO
//   dP = dO V^T                               dS = P * (dP - rowsum(dP * P))
//   dQ = dS K * sm_scale                      dK = dS^T Q * sm_scale
//
// and delta against rowsum(dO * O) of the O the forward wrote. All tensors
// are stored as (Z, N, H, D) and passed with the strides of that layout
// (the kernels take any strides); N_CTX is a multiple of 16 (the builds
// specialize on it) but not of any block, so every masked tail matters.
// The _bf16_anyn builds (the _tma kernels and the descriptor forward on
// bf16, without the N_CTX specialization) run on an N that is not a
// multiple of 16.
//
//===----------------------------------------------------------------------===//

#include "common.h"

#include <cmath>

namespace {

/// The double reference gradients of one (z, h) head, with (Z, N, H, D)
/// indexing through `at`.
struct Gradients {
  std::vector<double> dq, dk, dv;
};

template <typename At>
void referenceHead(const std::vector<double> &q, const std::vector<double> &k,
                   const std::vector<double> &v,
                   const std::vector<double> &dout, int32_t z, int32_t h,
                   int32_t N, int32_t D, double smScale, bool causal, At at,
                   Gradients &grads) {
  // P row by row (N x N, zeros above the diagonal for causal).
  std::vector<double> p(size_t(N) * N, 0.0), ds(size_t(N) * N, 0.0);
  for (int32_t i = 0; i < N; ++i) {
    int32_t keys = causal ? i + 1 : N;
    double rowMax = -INFINITY;
    for (int32_t j = 0; j < keys; ++j) {
      double s = 0;
      for (int32_t d = 0; d < D; ++d)
        s += q[at(z, i, h, d)] * k[at(z, j, h, d)];
      p[size_t(i) * N + j] = s * smScale;
      rowMax = std::max(rowMax, s * smScale);
    }
    double sum = 0;
    for (int32_t j = 0; j < keys; ++j)
      sum += (p[size_t(i) * N + j] = std::exp(p[size_t(i) * N + j] - rowMax));
    for (int32_t j = 0; j < keys; ++j)
      p[size_t(i) * N + j] /= sum;
    // dP = dO V^T on the row; dS = P * (dP - sum_j P dP).
    double delta = 0;
    for (int32_t j = 0; j < keys; ++j) {
      double dp = 0;
      for (int32_t d = 0; d < D; ++d)
        dp += dout[at(z, i, h, d)] * v[at(z, j, h, d)];
      ds[size_t(i) * N + j] = dp;
      delta += dp * p[size_t(i) * N + j];
    }
    for (int32_t j = 0; j < keys; ++j)
      ds[size_t(i) * N + j] = p[size_t(i) * N + j] *
                              (ds[size_t(i) * N + j] - delta);
  }
  for (int32_t i = 0; i < N; ++i)
    for (int32_t j = 0; j < N; ++j) {
      double pij = p[size_t(i) * N + j], dsij = ds[size_t(i) * N + j];
      if (pij == 0 && dsij == 0)
        continue;
      for (int32_t d = 0; d < D; ++d) {
        grads.dv[at(z, j, h, d)] += pij * dout[at(z, i, h, d)];
        grads.dk[at(z, j, h, d)] += dsij * q[at(z, i, h, d)] * smScale;
        grads.dq[at(z, i, h, d)] += dsij * k[at(z, j, h, d)] * smScale;
      }
    }
}

/// `tma`: the attn_bwd_*_tma kernels (tiles through tensor descriptors),
/// which take Z before H and N_CTX. T = tk::bf16: the _bf16_anyn builds
/// (tma only, with the descriptor forward), on an N that is not a multiple
/// of 16.
template <typename T = tk::half>
void runBackward(examples::Session &s, bool causal, bool tma) {
  constexpr bool anyN = std::is_same_v<T, tk::bf16>;
  const std::string build = anyN ? "_bf16_anyn" : "";
  const std::string suffix = std::string(tma ? "_tma" : "") + build +
                             (causal ? "_causal" : "");
  // The forward that writes O and M: attn_fwd, or attn_fwd_tma (which
  // takes Z too) for the bf16 builds.
  tk::Kernel fwd = s.loadKernel(std::string(anyN ? "attention_fwd_tma"
                                                 : "attention_fwd") +
                                build + (causal ? "_causal" : ""));
  tk::Kernel pre = s.loadKernel("attention_bwd_preprocess" + build);
  tk::Kernel dkdv = s.loadKernel("attention_bwd_dkdv" + suffix);
  tk::Kernel dqKernel = s.loadKernel("attention_bwd_dq" + suffix);
  for (const tk::Kernel *kernel : {&fwd, &dkdv, &dqKernel})
    if (examples::constexprValue(*kernel, "CAUSAL") != (causal ? 1 : 0))
      examples::fail(kernel->name() + ": compiled with CAUSAL=" +
                     std::to_string(!causal));

  const int32_t Z = 1, H = 2;
  const int32_t N = int32_t(anyN ? s.size(1000, 200) : s.size(1040, 208));
  const int32_t D = int32_t(examples::constexprValue(fwd, "HEAD_DIM"));
  for (const tk::Kernel *kernel : {&pre, &dkdv, &dqKernel})
    if (examples::constexprValue(*kernel, "HEAD_DIM") != D)
      examples::fail(kernel->name() + ": HEAD_DIM differs from the forward's");
  const float smScale = 1.0f / std::sqrt(float(D));

  // (Z, N, H, D) storage: strides in elements.
  const int32_t sD = 1, sH = D, sN = H * D, sZ = N * H * D;
  const size_t count = size_t(Z) * N * H * D, rows = size_t(Z) * H * N;
  examples::Random random(causal ? 21 : 20);
  std::vector<T> q = examples::toElements<T>(random.normal(count));
  std::vector<T> k = examples::toElements<T>(random.normal(count));
  std::vector<T> v = examples::toElements<T>(random.normal(count));
  std::vector<T> dout = examples::toElements<T>(random.normal(count));
  tk::Buffer qBuf = s.upload(q), kBuf = s.upload(k), vBuf = s.upload(v),
             doBuf = s.upload(dout);
  tk::Buffer oBuf = s.poisoned<T>(count);
  tk::Buffer mBuf = s.poisoned<float>(rows);
  tk::Buffer deltaBuf = s.poisoned<float>(rows);
  tk::Buffer dqBuf = s.poisoned<T>(count), dkBuf = s.poisoned<T>(count),
             dvBuf = s.poisoned<T>(count);
  auto elems = [](tk::Buffer &b) { return b.as<T>(); };

  auto launchFwd = [&](auto... sizes) {
    fwd.launch({examples::cdiv(N, examples::constexprValue(fwd, "BLOCK_M")),
                Z * H},
               elems(qBuf), elems(kBuf), elems(vBuf), elems(oBuf),
               mBuf.as<float>(), smScale, sZ, sH, sN, sD, sZ, sH, sN, sD, sZ,
               sH, sN, sD, sZ, sH, sN, sD, sizes...);
  };
  if (anyN)
    launchFwd(Z, H, N);
  else
    launchFwd(H, N);
  auto backward = [&] {
    pre.launch({examples::cdiv(N, examples::constexprValue(pre, "BLOCK_M")),
                Z * H},
               elems(oBuf), elems(doBuf), deltaBuf.as<float>(), sZ, sH, sN, sD,
               sZ, sH, sN, sD, H, N);
    auto launchDkdv = [&](auto... sizes) {
      dkdv.launch(
          {examples::cdiv(N, examples::constexprValue(dkdv, "BLOCK_N")),
           Z * H},
          elems(qBuf), elems(kBuf), elems(vBuf), elems(doBuf), elems(dkBuf),
          elems(dvBuf), mBuf.as<float>(), deltaBuf.as<float>(), smScale,
          sZ, sH, sN, sD,   // Q
          sZ, sH, sN, sD,   // K
          sZ, sH, sN, sD,   // V
          sZ, sH, sN, sD,   // dO
          sZ, sH, sN, sD,   // dK
          sZ, sH, sN, sD,   // dV
          sizes...);
    };
    auto launchDq = [&](auto... sizes) {
      dqKernel.launch(
          {examples::cdiv(N, examples::constexprValue(dqKernel, "BLOCK_M")),
           Z * H},
          elems(qBuf), elems(kBuf), elems(vBuf), elems(doBuf), elems(dqBuf),
          mBuf.as<float>(), deltaBuf.as<float>(), smScale,
          sZ, sH, sN, sD,   // Q
          sZ, sH, sN, sD,   // K
          sZ, sH, sN, sD,   // V
          sZ, sH, sN, sD,   // dO
          sZ, sH, sN, sD,   // dQ
          sizes...);
    };
    if (tma) {
      launchDkdv(Z, H, N);
      launchDq(Z, H, N);
    } else {
      launchDkdv(H, N);
      launchDq(H, N);
    }
  };
  backward();
  s.ctx().sync();

  auto at = [&](int32_t z, int32_t n, int32_t h, int32_t d) {
    return size_t(z) * sZ + size_t(n) * sN + size_t(h) * sH + size_t(d) * sD;
  };
  // delta from the O the forward actually wrote (f16 or bf16), exactly as
  // defined.
  std::vector<double> oD = examples::toDouble(oBuf.download<T>()),
                      doD = examples::toDouble(dout);
  std::vector<double> deltaRef(rows, 0.0);
  for (int32_t z = 0; z < Z; ++z)
    for (int32_t h = 0; h < H; ++h)
      for (int32_t i = 0; i < N; ++i)
        for (int32_t d = 0; d < D; ++d)
          deltaRef[(size_t(z) * H + h) * N + i] +=
              oD[at(z, i, h, d)] * doD[at(z, i, h, d)];
  examples::checkClose(
      "attention_bwd" + suffix + " delta",
      examples::toDouble(deltaBuf.download<float>()), deltaRef, 1e-5);

  Gradients ref{std::vector<double>(count, 0.0),
                std::vector<double>(count, 0.0),
                std::vector<double>(count, 0.0)};
  std::vector<double> qD = examples::toDouble(q), kD = examples::toDouble(k),
                      vD = examples::toDouble(v);
  for (int32_t z = 0; z < Z; ++z)
    for (int32_t h = 0; h < H; ++h)
      referenceHead(qD, kD, vD, doD, z, h, N, D, smScale, causal, at, ref);
  examples::checkClose("attention_bwd" + suffix + " dq",
                       examples::toDouble(dqBuf.download<T>()),
                       ref.dq, 1e-2);
  examples::checkClose("attention_bwd" + suffix + " dk",
                       examples::toDouble(dkBuf.download<T>()),
                       ref.dk, 1e-2);
  examples::checkClose("attention_bwd" + suffix + " dv",
                       examples::toDouble(dvBuf.download<T>()),
                       ref.dv, 1e-2);

  double ms = examples::timeMs(s, backward);
  double flops =
      2.5 * 4.0 * Z * H * double(N) * N * D * (causal ? 0.5 : 1.0);
  std::printf("  attention_bwd%s (preprocess + dkdv + dq): %.4f ms, "
              "%.2f TFLOP/s\n",
              suffix.c_str(), ms, flops / (ms * 1e-3) / 1e12);
}

} // namespace

int main(int argc, char **argv) {
  return examples::runExample(
      "attention_bwd", argc, argv, [](examples::Session &s) {
        for (bool tma : {false, true}) {
          runBackward(s, /*causal=*/false, tma);
          runBackward(s, /*causal=*/true, tma);
        }
        runBackward<tk::bf16>(s, /*causal=*/false, /*tma=*/true);
        runBackward<tk::bf16>(s, /*causal=*/true, /*tma=*/true);
      });
}
