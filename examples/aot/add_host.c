/* add_host.c -- a C program that runs tk's vector add through the AOT
 * header (tkc --emit=header) and links nothing but libcuda:
 *
 *   tkc examples/add.tk -k add -D BLOCK=1024 --emit=header \
 *       --variant aligned,n=16 --variant none -o add_tk.h
 *   cc -I. -I/usr/local/cuda/include examples/aot/add_host.c -lcuda
 *
 * The build does both (examples/CMakeLists.txt: example-aot-add); run it
 * on the GPU machine: prints "PASS aot add" after checking n = 4096 (the
 * aligned, n % 16 == 0 variant) and n = 1000 (the general one), and that
 * a null pointer is refused with a message.
 */
#include "add_tk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    CUresult r_ = (call);                                                      \
    if (r_ != CUDA_SUCCESS) {                                                  \
      const char *what_ = "";                                                  \
      cuGetErrorString(r_, &what_);                                            \
      printf("FAIL aot add: %s: %s (%s)\n", #call, what_ ? what_ : "",         \
             tk_add_last_error());                                             \
      return 1;                                                                \
    }                                                                          \
  } while (0)

static int run(int n) {
  size_t bytes = (size_t)n * sizeof(float);
  float *x = malloc(bytes), *y = malloc(bytes), *out = malloc(bytes);
  for (int i = 0; i < n; ++i) {
    x[i] = (float)i;
    y[i] = 0.25f * (float)i;
  }
  CUdeviceptr dx, dy, dout;
  CHECK(cuMemAlloc(&dx, bytes));
  CHECK(cuMemAlloc(&dy, bytes));
  CHECK(cuMemAlloc(&dout, bytes));
  CHECK(cuMemcpyHtoD(dx, x, bytes));
  CHECK(cuMemcpyHtoD(dy, y, bytes));
  CHECK(tk_add(0, (unsigned)((n + 1023) / 1024), 1, 1, dx, dy, dout, n));
  CHECK(cuCtxSynchronize());
  CHECK(cuMemcpyDtoH(out, dout, bytes));
  for (int i = 0; i < n; ++i)
    if (out[i] != x[i] + y[i]) {
      printf("FAIL aot add: n=%d: out[%d] = %g, expected %g\n", n, i, out[i],
             x[i] + y[i]);
      return 1;
    }
  cuMemFree(dx);
  cuMemFree(dy);
  cuMemFree(dout);
  free(x);
  free(y);
  free(out);
  return 0;
}

int main(void) {
  CUdevice device;
  CUcontext context;
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&device, 0));
  CHECK(cuDevicePrimaryCtxRetain(&context, device));
  CHECK(cuCtxSetCurrent(context));
  if (run(4096) || run(1000))
    return 1;
  if (tk_add(0, 1, 1, 1, 0, 0, 0, 16) != CUDA_ERROR_INVALID_VALUE ||
      !strstr(tk_add_last_error(), "null pointer")) {
    printf("FAIL aot add: a null pointer was not refused\n");
    return 1;
  }
  CHECK(tk_add_unload());
  cuDevicePrimaryCtxRelease(device);
  printf("PASS aot add\n");
  return 0;
}
