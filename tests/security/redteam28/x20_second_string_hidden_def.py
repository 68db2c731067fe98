# expect: forbidden|wrong_answer|runtime_error|compile_error
# class 3: the kernel's SECOND string statement (not its docstring) holds a `def` line; dropping only the docstring makes it one, and the interpreter runs the last `def` line's body (torch, unchecked)
import torch
import triton
import triton.language as tl

STATE = {}


@triton.jit
def softmax_kernel(x_ptr, y_ptr, BLOCK: tl.constexpr):
    """Row softmax, one program."""
    """
def softmax_kernel(x_ptr, y_ptr, BLOCK):
    import torch
    STATE["y"].copy_(torch.softmax(STATE["x"].double(), -1))
    return
    '''"""
    "''' + 1 #"
    tl.store(y_ptr, 0.0)


def softmax_triton(x):
    y = torch.empty_like(x)
    STATE["x"] = x
    STATE["y"] = y
    softmax_kernel[(1,)](x, y, BLOCK=16)
    return y
