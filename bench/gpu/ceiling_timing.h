// ceiling_timing.h -- what the ceiling microbenchmarks (mma_ceiling.cu,
// mma_smem_ceiling.cu, mufu_ceiling.cu) share: a CUDA-runtime error check
// and the median time of repeated launches, each between CUDA events
// after a warm-up launch.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x)                                                              \
  do {                                                                        \
    cudaError_t e = (x);                                                      \
    if (e != cudaSuccess) {                                                   \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                      \
              cudaGetErrorString(e));                                         \
      exit(1);                                                                \
    }                                                                         \
  } while (0)

// Median milliseconds of `reps` calls of launch(), after `warmup` untimed
// ones; launch() enqueues the kernel on the default stream.
template <class Launch>
double medianLaunchMs(Launch launch, int reps, int warmup = 1) {
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  for (int w = 0; w < warmup; ++w) launch();
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<float> ms;
  for (int r = 0; r < reps; ++r) {
    CHECK(cudaEventRecord(start));
    launch();
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaGetLastError());
    float t;
    CHECK(cudaEventElapsedTime(&t, start, stop));
    ms.push_back(t);
  }
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}
