// The AOT header compiles as C++ too (and two headers in one program, with
// their own tk_<kernel> names): CI builds this next to add_host.c. Without
// a CUDA context it only reports that, which is what it prints when run.
#include "add_tk.h"
#include "softmax_tk.h"

#include <cstdio>

int main() {
  CUresult r = tk_softmax(nullptr, 1, 1, 1, 0, 0, 16, 16, 16);
  std::printf("%d %s\n", int(r), tk_softmax_last_error());
  return tk_add_unload() == CUDA_SUCCESS ? 0 : 1;
}
