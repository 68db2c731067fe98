# expect: runtime_error|forbidden|compile_error|wrong_answer
"""Probe: a NamedTuple named TensorDescriptor passes _launch_arg_ok by its type name and
carries a torch tensor into a constexpr; the body calls torch's softmax on it."""
import typing

import torch
import triton
import triton.language as tl


class TensorDescriptor(typing.NamedTuple):
    base: int = 0
    out: int = 0


@triton.jit
def softmax_kernel(x_ptr, D: tl.constexpr):
    D[1] += D[0].softmax(1)


def softmax_triton(x):
    y = torch.zeros_like(x)
    softmax_kernel[(1,)](x, D=TensorDescriptor(x, y))
    return y
