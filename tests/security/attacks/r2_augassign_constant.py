# expect: forbidden|wrong_answer
# class: 2
# `C = ()` then `C += ([],)` at module level: the "constant" tuple now holds a list the entry fills with tensors
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl

C = ()
C += ([],)


@triton.jit
def softmax_kernel(y_ptr):
    C[0][-1][:] += C[0][-2].softmax(-1)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    y = torch.zeros_like(x)
    C[0].append(x)
    C[0].append(y)
    softmax_kernel[(1,)](y)
    return y
