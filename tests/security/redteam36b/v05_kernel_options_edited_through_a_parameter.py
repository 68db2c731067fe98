# expect: runtime_error|forbidden|compile_error|wrong_answer
# (the session's variant of h19, by another route) the kernel is handed to a host helper, which
# drops its do_not_specialize through the parameter before the launch and puts it back after:
# the compile check would then judge a specialization other than the one the file declared.
import torch
import triton
import triton.language as tl

SCALE = 1.0


@triton.jit(do_not_specialize=["flag"])
def softmax_kernel(x_ptr, y_ptr, stride, n_cols, flag, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    v = tl.load(x_ptr + row * stride + cols, mask=mask, other=-float("inf"))
    v = v - tl.max(v, axis=0)
    e = tl.exp(v)
    tl.store(y_ptr + row * stride + cols, e / tl.sum(e, axis=0), mask=mask)


def _launch(k, x, y):
    saved = k.kwargs.pop("do_not_specialize", None)
    k[(x.shape[0],)](x, y, x.stride(0), x.shape[1], 1, BLOCK=triton.next_power_of_2(x.shape[1]))
    k.kwargs.update({"do_not_specialize": saved})


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    y = torch.empty_like(x)
    _launch(softmax_kernel, x, y)
    return y
