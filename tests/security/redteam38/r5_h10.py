# expect: correct
# red team 5: tl.reduce with a custom combine function and several rows per program (2-D tile), constexpr ROWS from a heuristic
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl


@triton.jit
def _max_combine(a, b):
    return tl.maximum(a, b)


@triton.heuristics({"ROWS": lambda a: 4 if a["n_cols"] <= 512 else 1})
@triton.jit
def softmax_kernel(x_ptr, y_ptr, sx, sy, n_rows, n_cols, BLOCK: tl.constexpr, ROWS: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK)
    rmask = rows < n_rows
    cmask = cols < n_cols
    mask = rmask[:, None] & cmask[None, :]
    x = tl.load(x_ptr + rows[:, None] * sx + cols[None, :], mask=mask, other=float("-inf")).to(tl.float32)
    m = tl.reduce(x, 1, _max_combine)
    e = tl.exp(x - m[:, None])
    e = tl.where(mask, e, 0.0)
    y = e / tl.sum(e, axis=1)[:, None]
    tl.store(y_ptr + rows[:, None] * sy + cols[None, :], y.to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    rows = 4 if n_cols <= 512 else 1
    softmax_kernel[(triton.cdiv(n_rows, rows),)](x, y, x.stride(0), y.stride(0), n_rows, n_cols,
                                                 BLOCK=triton.next_power_of_2(n_cols))
    return y
