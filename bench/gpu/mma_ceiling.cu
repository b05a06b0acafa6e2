// mma_ceiling.cu -- the throughput ceiling of mma.sync on this GPU, from
// registers alone (no memory traffic in the timed loop), so that tk's
// mma.sync matmul can be reported as a fraction of what the instruction
// itself can do here.
//
// Every warp runs ITERS rounds of ACC independent mma.sync.m16n8k16 with
// f32 accumulation (independent accumulators hide the instruction's
// latency); the operands are registers that the loop never changes. The
// grid has several blocks per SM so that every SM's tensor cores are busy.
// FLOPs per instruction: 2 * 16 * 8 * 16 = 4096.
//
// Build: nvcc -O3 -gencode=arch=compute_90,code=sm_90 mma_ceiling.cu -o mma_ceiling
// Run:   ./mma_ceiling            (prints one JSON line)
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>

#define CHECK(x)                                                              \
  do {                                                                        \
    cudaError_t e = (x);                                                      \
    if (e != cudaSuccess) {                                                   \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); \
      exit(1);                                                                \
    }                                                                         \
  } while (0)

constexpr int ACC = 8;

template <bool BF16>
__global__ void mma_loop(float *out, unsigned seed, int iters) {
  unsigned a[4], b[2];
  for (int i = 0; i < 4; ++i) a[i] = seed * (threadIdx.x + 1) + i;
  for (int i = 0; i < 2; ++i) b[i] = seed * (threadIdx.x + 7) + i;
  // Small finite halves: keep the exponent bits in range.
  for (int i = 0; i < 4; ++i) a[i] &= 0x3bff3bffu;
  for (int i = 0; i < 2; ++i) b[i] &= 0x3bff3bffu;
  float c[ACC][4] = {};
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int j = 0; j < ACC; ++j) {
      if (BF16)
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
            "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
            : "+f"(c[j][0]), "+f"(c[j][1]), "+f"(c[j][2]), "+f"(c[j][3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
      else
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
            "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
            : "+f"(c[j][0]), "+f"(c[j][1]), "+f"(c[j][2]), "+f"(c[j][3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    }
  }
  float s = 0;
  for (int j = 0; j < ACC; ++j)
    for (int i = 0; i < 4; ++i) s += c[j][i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

template <bool BF16>
double measure(int sms) {
  const int threads = 256, blocksPerSm = 4, iters = 4096;
  int blocks = sms * blocksPerSm;
  float *out;
  CHECK(cudaMalloc(&out, sizeof(float) * blocks * threads));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  for (int w = 0; w < 3; ++w) mma_loop<BF16><<<blocks, threads>>>(out, 3 + w, iters);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<float> ms;
  for (int r = 0; r < 15; ++r) {
    CHECK(cudaEventRecord(start));
    mma_loop<BF16><<<blocks, threads>>>(out, 11 + r, iters);
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaGetLastError());
    float t;
    CHECK(cudaEventElapsedTime(&t, start, stop));
    ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  double median = ms[ms.size() / 2];
  double flops = double(blocks) * (threads / 32) * iters * ACC * 4096.0;
  CHECK(cudaFree(out));
  return flops / (median * 1e-3) / 1e12;
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  double f16 = measure<false>(prop.multiProcessorCount);
  double bf16 = measure<true>(prop.multiProcessorCount);
  printf("{\"gpu\": \"%s\", \"sms\": %d, \"mma_sync_f16_f32acc_TFLOPs\": %.1f, "
         "\"mma_sync_bf16_f32acc_TFLOPs\": %.1f}\n",
         prop.name, prop.multiProcessorCount, f16, bf16);
  return 0;
}
