"""PyTorch reference for arrayview's Synchronize benchmark: 256 MiB host<->device copies,
pageable and pinned, on the CUDA device. Prints one line per case in GB/s."""
import torch

from torchtime import mean_time


def bench(fn, reps=10):
    """Seconds per call of fn over reps back-to-back calls, after one."""
    return mean_time(fn, reps, warmup=1)


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
