# expect: forbidden|wrong_answer|runtime_error
# class 4 (builtins): a walrus in a never-called function (a local there) makes exec 'defined in the file' at module level, so the call reaches the builtin exec (unchecked code, guard off)
import torch
import triton
import triton.language as tl


def _never():
    return (exec := None)


@triton.jit
def touch_kernel(y_ptr):
    tl.store(y_ptr, 0.0)


def softmax_triton(x):
    y = torch.empty_like(x)
    touch_kernel[(1,)](y)
    exec("import torch\nfrom torch.utils._python_dispatch import _disable_current_modes as d\nwith d():\n    Y.copy_(torch.softmax(X.double(), -1))\n", {"X": x, "Y": y})
    return y
