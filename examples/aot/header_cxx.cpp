// The AOT header compiles as C++ too (and two headers in one program, with
// their own tk_<kernel> names): CI builds this next to add_host.c. Run, it
// checks the launcher's argument validation, which comes before any driver
// call and so gives the same answer with or without a GPU: a null pointer
// argument is refused with CUDA_ERROR_INVALID_VALUE and a message naming
// the parameter, and nothing is left loaded to unload.
#include "add_tk.h"
#include "softmax_tk.h"

#include <cstdio>
#include <cstring>

int main() {
  CUresult r = tk_softmax(nullptr, 1, 1, 1, 0, 0, 16, 16, 16);
  const char *message = tk_softmax_last_error();
  bool refused = r == CUDA_ERROR_INVALID_VALUE && message &&
                 std::strstr(message, "'out_ptr' is a null pointer");
  bool unloaded = tk_add_unload() == CUDA_SUCCESS;
  if (refused && unloaded) {
    std::printf("PASS aot-cxx: two headers in one C++ program; a null "
                "argument is refused (%s)\n", message);
    return 0;
  }
  std::printf("FAIL aot-cxx: tk_softmax(null) returned %d (%s), unload %s\n",
              int(r), message ? message : "(no message)",
              unloaded ? "ok" : "failed");
  return 1;
}
