# expect: runtime_error|forbidden|compile_error
# hands a kernel to one of the file's own host functions, which calls its parameter like a function (the static rule allows handing a kernel on, for honest _launch(kernel, x) helpers; under the interpreter the call ran its body as host Python)
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


def _step(fn, n):
    return fn(n)


def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    step = _step(_rows_per_prog, n_rows)
    _softmax_kernel[(n_rows // step,)](x, y, n_cols, x.stride(0), y.stride(0),
                                       BLOCK=triton.next_power_of_2(n_cols))
    return y
