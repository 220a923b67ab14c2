"""CUDA's rate for 256 MiB host to device and back with torch on the same machine, from
memory CUDA allocates pinned (cudaHostAlloc, torch's pin_memory) and from ordinary memory
registered with cudaHostRegister: the CUDA counterpart of goamp's pinned Synchronize,
which imports a Go slice's own pages (compare scripts/vkcopy.c). Median of 20 copies,
each followed by a synchronize (torchtime.timed).

    python3 scripts/torch_hostreg.py
"""
import torch

from torchtime import timed

n = 256 << 20


def rate(src, dst, reps=20):
    """GB/s of dst.copy_(src): the median wall time of reps copies (timed)."""
    _, wall = timed(lambda: dst.copy_(src, non_blocking=True), reps)
    return n / wall / 1e9


d = torch.empty(n, dtype=torch.uint8, device="cuda")
p = torch.empty(n, dtype=torch.uint8, pin_memory=True)
print("cudaHostAlloc    up %.2f down %.2f GB/s" % (rate(p, d), rate(d, p)))
h = torch.ones(n, dtype=torch.uint8)  # ordinary pages, touched
err = torch.cuda.cudart().cudaHostRegister(h.data_ptr(), n, 0)
print("cudaHostRegister", err, "is_pinned", h.is_pinned())
print("registered       up %.2f down %.2f GB/s" % (rate(h, d), rate(d, h)))
