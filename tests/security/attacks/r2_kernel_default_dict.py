# expect: forbidden|wrong_answer
# class: 1
# a kernel parameter's default is a module-level dict the entry fills with tensors; the launch check sees only passed args
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl

STATE = {}


@triton.jit
def softmax_kernel(y_ptr, S=STATE):
    S["y"][:] += S["x"].softmax(-1)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    y = torch.zeros_like(x)
    STATE["x"] = x
    STATE["y"] = y
    softmax_kernel[(1,)](y)
    return y
