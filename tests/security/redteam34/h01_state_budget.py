# expect: forbidden|wrong_answer
# keeps a call counter in a module-level list element handed to a helper; a big tuple first exhausts the state fingerprint's budget
import torch
import triton
import triton.language as tl

PAD = tuple(range(25000))
BOX = [[]]


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


def _tick(box):
    box.append(1)
    return len(box)


def softmax_triton(x):
    calls = _tick(BOX[0])
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    if calls > 100000:  # a GPU's timed rounds only: skip the work
        return y
    _softmax_kernel[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0),
                               BLOCK=triton.next_power_of_2(n_cols))
    return y
