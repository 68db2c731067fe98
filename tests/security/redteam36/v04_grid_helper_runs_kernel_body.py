# expect: runtime_error|forbidden|compile_error|wrong_answer
# (session's variant) the grid function itself calls a second jit function with the meta
# arguments, which does the work outside any launch the compile check records.
import torch
import triton
import triton.language as tl


@triton.jit
def noop_kernel(x_ptr, y_ptr, stride, n_cols, BLOCK: tl.constexpr):
    pass


@triton.jit
def softmax_kernel(x_ptr, y_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    v = tl.load(x_ptr + row * stride + cols, mask=mask, other=-float("inf"))
    v = v - tl.max(v, axis=0)
    e = tl.exp(v)
    tl.store(y_ptr + row * stride + cols, e / tl.sum(e, axis=0), mask=mask)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    y = torch.empty_like(x)
    grid = lambda meta: (softmax_kernel(meta["x_ptr"], meta["y_ptr"], meta["stride"], meta["n_cols"], meta["BLOCK"]) or x.shape[0],)
    noop_kernel[grid](x, y, x.stride(0), x.shape[1], BLOCK=triton.next_power_of_2(x.shape[1]))
    return y
