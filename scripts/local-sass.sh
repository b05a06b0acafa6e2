#!/usr/bin/env bash
# local-sass.sh CUBIN... -- SASS of sm_90a cubins on a machine without a GPU
# or cuobjdump (the development machines and CI), so that an instruction
# schedule can be read before a device call is spent on it.
#
# The CUDA 13 toolkit installed here (TOOLCHAIN.md) has ptxas but neither
# cuobjdump nor nvdisasm. Debian 12's non-free archive has CUDA 11.8's
# nvidia-cuda-toolkit, whose nvdisasm decodes sm_90 instructions; the first
# run fetches that one package (apt-get download, no install: its
# dependencies are not needed) and unpacks nvdisasm into
# ${TK_SASS_TOOLS:-$HOME/.cache/tk-sass}. CUDA 12.8 and later write cubins
# with a newer ELF header (OS/ABI 0x41, ABI version 8, the architecture in
# other bits of e_flags), which the 11.8 tools refuse; this script gives a
# copy of each cubin the old header (OS/ABI 0x33, ABI version 7, e_flags
# sm_90 | virtual sm_90) and disassembles that. The instructions and their
# control codes are the cubin's own; only sm_90a-specific opcodes that
# 11.8 predates could print differently. What runs on the GPU is still
# what cuobjdump there says: compare with it when a device call comes.
#
# Usage: scripts/local-sass.sh [NVDISASM-OPTION...] kernel.cubin > kernel.sass
# (e.g. -hex adds each instruction's encoding, whose high word holds the
# control codes: stall cycles, yield, scoreboards)
set -euo pipefail
flags=(-c)
while [ $# -gt 0 ] && [[ $1 == -* ]]; do flags+=("$1"); shift; done
[ $# -ge 1 ] || { echo "usage: $0 [NVDISASM-OPTION...] CUBIN..." >&2; exit 1; }
TOOLS=${TK_SASS_TOOLS:-$HOME/.cache/tk-sass}
NVDISASM=$TOOLS/usr/bin/nvdisasm
if [ ! -x "$NVDISASM" ]; then
  mkdir -p "$TOOLS"
  list=/etc/apt/sources.list.d/tk-sass-nonfree.sources
  if [ ! -f "$list" ]; then
    cat > "$list" <<'EOF'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: contrib non-free
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    apt-get update -qq -o Dir::Etc::sourcelist=/dev/null \
      -o Dir::Etc::sourceparts=/etc/apt/sources.list.d >/dev/null
  fi
  # (apt warns that root downloads unsandboxed; that is expected here.)
  (cd "$TOOLS" && apt-get download -qq nvidia-cuda-toolkit 2>/dev/null &&
     dpkg -x nvidia-cuda-toolkit_*.deb . && rm -f nvidia-cuda-toolkit_*.deb) || true
  [ -x "$NVDISASM" ] || { echo "$0: could not fetch nvdisasm" >&2; exit 1; }
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for cubin in "$@"; do
  copy=$tmp/$(basename "$cubin")
  cp "$cubin" "$copy"
  # e_ident[EI_OSABI], e_ident[EI_ABIVERSION], e_version and e_flags.
  printf '\x33\x07' | dd of="$copy" bs=1 seek=7 conv=notrunc status=none
  printf '\x76\x00\x00\x00' | dd of="$copy" bs=1 seek=20 conv=notrunc status=none
  printf '\x5a\x05\x5a\x00' | dd of="$copy" bs=1 seek=48 conv=notrunc status=none
  "$NVDISASM" "${flags[@]}" "$copy"
done
