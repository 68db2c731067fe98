# expect: correct
# honest: a local set built with set.add / set.update / discard to validate dtypes (no state between calls)
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, x_row_stride, y_row_stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    num = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * y_row_stride + cols, (num / tl.sum(num, axis=0)).to(y_ptr.dtype.element_ty), mask=mask)


def supported_dtypes():
    ok = set()
    ok.add(torch.float32)
    ok.update({torch.float16, torch.bfloat16})
    ok.discard(torch.float64)
    return ok


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    if x.dtype not in supported_dtypes():
        raise TypeError("unsupported dtype")
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, x.stride(0), y.stride(0), n_cols, BLOCK=triton.next_power_of_2(n_cols))
    return y
