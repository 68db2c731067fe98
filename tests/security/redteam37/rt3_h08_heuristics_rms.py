# expect: correct
# honest: rmsnorm with triton.heuristics for BLOCK and an EVEN flag
# checkpoint: c3a-rmsnorm
import torch
import triton
import triton.language as tl


@triton.heuristics({
    "BLOCK": lambda args: triton.next_power_of_2(args["n_cols"]),
    "EVEN": lambda args: args["n_cols"] == triton.next_power_of_2(args["n_cols"]),
})
@triton.jit
def rms_kernel(x_ptr, w_ptr, y_ptr, n_cols, sx, sy, eps, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    if EVEN:
        x = tl.load(x_ptr + row * sx + offs).to(tl.float32)
        w = tl.load(w_ptr + offs).to(tl.float32)
    else:
        m = offs < n_cols
        x = tl.load(x_ptr + row * sx + offs, mask=m, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + offs, mask=m, other=0.0).to(tl.float32)
    r = 1.0 / tl.sqrt(tl.sum(x * x, axis=0) / n_cols + eps)
    y = (x * r * w).to(y_ptr.dtype.element_ty)
    if EVEN:
        tl.store(y_ptr + row * sy + offs, y)
    else:
        tl.store(y_ptr + row * sy + offs, y, mask=offs < n_cols)


def rmsnorm_triton(x, weight, eps):
    y = torch.empty_like(x)
    rms_kernel[(x.shape[0],)](x, weight, y, x.shape[1], x.stride(0), y.stride(0), eps)
    return y
