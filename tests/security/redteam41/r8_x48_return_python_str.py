# expect: wrong_answer|runtime_error|forbidden|compile_error
# the entry returns an odd object (python_str) after an honest launch: does the trusted parent's comparison fail (internal_error)?
import torch
import triton
import triton.language as tl


@triton.jit
def noop(x_ptr, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(x_ptr + o, tl.load(x_ptr + o, mask=o < n), mask=o < n)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    noop[(1,)](x, 1, B=2)
    return "x" * 100000
