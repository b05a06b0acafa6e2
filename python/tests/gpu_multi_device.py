#!/usr/bin/env python3
"""tk kernels on every GPU of the machine, from PyTorch (the GPU machine;
not part of the CI unit tests). With fewer than two GPUs it prints "skip"
and exits 0.

    TK_LIBRARY=build/lib/libtkjit.so python3 python/tests/gpu_multi_device.py

Checks, on each device d: the vector add on tensors on cuda:d is right
(so it ran in d's context, on d's memory); a launch inside
`with torch.cuda.stream(s)` runs on s (the result is there after
s.synchronize() alone); PyTorch's current device is the same after a launch
on another device; tensors on two devices in one launch are an error.
Prints one "ok ..." line per check, "FAIL ..." otherwise; exit 1 on a FAIL.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))


def main():
    import torch
    count = torch.cuda.device_count() if torch.cuda.is_available() else 0
    if count < 2:
        print("skip: %d CUDA device(s); this test needs 2 or more" % count)
        return 0
    import tk
    add = tk.jit(os.path.join(ROOT, "examples", "add.tk"), "add")
    failures = 0

    def check(ok, what):
        nonlocal failures
        print(("ok " if ok else "FAIL ") + what)
        failures += not ok

    n = 100000
    grid = (tk.cdiv(n, 1024),)
    for device in range(count):
        x = torch.randn(n, device="cuda:%d" % device)
        y = torch.randn(n, device="cuda:%d" % device)
        for _ in range(3):  # general path, then the cheap one
            out = torch.zeros_like(x)
            add[grid](x, y, out, n, BLOCK=1024)
        torch.cuda.synchronize(device)
        check(torch.equal(out, x + y), "add on cuda:%d" % device)

        stream = torch.cuda.Stream(device=device)
        out = torch.zeros_like(x)
        with torch.cuda.stream(stream):
            for _ in range(2):
                add[grid](x, y, out, n, BLOCK=1024)
        stream.synchronize()
        check(torch.equal(out, x + y),
              "add on cuda:%d inside torch.cuda.stream" % device)

    torch.cuda.set_device(0)
    x = torch.randn(n, device="cuda:1")
    out = torch.zeros_like(x)
    add[grid](x, x, out, n, BLOCK=1024)
    check(torch.cuda.current_device() == 0,
          "the current device stays cuda:0 after a launch on cuda:1 "
          "(it is cuda:%d)" % torch.cuda.current_device())
    z = torch.ones(n, device="cuda:0")
    check(torch.equal(z + z, torch.full_like(z, 2.0)),
          "PyTorch still runs on cuda:0 afterwards")
    torch.cuda.synchronize(1)
    check(torch.equal(out, 2 * x), "that launch on cuda:1 is right")

    try:
        add[grid](torch.zeros(n, device="cuda:0"), x, out, n, BLOCK=1024)
        check(False, "tensors on two devices are refused")
    except TypeError as error:
        check("cuda:1" in str(error), "tensors on two devices are refused: "
              "%s" % error)
    print("%d FAIL" % failures if failures else "all ok")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
