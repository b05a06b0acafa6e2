#!/usr/bin/env python3
"""triton_matmul_profile.py -- triton_ref.py's matmul_kernel timed with the
timer that times tk's cubins (cubin.time_ms), next to cuBLAS, and its PTX
and cubin kept for reading Triton's SASS beside tk's.

Usage: [DISABLE_MMA_V3=1] [DTYPE=bf16] python3 triton_matmul_profile.py TRITON_REF OUT_DIR SIZE CONFIG...

CONFIG is BMxBNxBK_wW_sS (e.g. 128x256x64_w8_s3). Only the kernel's
definition is taken from TRITON_REF (the shared reference script), so
both sides run the same Triton source. Triton 3.6 picks wgmma on the H200;
DISABLE_MMA_V3=1 makes it emit mma.sync, the instructions of tk's
--mma=v2 path, so both compilers can be compared on the same instructions.

Each configuration is checked against a float32 reference on fresh random
f16 inputs (bf16 with DTYPE=bf16; the output poisoned with NaN first),
then timed twice: with cubin.time_ms (CUDA events, L2 evicted before
each launch, median; the timer of matmul_gpu.py) and with
triton.testing.do_bench as triton_ref.py calls it, so that the two
timers' difference is measured rather than assumed. cuBLAS
(torch.matmul) is timed the same two ways. Writes
OUT_DIR/triton_matmul_SIZE{,_bf16}{,_v2}.json and
OUT_DIR/triton_matmul_CONFIG{,_bf16}{,_v2}.{ptx,cubin}.
"""
import json
import os
import re
import sys
import tempfile

os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="tritoncache"))
import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.testing import do_bench  # noqa: E402

from cubin import time_ms  # noqa: E402


def load_kernel(path):
    src = open(path).read()
    m = re.search(r"^@triton\.jit\ndef matmul_kernel\(.*?(?=^\S)", src, flags=re.M | re.S)
    if not m:
        sys.exit(f"triton_matmul_profile: no matmul_kernel in {path}")
    scope = {"triton": triton, "tl": tl}
    # Blank lines in front keep the definition on its own line numbers:
    # Triton's JIT reads the function's source back from `path` by them.
    padding = "\n" * src.count("\n", 0, m.start())
    exec(compile(padding + m.group(0), path, "exec"), scope)
    return scope["matmul_kernel"]


def parse_config(text):
    m = re.fullmatch(r"(\d+)x(\d+)x(\d+)_w(\d+)_s(\d+)", text)
    if not m:
        sys.exit(f"triton_matmul_profile: config '{text}' is not BMxBNxBK_wW_sS")
    return tuple(int(x) for x in m.groups())


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    ref, out, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
    configs = [parse_config(c) for c in sys.argv[4:]]
    v2 = os.environ.get("DISABLE_MMA_V3") == "1"
    kernel = load_kernel(ref)
    os.makedirs(out, exist_ok=True)
    flops = 2.0 * size ** 3
    bf16 = os.environ.get("DTYPE") == "bf16"
    dtype = torch.bfloat16 if bf16 else torch.float16
    a = torch.randn(size, size, device="cuda", dtype=dtype)
    b = torch.randn(size, size, device="cuda", dtype=dtype)
    c = torch.empty(size, size, device="cuda", dtype=dtype)
    ref_c = a.float() @ b.float()
    ref_norm = float(torch.linalg.norm(ref_c))

    def tflops(ms):
        return round(flops / ms / 1e9, 1)

    results = {"size": size, "dtype": "bf16" if bf16 else "f16",
               "mma": "mma.sync (DISABLE_MMA_V3=1)" if v2 else "default",
               "cublas_time_ms": tflops(time_ms(lambda: torch.matmul(a, b, out=c))),
               "cublas_do_bench": tflops(do_bench(lambda: torch.matmul(a, b, out=c), warmup=50,
                                                   rep=300, return_mode="median")),
               "configs": {}}
    for bm, bn, bk, w, s in configs:
        tag = f"{bm}x{bn}x{bk}_w{w}_s{s}"
        grid = (triton.cdiv(size, bm) * triton.cdiv(size, bn),)

        def run():
            return kernel[grid](a, b, c, size, size, size, a.stride(0), a.stride(1), b.stride(0),
                                b.stride(1), c.stride(0), c.stride(1), BLOCK_M=bm, BLOCK_N=bn,
                                BLOCK_K=bk, GROUP_M=8, LEAKY=False, num_warps=w, num_stages=s)

        c.fill_(float("nan"))
        compiled = run()
        torch.cuda.synchronize()
        err = float(torch.linalg.norm(c.float() - ref_c)) / ref_norm
        ptx = compiled.asm["ptx"]
        name = f"triton_matmul_{tag}" + ("_bf16" if bf16 else "") + ("_v2" if v2 else "")
        open(os.path.join(out, name + ".ptx"), "w").write(ptx)
        open(os.path.join(out, name + ".cubin"), "wb").write(compiled.asm["cubin"])
        row = {"instr": "wgmma" if "wgmma" in ptx else "mma.sync" if "mma.sync" in ptx else "neither",
               "regs": getattr(compiled, "n_regs", None), "spills": getattr(compiled, "n_spills", None),
               "shared": compiled.metadata.shared, "relerr": err}
        if not err < 1e-2:  # NaN fails too
            row["error"] = "wrong result, not timed"
        else:
            row["time_ms"] = tflops(time_ms(run))
            row["do_bench"] = tflops(do_bench(run, warmup=50, rep=300, return_mode="median"))
        results["configs"][tag] = row
        print(f"triton {results['dtype']} {results['mma']} {tag} {size}^3: {row.get('time_ms', '-')} TFLOP/s "
              f"(do_bench {row.get('do_bench', '-')}), {row['instr']}, regs {row['regs']}, "
              f"spills {row['spills']}, shared {row['shared']}, relerr {err:.2e}", flush=True)
    print(f"cuBLAS {results['dtype']} {size}^3: {results['cublas_time_ms']} TFLOP/s "
          f"(do_bench {results['cublas_do_bench']})")
    path = os.path.join(out, f"triton_matmul_{size}" + ("_bf16" if bf16 else "") +
                        ("_v2" if v2 else "") + ".json")
    with open(path, "w") as f:
        json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
