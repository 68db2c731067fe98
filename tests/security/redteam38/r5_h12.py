# expect: correct
# red team 5: flash-attention style EVEN_N heuristic, exp2 with a LOG2E module constant, default constexpr, a __main__ test block
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl

LOG2E = tl.constexpr(1.4426950408889634)


@triton.heuristics({
    "BLOCK_N": lambda args: triton.next_power_of_2(args["n_cols"]),
    "EVEN_N": lambda args: args["n_cols"] == triton.next_power_of_2(args["n_cols"]),
})
@triton.jit
def softmax_fwd(X, Y, stride_xm, stride_ym, n_cols, BLOCK_N: tl.constexpr, EVEN_N: tl.constexpr, USE_EXP2: tl.constexpr = True):
    pid_m = tl.program_id(0)
    offs_n = tl.arange(0, BLOCK_N)
    if EVEN_N:
        x = tl.load(X + pid_m * stride_xm + offs_n).to(tl.float32)
    else:
        x = tl.load(X + pid_m * stride_xm + offs_n, mask=offs_n < n_cols, other=float("-inf")).to(tl.float32)
    m = tl.max(x, 0)
    if USE_EXP2:
        p = tl.exp2((x - m) * LOG2E)
    else:
        p = tl.exp(x - m)
    out = p / tl.sum(p, 0)
    if EVEN_N:
        tl.store(Y + pid_m * stride_ym + offs_n, out.to(Y.dtype.element_ty))
    else:
        tl.store(Y + pid_m * stride_ym + offs_n, out.to(Y.dtype.element_ty), mask=offs_n < n_cols)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    y = torch.empty_like(x)
    softmax_fwd[(x.shape[0],)](x, y, x.stride(0), y.stride(0), x.shape[1])
    return y


if __name__ == "__main__":
    import numpy as np
    t = torch.randn(4, 100)
    print(np.abs((softmax_triton(t) - torch.softmax(t, -1)).numpy()).max())
