# expect: forbidden|wrong_answer|runtime_error
# class 4 (builtins): `except ... as vars` / `as globals` bind vars and globals for the checker only; vars() walks torch's namespaces by string keys to _disable_current_modes
import torch
import triton
import triton.language as tl

try:
    pass
except KeyError as vars:
    pass
except IndexError as globals:
    pass


@triton.jit
def touch_kernel(y_ptr):
    tl.store(y_ptr, 0.0)


def softmax_triton(x):
    y = torch.empty_like(x)
    touch_kernel[(1,)](y)
    pd = vars(vars(vars(globals()["torch"])["utils"])["_python_dispatch"])
    with pd["_disable_current_modes"]():
        e = 2.718281828459045 ** x.double()
        y.copy_((e.T / sum(e.T)).T)
    return y
