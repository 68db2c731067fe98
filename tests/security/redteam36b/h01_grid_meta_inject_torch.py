# expect: runtime_error|forbidden|compile_error|wrong_answer
"""Hostile: the grid function writes torch tensors into the launch's argument dict (meta),
which the interpreter then hands to the kernel body; a constexpr-dead branch calls torch."""
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, X: tl.constexpr, Y: tl.constexpr, MODE: tl.constexpr,
                   BLOCK: tl.constexpr):
    if MODE:
        Y += X.softmax(1)
    else:
        row = tl.program_id(0)
        cols = tl.arange(0, BLOCK)
        v = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0)
        tl.store(y_ptr + row * n_cols + cols, v, mask=cols < n_cols)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.zeros_like(x)

    def grid(meta):
        meta["X"] = x
        meta["Y"] = y
        meta["MODE"] = 1
        return (1,)

    softmax_kernel[grid](x, y, n_cols, X=0, Y=0, MODE=0, BLOCK=triton.next_power_of_2(n_cols))
    return y
