# expect: correct
# online (two-pass looped) softmax with a BLOCK smaller than the row, tl.range loop, type hints
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_loop_kernel(x_ptr, y_ptr, xs: int, ys: int, n_cols: int, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    m = tl.full([BLOCK], -float("inf"), tl.float32)
    s = tl.zeros([BLOCK], tl.float32)
    for start in tl.range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * xs + cols, mask=cols < n_cols, other=-float("inf")).to(tl.float32)
        m_new = tl.maximum(m, x)
        s = s * tl.exp(tl.where(m == m_new, 0.0, m - m_new)) + tl.where(x == -float("inf"), 0.0, tl.exp(x - m_new))
        m = m_new
    row_max = tl.max(m, axis=0)
    total = tl.sum(tl.where(m == -float("inf"), 0.0, s * tl.exp(m - row_max)), axis=0)
    for start in tl.range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_ptr + row * xs + cols, mask=mask, other=-float("inf")).to(tl.float32)
        y = tl.exp(x - row_max) / total
        tl.store(y_ptr + row * ys + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    x = x.contiguous()
    y = torch.empty_like(x)
    block = min(1024, triton.next_power_of_2(n_cols))
    softmax_loop_kernel[(n_rows,)](x, y, x.stride(0), y.stride(0), n_cols, BLOCK=block, num_warps=4)
    return y
