#!/usr/bin/env python3
"""Puts tk's numbers next to Triton's and PyTorch's from the same GPU run.

Usage: report.py TK_JSON ANCHORS_JSON OUT_DIR
  TK_JSON       written by tk-bench (tk's GB/s, launch and compile times)
  ANCHORS_JSON  written by triton_ref.py in the same run
Prints a table (last, so it ends the device output) and writes
OUT_DIR/bench.json (both inputs merged with ratios) and OUT_DIR/bench.png.
"""
import json
import sys


def rows(tk, ref):
    """(name, unit, tk, triton, torch) for every row both sides measured."""
    out = []
    def add(name, unit, t, tr, pt):
        if t is not None:
            out.append((name, unit, t, tr, pt))
    add("vector add fp32 2^28", "GB/s", tk.get("add_GBps"),
        ref.get("add_GBps", {}).get("triton"), ref.get("add_GBps", {}).get("torch"))
    add("GELU tanh fp32 2^28", "GB/s", tk.get("gelu_GBps"),
        ref.get("gelu_GBps", {}).get("triton"), ref.get("gelu_GBps", {}).get("torch"))
    for shape, v in tk.get("softmax_GBps", {}).items():
        r = ref.get("softmax_GBps", {}).get(shape, {})
        add(f"softmax fp32 {shape}", "GB/s", v, r.get("triton"), r.get("torch"))
    for shape, v in tk.get("rmsnorm_GBps", {}).items():
        r = ref.get("rmsnorm_GBps", {}).get(shape, {})
        add(f"RMSNorm bf16 {shape}", "GB/s", v, r.get("triton"), r.get("torch"))
    add("launch, tiny kernel", "us", tk.get("launch_us"),
        ref.get("launch_us_triton"), ref.get("launch_us_torch_add"))
    for kernel, v in tk.get("compile_s", {}).items():
        add(f"cold compile {kernel}", "s", v, ref.get(f"compile_s_{kernel}"), None)
    return out


def ratio(a, b, unit):
    if a is None or b is None or a == 0 or b == 0:
        return None
    # Higher is better for bandwidth, lower for times: ratio > 1 means tk wins.
    return a / b if unit == "GB/s" else b / a


def main():
    tk = json.load(open(sys.argv[1]))
    ref = json.load(open(sys.argv[2]))
    out_dir = sys.argv[3]
    table = rows(tk, ref)
    merged = {"tk": tk, "reference": ref, "rows": []}
    copy = ref.get("copy_GBps")
    for name, unit, t, tr, pt in table:
        merged["rows"].append({"name": name, "unit": unit, "tk": t, "triton": tr, "torch": pt,
                               "tk_over_triton": ratio(t, tr, unit), "tk_over_torch": ratio(t, pt, unit),
                               "fraction_of_copy": (t / copy) if unit == "GB/s" and copy else None})
    json.dump(merged, open(f"{out_dir}/bench.json", "w"), indent=1)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        bw = [r for r in merged["rows"] if r["unit"] == "GB/s"]
        if bw:
            fig, ax = plt.subplots(figsize=(10, 4.5))
            xs = range(len(bw))
            w = 0.28
            for i, (key, label) in enumerate([("tk", "tk"), ("triton", "Triton 3.6"), ("torch", "PyTorch")]):
                ax.bar([x + (i - 1) * w for x in xs], [r[key] or 0 for r in bw], w, label=label)
            if copy:
                ax.axhline(copy, color="k", ls="--", lw=1, label=f"copy {copy:.0f} GB/s")
            ax.set_xticks(list(xs))
            ax.set_xticklabels([r["name"] for r in bw], rotation=30, ha="right", fontsize=8)
            ax.set_ylabel("GB/s")
            ax.set_title(f"{ref.get('gpu', 'GPU')}: memory-bound kernels")
            ax.legend(fontsize=8, loc="lower left", framealpha=0.9)
            fig.tight_layout()
            fig.savefig(f"{out_dir}/bench.png", dpi=110)
    except Exception as e:  # the table matters more than the chart
        print(f"report: no chart ({e})")
    print(f"\n{ref.get('gpu', '?')}  torch {ref.get('torch', '?')}  triton {ref.get('triton', '?')}"
          f"  copy ceiling {copy or 0:.0f} GB/s")
    print(f"{'row':34} {'unit':5} {'tk':>9} {'Triton':>9} {'PyTorch':>9} {'tk/Tri':>7} {'tk/PT':>7}")
    fmt = lambda v: f"{v:9.2f}" if isinstance(v, (int, float)) else f"{'-':>9}"
    fr = lambda v: f"{v:7.3f}" if isinstance(v, (int, float)) else f"{'-':>7}"
    for r in merged["rows"]:
        print(f"{r['name']:34} {r['unit']:5} {fmt(r['tk'])} {fmt(r['triton'])} {fmt(r['torch'])}"
              f" {fr(r['tk_over_triton'])} {fr(r['tk_over_torch'])}")
    variants = tk.get("softmax_variants_GBps", {})
    if variants:
        print("softmax with other warp counts (tk kernel@shape: GB/s, / Triton's heuristic config):")
        for name, v in sorted(variants.items()):
            shape = name.split("@")[1]
            t = ref.get("softmax_GBps", {}).get(shape, {}).get("triton")
            print(f"  {name:34} {v:9.2f}  {fr(ratio(v, t, 'GB/s'))}")


if __name__ == "__main__":
    main()
