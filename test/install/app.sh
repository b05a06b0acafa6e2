#!/usr/bin/env bash
# Installs the build tree into a fresh prefix (cmake --install: no rebuild),
# then configures, builds and runs examples/app against it in the CPU
# interpreter, and checks the pkg-config files. ctest runs this as
# tk-install-app. Usage: app.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
source=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
for f in bin/tkc bin/tk-opt bin/tk-run lib/libtkrt.a lib/libtkrt.so \
         lib/libtkjit.so include/tk/runtime.h include/tk/runtime_c.h \
         include/tk/jit.h include/tk/jit_c.h lib/cmake/tk/tkConfig.cmake \
         lib/pkgconfig/tkrt.pc lib/pkgconfig/tkjit.pc; do
  test -e "$work/prefix/$f" || { echo "not installed: $f"; exit 1; }
done
# The installed tkc runs (its libraries are found from the prefix).
"$work/prefix/bin/tkc" "$source/examples/add.tk" -D BLOCK=4 --emit=tk > /dev/null
generator=()
command -v ninja > /dev/null && generator=(-G Ninja)
cmake -S "$source/examples/app" -B "$work/app" "${generator[@]}" \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_BUILD_TYPE=Release > "$work/configure.log"
cmake --build "$work/app" > "$work/build.log" || { cat "$work/build.log"; exit 1; }
TK_INTERPRET=1 TK_CACHE_DIR="$work/cache" "$work/app/tk-app"
# pkg-config: a C program over the C API, against libtkjit.
if command -v pkg-config > /dev/null; then
  cat > "$work/c_app.c" <<'C'
#include "tk/jit_c.h"
#include <stdio.h>
int main(void) {
  tkrt_context *ctx;
  if (tkrt_context_create(TKRT_MODE_INTERPRETER, &ctx) != TKRT_OK) {
    printf("%s\n", tkrt_last_error());
    return 1;
  }
  tk_jit_kernel *k;
  int status = tk_jit_kernel_from_source(ctx, "@kernel\ndef k(x: *f32):\n    store(x, 1.0)\n",
                                         "k.tk", NULL, NULL, &k);
  printf("%s %d\n", status == TKRT_OK ? tk_jit_kernel_name(k) : tk_jit_last_error(),
         tk_jit_kernel_num_params(k));
  return status;
}
C
  PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig" \
    cc "$work/c_app.c" -o "$work/c_app" $(PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig" pkg-config --cflags --libs tkjit)
  "$work/c_app" | grep -qx "k 1" || { echo "the C program failed"; exit 1; }
  echo "PASS pkg-config C program"
fi
