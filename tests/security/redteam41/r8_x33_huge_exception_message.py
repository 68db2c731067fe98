# expect: runtime_error|wrong_answer|forbidden|compile_error
# the entry raises a ValueError whose message is 4 MB of varied lines (result JSON over 64 KiB?)
import torch
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, n):
    pass


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    msg = "\n".join(f"line {i} " + "é" * 40 for i in range(100000))
    raise ValueError(msg)
