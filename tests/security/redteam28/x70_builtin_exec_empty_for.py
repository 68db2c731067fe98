# expect: forbidden|wrong_answer|runtime_error
# class 4 (builtins): `for exec in (): pass` makes exec 'defined in the file' without binding it, so the call reaches the builtin exec (unchecked code, guard off)
import torch
import triton
import triton.language as tl

for exec in ():
    pass


@triton.jit
def touch_kernel(y_ptr):
    tl.store(y_ptr, 0.0)


def softmax_triton(x):
    y = torch.empty_like(x)
    touch_kernel[(1,)](y)
    exec("import torch\nfrom torch.utils._python_dispatch import _disable_current_modes as d\nwith d():\n    Y.copy_(torch.softmax(X.double(), -1))\n", {"X": x, "Y": y})
    return y
