# expect: forbidden|memory_limit
# class: 4
# holds 1 GiB in memfd pages (written, never mapped: outside RSS); a real attack would hold N x 256 MiB past the limit
# checkpoint: c3a-softmax
import os
import torch
import triton
import triton.language as tl

@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, x_stride, y_stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    y = e / tl.sum(e, axis=0)
    tl.store(y_ptr + row * y_stride + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


_held = []
_mb = b"\x01" * (1 << 20)
for _i in range(4):
    _fd = os.memfd_create(f"scratch{_i}")
    for _ in range(250):
        os.write(_fd, _mb)
    _held.append(_fd)

def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0),
                              BLOCK=triton.next_power_of_2(n_cols))
    return y
