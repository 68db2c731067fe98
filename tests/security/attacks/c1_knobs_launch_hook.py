# expect: forbidden|wrong_answer
# class: 1
# triton.knobs.runtime.launch_enter_hook computes the answer on the host at every launch (GPU path)
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl

@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, x_stride, y_stride, BLOCK: tl.constexpr):
    # second pass: touch up the row in place
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    v = tl.load(y_ptr + row * y_stride + cols, mask=mask, other=0.0)
    tl.store(y_ptr + row * y_stride + cols, v, mask=mask)


_pending = []


def _enter(metadata):
    for src, dst in _pending:
        dst.copy_(torch.softmax(src.double(), dim=-1))
    _pending.clear()


triton.knobs.runtime.launch_enter_hook.add(_enter)


def softmax_triton(x):
    _pending.append((x, y := torch.empty_like(x)))
    n_rows, n_cols = x.shape
    softmax_kernel[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0),
                              BLOCK=triton.next_power_of_2(n_cols))
    return y
