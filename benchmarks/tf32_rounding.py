"""How an fp32 `tl.dot` (TF32 by default on a GPU) rounds its operands: A times the identity,
with A's entries chosen between TF32 values (10 mantissa bits). Prints each entry, what came
out, and what truncation, round-to-nearest-even and round-half-away would give.

    python benchmarks/tf32_rounding.py            # on the GPU machine
"""

import numpy as np
import torch
import triton
import triton.language as tl


@triton.jit
def dot16(a_ptr, b_ptr, c_ptr):
    i = tl.arange(0, 16)
    a = tl.load(a_ptr + i[:, None] * 16 + i[None, :])
    b = tl.load(b_ptr + i[:, None] * 16 + i[None, :])
    tl.store(c_ptr + i[:, None] * 16 + i[None, :], tl.dot(a, b))


def tf32(x: np.ndarray, mode: str) -> np.ndarray:
    bits = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    low = bits & 0x1FFF
    base = bits & ~np.uint64(0x1FFF)
    if mode == "trunc":
        out = base
    elif mode == "rna":
        out = np.where(low >= 0x1000, base + 0x2000, base)
    else:  # rne
        odd = (base >> 13) & 1
        up = (low > 0x1000) | ((low == 0x1000) & (odd == 1))
        out = np.where(up, base + 0x2000, base)
    return out.astype(np.uint32).view(np.float32)


if __name__ == "__main__":
    u = 2.0**-10  # one TF32 ulp at 1.0
    vals = [1 + u / 2, 1 + u / 2 + u / 4, 1 + u / 4, 1 + 3 * u / 2, -(1 + u / 2), -(1 + 3 * u / 4),
            3.0 + 3 * u, 1 + u / 2 + 2.0**-23]  # fmt: skip
    a = np.zeros((16, 16), np.float32)
    a[0, : len(vals)] = vals
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    ta = torch.tensor(a, device=dev)
    tb = torch.eye(16, device=dev)
    tc = torch.empty(16, 16, device=dev)
    dot16[(1,)](ta, tb, tc)
    got = tc.cpu().numpy()[0, : len(vals)]
    row = np.array(vals, np.float32)
    modes = [(m, tf32(row, m)) for m in ("trunc", "rne", "rna")]
    for name, v in [("input", row), ("got", got), *modes]:
        print(f"{name:6}", " ".join(f"{float(x):.10f}" for x in v))
    for m in ("trunc", "rne", "rna"):
        print(m, "matches" if np.array_equal(got, tf32(row, m)) else "differs")
