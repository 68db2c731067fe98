# expect: forbidden|wrong_answer|runtime_error
# class 4 (builtins): a walrus in an empty comprehension 'defines' getattr and globals; getattr with plain strings reaches torch.softmax under _disable_current_modes
import torch
import triton
import triton.language as tl

[(getattr := 0) for _ in ()]
[(globals := 0) for _ in ()]


@triton.jit
def touch_kernel(y_ptr):
    tl.store(y_ptr, 0.0)


def softmax_triton(x):
    y = torch.empty_like(x)
    touch_kernel[(1,)](y)
    t = globals()["torch"]
    pd = getattr(getattr(t, "utils"), "_python_dispatch")
    with getattr(pd, "_disable_current_modes")():
        y.copy_(getattr(t, "softmax")(x.double(), -1))
    return y
