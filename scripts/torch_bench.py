"""PyTorch reference for cmd/ampbench: the same operations at the same sizes on the CUDA
device, written as JSON that `ampbench -ref` reads to print ratios.

    python3 scripts/torch_bench.py [-n N] [-mat N] [-img N] [-reps N] [-json out.json]

Kernel names, sizes and the bytes or FLOPs each one counts match cmd/ampbench/cases.go.
TF32 is off for matmul; int32 matmul has no CUDA equivalent in PyTorch and is left out;
matmul-f16 is torch.mm of float16 matrices into float32 (out_dtype; float16 where this torch
lacks it), matmul-i8 torch._int_mm (left out where missing). conv2d is
two cuDNN convolutions with zero padding, the same work as goamp's clamp-to-edge separable pass.
fma-peak-f32 is ampbench's compute-peak kernel (cmd/ampbench/peak.go) as one elementwise CUDA
kernel compiled by torch.cuda.jiterator: per element, 8 chains of 256 fmaf on registers; it is
left out where jiterator is missing. Times are the best of -reps, each including a synchronize."""
import argparse
import json
import time

import torch


def best(fn, reps):
    fn()
    torch.cuda.synchronize()
    t_best = float("inf")
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        t_best = min(t_best, time.perf_counter() - t)
    return t_best


# FMA_PEAK is cmd/ampbench's FmaPeak kernel (fmaChains = 8, fmaIters = 256) in CUDA C++.
FMA_CHAINS, FMA_ITERS = 8, 256
FMA_PEAK = """
template <typename T> T fma_peak(T x) {
  T a0 = x, a1 = x + 0.125f, a2 = x + 0.25f, a3 = x + 0.375f;
  T a4 = x + 0.5f, a5 = x + 0.625f, a6 = x + 0.75f, a7 = x + 0.875f;
  const T m = 0.9999f, c = 0.0001f;
  for (int i = 0; i < 256; i++) {
    a0 = fmaf(a0, m, c); a1 = fmaf(a1, m, c); a2 = fmaf(a2, m, c); a3 = fmaf(a3, m, c);
    a4 = fmaf(a4, m, c); a5 = fmaf(a5, m, c); a6 = fmaf(a6, m, c); a7 = fmaf(a7, m, c);
  }
  return ((a0 + a1) + (a2 + a3)) + ((a4 + a5) + (a6 + a7));
}
"""


def matmul_f16(a, b):
    """The float16 product with a float32 result, as goamp's MatMulF16 computes it: torch.mm
    with out_dtype where this torch has it, else the float16 result (the same tensor-core
    work, a narrower store)."""
    try:
        torch.mm(a[:16, :16], b[:16, :16], out_dtype=torch.float32)
        return lambda: torch.mm(a, b, out_dtype=torch.float32)
    except (TypeError, RuntimeError):
        return lambda: torch.mm(a, b)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("-n", type=int, default=1 << 20)
    p.add_argument("-mat", type=int, default=256)
    p.add_argument("-img", type=int, default=1024)
    p.add_argument("-reps", type=int, default=5)
    p.add_argument("-json", default="")
    a = p.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    dev = "cuda"
    n, m, img = a.n, a.mat, a.img
    g = torch.Generator(device=dev).manual_seed(1)
    x = torch.rand(n, device=dev, generator=g)
    y = torch.rand(n, device=dev, generator=g)
    out = torch.empty_like(x)
    xi = torch.randint(-1000, 1000, (n,), device=dev, dtype=torch.int32, generator=g)
    A = torch.rand(m, m, device=dev, generator=g)
    B = torch.rand(m, m, device=dev, generator=g)
    Ai = torch.randint(-8, 8, (m, m), device=dev, dtype=torch.int32, generator=g)
    Bi = torch.randint(-8, 8, (m, m), device=dev, dtype=torch.int32, generator=g)
    Ah, Bh = A.half(), B.half()
    A8 = torch.randint(-128, 128, (m, m), device=dev, dtype=torch.int8, generator=g)
    B8 = torch.randint(-128, 128, (m, m), device=dev, dtype=torch.int8, generator=g)
    im = torch.rand(1, 1, img, img, device=dev, generator=g)
    krow = torch.rand(1, 1, 1, 9, device=dev, generator=g)
    kcol = torch.rand(1, 1, 9, 1, device=dev, generator=g)
    f4 = 4.0
    cases = [
        ("vadd-f32", lambda: torch.add(x, y, out=out), 3 * 4 * n, "GB/s"),
        ("saxpy-f32", lambda: y.add_(x, alpha=2.0), 3 * 4 * n, "GB/s"),
        ("fill-f32", lambda: out.fill_(1.5), 4 * n, "GB/s"),
        ("reduce-sum-f32", lambda: x.sum().item(), 4 * n, "GB/s"),
        ("reduce-min-f32", lambda: x.min().item(), 4 * n, "GB/s"),
        ("reduce-max-f32", lambda: x.max().item(), 4 * n, "GB/s"),
        ("reduce-sum-i32", lambda: xi.sum().item(), 4 * n, "GB/s"),
        ("scan-inclusive-f32", lambda: torch.cumsum(x, 0, out=out), 2 * 4 * n, "GB/s"),
        ("histogram-f32", lambda: torch.histc(x, bins=256, min=0.0, max=1.0), 4 * n, "GB/s"),
        ("sort-f32", lambda: torch.sort(x), 2 * 4 * n, "GB/s"),
        ("sort-i32", lambda: torch.sort(xi), 2 * 4 * n, "GB/s"),
        ("transpose-f32", lambda: im[0, 0].t().contiguous(), 2 * f4 * img * img, "GB/s"),
        ("matmul-f32", lambda: torch.matmul(A, B), 2.0 * m * m * m, "GFLOP/s"),
        ("matmul-f16", matmul_f16(Ah, Bh), 2.0 * m * m * m, "GFLOP/s"),
        ("conv2d-f32", lambda: torch.nn.functional.conv2d(torch.nn.functional.conv2d(im, krow, padding=(0, 4)), kcol, padding=(4, 0)),
         2 * f4 * img * img, "GB/s"),
    ]
    try:
        fma_peak = torch.cuda.jiterator._create_jit_fn(FMA_PEAK)
        fma_peak(x[:32])  # compiles it (NVRTC) now, so that a failure leaves the case out
        cases.append(("fma-peak-f32", lambda: fma_peak(x), 2.0 * FMA_CHAINS * FMA_ITERS * n, "GFLOP/s"))
    except (AttributeError, RuntimeError) as e:
        print(f"fma-peak-f32: left out, no torch.cuda.jiterator ({e})", flush=True)
    # quantize-i8: float32 to int8 steps in one fused CUDA kernel (rounding half to even and
    # saturating to -128..127, where goamp's QuantizeI8 rounds half away and saturates to
    # -127..127: the same traffic, 5 bytes an element).
    xq = 4 * x - 2
    quant = lambda: torch.quantize_per_tensor(xq, 1 / 80, 0, torch.qint8)
    cases.append(("quantize-i8", quant, 5 * n, "GB/s"))
    cases.append(("quantize-each-i8", quant, 5 * n, "GB/s"))  # goamp's one-element-a-thread form
    if hasattr(torch, "_int_mm"):
        cases.append(("matmul-i8", lambda: torch._int_mm(A8, B8), 2.0 * m * m * m, "GFLOP/s"))
    else:
        print("matmul-i8: left out, no torch._int_mm", flush=True)
    results = []
    for name, fn, work, unit in cases:
        t = best(fn, a.reps)
        rate = work / t / 1e9
        results.append({"kernel": name, "seconds": t, "rate": rate, "unit": unit})
        print(f"{name:20s} {t * 1e3:10.3f} ms {rate:10.1f} {unit}", flush=True)
    rep = {"device": torch.cuda.get_device_name(), "sizes": {"n": n, "mat": m, "img": img}, "results": results}
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rep, f, indent=2)


if __name__ == "__main__":
    main()
