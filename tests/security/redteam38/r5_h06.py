# expect: correct
# red team 5: two kernels per file (row max+sum pass, then normalize pass), tl.static_range unrolled chunks, helper jit
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl

CHUNKS = tl.constexpr(4)


@triton.jit
def _online(m, d, x):
    m_new = tl.maximum(m, tl.max(x, axis=0))
    d = d * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
    return m_new, d


@triton.jit
def stats_kernel(x_ptr, m_ptr, d_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    m = float("-inf")
    d = 0.0
    for c in tl.static_range(CHUNKS):
        offs = c * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * stride + offs, mask=offs < n_cols, other=float("-inf")).to(tl.float32)
        m, d = _online(m, d, x)
    tl.store(m_ptr + row, m)
    tl.store(d_ptr + row, d)


@triton.jit
def norm_kernel(x_ptr, y_ptr, m_ptr, d_ptr, sx, sy, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    col_block = tl.program_id(1)
    offs = col_block * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_cols
    m = tl.load(m_ptr + row)
    d = tl.load(d_ptr + row)
    x = tl.load(x_ptr + row * sx + offs, mask=mask, other=0.0).to(tl.float32)
    y = tl.exp(x - m) / d
    tl.store(y_ptr + row * sy + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    block = max(16, triton.next_power_of_2(triton.cdiv(n_cols, CHUNKS.value)))
    m = torch.empty(n_rows, dtype=torch.float32, device=x.device)
    d = torch.empty(n_rows, dtype=torch.float32, device=x.device)
    y = torch.empty_like(x)
    stats_kernel[(n_rows,)](x, m, d, x.stride(0), n_cols, BLOCK=block)
    norm_kernel[(n_rows, triton.cdiv(n_cols, block))](x, y, m, d, x.stride(0), y.stride(0), n_cols, BLOCK=block)
    return y
