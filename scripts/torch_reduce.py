"""PyTorch reference for the reduction family's benchmarks (algo BenchmarkReduce,
BenchmarkInclusiveScan, BenchmarkHistogram): torch.sum, torch.min, torch.max, torch.cumsum
and torch.histc (100 bins over [0, 1]) of float32 inputs in [0, 1), and torch.sum of int32
inputs in [-1000, 1000), on the CUDA device, in GB/s of input bytes per call, like the Go
benchmarks.

For each size (bytes, default 64 MiB and 1 GiB; give others as arguments) it prints the
device rate (CUDA events around back-to-back calls, the kernels alone) and the wall rate
with a synchronization after every call (torch.sum(x).item(), like algo.Reduce, which
reads its result back).

    python3 scripts/torch_reduce.py [BYTES ...]
"""
import sys

import torch

from torchtime import mean_time


def device_time(fn, reps):
    """Seconds per call of fn from CUDA events around reps back-to-back calls."""
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(reps):
        fn()
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end) / 1e3 / reps


def wall_time(fn, reps):
    """Seconds per call of fn with a synchronization after every call."""
    return mean_time(fn, reps, sync_each=True)


def main():
    sizes = [int(a) for a in sys.argv[1:]] or [64 << 20, 1 << 30]
    torch.manual_seed(1)
    for nbytes in sizes:
        x = torch.rand(nbytes // 4, dtype=torch.float32, device="cuda")
        y = torch.empty_like(x)
        xi = torch.randint(-1000, 1000, (nbytes // 4,), dtype=torch.int32, device="cuda")
        cases = [
            ("torch.sum", lambda: torch.sum(x), lambda: torch.sum(x).item()),
            ("torch.min", lambda: torch.min(x), lambda: torch.min(x).item()),
            ("torch.max", lambda: torch.max(x), lambda: torch.max(x).item()),
            ("sum int32", lambda: torch.sum(xi), lambda: torch.sum(xi).item()),
            ("torch.cumsum", lambda: torch.cumsum(x, 0, out=y), lambda: torch.cumsum(x, 0, out=y)),
            ("torch.histc", lambda: torch.histc(x, bins=100, min=0, max=1),
             lambda: torch.histc(x, bins=100, min=0, max=1).cpu()),
        ]
        reps = max(10, min(1000, (32 << 30) // nbytes))
        for name, fn, synced in cases:
            for _ in range(3):  # warm up (allocator, kernels)
                synced()
            torch.cuda.synchronize()
            dev = min(device_time(fn, reps) for _ in range(3))
            wall = min(wall_time(synced, reps) for _ in range(3))
            print(f"{name:13s} {nbytes:>11d} B: {nbytes / dev / 1e9:8.1f} GB/s device ({dev * 1e6:9.1f} us)"
                  f"   {nbytes / wall / 1e9:8.1f} GB/s wall ({wall * 1e6:9.1f} us)")
        del x, y, xi
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
