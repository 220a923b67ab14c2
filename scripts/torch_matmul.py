"""PyTorch reference for algo.BenchmarkMatMul and BenchmarkConvolve2D on the CUDA device.

    python3 scripts/torch_matmul.py [-n 4096] [-img 4096] [-ks 9] [-reps 20]

Prints TFLOP/s of an n x n x n float32 matmul with TF32 off (the SGEMM goamp's tiled kernel
is measured against), by CUDA events (device time) and by wall time with a synchronize per
call, and GB/s of a separable 2-D convolution of an img x img float32 image (two cuDNN
1-D convolutions with replicate padding: clamp-to-edge, the same work as algo.Convolve2D;
bytes counted as the image read and the result written once each, as the Go benchmark does)."""
import argparse

import torch
import torch.nn.functional as F

from torchtime import timed


def main():
    p = argparse.ArgumentParser()
    p.add_argument("-n", type=int, default=4096)
    p.add_argument("-img", type=int, default=4096)
    p.add_argument("-ks", type=int, default=9)
    p.add_argument("-reps", type=int, default=20)
    a = p.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    dev = "cuda"
    print("device:", torch.cuda.get_device_name(), "torch", torch.__version__)

    n = a.n
    x = torch.randn(n, n, device=dev)
    y = torch.randn(n, n, device=dev)
    out = torch.empty(n, n, device=dev)
    d, w = timed(lambda: torch.matmul(x, y, out=out), a.reps)
    flops = 2.0 * n * n * n
    print(f"torch matmul {n}x{n}x{n} float32 tf32=off: {flops / d / 1e12:.2f} TFLOP/s device (median {d * 1e3:.3f} ms), "
          f"{flops / w / 1e12:.2f} TFLOP/s wall (median {w * 1e3:.3f} ms)")

    img, ks, r = a.img, a.ks, a.ks // 2
    im = torch.randn(1, 1, img, img, device=dev)
    kr = torch.randn(1, 1, 1, ks, device=dev)
    kc = torch.randn(1, 1, ks, 1, device=dev)

    def conv():
        t = F.conv2d(F.pad(im, (r, r, 0, 0), mode="replicate"), kr)
        return F.conv2d(F.pad(t, (0, 0, r, r), mode="replicate"), kc)

    d, w = timed(conv, a.reps)
    nbytes = 2.0 * 4 * img * img
    print(f"torch separable conv {img}x{img} k={ks} float32: {nbytes / d / 1e9:.1f} GB/s device (median {d * 1e3:.3f} ms), "
          f"{nbytes / w / 1e9:.1f} GB/s wall (median {w * 1e3:.3f} ms)")


if __name__ == "__main__":
    main()
