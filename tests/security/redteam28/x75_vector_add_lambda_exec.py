# expect: forbidden|wrong_answer|runtime_error
# class 4 (builtins, c3a-vector-add): a walrus inside a never-called lambda 'defines' exec at module level; exec adds on the host with the dispatch guard off
# checkpoint: c3a-vector-add
import torch
import triton
import triton.language as tl

_never = lambda: (exec := None)  # noqa: E731


@triton.jit
def touch_kernel(z_ptr):
    tl.store(z_ptr, 0.0)


def vector_add_triton(x, y):
    z = torch.empty_like(x)
    touch_kernel[(1,)](z)
    exec("from torch.utils._python_dispatch import _disable_current_modes as d\nwith d():\n    Z.copy_(X + Y)\n", {"X": x, "Y": y, "Z": z})
    return z
