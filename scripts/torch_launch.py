"""PyTorch reference for goamp's dispatch-overhead benchmarks: a tiny kernel (x.add_(1) on
one float) launched back to back, and launched then synchronized, on the CUDA device.
Prints microseconds per launch."""
import torch

from torchtime import mean_time


def per_op(fn, n):
    """Microseconds per call of fn over n back-to-back calls, after 100."""
    return mean_time(fn, n, warmup=100) * 1e6


def main():
    x = torch.zeros(1, device="cuda")
    back_to_back = per_op(lambda: x.add_(1), 20000)

    def launch_and_wait():
        x.add_(1)
        torch.cuda.synchronize()

    with_sync = per_op(launch_and_wait, 5000)
    print(f"torch tiny kernel: {back_to_back:.2f} us back to back, {with_sync:.2f} us with synchronize")


if __name__ == "__main__":
    main()
