#!/usr/bin/env bash
# pip install ./python into a fresh venv, offline: Debian's python3-venv,
# python3-setuptools (--no-build-isolation) and python3-numpy (the venv sees
# the system's packages); then the unit tests against the installed package.
# Usage: pip_install_test.sh PYTHON3 LIBTKJIT
set -euo pipefail
python=$1
export TK_LIBRARY=$2
here="$(cd "$(dirname "$0")" && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A copy: setuptools writes build/ and *.egg-info beside the sources.
cp -r "$here/.." "$work/src"
"$python" -m venv --system-site-packages "$work/venv"
"$work/venv/bin/pip" install --quiet --no-build-isolation --no-index "$work/src"
cd "$work"
"$work/venv/bin/python" -c 'import tk, sys; assert tk.__file__.startswith(sys.argv[1]), tk.__file__' "$work/venv"
TK_TEST_INSTALLED=1 "$work/venv/bin/python" -m unittest discover -s "$here" -q
