# expect: correct
# autotuned multi-row softmax, key on n_cols, pure early_config_prune lambda
import torch
import triton
import triton.language as tl

CONFIGS = [triton.Config({"ROWS": r}, num_warps=w) for r in (1, 2, 4) for w in (2, 4)]


@triton.autotune(configs=CONFIGS, key=["n_cols"],
                 prune_configs_by={"early_config_prune": lambda configs, nargs, **kw: [c for c in configs if c.kwargs["ROWS"] <= max(1, nargs["n_rows"])]})
@triton.jit
def softmax_rows(x_ptr, y_ptr, n_rows, n_cols, xs, ys, BLOCK: tl.constexpr, ROWS: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK)
    m = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    x = tl.load(x_ptr + rows[:, None] * xs + cols[None, :], mask=m, other=float("-inf")).to(tl.float32)
    x = x - tl.max(x, axis=1)[:, None]
    e = tl.exp(x)
    e = tl.where(m, e, 0.0)
    s = tl.sum(e, axis=1)[:, None]
    tl.store(y_ptr + rows[:, None] * ys + cols[None, :], (e / s).to(y_ptr.dtype.element_ty), mask=m)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    grid = lambda meta: (triton.cdiv(n_rows, meta["ROWS"]),)
    softmax_rows[grid](x, y, n_rows, n_cols, x.stride(0), y.stride(0), BLOCK=triton.next_power_of_2(n_cols))
    return y
