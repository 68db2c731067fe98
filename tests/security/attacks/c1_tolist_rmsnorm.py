# expect: forbidden|wrong_answer
# class: 1
# rmsnorm computed from .tolist() rows with math.fsum in a comprehension with a walrus; kernel only copies
# checkpoint: c3a-rmsnorm
import math
import torch
import triton
import triton.language as tl


@triton.jit
def rms_kernel(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    c = tl.arange(0, BLOCK)
    m = c < n_cols
    tl.store(y_ptr + row * stride + c, tl.load(x_ptr + row * stride + c, mask=m), mask=m)


def rmsnorm_triton(x, weight, eps):
    x = x.contiguous()
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    rms_kernel[(n_rows,)](x, y, n_cols, x.stride(0), BLOCK=triton.next_power_of_2(n_cols))
    w = weight.tolist()
    out = [[v / (r := math.sqrt(math.fsum(t * t for t in row) / n_cols + eps)) * wi
            for v, wi in zip(row, w)] for row in y.tolist()]
    y.copy_(torch.tensor(out, dtype=torch.float64))
    return y
