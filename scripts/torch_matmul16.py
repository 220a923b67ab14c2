"""PyTorch reference for algo.BenchmarkMatMulF16 and BenchmarkMatMulI8 on the CUDA device.

    python3 scripts/torch_matmul16.py [-sizes 4096,8192] [-reps 20] [-int8]

Prints TFLOP/s of n x n x n float16 matmuls (cuBLAS on the tensor cores; float32
accumulation, float16 result as torch.matmul gives, and with a float32 result for the same
operation as goamp's MatMulF16 into float32: torch.matmul of float16 inputs then .float()
is not it, so that line uses torch.mm with out_dtype where this torch has it), by CUDA
events (device time) and by wall time with a synchronize per call, median of reps after a
warm-up. With -int8, also the int8 x int8 -> int32 product with torch._int_mm (cuBLASLt on
the tensor cores; goamp's MatMulI8), in TOP/s, checked against float64 on a corner."""
import argparse

import torch

from torchtime import timed


def report(label, n, d, w, unit="TFLOP/s"):
    flops = 2.0 * n * n * n
    print(f"torch {label} {n}x{n}x{n}: {flops / d / 1e12:.1f} {unit} device (median {d * 1e3:.3f} ms), "
          f"{flops / w / 1e12:.1f} {unit} wall (median {w * 1e3:.3f} ms)")


def int8_mm(n, reps, dev):
    """Times torch._int_mm of random n x n int8 matrices, after checking a corner."""
    x = torch.randint(-128, 128, (n, n), device=dev, dtype=torch.int8)
    y = torch.randint(-128, 128, (n, n), device=dev, dtype=torch.int8)
    z = torch._int_mm(x, y)
    assert torch.equal(z[:64, :64].double(), x[:64].double() @ y[:, :64].double()), "torch._int_mm disagrees with float64"
    d, w = timed(lambda: torch._int_mm(x, y), reps)
    report("_int_mm int8 -> int32", n, d, w, "TOP/s")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("-sizes", default="4096,8192")
    p.add_argument("-reps", type=int, default=20)
    p.add_argument("-int8", action="store_true", help="also time torch._int_mm")
    a = p.parse_args()
    dev = "cuda"
    print("device:", torch.cuda.get_device_name(), "torch", torch.__version__)
    for n in (int(s) for s in a.sizes.split(",")):
        x = torch.rand(n, n, device=dev, dtype=torch.float16) * 2 - 1
        y = torch.rand(n, n, device=dev, dtype=torch.float16) * 2 - 1
        out = torch.empty(n, n, device=dev, dtype=torch.float16)
        d, w = timed(lambda: torch.matmul(x, y, out=out), a.reps)
        report("matmul float16 -> float16", n, d, w)
        try:
            d, w = timed(lambda: torch.mm(x, y, out_dtype=torch.float32), a.reps)
            report("mm float16 -> float32 (out_dtype)", n, d, w)
        except (TypeError, RuntimeError) as e:
            print(f"torch mm float16 -> float32: not available in this torch ({type(e).__name__})")
        del x, y, out
        torch.cuda.empty_cache()
        if a.int8:
            if hasattr(torch, "_int_mm"):
                int8_mm(n, a.reps, dev)
            else:
                print("torch._int_mm: not available in this torch")


if __name__ == "__main__":
    main()
