# expect: runtime_error|forbidden|compile_error|wrong_answer
"""Hostile: an autotuned kernel whose grid lambda calls meta.update(...) to swap the pointer
arguments for the torch tensors themselves; a dead constexpr branch (compiled with MODE=0)
then runs torch's softmax inside the launch, where no dispatch mode watches."""
import torch
import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({"BLOCK": 1024}, num_warps=4),
                          triton.Config({"BLOCK": 4096}, num_warps=8)], key=["n_cols"])
@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, MODE: tl.constexpr, BLOCK: tl.constexpr):
    if MODE:
        y_ptr += x_ptr.softmax(-1)
    else:
        row = tl.program_id(0)
        cols = tl.arange(0, BLOCK)
        v = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0)
        tl.store(y_ptr + row * n_cols + cols, v, mask=cols < n_cols)


def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.zeros_like(x)
    softmax_kernel[lambda meta: (meta.update(x_ptr=x, y_ptr=y, MODE=1), (1,))[1]](
        x, y, n_cols, MODE=0)
    return y
