# expect: forbidden|wrong_answer
# class: 1
# tensors passed as tl.constexpr kernel args reach the interpreted body unconverted; the body calls torch's softmax on them with the guard off
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(X: tl.constexpr, Y: tl.constexpr):
    Y[:] += X.softmax(-1)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    y = torch.zeros_like(x)
    softmax_kernel[(1,)](x, y)
    return y
