"""The cross-entropy reference's arithmetic as its compiled PTX does it, emulated on the CPU:
the rounding a GPU fused multiply-add leaves out, which the Triton interpreter (numpy, no fused
multiply-add) cannot show. For 2026-11-30's fix, which had no GPU time left to be run.

    .venv/bin/python benchmarks/ce_fma_emulation.py

From the PTX for sm_90 (`triton.compile`, 2048-wide chunks): `ml` is a rounded multiply
(mul.f32 by log2e); each term is ex2(fma(x, log2e, -ml)). `measured` is the kernel timed on
the H200 in the fourth session (commit a75dfc0), whose rescale was ex2(fma(m_old, log2e, -ml)):
not exactly 1 when the max did not change. `current` carries ml, rescales by ex2(ml_old - ml)
and corrects the one offset every term shares at the end. A fused multiply-add is emulated in
float64 (the product of two float32 values is exact there), then rounded to float32. Prints the
worst per-row error against torch in float64.
"""

from __future__ import annotations

import math

import torch

F = torch.nn.functional
L = torch.tensor(1.4426950408889634, dtype=torch.float32)
LN2 = torch.tensor(0.6931471805599453, dtype=torch.float32)
NEG = float("-inf")


def fma(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor) -> torch.Tensor:
    return (a.double() * b.double() + c.double()).float()


def chunks(x: torch.Tensor, block: int) -> torch.Tensor:
    n, v = x.shape
    return F.pad(x.float(), (0, (-v) % block), value=NEG).view(n, -1, block)


def measured(x: torch.Tensor, t: torch.Tensor, block: int = 2048) -> torch.Tensor:
    m = torch.full((x.shape[0],), NEG)
    s = torch.zeros(x.shape[0], block)
    for c in chunks(x, block).unbind(1):
        new = torch.maximum(m, c.max(1).values)
        ml = torch.where(new == NEG, 0.0, new) * L
        s = s * torch.exp2(fma(m, L, -ml))[:, None] + torch.exp2(fma(c, L, -ml[:, None]))
        m = new
    return m + torch.log(s.sum(1)) - x.float().gather(1, t[:, None])[:, 0]


def current(x: torch.Tensor, t: torch.Tensor, block: int = 2048) -> torch.Tensor:
    m = torch.full((x.shape[0],), NEG)
    ml = m.clone()
    s = torch.zeros(x.shape[0], block)
    for c in chunks(x, block).unbind(1):
        top = c.max(1).values
        m = torch.maximum(m, top)
        new = torch.maximum(ml, top * L)
        base = torch.where(new == NEG, 0.0, new)
        s = s * torch.exp2(ml - base)[:, None] + torch.exp2(fma(c, L, -base[:, None]))
        ml = new
    m = torch.where(m == NEG, 0.0, m)
    ml = torch.where(ml == NEG, 0.0, ml)
    d = fma(m, L, -ml)
    x_t = x.float().gather(1, t[:, None])[:, 0]
    return (m - x_t) + (torch.log(s.sum(1)) - d * LN2)


def main() -> None:
    g = torch.Generator().manual_seed(0)
    print(f"{'logits':<34} {'measured (a75dfc0)':>20} {'current':>12}")
    for off in (0.0, 1e3, 1e4, 3e4, 1e6):
        for v in (6001, 32000, 128256):
            x = torch.randn(8, v, generator=g) * 3 + off
            t = torch.randint(0, v, (8,), generator=g)
            want = F.cross_entropy(x.double(), t, reduction="none")
            a = (measured(x, t).double() - want).abs().max().item()
            b = (current(x, t).double() - want).abs().max().item()
            print(f"{f'randn * 3 + {off:g}, {v} columns':<34} {a:>20.2e} {b:>12.2e}")
    for fill in (-1e6, -1e9, -2e9):
        x = torch.full((1, 32000), fill)
        t = torch.tensor([5])
        a, b = measured(x, t).item(), current(x, t).item()
        name = f"all {fill:g}, 32000 columns"
        print(f"{name:<34} {a:>20.4f} {b:>12.4f}  (exact {math.log(32000):.4f})")


if __name__ == "__main__":
    main()
