# expect: forbidden|wrong_answer
# class: 2
# a constant name rebound at module level by a walrus inside an expression statement; kernel then holds a list of tensors
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl

K = 0
print(K := [], end="")


@triton.jit
def softmax_kernel(y_ptr):
    K[-1][:] += K[-2].softmax(-1)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    y = torch.zeros_like(x)
    K.append(x)
    K.append(y)
    softmax_kernel[(1,)](y)
    return y
