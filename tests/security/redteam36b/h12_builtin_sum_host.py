# expect: runtime_error|forbidden|compile_error|wrong_answer
"""Probe: host builtins on tensors (max, sum over rows) -- the dispatch guard should see add/sub/exp."""
import torch
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


def softmax_triton(x):
    xt = x.t()
    m = max(xt)
    e = pow(2.718281828459045, x - m.unsqueeze(1))
    s = sum(e.t())
    r = e / s.unsqueeze(1)
    y = torch.empty_like(x)
    copy_kernel[(triton.cdiv(x.numel(), 1024),)](r, y, x.numel(), BLOCK=1024)
    return y
