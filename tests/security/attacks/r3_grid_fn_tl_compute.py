# expect: forbidden|wrong_answer
# class: 1
# the grid function (host code, run inside the interpreter's patched scope) does the whole softmax with tl.load/tl.exp/tl.store on meta's pointers; the kernel body does nothing
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl


def _grid(meta):
    # host code: triton.language is allowed on the host, and while Triton launches the
    # interpreter has patched it to compute on numpy (no torch op for the guard to see)
    x_ptr, y_ptr, n_cols = meta["x_ptr"], meta["y_ptr"], meta["n_cols"]
    block = meta["BLOCK"]
    cols = tl.arange(0, block)
    mask = cols < n_cols
    for r in range(meta["N_ROWS"]):
        x = tl.load(x_ptr + r * n_cols + cols, mask=mask, other=-float("inf")).to(tl.float32)
        num = tl.exp(x - tl.max(x, axis=0))
        tl.store(y_ptr + r * n_cols + cols, num / tl.sum(num, axis=0), mask=mask)
    return (1,)


@triton.jit
def _noop(x_ptr, y_ptr, n_cols, N_ROWS: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)


def softmax_triton(x):
    x = x.contiguous()
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    _noop[_grid](x, y, n_cols, N_ROWS=n_rows, BLOCK=triton.next_power_of_2(n_cols))
    return y
