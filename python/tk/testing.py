"""tk.testing.do_bench: time a callable as Triton's do_bench does.

On the GPU (PyTorch present and CUDA available): CUDA events around each
call, the L2 cache flushed between calls (a 256 MB buffer zeroed), a
warm-up of about `warmup` ms, then about `rep` ms of timed calls. In the
interpreter (or without torch), the host clock.
"""
import time

_FLUSH_BYTES = 256 * 1024 * 1024


def _summary(times, quantiles, return_mode):
    ordered = sorted(times)
    if quantiles is not None:
        result = [ordered[min(len(ordered) - 1, int(q * len(ordered)))]
                  for q in quantiles]
        return result[0] if len(result) == 1 else result
    if return_mode == "min":
        return ordered[0]
    if return_mode == "max":
        return ordered[-1]
    if return_mode == "median":
        return ordered[len(ordered) // 2]
    if return_mode == "all":
        return times
    return sum(times) / len(times)


def do_bench(fn, warmup=25, rep=100, grad_to_none=None, quantiles=None,
             return_mode="mean"):
    """Milliseconds per call of `fn`: the mean (return_mode "mean", Triton's
    default), "median", "min", "max", "all", or the given quantiles."""
    if return_mode not in ("mean", "median", "min", "max", "all"):
        raise ValueError("return_mode must be mean, median, min, max or all")
    torch = None
    try:
        import torch as _torch
        if _torch.cuda.is_available():
            torch = _torch
    except ImportError:
        pass
    from . import _jit
    if torch is None or _jit._interpreting():
        fn()
        start = time.perf_counter()
        fn()
        estimate = max((time.perf_counter() - start) * 1e3, 1e-3)
        for _ in range(max(1, int(warmup / estimate))):
            fn()
        times = []
        for _ in range(max(1, int(rep / estimate))):
            begin = time.perf_counter()
            fn()
            times.append((time.perf_counter() - begin) * 1e3)
        return _summary(times, quantiles, return_mode)

    cache = torch.empty(_FLUSH_BYTES // 4, dtype=torch.int32, device="cuda")
    fn()
    torch.cuda.synchronize()
    begin, end = torch.cuda.Event(True), torch.cuda.Event(True)
    begin.record()
    for _ in range(5):
        cache.zero_()
        fn()
    end.record()
    torch.cuda.synchronize()
    estimate = max(begin.elapsed_time(end) / 5, 1e-3)
    for _ in range(max(1, int(warmup / estimate))):
        fn()
    count = max(1, int(rep / estimate))
    starts = [torch.cuda.Event(True) for _ in range(count)]
    ends = [torch.cuda.Event(True) for _ in range(count)]
    for i in range(count):
        if grad_to_none is not None:
            for tensor in grad_to_none:
                tensor.grad = None
        cache.zero_()
        starts[i].record()
        fn()
        ends[i].record()
    torch.cuda.synchronize()
    times = [s.elapsed_time(e) for s, e in zip(starts, ends)]
    return _summary(times, quantiles, return_mode)
