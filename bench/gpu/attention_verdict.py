#!/usr/bin/env python3
"""attention_verdict.py -- issue 10's forward table from one GPU call.

Usage: attention_verdict.py ANCHORS_JSON ATTENTION_JSON [ATTENTION_JSON ...]

For each row of triton_ref.py's attention section (f16, Z=4, H=32,
N=4096; HEAD_DIM 64 and 128, causal or not): tk's fastest f16 kernel of
that row in the attention.json files bench/gpu/attention_gpu.py wrote (a
kernel's rate is the best of its timings across the files; a kernel that
failed a check is left out), next to Triton's FlashAttention-2 forward,
PyTorch's flash and cuDNN backends from the same call, with the ratios and
the issue's targets: at least 1.1x Triton and 1.0x flash (required), 1.0x
cuDNN (the goal). N = 16384, where a row's kernels were timed there, is
the best rate at that length.

Prints a markdown table and a verdict line per target. Exits 0 whether or
not the targets are met (a miss is a measurement, reported as such), 1 when
a row has no tk kernel or no Triton number to compare with.
"""
import json
import re
import sys

ROWS = [(64, "full"), (64, "causal"), (128, "full"), (128, "causal")]
TARGETS = [("triton", 1.1, "required"), ("torch_flash", 1.0, "required"),
           ("torch_cudnn", 1.0, "goal")]


def best_kernels(paths):
    """{(d, mode): {N: (tflops, name)}} over the f16 kernels that passed."""
    best = {}
    for path in paths:
        for kernel in json.load(open(path)):
            match = re.match(r"attn_f16_d(64|128)_(full|causal)_", kernel.get("name", ""))
            if not match or "error" in kernel or not all(c["ok"] for c in kernel.get("checks", [])):
                continue
            row = best.setdefault((int(match.group(1)), match.group(2)), {})
            for key, value in kernel.items():
                if re.fullmatch(r"N\d+", key) and isinstance(value, dict):
                    if key not in row or value["tflops"] > row[key][0]:
                        row[key] = (value["tflops"], kernel["name"])
    return best


def main():
    anchors = json.load(open(sys.argv[1])).get("attention_TFLOPs", {})
    best = best_kernels(sys.argv[2:])
    print("| row | tk | kernel | Triton | tk/Triton | flash | tk/flash | cuDNN | tk/cuDNN | tk N=16384 |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    ratios = {name: [] for name, _, _ in TARGETS}
    incomplete = False
    for d, mode in ROWS:
        ref = anchors.get(f"fp16_Z4_H32_N4096_D{d}_{mode}", {})
        tk = best.get((d, mode), {}).get("N4096")
        if tk is None or "triton" not in ref:
            incomplete = True
            print(f"| D{d} {mode} | {'-' if tk is None else f'{tk[0]:.1f}'} | "
                  f"{'no kernel' if tk is None else tk[1]} | "
                  f"{ref.get('triton', '-')} | | | | | | |")
            continue
        cells = []
        for name, _, _ in TARGETS:
            if name in ref:
                ratio = tk[0] / ref[name]
                ratios[name].append(ratio)
                cells += [f"{ref[name]:.1f}", f"{ratio:.3f}"]
            else:
                cells += ["-", "-"]
        long = best[(d, mode)].get("N16384")
        print(f"| D{d} {mode} | {tk[0]:.1f} | {tk[1]} | " + " | ".join(cells) +
              f" | {'-' if long is None else f'{long[0]:.1f}'} |")
    for name, target, kind in TARGETS:
        if not ratios[name]:
            continue
        low = min(ratios[name])
        verdict = "met" if low >= target and len(ratios[name]) == len(ROWS) else "MISSED"
        print(f"{kind} >= {target}x {name}: {verdict} (lowest {low:.3f}, "
              f"{len(ratios[name])} of {len(ROWS)} rows)")
    sys.exit(1 if incomplete else 0)


if __name__ == "__main__":
    main()
