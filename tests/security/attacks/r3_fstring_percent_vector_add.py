# expect: forbidden|wrong_answer
# class: 1
# the same formatter hole spelled without str(): f"{t}" and "%s" % t read int64 bit patterns of x and y; the add is done in Python floats, the kernel only copies
# checkpoint: c3a-vector-add
import math

import torch
import triton
import triton.language as tl


@triton.jit
def _copy(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(dst_ptr + offs, tl.load(src_ptr + offs, mask=offs < n), mask=offs < n)


def _read(t, spell):
    bits = t.double().view(torch.int64)
    out = []
    n = bits.shape[0]
    for s in range(0, n, 1000):
        chunk = bits.narrow(0, s, min(1000, n - s))
        text = f"{chunk}" if spell else "%s" % (chunk,)
        body = text.split("[")[1].split("]")[0]
        out.extend(int(tok.strip()) for tok in body.replace("\n", " ").split(",") if tok.strip())
    return [_f64(v) for v in out]


def _f64(v):
    bits = v + (1 << 64) if v < 0 else v
    sign = -1.0 if bits >> 63 else 1.0
    e = (bits >> 52) & 0x7FF
    m = bits & ((1 << 52) - 1)
    if e == 0:
        return sign * math.ldexp(m, -1074)
    return sign * math.ldexp(m + (1 << 52), e - 1075)


def vector_add_triton(x, y):
    xs, ys = _read(x, True), _read(y, False)
    host = torch.tensor([a + b for a, b in zip(xs, ys)], dtype=torch.float64).to(x.dtype)
    out = torch.empty_like(x)
    n = x.numel()
    _copy[(triton.cdiv(n, 1024),)](host, out, n, BLOCK=1024)
    return out
