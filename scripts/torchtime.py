"""Timing helpers of the PyTorch reference scripts (torch_copy, torch_hostreg, torch_launch,
torch_reduce, torch_matmul, torch_matmul16),
imported from beside them: python3 scripts/NAME.py puts scripts/ on the module path."""
import time

import torch


def mean_time(fn, reps, warmup=0, sync_each=False):
    """Seconds per call of fn over reps calls after warmup calls: back to back between two
    synchronizations, or with sync_each a synchronization after every call."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    t = time.perf_counter()
    for _ in range(reps):
        fn()
        if sync_each:
            torch.cuda.synchronize()
    torch.cuda.synchronize()
    return (time.perf_counter() - t) / reps


def timed(fn, reps):
    """Median seconds of fn by CUDA events (device time) and by wall time with a synchronize
    per call, over reps calls after one."""
    fn()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    dev, wall = [], []
    for _ in range(reps):
        t = time.perf_counter()
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        wall.append(time.perf_counter() - t)
        dev.append(start.elapsed_time(end) / 1e3)
    dev.sort()
    wall.sort()
    return dev[len(dev) // 2], wall[len(wall) // 2]
