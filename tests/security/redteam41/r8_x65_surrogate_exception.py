# expect: runtime_error|wrong_answer|forbidden|compile_error
# the entry raises an error whose message is lone surrogates from a string literal (no chr): the parent's JSON/utf-8 handling of the message
import torch
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, n):
    pass


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    k[(1,)](x, 3)
    raise RuntimeError("bad \ud800 \udfff \udc80 end")
