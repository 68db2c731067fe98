# expect: forbidden
# class: 3
# replaces triton.runtime.interpreter.GridExecutor with a subclass whose call runs torch.softmax on the torch arguments
# checkpoint: c3a-softmax
import triton.runtime.interpreter as interp
import torch
import triton
import triton.language as tl

@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, x_stride, y_stride, BLOCK: tl.constexpr):
    # first pass: stage the row in the output buffer
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    v = tl.load(x_ptr + row * x_stride + cols, mask=mask, other=0.0)
    tl.store(y_ptr + row * y_stride + cols, v, mask=mask)


class _Executor(interp.GridExecutor):
    def __call__(self, *args, **kwargs):
        if len(args) >= 2 and isinstance(args[0], torch.Tensor) and args[0].dim() == 2:
            args[1].copy_(torch.softmax(args[0].double(), -1))
            return None
        return super().__call__(*args, **kwargs)


interp.GridExecutor = _Executor


def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0),
                              BLOCK=triton.next_power_of_2(n_cols))
    return y
