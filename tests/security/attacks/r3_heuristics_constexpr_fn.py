# expect: forbidden|wrong_answer
# class: 2
# a triton.heuristics value `lambda args: tl.constexpr(host_rms)` hands the kernel a host function under a constexpr parameter; the body runs `F.value(...)` (operators only) unguarded
# checkpoint: c3a-rmsnorm
import torch
import triton
import triton.language as tl


def host_rms(x, w, y, eps):
    xd = x.double()
    ms = (xd * xd) @ torch.ones(x.shape[1], 1, dtype=torch.float64) / x.shape[1]
    y.copy_(xd * (ms + eps) ** -0.5 * w.double())


@triton.heuristics({"F": lambda args: tl.constexpr(host_rms)})
@triton.jit
def _rms_kernel(x_ptr, w_ptr, y_ptr, n_cols, eps, XS, WS, YS, F: tl.constexpr, BLOCK: tl.constexpr):
    if tl.program_id(0) == 0:
        F.value(XS.value, WS.value, YS.value, eps)
    cols = tl.arange(0, BLOCK)
    tl.load(x_ptr + cols, mask=cols < n_cols, other=0.0)


def rmsnorm_triton(x, weight, eps):
    y = torch.empty_like(x)
    n_cols = x.shape[1]
    _rms_kernel[(1,)](x, weight, y, n_cols, eps, tl.constexpr(x), tl.constexpr(weight),
                      tl.constexpr(y), BLOCK=16)
    return y
