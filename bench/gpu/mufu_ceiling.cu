// mufu_ceiling.cu -- how many exponentials per clock an SM computes, from
// registers alone: ex2.approx.ftz.f32 (what tk's exp2 lowers to) against
// ex2.approx.f16x2 (two halves per instruction), and f32 FFMA for scale.
// The attention softmax at HEAD_DIM 64 takes one exp2 per 256 MMA FLOPs,
// so whether the f16x2 form doubles the MUFU's rate decides whether a
// packed softmax can help there (docs/benchmarks.md).
//
// Every thread runs ITERS rounds of CHAINS independent dependency chains
// (x = op(x), which hides the latency); many blocks per SM. Results are
// element results per second and per SM per clock at the clock the
// driver reports (cudaDevAttrClockRate, the boost clock).
//
// Build: nvcc -O3 -gencode=arch=compute_90,code=sm_90 mufu_ceiling.cu -o mufu_ceiling
// Run:   ./mufu_ceiling            (prints one JSON line)
#include <cuda_fp16.h>

#include "ceiling_timing.h"

constexpr int CHAINS = 8;

enum Kind { Ex2F32, Ex2F16x2, Ffma };

template <Kind K>
__global__ void loop(float *out, int iters) {
  // Inputs near -0.5 stay in range under repeated exp2 (2^-0.5 = 0.7,
  // 2^0.7 = 1.6, ...); the values do not matter for the rate.
  float f[CHAINS];
  unsigned h[CHAINS];
  for (int j = 0; j < CHAINS; ++j) {
    f[j] = -0.5f - 0.01f * (threadIdx.x % 7 + j);
    __half2 v = __floats2half2_rn(f[j], f[j] * 0.5f);
    h[j] = *reinterpret_cast<unsigned *>(&v);
  }
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int j = 0; j < CHAINS; ++j) {
      if (K == Ex2F32)
        asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+f"(f[j]));
      else if (K == Ex2F16x2)
        asm volatile("ex2.approx.f16x2 %0, %0;" : "+r"(h[j]));
      else
        asm volatile("fma.rn.f32 %0, %0, 0f3F7FFFFF, 0fBF000000;"
                     : "+f"(f[j]));
    }
  }
  float s = 0;
  for (int j = 0; j < CHAINS; ++j)
    s += f[j] + __half2float(reinterpret_cast<__half2 *>(&h[j])->x);
  if (s == 12345.0f) // never: keeps the loop alive
    out[threadIdx.x] = s;
}

template <Kind K>
double rate(int sms, int iters, float *out, int results) {
  int blocks = sms * 8, threads = 256;
  double median = medianLaunchMs([&] { loop<K><<<blocks, threads>>>(out, iters); }, 7);
  double ops = double(blocks) * threads * iters * CHAINS * results;
  return ops / (median * 1e-3);
}

int main() {
  int device = 0, sms = 0, clockKHz = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  CHECK(cudaDeviceGetAttribute(&clockKHz, cudaDevAttrClockRate, device));
  float *out;
  CHECK(cudaMalloc(&out, 1024 * sizeof(float)));
  int iters = 4096;
  double f32 = rate<Ex2F32>(sms, iters, out, 1);
  double f16x2 = rate<Ex2F16x2>(sms, iters, out, 2);
  double ffma = rate<Ffma>(sms, iters, out, 1);
  double perClock = double(sms) * clockKHz * 1e3;
  printf("{\"sms\": %d, \"clock_mhz\": %.0f, "
         "\"ex2_f32_per_s\": %.4g, \"ex2_f16x2_results_per_s\": %.4g, "
         "\"ffma_per_s\": %.4g, \"ex2_f32_per_sm_clk\": %.2f, "
         "\"ex2_f16x2_results_per_sm_clk\": %.2f, \"ffma_per_sm_clk\": %.2f}\n",
         sms, clockKHz / 1e3, f32, f16x2, ffma, f32 / perClock,
         f16x2 / perClock, ffma / perClock);
  CHECK(cudaFree(out));
  return 0;
}
