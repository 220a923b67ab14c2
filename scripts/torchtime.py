"""Timing helper of the PyTorch reference scripts (torch_copy, torch_launch, torch_reduce),
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
