# expect: wrong_answer|runtime_error|forbidden
# returns a list of 200000 tiny tensors instead of one tensor
import torch
import triton
import triton.language as tl


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    return [torch.zeros(1) for i in range(200000)]
