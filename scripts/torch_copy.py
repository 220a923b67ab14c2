"""PyTorch reference for arrayview's Synchronize benchmark: 256 MiB host<->device copies,
pageable and pinned, on the CUDA device. Prints one line per case in GB/s."""
import time

import torch


def bench(fn, reps=10):
    fn()
    torch.cuda.synchronize()
    t = time.perf_counter()
    for _ in range(reps):
        fn()
    torch.cuda.synchronize()
    return (time.perf_counter() - t) / reps


def main():
    n = 256 << 20
    dev = torch.empty(n // 4, dtype=torch.float32, device="cuda")
    for pinned in (False, True):
        host = torch.arange(n // 4, dtype=torch.float32)
        if pinned:
            host = host.pin_memory()
        kind = "pinned" if pinned else "pageable"
        h2d = bench(lambda: dev.copy_(host, non_blocking=pinned))
        d2h = bench(lambda: host.copy_(dev, non_blocking=pinned))
        print(f"torch {kind:8s} host-to-device {n / h2d / 1e9:7.2f} GB/s   device-to-host {n / d2h / 1e9:7.2f} GB/s")


if __name__ == "__main__":
    main()
