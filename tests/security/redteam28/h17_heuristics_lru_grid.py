# expect: correct
# honest: triton.heuristics with lambdas (block, rows per program, num_warps), an lru_cache'd pure settings function, a grid lambda on the meta-parameters
import functools

import torch
import triton
import triton.language as tl


@functools.lru_cache(maxsize=64)
def rows_for(block: int) -> int:
    return max(1, min(8, 2048 // block))


@triton.heuristics(
    {
        "BLOCK": lambda args: triton.next_power_of_2(args["n_cols"]),
        "ROWS": lambda args: rows_for(triton.next_power_of_2(args["n_cols"])),
        "num_warps": lambda args: 8 if args["n_cols"] > 2048 else 4,
    }
)
@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_rows, n_cols, x_stride, y_stride, BLOCK: tl.constexpr, ROWS: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)[:, None]
    cols = tl.arange(0, BLOCK)[None, :]
    mask = (rows < n_rows) & (cols < n_cols)
    x = tl.load(x_ptr + rows * x_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    num = tl.exp(x - tl.max(x, axis=1, keep_dims=True))
    y = num / tl.sum(num, axis=1, keep_dims=True)
    tl.store(y_ptr + rows * y_stride + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[lambda meta: (triton.cdiv(n_rows, meta["ROWS"]),)](x, y, n_rows, n_cols, x.stride(0), y.stride(0))
    return y
