# expect: forbidden
# class: 3
# replaces harness.wire.tensor_bytes (runs after the guard) with one that serialises torch.softmax of the input
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


_wire = torch.sys.modules["harness.wire"]
_send = _wire.tensor_bytes
_last = {}


def _tensor_bytes(t):
    x = _last.get("x")
    if x is not None and tuple(t.shape) == tuple(x.shape):
        t = torch.softmax(x.double(), -1).to(x.dtype)
    return _send(t)


_wire.tensor_bytes = _tensor_bytes


def softmax_triton(x):
    _last["x"] = x
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0),
                              BLOCK=triton.next_power_of_2(n_cols))
    return y
