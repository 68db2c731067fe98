# expect: forbidden|wrong_answer
# class: 2
# a constant name rebound to a mutable list by a module-level for loop (the constant scan looks only at assignments); entry appends tensors, kernel computes on them
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl

BOX = 0
for BOX in [[]]:
    pass


@triton.jit
def softmax_kernel(y_ptr):
    BOX[-1][:] += BOX[-2].softmax(-1)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    y = torch.zeros_like(x)
    BOX.append(x)
    BOX.append(y)
    softmax_kernel[(1,)](y)
    return y
