# expect: correct
# checkpoint: c3a-rmsnorm
# two-pass chunked rmsnorm (loop over BLOCK chunks), sqrt + division instead of rsqrt, eps typed "fp32"
import torch
import triton
import triton.language as tl


@triton.jit
def rmsnorm_kernel(x_ptr, w_ptr, y_ptr, sx, sy, n_cols, eps: "fp32", BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        c = start + offs
        v = tl.load(x_ptr + row * sx + c, mask=c < n_cols, other=0.0).to(tl.float32)
        acc += v * v
    denom = tl.sqrt(tl.sum(acc, axis=0) / n_cols + eps)
    for start in range(0, n_cols, BLOCK):
        c = start + offs
        m = c < n_cols
        v = tl.load(x_ptr + row * sx + c, mask=m, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + c, mask=m, other=0.0).to(tl.float32)
        tl.store(y_ptr + row * sy + c, (v / denom * w).to(y_ptr.dtype.element_ty), mask=m)


def rmsnorm_triton(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    x = x.contiguous()
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    rmsnorm_kernel[(n_rows,)](x, weight, y, x.stride(0), y.stride(0), n_cols, eps,
                              BLOCK=min(1024, triton.next_power_of_2(n_cols)))
    return y
