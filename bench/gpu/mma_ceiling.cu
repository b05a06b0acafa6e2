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
#include "ceiling_timing.h"

template <bool BF16, int ACC>
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

// blocksPerSm blocks of `threads` threads on every SM, ACC independent
// accumulators per warp.
template <bool BF16, int ACC = 8>
double measure(int sms, int blocksPerSm = 4, int threads = 256) {
  const int iters = 4096;
  int blocks = sms * blocksPerSm;
  float *out;
  CHECK(cudaMalloc(&out, sizeof(float) * blocks * threads));
  double median = medianLaunchMs(
      [&] { mma_loop<BF16, ACC><<<blocks, threads>>>(out, 11, iters); }, 15, 3);
  double flops = double(blocks) * (threads / 32) * iters * ACC * 4096.0;
  CHECK(cudaFree(out));
  return flops / (median * 1e-3) / 1e12;
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  double f16 = measure<false>(prop.multiProcessorCount);
  double bf16 = measure<true>(prop.multiProcessorCount);
  // The same instruction with a matmul's occupancy: one block of 4 or 8
  // warps per SM (one or two warps per scheduler), with the 32 independent
  // accumulators of a 64x64 warp tile.
  int sms = prop.multiProcessorCount;
  double w4 = measure<false, 32>(sms, 1, 128), w8 = measure<false, 32>(sms, 1, 256);
  printf("{\"gpu\": \"%s\", \"sms\": %d, \"mma_sync_f16_f32acc_TFLOPs\": %.1f, "
         "\"mma_sync_bf16_f32acc_TFLOPs\": %.1f, \"f16_1cta_w4_acc32\": %.1f, "
         "\"f16_1cta_w8_acc32\": %.1f}\n",
         prop.name, sms, f16, bf16, w4, w8);
  return 0;
}
