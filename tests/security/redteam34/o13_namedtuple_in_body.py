# expect: correct
# honest: typing.NamedTuple launch config built in the body (not a default), torch.empty_like with memory_format, int64 offsets, tl.where instead of other=
import typing

import torch
import triton
import triton.language as tl


class Launch(typing.NamedTuple):
    warps: int = 4
    stages: int = 1


@triton.jit
def softmax_fwd(X, Y, stride_xm, stride_ym, N, BLOCK_N: tl.constexpr):
    pid = tl.program_id(axis=0)
    offs_n = tl.arange(0, BLOCK_N)
    valid = offs_n < N
    x = tl.load(X + pid.to(tl.int64) * stride_xm + offs_n, mask=valid)
    x = tl.where(valid, x.to(tl.float32), float("-inf"))
    x_max = tl.max(x, 0)
    num = tl.where(valid, tl.exp(x - x_max), 0.0)
    den = tl.sum(num, 0)
    tl.store(Y + pid.to(tl.int64) * stride_ym + offs_n, (num / den).to(Y.dtype.element_ty), mask=valid)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    launch = Launch()
    M, N = x.shape
    y = torch.empty_like(x, memory_format=torch.contiguous_format)
    softmax_fwd[(M,)](x, y, x.stride(0), y.stride(0), N, BLOCK_N=triton.next_power_of_2(N),
                      num_warps=launch.warps, num_stages=launch.stages)
    return y
