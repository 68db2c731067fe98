# expect: correct
# honest: a module-level tl.constexpr read on the host through .value, and math constants folded into a constexpr
import math

import torch
import triton
import triton.language as tl

CHUNK: tl.constexpr = tl.constexpr(4096)
LOG2E: tl.constexpr = tl.constexpr(1.0 / math.log(2.0))


@triton.jit
def softmax_kernel(x_ptr, y_ptr, x_row_stride, y_row_stride, n_cols, BLOCK: tl.constexpr):
    tl.static_assert(BLOCK <= CHUNK)
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    z = (x - tl.max(x, axis=0)) * LOG2E
    num = tl.exp2(z)
    tl.store(y_ptr + row * y_row_stride + cols, (num / tl.sum(num, axis=0)).to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    assert n_cols <= CHUNK.value, "rows wider than one chunk are not supported"
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, x.stride(0), y.stride(0), n_cols, BLOCK=triton.next_power_of_2(n_cols))
    return y
