#!/usr/bin/env python3
# triton_ref_attention.py TRITON_REF OUT [SECTIONS]: runs only the
# attention section of shared/bench/triton_ref.py (Triton's FA2 forward and
# PyTorch's SDPA backends) into OUT/anchors.json, for a GPU call too short
# for all of it. SECTIONS, a regex alternation such as
# "attention|matmul_bf16", names other sections to keep.
import re, sys
path, out = sys.argv[1], sys.argv[2]
keep = sys.argv[3] if len(sys.argv) > 3 else "attention"
src = open(path).read()
src = re.sub(r'^section\("(?!(?:' + keep + r')")[^"]*".*$', '', src, flags=re.M)
sys.argv = [path, out]
exec(compile(src, path, "exec"))
