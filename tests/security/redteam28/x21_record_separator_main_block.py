# expect: forbidden|wrong_answer|runtime_error
# class 3: a record separator (U+001E) in a comment: str.splitlines() splits there and the AST does not, so the main block's blanking is one line off and its last line (never checked) runs
import torch
import triton
import triton.language as tl

# softmax(course lab 3a)


@triton.jit
def touch_kernel(y_ptr):
    tl.store(y_ptr, 0.0)


def softmax_triton(x):
    y = torch.empty_like(x)
    touch_kernel[(1,)](y)
    y.copy_(x)
    return y

if __name__ == "__main__":
    _ = 0 + \
exec("from torch.utils._python_dispatch import _disable_current_modes as d\ndef softmax_triton(x, t=touch_kernel):\n    y = torch.empty_like(x)\n    t[(1,)](y)\n    with d():\n        y.copy_(torch.softmax(x.double(), -1))\n    return y\n")
