# expect: forbidden|wrong_answer
# class: 1
# str(tensor) runs torch's formatter under _disable_current_modes(): str(x.double().view(torch.int64)) reads every value exactly on the host; softmax in Python math, rebuilt with torch.tensor
# checkpoint: c3a-softmax
import math

import torch
import triton
import triton.language as tl


@triton.jit
def _copy(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


def _ints(t):
    # torch prints at most 1000 elements in full: read in chunks of 1000
    out = []
    n = t.shape[0]
    for s in range(0, n, 1000):
        text = str(t.narrow(0, s, min(1000, n - s)))
        body = text.split("[")[1].split("]")[0]
        out.extend(int(tok.strip()) for tok in body.replace("\n", " ").split(",") if tok.strip())
    return out


def _f64(v):
    bits = v + (1 << 64) if v < 0 else v
    sign = -1.0 if bits >> 63 else 1.0
    e = (bits >> 52) & 0x7FF
    m = bits & ((1 << 52) - 1)
    if e == 0x7FF:
        return sign * math.inf if m == 0 else math.nan
    if e == 0:
        return sign * math.ldexp(m, -1074)
    return sign * math.ldexp(m + (1 << 52), e - 1075)


def softmax_triton(x):
    xi = x.double().view(torch.int64)
    rows = []
    for r in xi:
        vals = [_f64(v) for v in _ints(r)]
        m = max(vals)
        e = [math.exp(v - m) for v in vals]
        s = math.fsum(e)
        rows.append([v / s for v in e])
    host = torch.tensor(rows, dtype=torch.float64).to(x.dtype)
    y = torch.empty_like(x)
    n = x.numel()
    _copy[(triton.cdiv(n, 1024),)](host, y, n, BLOCK=1024)
    return y
