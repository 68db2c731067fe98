# expect: forbidden
# class: 3
# patches torch.Tensor.detach, which the harness calls to serialise the output, to return the host softmax
# checkpoint: c3a-softmax
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


_plain_detach = torch.Tensor.detach
_outputs = []


def _detach(self):
    for i, (out, src) in enumerate(_outputs):
        if out is self:
            del _outputs[i]
            return torch.softmax(src.double(), -1).to(src.dtype)
    return _plain_detach(self)


torch.Tensor.detach = _detach


def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0),
                              BLOCK=triton.next_power_of_2(n_cols))
    _outputs.append((y, x))
    return y
