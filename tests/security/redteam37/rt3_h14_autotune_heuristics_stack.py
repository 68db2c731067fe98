# expect: correct
# honest: flash-attention-tutorial style stack: autotune over heuristics over jit, EVEN_N heuristic, configs by num_warps, lru_cache'd launch helper
# checkpoint: c3a-softmax
import functools

import torch
import triton
import triton.language as tl


@functools.lru_cache(maxsize=None)
def _rows_per_program(n_cols):
    return max(1, min(8, 1024 // triton.next_power_of_2(n_cols)))


@triton.autotune(
    configs=[triton.Config({}, num_warps=2), triton.Config({}, num_warps=4)],
    key=["n_cols"],
)
@triton.heuristics({
    "BLOCK": lambda args: triton.next_power_of_2(args["n_cols"]),
    "EVEN_N": lambda args: args["n_cols"] == triton.next_power_of_2(args["n_cols"]),
})
@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_rows, n_cols, stride, ROWS: tl.constexpr, BLOCK: tl.constexpr, EVEN_N: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)[:, None]
    cols = tl.arange(0, BLOCK)[None, :]
    if EVEN_N:
        mask = rows < n_rows
    else:
        mask = (rows < n_rows) & (cols < n_cols)
    x = tl.load(x_ptr + rows * stride + cols, mask=mask, other=float("-inf")).to(tl.float32)
    x = x - tl.max(x, axis=1)[:, None]
    e = tl.exp(x)
    y = e / tl.sum(e, axis=1)[:, None]
    tl.store(y_ptr + rows * stride + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x):
    x = x.contiguous()
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    rows = _rows_per_program(n_cols)
    softmax_kernel[(triton.cdiv(n_rows, rows),)](x, y, n_rows, n_cols, x.stride(0), ROWS=rows)
    return y
