#!/usr/bin/env python3
"""Host launch overhead of a tiny kernel back to back (docs/benchmarks.md):
raw cuLaunchKernel, libtkrt and the C++ JIT handle (build/bin/
tk-launch-overhead), the tk Python package, Triton's launch (when triton is
installed) and torch.add, in one run. On the GPU machine:

    TK_LIBRARY=build/lib/libtkjit.so python3 bench/gpu/launch_overhead.py \
        [--build build] [--count 20000] [--json out.json]

Each figure: microseconds per launch over COUNT launches enqueued and one
synchronize, median of 5 rounds (a 1024-element add: one program, the GPU
idles, so the host cost is what is measured).
"""
import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))


def per_launch(count, launch, sync):
    rounds = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(count):
            launch()
        sync()
        rounds.append((time.perf_counter() - start) * 1e6 / count)
    return sorted(rounds)[2]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--count", type=int, default=20000)
    parser.add_argument("--json")
    parser.add_argument("--kernel", help="add_b1024.cubin (default: in --build)")
    options = parser.parse_args()
    results = []

    native = subprocess.run(
        [os.path.join(options.build, "bin", "tk-launch-overhead"),
         options.kernel or os.path.join(options.build, "bench", "kernels",
                                        "add_b1024.cubin"),
         os.path.join(ROOT, "examples", "add.tk"), str(options.count)],
        capture_output=True, text=True)
    if native.returncode != 0:
        print(native.stderr, file=sys.stderr)
    results += [json.loads(line) for line in native.stdout.splitlines()]

    import torch
    import tk
    n = 1024
    x, y = (torch.randn(n, device="cuda") for _ in range(2))
    out = torch.empty_like(x)
    add = tk.jit(os.path.join(ROOT, "examples", "add.tk"), "add")
    launch = add[(1,)]
    launch(x, y, out, n, BLOCK=1024)
    torch.cuda.synchronize()
    results.append({"what": "tk Python", "us": per_launch(
        options.count // 4, lambda: launch(x, y, out, n, BLOCK=1024),
        torch.cuda.synchronize)})

    try:
        import triton
        import triton.language as tl

        @triton.jit
        def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
            offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            mask = offsets < n
            tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) +
                     tl.load(y_ptr + offsets, mask=mask), mask=mask)

        add_kernel[(1,)](x, y, out, n, BLOCK=1024)
        torch.cuda.synchronize()
        results.append({"what": "Triton launch", "us": per_launch(
            options.count // 4,
            lambda: add_kernel[(1,)](x, y, out, n, BLOCK=1024),
            torch.cuda.synchronize)})
    except ImportError:
        print("triton not installed: its launch is not measured",
              file=sys.stderr)

    results.append({"what": "torch.add", "us": per_launch(
        options.count // 4, lambda: torch.add(x, y, out=out),
        torch.cuda.synchronize)})

    for entry in results:
        print("%-30s %8.2f us" % (entry["what"], entry["us"]))
    by_name = {entry["what"]: entry["us"] for entry in results}
    if "raw cuLaunchKernel" in by_name and "tk C++ JIT handle" in by_name:
        print("C++ JIT handle - raw: %.2f us (target <= 0.5)" %
              (by_name["tk C++ JIT handle"] - by_name["raw cuLaunchKernel"]))
    if "Triton launch" in by_name:
        print("tk Python / Triton: %.2f (target <= 0.5)" %
              (by_name["tk Python"] / by_name["Triton launch"]))
    if options.json:
        with open(options.json, "w") as file:
            json.dump(results, file, indent=1)


if __name__ == "__main__":
    main()
