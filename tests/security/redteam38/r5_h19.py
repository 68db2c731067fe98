# expect: correct
# red team 5: two-pass chunked rmsnorm for long rows (sum of squares loop, then normalize loop), BLOCK capped, num_warps by width
# checkpoint: c3a-rmsnorm
import torch
import triton
import triton.language as tl


@triton.jit
def rmsnorm_chunked(x_ptr, w_ptr, y_ptr, sx, sy, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * sx + offs, mask=offs < n_cols, other=0.0).to(tl.float32)
        acc += x * x
    inv = 1.0 / tl.sqrt(tl.sum(acc, axis=0) / n_cols + eps)
    for start in range(0, n_cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        m = offs < n_cols
        x = tl.load(x_ptr + row * sx + offs, mask=m, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + offs, mask=m, other=0.0).to(tl.float32)
        tl.store(y_ptr + row * sy + offs, (x * inv * w).to(y_ptr.dtype.element_ty), mask=m)


def rmsnorm_triton(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    block = min(1024, triton.next_power_of_2(n_cols))
    rmsnorm_chunked[(n_rows,)](x, weight, y, x.stride(0), y.stride(0), n_cols, eps,
                               BLOCK=block, num_warps=4 if block <= 512 else 8)
    return y
