// mma_smem_ceiling.cu -- how fast an mma.sync matmul's inner loop can run
// on this GPU when its operands come from shared memory through ldmatrix,
// as they must in a real kernel, with no global memory traffic at all.
//
// mma_ceiling.cu measures the instruction alone (registers only, 32 warps
// per SM). A matmul cannot run that way: every m16n8k16 needs its A and B
// fragments from shared memory, and with a 64x64 warp tile (the largest
// whose f32 accumulators fit the 255 registers a thread may have) each
// k16 step reads 4 KB per warp for 32 instructions (131072 FLOPs), a
// byte per 32 FLOPs. This program runs exactly that steady state: every
// warp of a BM x BN block (64 x 64 per warp) walks a BK = 64 stage of
// shared memory, k16 by k16, with 4 ldmatrix.x4 for A, 4 ldmatrix.x4.trans
// for B and 32 mma.sync per step, alternating between two stages so that
// no load is loop-invariant. The rows are 128 bytes with the 16-byte
// chunks XOR-swizzled by row, so every ldmatrix phase is free of bank
// conflicts (what tk's shared encodings give the operands).
//
// Variants: the block shape and warps of the matmul configurations tk
// measures (128x128 on 4 warps, 128x256 and 256x128 on 8), one or two
// blocks per SM, and with or without one __syncthreads() per stage, which
// is what a pipelined kernel pays per K iteration. The result is the
// ceiling of the ldmatrix + mma.sync loop itself; a matmul adds only the
// cp.async fills, the waits and the epilogue on top of it.
//
// Build: nvcc -O3 -gencode=arch=compute_90,code=sm_90 mma_smem_ceiling.cu -o mma_smem_ceiling
// Run:   ./mma_smem_ceiling       (prints one JSON line)
#include <cstdint>

#include "ceiling_timing.h"

constexpr int BK = 64;      // halves per stage row: 128 bytes
constexpr int STAGES = 2;

// Byte offset of element (row, col) of a [rows][64] f16 panel whose
// 16-byte chunks are XOR-swizzled by the row's low three bits.
__device__ __forceinline__ uint32_t swizzled(int row, int col) {
  int chunk = (col >> 3) ^ (row & 7);
  return row * 128 + chunk * 16 + (col & 7) * 2;
}

__device__ __forceinline__ void ldmatrix_x4(uint32_t addr, uint32_t r[4]) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}
__device__ __forceinline__ void ldmatrix_x4_trans(uint32_t addr, uint32_t r[4]) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}
__device__ __forceinline__ void mma(float c[4], const uint32_t a[4], uint32_t b0, uint32_t b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
      "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// A stage: A as [BM][64] (k-contiguous rows), B as BN/64 panels of
// [64 k][64 n] (n-contiguous rows, read with .trans), both swizzled.
template <int BM, int BN, bool BARRIER>
__global__ void __launch_bounds__(BM * BN / 64 / 64 * 32)
smem_mma_loop(float *out, int iters) {
  constexpr int WARPS_N = BN / 64;
  constexpr int A_BYTES = BM * BK * 2, B_BYTES = BK * BN * 2;
  extern __shared__ __align__(128) unsigned char smem[];
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int wm = (warp / WARPS_N) * 64, wn = (warp % WARPS_N) * 64;
  // Small finite halves everywhere (the values do not matter, only that
  // no NaN or infinity slows anything down).
  for (int i = tid * 4; i < STAGES * (A_BYTES + B_BYTES); i += blockDim.x * 4)
    *reinterpret_cast<uint32_t *>(smem + i) = 0x2c002c00u ^ (i & 0x00ff00ffu);
  __syncthreads();
  const uint32_t base = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
  float c[4][8][4] = {};
  for (int it = 0; it < iters; ++it) {
    const uint32_t a_stage = base + (it & 1) * (A_BYTES + B_BYTES);
    const uint32_t b_stage = a_stage + A_BYTES;
#pragma unroll
    for (int k0 = 0; k0 < BK; k0 += 16) {
      uint32_t a[4][4], b[4][4];
#pragma unroll
      for (int m = 0; m < 4; ++m)
        ldmatrix_x4(a_stage + swizzled(wm + m * 16 + (lane & 15), k0 + (lane >> 4) * 8), a[m]);
#pragma unroll
      for (int n = 0; n < 4; ++n) {
        int col = wn + n * 16 + (lane >> 4) * 8;  // n of this lane's matrix row
        int k = k0 + (lane & 15);
        ldmatrix_x4_trans(b_stage + (col / 64) * (BK * 128) + swizzled(k, col % 64), b[n]);
      }
#pragma unroll
      for (int m = 0; m < 4; ++m)
#pragma unroll
        for (int n = 0; n < 8; ++n)
          mma(c[m][n], a[m], b[n / 2][(n & 1) * 2], b[n / 2][(n & 1) * 2 + 1]);
    }
    if (BARRIER) __syncthreads();
  }
  float s = 0;
  for (int m = 0; m < 4; ++m)
    for (int n = 0; n < 8; ++n)
      for (int i = 0; i < 4; ++i) s += c[m][n][i];
  out[blockIdx.x * blockDim.x + tid] = s;
}

template <int BM, int BN, bool BARRIER>
double measure(int sms, int blocksPerSm) {
  constexpr int threads = BM * BN / 64 / 64 * 32;
  const int iters = 2048, blocks = sms * blocksPerSm;
  const int shared = STAGES * (BM * BK * 2 + BK * BN * 2);
  auto kernel = smem_mma_loop<BM, BN, BARRIER>;
  CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared));
  int fit = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, threads, shared));
  if (fit < blocksPerSm) return -fit;  // a negative number: what fits
  float *out;
  CHECK(cudaMalloc(&out, sizeof(float) * blocks * threads));
  double median = medianLaunchMs([&] { kernel<<<blocks, threads, shared>>>(out, iters); }, 15, 3);
  double flops = double(blocks) * iters * 2.0 * BM * BN * BK;
  CHECK(cudaFree(out));
  return flops / (median * 1e-3) / 1e12;
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const int sms = prop.multiProcessorCount;
  printf("{\"gpu\": \"%s\", \"sms\": %d", prop.name, sms);
  printf(", \"128x128_w4_1cta\": %.1f", measure<128, 128, false>(sms, 1));
  printf(", \"128x128_w4_1cta_bar\": %.1f", measure<128, 128, true>(sms, 1));
  printf(", \"128x128_w4_2cta\": %.1f", measure<128, 128, false>(sms, 2));
  printf(", \"128x128_w4_2cta_bar\": %.1f", measure<128, 128, true>(sms, 2));
  printf(", \"128x256_w8_1cta\": %.1f", measure<128, 256, false>(sms, 1));
  printf(", \"128x256_w8_1cta_bar\": %.1f", measure<128, 256, true>(sms, 1));
  printf(", \"256x128_w8_1cta\": %.1f", measure<256, 128, false>(sms, 1));
  printf(", \"256x128_w8_1cta_bar\": %.1f", measure<256, 128, true>(sms, 1));
  printf("}\n");
  return 0;
}
