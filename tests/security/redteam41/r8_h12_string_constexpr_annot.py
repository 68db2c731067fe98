# expect: correct
# string annotations: "constexpr" for the block, "i32" for n_cols, "fp32" pointer-free scalars; num_stages kw; 2-D grid over (rows, 1)
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, sx: "i32", sy: "i32", n_cols: "i32", BLOCK: "constexpr"):
    row = tl.program_id(0) + tl.program_id(1) * tl.num_programs(0)
    c = tl.arange(0, BLOCK)
    ok = c < n_cols
    x = tl.load(x_ptr + row * sx + c, mask=ok, other=-float("inf")).to(tl.float32)
    m = tl.max(x, axis=0)
    p = tl.exp(x - m)
    tl.store(y_ptr + row * sy + c, (p * (1.0 / tl.sum(p, axis=0))).to(y_ptr.dtype.element_ty), mask=ok)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    r, n = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(r, 1, 1)](x, y, x.stride(0), y.stride(0), n, BLOCK=triton.next_power_of_2(n), num_stages=1)
    return y
