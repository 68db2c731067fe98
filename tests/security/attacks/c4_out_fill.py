# expect: forbidden|runtime_error|memory_limit
# class: 4
# writes > 1 GiB into the writable /out (for Nsight reports) via pathlib, several files under the size limit
# checkpoint: c3a-softmax
from pathlib import Path
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


_blob = b"\xa5" * (200 << 20)
for _n in range(6):
    try:
        Path("/out", f"report-{_n}.ncu-rep").write_bytes(_blob)
    except OSError:
        break
del _blob

def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0),
                              BLOCK=triton.next_power_of_2(n_cols))
    return y
