#!/usr/bin/env bash
# Installs what tk needs on a fresh Debian 12 machine (run as root, or with
# sudo available). Idempotent: packages already present are kept.
set -euo pipefail

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi

PACKAGES=(
  cmake ninja-build g++ python3 ccache
  python3-numpy python3-scipy python3-setuptools python3-venv python3-pip   # the Python package's tests; scipy: libdevice references
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools   # LLVM/MLIR 22, lit, FileCheck
  libzstd-dev zlib1g-dev lld                              # static tkc for the GPU machine
  libgtest-dev libgmock-dev                                # unit tests
  clang libclang-rt-14-dev                                 # fuzzers and sanitizers
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "${missing[@]}"
fi

CUDA_ROOT="${TK_CUDA_ROOT:-/usr/local/cuda}"
if [ ! -x "$CUDA_ROOT/bin/ptxas" ]; then
  cat >&2 <<MSG
install-deps: CUDA was not found under $CUDA_ROOT (missing $CUDA_ROOT/bin/ptxas).
  tk builds and runs everything in the CPU interpreter without it, but
  cubins (tkc --emit=cubin) and the PTX assembly tests need ptxas from the
  CUDA toolkit (13.0 is what tk is tested with). Install the CUDA toolkit to
  /usr/local/cuda, or point TK_CUDA_ROOT at it.
MSG
else
  echo "install-deps: CUDA found at $CUDA_ROOT ($("$CUDA_ROOT/bin/ptxas" --version | tail -1))"
fi
