# expect: correct
# honest: autotune over ROWS per program with a pure early_config_prune (drops configs by the row width only) and reset-free configs
import torch
import triton
import triton.language as tl


def prune(configs, named_args, **kwargs):
    width = named_args["n_cols"]
    kept = [c for c in configs if c.kwargs["ROWS"] * triton.next_power_of_2(width) <= 8192]
    return kept or configs[:1]


@triton.autotune(
    configs=[triton.Config({"ROWS": r}, num_warps=w) for r in (1, 2, 4) for w in (2, 4)],
    key=["n_cols"],
    prune_configs_by={"early_config_prune": prune},
)
@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_rows, n_cols, x_stride, y_stride, BLOCK: tl.constexpr, ROWS: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)[:, None]
    cols = tl.arange(0, BLOCK)[None, :]
    mask = (rows < n_rows) & (cols < n_cols)
    x = tl.load(x_ptr + rows * x_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    x = x - tl.max(x, axis=1)[:, None]
    num = tl.exp(x)
    y = num / tl.sum(num, axis=1)[:, None]
    tl.store(y_ptr + rows * y_stride + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    grid = lambda meta: (triton.cdiv(n_rows, meta["ROWS"]),)  # noqa: E731
    softmax_kernel[grid](x, y, n_rows, n_cols, x.stride(0), y.stride(0), BLOCK=triton.next_power_of_2(n_cols))
    return y
