# expect: forbidden|wrong_answer
# class: 1
# a module-level "constant" (X = 0) rebound by `global X` in the entry to the tensors; the kernel body reads it and runs torch ops unguarded
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl

X = 0


@triton.jit
def softmax_kernel(y_ptr, n):
    X[1][:] += X[0].softmax(-1)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    global X
    y = torch.zeros_like(x)
    X = (x, y)
    softmax_kernel[(1,)](y, y.numel())
    return y
