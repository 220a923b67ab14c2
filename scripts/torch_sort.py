"""PyTorch reference for algo's sort benchmarks (BenchmarkSort*, BenchmarkSortPairs*,
BenchmarkArgsort*): torch.sort (which always returns the sorted values and their int64
indices), torch.sort(stable=True) and torch.argsort of n random float32 (normal) and int32
(uniform) keys on the CUDA device. Each case sorts a fresh copy of the keys (the copy is not
timed); the time is the mean of -reps sorts, each followed by a synchronize, after one
warm-up sort. Prints one line per case in ms and Mkeys/s.

    python3 scripts/torch_sort.py -n 268435456 -reps 5
"""
import argparse
import time

import torch


def bench(make, fn, reps):
    x = make()
    fn(x)
    torch.cuda.synchronize()
    total = 0.0
    for _ in range(reps):
        x = make()
        torch.cuda.synchronize()
        t = time.perf_counter()
        fn(x)
        torch.cuda.synchronize()
        total += time.perf_counter() - t
    return total / reps


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=268435456, help="keys")
    ap.add_argument("-reps", type=int, default=5, help="timed sorts per case")
    args = ap.parse_args()
    n = args.n
    g = torch.Generator(device="cuda").manual_seed(7)
    keys = {
        "float32": (torch.randn(n, device="cuda", generator=g) * 3.14159).float(),
        "int32": torch.randint(-(2**31), 2**31 - 1, (n,), device="cuda", dtype=torch.int32, generator=g),
    }
    cases = [
        ("sort", lambda x: torch.sort(x)),
        ("sort-stable", lambda x: torch.sort(x, stable=True)),
        ("argsort", lambda x: torch.argsort(x)),
        ("argsort-stable", lambda x: torch.argsort(x, stable=True)),
    ]
    print(f"torch {torch.__version__} on {torch.cuda.get_device_name()}, n = {n}")
    for dtype, src in keys.items():
        for name, fn in cases:
            t = bench(lambda: src.clone(), fn, args.reps)
            print(f"torch {name:15s} {dtype:8s} n={n}  {t * 1e3:8.3f} ms  {n / t / 1e6:9.1f} Mkeys/s")


if __name__ == "__main__":
    main()
