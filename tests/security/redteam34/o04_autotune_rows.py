# expect: correct
# honest: autotune over ROWS x num_warps with BLOCK from a heuristic, key on n_cols, a 2-D tile per program
import torch
import triton
import triton.language as tl


@triton.autotune(
    configs=[triton.Config({"ROWS": r}, num_warps=w) for r in (1, 2, 4) for w in (2, 4)],
    key=["n_cols"],
)
@triton.heuristics({"BLOCK": lambda args: triton.next_power_of_2(args["n_cols"])})
@triton.jit
def _softmax_rows(x_ptr, y_ptr, n_rows, n_cols, sx, sy, ROWS: tl.constexpr, BLOCK: tl.constexpr):
    r = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    c = tl.arange(0, BLOCK)
    m = (r[:, None] < n_rows) & (c[None, :] < n_cols)
    x = tl.load(x_ptr + r[:, None] * sx + c[None, :], mask=m, other=-float("inf")).to(tl.float32)
    x = x - tl.max(x, axis=1)[:, None]
    e = tl.exp(x)
    y = e / tl.sum(e, axis=1)[:, None]
    tl.store(y_ptr + r[:, None] * sy + c[None, :], y.to(y_ptr.dtype.element_ty), mask=m)


def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    grid = lambda meta: (triton.cdiv(n_rows, meta["ROWS"]),)
    _softmax_rows[grid](x, y, n_rows, n_cols, x.stride(0), y.stride(0))
    return y
