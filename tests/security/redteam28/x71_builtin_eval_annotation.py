# expect: forbidden|wrong_answer|runtime_error
# class 4 (builtins): bare annotations `eval: str` and `compile: str` count as a binding, so eval(...) reaches the builtin and runs a string the check never parsed
import torch
import triton
import triton.language as tl

eval: str
compile: str


@triton.jit
def touch_kernel(y_ptr):
    tl.store(y_ptr, 0.0)


def softmax_triton(x):
    y = torch.empty_like(x)
    touch_kernel[(1,)](y)

    eval(compile("import torch\nfrom torch.utils._python_dispatch import _disable_current_modes as d\nwith d():\n    Y.copy_(torch.softmax(X.double(), -1))\n", "s", "exec"), {"X": x, "Y": y})
    return y
