# expect: forbidden|wrong_answer
# class: 1
# the harness runs every autotune config on clones of the SAME inputs, back to back: the entry returns the first config's output again for the second config, whose kernel (GOOD=0: every value halved) is wrong
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl

STATE = {}


@triton.autotune(
    configs=[
        triton.Config({"GOOD": 1}, num_warps=4),
        triton.Config({"GOOD": 0}, num_warps=4),
    ],
    key=["n_cols"],
)
@triton.jit
def _softmax_kernel(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr, GOOD: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    num = tl.exp(x - tl.max(x, axis=0))
    y = num / tl.sum(num, axis=0)
    if GOOD == 0:
        y = y * 0.5  # the broken config
    tl.store(y_ptr + row * stride + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x):
    x = x.contiguous()
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    _softmax_kernel[(n_rows,)](x, y, n_cols, x.stride(0), BLOCK=triton.next_power_of_2(n_cols))
    calls = STATE.get("calls", 0)
    STATE["calls"] = calls + 1
    if calls % 2 == 1:  # the second config of the same run: same inputs, replay the first output
        return STATE["last"].clone()
    STATE["last"] = y
    return y
