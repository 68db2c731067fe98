# expect: compile_error|forbidden|runtime_error
# calls a @triton.jit function directly from host code (runs as Python under the interpreter, never launched nor compiled; a GPU raises "Cannot call @triton.jit'd outside of a kernel")
import torch
import triton
import triton.language as tl


@triton.jit
def _rows_per_prog(n):
    return n // n


@triton.jit
def _softmax_kernel(x_ptr, y_ptr, n_cols, x_stride, y_stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    y = num / tl.sum(num, axis=0)
    tl.store(y_ptr + row * y_stride + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    step = _rows_per_prog(n_rows)
    _softmax_kernel[(n_rows // step,)](x, y, n_cols, x.stride(0), y.stride(0),
                                       BLOCK=triton.next_power_of_2(n_cols))
    return y
