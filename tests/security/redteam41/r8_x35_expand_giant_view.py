# expect: wrong_answer|runtime_error|forbidden|memory_limit
# returns a zero-stride expanded view of 2**40 elements (shape mismatch; does the parent try to read it all?)
import torch
import triton
import triton.language as tl


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    y = torch.zeros(1, 1, dtype=x.dtype)
    return y.expand(1 << 20, 1 << 20)
